/**
 * Asynchronous batch screening over HTTP (S3 POST /api/v1/batches), through the whole service: real HTTP,
 * real PostgreSQL, the fixture lists, the batch engine's worker pool (two worker threads). A few hundred
 * rows with bad ones among them are uploaded as CSV; the job is polled until it completes (its progress
 * seen on the way), its files are downloaded and checked against docs/batch-screening.md; another account
 * cannot read it; missing, malformed, oversized and hostile uploads are refused in the S3 envelope with
 * nothing recorded; a job a dead process left "running" is reported failed; Idempotency-Key works.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { startTestService, type TestService } from '../../support/service';
import { rawRequest, type RawAnswer } from '../../support/raw-http';

const MAX_BYTES = 64 * 1024;
let svc: TestService;
let dataDir: string;
let s3Key: string;
let otherKey: string;

before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'batch-jobs-'));
  svc = await startTestService({ agents: 'none', env: { DATA_DIR: dataDir, LISTS_DIR: 'test/fixtures/lists', BATCH_WORKERS: '2', BATCH_MAX_BYTES: String(MAX_BYTES) } });
  const account = await svc.createAccount('enterprise');
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const other = await svc.createAccount('enterprise');
  otherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
});
after(async () => {
  await svc?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const upload = (body: string | Buffer, headers: Record<string, string> = {}, query = '') =>
  rawRequest(svc.url, 'POST', `/api/v1/batches${query}`, { headers: { 'x-api-key': s3Key, 'content-type': 'text/csv', ...headers }, body });
const get = (p: string, key = s3Key) => rawRequest(svc.url, 'GET', p, { headers: { 'x-api-key': key } });

async function jobCount(): Promise<number> {
  const { rows } = await svc.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM batch_jobs');
  return rows[0]!.n;
}

/** Job directories on disk (an upload that was refused leaves none behind, not even a partial one). */
async function dirsOnDisk(): Promise<string[]> {
  return readdir(path.join(dataDir, 'batches')).catch(() => []);
}

function assertS3Error(answer: RawAnswer, status: number, pattern: RegExp): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(typeof answer.body?.error, 'string', `S3 envelope {error}: ${answer.text}`);
  assert.match(answer.body.error, pattern);
  assert.equal(answer.body.data, undefined);
}

// A customer book: listed names (the fixture lists), innocent names and bad rows.
const listed = ['Saddam Hussein Al-Tikriti', 'Alexander Vladimirovich Petrov', 'Saddam Hussein', 'Alexander Petrov'];
const bad = [
  { row: ',person,,GB', line: 0, field: 'name' },
  { row: 'John Smith,person,31/02/1960,GB', line: 0, field: 'dob' },
  { row: 'John Smith,person,,Narnia', line: 0, field: 'country' },
  { row: 'John Smith,boat,,', line: 0, field: 'entity_type' },
];
function book(rows: number): { csv: string; badLines: { line: number; field: string }[] } {
  const lines = ['name,entity_type,dob,country'];
  const badLines: { line: number; field: string }[] = [];
  for (let i = 0; i < rows; i++) {
    if (i % 50 === 7) {
      const b = bad[((i / 50) | 0) % bad.length]!;
      lines.push(b.row);
      badLines.push({ line: lines.length, field: b.field });
    } else if (i % 40 === 3) lines.push(`${listed[((i / 40) | 0) % listed.length]},,,`);
    else lines.push(`Customer ${i} Quillfeather-${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}son,person,,GB`);
  }
  return { csv: `${lines.join('\n')}\n`, badLines };
}
/** Rows refused: only a row without a name. A bad optional field is a warning; the name is screened without it (issue 27). */
const refusedOf = (badLines: { field: string }[]) => badLines.filter((b) => b.field === 'name').length;

describe('S3 batch jobs', () => {
  let jobId: string;
  const { csv, badLines } = book(400);

  it('accepts a CSV with 202 and a job id, reports progress while it runs, and completes', async () => {
    const before = await jobCount();
    const created = await upload(csv);
    assert.equal(created.status, 202, created.text);
    jobId = created.body.data.id;
    assert.match(jobId, /^[0-9a-f-]{36}$/);
    assert.equal(created.headers.location, `/api/v1/batches/${jobId}`);
    assert.ok(['queued', 'running', 'completed'].includes(created.body.data.status));
    assert.equal(created.body.data.rows_estimated, 400);
    assert.equal(created.body.data.input_bytes, Buffer.byteLength(csv));
    assert.ok(created.body.meta.request_id, 'the S3 envelope');
    assert.equal(await jobCount(), before + 1);

    const seen: { status: string; rows_read: number; screened: number }[] = [];
    const deadline = Date.now() + 60_000;
    let job: any;
    for (;;) {
      const answer = await get(`/api/v1/batches/${jobId}`);
      assert.equal(answer.status, 200, answer.text);
      job = answer.body.data;
      seen.push({ status: job.status, rows_read: job.progress.rows_read, screened: job.progress.screened });
      if (job.status === 'completed' || job.status === 'failed') break;
      assert.ok(Date.now() < deadline, 'the job completes within a minute');
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    // The job was seen unfinished (its worker threads build their engines first), progress only moves
    // forward, and it ends at the whole file.
    assert.ok(seen.some((s) => s.status === 'queued' || s.status === 'running'), JSON.stringify(seen));
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.rows_read >= seen[i - 1]!.rows_read && seen[i]!.screened >= seen[i - 1]!.screened, JSON.stringify(seen));
    assert.deepEqual(job.progress.rows_read, 400);
    assert.equal(job.progress.rejected, refusedOf(badLines));
    assert.equal(job.progress.screened, 400 - refusedOf(badLines));
    assert.ok(job.progress.flagged >= 1, 'the listed names are flagged');
    assert.ok(job.progress.names_per_second > 0);
    assert.ok(job.started_at && job.finished_at);
    assert.deepEqual(job.files, {
      results_csv: `/api/v1/batches/${jobId}/results.csv`,
      results_jsonl: `/api/v1/batches/${jobId}/results.jsonl`,
      errors_csv: `/api/v1/batches/${jobId}/errors.csv`,
    });
  });

  it('serves the results CSV with the columns docs/batch-screening.md lists, one line per readable row', async () => {
    const answer = await get(`/api/v1/batches/${jobId}/results.csv`);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^text\/csv/);
    assert.match(String(answer.headers['content-disposition']), /attachment; filename="batch-.*-results\.csv"/);
    const rows = parse(answer.text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]!), [
      'line', 'name', 'entity_type', 'dob', 'country', 'flagged', 'hit_count', 'best_score', 'best_entity_id',
      'best_entity_name', 'matched_name', 'matched_lists', 'risk_score', 'risk_level', 'explanation',
      'match_strength', 'confirmation', 'risk_reason', 'warnings',
    ]);
    assert.equal(rows.length, 400 - refusedOf(badLines));
    // A row with a bad optional field is screened without it, and says so.
    const warned = rows.filter((r) => r.warnings !== '');
    assert.deepEqual(warned.map((r) => Number(r.line)), badLines.filter((b) => b.field !== 'name').map((b) => b.line));
    assert.ok(warned.every((r) => /screened without it/.test(r.warnings!)), JSON.stringify(warned));
    const banco = rows.find((r) => r.name === 'Saddam Hussein Al-Tikriti')!;
    assert.equal(banco.flagged, 'true');
    assert.ok(Number(banco.hit_count) >= 1);
    assert.match(banco.matched_lists!, /eu/i);
    assert.ok(['low', 'medium', 'high', 'critical'].includes(banco.risk_level!), banco.risk_level);
    assert.ok(banco.explanation!.length > 0);
    const innocent = rows.find((r) => r.name!.startsWith('Customer 0 '))!;
    assert.equal(innocent.line, '2');
    // Results keep input order.
    const lines = rows.map((r) => Number(r.line));
    assert.deepEqual(lines, [...lines].sort((a, b) => a - b));
  });

  it('serves the errors CSV (line, field, value, message) and the JSON lines of flagged rows', async () => {
    const errors = await get(`/api/v1/batches/${jobId}/errors.csv`);
    assert.equal(errors.status, 200);
    const rows = parse(errors.text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]!), ['line', 'field', 'value', 'message']);
    assert.deepEqual(
      rows.map((r) => ({ line: Number(r.line), field: r.field })),
      badLines,
    );
    const jsonl = await get(`/api/v1/batches/${jobId}/results.jsonl`);
    assert.equal(jsonl.status, 200);
    assert.match(String(jsonl.headers['content-type']), /^application\/x-ndjson/);
    const flagged = jsonl.text.trim().split('\n').map((l) => JSON.parse(l));
    const status = await get(`/api/v1/batches/${jobId}`);
    assert.equal(flagged.length, status.body.data.progress.flagged);
    assert.ok(flagged.every((f) => Array.isArray(f.hits) && f.hits.length > 0 && typeof f.line === 'number'));
  });

  it('counts each screened name of a completed job in the key\'s usage (POST /api/v1/batches, BATCH)', async () => {
    const usage = await get('/api/v1/usage');
    assert.equal(usage.status, 200, usage.text);
    const today = (usage.body.data.keys as { today: { by_endpoint: Record<string, number>; by_screening_type: Record<string, number> } }[]).map((k) => k.today);
    const batchNames = today.reduce((sum, t) => sum + (t.by_endpoint['POST /api/v1/batches'] ?? 0), 0);
    assert.equal(batchNames, 400 - refusedOf(badLines), 'the screened names, not the rejected rows');
    assert.equal(today.reduce((sum, t) => sum + (t.by_screening_type.BATCH ?? 0), 0), batchNames);
    const other = await get('/api/v1/usage', otherKey);
    assert.equal(JSON.stringify(other.body.data).includes('/api/v1/batches'), false, 'not in another account\'s usage');
  });

  it('another account cannot see the job or its files (404, like a missing one), nor list it', async () => {
    assertS3Error(await get(`/api/v1/batches/${jobId}`, otherKey), 404, /not found/i);
    for (const file of ['results.csv', 'results.jsonl', 'errors.csv']) assertS3Error(await get(`/api/v1/batches/${jobId}/${file}`, otherKey), 404, /not found/i);
    const list = await get('/api/v1/batches', otherKey);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data, []);
    const own = await get('/api/v1/batches');
    assert.ok(own.body.data.some((j: { id: string }) => j.id === jobId));
    assertS3Error(await get(`/api/v1/batches/${randomUUID()}`), 404, /not found/i);
    assertS3Error(await get('/api/v1/batches/not-a-uuid'), 400, /uuid/);
  });

  it('refuses missing, malformed, oversized and hostile uploads in the S3 envelope, recording nothing', async () => {
    const before = await jobCount();
    const dirsBefore = await dirsOnDisk();
    assertS3Error(await rawRequest(svc.url, 'POST', '/api/v1/batches', { headers: { 'x-api-key': s3Key } }), 415, /text\/csv/);
    assertS3Error(await rawRequest(svc.url, 'POST', '/api/v1/batches', { headers: { 'x-api-key': s3Key }, json: { names: ['A'] } }), 415, /text\/csv/);
    assertS3Error(await upload(''), 400, /empty/);
    assertS3Error(await upload('full_name,dob\nJohn Smith,1960\n'), 400, /"name" column/);
    assertS3Error(await upload(Buffer.concat([Buffer.from('name\nJo'), Buffer.from([0xff, 0xfe]), Buffer.from('hn Smith\n')])), 400, /UTF-8/);
    assertS3Error(await upload(Buffer.from('name\nJos\xc3', 'latin1')), 400, /UTF-8/);
    assertS3Error(await upload('name\nJohn Smith\n', {}, '?threshold=7'), 400, /threshold/);
    // Over the limit, with a Content-Length (refused before reading) and streamed without one.
    const big = `name\n${'Customer Name Example\n'.repeat(Math.ceil(MAX_BYTES / 22) + 10)}`;
    assertS3Error(await upload(big), 413, /limit of 65536 bytes/);
    const chunked = await new Promise<RawAnswer>((resolve, reject) => {
      const url = new URL('/api/v1/batches', svc.url);
      const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'x-api-key': s3Key, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' }, agent: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.write('name\n');
      const line = 'Customer Name Example\n'.repeat(500);
      let sent = 0;
      const pump = () => {
        while (sent < MAX_BYTES * 2) {
          sent += line.length;
          if (!req.write(line)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    assertS3Error(chunked, 413, /limit of 65536 bytes/);
    assert.equal(await jobCount(), before, 'nothing recorded');
    assert.deepEqual(await dirsOnDisk(), dirsBefore, 'no file left behind');
  });

  it('screens hostile rows as data: formula-looking names, control characters, quotes and a huge field are rows, not commands', async () => {
    const hostile = [
      'name,entity_type,dob,country',
      '"=HYPERLINK(""http://evil.example"",""x"")",,,',
      '"Robert""); DROP TABLE batch_jobs;--",,,',
      `"${'A'.repeat(600)}",,,`,
      '"Name\u0007With Bell",,,',
      '"unterminated quote,,,',
    ].join('\n');
    const created = await upload(hostile);
    assert.equal(created.status, 202, created.text);
    let job: any;
    // Each job starts its worker threads, which build their engines from the lists first (seconds).
    for (let i = 0; i < 600; i++) {
      job = (await get(`/api/v1/batches/${created.body.data.id}`)).body.data;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.progress.rows_read, job.progress.screened + job.progress.rejected);
    assert.ok(job.progress.rejected >= 2, 'the over-long name and the control character are rejected rows');
    assert.ok((await jobCount()) > 0, 'the table is still there');
  });

  it('a job whose process died (heartbeat stopped) is reported failed, not running for ever', async () => {
    const id = randomUUID();
    const account = (await get('/api/v1/usage')).body.data;
    assert.ok(account);
    const { rows } = await svc.db.pool.query<{ account_id: string }>('SELECT account_id FROM batch_jobs WHERE job_id = $1', [jobId]);
    const old = new Date(Date.now() - 5 * 60_000);
    await svc.db.pool.query(
      `INSERT INTO batch_jobs (job_id, account_id, status, threshold, input_bytes, input_sha256, rows_estimated, rows_read, created_at, started_at, heartbeat_at)
       VALUES ($1, $2, 'running', 0.8, 100, 'x', 10, 4, $3, $3, $3)`,
      [id, rows[0]!.account_id, old],
    );
    const answer = await get(`/api/v1/batches/${id}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.status, 'failed');
    assert.match(answer.body.data.error, /interrupted/);
    assertS3Error(await get(`/api/v1/batches/${id}/results.csv`), 409, /failed/);
  });

  it('Idempotency-Key: the same upload answers the same job; another file under the key is refused', async () => {
    const key = `batch-${randomUUID()}`;
    const first = await upload('name\nAda Quill\n', { 'idempotency-key': key });
    assert.equal(first.status, 202, first.text);
    const before = await jobCount();
    const again = await upload('name\nAda Quill\n', { 'idempotency-key': key });
    assert.equal(again.status, 202);
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assertS3Error(await upload('name\nAda Quills\n', { 'idempotency-key': key }), 422, /different request|different file/);
    assert.equal(await jobCount(), before);
  });

  const waitFor = async (id: string) => {
    let job: any;
    for (let i = 0; i < 600; i++) {
      job = (await get(`/api/v1/batches/${id}`)).body.data;
      if (['completed', 'failed', 'cancelled'].includes(job.status)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return job;
  };

  it('screens JSON lines (application/x-ndjson) with the same rules and columns; unreadable lines go to errors.csv with their line', async () => {
    const body = [
      '{"name":"Saddam Hussein Al-Tikriti","entity_type":"","dob":"","country":""}',
      '{"name":"Customer One Quillfeather","entity_type":"person","dob":"1960","country":"GB"}',
      'not json at all',
      '["an","array"]',
      '',
      '{"name":"John Smith","dob":"31/02/1960"}',
      '{"name":{"first":"x"}}',
      '{"Name":"Jane Roe","type":"organization","dob":1970}',
    ].join('\n');
    const created = await upload(body, { 'content-type': 'application/x-ndjson' });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.body.data.input_format, 'jsonl');
    const job = await waitFor(created.body.data.id);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    // John Smith's impossible date is left out with a warning: his name is screened (issue 27).
    assert.deepEqual(job.progress, { ...job.progress, rows_read: 7, screened: 4, rejected: 3 });
    const results = parse((await get(`/api/v1/batches/${job.id}/results.csv`)).text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(results.map((r) => [r.line, r.name]), [['1', 'Saddam Hussein Al-Tikriti'], ['2', 'Customer One Quillfeather'], ['6', 'John Smith'], ['8', 'Jane Roe']]);
    assert.match(results[2]!.warnings!, /^dob "31\/02\/1960": .*screened without it$/);
    assert.equal(results[3]!.dob, '1970', 'a number is read as its digits');
    // The same name as a CSV row (the first job) gives the same result, but for its line.
    const fromCsv = (parse((await get(`/api/v1/batches/${jobId}/results.csv`)).text, { columns: true }) as Record<string, string>[]).find((r) => r.name === 'Saddam Hussein Al-Tikriti')!;
    assert.deepEqual({ ...results[0], line: '' }, { ...fromCsv, line: '' });
    const errors = parse((await get(`/api/v1/batches/${job.id}/errors.csv`)).text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(errors.map((e) => [e.line, e.field]), [['3', 'row'], ['4', 'row'], ['6', 'dob'], ['7', 'name']]);
    assert.match(errors[0]!.message!, /unreadable JSON line/);
    assert.match(errors[3]!.message!, /must be a string/);
    const jsonl = (await get(`/api/v1/batches/${job.id}/results.jsonl`)).text.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(jsonl.map((j) => j.line), [1]);
    // An octet-stream is taken by its file name.
    const named = await upload('{"name":"Ada Quill"}\n', { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="book.jsonl"' });
    assert.equal(named.status, 202, named.text);
    assert.equal(named.body.data.input_format, 'jsonl');
    assert.equal((await waitFor(named.body.data.id)).progress.screened, 1);
  });

  it('refuses bad JSON lines uploads in the S3 envelope, recording nothing', async () => {
    const before = await jobCount();
    const dirsBefore = await dirsOnDisk();
    const nd = { 'content-type': 'application/x-ndjson' };
    assertS3Error(await upload('', nd), 400, /empty/);
    assertS3Error(await upload('\n\n  \n', nd), 400, /empty/);
    assertS3Error(await upload('name,dob\nJohn Smith,1960\n', nd), 400, /not a JSON object/);
    assertS3Error(await upload('[{"name":"x"}]\n', nd), 400, /not a JSON object/);
    assertS3Error(await upload(Buffer.concat([Buffer.from('{"name":"Jo'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]), nd), 400, /UTF-8/);
    assertS3Error(await upload(`{"name":"${'x'.repeat(MAX_BYTES)}"}\n`, nd), 413, /limit of 65536 bytes/);
    assertS3Error(await upload('{"name":"x"}\n', { 'content-type': 'application/json' }), 415, /x-ndjson/);
    assertS3Error(await upload('{"name":"x"}\n', { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="book.txt"' }), 415, /text\/csv/);
    assert.equal(await jobCount(), before, 'nothing recorded');
    assert.deepEqual(await dirsOnDisk(), dirsBefore, 'no file left behind');
  });

  it('cancel: stops the job, keeps its files up to the last checkpoint (a prefix of the rows, in order); not another account\'s; not a finished job', async () => {
    const { csv: body } = book(1500);
    const created = await upload(body);
    assert.equal(created.status, 202, created.text);
    const id = created.body.data.id as string;
    const cancel = (jobIdOrPath: string, key = s3Key) => rawRequest(svc.url, 'POST', `/api/v1/batches/${jobIdOrPath}/cancel`, { headers: { 'x-api-key': key } });
    // Another account: 404 like a missing job, and the job is untouched.
    assertS3Error(await cancel(id, otherKey), 404, /not found/i);
    assert.notEqual((await get(`/api/v1/batches/${id}`)).body.data.status, 'cancelled');
    const answer = await cancel(id);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.data.status, 'cancelled');
    assert.ok(answer.body.data.finished_at);
    assert.deepEqual(Object.keys(answer.body.data.files), ['results_csv', 'results_jsonl', 'errors_csv']);
    await new Promise((r) => setTimeout(r, 500));
    const job = (await get(`/api/v1/batches/${id}`)).body.data;
    assert.equal(job.status, 'cancelled', 'it stays cancelled');
    const results = await get(`/api/v1/batches/${id}/results.csv`);
    assert.equal(results.status, 200, results.text);
    assert.ok(results.text.startsWith('line,name,'), 'the header is always there');
    const rows = parse(results.text, { columns: true }) as Record<string, string>[];
    const errors = parse((await get(`/api/v1/batches/${id}/errors.csv`)).text, { columns: true }) as Record<string, string>[];
    // Exactly the rows of a prefix of the file: every line from 2 up to the last one, in order, once.
    const seen = [...rows.map((r) => Number(r.line)), ...errors.map((e) => Number(e.line))].sort((a, b) => a - b);
    assert.deepEqual(seen, Array.from({ length: seen.length }, (_, i) => i + 2));
    assert.deepEqual(rows.map((r) => Number(r.line)), [...rows.map((r) => Number(r.line))].sort((a, b) => a - b));
    assert.equal(job.progress.screened, rows.length, 'the counters are the rows in the files');
    assert.equal(job.progress.rejected, errors.length);
    assert.ok(rows.length < 1500, 'stopped before the end');
    assert.equal((await cancel(id)).body.data.status, 'cancelled', 'cancelling again answers the cancelled job');
    assertS3Error(await cancel(jobId), 409, /already completed/);
    assertS3Error(await cancel(randomUUID()), 404, /not found/i);
    assertS3Error(await cancel('not-a-uuid'), 400, /uuid/);
    // The names in a cancelled job's files count in the key's usage, as a completed job's do.
    const jobs = (await get('/api/v1/batches?limit=100')).body.data as { status: string; progress: { screened: number } }[];
    const delivered = jobs.filter((j) => j.status === 'completed' || j.status === 'cancelled').reduce((sum, j) => sum + j.progress.screened, 0);
    const usage = (await get('/api/v1/usage')).body.data.keys as { today: { by_endpoint: Record<string, number> } }[];
    assert.equal(usage.reduce((sum, k) => sum + (k.today.by_endpoint['POST /api/v1/batches'] ?? 0), 0), delivered);
  });
});
