/**
 * The list downloader against a real local HTTP server serving ../shared/data:
 * conditional GET (304), retry after a 500, timeout, atomic swap, reload + delta.
 */
import { SHARED_DATA_DIR } from '../../support/shared-data';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ListRegistry } from '../../../src/screening/lists';
import { downloadList, fetchToTemp, updateLists, DownloadError } from '../../../src/screening/download';

const DATA = SHARED_DATA_DIR;
let server: Server;
let base: string;
const requests: { url: string; headers: IncomingMessage['headers']; status: number }[] = [];
const flakyHits = new Map<string, number>();

before(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    const [, mode, ...rest] = url.split('/');
    const rel = rest.join('/');
    const record = (status: number) => requests.push({ url, headers: req.headers, status });
    if (mode === 'slow') {
      record(200);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('partial');
      return; // never ends: the client must time out
    }
    if (mode === 'flaky') {
      const n = (flakyHits.get(rel) ?? 0) + 1;
      flakyHits.set(rel, n);
      if (n === 1) {
        record(500);
        res.writeHead(500).end('try later');
        return;
      }
    }
    if (mode !== 'data' && mode !== 'flaky') {
      record(404);
      res.writeHead(404).end();
      return;
    }
    const file = path.join(DATA, rel);
    if (!file.startsWith(DATA + path.sep)) {
      record(403);
      res.writeHead(403).end();
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      record(404);
      res.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    const lastModified = (await stat(file)).mtime.toUTCString();
    if (req.headers['if-none-match'] === etag) {
      record(304);
      res.writeHead(304, { etag }).end();
      return;
    }
    record(200);
    res.writeHead(200, { etag, 'last-modified': lastModified, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

const sdnUrls = (dir: string) => ({
  'sdn.csv': `${base}/data/${dir}/sdn.csv`,
  'alt.csv': `${base}/data/${dir}/alt.csv`,
  'add.csv': `${base}/data/${dir}/add.csv`,
  'sdn_comments.csv': `${base}/data/${dir}/sdn_comments.csv`,
});

test('update: download, reload, delta; then a conditional GET answers 304 and nothing reloads', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-dl-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const cfg = { source: 'ofac_sdn', dir: `${DATA}/ofac_sdn_2018-12`, urls: sdnUrls('ofac_sdn') };
  const registry = new ListRegistry({ lists: [cfg] });
  await registry.loadAll({ progressBar: false });
  const before2018 = registry.currentVersion('ofac_sdn')!;
  assert.equal(before2018.entityCount, 7379);

  const [first] = await updateLists(registry, [cfg], work, { backoffMs: 5 });
  assert.ok(first.ok, JSON.stringify(first));
  assert.ok(first.ok && first.download.changed);
  assert.ok(first.ok && first.reload?.ok);
  if (first.ok && first.reload?.ok) {
    assert.equal(first.reload.previous?.id, before2018.id);
    assert.equal(first.reload.version.entityCount, 8976);
    // The download carries no snapshot date: SDN.CSV states none, so the version is dated by the download
    // (HTTP Last-Modified, else the fetch time recorded in <file>.meta.json).
    assert.equal(first.reload.version.publishedAtSource, 'download');
    assert.match(first.reload.version.publishedAt ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(
      [first.reload.delta?.added.length, first.reload.delta?.removed.length, first.reload.delta?.changed.length],
      [1858, 261, 842],
    );
  }
  const downloaded = await readFile(path.join(work, 'ofac_sdn', 'sdn.csv'));
  assert.deepEqual(downloaded, await readFile(`${DATA}/ofac_sdn/sdn.csv`), 'bytes arrive unchanged');
  const meta = JSON.parse(await readFile(path.join(work, 'ofac_sdn', 'sdn.csv.meta.json'), 'utf8'));
  assert.match(meta.etag, /^"[0-9a-f]{40}"$/);
  assert.ok(meta.lastModified);

  const mark = requests.length;
  const [second] = await updateLists(registry, [cfg], work, { backoffMs: 5 });
  assert.ok(second.ok);
  if (second.ok) {
    assert.equal(second.download.changed, false);
    assert.deepEqual(second.download.files.map((f) => f.status), ['not_modified', 'not_modified', 'not_modified', 'not_modified']);
    assert.equal(second.reload, undefined);
  }
  const conditional = requests.slice(mark);
  assert.equal(conditional.length, 4);
  assert.ok(conditional.every((r) => r.status === 304 && r.headers['if-none-match'] && r.headers['if-modified-since']));
  assert.equal(registry.currentVersion('ofac_sdn')!.entityCount, 8976);
});

test('retry: a 500 is retried with backoff and the second attempt succeeds', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-dl-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const retries: { attempt: number; delayMs: number; reason: string }[] = [];
  const slept: number[] = [];
  const dl = await downloadList(
    { source: 'un_sc', dir: work, urls: { 'UN_consolidated.xml': `${base}/flaky/un/UN_consolidated.xml` } },
    work,
    { backoffMs: 20, onRetry: (r) => retries.push(r), sleep: async (ms) => void slept.push(ms) },
  );
  assert.equal(dl.files[0].status, 'downloaded');
  assert.equal(dl.files[0].attempts, 2);
  assert.deepEqual(retries.map((r) => [r.attempt, r.delayMs, r.reason]), [[2, 20, 'HTTP 500']]);
  assert.deepEqual(slept, [20]);
  assert.equal(dl.files[0].bytes, (await stat(`${DATA}/un/UN_consolidated.xml`)).size);
});

test('timeout: a server that stalls mid-body fails after the retries, leaves no partial file, keeps the current version', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-dl-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const cfg = { source: 'un_sc', dir: `${DATA}/un`, urls: { 'UN_consolidated.xml': `${base}/slow/un/UN_consolidated.xml` } };
  const registry = new ListRegistry({ lists: [cfg] });
  await registry.loadAll({ progressBar: false });
  const current = registry.currentVersion('un_sc')!;
  const started = Date.now();
  const [out] = await updateLists(registry, [cfg], work, { timeoutMs: 150, retries: 1, backoffMs: 10 });
  assert.ok(Date.now() - started < 5000);
  assert.equal(out.ok, false);
  if (!out.ok) assert.match(out.error, /failed after 2 attempts: timed out after 150 ms/);
  assert.deepEqual(await readdir(path.join(work, 'un')), [], 'no partial download left behind');
  assert.equal(registry.currentVersion('un_sc')!.id, current.id);
});

test('a 404 is not retried; one failing file of a multi-file list swaps in nothing', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-dl-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  await assert.rejects(fetchToTemp(`${base}/data/nope.csv`, path.join(work, 'x.csv'), { backoffMs: 1 }), (err: unknown) => {
    assert.ok(err instanceof DownloadError);
    assert.equal(err.status, 404);
    assert.equal(err.attempts, 1);
    return true;
  });
  const urls = { ...sdnUrls('ofac_sdn'), 'sdn_comments.csv': `${base}/data/ofac_sdn/missing.csv` };
  await assert.rejects(downloadList({ source: 'ofac_sdn', dir: work, urls }, path.join(work, 'ofac_sdn'), { backoffMs: 1 }), /HTTP 404/);
  assert.deepEqual(await readdir(path.join(work, 'ofac_sdn')), [], 'files fetched before the failure were discarded');
});

test('a download that does not parse keeps the version in service and puts the previous files back', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-dl-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const good = { source: 'un_sc', dir: `${DATA}/un`, urls: { 'UN_consolidated.xml': `${base}/data/un/UN_consolidated_2025-11-20.xml` } };
  const registry = new ListRegistry({ lists: [good] });
  await registry.loadAll({ progressBar: false });
  const [first] = await updateLists(registry, [good], work, { backoffMs: 1 });
  assert.ok(first.ok && first.reload?.ok);
  const inService = registry.currentVersion('un_sc')!;
  assert.equal(inService.entityCount, 1000);
  const goodBytes = await readFile(path.join(work, 'un', 'UN_consolidated.xml'));

  // The "new" file is not UN XML at all (a CSV served under the XML name).
  const broken = { ...good, urls: { 'UN_consolidated.xml': `${base}/data/ofac_sdn/sdn_comments.csv` } };
  const [second] = await updateLists(registry, [broken], work, { backoffMs: 1 });
  assert.ok(second.ok && second.download.changed);
  assert.ok(second.ok && second.reload && !second.reload.ok);
  if (second.ok && second.reload && !second.reload.ok) {
    assert.equal(second.reload.kept?.id, inService.id);
    assert.match(second.reload.failure.message, /UN_consolidated\.xml:1 \[xml\]: malformed XML/);
  }
  assert.equal(registry.currentVersion('un_sc')!.id, inService.id);
  assert.deepEqual(await readFile(path.join(work, 'un', 'UN_consolidated.xml')), goodBytes, 'previous good file restored');
  const meta = JSON.parse(await readFile(path.join(work, 'un', 'UN_consolidated.xml.meta.json'), 'utf8'));
  assert.match(meta.url, /UN_consolidated_2025-11-20\.xml$/, 'its metadata too');
  assert.deepEqual((await readdir(path.join(work, 'un'))).sort(), ['UN_consolidated.xml', 'UN_consolidated.xml.meta.json']);
});
