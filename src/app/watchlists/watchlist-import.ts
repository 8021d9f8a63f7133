/**
 * A streamed internal-list import, pass one (issue 21): the body is read once, every row is
 * checked as it is read (the parser's mapping and value checks, then the decider's entry rules and
 * duplicate ids), and the valid rows are spooled to a temporary file, one JSON line each. Memory
 * holds one row at a time plus the file's entry ids (duplicates), never the rows.
 *
 * Any row problem ⇒ the caller refuses the whole file with every (line, field, reason) and nothing
 * is written anywhere but the spool, which dispose() deletes. Otherwise pass two
 * (WatchlistService.importStaged) reads the spool back in chunks.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { importRowIssues, type ImportRowIssue } from '../../commands/watchlist';
import type { WatchlistEntryInput } from '../../screening/watchlists/model';
import { parseImport, type ImportTarget, type ParseOptions } from './import-parser';

/** About this much row JSON per chunk event (with the entry's bookkeeping fields it stays under 1 MB). */
export const CHUNK_MAX_BYTES = 384 * 1024;

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
export async function spoolImport(body: Readable, options: Omit<ParseOptions, 'onRow' | 'keepRows' | 'maxErrors'> & { spoolDir?: string }): Promise<SpooledImport> {
  const dir = await mkdtemp(join(options.spoolDir ?? tmpdir(), 'svc-watchlist-import-'));
  const path = join(dir, 'rows.jsonl');
  const dispose = () => rm(dir, { recursive: true, force: true });
  const out = createWriteStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const seen = new Map<string, number>();
  const rowErrors: ImportRowIssue[] = [];
  let rowErrorCount = 0;
  try {
    const parsed = await parseImport(body, {
      ...options,
      maxErrors: MAX_REPORTED_ROW_ERRORS,
      onRow: async (row) => {
        const issues = importRowIssues(row, seen);
        if (issues.length) {
          rowErrorCount += issues.length;
          for (const issue of issues) if (rowErrors.length < MAX_REPORTED_ROW_ERRORS) rowErrors.push(issue);
          return;
        }
        // Once a row is bad the file is refused: the rest is only checked, not spooled.
        if (rowErrorCount === 0) await write(out, JSON.stringify([row.line, row.entryId, row.entry]) + '\n');
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
      bytes: parsed.bytes,
      sha256: parsed.sha256,
      entryIds: seen,
      async *chunks(size: number, maxBytes = CHUNK_MAX_BYTES) {
        const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
        let chunk: { line: number; entryId: string; entry: WatchlistEntryInput }[] = [];
        let bytes = 0;
        for await (const text of lines) {
          if (!text) continue;
          const [line, entryId, entry] = JSON.parse(text) as [number, string, WatchlistEntryInput];
          if (chunk.length > 0 && bytes + text.length > maxBytes) {
            yield chunk;
            chunk = [];
            bytes = 0;
          }
          chunk.push({ line, entryId, entry });
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
