import pg from 'pg';
import type { RecordedEvent } from '../shared/events';

/**
 * A read model kept in PostgreSQL. The runner owns the schema name: setup/apply must create and
 * touch tables only inside the schema they are given (quote it with quoteIdent), so a rebuild can
 * build a fresh copy beside the live one and swap it in.
 *
 * apply() runs inside the runner's transaction together with the checkpoint update, so an event is
 * applied at most once per schema; still write apply() idempotently (e.g. update a row only when the
 * event's stream position is newer than the one stored), as the guide requires.
 */
export interface Projection {
  /** Lower-case identifier: [a-z][a-z0-9_]*, at most 40 characters. */
  name: string;
  /** Bump when setup/apply change meaning: the runner then rebuilds the read model on start. */
  version: number;
  /** Event types this projection reads; other events only move its checkpoint. */
  handles: readonly string[];
  setup(client: pg.PoolClient, schema: string): Promise<void>;
  apply(client: pg.PoolClient, event: RecordedEvent, schema: string): Promise<void>;
  /**
   * Optional: several events in one go, in the same transaction, with fewer statements (a read batch
   * of many screenings then costs a few round trips, not a few per screening). The runner passes the
   * events of handled types past the checkpoint, in global order; the result must be exactly that of
   * apply() called on each in turn (including idempotency on a replay).
   * With `commit` (the runner's transactions), its last statement may instead be left to the round
   * trip that commits the batch (see CommitRoundTrip); without it, applyBatch runs every statement itself.
   */
  applyBatch?(client: pg.PoolClient, events: RecordedEvent[], schema: string, commit?: CommitRoundTrip): Promise<void>;
  /**
   * Its readers fold what it has not applied yet from the stream (as the screening-detail read does):
   * the runner then holds its events and applies them in one transaction every second (the idle
   * flush), at caughtUp(), or once it holds skipFlushEvery events; applied() does not wait for it.
   * A row is then written about once per item instead of once per read batch the item appears in.
   */
  mayLag?: boolean;
  /**
   * Tables outside its schema that it writes (the webhook projector's outbox and endpoints, shared
   * with the dispatcher), unqualified in its statements. A rebuild check (verify.ts) gives it its own
   * copies first on the search path and compares what `rows` selects: the columns it alone writes.
   */
  sharedTables?: readonly SharedTable[];
}

/** A table a projection writes outside its own schema (see Projection.sharedTables). */
export interface SharedTable {
  table: string;
  /** The rows it wrote, as written (no column another writer changes), from the copy in `schema`. */
  rows(schema: string): string;
}

/**
 * The round trip that commits a read batch's transaction (checkpoints and COMMIT), offered to the
 * read models applying it: a statement left here costs no round trip of its own. It is a simple query,
 * so it takes no parameters (quote values with client.escapeLiteral); it must raise rather than write
 * part of what it means to (a transient SQLSTATE such as 40001 has the runner roll the batch back and
 * apply it again; see the projection_rows_written function). `committed` runs once the batch committed.
 */
export interface CommitRoundTrip {
  atCommit(sql: string, committed?: () => void): void;
}

/** Applies events through applyBatch when the projection has one, else one by one. */
export async function applyEvents(projection: Projection, client: pg.PoolClient, events: RecordedEvent[], schema: string, commit?: CommitRoundTrip): Promise<void> {
  if (events.length === 0) return;
  if (projection.applyBatch) {
    await projection.applyBatch(client, events, schema, commit);
    return;
  }
  for (const event of events) await projection.apply(client, event, schema);
}

const NAME = /^[a-z][a-z0-9_]{0,39}$/;

export function assertProjectionName(name: string): void {
  if (!NAME.test(name)) throw new Error(`Projection name ${JSON.stringify(name)} must match ${NAME.source}`);
}

/** The live schema of a projection's tables: readers query `${projectionSchema(name)}.<table>`. */
export function projectionSchema(name: string): string {
  assertProjectionName(name);
  return `proj_${name}`;
}

/** Double-quotes an identifier (schema/table) for SQL text. */
export function quoteIdent(identifier: string): string {
  return pg.escapeIdentifier(identifier);
}

/** Something that knows the last committed global position (both event store adapters do). */
export interface HeadPositionSource {
  headPosition(): Promise<bigint>;
}
