/**
 * A batch job never stays "running" across a restart: the service is stopped while a job it accepted is
 * queued or running, started again on the same database and data directory, and the job then reads
 * failed (interrupted), its files refused (409), and a new upload runs to completion.
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
  it('a job the stopped service had accepted reads failed (interrupted) after the restart; new jobs run', async () => {
    service = await start();
    const account = await accountHelpers(service).createAccount('enterprise');
    const key = (await accountHelpers(service).createKey(account.accountId, 's3', { userId: account.userId })).key;
    const rows = Array.from({ length: 50_000 }, (_, i) => `Customer ${i} Example,person,,GB`);
    const created = await rawRequest(service.url!, 'POST', '/api/v1/batches', {
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      body: `name,entity_type,dob,country\n${rows.join('\n')}\n`,
    });
    assert.equal(created.status, 202, created.text);
    const id = created.body.data.id as string;
    const status = (await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}`, { headers: { 'x-api-key': key } })).body.data.status;
    assert.ok(status === 'queued' || status === 'running', `stopped mid-job (${status})`);
    await service.stop();

    service = await start();
    const after = await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}`, { headers: { 'x-api-key': key } });
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.data.status, 'failed');
    assert.match(after.body.data.error, /interrupted/);
    assert.ok(after.body.data.finished_at);
    const download = await rawRequest(service.url!, 'GET', `/api/v1/batches/${id}/results.csv`, { headers: { 'x-api-key': key } });
    assert.equal(download.status, 409, download.text);

    const again = await rawRequest(service.url!, 'POST', '/api/v1/batches', { headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body: 'name\nAda Quill\n' });
    assert.equal(again.status, 202, again.text);
    let job: any;
    for (let i = 0; i < 300; i++) {
      job = (await rawRequest(service.url!, 'GET', `/api/v1/batches/${again.body.data.id}`, { headers: { 'x-api-key': key } })).body.data;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.progress.screened, 1);
  });
});
