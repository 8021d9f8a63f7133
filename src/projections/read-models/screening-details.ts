import type pg from 'pg';
import { screeningEventTypes, streamName as screeningStream, type ScreeningRequested } from '../../commands/screening';
import { foldReportEvent, startReport, type ScreeningReportFold } from '../screening-report';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type CommitRoundTrip, type Projection } from '../projection';

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
  /** The row's stream position in the table as this write expects it: -1n for "no row yet". */
  expected: bigint;
}

/** A row as this process last wrote it, the fold as its JSON text (parsed afresh when used: nothing aliases event objects). */
interface KeptRow {
  uuid: string;
  accountId: string;
  surface: string;
  position: bigint;
  foldJson: string;
}

/**
 * The rows this process wrote last, per schema and screening (LRU): a batch of a screening in flight
 * then starts from its kept fold instead of reading the row back, one round trip fewer per batch.
 * Only a guess: every write says the stream position it expects the row at, and a row found
 * elsewhere (a rolled-back transaction, another writer, a rebuild) is read and folded again. A
 * batch with an event at or below the kept position (a redelivery, a retry) is read from the table.
 */
class KeptRows {
  /** null: a write of the row was left to a commit not known to have happened: read the table. */
  private readonly rows = new Map<string, KeptRow | null>();
  constructor(private readonly max: number) {}
  take(schema: string, id: string): KeptRow | null | undefined {
    const key = `${schema}\u0000${id}`;
    const row = this.rows.get(key);
    this.rows.delete(key);
    return row;
  }
  keep(schema: string, id: string, row: KeptRow): void {
    this.set(`${schema}\u0000${id}`, row);
  }
  doubt(schema: string, id: string): void {
    this.set(`${schema}\u0000${id}`, null);
  }
  private set(key: string, row: KeptRow | null): void {
    this.rows.delete(key);
    this.rows.set(key, row);
    while (this.rows.size > this.max) this.rows.delete(this.rows.keys().next().value!);
  }
}

type Requested = RecordedEvent & ScreeningRequested;

/** The screening id of an event of a screening stream, undefined for any other stream (person and subject checks share event types). */
function screeningOf(event: RecordedEvent): string | undefined {
  const id = (event.data as { screeningId?: unknown } | undefined)?.screeningId;
  return typeof id === 'string' && event.streamName === screeningStream(id) ? id : undefined;
}

/** The table's rows of these screenings, as the starting points of a fold. */
async function readRows(client: pg.PoolClient, s: string, ids: readonly string[]): Promise<Map<string, Folding>> {
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<{ screening_id: string; uuid: string; account_id: string; surface: string; stream_position: string; fold: ScreeningReportFold }>(
    `SELECT screening_id::text, uuid::text, account_id::text, surface, stream_position::text, fold FROM ${s}.screening_details WHERE screening_id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(
    rows.map((r) => {
      const position = BigInt(r.stream_position);
      return [r.screening_id, { uuid: r.uuid, accountId: r.account_id, surface: r.surface, position, fold: r.fold, changed: false, expected: position }];
    }),
  );
}

/** Folds one screening's events of the batch into its row (or starts the row at its request). */
function foldInto(row: Folding | undefined, stream: readonly RecordedEvent[]): Folding | undefined {
  for (const event of stream) {
    if (!row) {
      // A stream opens with its request; a fold cannot begin anywhere else.
      if (event.type !== 'ScreeningRequested' || event.streamPosition !== 0n) continue;
      const d = (event as Requested).data;
      row = { uuid: d.uuid, accountId: d.accountId, surface: d.surface, position: -1n, fold: startReport(event as Requested), changed: true, expected: -1n };
    }
    if (event.streamPosition <= row.position) continue; // folded already
    foldReportEvent(row.fold, event);
    row.position = event.streamPosition;
    row.changed = true;
  }
  return row;
}

/** The changed rows as one JSON document (json_to_recordset), and each fold's JSON text. */
function rowsDocument(rows: readonly [string, Folding][]): { doc: string; foldJson: Map<string, string> } {
  const foldJson = new Map<string, string>();
  // One JSON document: the folds are large, and as elements of a text[] parameter each would be
  // escaped again into PostgreSQL's array syntax.
  const parts = rows.map(([id, row]) => {
    const json = JSON.stringify(row.fold);
    foldJson.set(id, json);
    const head = JSON.stringify({ screening_id: id, uuid: row.uuid, account_id: row.accountId, surface: row.surface, stream_position: row.position.toString(), expected: row.expected.toString() });
    return `${head.slice(0, -1)},"fold":${json}}`;
  });
  return { doc: `[${parts.join(',')}]`, foldJson };
}

/**
 * The write of the rows in `doc` (SQL text `doc` is the document's placeholder or quoted literal):
 * each row only if the table still holds it at the position the fold started from (or holds none,
 * for a new row); `updated` and `inserted` answer the screenings written.
 */
const writeCtes = (s: string, doc: string) => `WITH r AS (
       SELECT * FROM json_to_recordset(${doc}::json)
         AS r(screening_id bigint, uuid uuid, account_id bigint, surface text, stream_position bigint, expected bigint, fold json)
     ), updated AS (
       UPDATE ${s}.screening_details t SET stream_position = r.stream_position, fold = r.fold
         FROM r WHERE r.expected >= 0 AND t.screening_id = r.screening_id AND t.stream_position = r.expected
       RETURNING t.screening_id
     ), inserted AS (
       INSERT INTO ${s}.screening_details (screening_id, uuid, account_id, surface, stream_position, fold)
       SELECT r.screening_id, r.uuid, r.account_id, r.surface, r.stream_position, r.fold FROM r WHERE r.expected < 0
       ON CONFLICT DO NOTHING
       RETURNING screening_id
     )`;

/** Writes the changed rows in one statement; answers the screenings written, with each fold's JSON text. */
async function writeRows(client: pg.PoolClient, s: string, rows: readonly [string, Folding][]): Promise<{ written: Set<string>; foldJson: Map<string, string> }> {
  if (rows.length === 0) return { written: new Set(), foldJson: new Map() };
  const { doc, foldJson } = rowsDocument(rows);
  const { rows: answered } = await client.query<{ screening_id: string }>(
    `${writeCtes(s, '$1')}
     SELECT screening_id::text FROM updated UNION ALL SELECT screening_id::text FROM inserted`,
    [doc],
  );
  return { written: new Set(answered.map((r) => r.screening_id)), foldJson };
}

/**
 * Text as an SQL literal, dollar-quoted with a tag the text does not contain: no character is
 * escaped (client.escapeLiteral copies a fold of tens of kilobytes one character at a time).
 */
function dollarQuoted(text: string): string {
  let tag = '$fold$';
  // The literal ends at the first tag after the opening one, which the text's end could begin.
  for (let n = 0; `${text}${tag}`.indexOf(tag) !== text.length; n++) tag = `$fold${n}$`;
  return `${tag}${text}${tag}`;
}

/**
 * The same write left to the round trip that commits the batch: it raises serialization_failure
 * (migration 230) unless every row was written, so a guess that missed rolls the batch back and the
 * runner applies it again; the rows are kept once the batch committed.
 */
function writeRowsAtCommit(s: string, schema: string, rows: readonly [string, Folding][], commit: CommitRoundTrip, kept?: KeptRows): void {
  if (rows.length === 0) return;
  const { doc, foldJson } = rowsDocument(rows);
  // Until the commit is known, the table is the only truth for these rows (a retry reads them).
  for (const [id] of rows) kept?.doubt(schema, id);
  commit.atCommit(
    `${writeCtes(s, dollarQuoted(doc))}
     SELECT projection_rows_written(${rows.length}, (SELECT count(*) FROM updated) + (SELECT count(*) FROM inserted), 'screening detail')`,
    () => {
      for (const [id, row] of rows) kept?.keep(schema, id, { uuid: row.uuid, accountId: row.accountId, surface: row.surface, position: row.position, foldJson: foldJson.get(id)! });
    },
  );
}

/** Folds the events into the rows of their screenings: one read of the rows touched (unless kept), one write. */
async function applyFolded(client: pg.PoolClient, events: readonly RecordedEvent[], schema: string, kept?: KeptRows, commit?: CommitRoundTrip): Promise<void> {
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
  // Where each fold starts: the row this process wrote last, a new row at the request, or the table.
  const folding = new Map<string, Folding | undefined>();
  const unknown: string[] = [];
  for (const [id, stream] of byScreening) {
    const last = kept?.take(schema, id);
    if (last === null) {
      unknown.push(id); // written by a batch whose commit is not known to have happened
    } else if (last && stream[0]!.streamPosition > last.position) {
      folding.set(id, { uuid: last.uuid, accountId: last.accountId, surface: last.surface, position: last.position, fold: JSON.parse(last.foldJson) as ScreeningReportFold, changed: false, expected: last.position });
    } else if (kept && !last && stream[0]!.type === 'ScreeningRequested' && stream[0]!.streamPosition === 0n) {
      folding.set(id, undefined); // new, as far as this process knows: the write inserts only if absent
    } else {
      unknown.push(id);
    }
  }
  for (const [id, row] of await readRows(client, s, unknown)) folding.set(id, row);
  const changed = (ids: Iterable<string>) =>
    [...ids].flatMap((id) => {
      const row = foldInto(folding.get(id), byScreening.get(id)!);
      return row?.changed ? [[id, row] as [string, Folding]] : [];
    });
  const first = changed(byScreening.keys());
  if (commit) {
    writeRowsAtCommit(s, schema, first, commit, kept);
    return;
  }
  const { written, foldJson } = await writeRows(client, s, first);
  // A guess that missed (the table holds the row elsewhere): read those rows and fold them again.
  const missed = first.filter(([id]) => !written.has(id)).map(([id]) => id);
  const again = missed.length > 0 ? await readRows(client, s, missed) : new Map<string, Folding>();
  for (const id of missed) folding.set(id, again.get(id));
  const second = changed(missed);
  const retried = await writeRows(client, s, second);
  const lost = second.filter(([id]) => !retried.written.has(id));
  if (lost.length > 0) throw new Error(`screening detail rows changed while being written: ${lost.map(([id]) => id).join(', ')}`);
  if (!kept) return;
  for (const [id, row] of [...first.filter(([id]) => written.has(id)), ...second]) {
    kept.keep(schema, id, { uuid: row.uuid, accountId: row.accountId, surface: row.surface, position: row.position, foldJson: retried.foldJson.get(id) ?? foldJson.get(id)! });
  }
}

function detailsProjection(kept?: KeptRows): Projection {
  return {
    name: 'screening_details',
    version: 1,
    // Every event of a screening stream is in the report's audit trail.
    handles: screeningEventTypes,
    // Reads fold the events past the row's position from the stream (ScreeningService.report): the
    // runner may write this model every second or so, a screening's row once, not once per read batch.
    mayLag: true,
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
      await applyFolded(client, [event], schema, kept);
    },
    async applyBatch(client, events, schema, commit) {
      await applyFolded(client, events, schema, kept, commit);
    },
  };
}

/** The read model, reading every row it folds from the table. */
export const screeningDetailsProjection: Projection = detailsProjection();

/**
 * The read model as the service runs it: one instance per runner (per database), keeping the rows
 * of the last `keep` screenings it wrote, so a screening in flight costs one statement per batch.
 */
export function createScreeningDetailsProjection(options: { keep?: number } = {}): Projection {
  return detailsProjection(new KeptRows(options.keep ?? 512));
}

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
