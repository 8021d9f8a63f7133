import { SHARED_DATA_DIR } from '../../../support/shared-data';
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, cp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { registerListCommands } from '../../../../src/cli/lists';
import type { ListsConfig } from '../../../../src/screening/lists';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/lists');
const DATA = SHARED_DATA_DIR;

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

async function run(args: string[], config: () => ListsConfig, downloadDir: string) {
  const stdout = new Capture();
  const stderr = new Capture();
  const program = new Command().exitOverride();
  registerListCommands(program, { loadConfig: config, downloadDir, stdout, stderr, download: { backoffMs: 1, timeoutMs: 5000 }, now: () => new Date('2026-03-01T12:00:00Z') });
  const before = process.exitCode;
  await program.parseAsync(['node', 'svc', ...args]);
  const code = process.exitCode;
  process.exitCode = before;
  return { out: stdout.text, err: stderr.text, code };
}

let server: Server;
let base: string;
before(async () => {
  // Serves the fixture OFAC files under /ofac/<file> with an ETag, answering 304 when it matches.
  server = createServer(async (req, res) => {
    const name = path.basename(req.url ?? '');
    try {
      const body = await readFile(path.join(FIX, 'ofac_tricky', name));
      const etag = `"${body.length}-${name}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
      res.writeHead(200, { etag }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test('svc lists status prints version, publication date, age, maximum age and entity count per list, stale warnings and failures', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-cli-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const config = (): ListsConfig => ({
    lists: [
      { source: 'un_sc', dir: `${DATA}/un` },
      { source: 'fatf', dir: `${DATA}/fatf` },
      { source: 'ofac_cons', dir: `${DATA}/ofac_cons`, publishedAt: '2025-12-19' },
      { source: 'us_dpl', dir: path.join(work, 'missing') },
    ],
  });
  const { out, code } = await run(['lists', 'status'], config, work);
  // Ages by the injected clock (2026-03-01): the UN list is 2 days old, the OFAC non-SDN list 72 (over the 7-day default).
  assert.match(out, /^list\s+version\s+published\s+age \(days\)\s+max\s+entities\s+files$/m);
  assert.match(out, /^un_sc\s+un_sc@[0-9a-f]{16}\s+2026-02-27\s+2\s+7\s+1003\s+UN_consolidated\.xml$/m);
  assert.match(out, /^fatf\s+fatf@[0-9a-f]{16}\s+2026-06-19\s+0\s+180\s+25 countries\s+fatf_lists\.csv, fatf_list_changes\.csv$/m);
  assert.match(out, /^ofac_cons\s+ofac_cons@[0-9a-f]{16}\s+2025-12-19 \(manifest\)\s+72 STALE\s+7\s+442\s+/m);
  assert.match(out, /^WARNING OFAC non-SDN consolidated list is 72 days old: run `svc lists update`$/m);
  assert.doesNotMatch(out, /WARNING UN Security Council/);
  assert.match(out, /^FAILED us_dpl: .*file not found/m);
  assert.equal(code, 1);

  const json = JSON.parse((await run(['lists', 'status', '--json'], config, work)).out);
  assert.deepEqual(json.versions.map((v: { entityCount: number }) => v.entityCount), [1003, 0, 442]);
  assert.deepEqual(
    json.freshness.map((f: { source: string; ageDays: number; stale: boolean }) => [f.source, f.ageDays, f.stale]),
    [['un_sc', 2, false], ['fatf', 0, false], ['ofac_cons', 72, true]],
  );
});

test('svc lists update downloads, prints the delta, then reports 304 not-modified; status then shows the downloaded version', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-cli-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const current = path.join(work, 'current');
  await cp(path.join(FIX, 'ofac_tricky'), current, { recursive: true });
  const sdn = await readFile(path.join(current, 'sdn.csv'), 'latin1');
  await writeFile(path.join(current, 'sdn.csv'), sdn.split('\r\n').filter((l) => !l.startsWith('13,')).join('\r\n'), 'latin1');
  const urls = Object.fromEntries(['sdn.csv', 'alt.csv', 'add.csv', 'sdn_comments.csv'].map((f) => [f, `${base}/ofac/${f}`]));
  const config = (): ListsConfig => ({
    lists: [
      { source: 'ofac_sdn', dir: current, urls },
      { source: 'fatf', dir: `${DATA}/fatf` },
    ],
  });
  const downloads = path.join(work, 'downloads');

  const first = await run(['lists', 'update'], config, downloads);
  assert.equal(first.code, undefined, first.out + first.err);
  assert.match(first.out, /^ofac_sdn: downloaded 4 file\(s\) \(1311 bytes\) -> ofac_sdn@[0-9a-f]{16} \(4 entities\)$/m);
  assert.match(first.out, /delta vs ofac_sdn@[0-9a-f]{16}: \+1 added, -0 removed, ~0 changed, 3 unchanged/);
  assert.match(first.out, /^ {4}13 {2}SEA STAR 1$/m);
  assert.match(first.out, /not downloadable \(maintained by hand\): fatf/);

  const second = await run(['lists', 'update', '--list', 'ofac_sdn'], config, downloads);
  assert.match(second.out, /^ofac_sdn: not modified \(4 files, conditional GET answered 304\)$/m);

  const status = await run(['lists', 'status'], config, downloads);
  // SDN.CSV states no date: a downloaded version is dated by the download (HTTP Last-Modified, else the fetch time).
  assert.match(status.out, /^ofac_sdn\s+ofac_sdn@[0-9a-f]{16}\s+\d{4}-\d{2}-\d{2} \(download\)\s+\S+( STALE)?\s+7\s+4\s+sdn\.csv/m);

  await assert.rejects(run(['lists', 'update', '--list', 'nope'], config, downloads), /unknown list\(s\): nope/);
});
