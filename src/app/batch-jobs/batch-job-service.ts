/**
 * Asynchronous batch screening jobs (S3 `POST /api/v1/batches`): the same engine, row rules, output files
 * and worker pool as `svc screen --file` (src/app/batch-screening, called, not changed).
 *
 * - `create` streams the uploaded CSV to disk (never held whole in memory), refusing it on the way when it
 *   passes the size limit or is not UTF-8, checks its header, records the job (table batch_jobs,
 *   migration 131) and queues it. The answer comes once the upload is stored; screening runs after.
 * - Jobs run one at a time per process (the pool takes every worker thread it is given), in arrival order.
 *   Progress (rows read, screened, flagged, rejected, names/s) is written to the row as chunks come back.
 * - Durable enough for a restart: the accepting process refreshes `heartbeat_at` of its unfinished jobs;
 *   a job whose heartbeat stopped (the process died, or stopped mid-job) is marked failed by any instance
 *   (on a sweep, and when read), so no job stays "running" for ever. The client submits it again.
 * - Tenant isolation: every read names the account.
 * - Idempotency-Key: the job id and the upload's SHA-256 are bound to the key (idempotency/binding.ts):
 *   a retry after a crash answers the job already created; the same key with another upload is refused.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import type pg from 'pg';
import type { ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListVersion } from '../../screening/model';
import type { CachedSnapshot } from '../../screening/index-snapshot';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { inProcessScreener, runBatch, startWorkerPool, type BatchProgress, type ChunkScreener } from '../batch-screening/batch';
import type { CommandContext, Principal } from '../services';

export type BatchJobStatus = 'queued' | 'running' | 'completed' | 'failed';
export type BatchFile = 'results.csv' | 'results.jsonl' | 'errors.csv';
export const BATCH_FILES: readonly BatchFile[] = ['results.csv', 'results.jsonl', 'errors.csv'];

export interface BatchJobView {
  id: string;
  status: BatchJobStatus;
  threshold: number;
  input_bytes: number;
  /** Data rows in the upload, counted from its line breaks (a quoted line break makes it an estimate). */
  rows_estimated: number;
  progress: { rows_read: number; screened: number; flagged: number; rejected: number; names_per_second: number | null };
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Why an upload is refused (the route renders each in the surface's envelope); nothing is recorded. */
export class BatchUploadRefused extends Error {
  constructor(
    readonly reason: 'too_large' | 'not_utf8' | 'empty' | 'no_name_column' | 'key_reused' | 'queue_full',
    message: string,
  ) {
    super(message);
  }
}

export interface BatchJobServiceDeps {
  pool: pg.Pool;
  clock: Clock;
  logger: Logger;
  /** Where job files live: <dataDir>/batches/<job id>/. */
  dataDir: string;
  /** Largest upload accepted, in bytes. */
  maxBytes: number;
  /** Jobs queued or running in this process past which a new one is refused (503). */
  maxQueued: number;
  /** Worker threads per job (0 = screen in this thread, small chunks; tests and tiny deployments). */
  workers: number;
  /** The engine in service and the lists it was built from (the pool builds its engines from them). */
  engine: () => ScreeningEngine;
  lists: () => { entities: ListEntity[]; versions: ListVersion[]; snapshot?: CachedSnapshot };
  /** A job whose heartbeat is older than this is failed as interrupted (default 60 s). */
  heartbeatTimeoutMs?: number;
  /** How often this process refreshes its jobs' heartbeats and sweeps interrupted jobs (default 10 s). */
  heartbeatEveryMs?: number;
}

interface Row {
  job_id: string;
  status: BatchJobStatus;
  threshold: number;
  input_bytes: string;
  input_sha256: string;
  rows_estimated: number;
  rows_read: number;
  screened: number;
  flagged: number;
  rejected: number;
  names_per_second: number | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  heartbeat_at: Date;
}

const INTERRUPTED = 'interrupted: the service stopped while the job was queued or running; submit the file again';

function view(row: Row): BatchJobView {
  return {
    id: row.job_id,
    status: row.status,
    threshold: Math.round(row.threshold * 1000) / 1000,
    input_bytes: Number(row.input_bytes),
    rows_estimated: row.rows_estimated,
    progress: {
      rows_read: row.rows_read,
      screened: row.screened,
      flagged: row.flagged,
      rejected: row.rejected,
      names_per_second: row.names_per_second === null ? null : Math.round(row.names_per_second),
    },
    error: row.error,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export class BatchJobService {
  private readonly queue: { id: string; threshold: number }[] = [];
  /** Jobs of this process not finished yet (queued or running): their heartbeats. */
  private readonly mine = new Set<string>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(private readonly deps: BatchJobServiceDeps) {}

  private dir(id: string): string {
    return path.join(this.deps.dataDir, 'batches', id);
  }

  /** Starts the heartbeat and fails the jobs a previous process left unfinished. */
  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => {
      this.heartbeat().catch((err: unknown) => this.deps.logger.warn({ err }, 'batch job heartbeat failed'));
    }, this.deps.heartbeatEveryMs ?? 10_000);
    this.timer.unref();
  }

  /** Stops taking jobs; the unfinished ones of this process are failed at once (a restart would anyway). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.queue.length = 0;
    this.current?.abort();
    await this.running?.catch(() => {});
    if (this.mine.size) {
      await this.deps.pool
        .query(`UPDATE batch_jobs SET status = 'failed', error = $2, finished_at = $3 WHERE job_id = ANY($1::uuid[]) AND status IN ('queued', 'running')`, [
          [...this.mine],
          INTERRUPTED,
          this.deps.clock.now(),
        ])
        .catch(() => {});
      this.mine.clear();
    }
  }

  private async heartbeat(): Promise<void> {
    if (this.mine.size) {
      await this.deps.pool.query('UPDATE batch_jobs SET heartbeat_at = $2 WHERE job_id = ANY($1::uuid[])', [[...this.mine], this.deps.clock.now()]);
    }
    await this.sweep();
  }

  /** Fails every unfinished job whose heartbeat stopped (its process is gone); returns how many. */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    const result = await this.deps.pool.query(
      `UPDATE batch_jobs SET status = 'failed', error = $1, finished_at = $2
        WHERE status IN ('queued', 'running') AND heartbeat_at < $3 AND NOT (job_id = ANY($4::uuid[]))`,
      [INTERRUPTED, now, new Date(now.getTime() - (this.deps.heartbeatTimeoutMs ?? 60_000)), [...this.mine]],
    );
    return result.rowCount ?? 0;
  }

  /**
   * Stores the upload and queues the job; returns it (queued). Throws BatchUploadRefused with nothing
   * recorded (and no file left) when the upload is refused.
   */
  async create(principal: Principal, upload: Readable, options: { threshold: number }, ctx: CommandContext): Promise<BatchJobView> {
    if (this.stopping) throw new BatchUploadRefused('queue_full', 'The service is stopping; submit the batch again in a moment');
    if (this.mine.size >= this.deps.maxQueued) {
      throw new BatchUploadRefused('queue_full', `${this.mine.size} batch jobs are already queued or running in this instance; retry after the Retry-After delay`);
    }
    const incoming = path.join(this.deps.dataDir, 'batches', `upload-${randomUUID()}`);
    await mkdir(incoming, { recursive: true });
    try {
      const received = await this.receive(upload, path.join(incoming, 'input.csv'));
      // With an Idempotency-Key: the job id and the upload's digest are bound to the key before the job
      // is recorded, so a retry after a crash finds the job, and another upload under the key is refused.
      const [jobId, digest] = ctx.idempotency
        ? await ctx.idempotency.bind(['batch-job', 'batch-upload-sha256'], async () => [randomUUID(), received.sha256])
        : [randomUUID(), received.sha256];
      if (digest !== received.sha256) throw new BatchUploadRefused('key_reused', 'This Idempotency-Key was already used with a different file; use a new key for a new batch');
      const existing = await this.get(principal.accountId, jobId!);
      if (existing) return existing;
      await rename(incoming, this.dir(jobId!));
      const now = this.deps.clock.now();
      const { rows } = await this.deps.pool.query<Row>(
        `INSERT INTO batch_jobs (job_id, account_id, key_id, status, threshold, input_bytes, input_sha256, rows_estimated, created_at, heartbeat_at)
         VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $8) RETURNING *`,
        [jobId, principal.accountId, principal.keyId ?? null, options.threshold, received.bytes, received.sha256, received.rows, now],
      );
      this.mine.add(jobId!);
      this.queue.push({ id: jobId!, threshold: options.threshold });
      this.kick();
      return view(rows[0]!);
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }

  /** Streams the body to `file`: size limit, strict UTF-8, SHA-256, a header with a name column. */
  private async receive(upload: Readable, file: string): Promise<{ bytes: number; sha256: string; rows: number }> {
    const out = createWriteStream(file, { flags: 'wx' });
    const hash = createHash('sha256');
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let bytes = 0;
    let lineBreaks = 0;
    let endsWithBreak = false;
    try {
      // Not destroyed when the loop stops early: the connection must still carry the refusal.
      for await (const chunk of upload.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > this.deps.maxBytes) {
          throw new BatchUploadRefused('too_large', `The file is larger than the limit of ${this.deps.maxBytes} bytes; split it into several batches`);
        }
        try {
          decoder.decode(chunk, { stream: true });
        } catch {
          throw new BatchUploadRefused('not_utf8', `The file is not valid UTF-8 (near byte ${bytes - chunk.length}); save it as UTF-8`);
        }
        hash.update(chunk);
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lineBreaks++;
        endsWithBreak = chunk[chunk.length - 1] === 10;
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
      try {
        decoder.decode();
      } catch {
        throw new BatchUploadRefused('not_utf8', 'The file is not valid UTF-8 (it ends inside a character); save it as UTF-8');
      }
    } finally {
      out.end();
      await finished(out).catch(() => {});
    }
    if (bytes === 0) throw new BatchUploadRefused('empty', 'The file is empty: send a CSV with a header line holding a "name" column and one row per name');
    const header = await firstLine(file);
    let columns: string[] = [];
    try {
      columns = ((parse(header, { bom: true, trim: true }) as string[][])[0] ?? []).map((c) => c.toLowerCase());
    } catch {
      // reported below as a header without a name column
    }
    if (!columns.includes('name')) {
      throw new BatchUploadRefused('no_name_column', `The header line must have a "name" column (found: ${columns.join(', ').slice(0, 200) || 'nothing'})`);
    }
    const lines = lineBreaks + (endsWithBreak ? 0 : 1);
    return { bytes, sha256: hash.digest('hex'), rows: Math.max(0, lines - 1) };
  }

  /** The account's job, or undefined (another account's job looks exactly like a missing one). */
  async get(accountId: string, id: string): Promise<BatchJobView | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return undefined;
    const { rows } = await this.deps.pool.query<Row>('SELECT * FROM batch_jobs WHERE job_id = $1 AND account_id = $2', [id, accountId]);
    const row = rows[0];
    if (!row) return undefined;
    if ((row.status === 'queued' || row.status === 'running') && !this.mine.has(id)) {
      // Not this process's: if its heartbeat stopped, it will never finish.
      if (this.deps.clock.now().getTime() - row.heartbeat_at.getTime() > (this.deps.heartbeatTimeoutMs ?? 60_000)) {
        await this.sweep();
        return this.get(accountId, id);
      }
    }
    return view(row);
  }

  /** The account's jobs, newest first. */
  async list(accountId: string, limit: number): Promise<BatchJobView[]> {
    const { rows } = await this.deps.pool.query<Row>('SELECT * FROM batch_jobs WHERE account_id = $1 ORDER BY created_at DESC LIMIT $2', [accountId, limit]);
    return rows.map(view);
  }

  /** A finished job's output file, for download (undefined: not the account's job or not completed). */
  async file(accountId: string, id: string, name: BatchFile): Promise<{ job: BatchJobView; open?: () => Readable } | undefined> {
    const job = await this.get(accountId, id);
    if (!job) return undefined;
    if (job.status !== 'completed') return { job };
    return { job, open: () => createReadStream(path.join(this.dir(id), name)) };
  }

  private current: AbortController | undefined;

  private kick(): void {
    if (this.running) return;
    this.running = (async () => {
      for (let next = this.queue.shift(); next && !this.stopping; next = this.queue.shift()) {
        await this.run(next.id, next.threshold);
      }
    })().finally(() => {
      this.running = undefined;
      if (this.queue.length && !this.stopping) this.kick();
    });
  }

  private async run(id: string, threshold: number): Promise<void> {
    const log = this.deps.logger.child({ batchJob: id });
    const dir = this.dir(id);
    const started = this.deps.clock.now();
    const t0 = performance.now();
    const abort = new AbortController();
    this.current = abort;
    let screener: ChunkScreener | undefined;
    const outputs: Writable[] = [];
    try {
      await this.deps.pool.query(`UPDATE batch_jobs SET status = 'running', started_at = $2, heartbeat_at = $2 WHERE job_id = $1`, [id, started]);
      const options = { threshold, jsonl: true };
      screener = this.deps.workers > 0 ? await startWorkerPool({ ...this.deps.lists(), workers: this.deps.workers, options }) : inProcessScreener(this.deps.engine(), options);
      const input = createReadStream(path.join(dir, 'input.csv'));
      // The stop may come while the pool was starting: then the read ends at once.
      const onAbort = () => input.destroy(new Error('the service is stopping'));
      if (abort.signal.aborted) onAbort();
      else abort.signal.addEventListener('abort', onAbort);
      const [results, jsonl, errors] = (['results.csv', 'results.jsonl', 'errors.csv'] as const).map((name) => createWriteStream(path.join(dir, name)));
      outputs.push(results!, jsonl!, errors!);
      let lastWrite = 0;
      let writing: Promise<unknown> = Promise.resolve();
      const record = (p: BatchProgress) => {
        const seconds = (performance.now() - t0) / 1000;
        writing = writing.then(() =>
          this.deps.pool
            .query('UPDATE batch_jobs SET rows_read = $2, screened = $3, flagged = $4, rejected = $5, names_per_second = $6 WHERE job_id = $1', [
              id,
              p.read,
              p.screened,
              p.flagged,
              p.rejected,
              seconds > 0 ? p.screened / seconds : null,
            ])
            .catch((err: unknown) => log.warn({ err }, 'batch progress not recorded')),
        );
      };
      const summary = await runBatch({
        input,
        screener,
        results: results!,
        errors: errors!,
        jsonl: jsonl!,
        today: this.deps.clock.now().toISOString().slice(0, 10),
        // Small chunks when screening in this thread, so the event loop (HTTP) is never held long.
        ...(this.deps.workers > 0 ? {} : { chunkSize: 25 }),
        onProgress: (p) => {
          const now = performance.now();
          if (now - lastWrite < 250) return;
          lastWrite = now;
          record(p);
        },
      });
      for (const out of outputs) out.end();
      await Promise.all(outputs.map((out) => finished(out)));
      await writing;
      const seconds = summary.ms / 1000;
      await this.deps.pool.query(
        `UPDATE batch_jobs SET status = 'completed', rows_read = $2, screened = $3, flagged = $4, rejected = $5, names_per_second = $6, finished_at = $7
          WHERE job_id = $1`,
        [id, summary.read, summary.screened, summary.flagged, summary.rejected, seconds > 0 ? summary.screened / seconds : null, this.deps.clock.now()],
      );
      log.info({ screened: summary.screened, flagged: summary.flagged, rejected: summary.rejected, ms: Math.round(summary.ms) }, 'batch job completed');
    } catch (error) {
      for (const out of outputs) out.destroy();
      const message = abort.signal.aborted ? INTERRUPTED : `the batch could not be screened: ${error instanceof Error ? error.message : String(error)}`;
      log.error({ err: error }, 'batch job failed');
      await this.deps.pool
        .query(`UPDATE batch_jobs SET status = 'failed', error = $2, finished_at = $3 WHERE job_id = $1`, [id, message, this.deps.clock.now()])
        .catch((err: unknown) => log.error({ err }, 'batch job failure not recorded'));
    } finally {
      this.mine.delete(id);
      this.current = undefined;
      await screener?.close();
    }
  }
}

/** The file's first line (the header), read without reading the rest. */
async function firstLine(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.search(/\r?\n/);
    return end === -1 ? text : text.slice(0, end);
  } finally {
    await handle.close();
  }
}
