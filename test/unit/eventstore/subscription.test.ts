import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PgAllSubscription, isTransient } from '../../../src/infrastructure/eventstore/postgres/subscription';
import { silentLogger } from '../../../src/infrastructure/postgres/log';
import type { RecordedEvent } from '../../../src/shared/events';

function recorded(position: number): RecordedEvent {
  return {
    type: 'T',
    data: {},
    metadata: { eventId: `e${position}`, occurredAt: '2026-01-01T00:00:00.000Z' },
    streamName: 's',
    streamPosition: BigInt(position - 1),
    globalPosition: BigInt(position),
    recordedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** An in-memory log standing in for the events table. */
function log(count: number, failures: Error[] = []) {
  const events = Array.from({ length: count }, (_, i) => recorded(i + 1));
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    async read(after: bigint, maxCount: number) {
      reads++;
      const failure = failures.shift();
      if (failure) throw failure;
      return events.filter((e) => e.globalPosition > after).slice(0, maxCount);
    },
    async head() {
      return BigInt(events.length);
    },
  };
}

function connectionError(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
}

test('delivers in batches, in order, from the exclusive checkpoint, and caughtUp() waits for the head', async () => {
  const source = log(7);
  const seen: bigint[] = [];
  const sub = new PgAllSubscription({
    handler: async (e) => void seen.push(e.globalPosition),
    after: 2n,
    pollIntervalMs: 10,
    batchSize: 2,
    read: source.read,
    head: source.head,
    logger: silentLogger,
    onStopped() {},
  });
  sub.start();
  await sub.caughtUp();
  assert.deepEqual(seen, [3n, 4n, 5n, 6n, 7n]);
  assert.equal(sub.checkpoint, 7n);
  await sub.stop();
  await assert.rejects(sub.caughtUp(), /stopped/);
});

test('a lost connection while reading is retried, not fatal; nothing is skipped or repeated', async () => {
  const source = log(3, [connectionError(), connectionError()]);
  const seen: bigint[] = [];
  let reported: Error | undefined;
  const sub = new PgAllSubscription({
    handler: async (e) => void seen.push(e.globalPosition),
    after: 0n,
    pollIntervalMs: 5,
    batchSize: 100,
    read: source.read,
    head: source.head,
    onError: (err) => (reported = err),
    logger: silentLogger,
    onStopped() {},
  });
  sub.start();
  await sub.caughtUp();
  assert.deepEqual(seen, [1n, 2n, 3n]);
  assert.ok(source.reads >= 3);
  assert.equal(reported, undefined);
  await sub.stop();
});

test('a non-transient read error stops the subscription and is reported', async () => {
  const source = log(3, [new Error('column "nope" does not exist')]);
  let reported: Error | undefined;
  let stoppedCalls = 0;
  const sub = new PgAllSubscription({
    handler: async () => undefined,
    after: 0n,
    pollIntervalMs: 5,
    batchSize: 100,
    read: source.read,
    head: source.head,
    onError: (err) => (reported = err),
    logger: silentLogger,
    onStopped: () => void stoppedCalls++,
  });
  sub.start();
  await assert.rejects(sub.caughtUp(), /does not exist/);
  await sub.stop();
  assert.match(reported!.message, /does not exist/);
  assert.equal(stoppedCalls, 1);
});

test('isTransient recognises connection failures only', () => {
  assert.equal(isTransient(connectionError()), true);
  assert.equal(isTransient(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), true);
  assert.equal(isTransient(new Error('Connection terminated unexpectedly')), true);
  // pg's answer to a query on a pooled client whose connection died while it was checked out
  assert.equal(isTransient(new Error('Client has encountered a connection error and is not queryable')), true);
  assert.equal(isTransient(Object.assign(new Error('syntax error'), { code: '42601' })), false);
});

test('a short batch that may predate the wake-up is followed by another read, not by a sleep', async () => {
  // The store serves live subscriptions from a shared tail, which can be older than the commit whose
  // NOTIFY woke this subscription: after a non-empty batch it must read again before idling.
  const reads: bigint[] = [];
  const answers: RecordedEvent[][] = [[], [recorded(1)], [recorded(2)], []];
  const seen: bigint[] = [];
  const sub = new PgAllSubscription({
    handler: async (e) => void seen.push(e.globalPosition),
    after: 0n,
    pollIntervalMs: 60_000,
    batchSize: 500,
    read: async (after) => {
      reads.push(after);
      return answers.shift() ?? [];
    },
    head: async () => 2n,
    logger: silentLogger,
    onStopped() {},
  });
  sub.start();
  await new Promise((r) => setTimeout(r, 20)); // first read found nothing: idle for 60 s
  sub.wake();
  const started = Date.now();
  await sub.caughtUp();
  assert.ok(Date.now() - started < 1000, 'caught up without waiting for the poll');
  assert.deepEqual(seen, [1n, 2n]);
  assert.deepEqual(reads.slice(0, 3), [0n, 0n, 1n]);
  await sub.stop();
});

test('batch handlers get each read batch whole and move the checkpoint past it', async () => {
  const source = log(5);
  const batches: bigint[][] = [];
  const sub = new PgAllSubscription({
    batchHandler: async (events) => void batches.push(events.map((e) => e.globalPosition)),
    after: 0n,
    pollIntervalMs: 10,
    batchSize: 2,
    read: source.read,
    head: source.head,
    logger: silentLogger,
    onStopped() {},
  });
  sub.start();
  await sub.caughtUp();
  assert.deepEqual(batches, [[1n, 2n], [3n, 4n], [5n]]);
  assert.equal(sub.checkpoint, 5n);
  await sub.stop();
});
