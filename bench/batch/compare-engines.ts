/**
 * Batch per-name CPU of this checkout's engine against another checkout's, in one process, on the
 * same loaded lists and the same rows (bench/batch/input.ts), alternated chunk by chunk so machine
 * load hits both alike, each running first in every other chunk (use an even number of rounds); also
 * checks the two write identical result CSVs and JSON lines (hits with their explanations).
 *   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   node --import tsx bench/batch/compare-engines.ts /tmp/before . [rows per round] [rounds]
 */
import path from 'node:path';
const [oldRepo, newRepo] = [path.resolve(process.argv[2]), path.resolve(process.argv[3] ?? '.')];
const n = Number(process.argv[4] ?? 2000);
const rounds = Number(process.argv[5] ?? 3);
const { parse } = await import(path.join(newRepo, 'node_modules/csv-parse/dist/esm/sync.js'));
const load = async (repo: string) => ({
  rows: await import(path.join(repo, 'src/app/batch-screening/rows.ts')),
  engine: await import(path.join(repo, 'src/screening/engine.ts')),
});
const A = await load(oldRepo);
const B = await load(newRepo);
const { loadAllLists } = await import(path.join(newRepo, 'src/screening/lists/index.ts'));
const { listsConfig } = await import(path.join(newRepo, 'src/screening/lists/config.ts'));
const { parseScreeningInput } = await import(path.join(newRepo, 'src/screening/query-input.ts'));
process.chdir(newRepo);
const { batchInput } = await import(path.join(newRepo, 'bench/batch/input.ts'));
const lists = await loadAllLists(listsConfig({ listsDir: path.join(newRepo, 'lists') }), { progressBar: false });
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
let c = cpu();
const ea = A.engine.ScreeningEngine.build(lists.entities, lists.versions);
const buildA = cpu() - c; c = cpu();
const eb = B.engine.ScreeningEngine.build(lists.entities, lists.versions);
const buildB = cpu() - c;
console.log(`build cpu ms: before ${buildA.toFixed(0)}, after ${buildB.toFixed(0)} (the second build runs on a bigger heap)`);
const csv = batchInput(n * rounds + 500);
const today = new Date().toISOString().slice(0, 10);
const rows = (parse(csv, { columns: true }) as Record<string, string>[]).map((r, i) => {
  const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, today);
  if (!p.ok) throw new Error('bad');
  return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
});
// (with the JSON lines too: every hit's explanation must be the same)
const options = { threshold: 0.8, jsonl: true };
A.rows.screenChunk(ea, rows.slice(0, 500), options);
B.rows.screenChunk(eb, rows.slice(0, 500), options);
let ta = 0, tb = 0;
let same = true;
for (let r = 0; r < rounds; r++) {
  const chunk = rows.slice(500 + r * n, 500 + (r + 1) * n);
  // the engine that runs second in a chunk measures differently (heap, caches): alternate the order
  let ra, rb;
  if (r % 2 === 0) {
    c = cpu(); ra = A.rows.screenChunk(ea, chunk, options); ta += cpu() - c;
    c = cpu(); rb = B.rows.screenChunk(eb, chunk, options); tb += cpu() - c;
  } else {
    c = cpu(); rb = B.rows.screenChunk(eb, chunk, options); tb += cpu() - c;
    c = cpu(); ra = A.rows.screenChunk(ea, chunk, options); ta += cpu() - c;
  }
  if (ra.csv !== rb.csv || ra.jsonl !== rb.jsonl) same = false;
}
if (!same) process.exitCode = 1;
console.log(`before ${(ta / (n * rounds)).toFixed(3)} ms/name cpu, after ${(tb / (n * rounds)).toFixed(3)} ms/name cpu, ratio ${(ta / tb).toFixed(2)}x, identical csv and explanations ${same}`);
