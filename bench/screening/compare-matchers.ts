/**
 * Per-query CPU of this matcher against another checkout's, in one process, on the same lists and the
 * same queries, interleaved (so machine load hits both alike):
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   npx tsx bench/screening/compare-matchers.ts --before /tmp/before [--data ../shared/data]
 * Reports CPU ms per query for both and the ratio after/before.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScreeningEngine } from '../../src/screening/engine';
import { listsFromRoot, loadAllLists } from '../../src/screening/lists/index';
import { rng } from './devsets';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
const beforeRoot = arg('--before');
if (!beforeRoot) {
  console.error('usage: compare-matchers.ts --before <checkout of the baseline commit> [--data dir] [--queries n]');
  process.exit(2);
}
const dataDir = path.resolve(arg('--data') ?? path.join(here, '../../../shared/data'));
const n = Number(arg('--queries') ?? 1500);

const before = (await import(path.resolve(beforeRoot, 'src/screening/engine.ts'))) as { ScreeningEngine: typeof ScreeningEngine };
const loaded = await loadAllLists({ lists: listsFromRoot(dataDir, { includeOptIn: true }) }, { progressBar: false });
const eb = before.ScreeningEngine.build(loaded.entities, loaded.versions);
const ea = ScreeningEngine.build(loaded.entities, loaded.versions);
const r = rng(5);
const queries: string[] = [];
for (let i = 0; i < n; i++) queries.push(loaded.entities[Math.floor(r() * loaded.entities.length)].primaryName);
for (const q of queries.slice(0, 200)) {
  eb.screen({ name: q });
  ea.screen({ name: q });
}
let tb = 0;
let ta = 0;
const cpu = (f: () => void) => {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return d.user + d.system;
};
for (let round = 0; round < 2; round++) {
  for (const q of queries) {
    tb += cpu(() => eb.screen({ name: q }));
    ta += cpu(() => ea.screen({ name: q }));
  }
}
const per = (t: number) => (t / 1000 / queries.length / 2).toFixed(3);
console.log(`${os.cpus()[0]?.model}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; ${queries.length} listed primary names x2, interleaved`);
console.log(`CPU per query: before ${per(tb)} ms, after ${per(ta)} ms; ratio after/before ${(ta / tb).toFixed(3)}`);
