/**
 * Labelled development pairs built from the lists themselves (see run.ts).
 * Deterministic: a seeded PRNG picks and perturbs names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListEntity } from '../../src/screening/model';
import { jaroWinkler } from '../../src/screening/matching/similarity';

/** `--data DIR` from a bench's arguments, else the `shared/data` folder beside the repository. */
export function dataDirArg(args: readonly string[]): string {
  const i = args.indexOf('--data');
  return path.resolve(i >= 0 && args[i + 1] ? args[i + 1]! : path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data'));
}

/** One row of a class development set (dev-sets/*.tsv, read back by loadClassPairs). */
export interface ClassPairRow {
  cls: string;
  query: string;
  listed: string;
  schema: string;
  label: 0 | 1;
  how: string;
}

export interface LabelledPair {
  category: string;
  name1: string;
  name2: string;
  schema: string;
  label: boolean;
  /** For true pairs built from one entity: that entity's id (to measure screening recall). */
  entityId?: string;
  /** The query's country and the listed entity's countries, when the pair tests a jurisdiction. */
  listed?: { country: string; countries: string[] };
}

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(xs: T[], n: number, rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

const SCHEMA_NAME: Record<string, string> = { person: 'Person', organization: 'Company', vessel: 'Vessel', aircraft: 'Vessel', unknown: 'LegalEntity' };
const simple = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const latin = (s: string) => /^[\x00-\x7F]*$/.test(s);
const words = (s: string) => s.replace(/,/g, ' ').split(/\s+/).filter(Boolean);

/** "LAST, First Middle" → "First Middle LAST"; other names unchanged. */
function naturalOrder(name: string): string {
  const i = name.indexOf(',');
  if (i < 0) return name;
  return `${name.slice(i + 1).trim()} ${name.slice(0, i).trim()}`;
}

function typo(word: string, edits: number, rand: () => number): string {
  let w = word;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let e = 0; e < edits; e++) {
    const p = 1 + Math.floor(rand() * (w.length - 2)); // keep the first letter
    const op = Math.floor(rand() * 4);
    const ch = letters[Math.floor(rand() * 26)];
    if (op === 0) w = w.slice(0, p) + ch + w.slice(p + 1);
    else if (op === 1) w = w.slice(0, p) + w.slice(p + 1);
    else if (op === 2) w = w.slice(0, p) + ch + w.slice(p);
    else if (p + 1 < w.length) w = w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2);
  }
  return w;
}

const TRANSLIT_VARIANTS: [RegExp, string][] = [
  [/IY\b/g, 'Y'],
  [/Y\b/g, 'I'],
  [/KH/g, 'H'],
  [/KS/g, 'X'],
  [/YE/g, 'E'],
  [/OU/g, 'U'],
  [/EI/g, 'EY'],
  [/MOHAMMED|MOHAMMAD|MOHAMED/g, 'MUHAMMAD'],
  [/MUHAMMAD/g, 'MOHAMMED'],
  [/HUSSEIN|HUSAIN/g, 'HUSAYN'],
  [/\bABDUL /g, 'ABD AL-'],
  [/\bAL-/g, 'EL-'],
  [/YU/g, 'IU'],
  [/YA/g, 'IA'],
  [/SH/g, 'SCH'],
  [/J/g, 'DZH'],
  [/V\b/g, 'FF'],
];

const LEGAL_SWAPS: [RegExp, string][] = [
  [/\bLLC\b/i, 'LIMITED LIABILITY COMPANY'],
  [/\bLIMITED LIABILITY COMPANY\b/i, 'LLC'],
  [/\bOOO\b/i, 'LLC'],
  [/\bLTD\b\.?/i, 'LIMITED'],
  [/\bLIMITED\b/i, 'LTD'],
  [/\bCO\.,? LTD\.?/i, 'COMPANY LIMITED'],
  [/\bJSC\b/i, 'JOINT STOCK COMPANY'],
  [/\bOJSC\b/i, 'OPEN JOINT STOCK COMPANY'],
  [/\bJOINT[- ]STOCK COMPANY\b/i, 'JSC'],
  [/\bCORPORATION\b/i, 'CORP'],
  [/\bCORP\b\.?/i, 'CORPORATION'],
  [/\bINC\b\.?/i, 'INCORPORATED'],
  [/\bS\.A\.(?=\s|$)/i, 'SA'],
  [/\bGMBH\b/i, 'LLC'],
  [/\bPJSC\b/i, 'PUBLIC JOINT STOCK COMPANY'],
  [/\bCOMPANY\b/i, 'CO'],
];

export function buildDevPairs(entities: ListEntity[], seed = 42): LabelledPair[] {
  const rand = rng(seed);
  const out: LabelledPair[] = [];
  const withLatin = entities.filter((e) => latin(e.primaryName) && words(e.primaryName).length >= 1);
  const schemaOf = (e: ListEntity) => SCHEMA_NAME[e.schema] ?? 'LegalEntity';

  // 1. aliases (strong a.k.a.) are true pairs
  const aliasPairs: LabelledPair[] = [];
  for (const e of entities) {
    for (const n of e.names) {
      if (n.kind !== 'strong_alias' || simple(n.value) === simple(e.primaryName) || !latin(n.value)) continue;
      aliasPairs.push({ category: 'alias', name1: e.primaryName, name2: n.value, schema: schemaOf(e), label: true, entityId: e.id });
    }
  }
  out.push(...sample(aliasPairs, 600, rand));

  // 2. original-script names are true pairs
  const scriptPairs: LabelledPair[] = [];
  for (const e of entities) {
    for (const n of e.names) {
      if (n.kind === 'original_script' || (!latin(n.value) && n.kind !== 'weak_alias')) {
        if (!latin(e.primaryName)) continue;
        scriptPairs.push({ category: 'original_script', name1: e.primaryName, name2: n.value, schema: schemaOf(e), label: true, entityId: e.id });
      }
    }
  }
  out.push(...sample(scriptPairs, 400, rand));

  // 3. typos: 1 edit in a 5–7 letter word, 2 edits in a word of 8+
  for (const e of sample(withLatin, 400, rand)) {
    const ws = words(naturalOrder(e.primaryName));
    const i = ws.reduce((best, w, k) => (w.length > ws[best].length ? k : best), 0);
    if (ws[i].length < 5) continue;
    const edits = ws[i].length >= 8 ? 2 : 1;
    const t = [...ws];
    t[i] = typo(ws[i].toLowerCase(), edits, rand).toUpperCase();
    out.push({ category: `typo_${edits}`, name1: e.primaryName, name2: t.join(' '), schema: schemaOf(e), label: true, entityId: e.id });
  }

  // 4. reorderings of person names
  const persons = withLatin.filter((e) => e.schema === 'person' && words(e.primaryName).length >= 2);
  for (const e of sample(persons, 300, rand)) {
    const ws = words(naturalOrder(e.primaryName));
    const r = [...ws.slice(1), ws[0]];
    out.push({ category: 'reorder', name1: e.primaryName, name2: r.join(' '), schema: 'Person', label: true, entityId: e.id });
  }

  // 5. a dropped middle name
  const long = persons.filter((e) => words(naturalOrder(e.primaryName)).length >= 3);
  for (const e of sample(long, 300, rand)) {
    const ws = words(naturalOrder(e.primaryName));
    const k = 1 + Math.floor(rand() * (ws.length - 2));
    out.push({ category: 'dropped_middle', name1: e.primaryName, name2: [...ws.slice(0, k), ...ws.slice(k + 1)].join(' '), schema: 'Person', label: true, entityId: e.id });
  }

  // 6. transliteration variants
  let made = 0;
  for (const e of sample(persons, 3000, rand)) {
    if (made >= 300) break;
    const up = naturalOrder(e.primaryName).toUpperCase();
    const rules = TRANSLIT_VARIANTS.filter(([re]) => new RegExp(re.source).test(up));
    if (!rules.length) continue;
    const [re, rep] = rules[Math.floor(rand() * rules.length)];
    const v = up.replace(re, rep);
    if (v === up) continue;
    out.push({ category: 'transliteration', name1: e.primaryName, name2: v, schema: 'Person', label: true, entityId: e.id });
    made++;
  }

  // 7. equivalent legal forms
  made = 0;
  const orgs = withLatin.filter((e) => e.schema === 'organization');
  for (const e of sample(orgs, orgs.length, rand)) {
    if (made >= 200) break;
    const swap = LEGAL_SWAPS.find(([re]) => re.test(e.primaryName));
    if (!swap) continue;
    out.push({ category: 'legal_form', name1: e.primaryName, name2: e.primaryName.replace(swap[0], swap[1]), schema: 'Company', label: true, entityId: e.id });
    made++;
  }

  // 8. different entities of one list with similar names are false pairs
  const bySource = new Map<string, ListEntity[]>();
  for (const e of withLatin) (bySource.get(`${e.source}|${e.schema}`) ?? bySource.set(`${e.source}|${e.schema}`, []).get(`${e.source}|${e.schema}`)!).push(e);
  const negatives: LabelledPair[] = [];
  for (const group of bySource.values()) {
    const byToken = new Map<string, ListEntity[]>();
    for (const e of group) {
      for (const w of new Set(simple(e.primaryName).split(' '))) {
        if (w.length < 3) continue;
        (byToken.get(w) ?? byToken.set(w, []).get(w)!).push(e);
      }
    }
    for (const members of byToken.values()) {
      if (members.length < 2 || members.length > 400) continue;
      for (let k = 0; k < 3; k++) {
        const a = members[Math.floor(rand() * members.length)];
        const b = members[Math.floor(rand() * members.length)];
        if (a === b || simple(a.primaryName) === simple(b.primaryName)) continue;
        // the same name on two entries (relatives, re-listings) is not a usable negative
        const sa = simple(a.primaryName).split(' ').sort().join(' ');
        const sb = simple(b.primaryName).split(' ').sort().join(' ');
        if (sa === sb) continue;
        if (jaroWinkler(simple(naturalOrder(a.primaryName)), simple(naturalOrder(b.primaryName))) < 0.7) continue;
        negatives.push({ category: 'similar_other_entity', name1: a.primaryName, name2: b.primaryName, schema: schemaOf(a), label: false });
      }
    }
  }
  out.push(...sample(negatives, 1200, rand));

  // 9. numbers that differ
  const numbered = withLatin.filter((e) => /\b\d+\b/.test(e.primaryName));
  for (const e of sample(numbered, 150, rand)) {
    const v = e.primaryName.replace(/\b(\d+)\b/, (_, d) => String(Number(d) + 1));
    out.push({ category: 'number_differs', name1: e.primaryName, name2: v, schema: schemaOf(e), label: false });
  }
  return out;
}

export function loadHandmadePairs(file: string): LabelledPair[] {
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const [name1, name2, schema, label] = l.split(',');
    return { category: 'handmade_public_style', name1, name2, schema, label: label === '1' };
  });
}

/**
 * The issue-20 development sets: every *.tsv in bench/screening/dev-sets (see the README there).
 * Columns: class, query, listed, schema, label, how. The query is name1 (the side a user types).
 */
export function loadClassPairs(dir: string): LabelledPair[] {
  const out: LabelledPair[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.tsv')).sort()) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n').slice(1)) {
      if (!line.trim()) continue;
      const [category, name1, name2, schema, label, , attrs] = line.split('\t');
      const pair: LabelledPair = { category, name1, name2, schema, label: label === '1' };
      // optional 7th column: "country=XX;listed=YY,ZZ" (the query's country, the listed entity's countries)
      if (attrs) {
        const kv = Object.fromEntries(attrs.split(';').map((x) => x.split('=')));
        if (kv.country && kv.listed) pair.listed = { country: kv.country, countries: kv.listed.split(',') };
      }
      out.push(pair);
    }
  }
  return out;
}
