/**
 * CPU profile of the batch screening path of one checkout (rows.ts screenChunk on its engine, after
 * 500 warm-up rows), for finding where per-name time goes; prints CPU ms per name.
 *   node --import tsx bench/batch/profile-screen.ts <checkout> [rows] [out.cpuprofile]
 * (Open the profile in Chrome DevTools; the batch runs under tsx as here, keepNames included.)
 */
import path from 'node:path';
const repo = path.resolve(process.argv[2] ?? '.');
const n = Number(process.argv[3] ?? 3000);
const { parse } = await import(path.join(repo, 'node_modules/csv-parse/dist/esm/sync.js'));
const rowsM = await import(path.join(repo, 'src/app/batch-screening/rows.ts'));
const { ScreeningEngine } = await import(path.join(repo, 'src/screening/engine.ts'));
const { loadAllLists } = await import(path.join(repo, 'src/screening/lists/index.ts'));
const { listsConfig } = await import(path.join(repo, 'src/screening/lists/config.ts'));
const { parseScreeningInput } = await import(path.join(repo, 'src/screening/query-input.ts'));
process.chdir(repo);
const { batchInput } = await import(path.join(repo, 'bench/batch/input.ts'));
const lists = await loadAllLists(listsConfig({ listsDir: path.join(repo, 'lists') }), { progressBar: false });
const e = ScreeningEngine.build(lists.entities, lists.versions);
const today = new Date().toISOString().slice(0, 10);
const rows = (parse(batchInput(n + 500), { columns: true }) as Record<string, string>[]).map((r, i) => {
  const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, today);
  if (!p.ok) throw new Error('bad');
  return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
});
const options = { threshold: 0.8, jsonl: false };
rowsM.screenChunk(e, rows.slice(0, 500), options);
const { Session } = await import('node:inspector/promises');
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 200 }); await s.post('Profiler.start');
const c0 = process.cpuUsage();
const r = rowsM.screenChunk(e, rows.slice(500), options);
const c = process.cpuUsage(c0);
const { profile } = await s.post('Profiler.stop');
(await import('node:fs')).writeFileSync(process.argv[4] ?? '/tmp/batch-screen.cpuprofile', JSON.stringify(profile));
console.log(`cpu ${((c.user + c.system) / 1000 / n).toFixed(3)} ms/name flagged ${r.flagged}`);
