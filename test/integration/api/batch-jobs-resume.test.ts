/**
 * S3 batch jobs across instances, on a real PostgreSQL and one shared DATA_DIR: two BatchJobService
 * instances (as two service processes would run them) and a job whose owner died mid-run, left with files
 * written past its last checkpoint. Exactly one instance claims it; the job continues from the checkpoint
 * and its files end byte-identical to an uninterrupted run (nothing doubled, nothing lost). A job whose
 * instance stops is released and finished by the other; a cancel on one instance stops the run on the
 * other, whose files then hold exactly the rows up to the checkpoint; an instance that lost its lease
 * stops without touching the job; a service process killed mid-job (SIGKILL) is taken over once its
 * heartbeat expires.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { BatchJobService, type BatchJobView } from '../../../src/app/batch-jobs/batch-job-service';
import { inProcessScreener, runBatch } from '../../../src/app/batch-screening/batch';
import type { CommandContext, Principal } from '../../../src/app/services';
import { DEFAULT_THRESHOLD, ScreeningEngine } from '../../../src/screening/engine';
import { systemClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import * as F from '../../unit/screening/matching/fixtures';

const engine = ScreeningEngine.build(F.ALL, []);
const logger = createLogger({ level: 'silent' });
const principal: Principal = { accountId: 'acct-resume', plan: 'enterprise', roles: [], surface: 's3' };
const ctx = { actor: { accountId: principal.accountId }, correlationId: randomUUID(), commandId: randomUUID() } as unknown as CommandContext;
let db: TestDatabase;
let dataDir: string;
const services: BatchJobService[] = [];

function instance(name: string, overrides: { heartbeatTimeoutMs?: number } = {}): BatchJobService {
  const s = new BatchJobService({
    pool: db.pool,
    clock: systemClock,
    logger,
    dataDir,
    maxBytes: 50 * 1024 * 1024,
    maxQueued: 4,
    workers: 0,
    engine: () => engine,
    lists: () => ({ entities: F.ALL, versions: [] }),
    heartbeatTimeoutMs: 60_000,
    heartbeatEveryMs: 3_600_000,
    checkpointEveryMs: 0,
    instanceId: name,
    ...overrides,
  });
  services.push(s);
  return s;
}

// A customer book: innocents, listed names (flagged: JSON lines), bad rows (errors file).
const ROWS = 12_000;
const lines = ['name,entity_type,dob,country'];
for (let i = 0; i < ROWS; i++) {
  // A row without a name is refused (a bad optional field alone would be screened with a warning).
  if (i % 97 === 5) lines.push(`,person,31/02/1960,GB`);
  else if (i % 61 === 3) lines.push(i % 2 ? 'Vladimir Putin,person,1952,RU' : 'Saddam Hussein,,,');
  else lines.push(`Customer ${i} Quillfeather,person,,GB`);
}
const CSV = `${lines.join('\n')}\n`;
const today = new Date().toISOString().slice(0, 10);
let expected: { 'results.csv': string; 'results.jsonl': string; 'errors.csv': string };

async function collect(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/** A file's lines (after its header, for the CSVs) whose row starts at or before `line`. */
function upTo(text: string, line: number, header: boolean): string {
  const all = text.split('\n').filter(Boolean);
  const head = header ? [all.shift()!] : [];
  const rowLine = (l: string) => (header ? Number(l.split(',', 1)[0]) : (JSON.parse(l) as { line: number }).line);
  return [...head, ...all.filter((l) => rowLine(l) <= line)].map((l) => `${l}\n`).join('');
}

async function row(id: string) {
  return (await db.pool.query('SELECT * FROM batch_jobs WHERE job_id = $1', [id])).rows[0];
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const diskSize = async (id: string) => (await stat(path.join(dataDir, 'batches', id, 'results.csv'))).size;

async function files(s: BatchJobService, id: string) {
  const out: Record<string, string> = {};
  for (const name of ['results.csv', 'results.jsonl', 'errors.csv'] as const) out[name] = await collect((await s.file(principal.accountId, id, name))!.open!());
  return out as typeof expected;
}

const finished = (s: BatchJobService, id: string) =>
  until(`job ${id} to finish`, async () => {
    const job = await s.get(principal.accountId, id);
    return job && ['completed', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
  });

before(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'batch-resume-'));
  // The uninterrupted run, the reference every resumed job must match byte for byte.
  const [results, jsonl, errors] = [new PassThrough(), new PassThrough(), new PassThrough()];
  const texts = [collect(results), collect(jsonl), collect(errors)];
  await runBatch({ input: Readable.from([CSV]), screener: inProcessScreener(engine, { threshold: DEFAULT_THRESHOLD, jsonl: true }), results, jsonl, errors, today, chunkSize: 25 });
  for (const s of [results, jsonl, errors]) s.end();
  const [r, j, e] = await Promise.all(texts);
  expected = { 'results.csv': r!, 'results.jsonl': j!, 'errors.csv': e! };
  assert.ok(j!.split('\n').filter(Boolean).length > 50 && e!.split('\n').length > 50, 'the book has flagged and rejected rows');
});
after(async () => {
  for (const s of services) await s.stop();
  await db?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('S3 batch jobs: resume, lease, cancel across instances', () => {
  it("a dead instance's job is claimed by exactly one of two instances and resumed from its checkpoint: files identical to an uninterrupted run", async () => {
    const id = randomUUID();
    const dir = path.join(dataDir, 'batches', id);
    await mkdir(dir, { recursive: true });
    // The dead run had checkpointed at line 4321 and written more after it (the garbage must go).
    const line = 4321;
    const prefix = {
      'results.csv': upTo(expected['results.csv'], line, true),
      'results.jsonl': upTo(expected['results.jsonl'], line, false),
      'errors.csv': upTo(expected['errors.csv'], line, true),
    };
    await writeFile(path.join(dir, 'input.csv'), CSV);
    for (const [name, text] of Object.entries(prefix)) await writeFile(path.join(dir, name), `${text}written after the checkpoint, before the crash\n`);
    const rejected = prefix['errors.csv'].split('\n').filter(Boolean).length - 1;
    const flagged = prefix['results.jsonl'].split('\n').filter(Boolean).length;
    const old = new Date(Date.now() - 5 * 60_000);
    await db.pool.query(
      `INSERT INTO batch_jobs (job_id, account_id, status, input_format, threshold, input_bytes, input_sha256, rows_estimated, created_at, started_at, heartbeat_at, owner,
                               checkpoint_line, checkpoint_rows_read, checkpoint_screened, checkpoint_flagged, checkpoint_rejected, results_bytes, jsonl_bytes, errors_bytes,
                               rows_read, screened)
       VALUES ($1, $2, 'running', 'csv', $3, $4, 'x', $5, $6, $6, $6, 'dead-instance', $7, $8, $9, $10, $11, $12, $13, $14, 6000, 5900)`,
      [id, principal.accountId, DEFAULT_THRESHOLD, CSV.length, ROWS, old, line, line - 1, line - 1 - rejected, flagged, rejected,
        ...(['results.csv', 'results.jsonl', 'errors.csv'] as const).map((n) => Buffer.byteLength(prefix[n]))],
    );
    const a = instance('instance-a');
    const b = instance('instance-b');
    const claims = await Promise.all([a.sweep(), b.sweep(), a.sweep(), b.sweep()]);
    assert.equal(claims.reduce((x, y) => x + y, 0), 1, `exactly one claim: ${claims}`);
    const owner = (await row(id)).owner as string;
    assert.ok(owner === 'instance-a' || owner === 'instance-b', owner);
    const winner = owner === 'instance-a' ? a : b;

    const job = await finished(winner, id);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.resumes, 1);
    const totalRejected = expected['errors.csv'].split('\n').filter(Boolean).length - 1;
    assert.deepEqual(job.progress.rows_read, ROWS);
    assert.equal(job.progress.rejected, totalRejected);
    assert.equal(job.progress.screened, ROWS - totalRejected);
    assert.equal(job.progress.flagged, expected['results.jsonl'].split('\n').filter(Boolean).length);
    const got = await files(a, id);
    assert.equal(got['results.csv'], expected['results.csv']);
    assert.equal(got['results.jsonl'], expected['results.jsonl']);
    assert.equal(got['errors.csv'], expected['errors.csv']);
    // and the disk agrees with the download (cut back, not just hidden)
    assert.equal(await readFile(path.join(dir, 'results.csv'), 'utf8'), expected['results.csv']);
  });

  it('a job whose instance stops is released and finished by the other instance, its files identical to an uninterrupted run', async () => {
    const a = instance('instance-c');
    const b = instance('instance-d');
    const created = await a.create(principal, Readable.from([Buffer.from(CSV)]), { threshold: DEFAULT_THRESHOLD, format: 'csv' }, ctx);
    const at = await until('a checkpoint', async () => ((await row(created.id)).checkpoint_line > 1 ? (await row(created.id)).checkpoint_line : undefined));
    await a.stop();
    const released = await row(created.id);
    assert.equal(released.status, 'queued', 'released, not failed');
    assert.equal(released.owner, null);
    assert.ok(released.checkpoint_line >= at);
    assert.ok(released.checkpoint_line < ROWS + 1, 'stopped mid-file');
    assert.equal(await b.sweep(), 1);
    const job = await finished(b, created.id);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.resumes, 1);
    assert.deepEqual(await files(b, created.id), expected);
  });

  it('a cancel on one instance stops the run on the other; the files hold exactly the rows up to the last checkpoint', async () => {
    const a = instance('instance-e');
    const b = instance('instance-f');
    const created = await a.create(principal, Readable.from([Buffer.from(CSV)]), { threshold: DEFAULT_THRESHOLD, format: 'csv' }, ctx);
    await until('a checkpoint', async () => (await row(created.id)).checkpoint_line > 1);
    const cancelled = await b.cancel(principal.accountId, created.id);
    assert.ok(cancelled && 'job' in cancelled, JSON.stringify(cancelled));
    assert.equal(cancelled.job.status, 'cancelled');
    assert.equal(await b.cancel('another-account', created.id), undefined, "another account's cancel finds nothing");
    // The owner stops at its next checkpoint: neither the row nor the files on disk move any more.
    await new Promise((r) => setTimeout(r, 300));
    const stopped = await row(created.id);
    const onDisk = await diskSize(created.id);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await row(created.id), stopped, 'nothing more is written to the job');
    assert.equal(await diskSize(created.id), onDisk, 'the run stopped writing');
    assert.equal(stopped.status, 'cancelled');
    const line = stopped.checkpoint_line as number;
    assert.ok(line > 1 && line < ROWS + 1, `cancelled mid-file (${line})`);
    const got = await files(b, created.id);
    assert.equal(got['results.csv'], upTo(expected['results.csv'], line, true));
    assert.equal(got['results.jsonl'], upTo(expected['results.jsonl'], line, false));
    assert.equal(got['errors.csv'], upTo(expected['errors.csv'], line, true));
    const job = (await b.get(principal.accountId, created.id)) as BatchJobView;
    assert.equal(job.progress.screened, got['results.csv'].split('\n').filter(Boolean).length - 1, 'the counters are the rows in the files');
    assert.equal(job.progress.rejected, stopped.checkpoint_rejected);
    const again = await a.cancel(principal.accountId, created.id);
    assert.ok(again && 'job' in again && again.job.status === 'cancelled', 'cancelling again answers the cancelled job');
  });

  it('an instance that lost its lease stops without finishing or failing the job', async () => {
    const a = instance('instance-g');
    const created = await a.create(principal, Readable.from([Buffer.from(CSV)]), { threshold: DEFAULT_THRESHOLD, format: 'csv' }, ctx);
    await until('a checkpoint', async () => (await row(created.id)).checkpoint_line > 1);
    await db.pool.query(`UPDATE batch_jobs SET owner = 'instance-elsewhere' WHERE job_id = $1`, [created.id]);
    await new Promise((r) => setTimeout(r, 500));
    const taken = await row(created.id);
    const onDisk = await diskSize(created.id);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await row(created.id), taken, 'the old owner writes nothing more');
    assert.equal(await diskSize(created.id), onDisk, 'the old owner stopped writing its files');
    assert.equal(taken.status, 'running');
    assert.equal(taken.owner, 'instance-elsewhere');
    // (the owner named here never runs: cancel the job so later sweeps do not take it up)
    await db.pool.query(`UPDATE batch_jobs SET status = 'cancelled' WHERE job_id = $1`, [created.id]);
  });

  it('a job whose process is killed (SIGKILL) mid-run is claimed once its heartbeat expires and finished, files identical to an uninterrupted run', async () => {
    const input = path.join(dataDir, 'kill-input.csv');
    await writeFile(input, CSV);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/batch-job-process.ts'], {
      env: { ...process.env, BATCH_DATABASE_URL: db.url, BATCH_DATA_DIR: dataDir, BATCH_INPUT: input, BATCH_ACCOUNT: principal.accountId },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const id = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /JOB (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the job process exited (${code}) before accepting the job`)));
      });
      await until('a checkpoint of the killed process', async () => (await row(id)).checkpoint_line > 1);
      child.kill('SIGKILL');
      await exited;
      const dead = await row(id);
      assert.equal(dead.status, 'running', 'the killed process left it running');
      assert.ok(dead.checkpoint_line < ROWS + 1, 'killed mid-file');
      const survivor = instance('survivor', { heartbeatTimeoutMs: 2000 });
      assert.equal(await survivor.sweep(), 0, 'not claimed while its heartbeat is fresh');
      await new Promise((r) => setTimeout(r, 2100));
      assert.equal(await survivor.sweep(), 1);
      const job = await finished(survivor, id);
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.resumes, 1);
      assert.deepEqual(await files(survivor, id), expected);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
