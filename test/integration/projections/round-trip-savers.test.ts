/**
 * The request path's round-trip savers against a real PostgreSQL: ids drawn a block at a time, the
 * usage read model's one-statement count, and prepared statements surviving a reconnect.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { IdBlocks } from '../../../src/app/ids';
import { createPool } from '../../../src/infrastructure/postgres/pool';
import { quoteIdent } from '../../../src/projections/projection';
import { usageProjection } from '../../../src/projections/read-models/usage';
import type { RecordedEvent } from '../../../src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

/** Counts the queries a pool sends. */
function counting(pool: pg.Pool): { pool: pg.Pool; queries: () => number } {
  let n = 0;
  const wrapped = Object.create(pool) as pg.Pool;
  wrapped.query = ((...args: Parameters<pg.Pool['query']>) => {
    n++;
    return (pool.query as (...a: unknown[]) => unknown)(...args);
  }) as pg.Pool['query'];
  return { pool: wrapped, queries: () => n };
}

describe('IdBlocks', () => {
  it('hands out unique ids to concurrent callers with one query per block', async () => {
    const { pool, queries } = counting(db.pool);
    const ids = new IdBlocks(pool, 8);
    const drawn = await Promise.all(Array.from({ length: 20 }, () => ids.next('screening_id_seq')));
    assert.equal(new Set(drawn).size, 20, 'no id twice');
    assert.ok(drawn.every((id) => /^[1-9][0-9]*$/.test(id)));
    assert.equal(queries(), 3, '20 ids from blocks of 8: three queries');
    // In one process the ids come out in increasing order.
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push(BigInt(await ids.next('screening_id_seq')));
    assert.deepEqual([...sequential].sort((a, b) => (a < b ? -1 : 1)), sequential);
    // Sequences are independent.
    const other = await ids.next('subject_check_id_seq');
    assert.match(other, /^[1-9][0-9]*$/);
  });

  it('a second allocator (another process) never hands out the same id', async () => {
    const a = new IdBlocks(db.pool, 4);
    const b = new IdBlocks(db.pool, 4);
    const drawn = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).next('screening_id_seq')));
    assert.equal(new Set(drawn).size, 12);
  });
});

describe('usage read model', () => {
  const schema = 'proj_usage_roundtrip_test';
  const requested = (eventId: string, keyId: string | undefined): RecordedEvent =>
    ({
      type: 'ScreeningRequested',
      data: { screeningId: '1', accountId: '42', surface: 's1', kind: 'cdd' },
      metadata: { eventId, occurredAt: '2026-11-22T10:00:00.000Z', ...(keyId ? { actor: { surface: 's1', accountId: '42', keyId } } : {}) },
      streamName: 'screening-1',
      streamPosition: 0n,
      globalPosition: 1n,
      recordedAt: '2026-11-22T10:00:00.000Z',
    }) as unknown as RecordedEvent;

  it('counts each ScreeningRequested once per event id, in one statement, and ignores keyless requests', async () => {
    const client = await db.pool.connect();
    try {
      await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
      await usageProjection.setup(client, schema);
      const first = randomUUID();
      const queriesBefore = { n: 0 };
      const originalQuery = client.query.bind(client);
      (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
        queriesBefore.n++;
        return (originalQuery as (...x: unknown[]) => unknown)(...a);
      };
      await usageProjection.apply(client, requested(first, '7'), schema);
      assert.equal(queriesBefore.n, 1, 'one round trip per counted request');
      await usageProjection.apply(client, requested(first, '7'), schema); // the same event again
      await usageProjection.apply(client, requested(randomUUID(), '7'), schema);
      await usageProjection.apply(client, requested(randomUUID(), undefined), schema); // portal: no key
      (client as unknown as { query: unknown }).query = originalQuery;
      const { rows } = await client.query(`SELECT key_id::text, day::text, endpoint, screening_type, count FROM ${quoteIdent(schema)}.usage_daily`);
      assert.deepEqual(rows, [{ key_id: '7', day: '2026-11-22', endpoint: 'POST /api/v1/screening/cdd', screening_type: 'CDD', count: 2 }]);
    } finally {
      client.release();
    }
  });
});

describe('prepared statements', () => {
  it('are used by default, work again on a new connection, and can be turned off', async () => {
    const prepared = createPool({ connectionString: db.url, max: 1 });
    const plain = createPool({ connectionString: db.url, max: 1, prepareStatements: false });
    try {
      const text = 'SELECT $1::int + 1 AS n';
      assert.equal((await prepared.query(text, [1])).rows[0].n, 2);
      assert.equal((await prepared.query(text, [41])).rows[0].n, 42);
      const names = await prepared.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements');
      assert.ok(names.rows.some((r) => r.statement === text && r.name.startsWith('svc_')), JSON.stringify(names.rows));
      // A fresh connection (the server forgot the statement) prepares it again.
      await prepared.query('SELECT pg_terminate_backend(pg_backend_pid())').catch(() => undefined);
      assert.equal((await prepared.query(text, [9])).rows[0].n, 10);

      assert.equal((await plain.query(text, [1])).rows[0].n, 2);
      const none = await plain.query('SELECT count(*)::int AS n FROM pg_prepared_statements');
      assert.equal(none.rows[0].n, 0);
    } finally {
      await prepared.end();
      await plain.end();
    }
  });
});
