/**
 * Pair-level precision and recall of the internal-list screening on the truth set of
 * truthset-generate.ts (issue 30), per screening surface, each half apart (tune on `tuning` only).
 *
 * Surfaces, as the internal-list agent receives the subject (screenInternalLists over the account's
 * index, the path every screening takes), each with the facts it carries (truthset-facts.ts):
 *  - S3 CDD as main takes it: the name only;
 *  - S2 subject check: before issue 30's last round name, date of birth, documents, phone and e-mail;
 *    after it also the address, its state apart;
 *  - person check: before, the name, date of birth, phone and e-mail (its identifiers reached the
 *    stream masked, and the matcher not at all); after, also the address and the documents it compares
 *    whole in-process (named as the list import names its columns: a passport, a national id; not
 *    `other`);
 *  - the portal as main takes it: name, date of birth, documents and the address (no phone, e-mail);
 *  - S1/S3 CDD and the portal with every field they take now (wip/verdict's subject
 *    facts, issue 27 §3, merged here): name, date of birth, documents, address, phone and e-mail, the address as the
 *    APIs take it (no state field: a state the record holds apart is joined to the line). This is the
 *    figure of issue 30's "through S3 CDD, with the facts a customer record carries"; truthset-http.ts
 *    measures the same end to end through POST /api/v1/screening/cdd;
 *  - the policy alone over every (customer, active entry) pair, every fact (no candidate step).
 * Before (--baseline) screens the same subjects with the other checkout's code: for the rows whose
 * fields main's APIs refuse, that is main's matching given them, not a request main would take.
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
import { carriedFacts, type FactField } from './truthset-facts';
import type { TruthCustomer } from './truthset-generate';

const here = path.dirname(fileURLToPath(import.meta.url));
const entries: WatchlistEntry[] = JSON.parse(readFileSync(path.join(here, 'truthset/entries.json'), 'utf8'));
const customers: TruthCustomer[] = readFileSync(path.join(here, 'truthset/customers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

const SURFACES = ['s3_name_only', 's2_subject_check', 'person_check', 'portal_main_fields', 'cdd_every_field', 'policy_all_pairs'] as const;
type Surface = (typeof SURFACES)[number];
const SURFACE_LABEL: Record<Surface, string> = {
  s3_name_only: 'S3 CDD as main takes it (name only)',
  s2_subject_check: 'S2 subject check (before: name, DOB, documents, phone, e-mail; after: also the address, its state apart)',
  person_check: 'person check (before: name, DOB, phone, e-mail; after: also the address, its state apart, and the documents whole in-process)',
  portal_main_fields: 'portal as main took it before issue 27 (name, DOB, documents, address)',
  cdd_every_field: 'S1/S3 CDD and portal, every field (name, DOB, documents, address, phone, e-mail; before: the state joined to the line, after: apart)',
  policy_all_pairs: 'the policy alone, every pair, every fact (no candidate step)',
};
/**
 * `before`: what each surface carried before issue 30's last round (what --baseline asks of the other
 * checkout: no state field, S2 with no address, person checks with no address and no documents);
 * `after`: what it carries now.
 */
type Build = 'before' | 'after';
const FIELDS: Record<Build, Record<Exclude<Surface, 'policy_all_pairs'>, FactField[]>> = {
  before: {
    s3_name_only: [],
    s2_subject_check: ['dateOfBirth', 'documents', 'contacts'],
    person_check: ['dateOfBirth', 'contacts'],
    portal_main_fields: ['dateOfBirth', 'documents', 'address'],
    cdd_every_field: ['dateOfBirth', 'documents', 'address', 'contacts'],
  },
  after: {
    s3_name_only: [],
    s2_subject_check: ['dateOfBirth', 'documents', 'address', 'contacts'],
    person_check: ['dateOfBirth', 'documents', 'address', 'contacts'],
    portal_main_fields: ['dateOfBirth', 'documents', 'address'],
    cdd_every_field: ['dateOfBirth', 'documents', 'address', 'contacts'],
  },
};
const args = process.argv.slice(2);
const build: Build = args.includes('--as-before') ? 'before' : 'after';
/** The documents a person check compares whole: those named as the list import names its columns (only this tree has the rule). */
const personCheckDocument: ((type: string) => boolean) | undefined =
  build === 'after' ? await import('../../src/app/watchlists/import-parser').then((m) => (type: string) => m.identifierKindOf(type) !== undefined) : undefined;

/** What the internal-list agent receives from each surface (phone and e-mail as identifiers too: a baseline without the fields reads them there). */
function subjectFor(surface: Exclude<Surface, 'policy_all_pairs'>, c: TruthCustomer): AgentSubject {
  const f = carriedFacts(c, FIELDS[build][surface], {
    // the state apart only where the APIs have a field for it
    stateApart: build === 'after' && surface !== 'portal_main_fields',
    ...(surface === 'person_check' && personCheckDocument ? { documentTypes: personCheckDocument } : {}),
  });
  const contacts = [...(f.phone ? [{ type: 'phone', value: f.phone }] : []), ...(f.email ? [{ type: 'email', value: f.email }] : [])];
  const identifiers = [...(f.identifiers ?? []), ...contacts];
  return {
    workflow: `screening-${c.id}`,
    accountId: '1',
    name: c.name,
    entityType: 'individual',
    ...(f.dateOfBirth ? { birthDate: f.dateOfBirth } : {}),
    ...(identifiers.length ? { identifiers } : {}),
    ...(f.address ? { address: f.address } : {}),
  };
}

/** Every fact of the record, the state kept apart (the policy alone). */
function policySubject(c: TruthCustomer): WatchlistSubject {
  const identifiers = [...(c.identifiers ?? []).map((i) => ({ type: i.type, value: i.value })), ...(c.phone ? [{ type: 'phone', value: c.phone }] : []), ...(c.email ? [{ type: 'email', value: c.email }] : [])];
  return { name: c.name, entityType: 'person', ...(c.dateOfBirth ? { birthDate: c.dateOfBirth } : {}), ...(c.address ? { address: c.address } : {}), ...(identifiers.length ? { identifiers } : {}) };
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
  lines.push('', '### Per class, S1/S3 CDD (and portal) with every field, held-back half', '', `| class | customers | true pairs found${before ? ' (before → after)' : ''} | false pairs${before ? ' (before → after)' : ''} |`, '|---|---|---|---|');
  const classes = Object.keys(after.cdd_every_field.heldback.classes).sort();
  for (const k of classes) {
    const a = after.cdd_every_field.heldback.classes[k]!;
    const b = before?.cdd_every_field.heldback.classes[k];
    lines.push(`| ${k} | ${a.customers} | ${b ? `${b.found}/${b.pairs} → ` : ''}${a.found}/${a.pairs} | ${b ? `${b.falsePairs} → ` : ''}${a.falsePairs} |`);
  }
  const errors = (title: string, xs: string[]) => {
    lines.push('', `### ${title} (${xs.length})`, '');
    for (const x of xs) lines.push(`- ${x}`);
  };
  errors('Held-back half, S1/S3 CDD with every field, after: false pairs', after.cdd_every_field.heldback.falsePairs);
  errors('Held-back half, S1/S3 CDD with every field, after: missed pairs', after.cdd_every_field.heldback.missedPairs);
  errors('Tuning half, S1/S3 CDD with every field, after: false pairs', after.cdd_every_field.tuning.falsePairs);
  errors('Tuning half, S1/S3 CDD with every field, after: missed pairs', after.cdd_every_field.tuning.missedPairs);
  lines.push('<!-- truthset:end -->');
  return lines.join('\n');
}
const truthPairs = () => customers.reduce((n, c) => n + c.matches.length, 0);

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
    for (const f of ['truthset.ts', 'truthset-generate.ts', 'truthset-facts.ts']) copyFileSync(path.join(here, f), path.join(target, f));
    for (const f of ['entries.json', 'customers.jsonl']) copyFileSync(path.join(here, 'truthset', f), path.join(target, 'truthset', f));
    if (!existsSync(path.join(baseline, 'node_modules'))) throw new Error(`${baseline} has no node_modules (link this tree's)`);
    before = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(target, 'truthset.ts'), '--json', '--as-before'], { cwd: baseline, maxBuffer: 64 * 2 ** 20 }).toString());
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
