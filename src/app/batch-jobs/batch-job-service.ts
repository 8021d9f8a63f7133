/**
 * Asynchronous batch screening jobs (S3 `POST /api/v1/batches`): the same engine, row rules, output files
 * and worker pool as `svc screen --file` (src/app/batch-screening).
 *
 * - `create` streams the upload (CSV, or JSON lines) to disk (never held whole in memory), refusing it on
 *   the way when it passes the size limit or is not UTF-8, checks its header (CSV) or first line (JSON
 *   lines), writes the output files' headers, records the job (table batch_jobs, migrations 131, 220) and
 *   queues it. The answer comes once the upload is stored; screening runs after.
 * - Jobs run one at a time per process (the pool takes every worker thread it is given), in arrival order.
 *   Progress is written to the row as chunks come back.
 * - Resumable: at most every `checkpointEveryMs` (after a chunk), the output files are synced and their
 *   sizes recorded with the last input line they cover and the counters (checkpoint_*). A job whose
 *   instance stopped (it releases its jobs) or died (its heartbeat stops) is claimed by an instance that
 *   holds its files (DATA_DIR shared, or the same instance restarted), which cuts the files back to the
 *   checkpoint and continues after its line: no row is lost or written twice.
 * - One instance per job: the lease is `owner` + `heartbeat_at`; a claim is one conditional UPDATE (the
 *   heartbeat must still be expired), so of several instances sweeping at once exactly one wins. The
 *   owner refreshes the heartbeat every `heartbeatEveryMs`; every write of a run names the owner, so an
 *   instance that lost its lease (paused too long) stops at its next checkpoint.
 * - Cancel: the row turns `cancelled` at once with the checkpoint's counters; the owner stops at its next
 *   checkpoint or heartbeat (at once when it is this instance). Downloads are cut at the recorded sizes,
 *   so a cancelled job's files hold exactly the rows up to its last checkpoint.
 * - Tenant isolation: every read and the cancel name the account.
 * - Idempotency-Key: the job id and the upload's SHA-256 are bound to the key (idempotency/binding.ts):
 *   a retry after a crash answers the job already created; the same key with another upload is refused.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type pg from 'pg';
import type { ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListVersion } from '../../screening/model';
import type { CachedSnapshot } from '../../screening/index-snapshot';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { ERROR_COLUMNS, inProcessScreener, runBatch, startWorkerPool, type BatchCheckpoint, type BatchInputFormat, type ChunkScreener } from '../batch-screening/batch';
import { csvLine, RESULT_COLUMNS } from '../batch-screening/rows';
import type { CommandContext, Principal } from '../services';
import { CheckpointedFile } from './checkpointed-file';
import { BATCH_FILES, BATCH_FILES_READY, view, type BatchFile, type BatchJobView, type Row } from './job-view';
import { BatchUploadRefused, receiveUpload } from './upload';
import type { VerdictContext } from '../../agents/lists/direct-verdict';

export { BatchUploadRefused } from './upload';
export { BATCH_FILES, BATCH_FILES_READY, type BatchFile, type BatchJobStatus, type BatchJobView } from './job-view';

export interface BatchJobServiceDeps {
  pool: pg.Pool;
  clock: Clock;
  logger: Logger;
  /** Where job files live: <dataDir>/batches/<job id>/. */
  dataDir: string;
  /** Largest upload accepted, in bytes. */
  maxBytes: number;
  /** Jobs queued or running in this process past which a new one is refused (503), and none is claimed. */
  maxQueued: number;
  /** Worker threads per job (0 = screen in this thread, small chunks; tests and tiny deployments). */
  workers: number;
  /** The engine in service and the lists it was built from (the pool builds its engines from them). */
  engine: () => ScreeningEngine;
  /** The FATF table and sanctions programmes in service: a row's country gives its country risk (issue 27). */
  verdictContext?: () => VerdictContext;
  lists: () => { entities: ListEntity[]; versions: ListVersion[]; snapshot?: CachedSnapshot };
  /** A job whose heartbeat is older than this is free to be claimed (default 60 s). */
  heartbeatTimeoutMs?: number;
  /** How often this process refreshes its jobs' heartbeats and sweeps for jobs to claim (default 10 s). */
  heartbeatEveryMs?: number;
  /** Least time between two checkpoints of a running job (default 1 s). */
  checkpointEveryMs?: number;
  /**
   * A job whose files are not on this instance's disk and whose heartbeat stopped this long ago is failed
   * as interrupted (default 1 h): no instance holding them came back.
   */
  abandonAfterMs?: number;
  /** This instance's lease name (default: a new uuid). */
  instanceId?: string;
}

const INTERRUPTED = 'interrupted: the service stopped while the job was queued or running and it could not be resumed; submit the file again';

/** The job's row changed under this run (cancelled, or claimed by another instance after a long pause). */
class LeaseLost extends Error {}

const inputName = (format: BatchInputFormat) => (format === 'jsonl' ? 'input.jsonl' : 'input.csv');
const HEADERS: Record<BatchFile, string> = { 'results.csv': csvLine(RESULT_COLUMNS), 'results.jsonl': '', 'errors.csv': csvLine(ERROR_COLUMNS) };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class BatchJobService {
  private readonly queue: string[] = [];
  /** Jobs this process holds the lease of (queued or running here). */
  private readonly mine = new Set<string>();
  private readonly instance: string;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private current: { id: string; abort: AbortController } | undefined;

  constructor(private readonly deps: BatchJobServiceDeps) {
    this.instance = deps.instanceId ?? randomUUID();
  }

  private dir(id: string): string {
    return path.join(this.deps.dataDir, 'batches', id);
  }

  private get timeoutMs(): number {
    return this.deps.heartbeatTimeoutMs ?? 60_000;
  }

  /** Starts the heartbeat and takes up the jobs a stopped or dead process left unfinished. */
  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => {
      this.heartbeat().catch((err: unknown) => this.deps.logger.warn({ err }, 'batch job heartbeat failed'));
    }, this.deps.heartbeatEveryMs ?? 10_000);
    this.timer.unref();
  }

  /**
   * Stops taking jobs; the running one stops at once (its files stay at their last checkpoint) and this
   * process's unfinished jobs are released (queued, no owner) for the next instance, or this one
   * restarted, to resume.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.queue.length = 0;
    this.current?.abort.abort('stopping');
    await this.running?.catch(() => {});
    if (this.mine.size) {
      await this.deps.pool
        .query(
          `UPDATE batch_jobs SET status = 'queued', owner = NULL, heartbeat_at = 'epoch'
            WHERE job_id = ANY($1::uuid[]) AND owner = $2 AND status IN ('queued', 'running')`,
          [[...this.mine], this.instance],
        )
        .catch((err: unknown) => this.deps.logger.warn({ err }, 'batch jobs not released'));
      this.mine.clear();
    }
  }

  private async heartbeat(): Promise<void> {
    if (this.mine.size) {
      const held = [...this.mine];
      const { rows } = await this.deps.pool.query<{ job_id: string }>(
        `UPDATE batch_jobs SET heartbeat_at = $2 WHERE job_id = ANY($1::uuid[]) AND owner = $3 AND status IN ('queued', 'running') RETURNING job_id`,
        [held, this.deps.clock.now(), this.instance],
      );
      const still = new Set(rows.map((r) => r.job_id));
      for (const id of held) if (!still.has(id)) this.drop(id);
    }
    await this.sweep();
  }

  /** This process no longer holds the job (cancelled, or claimed elsewhere): forget it, stop it if running. */
  private drop(id: string): void {
    this.mine.delete(id);
    const at = this.queue.indexOf(id);
    if (at !== -1) this.queue.splice(at, 1);
    if (this.current?.id === id) this.current.abort.abort('lost');
  }

  /**
   * Claims the unfinished jobs whose lease expired and whose files are on this instance (in arrival
   * order, up to maxQueued held), and fails those that can never resume (no checkpoint files: made
   * before migration 220) or whose files no instance took up for abandonAfterMs. Returns how many it claimed.
   */
  async sweep(): Promise<number> {
    if (this.stopping) return 0;
    const now = this.deps.clock.now();
    const expiry = new Date(now.getTime() - this.timeoutMs);
    const { rows } = await this.deps.pool.query<Row>(
      `SELECT * FROM batch_jobs WHERE status IN ('queued', 'running') AND heartbeat_at < $1 AND NOT (job_id = ANY($2::uuid[])) ORDER BY created_at LIMIT 100`,
      [expiry, [...this.mine]],
    );
    let claimed = 0;
    for (const row of rows) {
      const here = row.results_bytes !== null && (await this.hasFiles(row.job_id, row.input_format));
      if (here) {
        if (this.mine.size >= this.deps.maxQueued) continue;
        // The heartbeat is checked again under the row lock: of several instances, one claims it.
        const claim = await this.deps.pool.query(
          `UPDATE batch_jobs SET owner = $2, heartbeat_at = $3, status = 'queued', resumes = resumes + CASE WHEN started_at IS NULL THEN 0 ELSE 1 END
            WHERE job_id = $1 AND status IN ('queued', 'running') AND heartbeat_at < $4`,
          [row.job_id, this.instance, now, expiry],
        );
        if (claim.rowCount === 1) {
          claimed++;
          this.mine.add(row.job_id);
          this.queue.push(row.job_id);
          this.deps.logger.info({ batchJob: row.job_id, fromLine: row.checkpoint_line }, 'batch job claimed to resume');
        }
      } else if (row.results_bytes === null || row.heartbeat_at.getTime() < now.getTime() - (this.deps.abandonAfterMs ?? 3_600_000)) {
        await this.deps.pool.query(
          `UPDATE batch_jobs SET status = 'failed', error = $2, finished_at = $3, owner = NULL WHERE job_id = $1 AND status IN ('queued', 'running') AND heartbeat_at < $4`,
          [row.job_id, INTERRUPTED, now, expiry],
        );
      }
    }
    if (claimed) this.kick();
    return claimed;
  }

  private async hasFiles(id: string, format: BatchInputFormat): Promise<boolean> {
    try {
      await Promise.all([inputName(format), ...BATCH_FILES].map((f) => access(path.join(this.dir(id), f))));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stores the upload and queues the job; returns it (queued). Throws BatchUploadRefused with nothing
   * recorded (and no file left) when the upload is refused.
   */
  async create(principal: Principal, upload: Readable, options: { threshold: number; format: BatchInputFormat }, ctx: CommandContext): Promise<BatchJobView> {
    if (this.stopping) throw new BatchUploadRefused('queue_full', 'The service is stopping; submit the batch again in a moment');
    if (this.mine.size >= this.deps.maxQueued) {
      throw new BatchUploadRefused('queue_full', `${this.mine.size} batch jobs are already queued or running in this instance; retry after the Retry-After delay`);
    }
    const incoming = path.join(this.deps.dataDir, 'batches', `upload-${randomUUID()}`);
    await mkdir(incoming, { recursive: true });
    try {
      const received = await receiveUpload(upload, path.join(incoming, inputName(options.format)), options.format, this.deps.maxBytes);
      // With an Idempotency-Key: the job id and the upload's digest are bound to the key before the job
      // is recorded, so a retry after a crash finds the job, and another upload under the key is refused.
      const [jobId, digest] = ctx.idempotency
        ? await ctx.idempotency.bind(['batch-job', 'batch-upload-sha256'], async () => [randomUUID(), received.sha256])
        : [randomUUID(), received.sha256];
      if (digest !== received.sha256) throw new BatchUploadRefused('key_reused', 'This Idempotency-Key was already used with a different file; use a new key for a new batch');
      const existing = await this.get(principal.accountId, jobId!);
      if (existing) return existing;
      // The output files start with their headers: checkpoint zero, from which every run continues.
      for (const name of BATCH_FILES) await writeFile(path.join(incoming, name), HEADERS[name]);
      await rename(incoming, this.dir(jobId!));
      const now = this.deps.clock.now();
      const { rows } = await this.deps.pool.query<Row>(
        `INSERT INTO batch_jobs (job_id, account_id, key_id, status, input_format, threshold, input_bytes, input_sha256, rows_estimated, created_at, heartbeat_at,
                                 owner, results_bytes, jsonl_bytes, errors_bytes)
         VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9, $9, $10, $11, $12, $13) RETURNING *`,
        [
          jobId,
          principal.accountId,
          principal.keyId ?? null,
          options.format,
          options.threshold,
          received.bytes,
          received.sha256,
          received.rows,
          now,
          this.instance,
          ...BATCH_FILES.map((name) => Buffer.byteLength(HEADERS[name])),
        ],
      );
      this.mine.add(jobId!);
      this.queue.push(jobId!);
      this.kick();
      return view(rows[0]!);
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }

  /** The account's job, or undefined (another account's job looks exactly like a missing one). */
  async get(accountId: string, id: string): Promise<BatchJobView | undefined> {
    const row = await this.row(accountId, id);
    return row && view(row);
  }

  private async row(accountId: string, id: string): Promise<Row | undefined> {
    if (!UUID.test(id)) return undefined;
    const { rows } = await this.deps.pool.query<Row>('SELECT * FROM batch_jobs WHERE job_id = $1 AND account_id = $2', [id, accountId]);
    const row = rows[0];
    if (!row) return undefined;
    if ((row.status === 'queued' || row.status === 'running') && !this.mine.has(id) && this.deps.clock.now().getTime() - row.heartbeat_at.getTime() > this.timeoutMs) {
      // Not held by a live instance: claim it here if its files are here, or fail it if it can never resume.
      if ((await this.sweep()) || row.results_bytes === null) return this.row(accountId, id);
    }
    return row;
  }

  /** The account's jobs, newest first. */
  async list(accountId: string, limit: number): Promise<BatchJobView[]> {
    const { rows } = await this.deps.pool.query<Row>('SELECT * FROM batch_jobs WHERE account_id = $1 ORDER BY created_at DESC LIMIT $2', [accountId, limit]);
    return rows.map(view);
  }

  /**
   * Cancels the account's queued or running job: it reads `cancelled` at once, with the counters of its
   * last checkpoint, up to which its files are kept for download. Undefined: not the account's job;
   * `finished`: it was already completed or failed (a cancelled job answers itself again).
   */
  async cancel(accountId: string, id: string): Promise<{ job: BatchJobView } | { finished: BatchJobView } | undefined> {
    if (!UUID.test(id)) return undefined;
    const { rows } = await this.deps.pool.query<Row>(
      `UPDATE batch_jobs SET status = 'cancelled', finished_at = $3, owner = NULL,
              rows_read = checkpoint_rows_read, screened = checkpoint_screened, flagged = checkpoint_flagged, rejected = checkpoint_rejected
        WHERE job_id = $1 AND account_id = $2 AND status IN ('queued', 'running') RETURNING *`,
      [id, accountId, this.deps.clock.now()],
    );
    if (rows[0]) {
      if (this.mine.has(id)) this.drop(id);
      this.deps.logger.info({ batchJob: id, line: rows[0].checkpoint_line }, 'batch job cancelled');
      return { job: view(rows[0]) };
    }
    const job = await this.get(accountId, id);
    if (!job) return undefined;
    return job.status === 'cancelled' ? { job } : { finished: job };
  }

  /** A completed or cancelled job's output file, for download (undefined: not the account's job). */
  async file(accountId: string, id: string, name: BatchFile): Promise<{ job: BatchJobView; open?: () => Readable } | undefined> {
    const row = await this.row(accountId, id);
    if (!row) return undefined;
    const job = view(row);
    if (!BATCH_FILES_READY.includes(job.status)) return { job };
    const recorded = { 'results.csv': row.results_bytes, 'results.jsonl': row.jsonl_bytes, 'errors.csv': row.errors_bytes }[name];
    const file = path.join(this.dir(id), name);
    // Cut at the recorded size: what a stopped run wrote past its last checkpoint is not part of the job.
    if (recorded === null) return { job, open: () => createReadStream(file) };
    const size = Number(recorded);
    return { job, open: () => (size === 0 ? Readable.from([]) : createReadStream(file, { start: 0, end: size - 1 })) };
  }

  private kick(): void {
    if (this.running || this.stopping) return;
    this.running = (async () => {
      for (let next = this.queue.shift(); next && !this.stopping; next = this.queue.shift()) {
        await this.run(next);
      }
    })().finally(() => {
      this.running = undefined;
      if (this.queue.length && !this.stopping) this.kick();
    });
  }

  private async run(id: string): Promise<void> {
    const log = this.deps.logger.child({ batchJob: id });
    const dir = this.dir(id);
    const abort = new AbortController();
    this.current = { id, abort };
    let screener: ChunkScreener | undefined;
    const outputs: CheckpointedFile[] = [];
    try {
      const now = this.deps.clock.now();
      const { rows } = await this.deps.pool.query<Row>(
        `UPDATE batch_jobs SET status = 'running', started_at = COALESCE(started_at, $3), heartbeat_at = $3,
                rows_read = checkpoint_rows_read, screened = checkpoint_screened, flagged = checkpoint_flagged, rejected = checkpoint_rejected
          WHERE job_id = $1 AND owner = $2 AND status = 'queued' RETURNING *`,
        [id, this.instance, now],
      );
      const job = rows[0];
      if (!job) return void this.mine.delete(id); // cancelled, or claimed elsewhere, before it started
      const resume: BatchCheckpoint = {
        line: job.checkpoint_line,
        progress: { read: job.checkpoint_rows_read, screened: job.checkpoint_screened, flagged: job.checkpoint_flagged, rejected: job.checkpoint_rejected },
      };
      if (job.checkpoint_line > 0) log.info({ fromLine: job.checkpoint_line }, 'batch job resumed from its checkpoint');
      const [results, jsonl, errors] = await Promise.all([
        CheckpointedFile.openAt(path.join(dir, 'results.csv'), Number(job.results_bytes)),
        CheckpointedFile.openAt(path.join(dir, 'results.jsonl'), Number(job.jsonl_bytes)),
        CheckpointedFile.openAt(path.join(dir, 'errors.csv'), Number(job.errors_bytes)),
      ]);
      outputs.push(results, jsonl, errors);
      const context = this.deps.verdictContext?.();
      const options = { threshold: job.threshold, jsonl: true, ...(context ? { countryRisk: [...context.countryRisk] } : {}) };
      screener = this.deps.workers > 0 ? await startWorkerPool({ ...this.deps.lists(), workers: this.deps.workers, options }) : inProcessScreener(this.deps.engine(), options, context);
      const input = createReadStream(path.join(dir, inputName(job.input_format)));
      // The stop may come while the pool was starting: then the read ends at once.
      const onAbort = () => input.destroy(new LeaseLost(String(abort.signal.reason)));
      if (abort.signal.aborted) onAbort();
      else abort.signal.addEventListener('abort', onAbort);

      const t0 = performance.now();
      const rate = (screened: number) => {
        const seconds = (performance.now() - t0) / 1000;
        return seconds > 0 ? (screened - resume.progress.screened) / seconds : null;
      };
      const every = this.deps.checkpointEveryMs ?? 1000;
      let lastProgress = 0;
      let lastCheckpoint = performance.now();
      let writing: Promise<unknown> = Promise.resolve();
      const sizes = async () => Promise.all(outputs.map((o) => o.settle()));
      const summary = await runBatch({
        input,
        format: job.input_format,
        screener,
        results,
        errors,
        jsonl,
        resume,
        today: this.deps.clock.now().toISOString().slice(0, 10),
        // Small chunks when screening in this thread, so the event loop (HTTP) is never held long.
        ...(this.deps.workers > 0 ? {} : { chunkSize: 25 }),
        onProgress: (p) => {
          const t = performance.now();
          if (t - lastProgress < 250) return;
          lastProgress = t;
          writing = writing.then(() =>
            this.deps.pool
              .query('UPDATE batch_jobs SET rows_read = $2, screened = $3, flagged = $4, rejected = $5, names_per_second = $6 WHERE job_id = $1 AND owner = $7', [
                id,
                p.read,
                p.screened,
                p.flagged,
                p.rejected,
                rate(p.screened),
                this.instance,
              ])
              .catch((err: unknown) => log.warn({ err }, 'batch progress not recorded')),
          );
        },
        onCheckpoint: async (c) => {
          if (abort.signal.aborted) throw new LeaseLost(String(abort.signal.reason));
          if (performance.now() - lastCheckpoint < every) return;
          lastCheckpoint = performance.now();
          const [r, j, e] = await sizes();
          const saved = await this.deps.pool.query(
            `UPDATE batch_jobs SET checkpoint_line = $2, checkpoint_rows_read = $3, checkpoint_screened = $4, checkpoint_flagged = $5, checkpoint_rejected = $6,
                    results_bytes = $7, jsonl_bytes = $8, errors_bytes = $9, heartbeat_at = $10
              WHERE job_id = $1 AND owner = $11 AND status = 'running'`,
            [id, c.line, c.progress.read, c.progress.screened, c.progress.flagged, c.progress.rejected, r, j, e, this.deps.clock.now(), this.instance],
          );
          if (saved.rowCount !== 1) throw new LeaseLost('lost');
        },
      });
      const [r, j, e] = await sizes();
      await writing;
      const done = await this.deps.pool.query(
        `UPDATE batch_jobs SET status = 'completed', rows_read = $2, screened = $3, flagged = $4, rejected = $5, names_per_second = $6, finished_at = $7,
                results_bytes = $8, jsonl_bytes = $9, errors_bytes = $10, owner = NULL
          WHERE job_id = $1 AND owner = $11 AND status = 'running'`,
        [id, summary.read, summary.screened, summary.flagged, summary.rejected, rate(summary.screened), this.deps.clock.now(), r, j, e, this.instance],
      );
      if (done.rowCount === 1) log.info({ screened: summary.screened, flagged: summary.flagged, rejected: summary.rejected, ms: Math.round(summary.ms) }, 'batch job completed');
    } catch (error) {
      if (error instanceof LeaseLost || abort.signal.aborted) {
        // Stopping (stop() releases the job), cancelled, or claimed elsewhere: the files stay at the last
        // checkpoint for whoever continues or downloads them.
        log.info({ reason: String(abort.signal.reason ?? (error as Error).message) }, 'batch job run stopped');
      } else {
        log.error({ err: error }, 'batch job failed');
        const message = `the batch could not be screened: ${error instanceof Error ? error.message : String(error)}`;
        await this.deps.pool
          .query(`UPDATE batch_jobs SET status = 'failed', error = $2, finished_at = $3, owner = NULL WHERE job_id = $1 AND owner = $4 AND status = 'running'`, [
            id,
            message,
            this.deps.clock.now(),
            this.instance,
          ])
          .catch((err: unknown) => log.error({ err }, 'batch job failure not recorded'));
      }
    } finally {
      for (const out of outputs) out.destroy();
      // A stopping instance keeps the job in `mine` until stop() has released it.
      if (!(this.stopping && abort.signal.reason === 'stopping')) this.mine.delete(id);
      this.current = undefined;
      await screener?.close();
    }
  }
}
