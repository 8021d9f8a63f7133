/**
 * Internal-list matching quality (issue 21): the policy of src/screening/watchlists/match-policy.ts
 * against two baselines measured in the same run on the same pairs:
 *  - name only: the screening matcher's name comparison (ScreeningEngine.compare) at its default
 *    threshold 0.8, which is what an internal list would get with no policy at all;
 *  - official-list policy: the screening engine as it screens the official lists (name + DOB and
 *    country qualifiers, threshold 0.8) with the entry indexed as a list entity.
 * Pairs: bench/watchlists/devset.jsonl (devset-generate.ts). The policy was tuned on this very set, so
 * its figures are optimistic: a development set, not a held-out test.
 *   npx tsx bench/watchlists/run.ts        (writes bench/watchlists/RESULTS.md)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { ScreeningEngine } from '../../src/screening/engine';
import type { ListEntity } from '../../src/screening/model';
import { scoreWatchlistCandidate } from '../../src/screening/watchlists/match-policy';
import type { DevPair } from './devset-generate';

const pairs: DevPair[] = readFileSync(new URL('./devset.jsonl', import.meta.url), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

function asListEntity(p: DevPair, i: number): ListEntity {
  const e = p.entry;
  return {
    id: `internal:${i}`,
    source: 'internal_dev',
    sourceId: String(i),
    listVersion: 'internal_dev@0',
    topics: ['sanctions'],
    schema: 'person',
    primaryName: e.primaryName,
    names: [{ value: e.primaryName, kind: 'primary' }, ...(e.aliases ?? []).map((a) => ({ value: typeof a === 'string' ? a : a.name, kind: 'strong_alias' as const }))],
    birthDates: (e.datesOfBirth ?? []).map((d) => ({ date: d, raw: d })),
    birthPlaces: [],
    nationalities: [...(e.nationalities ?? [])],
    countries: [],
    addresses: (e.addresses ?? []).map((a) => ({ street: a.line, city: a.city, postalCode: a.postalCode, country: a.country })),
    identifiers: (e.identifiers ?? []).map((x) => ({ type: x.kind, value: x.value, country: x.country })),
    programs: [],
  };
}

/** DD/MM/YYYY as the engine's qualifiers read it (they take it day first as well). */
const engineDob = (d: string | undefined) => d;

type Method = 'policy' | 'policy_confirmed' | 'name_only' | 'official_policy';
const METHODS: Method[] = ['policy', 'policy_confirmed', 'name_only', 'official_policy'];
const LABEL: Record<Method, string> = {
  policy: 'internal-list policy (confirmed or potential alerts)',
  policy_confirmed: 'internal-list policy (confirmed only)',
  name_only: 'baseline: name only (matcher name score ≥ 0.8)',
  official_policy: 'baseline: official-list scoring (name + DOB/country qualifiers ≥ 0.8)',
};

const nameEngine = ScreeningEngine.build([], []);
const decisions = new Map<Method, boolean[]>(METHODS.map((m) => [m, []]));
const timings: Record<Method, number> = { policy: 0, policy_confirmed: 0, name_only: 0, official_policy: 0 };
const misses: string[] = [];
pairs.forEach((p, i) => {
  let t = performance.now();
  const r = scoreWatchlistCandidate(p.subject, p.entry);
  timings.policy += performance.now() - t;
  decisions.get('policy')!.push(r.strength !== 'none');
  decisions.get('policy_confirmed')!.push(r.strength === 'confirmed');
  if ((r.strength !== 'none') !== (p.label === 'match')) misses.push(`- ${p.id} (${p.label}, policy said ${r.strength}, score ${r.score}): ${p.note}. ${r.summary}`);
  t = performance.now();
  const names = [p.entry.primaryName, ...(p.entry.aliases ?? []).map((a) => (typeof a === 'string' ? a : a.name))];
  decisions.get('name_only')!.push(names.some((n) => nameEngine.compare(p.subject.name, n, 'person').score >= 0.8));
  timings.name_only += performance.now() - t;
  t = performance.now();
  const engine = ScreeningEngine.build([asListEntity(p, i)], []);
  const hits = engine.screen({ name: p.subject.name, schema: 'person', birthDate: engineDob(p.subject.birthDate), country: p.subject.country });
  decisions.get('official_policy')!.push(hits.length > 0);
  timings.official_policy += performance.now() - t;
});

interface Counts { tp: number; fp: number; fn: number; tn: number }
function counts(method: Method, cls?: string): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const d = decisions.get(method)!;
  pairs.forEach((p, i) => {
    if (cls && p.class !== cls) return;
    const truth = p.label === 'match';
    if (d[i] && truth) c.tp++;
    else if (d[i]) c.fp++;
    else if (truth) c.fn++;
    else c.tn++;
  });
  return c;
}
const prf = (c: Counts) => {
  const p = c.tp + c.fp ? c.tp / (c.tp + c.fp) : NaN;
  const r = c.tp + c.fn ? c.tp / (c.tp + c.fn) : NaN;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : NaN };
};
const f = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(3));

const out: string[] = [];
const log = (s = '') => {
  out.push(s);
  console.log(s);
};
const classes = [...new Set(pairs.map((p) => p.class))];
const machine = `${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} cores, Node ${process.version}`;
log('# Internal-list matching: development-set results');
log();
log(`Generated by \`npx tsx bench/watchlists/run.ts\` on ${new Date().toISOString().slice(0, 10)} (${machine}).`);
log(`Pairs: ${pairs.length} from bench/watchlists/devset.jsonl (${pairs.filter((p) => p.label === 'match').length} match, ${pairs.filter((p) => p.label === 'no_match').length} no match), written by devset-generate.ts.`);
log();
log('**These figures are optimistic.** The policy (weights, thresholds, the nickname table) was developed on this');
log('very set, and the set\'s short forms come from the same nickname table the policy uses: it shows the policy');
log('does what it was designed to do on these kinds of pairs, not how it will do on a firm\'s real data.');
log();
log('## Overall');
log();
log('| method | precision | recall | F1 | TP | FP | FN | TN |');
log('|---|---|---|---|---|---|---|---|');
for (const m of METHODS) {
  const c = counts(m);
  const s = prf(c);
  log(`| ${LABEL[m]} | ${f(s.p)} | ${f(s.r)} | ${f(s.f1)} | ${c.tp} | ${c.fp} | ${c.fn} | ${c.tn} |`);
}
const pol = prf(counts('policy'));
const base = prf(counts('name_only'));
const off = prf(counts('official_policy'));
log();
log(`F1 ratio, policy / name only: ${(pol.f1 / base.f1).toFixed(2)}×; policy / official-list scoring: ${(pol.f1 / off.f1).toFixed(2)}×.`);
log(`False alerts: policy ${counts('policy').fp}, name only ${counts('name_only').fp}, official-list scoring ${counts('official_policy').fp} (of ${pairs.filter((p) => p.label === 'no_match').length} no-match pairs).`);
log();
log('## Per class');
log();
log('Each class holds the matches of its kind and the hard negatives that look like them (P/R/F1 on its own pairs).');
log();
log('| class | pairs (match/no) | policy P / R / F1 | name only P / R / F1 | official-list scoring P / R / F1 |');
log('|---|---|---|---|---|');
for (const cls of classes) {
  const n = pairs.filter((p) => p.class === cls);
  const cell = (m: Method) => {
    const s = prf(counts(m, cls));
    return `${f(s.p)} / ${f(s.r)} / ${f(s.f1)}`;
  };
  log(`| ${cls} | ${n.filter((p) => p.label === 'match').length}/${n.filter((p) => p.label === 'no_match').length} | ${cell('policy')} | ${cell('name_only')} | ${cell('official_policy')} |`);
}
log();
log('## Time (same run, noisy shared machine: ratio only)');
log();
log(`Per pair: policy ${(timings.policy / pairs.length * 1000).toFixed(0)} µs, name-only comparison ${(timings.name_only / pairs.length * 1000).toFixed(0)} µs (policy / name only ${(timings.policy / timings.name_only).toFixed(1)}×; the official-list column also builds a one-entity index per pair and is not comparable).`);
log(`Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${os.cpus().length} cores.`);
log();
log(`## Policy errors (${misses.length})`);
log();
for (const m of misses) log(m);
// the truth-set section (truthset.ts) is kept as it is
const resultsFile = new URL('./RESULTS.md', import.meta.url);
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
const kept = previous.includes('<!-- truthset:start -->') ? `\n${previous.slice(previous.indexOf('<!-- truthset:start -->'))}` : '';
writeFileSync(resultsFile, out.join('\n') + '\n' + kept);
