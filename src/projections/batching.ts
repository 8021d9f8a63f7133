/**
 * Helpers for a read model's applyBatch: which events of a batch one multi-row statement may write
 * together without changing what apply() on each in turn would give, and statement parameters as
 * typed arrays (one per column, for `unnest($1::bigint[], …)`), never values spliced into SQL text.
 */
import type { RecordedEvent } from '../shared/events';

/**
 * `together`: consecutive events of the batchable type, no two for the same row, so one statement
 * may write them (a row that two of them touch would get an arbitrary one of the two); `alone`:
 * any other event, for apply(). The pieces keep the batch's order, so each row still sees its
 * events in the order apply() would.
 */
export type Piece = { together: RecordedEvent[] } | { alone: RecordedEvent };

export function piecesOf(events: readonly RecordedEvent[], batchableType: string, rowOf: (event: RecordedEvent) => string): Piece[] {
  const pieces: Piece[] = [];
  let run: RecordedEvent[] = [];
  const rows = new Set<string>();
  const closeRun = () => {
    if (run.length > 0) pieces.push({ together: run });
    run = [];
    rows.clear();
  };
  for (const event of events) {
    if (event.type !== batchableType) {
      closeRun();
      pieces.push({ alone: event });
      continue;
    }
    const row = rowOf(event);
    if (rows.has(row)) closeRun();
    run.push(event);
    rows.add(row);
  }
  closeRun();
  return pieces;
}

/** Rows of statement values → one array per column (parameters for unnest). */
export function columnsOf(rows: readonly (readonly unknown[])[], width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => rows.map((row) => row[column] ?? null));
}

/** The first item for each key, in order: where a later one for the same key would change nothing, as with ON CONFLICT DO NOTHING. */
export function firstPerKey<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
