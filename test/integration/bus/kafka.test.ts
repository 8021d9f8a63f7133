/**
 * The kafkajs adapter against a real Kafka-protocol broker: librdkafka's mock cluster
 * (test/support/kafka.ts), or a real Kafka when KAFKA_BROKERS is set.
 */
import { KafkaBus } from '../../../src/infrastructure/bus/kafka/kafka-bus';
import { startMockKafka } from '../../support/kafka';
import { busContract, contractTopics, recordingLogger } from './contract';

const external = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
// A long-lived broker keeps topics and offsets between runs: use fresh names every run there.
const namePrefix = external ? `run-${Date.now().toString(36)}.` : '';
const testConsumerSettings = { sessionTimeout: 6_000, heartbeatInterval: 500, rebalanceTimeout: 3_000, maxWaitTimeInMs: 100 };

busContract(
  process.env.KAFKA_BROKERS ? `kafkajs (KAFKA_BROKERS=${process.env.KAFKA_BROKERS})` : 'kafkajs on the librdkafka mock cluster',
  async () => {
    const broker = external
      ? { brokers: external, stop: async () => {} }
      : await startMockKafka({ brokers: 3, topics: contractTopics.map((name) => ({ name, partitions: 3 })) });
    const logger = recordingLogger();
    const make = () =>
      new KafkaBus({
        brokers: broker.brokers,
        logger,
        clientId: 'bus-contract',
        consumer: testConsumerSettings,
        redeliveryBackoff: { initialMs: 20, maxMs: 100 },
        joinTimeoutMs: 30_000,
      });
    const bus = make();
    return {
      bus,
      logger,
      newClient: async () => make(),
      close: async () => {
        await bus.close();
        await broker.stop();
      },
    };
  },
  { deliveryTimeoutMs: 20_000, namePrefix },
);
