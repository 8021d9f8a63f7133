/**
 * Pair-level precision and recall of the internal-list screening on the truth set of
 * truthset-generate.ts (issue 30), per screening surface, each half apart (tune on `tuning` only).
 *
 * Surfaces, as the internal-list agent receives the subject (screenInternalLists over the account's
 * index, the path every screening takes), with what each surface can send today:
 *  - S3 CDD: the name only;
 *  - S1 CDD: the name and the postal address;
 *  - S2 subject check and person check: the name and the date of birth;
 *  - portal: name, date of birth, documents (no phone or e-mail: the identifier pattern refuses them)
 *    and the address (line, city, postcode, country: no state field);
 *  - every fact (what S3 CDD sends once wip/verdict adds the fields, issue 27 §3): name, date of birth,
 *    documents, address, phone and e-mail;
 * and the policy alone over every (customer, active entry) pair with every fact (no candidate step).
 * A predicted pair is a hit (potential or confirmed) of a customer on an entry; the key is the
 * customers' `matches`.
 *
 *   npx tsx bench/watchlists/truthset.ts                       this tree's figures
 *   npx tsx bench/watchlists/truthset.ts --baseline DIR [--label "main at abc123"]
 *                                                              also DIR's (a checkout of another commit, e.g. main
 *                                                              from `git archive`), same run; writes the section of
 *                                                              bench/watchlists/RESULTS.md between its markers
 *   npx tsx bench/watchlists/truthset.ts --json                the figures as JSON (what --baseline runs in DIR)
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenInternalLists } from '../../src/agents/lists/internal-lists';
import type { AgentSubject } from '../../src/agents/runtime/agent';
import { buildInternalListIndex } from '../../src/app/watchlists/watchlist-index';
import { scoreWatchlistCandidate, type WatchlistSubject } from '../../src/screening/watchlists/match-policy';
import type { WatchlistEntry } from '../../src/screening/watchlists/model';
import type { TruthCustomer } from './truthset-generate';

const here = path.dirname(fileURLToPath(import.meta.url));
const entries: WatchlistEntry[] = JSON.parse(readFileSync(path.join(here, 'truthset/entries.json'), 'utf8'));
const customers: TruthCustomer[] = readFileSync(path.join(here, 'truthset/customers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

const SURFACES = ['s3_cdd', 's1_cdd', 's2_person_check', 'portal', 'every_fact', 'policy_all_pairs'] as const;
type Surface = (typeof SURFACES)[number];
const SURFACE_LABEL: Record<Surface, string> = {
  s3_cdd: 'S3 CDD today (name only)',
  s1_cdd: 'S1 CDD (name, address)',
  s2_person_check: 'S2 subject check / person check (name, DOB)',
  portal: 'portal (name, DOB, documents, address)',
  every_fact: 'every fact a customer record carries (S3 CDD with wip/verdict\'s fields)',
  policy_all_pairs: 'the policy alone, every pair, every fact (no candidate step)',
};
const DOCUMENTS = new Set(['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'lei', 'other']);

/** What the internal-list agent receives from each surface. */
function subjectFor(surface: Exclude<Surface, 'policy_all_pairs'>, c: TruthCustomer): AgentSubject {
  const base: AgentSubject = { workflow: `screening-${c.id}`, accountId: '1', name: c.name, entityType: 'individual' };
  const address = c.address;
  const portalAddress = address && { ...(address.line ? { line: address.line } : {}), ...(address.city ? { city: address.city } : {}), ...(address.postalCode ? { postalCode: address.postalCode } : {}), ...(address.country ? { country: address.country } : {}) };
  const documents = (c.identifiers ?? []).filter((i) => DOCUMENTS.has(i.type)).map((i) => ({ type: i.type, value: i.value }));
  const contacts = [...(c.phone ? [{ type: 'phone', value: c.phone }] : []), ...(c.email ? [{ type: 'email', value: c.email }] : [])];
  switch (surface) {
    case 's3_cdd':
      return base;
    case 's1_cdd':
      return { ...base, ...(portalAddress ? { address: portalAddress } : {}) };
    case 's2_person_check':
      return { ...base, ...(c.dateOfBirth ? { birthDate: c.dateOfBirth } : {}) };
    case 'portal':
      return { ...base, ...(c.dateOfBirth ? { birthDate: c.dateOfBirth } : {}), ...(documents.length ? { identifiers: documents } : {}), ...(portalAddress ? { address: portalAddress } : {}) };
    case 'every_fact':
      return { ...base, ...(c.dateOfBirth ? { birthDate: c.dateOfBirth } : {}), ...(documents.length || contacts.length ? { identifiers: [...documents, ...contacts] } : {}), ...(address ? { address } : {}) };
  }
}

function policySubject(c: TruthCustomer): WatchlistSubject {
  const s = subjectFor('every_fact', c);
  return { name: s.name, entityType: 'person', ...(s.birthDate ? { birthDate: s.birthDate } : {}), ...(s.address ? { address: s.address } : {}), ...(s.identifiers ? { identifiers: s.identifiers } : {}) };
}

interface Figures {
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number;
  f1: number | null;
  /** per class: true pairs found / all, false pairs */
  classes: Record<string, { found: number; pairs: number; falsePairs: number; customers: number }>;
  falsePairs: string[];
  missedPairs: string[];
}

const list = { id: '00000000-0000-4000-8000-000000000030', accountId: '1', name: 'Fraud and risk', purpose: '', severity: 'block' as const, owner: 'fincrime', status: 'active' as const, version: 1 };
const index = buildInternalListIndex([{ list, entries }], '2026-11-26T00:00:00.000Z');
const active = entries.filter((e) => (e as { status?: string }).status !== 'inactive');

function predicted(surface: Surface, c: TruthCustomer): Map<string, string> {
  const out = new Map<string, string>();
  if (surface === 'policy_all_pairs') {
    for (const e of active) {
      const r = scoreWatchlistCandidate(policySubject(c), e);
      if (r.strength !== 'none') out.set(e.entryId, r.summary);
    }
    return out;
  }
  for (const hit of screenInternalLists(index, subjectFor(surface, c))) if (hit.internalList) out.set(hit.internalList.entryId, hit.explanation.summary);
  return out;
}

function measure(surface: Surface, half: TruthCustomer['half']): Figures {
  const f: Figures = { tp: 0, fp: 0, fn: 0, precision: null, recall: 0, f1: null, classes: {}, falsePairs: [], missedPairs: [] };
  for (const c of customers.filter((x) => x.half === half)) {
    const got = predicted(surface, c);
    const cls = (f.classes[c.class] ??= { found: 0, pairs: 0, falsePairs: 0, customers: 0 });
    cls.customers += 1;
    for (const m of c.matches) {
      cls.pairs += 1;
      if (got.has(m)) {
        f.tp += 1;
        cls.found += 1;
      } else {
        f.fn += 1;
        f.missedPairs.push(`${c.id} (${c.class}: ${c.note}) ⇄ ${m}: "${c.name}"`);
      }
    }
    for (const [entryId, why] of got) {
      if (c.matches.includes(entryId)) continue;
      f.fp += 1;
      cls.falsePairs += 1;
      f.falsePairs.push(`${c.id} (${c.class}: ${c.note}) ⇄ ${entryId}: ${why}`);
    }
  }
  f.precision = f.tp + f.fp ? f.tp / (f.tp + f.fp) : null;
  f.recall = f.tp + f.fn ? f.tp / (f.tp + f.fn) : 0;
  f.f1 = f.precision !== null && f.precision + f.recall > 0 ? (2 * f.precision * f.recall) / (f.precision + f.recall) : null;
  return f;
}

type AllFigures = Record<Surface, Record<TruthCustomer['half'], Figures>>;
function measureAll(): AllFigures {
  return Object.fromEntries(SURFACES.map((s) => [s, { tuning: measure(s, 'tuning'), heldback: measure(s, 'heldback') }])) as AllFigures;
}

const fmt = (x: number | null) => (x === null ? '–' : x.toFixed(3));
const cell = (f: Figures) => `${fmt(f.precision)} / ${fmt(f.recall)} (${f.tp} TP, ${f.fp} FP, ${f.fn} FN)`;

function report(after: AllFigures, before: AllFigures | undefined, baselineName: string | undefined): string {
  const lines: string[] = [];
  const truePairs = (h: TruthCustomer['half']) => customers.filter((c) => c.half === h).reduce((n, c) => n + c.matches.length, 0);
  lines.push('<!-- truthset:start -->', '## Truth set of issue 30: pair-level precision and recall per surface', '');
  lines.push(
    `Generated by \`npx tsx bench/watchlists/truthset.ts --baseline <main checkout>\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, Node ${process.version}); deterministic figures (no timing).`,
    `Truth set: bench/watchlists/truthset/ (\`truthset-generate.ts\`): ${entries.length} listed records (${active.length} active; 2 inactive, 2 with no name but an SSN/e-mail, 1 native-script only), ${customers.length} customers, ${truthPairs()} true customer–record pairs (tuning ${truePairs('tuning')}, held back ${truePairs('heldback')}).`,
    'Each cell: precision / recall (TP, FP, FN) over (customer, listed record) pairs; a predicted pair is an internal-list hit (potential or confirmed).',
    `${before ? `Before = ${baselineName}, after = this branch, in the same run on the same files. ` : ''}**The held-back half was not looked at while tuning**; the tuning half was.`,
    '',
  );
  lines.push(`| surface | ${before ? 'before: held back | ' : ''}after: held back | ${before ? 'before: tuning | ' : ''}after: tuning |`, `|---|${before ? '---|' : ''}---|${before ? '---|' : ''}---|`);
  for (const s of SURFACES) {
    lines.push(`| ${SURFACE_LABEL[s]} | ${before ? `${cell(before[s].heldback)} | ` : ''}${cell(after[s].heldback)} | ${before ? `${cell(before[s].tuning)} | ` : ''}${cell(after[s].tuning)} |`);
  }
  lines.push('', '### Per class, every fact (S3 CDD with wip/verdict\'s fields), held-back half', '', `| class | customers | true pairs found${before ? ' (before → after)' : ''} | false pairs${before ? ' (before → after)' : ''} |`, '|---|---|---|---|');
  const classes = Object.keys(after.every_fact.heldback.classes).sort();
  for (const k of classes) {
    const a = after.every_fact.heldback.classes[k]!;
    const b = before?.every_fact.heldback.classes[k];
    lines.push(`| ${k} | ${a.customers} | ${b ? `${b.found}/${b.pairs} → ` : ''}${a.found}/${a.pairs} | ${b ? `${b.falsePairs} → ` : ''}${a.falsePairs} |`);
  }
  const errors = (title: string, xs: string[]) => {
    lines.push('', `### ${title} (${xs.length})`, '');
    for (const x of xs) lines.push(`- ${x}`);
  };
  errors('Held-back half, every fact, after: false pairs', after.every_fact.heldback.falsePairs);
  errors('Held-back half, every fact, after: missed pairs', after.every_fact.heldback.missedPairs);
  errors('Tuning half, every fact, after: false pairs', after.every_fact.tuning.falsePairs);
  errors('Tuning half, every fact, after: missed pairs', after.every_fact.tuning.missedPairs);
  lines.push('<!-- truthset:end -->');
  return lines.join('\n');
}
const truthPairs = () => customers.reduce((n, c) => n + c.matches.length, 0);

const args = process.argv.slice(2);
const after = measureAll();
if (args.includes('--json')) {
  process.stdout.write(JSON.stringify(after));
} else {
  let before: AllFigures | undefined;
  const at = args.indexOf('--baseline');
  const baseline = at >= 0 ? args[at + 1] : undefined;
  if (baseline) {
    // the baseline screens the same files with its own code: this script and the truth set are copied in
    const target = path.join(baseline, 'bench/watchlists');
    mkdirSync(path.join(target, 'truthset'), { recursive: true });
    for (const f of ['truthset.ts', 'truthset-generate.ts']) copyFileSync(path.join(here, f), path.join(target, f));
    for (const f of ['entries.json', 'customers.jsonl']) copyFileSync(path.join(here, 'truthset', f), path.join(target, 'truthset', f));
    if (!existsSync(path.join(baseline, 'node_modules'))) throw new Error(`${baseline} has no node_modules (link this tree's)`);
    before = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(target, 'truthset.ts'), '--json'], { cwd: baseline, maxBuffer: 64 * 2 ** 20 }).toString());
  }
  const label = args.indexOf('--label') >= 0 ? args[args.indexOf('--label') + 1] : undefined;
  const section = report(after, before, baseline ? (label ?? `the checkout at ${baseline}`) : undefined);
  const resultsFile = path.join(here, 'RESULTS.md');
  const current = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
  const start = current.indexOf('<!-- truthset:start -->');
  const end = current.indexOf('<!-- truthset:end -->');
  const next = start >= 0 && end > start ? current.slice(0, start) + section + current.slice(end + '<!-- truthset:end -->'.length) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(resultsFile, next);
  for (const s of SURFACES) console.log(`${SURFACE_LABEL[s].padEnd(90)} held back ${before ? `${cell(before[s].heldback)} → ` : ''}${cell(after[s].heldback)}`);
}
