/**
 * One engine's memory and per-name CPU in one thread: the lists of a checkout loaded, its engine built,
 * then n rows of the batch input (bench/batch/input.ts) screened at 0.8; live heap and RSS after a
 * full GC at each step, and the thread's peak RSS. Run two checkouts side by side to compare:
 *   node --expose-gc --import tsx bench/batch/mem-probe.ts <checkout> [rows]
 */
import path from 'node:path';
import { parse } from 'csv-parse/sync';
const repo = path.resolve(process.argv[2] ?? '.');
const n = Number(process.argv[3] ?? 6000);
const { loadAllLists } = await import(path.join(repo, 'src/screening/lists/index.ts'));
const { listsConfig } = await import(path.join(repo, 'src/screening/lists/config.ts'));
const { ScreeningEngine, toEntitySchema } = await import(path.join(repo, 'src/screening/engine.ts'));
process.chdir(repo);
const { batchInput } = await import(path.join(repo, 'bench/batch/input.ts'));
const lists = await loadAllLists(listsConfig({ listsDir: path.join(repo, 'lists') }), { progressBar: false });
const e = ScreeningEngine.build(lists.entities, lists.versions);
const mb = () => { global.gc!(); const m = process.memoryUsage(); return `heap ${(m.heapUsed / 1e6).toFixed(0)} MB rss ${(m.rss / 1e6).toFixed(0)} MB`; };
console.log('built', e.stats().names, 'names', mb());
const rows = parse(batchInput(n), { columns: true }) as Record<string, string>[];
const c0 = process.cpuUsage();
for (const r of rows) e.screen({ name: r.name, schema: toEntitySchema(r.entity_type || undefined) }, { threshold: 0.8 });
const c = process.cpuUsage(c0);
console.log(`after ${n} rows`, mb(), `cpu ${((c.user + c.system) / 1000 / n).toFixed(3)} ms/name, peak rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
