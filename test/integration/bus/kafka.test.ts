/**
 * The kafkajs adapter against a real Kafka-protocol broker: librdkafka's mock cluster
 * (test/support/kafka.ts), or a real Kafka when KAFKA_BROKERS is set.
 */
import { KafkaBus } from '../../../src/infrastructure/bus/kafka/kafka-bus';
import { startMockKafka } from '../../support/kafka';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { busContract, contractTopics, recordingLogger, waitFor } from './contract';

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

describe('kafkajs adapter: batches of several partitions handled at once', () => {
  it('commits every partition\'s batch (their commits share a request): a restarted member gets only what came after', { skip: Boolean(external) }, async () => {
    const topic = 'concurrent.commits';
    const broker = await startMockKafka({ brokers: 1, topics: [{ name: topic, partitions: 3 }] });
    const make = () =>
      new KafkaBus({ brokers: broker.brokers, logger: recordingLogger(), clientId: 'concurrent-commits', consumer: testConsumerSettings, partitionsConsumedConcurrently: 3, joinTimeoutMs: 30_000 });
    const first = make();
    let second: KafkaBus | undefined;
    try {
      // Twelve keys: every partition gets some, all ready before anyone consumes.
      const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
      await first.publish(topic, keys.map((key) => ({ key, value: Buffer.from(key), headers: {} })));
      const seen: string[] = [];
      const partitions = new Set<number>();
      // The handlers of the first fetch's batches end in the same turn, once all three partitions are in.
      let releaseAll!: () => void;
      const allIn = new Promise<void>((resolve) => (releaseAll = resolve));
      const consumer = await first.subscribeInBatches({ groupId: 'g-concurrent', topics: [topic], fromBeginning: true, maxBatch: 64 }, async (batch) => {
        partitions.add(batch[0]!.partition);
        if (partitions.size === 3) releaseAll();
        await allIn;
        seen.push(...batch.map((m) => m.key));
      });
      await waitFor(() => seen.length >= keys.length, 20_000, 'twelve messages');
      await consumer.stop();
      assert.deepEqual([...seen].sort(), [...keys].sort(), 'each message once');
      assert.equal(partitions.size, 3, 'batches of three partitions were handled together');

      await first.publish(topic, [{ key: 'after', value: Buffer.from('after'), headers: {} }]);
      second = make();
      const again: string[] = [];
      await second.subscribeInBatches({ groupId: 'g-concurrent', topics: [topic], fromBeginning: true, maxBatch: 64 }, async (batch) => {
        again.push(...batch.map((m) => m.key));
      });
      await waitFor(() => again.length >= 1, 20_000, 'the message after the restart');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(again, ['after'], 'every partition\'s offset was committed');
    } finally {
      await second?.close();
      await first.close();
      await broker.stop();
    }
  });
});
