/**
 * The candidate lookup's pruning (NameIndex.lookupPruned) must be exact: on the real lists, for a large
 * sample of queries (batch rows: US persons and perturbed list names; the generated dev pairs from
 * the lists, both sides; the issue-20 class dev sets, both sides; innocent-style names), the
 * candidates (names, weights, order) with and without pruning, at both candidate shares the engine
 * uses, and the hits of the engine on a subset. Also the lookup's CPU both ways, alternated.
 *   npx tsx bench/screening/check-pruning.ts [--data ../shared/data] [--rows 20000]
 * Exits 1 on any difference.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { ScreeningEngine, toEntitySchema } from '../../src/screening/engine';
import { listsFromRoot, loadAllLists } from '../../src/screening/lists/index';
import type { NameIndex } from '../../src/screening/matching/name-index';
import { prepareName } from '../../src/screening/matching/prepare';
import { buildDevPairs, loadClassPairs } from './devsets';
import { batchInput } from '../batch/input';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
const dataDir = path.resolve(arg('--data') ?? path.join(here, '../../../shared/data'));
const rows = Number(arg('--rows') ?? 20000);

const loaded = await loadAllLists({ lists: listsFromRoot(dataDir, { includeOptIn: true }) }, { progressBar: false });
const engine = ScreeningEngine.build(loaded.entities, loaded.versions);
const index = engine['index'] as NameIndex;

const queries: { name: string; schema?: ReturnType<typeof toEntitySchema> }[] = [];
for (const r of parse(batchInput(rows), { columns: true }) as Record<string, string>[]) queries.push({ name: r.name, schema: toEntitySchema(r.entity_type || undefined) });
for (const p of [...buildDevPairs(loaded.entities), ...loadClassPairs(path.join(here, 'dev-sets'))]) {
  queries.push({ name: p.name1, schema: toEntitySchema(p.schema) }, { name: p.name2, schema: toEntitySchema(p.schema) }, { name: p.name1 });
}
const prepared = queries.filter((q) => q.name?.trim()).map((q) => prepareName(q.name, q.schema));

let differ = 0;
let pruneMs = 0;
let fullMs = 0;
let compared = 0;
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
for (const minShare of [0.5, 0.25]) {
  for (const q of prepared) {
    index.pruneLookup = false;
    let t = cpu();
    const full = index.candidates(q, 150, minShare);
    fullMs += cpu() - t;
    index.pruneLookup = true;
    t = cpu();
    const pruned = index.candidates(q, 150, minShare);
    pruneMs += cpu() - t;
    compared++;
    try {
      assert.deepEqual(pruned, full);
    } catch {
      if (differ++ < 5) console.error(`candidates differ for "${q.raw}" (share ${minShare})`);
    }
  }
}
// hits of the whole engine (qualifiers included) on every 5th query
let hitsCompared = 0;
let hitsDiffer = 0;
for (let i = 0; i < queries.length; i += 5) {
  const q = queries[i];
  if (!q.name?.trim()) continue;
  const screen = (prune: boolean) => {
    index.pruneLookup = prune;
    return JSON.stringify(engine.screen({ name: q.name, schema: q.schema }, { threshold: 0.8, limit: 1000 }).map((h) => [h.entity.id, h.score, h.explanation]));
  };
  hitsCompared++;
  if (screen(true) !== screen(false)) hitsDiffer++;
}
console.log(`${os.cpus()[0]?.model}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
console.log(`${compared} candidate lookups (${prepared.length} queries x 2 shares): ${differ} differ; ${hitsCompared} engine screenings: ${hitsDiffer} differ`);
console.log(`lookup CPU: full ${fullMs.toFixed(0)} ms, pruned ${pruneMs.toFixed(0)} ms, ratio pruned/full ${(pruneMs / fullMs).toFixed(3)}`);
if (differ || hitsDiffer) process.exitCode = 1;
