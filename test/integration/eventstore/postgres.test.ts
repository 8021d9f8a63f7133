import assert from 'node:assert/strict';
import { randomUUID as randomUUIDForTest } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { DuplicateEventIdsError, InvalidEventBatchError } from '../../../src/infrastructure/eventstore/errors';
import { StreamRevisionConflictError } from '../../../src/infrastructure/eventstore/port';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import type { RecordedEvent } from '../../../src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { eventStoreContract, eventually, newEvent } from './contract';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  return { store: new PostgresEventStore({ pool: db.pool, pollIntervalMs: 50 }), teardown: () => db.drop() };
});

/** Ends a held test transaction even when an assertion failed midway, so teardown cannot hang. */
async function releaseQuietly(client: import('pg').PoolClient): Promise<void> {
  await client.query('ROLLBACK').catch(() => undefined);
  client.release();
}

describe('PostgreSQL event store specifics', () => {
  const opened: TestDatabase[] = [];
  after(async () => {
    await Promise.all(opened.map((db) => db.drop()));
  });
  async function fresh(): Promise<{ db: TestDatabase; store: PostgresEventStore }> {
    const db = await createTestDatabase();
    opened.push(db);
    return { db, store: new PostgresEventStore({ pool: db.pool, pollIntervalMs: 20 }) };
  }

  it('rejects a batch mixing existing and new event ids, or reusing ids of another stream, writing nothing', async () => {
    const { store } = await fresh();
    const a = newEvent('A');
    await store.appendToStream('s-1', [a]);
    await assert.rejects(store.appendToStream('s-1', [a, newEvent('B')]), DuplicateEventIdsError);
    await assert.rejects(store.appendToStream('s-2', [a]), DuplicateEventIdsError);
    await assert.rejects(store.appendToStream('s-1', [newEvent('C', {}, 'same'), newEvent('D', {}, 'same')]), InvalidEventBatchError);
    assert.equal((await store.readAll()).length, 1);
    await store.close();
  });

  it('appends run concurrently, but readers wait at the fence for an append that drew an earlier position', async (t) => {
    const { db, store } = await fresh();
    const client = await db.pool.connect();
    t.after(() => releaseQuietly(client));
    await client.query('BEGIN');
    const first = await store.appendInTransaction(client, 'held', [newEvent('First')]);
    // Another stream is not blocked by the open transaction, and gets a later position…
    const second = await store.appendToStream('other', [newEvent('Second')]);
    assert.ok(second.lastGlobalPosition > first.lastGlobalPosition);
    // …but a reader must not return it yet, or a checkpoint past it would skip 'First'.
    let read: string[] | undefined;
    const reading = store.readAll().then((events) => (read = events.map((e) => e.type)));
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(read, undefined, 'readAll waits for the open append transaction');
    await client.query('COMMIT');
    await reading;
    assert.deepEqual(read, ['First', 'Second']);
    await store.close();
  });

  it('a rolled-back append leaves a gap that is never filled, and readers pass it', async (t) => {
    const { db, store } = await fresh();
    const client = await db.pool.connect();
    t.after(() => releaseQuietly(client));
    await client.query('BEGIN');
    const doomed = await store.appendInTransaction(client, 'held', [newEvent('Doomed')]);
    const kept = await store.appendToStream('other', [newEvent('Kept')]);
    const reading = store.readAll();
    await client.query('ROLLBACK');
    assert.deepEqual((await reading).map((e) => e.type), ['Kept']);
    const later = await store.appendToStream('held', [newEvent('Later')], { expectedRevision: 'no_stream' });
    assert.ok(later.lastGlobalPosition > kept.lastGlobalPosition && kept.lastGlobalPosition > doomed.lastGlobalPosition);
    assert.deepEqual((await store.readAll({ after: kept.lastGlobalPosition })).map((e) => e.type), ['Later']);
    await store.close();
  });

  it('concurrent appends to one stream with any revision queue on the stream lock and keep the chain', async () => {
    const { store } = await fresh();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.appendToStream('busy', [newEvent('E', { i })])));
    assert.deepEqual(results.map((r) => r.nextExpectedRevision).sort((a, b) => Number(a - b)), Array.from({ length: 10 }, (_, i) => BigInt(i)));
    const { verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
    assert.equal(verifyHashChain(await store.readStream('busy')).ok, true);
    await store.close();
  });

  it('two processes with stale stream-head caches still chain correctly and detect stale revisions', async () => {
    const { db, store } = await fresh();
    const other = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 20 });
    const { verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
    // Each store caches the head it last wrote; the other store's writes make that cache stale.
    await store.appendToStream('shared', [newEvent('A')], { expectedRevision: 'no_stream' });
    await other.appendToStream('shared', [newEvent('B')], { expectedRevision: 0n });
    await store.appendToStream('shared', [newEvent('C')]); // cache says revision 0: must re-chain from 1
    await assert.rejects(other.appendToStream('shared', [newEvent('Stale')], { expectedRevision: 1n }), StreamRevisionConflictError);
    await assert.rejects(store.appendToStream('shared', [newEvent('New')], { expectedRevision: 'no_stream' }), StreamRevisionConflictError);
    const written = await other.appendToStream('shared', [newEvent('D')], { expectedRevision: 2n });
    assert.equal(written.nextExpectedRevision, 3n);
    // Racing writers from both stores on one hot stream: every append lands, once, in one valid chain.
    const racing = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? store : other).appendToStream('shared', [newEvent('R', { i })], i % 3 === 0 ? { expectedRevision: 'stream_exists' } : {})),
    );
    assert.deepEqual(
      racing.map((r) => r.nextExpectedRevision).sort((a, b) => Number(a - b)),
      Array.from({ length: 30 }, (_, i) => BigInt(i + 4)),
    );
    const stream = await store.readStream('shared');
    assert.deepEqual(stream.slice(0, 4).map((e) => e.type), ['A', 'B', 'C', 'D']);
    assert.equal(stream.length, 34);
    assert.equal(verifyHashChain(stream).ok, true);
    // An empty batch reports the head without writing, and still checks the expectation.
    assert.deepEqual(await other.appendToStream('shared', [], { expectedRevision: 33n }), { nextExpectedRevision: 33n, lastGlobalPosition: stream[33]!.globalPosition, written: false });
    await assert.rejects(other.appendToStream('missing', [], { expectedRevision: 'stream_exists' }), StreamRevisionConflictError);
    await other.close();
    await store.close();
  });

  it('the same event id appended concurrently to two streams is stored once; the loser is told', async () => {
    const { store } = await fresh();
    const shared = newEvent('Shared', {}, 'same-id');
    const outcomes = await Promise.allSettled([store.appendToStream('x', [shared]), store.appendToStream('y', [shared])]);
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    assert.ok(rejected.reason instanceof DuplicateEventIdsError);
    assert.equal((await store.readAll()).length, 1);
    await store.close();
  });

  it('proof: 8 concurrent appenders with random delays and rollbacks; every subscriber sees every committed event once, in a stable order', async () => {
    const { db, store } = await fresh();
    const delivered: RecordedEvent[] = [];
    const sub = store.subscribeToAll(async (e) => void delivered.push(e), { pollIntervalMs: 5 });
    // Live subscribers share the store's tail (one fence, one read): a batch subscriber from the start,
    // and a late one that catches up on its own, then joins the shared tail.
    const batched: RecordedEvent[] = [];
    const batchSub = store.subscribeToAllInBatches(async (events) => void batched.push(...events), { pollIntervalMs: 5 });
    const late: RecordedEvent[] = [];
    let lateSub: { caughtUp(): Promise<void>; stop(): Promise<void> } | undefined;
    const lateStart = setTimeout(() => (lateSub = store.subscribeToAll(async (e) => void late.push(e), { pollIntervalMs: 5 })), 60);
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    const streams = ['acct-1', 'acct-2', 'acct-3', 'acct-4'];
    const pause = (max: number) => new Promise((r) => setTimeout(r, Math.floor(Math.random() * max)));
    let rollbacks = 0;
    let conflicts = 0;

    async function appender(worker: number): Promise<void> {
      for (let op = 0; op < 30; op++) {
        await pause(4);
        const stream = streams[Math.floor(Math.random() * streams.length)]!;
        const batch = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, (_, i) => newEvent('Tick', { worker, op, i }));
        const kind = Math.random();
        if (kind < 0.25) {
          // Appends, holds the transaction open for a while, then rolls back.
          const client = await db.pool.connect();
          try {
            await client.query('BEGIN');
            await store.appendInTransaction(client, stream, batch);
            await pause(3);
            await client.query('ROLLBACK');
          } finally {
            client.release();
          }
          batch.forEach((e) => rolledBack.add(e.metadata.eventId));
          rollbacks++;
        } else if (kind < 0.4) {
          // A wrong expected revision (one the stream cannot reach in this run): the whole append is rejected.
          const current = (await store.readStream(stream)).length;
          try {
            await store.appendToStream(stream, batch, { expectedRevision: BigInt(current + 100_000) });
            assert.fail('a stale revision must conflict');
          } catch (err) {
            assert.ok(err instanceof StreamRevisionConflictError);
          }
          batch.forEach((e) => rolledBack.add(e.metadata.eventId));
          conflicts++;
        } else if (kind < 0.6) {
          // Commits after a delay inside the transaction.
          const client = await db.pool.connect();
          try {
            await client.query('BEGIN');
            await store.appendInTransaction(client, stream, batch);
            await pause(3);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
          batch.forEach((e) => committed.add(e.metadata.eventId));
        } else {
          await store.appendToStream(stream, batch);
          batch.forEach((e) => committed.add(e.metadata.eventId));
        }
      }
    }

    await Promise.all(Array.from({ length: 8 }, (_, w) => appender(w)));
    clearTimeout(lateStart);
    lateSub ??= store.subscribeToAll(async (e) => void late.push(e), { pollIntervalMs: 5 });
    for (const s of [sub, batchSub, lateSub]) {
      await s.caughtUp();
      await s.stop();
    }

    assert.ok(rollbacks > 0 && conflicts > 0, 'the run exercised rollbacks and conflicts');
    const deliveredIds = delivered.map((e) => e.metadata.eventId);
    assert.equal(new Set(deliveredIds).size, deliveredIds.length, 'no event delivered twice');
    assert.deepEqual(new Set(deliveredIds), committed, 'every committed event delivered, nothing else');
    for (const id of rolledBack) assert.ok(!deliveredIds.includes(id), `rolled-back ${id} was delivered`);
    for (let i = 1; i < delivered.length; i++) assert.ok(delivered[i]!.globalPosition > delivered[i - 1]!.globalPosition);

    const key = (events: RecordedEvent[]) => events.map((e) => `${e.globalPosition}:${e.metadata.eventId}`);
    const firstRead = await store.readAll();
    const secondRead = await store.readAll();
    assert.deepEqual(key(firstRead), key(delivered));
    assert.deepEqual(key(secondRead), key(delivered));
    assert.deepEqual(key(batched), key(delivered), 'the batch subscriber saw the same history');
    assert.deepEqual(key(late), key(delivered), 'the late subscriber saw the same history');

    // Each stream's chain holds even though appends to it raced.
    const { verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
    for (const stream of streams) assert.equal(verifyHashChain(await store.readStream(stream)).ok, true, stream);
    await store.close();
  });

  it('subscriptions wake on NOTIFY without waiting for the poll interval', async () => {
    const db = await createTestDatabase();
    opened.push(db);
    const store = new PostgresEventStore({ pool: db.pool });
    const seen: string[] = [];
    const sub = store.subscribeToAll(async (e) => void seen.push(e.type), { pollIntervalMs: 60_000 });
    await sub.caughtUp();
    await new Promise((r) => setTimeout(r, 100)); // let the LISTEN connection settle
    const started = Date.now();
    await store.appendToStream('n', [newEvent('Pushed')]);
    await eventually(() => seen.length === 1, 3000, 'notified delivery');
    assert.ok(Date.now() - started < 2000, 'delivered by NOTIFY, not by the 60 s poll');
    await store.close();
  });

  it('caught-up subscribers read again only when a NOTIFY says something was committed', async () => {
    const db = await createTestDatabase();
    opened.push(db);
    const statements = recordStatements(db.pool);
    const readsSoFar = () => statements.filter((text) => text.includes('es_read_settled')).length;
    const store = new PostgresEventStore({ pool: db.pool, minFenceIntervalMs: 0 });
    const seen = [0, 0, 0];
    const subs = seen.map((_, i) => store.subscribeToAll(async () => void seen[i]!++, { pollIntervalMs: 60_000 }));
    await new Promise((r) => setTimeout(r, 150)); // caught up, LISTEN connected
    for (let round = 1; round <= 5; round++) {
      const before = readsSoFar();
      await store.appendToStream('quiet', [newEvent('Once', { round })]);
      await eventually(() => seen.every((n) => n === round), 3000, `round ${round} delivered to all three`);
      await new Promise((r) => setTimeout(r, 50));
      // One fence for the commit, shared by the three subscribers (a second when one asked while it
      // was under way); the reads after each delivery that would find nothing are not made.
      assert.ok(readsSoFar() - before <= 2, `round ${round}: ${readsSoFar() - before} reads for one commit and three subscribers`);
    }
    const quiet = readsSoFar();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(readsSoFar(), quiet, 'no reads while nothing is committed');
    // Without NOTIFY the answer would be wrong: a commit is still seen (the safety net is the NOTIFY itself).
    await store.appendToStream('quiet', [newEvent('Last')]);
    await eventually(() => seen.every((n) => n === 6), 3000, 'the last commit delivered');
    for (const sub of subs) await sub.stop();
    await store.close();
  });

  /** Records the text of every statement the store sends through the pool. */
  function recordStatements(pool: import('pg').Pool): string[] {
    const statements: string[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
      statements.push(String(args[0]));
      return query(...args);
    };
    return statements;
  }

  it('a batch travels as one JSON array each for data and metadata, and any JSON comes back exactly and chains', async () => {
    const { db, store } = await fresh();
    const statements = recordStatements(db.pool);
    const tricky: Record<string, unknown>[] = [
      { quote: 'say "hi"', backslash: 'C:\\dir\\file', both: '\\"', 'key "with" \\ quotes': 'x', json: '{"a":[1,"b"]}' },
      { controls: 'line\nnext\ttab\u0001\u001f\r', unicode: ['Привет', 'مرحبا بالعالم', '漢字かな', '😀 👩‍👩‍👧 𝄞'], 'ключ 🔑': 'значение' },
      { nested: { a: [1, [2, [3, { deep: [] }]], { b: null }], empty: {} }, list: [[], [[]], [{}], [null, true, false]] },
      { numbers: [0, -1, 1.5, -0.25, 1e21, 1.5e-7, Number.MAX_SAFE_INTEGER], yes: true, no: false, nothing: null, text: '' },
      {},
    ];
    const events = tricky.map((data, i) => newEvent(`Tricky${i}`, data));
    events[0]!.metadata.correlationId = 'corr "quoted" \\ back\nslash 😀';
    await store.appendToStream('json', events, { expectedRevision: 'no_stream' });
    // One more batch chained on the first (from the head cache), and data that is JSON null.
    const more = [{ ...newEvent('NullData'), data: null as unknown as Record<string, unknown> }, newEvent('Plain', { n: 1 })];
    await store.appendToStream('json', more, { expectedRevision: 4n });

    const appended = [...events, ...more];
    const { verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
    for (const read of [await store.readStream('json'), await store.readAll()]) {
      assert.deepEqual(read.map((e) => [e.type, e.data]), appended.map((e) => [e.type, e.data]));
      assert.deepEqual(read.map((e) => e.metadata.correlationId), appended.map((e) => e.metadata.correlationId));
      assert.deepEqual(verifyHashChain(read), { ok: true, lastHash: read[read.length - 1]!.metadata.hash });
    }
    const appends = statements.filter((q) => q.includes('es_append'));
    assert.equal(appends.length, 2);
    for (const q of appends) assert.ok(q.includes('$6::jsonb, $7::jsonb,') && !q.includes('::jsonb[]'), q);
    await store.close();
  });

  it('an event without data is refused before anything is sent, as the NOT NULL column refused it before', async () => {
    const { db, store } = await fresh();
    const statements = recordStatements(db.pool);
    const noData = { ...newEvent('NoData'), data: undefined as unknown as Record<string, unknown> };
    await assert.rejects(store.appendToStream('none', [newEvent('Fine'), noData]), InvalidEventBatchError);
    assert.deepEqual(statements, []);
    assert.deepEqual(await store.readAll(), []);
    await store.close();
  });

  it('a process of the previous version appending through the jsonb[] signature still writes and chains', async () => {
    const { db, store } = await fresh();
    const { chainEvents, canonicalJson, verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
    await store.appendToStream('rolling', [newEvent('New1', { by: 'new' })]);
    // Exactly what the previous version sent: jsonb[] parameters, one JSON text per event.
    const oldAppend = async (events: ReturnType<typeof newEvent>[], head: { revision: string; hash: string }) => {
      const chained = chainEvents(events, head.hash);
      const { rows } = await db.pool.query(
        'SELECT * FROM es_append($1, $2, $3, $4::text[], $5::text[], $6::jsonb[], $7::jsonb[], $8)',
        [
          'rolling',
          head.revision,
          head.hash,
          chained.map((e) => e.metadata.eventId),
          chained.map((e) => e.type),
          chained.map((e) => canonicalJson(e.data)),
          chained.map((e) => JSON.stringify(e.metadata)),
          chained[chained.length - 1]!.metadata.hash,
        ],
      );
      const { outcome, stream_position } = rows[0] as { outcome: string; stream_position: string };
      return { outcome, stream_position };
    };
    const head = { revision: '0', hash: (await store.readStream('rolling'))[0]!.metadata.hash! };
    const oldBatch = [newEvent('Old1', { quote: 'a "b" \\ c', emoji: '😀' }), newEvent('Old2', { list: [1, null, { x: 'Привет' }] })];
    assert.deepEqual(await oldAppend(oldBatch, head), { outcome: 'written', stream_position: '2' });
    assert.deepEqual(await oldAppend(oldBatch, head), { outcome: 'existing', stream_position: '2' }, 'its retry is a no-op');
    // This store's cache still says revision 0: it learns the real head from the new signature and re-chains.
    await store.appendToStream('rolling', [newEvent('New2', { by: 'new again' })]);
    const stream = await store.readStream('rolling');
    assert.deepEqual(stream.map((e) => [e.type, e.data]), [
      ['New1', { by: 'new' }],
      ['Old1', { quote: 'a "b" \\ c', emoji: '😀' }],
      ['Old2', { list: [1, null, { x: 'Привет' }] }],
      ['New2', { by: 'new again' }],
    ]);
    assert.equal(verifyHashChain(stream).ok, true);
    await store.close();
  });

  it('the JSON-array signature refuses arrays shorter than the batch, writing nothing', async () => {
    const { db, store } = await fresh();
    await assert.rejects(
      db.pool.query('SELECT * FROM es_append($1, NULL, NULL, $2::text[], $3::text[], $4::jsonb, $5::jsonb, $6)', [
        'short',
        ['id-1', 'id-2'],
        ['A', 'B'],
        '[{}]',
        '[{"eventId":"id-1"},{"eventId":"id-2"}]',
        'h',
      ]),
      (err: { code?: string }) => err.code === '23502',
    );
    assert.deepEqual(await store.readAll(), []);
    await store.close();
  });

  it('readStream with atLeastThrough answers from the tail when it holds the whole stream, else reads the table', async () => {
    const db = await createTestDatabase();
    opened.push(db);
    const statements = recordStatements(db.pool);
    let readsBefore = 0;
    const streamReads = () => statements.filter((text) => text.includes('FROM events WHERE stream_name')).length - readsBefore;
    const store = new PostgresEventStore({ pool: db.pool, minFenceIntervalMs: 0 });
    await store.appendToStream('old', [newEvent('Before')]); // begins before the subscriber's window
    const head = await store.headPosition();
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll(async (e) => void seen.push(e), { after: head, pollIntervalMs: 60_000 });
    await new Promise((r) => setTimeout(r, 100));
    const appended = await store.appendToStream('fresh', [newEvent('One', { a: 1 }), newEvent('Two', { b: 'x"y' })]);
    await store.appendToStream('old', [newEvent('After')]);
    await store.appendToStream('fresh', [newEvent('Three')]);
    await eventually(() => seen.length === 4, 3000, 'four delivered');
    const last = seen[seen.length - 1]!.globalPosition;

    const fromTable = await store.readStream('fresh');
    readsBefore = streamReads();
    const fromTail = await store.readStream('fresh', { atLeastThrough: appended.lastGlobalPosition });
    assert.equal(streamReads(), 0, 'answered without a read');
    assert.deepEqual(fromTail, fromTable);
    assert.deepEqual(fromTail.map((e) => e.type), ['One', 'Two', 'Three']);

    // The stream began before the window: only the table has all of it.
    const old = await store.readStream('old', { atLeastThrough: last });
    assert.equal(streamReads(), 1);
    assert.deepEqual(old.map((e) => e.type), ['Before', 'After']);
    // A position the tail has not reached yet: read.
    await store.readStream('fresh', { atLeastThrough: last + 1000n });
    assert.equal(streamReads(), 2);
    await sub.stop();
    await store.close();
  });

  describe('appends asked for at the same time share one statement', () => {
    const manyCalls = (statements: string[]) => statements.filter((text) => text.includes('es_append_many')).length;
    const singleCalls = (statements: string[]) => statements.filter((text) => text.includes('es_append(')).length;

    it('appends to several streams in one turn go in one es_append_many, each chained and answered as alone', async () => {
      const { db, store } = await fresh();
      await store.appendToStream('b-1', [newEvent('First')]);
      const statements = recordStatements(db.pool);
      const results = await Promise.all([
        store.appendToStream('b-3', [newEvent('A'), newEvent('B', { quote: 'say "hi" \\ there' })], { expectedRevision: 'no_stream' }),
        store.appendToStream('b-1', [newEvent('Second')], { expectedRevision: 0n }),
        store.appendToStream('b-2', [newEvent('C')]),
      ]);
      assert.equal(manyCalls(statements), 1);
      assert.equal(singleCalls(statements), 0);
      assert.deepEqual(results.map((r) => [r.written, r.nextExpectedRevision]), [[true, 1n], [true, 1n], [true, 0n]]);
      const { verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
      for (const [stream, types] of [['b-1', ['First', 'Second']], ['b-2', ['C']], ['b-3', ['A', 'B']]] as const) {
        const events = await store.readStream(stream);
        assert.deepEqual(events.map((e) => e.type), types);
        assert.equal(verifyHashChain(events).ok, true, `${stream} chains`);
      }
      assert.equal((await store.readStream('b-3'))[1]!.data.quote, 'say "hi" \\ there');
      const positions = (await store.readAll()).map((e) => e.globalPosition);
      assert.deepEqual(positions, [...positions].sort((a, b) => (a < b ? -1 : 1)), 'one global order');
      const lastOf = async (stream: string) => (await store.readStream(stream)).at(-1)!.globalPosition;
      assert.deepEqual(results.map((r) => r.lastGlobalPosition), [await lastOf('b-3'), await lastOf('b-1'), await lastOf('b-2')]);
    });

    it('two appends to one stream in one turn are written one after the other', async () => {
      const { store } = await fresh();
      const [first, second] = await Promise.all([
        store.appendToStream('same', [newEvent('One')], { expectedRevision: 'no_stream' }),
        store.appendToStream('same', [newEvent('Two')], { expectedRevision: 0n }),
      ]);
      assert.deepEqual([first.nextExpectedRevision, second.nextExpectedRevision], [0n, 1n]);
      assert.deepEqual((await store.readStream('same')).map((e) => e.type), ['One', 'Two']);
    });

    it('in one statement: a stale head goes another round, a wrong expected revision fails alone, a repeated batch is a no-op, an id of another stream is refused', async () => {
      const { db, store } = await fresh();
      const other = new PostgresEventStore({ pool: db.pool }); // another process: this store's head cache goes stale
      await store.appendToStream('stale', [newEvent('Mine')]);
      await other.appendToStream('stale', [newEvent('Theirs')]);
      const repeated = newEvent('Once');
      await store.appendToStream('repeat', [repeated]);
      const shared = randomUUIDForTest();
      const statements = recordStatements(db.pool);
      const outcomes = await Promise.allSettled([
        store.appendToStream('stale', [newEvent('After')]),
        store.appendToStream('expects', [newEvent('X')], { expectedRevision: 3n }),
        store.appendToStream('repeat', [repeated]),
        store.appendToStream('owner', [newEvent('Owned', {}, shared)]),
        store.appendToStream('thief', [newEvent('Stolen', {}, shared)]),
      ]);
      assert.equal(manyCalls(statements), 1, 'asked together');
      assert.equal(outcomes[0].status, 'fulfilled');
      assert.deepEqual((await store.readStream('stale')).map((e) => e.type), ['Mine', 'Theirs', 'After']);
      const { verifyHashChain } = await import('../../../src/infrastructure/eventstore/hashChain');
      assert.equal(verifyHashChain(await store.readStream('stale')).ok, true);
      assert.ok(outcomes[1].status === 'rejected' && outcomes[1].reason instanceof StreamRevisionConflictError);
      assert.ok(outcomes[2].status === 'fulfilled' && outcomes[2].value.written === false);
      // 'owner' sorts before 'thief': it is written; the same id in another stream is refused.
      assert.ok(outcomes[3].status === 'fulfilled' && outcomes[3].value.written);
      assert.ok(outcomes[4].status === 'rejected' && outcomes[4].reason instanceof DuplicateEventIdsError);
      assert.deepEqual(await store.readStream('thief'), []);
      assert.deepEqual(await store.readStream('expects'), []);
    });

    it('batchAppends: false sends every append on its own', async () => {
      const { db } = await fresh();
      const store = new PostgresEventStore({ pool: db.pool, batchAppends: false });
      const statements = recordStatements(db.pool);
      await Promise.all([store.appendToStream('s-1', [newEvent('A')]), store.appendToStream('s-2', [newEvent('B')])]);
      assert.equal(manyCalls(statements), 0);
      assert.equal(singleCalls(statements), 2);
    });
  });

  it('subscriptions sharing the tail at different speeds never wait for the poll interval', async () => {
    const db = await createTestDatabase();
    opened.push(db);
    const store = new PostgresEventStore({ pool: db.pool, minFenceIntervalMs: 40 });
    // A slow handler lags behind the fast one, so it is served from a tail fetched before the commits
    // that wake it: it must still read the newest events without sleeping for the 60 s poll.
    const fast: number[] = [];
    const slow: number[] = [];
    const subs = [
      store.subscribeToAll(async (e) => void fast.push(Number(e.data.i)), { pollIntervalMs: 60_000 }),
      store.subscribeToAll(async (e) => {
        await new Promise((r) => setTimeout(r, 3));
        slow.push(Number(e.data.i));
      }, { pollIntervalMs: 60_000 }),
    ];
    await new Promise((r) => setTimeout(r, 100)); // let the LISTEN connection settle
    const started = Date.now();
    for (let i = 0; i < 40; i++) {
      await store.appendToStream(`t-${i % 3}`, [newEvent('Tick', { i })]);
      if (i % 4 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    const all = Array.from({ length: 40 }, (_, i) => i);
    await eventually(() => fast.length === 40 && slow.length === 40, 10_000, 'both subscribers delivered');
    assert.ok(Date.now() - started < 5000, 'delivered by NOTIFY and shared reads, not by the 60 s poll');
    assert.deepEqual(fast, all);
    assert.deepEqual(slow, all);
    for (const sub of subs) await sub.stop();
    await store.close();
  });
});
