/**
 * Batch screening: a CSV of names streamed in, screened in chunks across a pool of worker threads
 * (or in this thread with one worker), results written in input order as the chunks come back.
 * Nothing holds the whole file: the reader waits when the pool has enough work in flight.
 *
 * Rows that cannot be read (no name, broken CSV quoting, a line that is not a JSON object) go to the
 * errors CSV with their line number and the batch carries on. A bad optional field never drops a
 * name (issue 27): a DOB that is not a real date, an unknown country or entity type is left out, the
 * name is screened without it, and the warning goes to the row's output and the errors CSV.
 * Input: CSV or JSON lines (./input.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { ScreeningEngine } from '../../screening/engine';
import { readSnapshotBytes, snapshotKey, writeSnapshot, type CachedSnapshot } from '../../screening/index-snapshot';
import type { ListsConfig } from '../../screening/lists/config';
import type { ListEntity, ListVersion } from '../../screening/model';
import { parseScreeningInput } from '../../screening/query-input';
import { readInput, type BatchInputFormat } from './input';
import { csvLine, RESULT_COLUMNS, screenChunk, type BatchRow, type BatchScreenOptions, type ChunkResult } from './rows';
import type { VerdictContext } from '../../agents/lists/direct-verdict';
import { bundledProgrammes } from '../../screening/lists/country-sanctions';
import type { WorkerInit, WorkerReply, WorkerRequest } from './worker';

export { BatchInputError, type BatchInputFormat } from './input';

export const ERROR_COLUMNS = ['line', 'field', 'value', 'message'] as const;

/** Screens chunks of rows; in this thread or in a pool of workers. */
export interface ChunkScreener {
  readonly workers: number;
  screen(rows: BatchRow[]): Promise<ChunkResult>;
  close(): Promise<void>;
}

/**
 * `context`: the FATF table and sanctions programmes for the rows' country risk (default:
 * options.countryRisk and the bundled programmes counted on this engine, as a batch worker has them).
 */
export function inProcessScreener(engine: ScreeningEngine, options: BatchScreenOptions, context: VerdictContext = { countryRisk: options.countryRisk ?? [], countrySanctions: bundledProgrammes(engine) }): ChunkScreener {
  return {
    workers: 1,
    screen: async (rows) => screenChunk(engine, rows, options, context),
    close: async () => {},
  };
}

export function defaultWorkerCount(): number {
  return availableParallelism();
}

/**
 * Where a pool's workers get the listed entities: copied from this thread, or read from the list
 * files by the workers. With the lists' `cacheDir`, the lists and the built index come from the snapshot of
 * that list set when there is one (src/screening/index-snapshot.ts; each worker only deserialises
 * it), else the first worker encodes one after its build and the pool writes it for the next batch.
 * Entities given with the `snapshot` they were restored from (the service's engine): the workers start
 * from that snapshot when it can be read, else from the entities.
 */
export type WorkerListSource = { entities: ListEntity[]; versions: ListVersion[]; snapshot?: CachedSnapshot } | { lists: ListsConfig };

/** How the pool's engines were made. */
export type PoolStartup = 'entities' | 'lists' | 'snapshot';

class UnusableSnapshotError extends Error {}

/**
 * A pool of `workers` threads, each building its own engine (in parallel: the build is paid once in
 * wall time) from the entities given or from the list files (each worker loads them, in parallel:
 * no copy, and this thread never holds them). Resolves when every worker is ready; `listFailures`
 * are the lists a worker could not load (the others are screened).
 */
export async function startWorkerPool(
  args: WorkerListSource & { options: BatchScreenOptions; workers: number; onCacheError?: (error: unknown) => void },
): Promise<ChunkScreener & { listFailures: { source: string; message: string }[]; startup: PoolStartup }> {
  if (!('lists' in args)) {
    const bytes = args.snapshot && (await readSnapshotBytes(args.snapshot.cacheDir, args.snapshot.key).catch(() => undefined));
    if (bytes && args.snapshot) {
      try {
        return await startPool(args, { snapshot: { bytes, key: args.snapshot.key } });
      } catch (error) {
        if (!(error instanceof UnusableSnapshotError)) throw error;
      }
    }
    return startPool(args, {});
  }
  if (!args.lists.cacheDir) return startPool(args, {});
  const cacheDir = args.lists.cacheDir;
  const key = await snapshotKey(args.lists).catch(() => undefined);
  if (!key) return startPool(args, {});
  const bytes = await readSnapshotBytes(cacheDir, key).catch(() => undefined);
  if (bytes) {
    try {
      return await startPool(args, { snapshot: { bytes, key } });
    } catch (error) {
      if (!(error instanceof UnusableSnapshotError)) throw error;
      // a damaged file: built again from the lists, and written anew
    }
  }
  return startPool(args, {
    makeSnapshot: {
      key,
      save: (snapshot) => writeSnapshot(cacheDir, key, snapshot).then(() => undefined, (error: unknown) => args.onCacheError?.(error)),
    },
  });
}

async function startPool(
  args: WorkerListSource & { options: BatchScreenOptions; workers: number },
  cache: { snapshot?: { bytes: Uint8Array; key: string }; makeSnapshot?: { key: string; save: (bytes: Uint8Array) => Promise<void> } },
): Promise<ChunkScreener & { listFailures: { source: string; message: string }[]; startup: PoolStartup }> {
  const initFor = (worker: number): WorkerInit =>
    cache.snapshot
      ? { snapshot: cache.snapshot, options: args.options }
      : 'lists' in args
        ? { lists: args.lists, options: args.options, ...(cache.makeSnapshot && worker === 0 ? { makeSnapshot: cache.makeSnapshot.key } : {}) }
        : { entities: args.entities, versions: args.versions, options: args.options };
  let saving: Promise<void> | undefined;
  const startup: PoolStartup = cache.snapshot ? 'snapshot' : 'lists' in args ? 'lists' : 'entities';
  const fromLists = 'lists' in args && !cache.snapshot;
  const listFailures: { source: string; message: string }[] = [];
  // Lists handed out to the workers that ask, largest first (the longest parse starts first).
  const toLoad = fromLists ? largestFirst(args.lists) : [];
  let loadedLists = 0;
  const url = new URL('./worker-entry.mjs', import.meta.url);
  type Pending = { resolve: (r: ChunkResult) => void; reject: (e: Error) => void };
  const slots: { worker: Worker }[] = [];
  const onLoadMessage = (from: Worker, m: WorkerReply) => {
    if (m.type === 'next') {
      const index = toLoad.shift();
      if (index !== undefined) from.postMessage({ type: 'load', index } satisfies WorkerRequest);
    } else if (m.type === 'loaded') {
      if (m.list.failure) listFailures.push(m.list.failure);
      for (const s of slots) if (s.worker !== from) s.worker.postMessage({ type: 'list', list: m.list } satisfies WorkerRequest);
      if (++loadedLists === (fromLists ? args.lists.lists.length : 0)) for (const s of slots) s.worker.postMessage({ type: 'build' } satisfies WorkerRequest);
    }
  };
  const started = Array.from({ length: args.workers }, (_, n) => {
    const worker = new Worker(url, { workerData: initFor(n) });
    const pending = new Map<number, Pending>();
    const slot = { worker, pending, ready: undefined as unknown as Promise<void> };
    let failed: Error | undefined;
    const failAll = (error: Error) => {
      failed = error;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: WorkerReply) => {
        if (m.type === 'ready') {
          if (m.snapshot && cache.makeSnapshot) saving = cache.makeSnapshot.save(m.snapshot);
          return resolve();
        }
        if (m.type === 'unusable-snapshot') return reject(new UnusableSnapshotError('the index snapshot could not be read'));
        if (m.type === 'next' || m.type === 'loaded') return onLoadMessage(worker, m);
        const p = pending.get(m.seq);
        if (!p) return;
        pending.delete(m.seq);
        if (m.type === 'done') p.resolve({ csv: m.csv, jsonl: m.jsonl, screened: m.screened, flagged: m.flagged });
        else p.reject(new Error(`batch worker failed: ${m.message}`));
      });
      worker.on('error', (e) => {
        reject(e);
        failAll(e);
      });
      worker.on('exit', (code) => {
        const e = new Error(`batch worker exited with code ${code}`);
        reject(e);
        if (pending.size) failAll(e);
      });
    });
    return Object.assign(slot, { isFailed: () => failed });
  });
  slots.push(...started);
  if (fromLists && args.lists.lists.length === 0) for (const s of slots) s.worker.postMessage({ type: 'build' } satisfies WorkerRequest);
  try {
    await Promise.all(started.map((s) => s.ready));
  } catch (error) {
    await Promise.all(started.map((s) => s.worker.terminate()));
    throw error;
  }
  // every worker deserialised the snapshot: this thread lets its shared bytes go
  cache.snapshot = undefined;
  let seq = 0;
  return {
    listFailures,
    startup,
    workers: args.workers,
    screen(rows) {
      // the least busy worker takes the chunk
      const slot = started.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const failed = slot.isFailed();
      if (failed) return Promise.reject(failed);
      const id = seq++;
      return new Promise<ChunkResult>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage({ type: 'screen', seq: id, rows } satisfies WorkerRequest);
      });
    },
    async close() {
      await Promise.all(started.map((s) => s.worker.terminate()));
      await saving;
    },
  };
}

/** Indexes of the configured lists, the largest (bytes on disk) first. */
function largestFirst(config: ListsConfig): number[] {
  const size = (dir: string, files?: string[]) => {
    let total = 0;
    try {
      for (const f of files ?? readdirSync(dir)) {
        try {
          total += statSync(path.join(dir, f)).size;
        } catch {
          // a file that is not there is reported by the worker that loads the list
        }
      }
    } catch {
      // idem for a directory
    }
    return total;
  };
  const sizes = config.lists.map((l) => size(l.dir, l.files));
  return config.lists.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
}

export interface BatchProgress {
  /** Data rows read so far (screened + rejected + waiting). */
  read: number;
  screened: number;
  flagged: number;
  rejected: number;
}

export interface BatchSummary extends BatchProgress {
  ms: number;
  workers: number;
}

/** One point of the batch up to which every output file is complete (see runBatch's onCheckpoint). */
export interface BatchCheckpoint {
  /** Every input row starting at or before this line is in the results or the errors file; none after it. */
  line: number;
  /** The counters at that point. */
  progress: BatchProgress;
}

function write(stream: Writable, text: string): Promise<void> | undefined {
  if (!text || stream.write(text)) return undefined;
  return new Promise((resolve) => stream.once('drain', resolve));
}

/** Problem lines held before a chunk is cut even if it is not full (a file of bad rows stays bounded). */
const MAX_PENDING_ERRORS = 1000;
const NOTHING: ChunkResult = { csv: '', jsonl: '', screened: 0, flagged: 0 };

/**
 * Stream `input` (CSV with a header holding `name`, optionally `entity_type`/`type`, `dob`,
 * `country`; or JSON lines with those fields: ./input.ts) through `screener`, writing the results CSV,
 * the errors CSV and the JSON lines. The caller owns (and ends) the output streams.
 *
 * Files are written a chunk at a time in input order, each chunk's results followed by the problems of
 * the rows read with it, so after each chunk every file holds exactly the rows up to one line: that
 * point is handed to `onCheckpoint` (awaited) once its text is passed to the streams. `resume` restarts
 * a batch after such a point: the rows up to its line are read but neither screened nor written (nor the
 * headers), and the counters start from its progress.
 */
export async function runBatch(args: {
  input: Readable;
  format?: BatchInputFormat;
  screener: ChunkScreener;
  results: Writable;
  errors: Writable;
  jsonl?: Writable;
  /** YYYY-MM-DD, for "a DOB is not in the future". */
  today: string;
  chunkSize?: number;
  onProgress?: (p: BatchProgress) => void;
  onCheckpoint?: (c: BatchCheckpoint) => Promise<void> | void;
  resume?: BatchCheckpoint;
  now?: () => number;
}): Promise<BatchSummary> {
  const now = args.now ?? (() => performance.now());
  const started = now();
  const chunkSize = args.chunkSize ?? 250;
  // Enough work in flight to keep every worker busy while the main thread writes.
  const maxInFlight = args.screener.workers * 3;
  const progress: BatchProgress = args.resume ? { ...args.resume.progress } : { read: 0, screened: 0, flagged: 0, rejected: 0 };
  const afterLine = args.resume?.line ?? 0;
  /** A chunk sent, with the problems of the rows read with it and the counters when it was cut. */
  const inFlight: { result: Promise<ChunkResult>; errors: string; line: number; read: number; rejected: number }[] = [];

  let headerWritten = !!args.resume;
  let errorLines: string[] = [];
  let lastLine = afterLine;

  const drainOne = async () => {
    const sent = inFlight.shift()!;
    const r = await sent.result;
    progress.screened += r.screened;
    progress.flagged += r.flagged;
    await write(args.results, r.csv);
    if (args.jsonl) await write(args.jsonl, r.jsonl);
    await write(args.errors, sent.errors);
    args.onProgress?.({ ...progress });
    await args.onCheckpoint?.({ line: sent.line, progress: { read: sent.read, screened: progress.screened, flagged: progress.flagged, rejected: sent.rejected } });
  };
  const dispatch = async (rows: BatchRow[]) => {
    const errors = errorLines.join('');
    errorLines = [];
    inFlight.push({ result: rows.length ? args.screener.screen(rows) : Promise.resolve(NOTHING), errors, line: lastLine, read: progress.read, rejected: progress.rejected });
    if (inFlight.length >= maxInFlight) await drainOne();
  };
  const writeHeaders = async () => {
    if (headerWritten) return;
    headerWritten = true;
    await write(args.results, csvLine(RESULT_COLUMNS));
    await write(args.errors, csvLine(ERROR_COLUMNS));
  };

  let chunk: BatchRow[] = [];
  try {
    for await (const item of readInput(args.input, args.format ?? 'csv')) {
      await writeHeaders();
      if (item.line <= afterLine) continue;
      progress.read++;
      lastLine = item.line;
      if ('problems' in item) {
        progress.rejected++;
        for (const p of item.problems) errorLines.push(csvLine([item.line, p.field, p.value, p.message]));
      } else {
        const { record } = item;
        const input = { name: record.name ?? '', entity_type: record.entity_type ?? record.type ?? '', dob: record.dob ?? '', country: record.country ?? '' };
        const parsed = parseScreeningInput({ name: input.name, dob: input.dob, country: input.country, type: input.entity_type }, args.today, { lenient: true });
        if (!parsed.ok) {
          progress.rejected++;
          for (const p of parsed.problems) errorLines.push(csvLine([item.line, p.field, p.value, p.message]));
        } else {
          // An optional field left out: the name is screened, the warning is in its row and in the errors file.
          for (const p of parsed.warnings) errorLines.push(csvLine([item.line, p.field, p.value, p.message]));
          const warnings = parsed.warnings.map((p) => `${p.field} "${p.value}": ${p.message}`);
          chunk.push({ line: item.line, input, query: parsed.query, ...(parsed.notes.length ? { notes: parsed.notes } : {}), ...(warnings.length ? { warnings } : {}) });
        }
      }
      if (chunk.length >= chunkSize || errorLines.length >= MAX_PENDING_ERRORS) {
        const full = chunk;
        chunk = [];
        await dispatch(full);
      }
    }
    await writeHeaders();
    if (chunk.length || errorLines.length) inFlight.push({ result: chunk.length ? args.screener.screen(chunk) : Promise.resolve(NOTHING), errors: errorLines.join(''), line: lastLine, read: progress.read, rejected: progress.rejected });
    while (inFlight.length) await drainOne();
  } catch (error) {
    // let the chunks already sent settle so no worker reply lands on a closed stream
    await Promise.allSettled(inFlight.map((f) => f.result));
    throw error;
  }
  args.onProgress?.({ ...progress });
  return { ...progress, ms: now() - started, workers: args.screener.workers };
}
