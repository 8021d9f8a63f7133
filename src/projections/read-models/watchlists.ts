import type pg from 'pg';
import { watchlistEventTypes, type EntriesImported, type WatchlistEvent } from '../../commands/watchlist';
import type { WatchlistEntry } from '../../screening/watchlists/model';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/**
 * Internal watchlists and their current entries, per account (issue 21). A list row keeps the
 * stream position of the last event applied: an event at or below it is skipped, so a replay or a
 * re-delivered batch changes nothing (idempotent by stream revision). A batch is applied with a
 * handful of statements whatever its size.
 *
 * A streamed import's EntriesImported chunks (on its staging stream) go to watchlist_import_staged
 * first; the ListImported that names the staging stream moves them into watchlist_entries in the
 * same transaction as the list row's new version, so a reader sees all of an import or none of it.
 * Staged rows of an import that never commits are dropped after STAGED_TTL.
 */
const STAGED_TTL = '1 day';
export const watchlistsProjection: Projection = {
  name: 'watchlists',
  version: 1,
  handles: watchlistEventTypes,
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.watchlists (
        watchlist_id uuid PRIMARY KEY,
        account_id bigint NOT NULL,
        name text NOT NULL,
        purpose text NOT NULL,
        severity text NOT NULL,
        owner text NOT NULL,
        status text NOT NULL,
        version integer NOT NULL,
        entry_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        archived_at timestamptz,
        last_import jsonb,
        stream_position bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS watchlists_account ON ${s}.watchlists (account_id, created_at);
      CREATE TABLE IF NOT EXISTS ${s}.watchlist_entries (
        watchlist_id uuid NOT NULL,
        entry_id text NOT NULL,
        account_id bigint NOT NULL,
        primary_name text NOT NULL,
        entry jsonb NOT NULL,
        version integer NOT NULL,
        PRIMARY KEY (watchlist_id, entry_id)
      );
      -- A streamed import's chunks, held apart until its ListImported commits them (never read by queries).
      CREATE TABLE IF NOT EXISTS ${s}.watchlist_import_staged (
        staging_stream text NOT NULL,
        entry_id text NOT NULL,
        watchlist_id uuid NOT NULL,
        entry jsonb,
        version integer NOT NULL,
        staged_at timestamptz NOT NULL,
        PRIMARY KEY (staging_stream, entry_id)
      );
      CREATE INDEX IF NOT EXISTS watchlist_import_staged_at ON ${s}.watchlist_import_staged (staged_at);`);
  },
  async apply(client, event, schema) {
    await applyWatchlistEvents(client, [event], schema);
  },
  async applyBatch(client, events, schema) {
    await applyWatchlistEvents(client, events, schema);
  },
};

interface ListRow {
  account_id: string;
  name: string;
  purpose: string;
  severity: string;
  owner: string;
  status: string;
  version: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  last_import: unknown;
  stream_position: bigint;
  isNew: boolean;
}

async function stageChunks(client: pg.PoolClient, chunks: (EntriesImported & RecordedEvent)[], s: string): Promise<void> {
  for (const chunk of chunks) {
    const d = chunk.data;
    const rows = [...d.added.map((entry) => ({ entry_id: entry.entryId, entry })), ...d.changed.map((entry) => ({ entry_id: entry.entryId, entry })), ...d.removed.map((r) => ({ entry_id: r.entryId, entry: null }))];
    await client.query(
      `INSERT INTO ${s}.watchlist_import_staged (staging_stream, entry_id, watchlist_id, entry, version, staged_at)
       SELECT $1, x.entry_id, $2, x.entry, $3, $4 FROM jsonb_to_recordset($5::jsonb) AS x(entry_id text, entry jsonb)
       ON CONFLICT (staging_stream, entry_id) DO NOTHING`,
      [chunk.streamName, d.watchlistId, d.version, chunk.metadata.occurredAt, JSON.stringify(rows)],
    );
  }
}

/** Moves a committed import's staged rows into the list's entries (then forgets them and any long-abandoned import's). */
async function commitStaged(client: pg.PoolClient, stagingStream: string, watchlistId: string, accountId: string, s: string): Promise<void> {
  await client.query(
    `DELETE FROM ${s}.watchlist_entries e USING ${s}.watchlist_import_staged st
      WHERE st.staging_stream = $1 AND st.entry IS NULL AND e.watchlist_id = $2 AND e.entry_id = st.entry_id`,
    [stagingStream, watchlistId],
  );
  await client.query(
    `INSERT INTO ${s}.watchlist_entries (watchlist_id, entry_id, account_id, primary_name, entry, version)
     SELECT $2, st.entry_id, $3, st.entry->>'primaryName', st.entry, st.version FROM ${s}.watchlist_import_staged st
      WHERE st.staging_stream = $1 AND st.entry IS NOT NULL
     ON CONFLICT (watchlist_id, entry_id) DO UPDATE SET primary_name = EXCLUDED.primary_name, entry = EXCLUDED.entry, version = EXCLUDED.version`,
    [stagingStream, watchlistId, accountId],
  );
  await client.query(`DELETE FROM ${s}.watchlist_import_staged WHERE staging_stream = $1 OR staged_at < now() - interval '${STAGED_TTL}'`, [stagingStream]);
}

async function applyWatchlistEvents(client: pg.PoolClient, recorded: RecordedEvent[], schema: string): Promise<void> {
  const s = quoteIdent(schema);
  // Chunks always precede the ListImported that commits them in the log: staging them first keeps that order.
  await stageChunks(client, recorded.filter((e): e is EntriesImported & RecordedEvent => e.type === 'EntriesImported'), s);
  const byStream = new Map<string, (WatchlistEvent & RecordedEvent)[]>();
  for (const event of recorded) {
    if (event.type === 'EntriesImported') continue;
    const list = byStream.get(event.streamName) ?? [];
    list.push(event as unknown as WatchlistEvent & RecordedEvent);
    byStream.set(event.streamName, list);
  }
  for (const events of byStream.values()) {
    const watchlistId = events[0]!.data.watchlistId;
    const found = await client.query<Omit<ListRow, 'isNew' | 'stream_position'> & { stream_position: string }>(
      `SELECT account_id, name, purpose, severity, owner, status, version, created_at, updated_at, archived_at, last_import, stream_position FROM ${s}.watchlists WHERE watchlist_id = $1`,
      [watchlistId],
    );
    let row: ListRow | undefined = found.rows[0] ? { ...found.rows[0], stream_position: BigInt(found.rows[0].stream_position), isNew: false } : undefined;
    // Final fate of each touched entry in this batch: the entry to store, or null to delete.
    const entries = new Map<string, { entry: WatchlistEntry; version: number } | null>();
    let applied = false;
    for (const event of events) {
      if (row && event.streamPosition <= row.stream_position) continue; // already applied
      const at = event.metadata.occurredAt;
      switch (event.type) {
        case 'WatchlistCreated': {
          const d = event.data;
          row = { account_id: d.accountId, name: d.name, purpose: d.purpose, severity: d.severity, owner: d.owner, status: 'active', version: d.version, created_at: d.createdAt, updated_at: d.createdAt, archived_at: null, last_import: null, stream_position: event.streamPosition, isNew: true };
          break;
        }
        case 'WatchlistChanged':
          if (!row) continue;
          row = { ...row, name: event.data.name, purpose: event.data.purpose, severity: event.data.severity, owner: event.data.owner };
          break;
        case 'WatchlistArchived':
          if (!row) continue;
          row = { ...row, status: 'archived', archived_at: event.data.archivedAt };
          break;
        case 'EntryAdded':
        case 'EntryChanged':
          entries.set(event.data.entry.entryId, { entry: event.data.entry, version: event.data.version });
          break;
        case 'EntryRemoved':
          entries.set(event.data.entryId, null);
          break;
        case 'ListImported': {
          if (!row) continue;
          const { watchlistId: _w, accountId: _a, ...rest } = event.data;
          row = { ...row, last_import: rest };
          if (event.data.stagingStream) {
            // Earlier changes of this batch first, then the import's rows, in log order.
            await writeEntries(client, s, watchlistId, row.account_id, entries);
            entries.clear();
            await commitStaged(client, event.data.stagingStream, watchlistId, row.account_id, s);
          }
          break;
        }
        case 'EntriesImported':
          continue;
      }
      if (!row) continue;
      row = { ...row, version: event.data.version, updated_at: at, stream_position: event.streamPosition };
      applied = true;
    }
    if (!row || !applied) continue;
    await writeEntries(client, s, watchlistId, row.account_id, entries);
    const values = [watchlistId, row.account_id, row.name, row.purpose, row.severity, row.owner, row.status, row.version, row.created_at, row.updated_at, row.archived_at, row.last_import === null ? null : JSON.stringify(row.last_import), row.stream_position.toString()];
    await client.query(
      `INSERT INTO ${s}.watchlists (watchlist_id, account_id, name, purpose, severity, owner, status, version, created_at, updated_at, archived_at, last_import, stream_position, entry_count)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13, (SELECT count(*) FROM ${s}.watchlist_entries WHERE watchlist_id = $1))
       ON CONFLICT (watchlist_id) DO UPDATE SET name = $3, purpose = $4, severity = $5, owner = $6, status = $7, version = $8, updated_at = $10, archived_at = $11,
         last_import = $12, stream_position = $13, entry_count = (SELECT count(*) FROM ${s}.watchlist_entries WHERE watchlist_id = $1)
       WHERE ${s}.watchlists.stream_position < $13`,
      values,
    );
  }
}

async function writeEntries(client: pg.PoolClient, s: string, watchlistId: string, accountId: string, entries: ReadonlyMap<string, { entry: WatchlistEntry; version: number } | null>): Promise<void> {
  const upserts = [...entries].filter((e): e is [string, { entry: WatchlistEntry; version: number }] => e[1] !== null);
  const deletes = [...entries].filter(([, v]) => v === null).map(([id]) => id);
  if (deletes.length) await client.query(`DELETE FROM ${s}.watchlist_entries WHERE watchlist_id = $1 AND entry_id = ANY($2::text[])`, [watchlistId, deletes]);
  // In chunks: one statement per 5,000 entries keeps the parameter under a few MB.
  for (let i = 0; i < upserts.length; i += 5000) {
    const chunk = upserts.slice(i, i + 5000);
    await client.query(
      `INSERT INTO ${s}.watchlist_entries (watchlist_id, entry_id, account_id, primary_name, entry, version)
       SELECT $1, x.entry->>'entryId', $2, x.entry->>'primaryName', x.entry, x.version
         FROM jsonb_to_recordset($3::jsonb) AS x(entry jsonb, version integer)
       ON CONFLICT (watchlist_id, entry_id) DO UPDATE SET primary_name = EXCLUDED.primary_name, entry = EXCLUDED.entry, version = EXCLUDED.version`,
      [watchlistId, accountId, JSON.stringify(chunk.map(([, v]) => v))],
    );
  }
}
