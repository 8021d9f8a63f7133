import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type pg from 'pg';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { projectionSchema, quoteIdent, type Projection } from '../../../src/projections/projection';
import { rebuildProjection, rebuildProjectionByName } from '../../../src/projections/rebuild';
import { ProjectionRunner } from '../../../src/projections/runner';
import type { RecordedEvent } from '../../../src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { newEvent } from '../eventstore/contract';

/**
 * A small sample read model: accounts with their name and a count of issued keys. The counter is
 * deliberately not idempotent on its own (key_count + 1) so a double apply would show; the row is
 * only touched when the event's stream position is newer than the one stored.
 */
function accountsProjection(options: { name?: string; version?: number; failOn?: (e: RecordedEvent) => boolean } = {}): Projection {
  return {
    name: options.name ?? 'sample_accounts',
    version: options.version ?? 1,
    handles: ['AccountOpened', 'AccountRenamed', 'KeyIssued'],
    async setup(client, schema) {
      await client.query(`CREATE TABLE ${quoteIdent(schema)}.accounts (
        account_id text PRIMARY KEY, name text NOT NULL, key_count integer NOT NULL DEFAULT 0, revision bigint NOT NULL)`);
    },
    async apply(client, event, schema) {
      const table = `${quoteIdent(schema)}.accounts`;
      const accountId = event.streamName;
      if (event.type === 'AccountOpened') {
        await client.query(`INSERT INTO ${table} (account_id, name, revision) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO NOTHING`, [
          accountId,
          event.data.name,
          String(event.streamPosition),
        ]);
        return;
      }
      const set = event.type === 'AccountRenamed' ? 'name = $3' : 'key_count = key_count + 1';
      const params: unknown[] = [accountId, String(event.streamPosition)];
      if (event.type === 'AccountRenamed') params.push(event.data.name);
      await client.query(`UPDATE ${table} SET ${set}, revision = $2 WHERE account_id = $1 AND revision < $2`, params);
      if (options.failOn?.(event)) throw new Error(`simulated crash on ${event.type} ${String(event.globalPosition)}`);
    },
  };
}

async function accountRows(pool: pg.Pool, name = 'sample_accounts'): Promise<unknown[]> {
  const { rows } = await pool.query(`SELECT account_id, name, key_count, revision FROM ${projectionSchema(name)}.accounts ORDER BY account_id`);
  return rows;
}

async function checkpoint(pool: pg.Pool, name = 'sample_accounts'): Promise<bigint> {
  const { rows } = await pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [name]);
  return BigInt(rows[0]!.position);
}

/** Polls an asynchronous condition (5 s at most). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function seed(store: PostgresEventStore, accounts: number): Promise<void> {
  for (let a = 0; a < accounts; a++) {
    const stream = `account-${String(a).padStart(3, '0')}`;
    await store.appendToStream(stream, [newEvent('AccountOpened', { name: `Acme ${a}` }), newEvent('KeyIssued', { keyId: `k${a}a` })]);
    await store.appendToStream(`audit-${a}`, [newEvent('SomethingElse', { a })]); // not handled: moves the checkpoint only
    if (a % 2 === 0) await store.appendToStream(stream, [newEvent('AccountRenamed', { name: `Acme ${a} Ltd` }), newEvent('KeyIssued', { keyId: `k${a}b` })]);
  }
}

describe('projection runner and rebuild', () => {
  const opened: TestDatabase[] = [];
  after(async () => {
    await Promise.all(opened.map((db) => db.drop()));
  });
  async function fresh() {
    const db = await createTestDatabase();
    opened.push(db);
    return { db, store: new PostgresEventStore({ pool: db.pool, pollIntervalMs: 20 }) };
  }

  it('applies events with the checkpoint in the same transaction, follows live events and reports lag', async () => {
    const { db, store } = await fresh();
    await seed(store, 4);
    const runner = new ProjectionRunner({ pool: db.pool, store, projections: [accountsProjection()], pollIntervalMs: 20 });
    const before = await runner.lag();
    assert.equal(before[0]!.lag, await store.headPosition(), 'nothing processed yet: lag is the whole history');
    await runner.start();
    await runner.caughtUp();
    assert.deepEqual(await accountRows(db.pool), [
      { account_id: 'account-000', name: 'Acme 0 Ltd', key_count: 2, revision: '3' },
      { account_id: 'account-001', name: 'Acme 1', key_count: 1, revision: '1' },
      { account_id: 'account-002', name: 'Acme 2 Ltd', key_count: 2, revision: '3' },
      { account_id: 'account-003', name: 'Acme 3', key_count: 1, revision: '1' },
    ]);
    const head = await store.headPosition();
    assert.equal(await checkpoint(db.pool), head, 'unhandled trailing events moved the checkpoint too');
    assert.deepEqual((await runner.lag()).map((l) => [l.name, l.lag, l.status]), [['sample_accounts', 0n, 'running']]);

    await store.appendToStream('account-001', [newEvent('KeyIssued', { keyId: 'live' })]);
    await runner.caughtUp();
    assert.equal(((await accountRows(db.pool))[1] as { key_count: number }).key_count, 2);
    await runner.stop();
    await store.close();
  });

  it('a crash mid-batch rolls back that batch with its checkpoint; a restarted runner never double-applies', async () => {
    const { db, store } = await fresh();
    await seed(store, 3);
    let crashes = 0;
    const crashing = accountsProjection({
      failOn: (e) => e.type === 'KeyIssued' && e.streamName === 'account-001' && crashes++ === 0,
    });
    const first = new ProjectionRunner({ pool: db.pool, store, projections: [crashing], pollIntervalMs: 20 });
    await first.start();
    await assert.rejects(first.caughtUp(), /simulated crash/);
    const [failed] = await first.lag();
    assert.equal(failed!.status, 'failed');
    assert.ok(failed!.lag > 0n);
    const crashedAt = (await store.readStream('account-001'))[1]!.globalPosition;
    assert.ok((await checkpoint(db.pool)) < crashedAt, 'the failing event was not checkpointed');
    const partial = (await accountRows(db.pool)) as { account_id: string; key_count: number }[];
    // The failing event's batch (read together, applied in one transaction) was rolled back whole.
    const partialRow = partial.find((r) => r.account_id === 'account-001');
    assert.ok(partialRow === undefined || partialRow.key_count === 0, "the failing event's write was rolled back");
    await first.stop();

    const second = new ProjectionRunner({ pool: db.pool, store, projections: [crashing], pollIntervalMs: 20 });
    await second.start();
    await second.caughtUp();
    const rows = (await accountRows(db.pool)) as { account_id: string; key_count: number }[];
    assert.deepEqual(rows.map((r) => [r.account_id, r.key_count]), [['account-000', 2], ['account-001', 1], ['account-002', 2]]);
    await second.stop();
    await store.close();
  });

  it('read models sharing a batch transaction: one failing stops alone, the others apply everything', async () => {
    const { db, store } = await fresh();
    await seed(store, 4);
    const healthy = accountsProjection({ name: 'sample_accounts' });
    const faulty = accountsProjection({ name: 'sample_faulty', failOn: (e) => e.type === 'AccountRenamed' && e.streamName === 'account-002' });
    const twin = accountsProjection({ name: 'sample_twin' });
    const runner = new ProjectionRunner({ pool: db.pool, store, projections: [healthy, faulty, twin], pollIntervalMs: 20 });
    await runner.start();
    await assert.rejects(runner.caughtUp(), /simulated crash/);
    const head = await store.headPosition();
    const expected = [
      { account_id: 'account-000', name: 'Acme 0 Ltd', key_count: 2, revision: '3' },
      { account_id: 'account-001', name: 'Acme 1', key_count: 1, revision: '1' },
      { account_id: 'account-002', name: 'Acme 2 Ltd', key_count: 2, revision: '3' },
      { account_id: 'account-003', name: 'Acme 3', key_count: 1, revision: '1' },
    ];
    // The shared transaction failed on the faulty one; the others re-applied alone, each exactly once.
    await until(async () => (await checkpoint(db.pool, 'sample_twin')) === head && (await checkpoint(db.pool, 'sample_accounts')) === head);
    for (const name of ['sample_accounts', 'sample_twin']) {
      assert.deepEqual(await accountRows(db.pool, name), expected, name);
      assert.equal(await checkpoint(db.pool, name), head, `${name} checkpoint`);
    }
    const failedAt = (await store.readStream('account-002'))[2]!.globalPosition;
    assert.ok((await checkpoint(db.pool, 'sample_faulty')) < failedAt, 'the faulty read model stays before the event it failed on');
    assert.deepEqual((await runner.lag()).map((l) => [l.name, l.status]), [['sample_accounts', 'running'], ['sample_faulty', 'failed'], ['sample_twin', 'running']]);

    // Live events still reach the healthy ones (shared transaction again, now without the failed one).
    const live = await store.appendToStream('account-001', [newEvent('KeyIssued', { keyId: 'live' })]);
    await until(async () => (await checkpoint(db.pool, 'sample_twin')) >= live.lastGlobalPosition && (await checkpoint(db.pool, 'sample_accounts')) >= live.lastGlobalPosition);
    for (const name of ['sample_accounts', 'sample_twin']) assert.equal(((await accountRows(db.pool, name))[1] as { key_count: number }).key_count, 2, name);
    await runner.stop();
    await store.close();
  });

  it('rebuild replays the whole history into fresh tables that equal the live ones, and the runner carries on', async () => {
    const { db, store } = await fresh();
    await seed(store, 6);
    const runner = new ProjectionRunner({ pool: db.pool, store, projections: [accountsProjection()], pollIntervalMs: 20 });
    await runner.start();
    await runner.caughtUp();
    const live = await accountRows(db.pool);
    const liveCheckpoint = await checkpoint(db.pool);

    // Sabotage the live table: the rebuilt one must come from the events, not from a copy.
    await db.pool.query(`UPDATE ${projectionSchema('sample_accounts')}.accounts SET name = 'corrupted'`);
    await assert.rejects(
      rebuildProjectionByName('nope', { pool: db.pool, store, projections: [accountsProjection()] }),
      /Unknown projection "nope"; known projections: sample_accounts/,
    );
    const result = await rebuildProjectionByName('sample_accounts', { pool: db.pool, store, projections: [accountsProjection()], batchSize: 7 });
    assert.equal(result.schema, 'proj_sample_accounts');
    assert.equal(result.position, liveCheckpoint);
    assert.deepEqual(await accountRows(db.pool), live, 'rebuilt tables equal the live ones');
    const leftovers = await db.pool.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'proj_sample_accounts_%'");
    assert.equal(leftovers.rowCount, 0, 'temporary and retired schemas are gone');

    await store.appendToStream('account-003', [newEvent('KeyIssued', { keyId: 'after-rebuild' })]);
    await runner.caughtUp();
    const rows = (await accountRows(db.pool)) as { account_id: string; key_count: number }[];
    assert.equal(rows.find((r) => r.account_id === 'account-003')!.key_count, 2, 'live runner applies into the swapped-in tables, once');
    await runner.stop();
    await store.close();
  });

  it('a rebuild racing live appends and a running runner loses and duplicates nothing', async () => {
    const { db, store } = await fresh();
    await seed(store, 10);
    const runner = new ProjectionRunner({ pool: db.pool, store, projections: [accountsProjection()], pollIntervalMs: 5 });
    await runner.start();
    let writing = true;
    let extraKeys = 0;
    const writer = (async () => {
      while (writing) {
        await store.appendToStream('account-005', [newEvent('KeyIssued', { n: extraKeys })]);
        extraKeys++;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await rebuildProjection({ pool: db.pool, store, projection: accountsProjection(), batchSize: 5 });
    writing = false;
    await writer;
    await runner.caughtUp();
    const rows = (await accountRows(db.pool)) as { account_id: string; key_count: number }[];
    assert.ok(extraKeys > 0);
    assert.equal(rows.find((r) => r.account_id === 'account-005')!.key_count, 1 + extraKeys);
    await runner.stop();
    await store.close();
  });

  it('a version bump rebuilds the read model on start', async () => {
    const { db, store } = await fresh();
    await seed(store, 2);
    const v1 = new ProjectionRunner({ pool: db.pool, store, projections: [accountsProjection({ version: 1 })], pollIntervalMs: 20 });
    await v1.start();
    await v1.caughtUp();
    await v1.stop();
    await db.pool.query(`DELETE FROM ${projectionSchema('sample_accounts')}.accounts`);
    const v2 = new ProjectionRunner({ pool: db.pool, store, projections: [accountsProjection({ version: 2 })], pollIntervalMs: 20 });
    await v2.start();
    await v2.caughtUp();
    assert.equal((await accountRows(db.pool)).length, 2);
    const { rows } = await db.pool.query("SELECT version FROM projection_checkpoints WHERE name = 'sample_accounts'");
    assert.equal(rows[0].version, 2);
    await v2.stop();
    await store.close();
  });
  it('a read model that may lag is held until the idle flush, caughtUp() or a full hold; what it leaves for the commit goes with it, and a failed commit is applied again once', async () => {
    const { db, store } = await fresh();
    let commits = 0;
    let failNextCommit = false;
    const table = (schema: string) => `${quoteIdent(schema)}.keys`;
    const lagging: Projection = {
      name: 'sample_lagging',
      version: 1,
      handles: ['KeyIssued'],
      mayLag: true,
      async setup(client, schema) {
        // No ON CONFLICT: a key applied twice fails the insert.
        await client.query(`CREATE TABLE ${table(schema)} (global_position bigint PRIMARY KEY, key_id text NOT NULL)`);
      },
      async apply(client, event, schema) {
        await client.query(`INSERT INTO ${table(schema)} (global_position, key_id) VALUES ($1, $2)`, [String(event.globalPosition), event.data.keyId]);
      },
      async applyBatch(client, events, schema, commit) {
        const insert = `INSERT INTO ${table(schema)} (global_position, key_id) VALUES ${events.map((e) => `(${String(e.globalPosition)}, ${client.escapeLiteral(String(e.data.keyId))})`).join(', ')}`;
        assert.ok(commit, 'the runner offers the commit round trip');
        // A write that checks itself and finds it wrote less than it meant (as a moved row would make it).
        const check = failNextCommit ? `; SELECT projection_rows_written(1, 0, 'sample key')` : '';
        failNextCommit = false;
        commit.atCommit(insert + check, () => commits++);
      },
    };
    const opened: Projection = { ...accountsProjection(), handles: ['AccountOpened'] };
    const runner = new ProjectionRunner({ pool: db.pool, store, projections: [opened, lagging], pollIntervalMs: 20, skipFlushEvery: 4, flushIntervalMs: 600_000 });
    const handled: bigint[] = [];
    runner.onBatchHandled((batch) => handled.push(batch[batch.length - 1]!.globalPosition));
    const seen = (position: bigint) => until(async () => handled.some((p) => p >= position));
    const keys = async () => (await db.pool.query<{ key_id: string }>(`SELECT key_id FROM ${table(projectionSchema('sample_lagging'))} ORDER BY global_position`)).rows.map((r) => r.key_id);
    await runner.start();

    // Held, even when another read model opens a transaction; applied() does not wait for it.
    const k1 = await store.appendToStream('account-000', [newEvent('KeyIssued', { keyId: 'k1' })]);
    await seen(k1.lastGlobalPosition);
    const o1 = await store.appendToStream('account-000', [newEvent('AccountOpened', { name: 'Acme' }), newEvent('KeyIssued', { keyId: 'k2' })]);
    await runner.applied(o1.lastGlobalPosition);
    assert.deepEqual((await accountRows(db.pool)).map((r) => (r as { name: string }).name), ['Acme']);
    assert.deepEqual(await keys(), []);
    assert.equal(commits, 0);
    assert.ok((await runner.lag()).find((l) => l.name === 'sample_lagging')!.lag > 0n, 'its lag shows the held events');

    // A fourth event fills the hold (skipFlushEvery): all four applied in one transaction, the insert in its commit.
    const k3 = await store.appendToStream('account-001', [newEvent('KeyIssued', { keyId: 'k3' })]);
    await seen(k3.lastGlobalPosition);
    assert.deepEqual(await keys(), ['k1', 'k2', 'k3']);
    assert.equal(commits, 1);
    assert.equal(await checkpoint(db.pool, 'sample_lagging'), k3.lastGlobalPosition);

    // Held again; caughtUp() applies it. Its commit fails once (40001): rolled back and applied again, once.
    failNextCommit = true;
    const k4 = await store.appendToStream('account-001', [newEvent('KeyIssued', { keyId: 'k4' })]);
    await seen(k4.lastGlobalPosition);
    assert.deepEqual(await keys(), ['k1', 'k2', 'k3']);
    await runner.caughtUp();
    assert.deepEqual(await keys(), ['k1', 'k2', 'k3', 'k4']);
    assert.equal(commits, 2, 'the failed commit ran no callback');
    assert.equal(await checkpoint(db.pool, 'sample_lagging'), k4.lastGlobalPosition);
    assert.deepEqual((await runner.lag()).map((l) => [l.name, l.lag, l.status]), [['sample_accounts', 0n, 'running'], ['sample_lagging', 0n, 'running']]);

    await runner.stop();

    // Held events are applied by the idle flush without anyone asking.
    const idle = new ProjectionRunner({ pool: db.pool, store, projections: [opened, lagging], pollIntervalMs: 20, flushIntervalMs: 50 });
    await idle.start();
    const k5 = await store.appendToStream('account-001', [newEvent('KeyIssued', { keyId: 'k5' })]);
    await until(async () => (await keys()).includes('k5'));
    assert.equal(await checkpoint(db.pool, 'sample_lagging'), k5.lastGlobalPosition);
    assert.equal(commits, 3);
    await idle.stop();
    await store.close();
  });
});
