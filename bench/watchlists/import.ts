/**
 * A 100k-entry internal-list import through the real path (issue 21), a script, not a test:
 *   npx tsx bench/watchlists/import.ts            (BENCH_ROWS=100000 by default; writes bench/watchlists/RESULTS-import.md)
 *
 * Starts the service as `npm start` does (embedded PostgreSQL under a fresh DATA_DIR, in-process bus,
 * all agents), creates an account, an S3 key and a list, writes a CSV of BENCH_ROWS rows the way a
 * firm exports its customers (its own headers, day-first dates, addresses, passport and phone
 * columns), and POSTs it to /api/v1/watchlists/:id/imports as a stream (the file is never held in
 * memory by the client). Measured in the same run, so the figures read as ratios on this shared
 * machine:
 *  - baseline: the same file read by the import parser alone (csv-parse, mapping, validation) with
 *    no events written, and a 10% import of the same kind of file (does time grow linearly?);
 *  - the import: wall time to the 201 answer (pass one: parse, check and spool; pass two: decide and
 *    append in chunks to a staging stream, one ListImported; the read model caught up), rows/s, peak RSS and heap of the service process (sampled every 20 ms; the
 *    service and this client share the process, and the client only streams the file);
 *  - searchable when the import event is written: as soon as the answer arrives (it comes after the
 *    ListImported event is appended and the read model has caught up), the last row of the file is
 *    found by the entries search, and screened through the internal-list agent's own path (the
 *    account's index cache and the matching policy) with its date of birth and address.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { startService } from '../../src/bootstrap/service';
import { createLogger } from '../../src/shared/logger';
import { parseImport } from '../../src/app/watchlists/import-parser';
import { WatchlistService } from '../../src/app/watchlists/watchlist-service';
import { systemClock } from '../../src/shared/clock';
import { WatchlistIndexCache } from '../../src/app/watchlists/watchlist-index';
import { screenInternalLists } from '../../src/agents/lists/internal-lists';
import { accountHelpers } from '../../test/support/service';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SMALL = Math.max(1000, Math.round(ROWS / 10));

const names = (file: string) =>
  fs
    .readFileSync(new URL(`../data/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split(',')[0]!)
    .filter(Boolean);
const GIVEN = names('us_given_names.csv');
const SURNAMES = names('us_surnames.csv');
const STREETS = ['High Street', 'Church Road', 'Mill Lane', 'Station Road', 'Victoria Avenue', 'Park Drive', 'Queen Street', 'Kingsway', 'Green Lane', 'Manor Close'];
const TOWNS: [string, string][] = [['London', 'SW'], ['Leeds', 'LS'], ['Manchester', 'M'], ['Bristol', 'BS'], ['Birmingham', 'B'], ['Glasgow', 'G'], ['Cardiff', 'CF']];
const HEADER = 'Customer Ref,First Name,Last Name,Date of Birth,Address Line 1,City,Postcode,Country,Passport Number,Phone,Reason';

/** Row i, the same every run (a name unique to the row: given + surname + a number-derived middle initial). */
function row(i: number): { csv: string; name: string; dob: string; address: { line: string; city: string; postalCode: string; country: string } } {
  const given = GIVEN[i % GIVEN.length]!;
  const surname = SURNAMES[Math.floor(i / GIVEN.length) % SURNAMES.length]!;
  const middle = String.fromCharCode(65 + (Math.floor(i / (GIVEN.length * SURNAMES.length)) % 26));
  const [town, pc] = TOWNS[i % TOWNS.length]!;
  const day = (i % 28) + 1;
  const month = (i % 12) + 1;
  const year = 1940 + (i % 62);
  const first = `${given} ${middle}`;
  const line = `${(i % 200) + 1} ${STREETS[i % STREETS.length]}`;
  const postalCode = `${pc}${(i % 20) + 1} ${(i % 9) + 1}AB`;
  return {
    name: `${first} ${surname}`,
    dob: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    address: { line, city: town, postalCode, country: 'GB' },
    csv: [
      `C-${String(i).padStart(7, '0')}`,
      first,
      surname,
      `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}`,
      line,
      town,
      postalCode,
      'GB',
      i % 3 === 0 ? String(500_000_000 + i) : '',
      i % 4 === 0 ? `07700 ${String(900_000 + (i % 100_000)).padStart(6, '0')}` : '',
      'Exited: card fraud',
    ].join(','),
  };
}

async function writeCsv(file: string, rows: number): Promise<{ bytes: number; last: ReturnType<typeof row> }> {
  const out = fs.createWriteStream(file);
  out.write(HEADER + '\n');
  for (let i = 0; i < rows; i++) {
    if (!out.write(row(i).csv + '\n')) await once(out, 'drain');
  }
  const last = row(rows - 1);
  out.end();
  await once(out, 'finish');
  return { bytes: fs.statSync(file).size, last };
}

/** Peak RSS and heap while `work` runs (sampled every 20 ms, plus before and after). */
async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; peakRss: number; peakHeap: number; startRss: number; startHeap: number }> {
  global.gc?.();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  const t0 = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - t0;
    sample();
    return { result, ms, peakRss, peakHeap, startRss: start.rss, startHeap: start.heapUsed };
  } finally {
    clearInterval(timer);
  }
}

/** POST a file as a stream; resolves with the status and parsed JSON body. */
function postFile(url: string, file: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    // a connection of its own: a pooled one may have idled past the server's keep-alive and be closing (socket hang up)
    const req = http.request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'text/csv', 'content-length': String(fs.statSync(file).size) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: text });
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    fs.createReadStream(file).pipe(req);
  });
}

const mb = (b: number) => (b / 2 ** 20).toFixed(0);
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-import-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as an unprivileged user when we are root
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WATCHLIST_IMPORT_MAX_BYTES: String(256 * 2 ** 20) };
  const config = loadConfig(env);
  const service = await startService({ config, logger: createLogger({ level: 'silent' }), http: true, agents: 'all', projections: true });
  const lines: string[] = [];
  const log = (s = '') => {
    lines.push(s);
    console.log(s);
  };
  try {
    await service.monitoring?.lists.flush();
    const base = service.url!;
    const { createAccount, createKey } = accountHelpers(service);
    const account = await createAccount('enterprise');
    const { key } = await createKey(account.accountId, 's3');
    const headers = { 'x-api-key': key, accept: 'application/json' };
    const createList = async (name: string) => {
      const res = await fetch(`${base}/api/v1/watchlists`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${name.replace(/\s/g, "-")}-${Date.now()}` },
        body: JSON.stringify({ name, severity: 'block', owner: 'bench' }),
      });
      if (res.status !== 201) throw new Error(`create list: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };

    const big = path.join(dataDir, 'import-big.csv');
    const small = path.join(dataDir, 'import-small.csv');
    const bigFile = await writeCsv(big, ROWS);
    const smallFile = await writeCsv(small, SMALL);

    // ---- baseline 1: the parser alone over the big file (no events, no HTTP)
    // (no rows kept: the bench would otherwise hold 100k parsed rows through the import it measures, and
    // a larger live heap lets V8 grow further before it collects, which inflated the import's peak)
    const parsed = await withPeakMemory(() => parseImport(fs.createReadStream(big), { format: 'csv', mapping: {}, maxBytes: 1 << 30, maxRows: 1_000_000, keepRows: 0 }));
    if (parsed.result.errors.length) throw new Error(`the generated file has unreadable rows: ${JSON.stringify(parsed.result.errors.slice(0, 3))}`);
    const mapping = parsed.result.mapping;

    // ---- baseline 2: a 10% import through the same path
    const smallList = await createList('bench small');
    const smallRun = await withPeakMemory(() => postFile(`${base}/api/v1/watchlists/${smallList}/imports`, small, headers));
    if (smallRun.result.status !== 201) throw new Error(`small import: ${smallRun.result.status} ${JSON.stringify(smallRun.result.body).slice(0, 500)}`);

    // ---- the account's index before the import (the small list), kept by the incremental cache
    const readModel = new WatchlistService({ store: service.store, pool: service.pool, clock: systemClock, readModelsCaughtUp: async () => undefined });
    const newCache = () => new WatchlistIndexCache({ watchlists: readModel, store: service.store, now: () => new Date() });
    const incremental = newCache();
    const bigList = await createList('bench big');
    await incremental.indexFor(account.accountId);

    // ---- the import
    const bigRun = await withPeakMemory(() => postFile(`${base}/api/v1/watchlists/${bigList}/imports`, big, headers));
    const answeredAt = performance.now();
    if (bigRun.result.status !== 201) throw new Error(`big import: ${bigRun.result.status} ${JSON.stringify(bigRun.result.body).slice(0, 500)}`);
    const imported = bigRun.result.body.data.import as { rows: number; added: number; version: number; entry_count: number };

    // ---- searchable as soon as the answer is there
    const q = encodeURIComponent(bigFile.last.name);
    const found = await fetch(`${base}/api/v1/watchlists/${bigList}/entries?q=${q}`, { headers });
    const foundBody = (await found.json()) as { data: { entries: { primary_name: string; entry_id: string }[] } };
    const entrySearchMs = performance.now() - answeredAt;
    // the internal-list agent's own path: the account's index (built on the first screening after a
    // version change) and the policy, for a customer who goes by a short form of the last row's name
    // Before (a cache that builds the account's index whole, as every version change did) and after
    // (the cache that held the index before the import applies the delta), back to back.
    const last = bigFile.last;
    const customer = {
      workflow: 'bench',
      accountId: account.accountId,
      name: last.name,
      entityType: 'individual' as const,
      birthDate: last.dob,
      address: { ...last.address, line: last.address.line.replace('Street', 'St').replace('Road', 'Rd').replace('Lane', 'Ln') },
    };
    const firstScreening = async (cache: WatchlistIndexCache) => {
      const t = performance.now();
      const idx = await cache.indexFor(account.accountId);
      const indexed = performance.now() - t;
      const found = screenInternalLists(idx!, customer);
      return { index: idx!, found, indexMs: indexed, ms: performance.now() - t, how: cache.lastBuild.get(account.accountId)! };
    };
    const afterImportInc = await firstScreening(incremental);
    const afterImportFresh = await firstScreening(newCache());
    const t0 = performance.now();
    const index = afterImportFresh.index;
    const indexMs = afterImportFresh.indexMs;
    void t0;
    const t1 = performance.now();
    const hits = screenInternalLists(index, customer);
    const screenMs = performance.now() - t1;
    // the same answers from both (a sample of the file's names, with and without date of birth)
    const json = (x: unknown) => JSON.stringify(x, (k, v: unknown) => (k === 'loadedAt' ? undefined : v));
    const sameAnswers = (a: typeof index, b: typeof index) => {
      for (let i = 0; i < ROWS; i += Math.max(1, Math.floor(ROWS / 200))) {
        const r = row(i);
        for (const subject of [{ ...customer, name: r.name, birthDate: r.dob }, { ...customer, name: r.name.split(' ').slice(-1)[0]!, birthDate: undefined }]) {
          if (json(screenInternalLists(a, subject)) !== json(screenInternalLists(b, subject))) return false;
          if (json(a.engine.screen({ name: subject.name }, { threshold: 0.72, limit: 50 })) !== json(b.engine.screen({ name: subject.name }, { threshold: 0.72, limit: 50 }))) return false;
        }
      }
      return true;
    };
    const sameAfterImport = sameAnswers(afterImportInc.index, afterImportFresh.index);
    // ---- one entry added by the API, then the first screening again
    // (a new connection: the pooled one may have idled past the server's keep-alive)
    const added = await fetch(`${base}/api/v1/watchlists/${bigList}/entries`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ entry_id: 'C-0050000-x', primary_name: 'Roberta Q Fairweather', dates_of_birth: ['1970-01-02'] }),
    });
    if (added.status !== 201) throw new Error(`add entry: ${added.status} ${await added.text()}`);
    const afterAddInc = await firstScreening(incremental);
    const afterAddFresh = await firstScreening(newCache());
    const sameAfterAdd = sameAnswers(afterAddInc.index, afterAddFresh.index);
    const screenHit = hits.find((h) => JSON.stringify(h).includes(last.name));
    const entities = index!.entries.size;

    const cpu = os.cpus();
    log('# Internal-list import benchmark');
    log();
    log(`Generated by \`npx tsx bench/watchlists/import.ts\` on ${new Date().toISOString().slice(0, 10)}: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} cores, ${mb(os.totalmem())} MiB RAM, Node ${process.version}.`);
    log(`Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${cpu.length} cores (the machine is shared: absolute times are noisy, read the ratios).`);
    log();
    log(`File: ${ROWS} rows, ${(bigFile.bytes / 2 ** 20).toFixed(1)} MiB (headers ${HEADER}); recognised mapping ${JSON.stringify(mapping)}.`);
    log();
    log('| run | rows | time | rows/s | peak RSS (start) | peak heap (start) |');
    log('|---|---|---|---|---|---|');
    const line = (name: string, rows: number, r: { ms: number; peakRss: number; peakHeap: number; startRss: number; startHeap: number }) =>
      log(`| ${name} | ${rows} | ${round(r.ms / 1000, 2)} s | ${Math.round(rows / (r.ms / 1000))} | ${mb(r.peakRss)} MiB (${mb(r.startRss)}) | ${mb(r.peakHeap)} MiB (${mb(r.startHeap)}) |`);
    line('baseline: parser alone (no events, no HTTP)', ROWS, parsed);
    line(`baseline: import of ${SMALL} rows over HTTP`, SMALL, smallRun);
    line(`import of ${ROWS} rows over HTTP (to the 201 answer)`, ROWS, bigRun);
    log();
    log(`- Import / parser alone: ${round(bigRun.ms / parsed.ms, 1)}× the time (checking and spooling every row, deciding and appending in chunks of 1,000 to a staging stream, one ListImported, projecting, HTTP).`);
    log(`- ${ROWS} rows / ${SMALL} rows: ${round(bigRun.ms / smallRun.ms, 1)}× the time for ${round(ROWS / SMALL, 0)}× the rows (linear would be ${round(ROWS / SMALL, 0)}×).`);
    log(`- Peak RSS grew by ${mb(bigRun.peakRss - bigRun.startRss)} MiB during the import (heap by ${mb(bigRun.peakHeap - bigRun.startHeap)} MiB); the file is ${(bigFile.bytes / 2 ** 20).toFixed(1)} MiB.`);
    log(`- Answer: ${imported.rows} rows, ${imported.added} added, list version ${imported.version}, ${imported.entry_count} entries.`);
    log(
      `- Searchable when the answer arrives: the last row "${last.name}" found by the entries search ${foundBody.data.entries.some((e) => e.primary_name === last.name) ? 'yes' : 'NO'} (${round(entrySearchMs, 0)} ms after the answer); ` +
        `screened by the internal-list agent's path (index + policy, address written with abbreviations) ${screenHit ? `yes: ${screenHit.status}, score ${screenHit.score}` : 'NO'} — ` +
        `the account's index of ${entities} entries (both lists) built whole in ${round(indexMs / 1000, 2)} s (an incremental update: see below), the screening itself ${round(screenMs, 0)} ms.`,
    );
    const fmt = (r: { ms: number; indexMs: number; how: { mode: string; prepared: number } }) => `${round(r.ms / 1000, 3)} s (index ${round(r.indexMs / 1000, 3)} s, ${r.how.mode}, ${r.how.prepared} entries prepared)`;
    const incrementalSection = [
      '## Incremental account index (generated)',
      '',
      `The first screening after a change (index brought up to date + one screening through the agent's path), in this run, on the same account (${entities} entries after the import). Before = a cache that builds the index whole (every version change did so); after = the cache that held the index before the change and applies the delta (src/app/watchlists/watchlist-index.ts). The machine is shared: read the ratios.`,
      '',
      '| change | before (whole build) | after (incremental) | after / before |',
      '|---|---|---|---|',
      `| import of ${ROWS} rows into a new list | ${fmt(afterImportFresh)} | ${fmt(afterImportInc)} | ${round(afterImportInc.ms / afterImportFresh.ms, 3)} |`,
      `| one entry added by the API | ${fmt(afterAddFresh)} | ${fmt(afterAddInc)} | ${round(afterAddInc.ms / afterAddFresh.ms, 4)} |`,
      '',
      `- Same answers from both indexes (agent hits and engine results, ${2 * Math.ceil(ROWS / Math.max(1, Math.floor(ROWS / 200)))} queries from the file's names, with and without date of birth): after the import ${sameAfterImport ? 'yes' : 'NO'}, after the one-entry add ${sameAfterAdd ? 'yes' : 'NO'}.`,
      `- Hit for the last row after the import: incremental ${afterImportInc.found.some((h) => JSON.stringify(h).includes(last.name)) ? 'yes' : 'NO'}, whole ${afterImportFresh.found.some((h) => JSON.stringify(h).includes(last.name)) ? 'yes' : 'NO'}.`,
      `- Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}.`,
    ];
    // earlier hand-written sections are kept; the generated one is replaced
    const resultsFile = new URL('./RESULTS-import.md', import.meta.url);
    const previous = fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, 'utf8') : '';
    const kept = previous
      .split(/\n(?=## )/)
      .slice(1)
      .filter((section) => !section.startsWith('## Incremental account index (generated)'))
      .map((section) => section.trimEnd());
    for (const l of incrementalSection) console.log(l);
    fs.writeFileSync(resultsFile, [lines.join('\n'), ...kept, incrementalSection.join('\n')].join('\n\n') + '\n');
    if (!sameAfterImport || !sameAfterAdd) process.exitCode = 1;
    if (!screenHit || !foundBody.data.entries.length) process.exitCode = 1;
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
