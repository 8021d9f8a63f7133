/**
 * Issue 32 measured in one run: foreign names written in other scripts and languages (the development
 * set of devset.ts), innocent native names of those scripts (innocents.ts), and the issue-27
 * multicultural innocents, each with and without the foreign-name readings, and with a baseline
 * checkout when one is given:
 *
 *   npx tsx bench/screening/foreign/run.ts [--data DIR] [--baseline DIR [--baseline-commit HASH]] [--json OUT] [--write] [--cpu N] [--alerts] [--misses]
 *
 * `--alerts` prints every name-only alert of the foreign innocents, `--misses` every development query
 * the last engine does not find (both halves: to classify misses by cause, never to tune on the held-back one).
 *
 * - after: this checkout's engine; without readings: the same engine restored from its index snapshot
 *   with foreignReadings off (everything else the same); before: `--baseline DIR`, a checkout of the
 *   commit before issue 32 (e.g. `git archive <commit> src | tar -x -C DIR`, with a node_modules link),
 *   on the same entities.
 * - recall: a query is found when its listed person is among the hits at the default threshold (any
 *   person entity of the bundled lists with the listed name: the lists repeat one SDN entry);
 *   per form (script or language) and half (tuning / held-back: by person, devset.ts).
 * - innocents: flagged per 100, name only, per group and half; and issue 27's precision figures of each
 *   engine in the same run (../precision.ts measureEngine: the multicultural innocents by name only and
 *   with the date of birth, per half; the positive and negative pair classes; the UN-listed persons).
 * - CPU: process CPU per screening over one fixed mix of names, engines alternated A B B A; the load
 *   average is printed (timings on a shared machine are noisy: the ratio is the figure).
 * `--write` puts the tables into ../RESULTS.md between the issue-32 markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { multiculturalInnocents } from '../innocents/multicultural';
import { measureEngine as measurePrecision, type PrecisionFigures } from '../precision';
import { FORMS, readCases, type ForeignCase, type Form } from './devset';
import { foreignInnocents, type ForeignInnocent, type InnocentGroup } from './innocents';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
const dataDir = path.resolve(opt('--data') ?? path.join(here, '../../../../shared/data'));
const baselineRoot = opt('--baseline');
const cpuRounds = Number(opt('--cpu') ?? 2);

interface Hit {
  entity: { id: string; topics: string[] };
  score: number;
  explanation: { matchedName: string; alignment: { query: string; candidate: string; how: string }[] };
}
interface EngineLike {
  defaultThreshold: number;
  screen(q: { name: string; birthDate?: string }, o?: { limit?: number }): Hit[];
  indexSnapshot?(): unknown;
}
type Half = 'tuning' | 'held_back';
interface Count {
  n: number;
  hit: number;
}
const blank = (): Count => ({ n: 0, hit: 0 });

interface Figures {
  label: string;
  /** `${form}|${half}` → found / queries. */
  recall: Record<string, Count>;
  /** `${group}|${half}` → flagged / people (name only). */
  innocents: Record<string, Count>;
  /** The issue-27 precision figures of the same engine (../precision.ts measureEngine): multicultural innocents, pair classes, UN. */
  precision?: PrecisionFigures;
  /** Every name-only alert of the foreign innocents (to read). */
  alerts: string[];
  /** Every development query not found: half, form, query, listed name, best hit (to read). */
  misses: string[];
}

/**
 * The entities of each development person: the lists repeat one SDN entry (ofac_sdn and us_csl carry the
 * same person under the same name), so a hit on any person entity with the listed name finds the person.
 */
let samePerson = new Map<string, Set<string>>();
function personEntities(entities: readonly { id: string; schema: string; primaryName: string }[], cases: ForeignCase[]): Map<string, Set<string>> {
  const byName = new Map<string, Set<string>>();
  for (const e of entities) {
    if (e.schema !== 'person') continue;
    const k = e.primaryName.trim().toUpperCase();
    if (!byName.has(k)) byName.set(k, new Set());
    byName.get(k)!.add(e.id);
  }
  return new Map(cases.map((c) => [c.entityId, byName.get(c.listed.trim().toUpperCase()) ?? new Set([c.entityId])]));
}

function measureEngine(label: string, engine: EngineLike, cases: ForeignCase[], innocents: ForeignInnocent[]): Figures {
  const f: Figures = { label, recall: {}, innocents: {}, alerts: [], misses: [] };
  const bump = (m: Record<string, Count>, key: string, hit: boolean) => {
    const c = (m[key] ??= blank());
    c.n++;
    if (hit) c.hit++;
  };
  for (const c of cases) {
    const ids = samePerson.get(c.entityId) ?? new Set([c.entityId]);
    const hits = engine.screen({ name: c.query }, { limit: 25 });
    const found = hits.some((h) => ids.has(h.entity.id));
    if (!found) f.misses.push(`${c.half}\t${c.form}\t${c.query}\t${c.listed}\t${hits[0] ? `${hits[0].explanation.matchedName} ${hits[0].score}` : '-'}`);
    bump(f.recall, `${c.form}|${c.half}`, found);
    bump(f.recall, `${c.form}|all`, found);
  }
  for (const p of innocents) {
    const hits = engine.screen({ name: p.name }, { limit: 3 });
    bump(f.innocents, `${p.group}|${p.half}`, hits.length > 0);
    bump(f.innocents, `${p.group}|all`, hits.length > 0);
    if (hits.length) {
      const h = hits[0];
      f.alerts.push(`${p.group}\t${p.half}\t${p.name}\t→ ${h.explanation.matchedName}\t${h.entity.id}\t${h.score}\t${h.explanation.alignment.map((a) => `${a.query}~${a.candidate}:${a.how}`).join(' ')}`);
    }
  }
  return f;
}

/** CPU ms per screening of each engine over the same names, alternated A B B A … (`rounds` pairs). */
function cpuPerName(engines: [string, EngineLike][], names: string[], rounds: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [label] of engines) out[label] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? engines : [...engines].reverse();
    for (const [label, e] of order) {
      const t0 = process.cpuUsage();
      for (const n of names) e.screen({ name: n }, { limit: 10 });
      const t = process.cpuUsage(t0);
      out[label].push((t.user + t.system) / 1000 / names.length);
    }
  }
  return out;
}

const per100 = (c?: Count) => (c && c.n ? ((100 * c.hit) / c.n).toFixed(2) : '–');
const pct = (c?: Count) => (c && c.n ? `${((100 * c.hit) / c.n).toFixed(1)} %` : '–');

const FORM_NAMES: Record<Form, string> = {
  ko: 'Korean (Hangul)', ja: 'Japanese (katakana)', zh: 'Chinese (characters)', el: 'Greek', fa: 'Persian (Arabic script)', he: 'Hebrew', th: 'Thai',
  my: 'Burmese', ka: 'Georgian', lt: 'Lithuanian', lv: 'Latvian', pl: 'Polish', cs: 'Czech', hu: 'Hungarian (family name first)', de: 'German',
  nl: 'Dutch', uk: 'Ukrainian Cyrillic', be: 'Belarusian Cyrillic', initials: 'Initials (Д. А. Медведев, Medvedev D.A.)',
};
const GROUP_NAMES: Record<InnocentGroup, string> = {
  ko: 'Korean, Hangul (issue-27 set)', ko_spaced: 'Korean, Hangul with a space (김 민준)', ja: 'Japanese, kanji (issue-27 set)', ja_kana: 'Japanese, katakana',
  zh: 'Chinese, characters (issue-27 set)', el: 'Greek (issue-27 set)', fa: 'Persian (issue-27 set)', ar: 'Arabic (issue-27 set)', ur: 'Urdu',
  he: 'Hebrew (issue-27 set)', th: 'Thai', my: 'Burmese, joined', my_spaced: 'Burmese, syllables spaced', ka: 'Georgian', ru: 'Russian Cyrillic (issue-27 set)',
  uk: 'Ukrainian Cyrillic', be: 'Belarusian Cyrillic', lt: 'Lithuanian', lv: 'Latvian', pl: 'Polish', cs: 'Czech and Slovak', hu: 'Hungarian', de: 'German', nl: 'Dutch',
};

function tables(figs: Figures[], cases: ForeignCase[], innocents: ForeignInnocent[], cpu: Record<string, number[]>, load: number[]): string {
  const cols = figs.map((f) => f.label);
  const lines: string[] = [];
  const people = new Set(cases.map((c) => c.entityId));
  const held = new Set(cases.filter((c) => c.half === 'held_back').map((c) => c.entityId));
  lines.push(
    `Development set (bench/screening/foreign/devset.ts → dev-sets/foreign/devset.tsv): ${people.size} sanctioned people from the bundled lists, ` +
      `${cases.length} queries in ${FORMS.length} forms; held-back half ${held.size} people. Found = the listed entity among the hits at the default threshold.`,
    '',
    `| form | held-back queries | ${cols.map((c) => `held-back recall, ${c}`).join(' | ')} | tuning recall, ${cols[cols.length - 1]} |`,
    `|---|---|${cols.map(() => '---').join('|')}|---|`,
  );
  for (const form of FORMS) {
    const k = `${form}|held_back`;
    lines.push(`| ${FORM_NAMES[form]} | ${figs[0].recall[k]?.n ?? 0} | ${figs.map((f) => pct(f.recall[k])).join(' | ')} | ${pct(figs[figs.length - 1].recall[`${form}|tuning`])} |`);
  }
  const groups = [...new Set(innocents.map((p) => p.group))];
  lines.push(
    '',
    `Innocent native names of the same scripts (bench/screening/foreign/innocents.ts), screened by name only against every bundled list: flagged per 100.`,
    '',
    `| group | held-back people | ${cols.map((c) => `held-back, ${c}`).join(' | ')} | tuning, ${cols[cols.length - 1]} |`,
    `|---|---|${cols.map(() => '---').join('|')}|---|`,
  );
  for (const g of groups) {
    const k = `${g}|held_back`;
    lines.push(`| ${GROUP_NAMES[g]} | ${figs[0].innocents[k]?.n ?? 0} | ${figs.map((f) => per100(f.innocents[k])).join(' | ')} | ${per100(figs[figs.length - 1].innocents[`${g}|tuning`])} |`);
  }
  lines.push(
    '',
    'Issue 27\'s precision figures (bench/screening/precision.ts measureEngine, each engine in this run): multicultural innocents flagged per 100 ' +
      '(in brackets: flagged by a sanctions list); pair classes: positives found, negatives flagged; UN-listed persons found by listed name.',
    '',
    `| figure | ${cols.join(' | ')} |`,
    `|---|${cols.map(() => '---').join('|')}|`,
  );
  const rate = (f: Figures, k: string) => {
    const r = f.precision?.innocents[k];
    return r ? `${((100 * r.flagged) / r.n).toFixed(2)} (sanctions ${((100 * r.sanctions) / r.n).toFixed(2)})` : '–';
  };
  for (const mode of ['name_only', 'with_dob']) {
    for (const half of ['tuning', 'held_back'] as Half[]) lines.push(`| innocents flagged per 100, ${mode.replace('_', ' ')}, ${half.replace('_', '-')} | ${figs.map((f) => rate(f, `${mode}|${half}|all`)).join(' | ')} |`);
  }
  const pairKeys = [...new Set(figs.flatMap((f) => Object.keys(f.precision?.pairs ?? {})))].filter((k) => /^(dev|hand|hard):all$/.test(k) || !k.includes(':')).sort();
  for (const k of pairKeys) {
    lines.push(`| pairs ${k}: positives found, negatives flagged | ${figs.map((f) => {
      const c = f.precision?.pairs[k];
      return c ? `${c.tp}/${c.tp + c.fn}, ${c.fp}/${c.fp + c.tn}` : '–';
    }).join(' | ')} |`);
  }
  lines.push(`| UN-listed persons found by listed name | ${figs.map((f) => (f.precision ? `${f.precision.un.found}/${f.precision.un.n}` : '–')).join(' | ')} |`);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const base = mean(cpu[cols[0]] ?? []);
  lines.push(
    '',
    `CPU per screening (process CPU, ${Object.values(cpu)[0]?.length ?? 0} alternated rounds over the same names; load average at the start ${load.map((x) => x.toFixed(1)).join(' / ')} on ${process.env.CPUS ?? '2'} cores): ` +
      cols.map((c) => `${c} ${mean(cpu[c] ?? []).toFixed(3)} ms (×${(mean(cpu[c] ?? []) / (base || 1)).toFixed(2)})`).join(', ') +
      '.',
  );
  return lines.join('\n');
}

// ---------- main
const lists = await import(pathToFileURL(path.join(here, '../../../src/screening/lists/index.ts')).href);
const { ScreeningEngine } = await import(pathToFileURL(path.join(here, '../../../src/screening/engine.ts')).href);
const load0 = loadavg();
const loaded = await lists.loadAllLists({ lists: lists.listsFromRoot(dataDir, { includeOptIn: true }) }, { progressBar: false });
const cases = readCases();
samePerson = personEntities(loaded.entities, cases);
const innocents = foreignInnocents();
const engines: [string, EngineLike][] = [];
if (baselineRoot) {
  const base = await import(pathToFileURL(path.join(path.resolve(baselineRoot), 'src/screening/engine.ts')).href);
  engines.push(['before', base.ScreeningEngine.build(loaded.entities, loaded.versions)]);
}
const after: EngineLike = ScreeningEngine.build(loaded.entities, loaded.versions);
const withoutReadings: EngineLike = ScreeningEngine.restore(loaded.entities, loaded.versions, after.indexSnapshot!(), { foreignReadings: false });
engines.push(['without readings', withoutReadings], ['after', after]);

const figs: Figures[] = [];
for (const [label, e] of engines) {
  const t0 = Date.now();
  const f = measureEngine(label, e, cases, innocents);
  // issue 27's figures of the same engine (its checkout's root for the commit it names)
  f.precision = await measurePrecision(e as Parameters<typeof measurePrecision>[0], loaded.entities, label === 'before' ? path.resolve(baselineRoot!) : path.join(here, '../../..'));
  console.error(`${label}: measured in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  figs.push(f);
}
// the CPU mix: every development query, 2,000 foreign innocents and 2,000 issue-27 innocents
const mix = [...cases.map((c) => c.query), ...innocents.filter((_, i) => i % 8 === 0).map((p) => p.name), ...multiculturalInnocents().filter((_, i) => i % 10 === 0).map((p) => p.name)];
const cpu = cpuPerName(engines, mix, cpuRounds * 2);
const md = tables(figs, cases, innocents, cpu, load0);
console.log(md);
if (args.includes('--alerts')) for (const a of figs[figs.length - 1].alerts) console.log(a);
if (args.includes('--misses')) for (const m of figs[figs.length - 1].misses) console.log(m);
const out = opt('--json');
if (out) writeFileSync(out, JSON.stringify({ figs, cpu, load: load0, mix: mix.length }, null, 1));
if (args.includes('--write')) {
  const file = path.join(here, '../RESULTS.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- issue-32 foreign names: start (bench/screening/foreign/run.ts --write) -->';
  const end = '<!-- issue-32 foreign names: end -->';
  const body = `${start}\n## Foreign names written in other scripts (issue 32)\n\n\`npx tsx bench/screening/foreign/run.ts --baseline DIR --write\` (before: ${baselineRoot ? `the checkout of ${opt('--baseline-commit') ?? figs[0].precision?.commit}` : 'not measured'}, after: ${figs[figs.length - 1].precision?.commit}; ${new Date().toISOString().slice(0, 10)}).\n\n${md}\n${end}`;
  const at = text.indexOf(start);
  writeFileSync(file, at >= 0 ? text.slice(0, at) + body + text.slice(text.indexOf(end) + end.length) : `${text.trimEnd()}\n\n${body}\n`);
}
