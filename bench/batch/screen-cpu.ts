/**
 * Screening CPU per name of one checkout in a process of its own (no other engine in the heap): builds
 * the engine from the bundled lists, then screens `rows` bench rows (bench/batch/input.ts, threshold
 * 0.8) through rows.ts screenChunk like a batch worker, from a cold start (memo, sides, JIT), and
 * prints the CPU per name and a SHA-256 of the CSV and JSON lines written. Alternate two checkouts:
 *   for i in 1 2 3; do for c in /tmp/base .; do node --import tsx bench/batch/screen-cpu.ts $c 10000; done; done
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
const repo = path.resolve(process.argv[2] ?? '.');
const n = Number(process.argv[3] ?? 10000);
const { parse } = await import(path.join(repo, 'node_modules/csv-parse/dist/esm/sync.js'));
const rowsM = await import(path.join(repo, 'src/app/batch-screening/rows.ts'));
const { ScreeningEngine } = await import(path.join(repo, 'src/screening/engine.ts'));
const { loadAllLists } = await import(path.join(repo, 'src/screening/lists/index.ts'));
const { listsConfig } = await import(path.join(repo, 'src/screening/lists/config.ts'));
const { parseScreeningInput } = await import(path.join(repo, 'src/screening/query-input.ts'));
const { batchInput } = await import(path.join(repo, 'bench/batch/input.ts'));
const lists = await loadAllLists(listsConfig({ listsDir: path.join(repo, 'lists') }), { progressBar: false });
const engine = ScreeningEngine.build(lists.entities, lists.versions);
const today = '2026-11-26';
process.chdir(repo);
const rows = (parse(batchInput(n), { columns: true }) as Record<string, string>[]).map((r, i) => {
  const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, today);
  if (!p.ok) throw new Error(`bench row ${i + 2} is invalid`);
  return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
});
const c0 = process.cpuUsage();
const r = rowsM.screenChunk(engine, rows, { threshold: 0.8, jsonl: true });
const c = process.cpuUsage(c0);
const digest = createHash('sha256').update(r.csv).update('\u0000').update(r.jsonl).digest('hex').slice(0, 16);
console.log(`${repo}: ${(((c.user + c.system) / 1000) / n).toFixed(3)} ms/name CPU over ${n} rows, ${r.flagged} flagged, output sha256 ${digest}`);
