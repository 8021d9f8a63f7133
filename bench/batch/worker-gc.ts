/**
 * Per-name CPU of a batch worker with V8's default young generation against one with a larger one
 * (startWorkerPool's `youngGenerationMb`), in one process: one pool of one worker per setting, on the
 * same entities and rows (bench/batch/input.ts), alternated chunk by chunk so the shared machine's
 * load hits both alike; the result CSVs must be identical. Peak RSS is not measured here (run the
 * CLI under /usr/bin/time for that).
 *   node --import tsx bench/batch/worker-gc.ts [young MB, 0 = V8 default] [rows per round] [rounds]
 */
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { startWorkerPool } from '../../src/app/batch-screening/batch';
import { loadAllLists } from '../../src/screening/lists/index';
import { listsConfig } from '../../src/screening/lists/config';
import { parseScreeningInput } from '../../src/screening/query-input';
import { batchInput } from './input';

const young = Number(process.argv[2] ?? 64);
const n = Number(process.argv[3] ?? 2000);
const rounds = Number(process.argv[4] ?? 3);
const lists = await loadAllLists(listsConfig({ listsDir: path.resolve('lists') }), { progressBar: false });
const today = new Date().toISOString().slice(0, 10);
const rows = (parse(batchInput(n * rounds + 500), { columns: true }) as Record<string, string>[]).map((r, i) => {
  const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, today);
  if (!p.ok) throw new Error(`bench input row ${i + 2} is invalid`);
  return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
});
const options = { threshold: 0.8, jsonl: false };
const pools = {
  base: await startWorkerPool({ entities: lists.entities, versions: lists.versions, options, workers: 1, youngGenerationMb: 0 }),
  young: await startWorkerPool({ entities: lists.entities, versions: lists.versions, options, workers: 1, youngGenerationMb: young }),
};
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
// one unmeasured chunk each: each worker compiles the matcher's hot code for itself
await pools.base.screen(rows.slice(0, 500));
await pools.young.screen(rows.slice(0, 500));
const acc = { base: { cpu: 0, wall: 0, csv: '' }, young: { cpu: 0, wall: 0, csv: '' } };
for (let r = 0; r < rounds; r++) {
  const chunk = rows.slice(500 + r * n, 500 + (r + 1) * n);
  const order = r % 2 === 0 ? (['base', 'young'] as const) : (['young', 'base'] as const);
  for (const k of order) {
    const c0 = cpuMs();
    const t0 = performance.now();
    const res = await pools[k].screen(chunk);
    acc[k].wall += performance.now() - t0;
    acc[k].cpu += cpuMs() - c0;
    acc[k].csv += res.csv;
  }
}
await pools.base.close();
await pools.young.close();
const per = (ms: number) => (ms / (n * rounds)).toFixed(3);
console.log(`young generation ${young} MB vs V8 default, ${rounds} x ${n} rows, machine ${process.arch} ${(await import('node:os')).cpus().length} cores (shared: ratios only)`);
console.log(`cpu ms/name: default ${per(acc.base.cpu)}, young ${per(acc.young.cpu)}, ratio ${(acc.base.cpu / acc.young.cpu).toFixed(2)}x`);
console.log(`wall ms/name: default ${per(acc.base.wall)}, young ${per(acc.young.wall)}, ratio ${(acc.base.wall / acc.young.wall).toFixed(2)}x`);
console.log(`result CSVs identical: ${acc.base.csv === acc.young.csv}`);
if (acc.base.csv !== acc.young.csv) process.exitCode = 1;
