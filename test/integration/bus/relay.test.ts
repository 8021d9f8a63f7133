/**
 * The event relay against a real PostgreSQL event store: every committed event reaches the bus
 * as an Avro EventEnvelope on svc.events.<category>, keyed by stream, checkpoint after publish.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AvroRegistry, EVENT_ENVELOPE, fromEventEnvelope, type EventEnvelope } from '../../../src/infrastructure/bus/avro';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { KafkaBus } from '../../../src/infrastructure/bus/kafka/kafka-bus';
import type { BusMessage, ConsumedMessage, MessageBus } from '../../../src/infrastructure/bus/port';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { MESSAGE_ID_HEADER, idempotentHandler } from '../../../src/infrastructure/inbox/inbox';
import { EventRelay, readRelayCheckpoint } from '../../../src/infrastructure/relay/relay';
import type { Event } from '../../../src/shared/events';
import { startMockKafka } from '../../support/kafka';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { recordingLogger, waitFor } from './contract';

const registry = AvroRegistry.load();

function newEvent(type: string, data: Record<string, unknown> = {}): Event {
  return {
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: 'corr-relay',
      actor: { surface: 's1', accountId: '7' },
      occurredAt: '2026-11-22T12:00:00.000Z',
    },
  };
}

function collect(bus: MessageBus, topics: string[], groupId = `g-${randomUUID()}`) {
  const received: ConsumedMessage[] = [];
  const consumer = bus.subscribe({ groupId, topics, fromBeginning: true }, async (m) => {
    received.push(m);
  });
  return { received, consumer };
}

describe('EventRelay', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const relays: EventRelay[] = [];
  const tracked = (relay: EventRelay) => {
    relays.push(relay);
    return relay;
  };
  before(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 50 });
  });
  after(async () => {
    await Promise.all(relays.map((r) => r.stop()));
    await store.close();
    await db.drop();
  });

  it('publishes every event to its category topic, keyed by stream, and checkpoints after publishing', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    const screenings = collect(bus, ['svc.events.screening']);
    const accounts = collect(bus, ['svc.events.account']);
    await screenings.consumer;
    await accounts.consumer;
    await store.appendToStream('screening-1', [newEvent('ScreeningRequested', { name: 'A' }), newEvent('ScreeningCompleted')]);
    await store.appendToStream('account-9', [newEvent('AccountOpened')]);
    const relay = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-basic' }));
    relay.start();
    await store.appendToStream('screening-2', [newEvent('ScreeningRequested', { name: 'B' })]);
    await relay.caughtUp();
    await waitFor(() => screenings.received.length === 3 && accounts.received.length === 1, 2000, 'relayed events');

    const stored = await store.readAll();
    const decoded = [...screenings.received, ...accounts.received].map((m) => ({
      message: m,
      envelope: registry.decode<EventEnvelope>(EVENT_ENVELOPE, m),
    }));
    for (const { message, envelope } of decoded) {
      assert.equal(message.key, envelope.streamName, 'key = stream name');
      assert.equal(message.headers[MESSAGE_ID_HEADER], envelope.eventId);
      const original = stored.find((e) => e.metadata.eventId === envelope.eventId);
      assert.ok(original, 'the envelope is one of the stored events');
      assert.deepEqual(fromEventEnvelope(envelope), original);
    }
    assert.deepEqual(
      screenings.received.filter((m) => m.key === 'screening-1').map((m) => m.headers['x-event-type']),
      ['ScreeningRequested', 'ScreeningCompleted'],
    );
    const last = stored[stored.length - 1]!.globalPosition;
    assert.equal(await readRelayCheckpoint(db.pool, 'test-basic'), last);
    assert.equal(relay.position, last);
    await relay.stop();
    await bus.close();
  });

  it('writes its checkpoint at most every checkpointEveryMs, and in full on catch-up and stop', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    const sink = collect(bus, ['svc.events.throttle']);
    await sink.consumer;
    const relay = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-throttle', checkpointEveryMs: 60_000 }));
    relay.start();
    await relay.caughtUp(); // publishes the earlier tests' events and records the checkpoint there
    const start = await readRelayCheckpoint(db.pool, 'test-throttle');
    let last = 0n;
    for (let i = 0; i < 5; i++) last = (await store.appendToStream(`throttle-${i}`, [newEvent('Ticked', { i })])).lastGlobalPosition;
    await waitFor(() => relay.position === last, 2000, 'published');
    assert.equal(sink.received.length, 5);
    assert.equal(await readRelayCheckpoint(db.pool, 'test-throttle'), start, 'no checkpoint write per publish within the interval');
    await relay.stop();
    assert.equal(await readRelayCheckpoint(db.pool, 'test-throttle'), last, 'stop records how far it published');
    await bus.close();
  });

  it('resumes from its checkpoint after a restart, publishing only newer events', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    const sink = collect(bus, ['svc.events.order']);
    await sink.consumer;
    await store.appendToStream('order-1', [newEvent('OrderPlaced')]);
    const first = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-resume' }));
    first.start();
    await first.caughtUp();
    await first.stop();
    const countAfterFirst = sink.received.length;
    assert.ok(countAfterFirst >= 1);

    await store.appendToStream('order-1', [newEvent('OrderShipped')]);
    const second = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-resume' }));
    second.start();
    await second.caughtUp();
    await waitFor(() => sink.received.length === countAfterFirst + 1, 2000, 'the new event');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(sink.received.length, countAfterFirst + 1, 'nothing before the checkpoint is republished');
    assert.equal(sink.received.at(-1)!.headers['x-event-type'], 'OrderShipped');
    await second.stop();
    await bus.close();
  });

  it('retries a failing publish without skipping or advancing the checkpoint, and logs each failure', async () => {
    const inner = new InProcessBus({ logger: recordingLogger() });
    let failuresLeft = 3;
    const checkpointsWhileFailing: bigint[] = [];
    const flaky: MessageBus = {
      publish: async (topic: string, messages: BusMessage[]) => {
        if (topic === 'svc.events.flaky' && failuresLeft-- > 0) {
          checkpointsWhileFailing.push(await readRelayCheckpoint(db.pool, 'test-flaky'));
          throw new Error('broker unavailable');
        }
        await inner.publish(topic, messages);
      },
      subscribe: (o, h) => inner.subscribe(o, h),
      subscribeInBatches: (o, h) => inner.subscribeInBatches(o, h),
      close: () => inner.close(),
    };
    const sink = collect(inner, ['svc.events.flaky']);
    await sink.consumer;
    const logger = recordingLogger();
    const relay = tracked(new EventRelay({
      store,
      bus: flaky,
      pool: db.pool,
      registry,
      logger,
      name: 'test-flaky',
      retryBackoff: { initialMs: 10, maxMs: 20 },
    }));
    await store.appendToStream('flaky-1', [newEvent('A'), newEvent('B'), newEvent('C')]);
    relay.start();
    await relay.caughtUp();
    await waitFor(() => sink.received.length >= 3, 2000, 'the flaky stream');
    assert.deepEqual(sink.received.map((m) => m.headers['x-event-type']), ['A', 'B', 'C']);
    assert.equal(logger.errors.filter((e) => JSON.stringify(e.obj).includes('broker unavailable')).length, 3);
    const flakyEvents = (await store.readStream('flaky-1')).map((e) => e.globalPosition);
    assert.equal(checkpointsWhileFailing.length, 3);
    for (const position of checkpointsWhileFailing) assert.ok(position < flakyEvents[0]!, 'no checkpoint past an unpublished event');
    assert.equal(await readRelayCheckpoint(db.pool, 'test-flaky'), relay.position);
    assert.ok(relay.position >= flakyEvents[2]!);
    await relay.stop();
    await inner.close();
  });

  it('republishes after a crash before the checkpoint, and an inbox consumer applies each event once', async () => {
    await db.pool.query('CREATE TABLE IF NOT EXISTS ledger_effects (event_id text NOT NULL, stream text NOT NULL)');
    const bus = new InProcessBus({ logger: recordingLogger() });
    let deliveries = 0;
    const apply = idempotentHandler(db.pool, 'ledger', async (message, client) => {
      const envelope = registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
      await client.query('INSERT INTO ledger_effects (event_id, stream) VALUES ($1, $2)', [envelope.eventId, envelope.streamName]);
    });
    await bus.subscribe({ groupId: 'ledger', topics: ['svc.events.ledger'], fromBeginning: true }, async (message) => {
      await apply(message);
      deliveries++;
    });
    await store.appendToStream('ledger-1', [newEvent('Credited'), newEvent('Debited')]);
    const first = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-crash' }));
    first.start();
    await first.caughtUp();
    await first.stop();
    // The process died after publishing but before its checkpoint was written.
    await db.pool.query("UPDATE relay_checkpoints SET position = 0 WHERE relay_name = 'test-crash'");
    const second = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-crash' }));
    second.start();
    await second.caughtUp();
    await waitFor(() => deliveries >= 4, 2000, 'the republished copies');
    const effects = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_effects WHERE stream = 'ledger-1'");
    assert.equal(deliveries, 4, 'each event was delivered twice');
    assert.equal(effects.rows[0]!.n, 2, 'but applied once');
    await second.stop();
    await bus.close();
  });

  it('lets only one relay of a name publish; the standby takes over when the leader stops', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    const sink = collect(bus, ['svc.events.ha']);
    await sink.consumer;
    const make = () =>
      tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger: recordingLogger(), name: 'test-ha', standbyRetryMs: 50 }));
    const a = make();
    a.start();
    await a.caughtUp();
    const b = make();
    b.start();
    await store.appendToStream('ha-1', [newEvent('One')]);
    await a.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(a.isLeader, true);
    assert.equal(b.isLeader, false);
    await a.stop();
    await store.appendToStream('ha-1', [newEvent('Two')]);
    await b.caughtUp();
    await waitFor(() => sink.received.length === 2, 2000, 'both events');
    assert.deepEqual(sink.received.map((m) => m.headers['x-event-type']), ['One', 'Two'], 'each event once, in order');
    await b.stop();
    await bus.close();
  });

  it('reaches a Kafka consumer through the kafkajs adapter and the mock broker', async () => {
    const kafka = await startMockKafka({ topics: [{ name: 'svc.events.kyc', partitions: 3 }] });
    const logger = recordingLogger();
    const bus = new KafkaBus({
      brokers: kafka.brokers,
      logger,
      consumer: { sessionTimeout: 6_000, heartbeatInterval: 500, rebalanceTimeout: 3_000, maxWaitTimeInMs: 100 },
    });
    try {
      const sink = collect(bus, ['svc.events.kyc'], 'kyc-reader');
      await sink.consumer;
      const relay = tracked(new EventRelay({ store, bus, pool: db.pool, registry, logger, name: 'test-kafka' }));
      relay.start();
      await store.appendToStream('kyc-5', [newEvent('KycStarted'), newEvent('KycPassed', { level: 2 })]);
      await relay.caughtUp();
      await waitFor(() => sink.received.length === 2, 15_000, 'kafka delivery');
      const envelopes = sink.received.map((m) => registry.decode<EventEnvelope>(EVENT_ENVELOPE, m));
      assert.deepEqual(envelopes.map((e) => e.type), ['KycStarted', 'KycPassed']);
      assert.deepEqual(JSON.parse(envelopes[1]!.data), { level: 2 });
      assert.ok(sink.received.every((m) => m.key === 'kyc-5'));
      await relay.stop();
    } finally {
      await bus.close();
      await kafka.stop();
    }
  });
});
