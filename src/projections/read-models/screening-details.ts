import type pg from 'pg';
import { screeningEventTypes, streamName as screeningStream, type ScreeningRequested } from '../../commands/screening';
import { foldReportEvent, startReport, type ScreeningReportFold } from '../screening-report';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/**
 * Screening detail as a read model: per screening, the report fold (src/projections/screening-report.ts)
 * of its stream so far and the stream position it is folded through. A read of a screening's
 * detail, JSON report or PDF is then one query and a finishReport, not a read and fold of the whole
 * stream; what depends on the deployment (agent labels, a running screening's list versions) is
 * applied at the read. Idempotent by stream position: an event at or below the row's is skipped.
 * The fold is stored as `json` (the text as written, member order kept: the API answers in that order).
 */
export interface ScreeningDetailRow {
  surface: string;
  /** Stream position of the last event folded. */
  position: bigint;
  fold: ScreeningReportFold;
}

interface Folding {
  uuid: string;
  accountId: string;
  surface: string;
  position: bigint;
  fold: ScreeningReportFold;
  changed: boolean;
}

type Requested = RecordedEvent & ScreeningRequested;

/** The screening id of an event of a screening stream, undefined for any other stream (person and subject checks share event types). */
function screeningOf(event: RecordedEvent): string | undefined {
  const id = (event.data as { screeningId?: unknown } | undefined)?.screeningId;
  return typeof id === 'string' && event.streamName === screeningStream(id) ? id : undefined;
}

/** Folds the events into the rows of their screenings: one read of the rows touched, one write. */
async function applyFolded(client: pg.PoolClient, events: readonly RecordedEvent[], schema: string): Promise<void> {
  const s = quoteIdent(schema);
  const byScreening = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    const id = screeningOf(event);
    if (id === undefined) continue;
    const list = byScreening.get(id);
    if (list) list.push(event);
    else byScreening.set(id, [event]);
  }
  if (byScreening.size === 0) return;
  const { rows } = await client.query<{ screening_id: string; uuid: string; account_id: string; surface: string; stream_position: string; fold: ScreeningReportFold }>(
    `SELECT screening_id::text, uuid::text, account_id::text, surface, stream_position::text, fold FROM ${s}.screening_details WHERE screening_id = ANY($1::bigint[])`,
    [[...byScreening.keys()]],
  );
  const folding = new Map<string, Folding>(
    rows.map((r) => [r.screening_id, { uuid: r.uuid, accountId: r.account_id, surface: r.surface, position: BigInt(r.stream_position), fold: r.fold, changed: false }]),
  );
  for (const [id, stream] of byScreening) {
    let row = folding.get(id);
    for (const event of stream) {
      if (!row) {
        // A stream opens with its request; a fold cannot begin anywhere else.
        if (event.type !== 'ScreeningRequested' || event.streamPosition !== 0n) continue;
        const d = (event as Requested).data;
        row = { uuid: d.uuid, accountId: d.accountId, surface: d.surface, position: -1n, fold: startReport(event as Requested), changed: true };
        folding.set(id, row);
      }
      if (event.streamPosition <= row.position) continue; // folded already
      foldReportEvent(row.fold, event);
      row.position = event.streamPosition;
      row.changed = true;
    }
  }
  const changed = [...folding].filter(([, row]) => row.changed);
  if (changed.length === 0) return;
  // The rows as one JSON document (json_to_recordset): the folds are large, and as elements of a
  // text[] parameter each would be escaped again into PostgreSQL's array syntax.
  const document = changed.map(([id, row]) => ({ screening_id: id, uuid: row.uuid, account_id: row.accountId, surface: row.surface, stream_position: row.position.toString(), fold: row.fold }));
  await client.query(
    `INSERT INTO ${s}.screening_details AS t (screening_id, uuid, account_id, surface, stream_position, fold)
     SELECT r.screening_id, r.uuid, r.account_id, r.surface, r.stream_position, r.fold
       FROM json_to_recordset($1::json) AS r(screening_id bigint, uuid uuid, account_id bigint, surface text, stream_position bigint, fold json)
     ON CONFLICT (screening_id) DO UPDATE SET stream_position = EXCLUDED.stream_position, fold = EXCLUDED.fold
       WHERE t.stream_position < EXCLUDED.stream_position`,
    [JSON.stringify(document)],
  );
}

export const screeningDetailsProjection: Projection = {
  name: 'screening_details',
  version: 1,
  // Every event of a screening stream is in the report's audit trail.
  handles: screeningEventTypes,
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.screening_details (
        screening_id bigint PRIMARY KEY,
        uuid uuid NOT NULL UNIQUE,
        account_id bigint NOT NULL,
        surface text NOT NULL,
        stream_position bigint NOT NULL,
        fold json NOT NULL
      )`);
  },
  async apply(client, event, schema) {
    await applyFolded(client, [event], schema);
  },
  async applyBatch(client, events, schema) {
    await applyFolded(client, events, schema);
  },
};

/**
 * The detail row of an account's screening, by S1 numeric id or S3 uuid (tenant isolation: another
 * account's screening is not found). `table` is `<live schema>.screening_details`, quoted.
 */
export async function readScreeningDetail(
  pool: Pick<pg.Pool, 'query'>,
  table: string,
  accountId: string,
  id: { uuid: string } | { screeningId: string },
): Promise<ScreeningDetailRow | undefined> {
  const byUuid = 'uuid' in id;
  const { rows } = await pool.query<{ surface: string; stream_position: string; fold: ScreeningReportFold }>(
    `SELECT surface, stream_position::text, fold FROM ${table} WHERE account_id = $1 AND ${byUuid ? 'uuid = $2' : 'screening_id = $2'}`,
    [accountId, byUuid ? id.uuid : id.screeningId],
  );
  const row = rows[0];
  return row ? { surface: row.surface, position: BigInt(row.stream_position), fold: row.fold } : undefined;
}
