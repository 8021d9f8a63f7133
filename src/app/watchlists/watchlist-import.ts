/**
 * A streamed internal-list import, pass one (issue 21): the body is read once, every row is
 * checked as it is read (the parser's mapping and value checks, then the decider's entry rules and
 * duplicate ids), and the valid rows are spooled to a temporary file, one JSON line each. Memory
 * holds one row at a time plus the file's entry ids (duplicates), never the rows.
 *
 * All or nothing (the default): any row problem ⇒ the caller refuses the whole file with every
 * (line, field, reason) and nothing is written anywhere but the spool, which dispose() deletes.
 * Skipping bad rows (`skipBadRows`): the good rows are spooled and the refused ones reported by line.
 * Pass two (WatchlistService.importStaged) reads the spool back in chunks, each ambiguous date read
 * the way its column's rows decided (which is known only once the whole file is read).
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { importRowIssues, type ImportRowIssue } from '../../commands/watchlist';
import type { WatchlistEntryInput } from '../../screening/watchlists/model';
import { parseImport, resolveDates, type ImportRow, type ImportTarget, type ParseOptions } from './import-parser';
import type { DateColumnOrder } from './import-values';

/** About this much row JSON per chunk event (well under a bus message's 1 MB; see IMPORT_CHUNK_ENTRIES for the size). */
export const CHUNK_MAX_BYTES = 128 * 1024;

/** Row problems reported (all are counted). */
export const MAX_REPORTED_ROW_ERRORS = 1000;

export interface SpooledImport {
  format: 'csv' | 'jsonl';
  mapping: Record<string, ImportTarget>;
  unmappedColumns: string[];
  rowCount: number;
  /** The first MAX_REPORTED_ROW_ERRORS problems in line order; errorCount counts them all. */
  errors: ImportRowIssue[];
  errorCount: number;
  /** Rows with at least one problem (refused, or skipped when skipping bad rows). */
  badRows: number;
  /** Rows spooled (to be imported). */
  goodRows: number;
  /** How each date column's day/month order was decided. */
  dateOrders: Record<string, DateColumnOrder>;
  twoDigitYears: string;
  bytes: number;
  sha256: string;
  /**
   * Valid rows, in file order, in chunks (read back from the spool) of at most `size` rows and about
   * `maxBytes` of JSON (a chunk becomes one event: a bus message must stay well under 1 MB).
   */
  chunks(size: number, maxBytes?: number): AsyncGenerator<{ line: number; entryId: string; entry: WatchlistEntryInput }[]>;
  /** The file's entry ids (replace mode removes the list's other entries). */
  entryIds: ReadonlyMap<string, number>;
  dispose(): Promise<void>;
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    out.once('error', onError);
    out.once('drain', () => {
      out.off('error', onError);
      resolve();
    });
  });
}

/** Reads and checks the whole body, spooling the valid rows; see the module comment. */
export async function spoolImport(body: Readable, options: Omit<ParseOptions, 'onRow' | 'keepRows' | 'maxErrors'> & { spoolDir?: string; skipBadRows?: boolean }): Promise<SpooledImport> {
  const dir = await mkdtemp(join(options.spoolDir ?? tmpdir(), 'svc-watchlist-import-'));
  const path = join(dir, 'rows.jsonl');
  const dispose = () => rm(dir, { recursive: true, force: true });
  const out = createWriteStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const seen = new Map<string, number>();
  const rowErrors: ImportRowIssue[] = [];
  let rowErrorCount = 0;
  let refusedRows = 0;
  let goodRows = 0;
  try {
    const parsed = await parseImport(body, {
      ...options,
      maxErrors: MAX_REPORTED_ROW_ERRORS,
      onRow: async (row) => {
        const issues = importRowIssues(row, seen);
        if (issues.length) {
          rowErrorCount += issues.length;
          refusedRows += 1;
          for (const issue of issues) if (rowErrors.length < MAX_REPORTED_ROW_ERRORS) rowErrors.push(issue);
          return;
        }
        // All or nothing: once a row is bad the file is refused, and the rest is only checked, not spooled.
        if (!options.skipBadRows && rowErrorCount > 0) return;
        goodRows += 1;
        await write(out, JSON.stringify([row.line, row.entryId, row.entry, row.ambiguousDates ?? null]) + '\n');
      },
    });
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    const errors = [...parsed.errors, ...rowErrors].sort((a, b) => a.line - b.line).slice(0, MAX_REPORTED_ROW_ERRORS);
    return {
      format: parsed.format,
      mapping: parsed.mapping,
      unmappedColumns: parsed.unmappedColumns,
      rowCount: parsed.rowCount,
      errors,
      errorCount: parsed.errorCount + rowErrorCount,
      badRows: parsed.badRows + refusedRows,
      goodRows,
      dateOrders: parsed.dateOrders,
      twoDigitYears: parsed.twoDigitYears,
      bytes: parsed.bytes,
      sha256: parsed.sha256,
      entryIds: seen,
      async *chunks(size: number, maxBytes = CHUNK_MAX_BYTES) {
        const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
        let chunk: { line: number; entryId: string; entry: WatchlistEntryInput }[] = [];
        let bytes = 0;
        for await (const text of lines) {
          if (!text) continue;
          const [line, entryId, entry, ambiguousDates] = JSON.parse(text) as [number, string, WatchlistEntryInput, ImportRow['ambiguousDates'] | null];
          if (chunk.length > 0 && bytes + text.length > maxBytes) {
            yield chunk;
            chunk = [];
            bytes = 0;
          }
          chunk.push(resolveDates({ line, entryId, entry, ...(ambiguousDates ? { ambiguousDates } : {}) }, parsed.dateOrders));
          bytes += text.length;
          if (chunk.length >= size) {
            yield chunk;
            chunk = [];
            bytes = 0;
          }
        }
        if (chunk.length) yield chunk;
      },
      dispose,
    };
  } catch (error) {
    out.destroy();
    await dispose();
    throw error;
  }
}
