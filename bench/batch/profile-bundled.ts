/**
 * CPU profile of the batch screening path (rows.ts screenChunk) with real line numbers: under tsx every
 * module is one line to the profiler, so bench/batch/profile-bundled.sh bundles this file with esbuild
 * first (no keepNames wrappers either). `WARM` rows are screened before the profile (default 500; 10000
 * gives the steady state a 25,000-row worker spends most of its time in).
 *   bench/batch/profile-bundled.sh [rows] [out.cpuprofile]
 */
import { parse } from 'csv-parse/sync';
import * as rowsM from '../../src/app/batch-screening/rows';
import { ScreeningEngine } from '../../src/screening/engine';
import { loadAllLists } from '../../src/screening/lists/index';
import { listsConfig } from '../../src/screening/lists/config';
import { parseScreeningInput } from '../../src/screening/query-input';
import { batchInput } from './input';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const n = Number(process.argv[2] ?? 3000);
const warm = Number(process.env.WARM ?? 500);
const lists = await loadAllLists(listsConfig({ listsDir: 'lists' }), { progressBar: false });
const e = ScreeningEngine.build(lists.entities, lists.versions);
const today = new Date().toISOString().slice(0, 10);
const rows = (parse(batchInput(n + warm), { columns: true }) as Record<string, string>[]).map((r, i) => {
  const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, today);
  if (!p.ok) throw new Error('bad');
  return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
});
const options = { threshold: 0.8, jsonl: false };
rowsM.screenChunk(e, rows.slice(0, warm), options);
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 200 }); await s.post('Profiler.start');

const c0 = process.cpuUsage();
const r = rowsM.screenChunk(e, rows.slice(warm), options);
const c = process.cpuUsage(c0);
const { profile } = await s.post('Profiler.stop');
writeFileSync(process.argv[3] ?? '/tmp/batch-screen.cpuprofile', JSON.stringify(profile));

console.log(`cpu ${((c.user + c.system) / 1000 / n).toFixed(3)} ms/name flagged ${r.flagged}`);
