/**
 * Precision evidence of issue 27, measured on one matcher checkout:
 * `npx tsx bench/screening/precision.ts [--root DIR] [--data DIR] [--json OUT] [--half tuning|held_back|both]`.
 *
 * `--root` is the repository whose src/screening the engine comes from (default: this one); the sets
 * always come from this checkout, so an older commit checked out elsewhere (`git worktree add`) is
 * measured on exactly the same people and pairs: that is how RESULTS.md gets its before/after columns
 * from one run (run.ts --baseline DIR).
 *
 * Measures, at the engine's default threshold:
 *  - the multicultural innocents (innocents/multicultural.ts): flagged per 100, screened by name only
 *    and with their date of birth, against every bundled list; per culture, per form, per list category
 *    (sanctions or other), for the tuning and the held-back halves;
 *  - the positive and negative pair classes of dev-sets/precision/ (tuning and held-back halves);
 *  - every other positive class of run.ts (development pairs, hand-made pairs, the hard classes of
 *    dev-sets/) and the UN-listed persons by listed name, so before and after come from one process each.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ListEntity } from '../../src/screening/model';
import { buildDevPairs, dataDirArg, loadClassPairs, loadHandmadePairs, type LabelledPair } from './devsets';
import { CULTURES, multiculturalInnocents, type Innocent } from './innocents/multicultural';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface Rate {
  n: number;
  flagged: number;
  sanctions: number;
  other: number;
  /** Flagged with a whole name equal to a listed name (a hit of name similarity ≥ 0.995): an exact collision. */
  exact?: number;
  /** The verdict the product gives (list agents + risk scorer, see verdictOf): critical and high. */
  critical?: number;
  high?: number;
}
export interface PairCounts {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}
export interface Alert {
  id: number;
  culture: string;
  half: string;
  name: string;
  hit: string;
  list: string;
  score: number;
  sanctions: boolean;
  /** The whole name equals a listed name (name similarity ≥ 0.995). */
  exact?: boolean;
  /** The product's verdict level for this name alone (verdictOf). */
  level?: string;
  /** The token alignment, "query~listed:how" each (for reading the alert). */
  detail: string;
}
export interface PrecisionFigures {
  root: string;
  commit: string;
  threshold: number;
  /** key: `${mode}|${half}|${group}` with mode name_only|with_dob, half tuning|held_back|all, group all|<culture>|native|roman. */
  innocents: Record<string, Rate>;
  /** Name-only alerts (every one, for the read sample). */
  alerts: Alert[];
  /** key: `${class}|${half}` for dev-sets/precision; `${set}:${class}` for the others. */
  pairs: Record<string, PairCounts>;
  un: { n: number; found: number };
  cpuMsPerInnocent: number;
}

const blank = (): Rate => ({ n: 0, flagged: 0, sanctions: 0, other: 0, exact: 0, critical: 0, high: 0 });

/** Name similarity from which a hit counts as an exact collision (confirmation.ts EXACT_NAME_SIMILARITY). */
const EXACT_SIMILARITY = 0.995;

/**
 * The verdict level the product gives a name (and DOB) alone, from the checkout at `root`: the list
 * agents (sanctions, PEP, offshore leaks, debarment: one hit per real-world entity, each assessed as
 * confirmed or potential) run over `engine` for an S1 CDD subject with no entity type given, and the
 * risk scorer (src/reports/risk-score.ts, its floors included) scores their hits with nothing else
 * known (no country, no media, no registries). Only called for a flagged name: with no engine hit at
 * the default threshold, no list agent reports a hit and the verdict is low.
 */
async function verdictOf(root: string, engine: EngineLike): Promise<(name: string, birthDate?: string) => Promise<string>> {
  const lists = await import(pathToFileURL(path.join(root, 'src/agents/lists/list-agents.ts')).href);
  const scoring = await import(pathToFileURL(path.join(root, 'src/reports/risk-score.ts')).href);
  const agents: { run(s: object, o: { signal: AbortSignal }): Promise<{ hits?: { category: string }[] }> }[] = lists.createListAgents(() => engine);
  const signal = new AbortController().signal;
  return async (name, birthDate) => {
    const hits: Record<string, unknown[]> = { sanctions: [], pep: [], adverse_media: [], offshore_leaks: [], debarment: [] };
    for (const agent of agents) {
      const outcome = await agent.run({ workflow: 'precision-bench', name, entityType: 'individual', entityTypeDefaulted: true, ...(birthDate ? { birthDate } : {}) }, { signal });
      for (const h of outcome.hits ?? []) hits[h.category]!.push(h);
    }
    return (scoring.computeRiskScore({ hits }) as { riskLevel: string }).riskLevel;
  };
}

/** The checkout's commit: git's, or the first word of a COMMIT file in an exported tree (git archive). */
async function commitOf(root: string): Promise<string> {
  const { execSync } = await import('node:child_process');
  try {
    return execSync('git rev-parse --short HEAD', { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return readFileSync(path.join(root, 'COMMIT'), 'utf8').trim().split(/\s+/)[0] ?? 'unknown';
  }
}

export interface PrecisionPair extends LabelledPair {
  half: 'tuning' | 'held_back';
}

/** dev-sets/precision/*.tsv: class, query, listed, schema, label, how, half. */
export function loadPrecisionPairs(dir = path.join(here, 'dev-sets/precision')): PrecisionPair[] {
  const out: PrecisionPair[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.tsv')).sort()) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n').slice(1)) {
      if (!line.trim()) continue;
      const [category, name1, name2, schema, label, , half] = line.split('\t');
      out.push({ category, name1, name2, schema, label: label === '1', half: half === 'held_back' ? 'held_back' : 'tuning' });
    }
  }
  return out;
}

/** What both sides need of an engine (an older checkout's engine has the same methods). */
export interface EngineLike {
  defaultThreshold: number;
  screen(
    q: { name: string; birthDate?: string },
    o?: { limit?: number },
  ): { entity: { id: string; source: string; topics: string[] }; score: number; explanation: { matchedName: string; nameScore: number; alignment: { query: string; candidate: string; how: string }[] } }[];
  compare(a: string, b: string, schema?: string, listed?: { country: string; countries: string[] }): { score: number };
}

/** Load the lists and build the engine of the checkout at `root`, then measure it. */
export async function measure(root: string, dataDir: string, halves: ('tuning' | 'held_back')[] = ['tuning', 'held_back']): Promise<PrecisionFigures> {
  const lists = await import(pathToFileURL(path.join(root, 'src/screening/lists/index.ts')).href);
  const { ScreeningEngine } = await import(pathToFileURL(path.join(root, 'src/screening/engine.ts')).href);
  const loaded = await lists.loadAllLists({ lists: lists.listsFromRoot(dataDir, { includeOptIn: true }) }, { progressBar: false });
  // A data directory that is not there loads nothing, and every rate would read 0.00: not a figure.
  if (!loaded.entities.length) throw new Error(`no list entities loaded from ${dataDir}: pass --data <the shared data directory>`);
  return measureEngine(ScreeningEngine.build(loaded.entities, loaded.versions), loaded.entities, root, halves);
}

/** Measure an engine built over `entities` (all bundled lists) from the checkout at `root`. */
export async function measureEngine(
  engine: EngineLike,
  entities: ListEntity[],
  root: string,
  halves: ('tuning' | 'held_back')[] = ['tuning', 'held_back'],
): Promise<PrecisionFigures> {
  const loaded = { entities };
  const threshold = engine.defaultThreshold;
  const commit = await commitOf(root);
  const verdict = await verdictOf(root, engine);

  // ---------- innocents
  const innocents: Record<string, Rate> = {};
  const alerts: Alert[] = [];
  const people = multiculturalInnocents().filter((p) => halves.includes(p.half));
  const add = (mode: string, p: Innocent, hits: ReturnType<EngineLike['screen']>, level: string) => {
    const sanctions = hits.some((h) => h.entity.topics.includes('sanctions'));
    const exact = hits.some((h) => h.explanation.nameScore >= EXACT_SIMILARITY);
    for (const half of [p.half, 'all']) {
      for (const group of ['all', p.culture, p.form]) {
        const key = `${mode}|${half}|${group}`;
        const r = (innocents[key] ??= blank());
        r.n++;
        if (hits.length) {
          r.flagged++;
          if (sanctions) r.sanctions++;
          else r.other++;
          if (exact) r.exact!++;
        }
        if (level === 'critical') r.critical!++;
        if (level === 'high') r.high!++;
      }
    }
  };
  let cpuMs = 0;
  const cpuSince = (u: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(u);
    cpuMs += (d.user + d.system) / 1000;
  };
  for (const p of people) {
    let u = process.cpuUsage();
    const hits = engine.screen({ name: p.name }, { limit: 10 });
    cpuSince(u);
    const level = hits.length ? await verdict(p.name) : 'low';
    add('name_only', p, hits, level);
    if (hits.length) {
      const h = hits.find((x) => x.entity.topics.includes('sanctions')) ?? hits[0];
      alerts.push({
        id: p.id,
        culture: p.culture,
        half: p.half,
        name: p.name,
        hit: h.explanation.matchedName,
        list: h.entity.id,
        score: h.score,
        sanctions: h.entity.topics.includes('sanctions'),
        exact: hits.some((x) => x.explanation.nameScore >= EXACT_SIMILARITY),
        level,
        detail: h.explanation.alignment.map((x) => `${x.query}~${x.candidate}:${x.how}`).join(' '),
      });
    }
    u = process.cpuUsage();
    const withDob = engine.screen({ name: p.name, birthDate: p.birthDate }, { limit: 10 });
    cpuSince(u);
    add('with_dob', p, withDob, withDob.length ? await verdict(p.name, p.birthDate) : 'low');
  }
  const cpuMsPerInnocent = cpuMs / (2 * people.length);

  // ---------- pair classes
  const pairs: Record<string, PairCounts> = {};
  const count = (key: string, label: boolean, score: number) => {
    const c = (pairs[key] ??= { tp: 0, fn: 0, fp: 0, tn: 0 });
    const hit = score >= threshold;
    c[label ? (hit ? 'tp' : 'fn') : hit ? 'fp' : 'tn']++;
  };
  for (const p of loadPrecisionPairs()) count(`${p.category}|${p.half}`, p.label, engine.compare(p.name1, p.name2, p.schema).score);
  const sets: [string, LabelledPair[]][] = [
    ['dev', buildDevPairs(loaded.entities)],
    ['hand', loadHandmadePairs(path.join(here, '../data/pairs_handmade.csv'))],
    ['hard', loadClassPairs(path.join(here, 'dev-sets'))],
  ];
  for (const [set, ps] of sets) {
    for (const p of ps) {
      const s = engine.compare(p.name1, p.name2, p.schema, p.listed).score;
      count(`${set}:${p.category}`, p.label, s);
      count(`${set}:all`, p.label, s);
    }
  }
  // The same true development pairs as alerts: the first name screened alone (no type, no DOB) finds the
  // entity the pair was built from. An alert-level rule (a partial match on a common name raises none)
  // leaves the pair score alone, so only this shows what it costs.
  for (const p of sets[0][1]) {
    if (!p.label || !p.entityId) continue;
    const found = engine.screen({ name: p.name1 }, { limit: 50 }).some((h) => h.entity.id === p.entityId);
    for (const k of [`dev-alert:${p.category}`, 'dev-alert:all']) {
      const c = (pairs[k] ??= { tp: 0, fn: 0, fp: 0, tn: 0 });
      c[found ? 'tp' : 'fn']++;
    }
  }

  // ---------- UN-listed persons by listed name
  const un = loaded.entities.filter((e) => e.source === 'un_sc' && e.schema === 'person');
  let found = 0;
  for (const e of un) if (engine.screen({ name: e.primaryName }, { limit: 100 }).some((x) => x.entity.id === e.id)) found++;

  return { root, commit, threshold, innocents, alerts, pairs, un: { n: un.length, found }, cpuMsPerInnocent };
}

export const CULTURE_ORDER = CULTURES;

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const opt = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
  const root = path.resolve(opt('--root') ?? path.join(here, '../..'));
  const dataDir = dataDirArg(args);
  const half = opt('--half');
  const halves: ('tuning' | 'held_back')[] = half === 'tuning' ? ['tuning'] : half === 'held_back' ? ['held_back'] : ['tuning', 'held_back'];
  const fig = await measure(root, dataDir, halves);
  const out = opt('--json');
  if (out) writeFileSync(out, JSON.stringify(fig));
  const r = (k: string) => fig.innocents[k];
  const per100 = (x: number, n: number) => ((100 * x) / (n || 1)).toFixed(2);
  for (const mode of ['name_only', 'with_dob']) {
    for (const h of ['tuning', 'held_back', 'all']) {
      const a = r(`${mode}|${h}|all`);
      if (a) {
        console.log(
          `${mode} ${h}: flagged ${per100(a.flagged, a.n)} per 100 (sanctions ${per100(a.sanctions, a.n)}, other ${per100(a.other, a.n)}; ` +
            `exact collisions ${per100(a.exact ?? 0, a.n)}), critical ${per100(a.critical ?? 0, a.n)}, high ${per100(a.high ?? 0, a.n)} of ${a.n}`,
        );
      }
    }
  }
  for (const c of CULTURES) {
    const a = r(`name_only|all|${c}`);
    if (a) console.log(`  ${c}: ${per100(a.flagged, a.n)} (sanctions ${per100(a.sanctions, a.n)})`);
  }
  for (const [k, c] of Object.entries(fig.pairs).sort()) console.log(`  ${k}: TP ${c.tp} FN ${c.fn} FP ${c.fp} TN ${c.tn}`);
  console.log(`UN ${fig.un.found}/${fig.un.n}; CPU ${fig.cpuMsPerInnocent.toFixed(3)} ms per innocent screening`);
  if (args.includes('--alerts')) for (const a of fig.alerts.filter((x) => halves.includes(x.half as 'tuning'))) console.log(`${a.half}\t${a.culture}\t${a.name}\t→ ${a.hit}\t${a.list}\t${a.score}\t${a.level}${a.exact ? ' exact' : ''}\t${a.detail}`);
}
