/**
 * Bus and relay benchmark (a script, not a test): npx tsx bench/bus.ts
 *
 * In one run, on this machine:
 * - in-process bus throughput (the baseline): messages/s from first publish to last handled,
 *   one consumer group, Avro EventEnvelope-sized payloads;
 * - kafkajs bus throughput against librdkafka's mock cluster (same messages, manual commit per
 *   message), as a ratio to the baseline;
 * - relay latency from append (PostgreSQL event store) to a consumer's handler, p50/p99/max over
 *   N sequential appends, through the in-process bus and through Kafka (mock broker);
 * - relay catch-up rate through Kafka: events already in the store published from checkpoint 0.
 * Sizes: BENCH_INPROC (default 100000), BENCH_KAFKA (default 5000), BENCH_RELAY (default 300),
 * BENCH_CATCHUP (default 5000). Uses TEST_DATABASE_URL's server or an embedded PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { AvroRegistry, EVENT_ENVELOPE, toEventEnvelope } from '../src/infrastructure/bus/avro';
import { InProcessBus } from '../src/infrastructure/bus/inprocess/inprocess-bus';
import { KafkaBus } from '../src/infrastructure/bus/kafka/kafka-bus';
import type { BusLogger } from '../src/infrastructure/bus/logger';
import type { BusMessage, MessageBus } from '../src/infrastructure/bus/port';
import { PostgresEventStore } from '../src/infrastructure/eventstore/postgres/store';
import { MESSAGE_ID_HEADER } from '../src/infrastructure/inbox/inbox';
import { EventRelay } from '../src/infrastructure/relay/relay';
import type { Event, RecordedEvent } from '../src/shared/events';
import { startMockKafka } from '../test/support/kafka';
import { createTestDatabase } from '../test/support/postgres';

const N_INPROC = Number(process.env.BENCH_INPROC ?? 100_000);
const N_KAFKA = Number(process.env.BENCH_KAFKA ?? 5_000);
const N_RELAY = Number(process.env.BENCH_RELAY ?? 300);
const N_CATCHUP = Number(process.env.BENCH_CATCHUP ?? 5_000);
const BATCH = 500;

const quietLogger: BusLogger = {
  error: (obj, msg) => console.error(msg, JSON.stringify(obj)),
  warn: () => {},
  info: () => {},
  debug: () => {},
};
// The mock broker holds an empty fetch for the full maxWait even when data arrives (a real broker answers
// early), so consumer latency on the mock is about uniform(0, maxWait): keep it short here.
const kafkaConsumerSettings = { sessionTimeout: 6_000, heartbeatInterval: 500, rebalanceTimeout: 3_000, maxWaitTimeInMs: 10 };
const registry = AvroRegistry.load();
const seconds = (startNs: bigint) => Number(process.hrtime.bigint() - startNs) / 1e9;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function benchEvent(i: number): Event {
  return {
    type: 'ScreeningRequested',
    data: { i, subject: { name: 'Acme Trading Ltd', country: 'GB' }, lists: ['ofac', 'un', 'eu'] },
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      actor: { surface: 's1', accountId: '42', keyId: 'key-1' },
      occurredAt: '2026-01-01T00:00:00.000Z',
    },
  };
}

function envelopeMessages(count: number): BusMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const recorded: RecordedEvent = {
      ...benchEvent(i),
      streamName: `screening-${i % 64}`,
      streamPosition: BigInt(Math.floor(i / 64)),
      globalPosition: BigInt(i + 1),
      recordedAt: '2026-01-01T00:00:00.000Z',
    };
    return registry.message(EVENT_ENVELOPE, recorded.streamName, toEventEnvelope(recorded), { [MESSAGE_ID_HEADER]: recorded.metadata.eventId });
  });
}

async function throughput(bus: MessageBus, topic: string, messages: BusMessage[]): Promise<number> {
  let handled = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = await bus.subscribe({ groupId: `bench-${randomUUID()}`, topics: [topic] }, async (m) => {
    registry.decode(EVENT_ENVELOPE, m); // a real consumer decodes
    if (++handled === messages.length) done();
  });
  const started = process.hrtime.bigint();
  for (let i = 0; i < messages.length; i += BATCH) await bus.publish(topic, messages.slice(i, i + BATCH));
  await finished;
  const rate = messages.length / seconds(started);
  await consumer.stop();
  return rate;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Appends N events one at a time (a short pause between them) and times each until a consumer handled it. */
async function relayLatency(store: PostgresEventStore, bus: MessageBus, topicCategory: string, relayName: string, pool: import('pg').Pool) {
  const appendedAt = new Map<string, bigint>();
  const latenciesMs: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = await bus.subscribe({ groupId: `bench-latency-${relayName}`, topics: [`svc.events.${topicCategory}`] }, async (m) => {
    const started = appendedAt.get(m.headers[MESSAGE_ID_HEADER]!);
    if (started === undefined) return;
    latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (latenciesMs.length === N_RELAY) done();
  });
  const relay = new EventRelay({ store, bus, pool, registry, logger: quietLogger, name: relayName, pollIntervalMs: 1000 });
  relay.start();
  await relay.caughtUp();
  for (let i = 0; i < N_RELAY; i++) {
    const event = benchEvent(i);
    appendedAt.set(event.metadata.eventId, process.hrtime.bigint());
    await store.appendToStream(`${topicCategory}-${i % 16}`, [event]);
    await sleep(5);
  }
  await finished;
  await relay.stop();
  await consumer.stop();
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { events: sorted.length, p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted.at(-1)!) };
}

function librdkafkaVersion(): string {
  try {
    return execFileSync('pkg-config', ['--modversion', 'rdkafka'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    librdkafka: librdkafkaVersion(),
    postgres: process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : 'embedded',
    // Other work on the machine skews latency tails: noted so runs can be compared.
    loadAverage1mAtStart: Math.round(os.loadavg()[0]! * 100) / 100,
  };

  // 1. Baseline: in-process bus.
  const inproc = new InProcessBus({ logger: quietLogger });
  await throughput(inproc, 'bench.warmup', envelopeMessages(2_000));
  const inprocRate = await throughput(inproc, 'bench.inproc', envelopeMessages(N_INPROC));
  await inproc.close();

  // 2. kafkajs on the mock broker.
  const kafka = await startMockKafka({
    topics: [
      { name: 'bench.kafka', partitions: 4 },
      { name: 'svc.events.latency', partitions: 4 },
      { name: 'svc.events.catchup', partitions: 4 },
    ],
  });
  const kafkaBus = new KafkaBus({ brokers: kafka.brokers, logger: quietLogger, consumer: kafkaConsumerSettings, partitionsConsumedConcurrently: 4 });
  const db = await createTestDatabase();
  const store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 1000 });
  try {
    const kafkaRate = await throughput(kafkaBus, 'bench.kafka', envelopeMessages(N_KAFKA));

    // 3. Relay latency, append → handler, in-process then Kafka.
    const inprocForRelay = new InProcessBus({ logger: quietLogger });
    const relayInproc = await relayLatency(store, inprocForRelay, 'latency', 'bench-inproc', db.pool);
    await inprocForRelay.close();
    const relayKafka = await relayLatency(store, kafkaBus, 'latency', 'bench-kafka', db.pool);

    // 4. Relay catch-up through Kafka: events already in the store.
    for (let i = 0; i < N_CATCHUP; i += 100) {
      await store.appendToStream(`catchup-${i % 50}`, Array.from({ length: Math.min(100, N_CATCHUP - i) }, (_, j) => benchEvent(i + j)));
    }
    let received = 0;
    let caughtUp!: () => void;
    const allReceived = new Promise<void>((resolve) => (caughtUp = resolve));
    const catchupConsumer = await kafkaBus.subscribe({ groupId: 'bench-catchup', topics: ['svc.events.catchup'] }, async () => {
      if (++received === N_CATCHUP) caughtUp();
    });
    const relay = new EventRelay({ store, bus: kafkaBus, pool: db.pool, registry, logger: quietLogger, name: 'bench-catchup' });
    const started = process.hrtime.bigint();
    relay.start();
    await allReceived;
    const catchupRate = N_CATCHUP / seconds(started);
    await relay.stop();
    await catchupConsumer.stop();

    const result = {
      machine: { ...machine, loadAverage1mAtEnd: Math.round(os.loadavg()[0]! * 100) / 100 },
      inProcessBus: { messages: N_INPROC, messagesPerSecond: Math.round(inprocRate) },
      kafkaBusOnMockBroker: {
        messages: N_KAFKA,
        messagesPerSecond: Math.round(kafkaRate),
        ratioToInProcess: Math.round((kafkaRate / inprocRate) * 1000) / 1000,
        note: 'one commit per message (autoCommit: false), 4 partitions consumed concurrently',
      },
      relayLatencyAppendToHandler: { inProcessBus: relayInproc, kafkaMockBroker: relayKafka },
      relayCatchUpThroughKafka: { events: N_CATCHUP, eventsPerSecond: Math.round(catchupRate) },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await store.close();
    await kafkaBus.close();
    await kafka.stop();
    await db.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
