/**
 * A batch job survives a restart: the service is stopped while a job it accepted is running (after its
 * first checkpoint), started again on the same database and data directory, and the job resumes from its
 * checkpoint and completes; its results.csv has exactly one line per readable input row, in input order,
 * its errors.csv one line per bad row and its JSON lines one per flagged row, none twice.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningService } from '../../../src/bootstrap/service';
import { accountHelpers, startServiceOn } from '../../support/service';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { rawRequest } from '../../support/raw-http';
import { parse } from 'csv-parse/sync';

let db: TestDatabase;
let dataDir: string;
let service: RunningService | undefined;

const start = (): Promise<RunningService> => startServiceOn(db, dataDir, { BATCH_WORKERS: '1' }, { agents: 'none' });

before(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'batch-restart-'));
});
after(async () => {
  await service?.stop();
  await db?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('batch jobs across a restart', () => {
  it('a job the stopped service was running resumes from its checkpoint after the restart and completes, nothing doubled or lost', async () => {
    service = await start();
    const account = await accountHelpers(service).createAccount('enterprise');
    const key = (await accountHelpers(service).createKey(account.accountId, 's3', { userId: account.userId })).key;
    const N = 30_000;
    const bad = new Set<number>();
    const rows = Array.from({ length: N }, (_, i) => {
      if (i % 1000 === 17) {
        bad.add(i + 2);
        return `,boat,,GB`; // no name: refused (an unknown type alone would be screened with a warning)
      }
      return i % 2500 === 9 ? 'Saddam Hussein Al-Tikriti,,,' : `Customer ${i} Example,person,,GB`;
    });
    const created = await rawRequest(service.url!, 'POST', '/api/v1/batches', {
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      body: `name,entity_type,dob,country\n${rows.join('\n')}\n`,
    });
    assert.equal(created.status, 202, created.text);
    const id = created.body.data.id as string;
    const checkpoint = async () => (await service!.pool.query<{ checkpoint_line: number }>('SELECT checkpoint_line FROM batch_jobs WHERE job_id = $1', [id])).rows[0]!.checkpoint_line;
    for (let i = 0; (await checkpoint()) === 0; i++) {
      // generous: the worker first builds the index from the lists (no snapshot in a fresh data directory),
      // which takes minutes on a loaded 2-core CI machine
      assert.ok(i < 3000, 'the job checkpoints within five minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = (await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}`, { headers: { 'x-api-key': key } })).body.data;
    assert.equal(before.status, 'running', 'stopped mid-job');
    await service.stop();

    service = await start();
    let job: any;
    for (let i = 0; i < 1800; i++) {
      job = (await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}`, { headers: { 'x-api-key': key } })).body.data;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.resumes, 1);
    assert.equal(job.progress.rows_read, N);
    assert.equal(job.progress.rejected, bad.size);
    assert.equal(job.progress.screened, N - bad.size);

    const results = await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}/results.csv`, { headers: { 'x-api-key': key } });
    assert.equal(results.status, 200);
    const lines = (parse(results.text, { columns: true }) as { line: string; name: string }[]).map((r) => Number(r.line));
    const expected = Array.from({ length: N }, (_, i) => i + 2).filter((l) => !bad.has(l));
    assert.deepEqual(lines, expected, 'one line per readable row, in input order, none twice');
    const errors = await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}/errors.csv`, { headers: { 'x-api-key': key } });
    assert.deepEqual((parse(errors.text, { columns: true }) as { line: string }[]).map((r) => Number(r.line)), [...bad]);
    const jsonl = await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}/results.jsonl`, { headers: { 'x-api-key': key } });
    const flagged = jsonl.text.trim().split('\n').map((l) => (JSON.parse(l) as { line: number }).line);
    assert.deepEqual(flagged, Array.from({ length: N }, (_, i) => i).filter((i) => i % 2500 === 9).map((i) => i + 2));
    assert.equal(job.progress.flagged, flagged.length);
  });
});
