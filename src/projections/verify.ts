/**
 * Is a read model what its events say? (`svc projections rebuild <name> --scratch`)
 *
 * 1. In one snapshot, the live read model's checkpoint P and every row of its tables (and of the
 *    shared tables it writes outside its schema, e.g. the webhook outbox, as `sharedTables` selects them);
 * 2. the whole history up to P replayed into a scratch schema (its own copies of the shared tables
 *    first on the search path, so the projection's unqualified statements write there);
 * 3. both compared row by row; the scratch schema is dropped. The live read model is never touched.
 *
 * Holds both sides in memory: meant for checks (the chaos soak, an operator's doubt), not for a
 * read model of millions of rows.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { EventStore } from '../infrastructure/eventstore/port';
import { withTransaction } from '../infrastructure/postgres/pool';
import { stopwatch, type Timer } from '../shared/clock';
import { applyEvents, projectionSchema, quoteIdent, type Projection } from './projection';

export interface TableComparison {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  /** Rows in one side and not the other (a changed row counts on both sides). */
  onlyLive: number;
  onlyRebuilt: number;
  /** A few of the differing rows, as JSON. */
  examples: string[];
}

export interface VerifyResult {
  projection: string;
  /** The live checkpoint the comparison was made at. */
  position: bigint;
  tables: TableComparison[];
  equal: boolean;
  ms: number;
}

export interface VerifyOptions {
  pool: pg.Pool;
  store: Pick<EventStore, 'readAll'>;
  projection: Projection;
  batchSize?: number;
  timer?: Timer;
}

/** Each row as canonical text (jsonb prints keys sorted), sorted: two tables compare as multisets. */
async function rowsOf(client: pg.PoolClient, sql: string): Promise<string[]> {
  const { rows } = await client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM (${sql}) t`);
  return rows.map((r) => r.row).sort();
}

async function tablesOf(client: pg.PoolClient, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`, [schema]);
  return rows.map((r) => r.table_name);
}

function compare(table: string, live: string[], rebuilt: string[]): TableComparison {
  const count = (rows: string[]) => rows.reduce((m, r) => m.set(r, (m.get(r) ?? 0) + 1), new Map<string, number>());
  const [a, b] = [count(live), count(rebuilt)];
  const examples: string[] = [];
  let onlyLive = 0;
  let onlyRebuilt = 0;
  for (const [row, n] of a) {
    const extra = n - (b.get(row) ?? 0);
    if (extra > 0) {
      onlyLive += extra;
      if (examples.length < 3) examples.push(`live only: ${row}`);
    }
  }
  for (const [row, n] of b) {
    const extra = n - (a.get(row) ?? 0);
    if (extra > 0) {
      onlyRebuilt += extra;
      if (examples.length < 6) examples.push(`rebuilt only: ${row}`);
    }
  }
  return { table, liveRows: live.length, rebuiltRows: rebuilt.length, onlyLive, onlyRebuilt, examples };
}

export async function verifyProjection(options: VerifyOptions): Promise<VerifyResult> {
  const { pool, store, projection } = options;
  const elapsed = stopwatch(options.timer);
  const live = projectionSchema(projection.name);
  const scratch = `${live}__verify_${randomBytes(5).toString('hex')}`;
  const shared = projection.sharedTables ?? [];
  const batchSize = options.batchSize ?? 1000;

  // 1. The live side, in one snapshot with its checkpoint.
  const snapshot = await pool.connect();
  let position = 0n;
  const liveRows = new Map<string, string[]>();
  try {
    await snapshot.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await snapshot.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [projection.name]);
    position = BigInt(rows[0]?.position ?? '0');
    for (const table of await tablesOf(snapshot, live)) liveRows.set(table, await rowsOf(snapshot, `SELECT * FROM ${quoteIdent(live)}.${quoteIdent(table)}`));
    for (const s of shared) liveRows.set(s.table, await rowsOf(snapshot, s.rows('public')));
  } finally {
    await snapshot.query('ROLLBACK').catch(() => undefined);
    snapshot.release();
  }

  // 2. The history up to that checkpoint, replayed into the scratch schema.
  const onScratch = async (client: pg.PoolClient) => {
    await client.query(`SET LOCAL search_path TO ${quoteIdent(scratch)}, public`);
  };
  try {
    await withTransaction(pool, async (client) => {
      await client.query(`CREATE SCHEMA ${quoteIdent(scratch)}`);
      for (const s of shared) {
        await client.query(`CREATE TABLE ${quoteIdent(scratch)}.${quoteIdent(s.table)} (LIKE public.${quoteIdent(s.table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)`);
      }
      await onScratch(client);
      await projection.setup(client, scratch);
    });
    const handles = new Set(projection.handles);
    let after = 0n;
    while (after < position) {
      const events = (await store.readAll({ after, maxCount: batchSize })).filter((e) => e.globalPosition <= position);
      if (events.length === 0) break;
      await withTransaction(pool, async (client) => {
        await onScratch(client);
        await applyEvents(projection, client, events.filter((e) => handles.has(e.type)), scratch);
      });
      after = events[events.length - 1]!.globalPosition;
    }

    // 3. Row by row.
    const tables: TableComparison[] = [];
    const reader = await pool.connect();
    try {
      const rebuiltTables = (await tablesOf(reader, scratch)).filter((t) => !shared.some((s) => s.table === t));
      for (const table of [...new Set([...liveRows.keys(), ...rebuiltTables])].filter((t) => !shared.some((s) => s.table === t)).sort()) {
        const rebuilt = rebuiltTables.includes(table) ? await rowsOf(reader, `SELECT * FROM ${quoteIdent(scratch)}.${quoteIdent(table)}`) : [];
        tables.push(compare(table, liveRows.get(table) ?? [], rebuilt));
      }
      for (const s of shared) tables.push(compare(s.table, liveRows.get(s.table) ?? [], await rowsOf(reader, s.rows(scratch))));
    } finally {
      reader.release();
    }
    return { projection: projection.name, position, tables, equal: tables.every((t) => t.onlyLive === 0 && t.onlyRebuilt === 0), ms: elapsed() };
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(scratch)} CASCADE`).catch(() => undefined);
  }
}

/** The comparison as a table: one line per read-model table, then the differing rows' examples. */
export function verifyReport(results: readonly VerifyResult[]): string {
  const lines = ['projection           table                          live   rebuilt  only live  only rebuilt', ...[]];
  const pad = (v: string | number, n: number) => String(v).padEnd(n);
  const num = (v: number, n: number) => String(v).padStart(n);
  for (const r of results) {
    for (const t of r.tables) lines.push(`${pad(r.projection, 20)} ${pad(t.table, 28)} ${num(t.liveRows, 6)} ${num(t.rebuiltRows, 9)} ${num(t.onlyLive, 10)} ${num(t.onlyRebuilt, 13)}`);
  }
  for (const r of results) {
    lines.push(`${r.projection}: ${r.equal ? 'equal to a rebuild' : 'DIFFERS from a rebuild'} at position ${r.position} (${r.ms} ms)`);
    for (const t of r.tables) for (const e of t.examples) lines.push(`  ${t.table}: ${e.length > 400 ? `${e.slice(0, 400)}…` : e}`);
  }
  return `${lines.join('\n')}\n`;
}
