/**
 * Screening CPU per name of one checkout's engine restored from its index snapshot, as a batch worker
 * starts (screen-cpu.ts builds the engine from the lists instead, which gives other hidden classes):
 * restore time, the first 5,000 rows from cold, the next 20,000, and the process's CPU per name.
 * The snapshot must be the checkout's own (a 1-row `svc screen --file` run with INDEX_CACHE_DIR=<dir>
 * writes it). Alternate two checkouts:
 *   for i in 1 2 3; do for c in /tmp/base .; do node --import tsx bench/batch/snapshot-cpu.ts $c /tmp/cache-$(basename $c); done; done
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize } from 'node:v8';

const repo = path.resolve(process.argv[2] ?? '.');
const cacheDir = process.argv[3];
if (!cacheDir) throw new Error('usage: bench/batch/snapshot-cpu.ts <checkout> <index cache dir>');
const { parse } = await import(path.join(repo, 'node_modules/csv-parse/dist/esm/sync.js'));
const { decodeSnapshot } = await import(path.join(repo, 'src/screening/index-snapshot.ts'));
const { parseScreeningInput } = await import(path.join(repo, 'src/screening/query-input.ts'));
const { screenChunk } = await import(path.join(repo, 'src/app/batch-screening/rows.ts'));
const { batchInput } = await import(path.join(repo, 'bench/batch/input.ts'));
const file = readdirSync(cacheDir).find((f) => f.endsWith('.v8'));
if (!file) throw new Error(`no snapshot in ${cacheDir}`);
const bytes = readFileSync(path.join(cacheDir, file));
const key = (deserialize(bytes) as { key: string }).key;
const t0 = performance.now();
const engine = decodeSnapshot(bytes, key)!.engine;
const restoreMs = performance.now() - t0;
process.chdir(repo);
const rows = (parse(batchInput(25_000), { columns: true }) as Record<string, string>[]).map((r, i) => {
  const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, '2026-11-26');
  if (!p.ok) throw new Error(`bench row ${i + 2} is invalid`);
  return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
});
const options = { threshold: 0.8, jsonl: false };
const c0 = process.cpuUsage();
const t1 = performance.now();
const first = screenChunk(engine, rows.slice(0, 5000), options);
const t2 = performance.now();
const rest = screenChunk(engine, rows.slice(5000), options);
const t3 = performance.now();
const cpu = process.cpuUsage(c0);
console.log(
  `${path.basename(repo)}: restore ${restoreMs.toFixed(0)} ms; first 5,000 rows ${((t2 - t1) / 5000).toFixed(3)} ms/name, next 20,000 ${((t3 - t2) / 20000).toFixed(3)} ms/name; ` +
    `CPU ${((cpu.user + cpu.system) / 1e3 / 25000).toFixed(3)} ms/name; flagged ${first.flagged + rest.flagged}`,
);
