/** The message bus: Kafka (KAFKA_BROKERS) or the in-process bus, dead letters, the Avro registry and replays. */
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import type { Clock } from '../shared/clock';
import type { MessageBus } from '../infrastructure/bus/port';
import { InProcessBus } from '../infrastructure/bus/inprocess/inprocess-bus';
import { KafkaBus } from '../infrastructure/bus/kafka/kafka-bus';
import { DeadLetterCounter } from '../infrastructure/bus/dead-letter';
import { DeadLetterReplayer, PgDeadLetterTable } from '../infrastructure/bus/dead-letter-table';
import { AvroRegistry } from '../infrastructure/bus/avro';
import type { Stops } from './lifecycle';

export interface Bus {
  bus: MessageBus;
  deadLetters: DeadLetterCounter;
  registry: AvroRegistry;
}

export function startBus(config: Config, logger: Logger, clock: Clock, pool: pg.Pool, stops: Stops): Bus {
  const deadLetters = new DeadLetterCounter();
  const busRetry = { maxAttempts: config.BUS_MAX_ATTEMPTS };
  const bus: MessageBus = config.KAFKA_BROKERS
    ? new KafkaBus({
        brokers: config.KAFKA_BROKERS.split(','),
        clientId: config.KAFKA_CLIENT_ID,
        logger,
        clock,
        retry: busRetry,
        deadLetters,
        client: { connectionTimeout: config.KAFKA_CONNECTION_TIMEOUT_MS },
        fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
        partitionsConsumedConcurrently: config.KAFKA_PARTITIONS_CONCURRENCY,
        consumer: { sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS, heartbeatInterval: Math.floor(config.KAFKA_SESSION_TIMEOUT_MS / 10) },
      })
    : new InProcessBus({ logger, clock, retry: busRetry, deadLetters, deadLetterSink: new PgDeadLetterTable(pool, clock) });
  stops.push(() => bus.close());
  return { bus, deadLetters, registry: AvroRegistry.load() };
}

/**
 * Replays of the embedded default's dead letters, requested by `svc deadletters replay` in the
 * table, published on this process's in-process bus (only where its consumers run; started last so
 * that they have subscribed).
 */
export function startDeadLetterReplays(config: Config, logger: Logger, pool: pg.Pool, bus: MessageBus, consumersHere: boolean, stops: Stops): void {
  if (config.KAFKA_BROKERS || !consumersHere) return;
  const replayer = new DeadLetterReplayer({ table: new PgDeadLetterTable(pool), bus, logger });
  replayer.start();
  stops.push(() => replayer.stop());
}

/**
 * A bus client for operator tools (`svc deadletters` in scaled mode): the Kafka cluster. The
 * embedded in-process bus lives inside the serving process; its dead letters are in the
 * dead_letters table (src/bootstrap/operator-database.ts opens it).
 */
export function openOperatorBus(config: Config, logger: Logger): MessageBus {
  if (!config.KAFKA_BROKERS) {
    throw new Error(
      'no Kafka to read svc.deadletter from (set KAFKA_BROKERS in scaled mode); the embedded in-process bus ' +
        'records its dead letters in the dead_letters table instead',
    );
  }
  return new KafkaBus({ brokers: config.KAFKA_BROKERS.split(','), clientId: `${config.KAFKA_CLIENT_ID}-operator`, logger });
}
