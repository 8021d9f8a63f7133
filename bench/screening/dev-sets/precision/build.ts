/**
 * Builds dev-sets/precision/generated.tsv: the labelled pair classes of issue 27 §1's rules,
 * `npx tsx bench/screening/dev-sets/precision/build.ts [--data ../shared/data]`. Deterministic (seeded).
 * Columns: class, query, listed, schema, label (1 = same name/entity), how, half (tuning | held_back:
 * alternate rows of each class; rules are tuned on the tuning half only).
 *
 * From the bundled lists:
 *  - extra_middle (1): a listed two-word person name queried with a middle name or initial added;
 *  - one_token_whole (1): a one-word listed person name or weak alias queried alone;
 *  - one_token_fragment (0): that one word inside a longer name (another given name before it);
 *  - joined_words (1): a listed person name with two adjacent given-name words run together
 *    ("Abdul Rahman" → "Abdulrahman", "Jong Un" → "Jongun");
 *  - arabic_chain (1): "A bin B C" with "bin" left out, order kept; (0): A and B swapped.
 * From the innocents pools (the lists hold almost no Han or Hangul names):
 *  - cjk_homophone (1): a Chinese name in Han characters with a given-name character replaced by a
 *    homophone (same pinyin), against the name in pinyin and in its first characters;
 *  - cjk_one_char (0): one character replaced by one of another reading; Korean: one Hangul block
 *    replaced by another (김정민 / 김종민), against the Hangul name and its usual romanisation.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allLocales } from '@faker-js/faker';
import anyAscii from 'any-ascii';
import { listsFromRoot, loadAllLists } from '../../../../src/screening/lists/index';
import type { ListEntity } from '../../../../src/screening/model';
import { dataDirArg, rng, sample, type ClassPairRow as Row } from '../../devsets';
import * as P from '../../innocents/pools';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dataDir = dataDirArg(args);

const rand = rng(271);
const latin = (s: string) => /^[A-Za-z][A-Za-z .'-]*$/.test(s);
const words = (s: string) => s.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
const natural = (n: string) => (n.includes(',') ? `${n.slice(n.indexOf(',') + 1).trim()} ${n.slice(0, n.indexOf(',')).trim()}` : n);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
const MIDDLES = ['James', 'Maria', 'Ali', 'Ahmad', 'Ivan', 'Jose', 'Anna', 'Lee', 'Hassan', 'Elena', 'Karim', 'Omar'];

function fromLists(entities: ListEntity[]): Row[] {
  const rows: Row[] = [];
  const persons = entities.filter((e) => e.schema === 'person');
  // extra_middle: "LAST, First" with exactly two words
  const two = persons.filter((e) => latin(e.primaryName.replace(',', '')) && e.primaryName.includes(',') && words(e.primaryName).length === 2);
  for (const e of sample(two, 100, rand)) {
    const [first, last] = words(natural(e.primaryName));
    const middle = rand() < 0.3 ? `${String.fromCharCode(65 + Math.floor(rand() * 26))}.` : MIDDLES[Math.floor(rand() * MIDDLES.length)];
    rows.push({ cls: 'extra_middle', query: `${cap(first)} ${middle} ${cap(last)}`, listed: e.primaryName, schema: 'Person', label: 1, how: 'middle name added' });
  }
  // one-word listed person names and weak aliases
  const oneWords: { word: string; entity: ListEntity }[] = [];
  for (const e of persons) for (const n of e.names) if (/^[A-Za-z]{5,}$/.test(n.value.trim())) oneWords.push({ word: n.value.trim(), entity: e });
  const givens = ['Sara', 'Maria', 'John', 'Ahmed', 'Wei', 'Olga', 'Carlos', 'Fatima', 'David', 'Leila', 'Mehmet', 'Anna'];
  const picked = sample(oneWords, 120, rand);
  picked.slice(0, 60).forEach(({ word }) => rows.push({ cls: 'one_token_whole', query: cap(word), listed: word.toUpperCase(), schema: 'Person', label: 1, how: 'one listed word queried alone' }));
  picked.slice(60).forEach(({ word }) => {
    const g = givens[Math.floor(rand() * givens.length)];
    rows.push({ cls: 'one_token_fragment', query: `${g} ${cap(word)}`, listed: word.toUpperCase(), schema: 'Person', label: 0, how: 'one listed word inside a longer name' });
  });
  // joined_words: two adjacent given-name words run together (not the surname)
  const givenWords = (e: ListEntity) => words(e.primaryName.slice(e.primaryName.indexOf(',') + 1));
  const joinable = persons.filter((e) => {
    if (!e.primaryName.includes(',') || !latin(e.primaryName.replace(',', ''))) return false;
    const g = givenWords(e);
    return g.length >= 2 && g.slice(0, 2).every((x) => x.length >= 2 && x.length <= 6);
  });
  for (const e of sample(joinable, 80, rand)) {
    const g = givenWords(e);
    const surname = words(e.primaryName.slice(0, e.primaryName.indexOf(',')));
    const q = [cap(g[0] + g[1]), ...g.slice(2).map(cap), ...surname.map(cap)].join(' ');
    rows.push({ cls: 'joined_words', query: q, listed: e.primaryName, schema: 'Person', label: 1, how: 'two given-name words run together' });
  }
  // arabic_chain
  const chains = persons.flatMap((e) => e.names.map((n) => natural(n.value))).filter((n) => /^[A-Za-z'-]+ (bin|ibn) [A-Za-z'-]+( [A-Za-z' -]+)?$/i.test(n) && latin(n));
  for (const n of sample([...new Set(chains)], 70, rand)) {
    const w = words(n);
    const [a, bin, b, ...rest] = w;
    if (a.toLowerCase() === b.toLowerCase() || !rest.length) continue;
    if (rand() < 0.5) rows.push({ cls: 'arabic_chain', query: [a, b, ...rest].join(' '), listed: n.toUpperCase(), schema: 'Person', label: 1, how: `"${bin}" left out, order kept` });
    else rows.push({ cls: 'arabic_chain', query: [b, bin, a, ...rest].join(' '), listed: n.toUpperCase(), schema: 'Person', label: 0, how: 'given name and father swapped' });
  }
  return rows;
}

// ---------- CJK from the pools
// common name characters (the pools' own), grouped by reading: homophones and other readings are drawn from them
const HAN_BY_READING = new Map<string, string[]>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const zhFaker = (allLocales as Record<string, any>).zh_CN.person;
const nameChars = new Set([...P.ZH_GIVEN_HEAD.join(''), ...P.ZH_SURNAME_HEAD.join(''), ...Object.values(zhFaker.first_name as Record<string, string[]>).flat().join('')]);
for (const ch of nameChars) {
  const r = anyAscii(ch).toLowerCase();
  if (!/^[a-z]+$/.test(r)) continue;
  (HAN_BY_READING.get(r) ?? HAN_BY_READING.set(r, []).get(r)!).push(ch);
}
const reading = (ch: string) => anyAscii(ch).toLowerCase();
const pinyinName = (han: string) => {
  const syl = [...han].map(reading);
  return `${syl[0].toUpperCase()} ${cap(syl.slice(1).join(''))}`;
};
const pickOf = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];

function cjk(): Row[] {
  const rows: Row[] = [];
  const given = P.ZH_GIVEN_HEAD;
  const readings = [...HAN_BY_READING.keys()];
  for (let i = 0; i < 80; i++) {
    const name = pickOf(P.ZH_SURNAME_HEAD) + pickOf(given);
    const chars = [...name];
    const k = 1 + Math.floor(rand() * (chars.length - 1)); // a given-name character
    const homs = (HAN_BY_READING.get(reading(chars[k])) ?? []).filter((c) => c !== chars[k]);
    if (homs.length && i % 2 === 0) {
      const q = [...chars];
      q[k] = pickOf(homs);
      rows.push({ cls: 'cjk_homophone', query: q.join(''), listed: i % 4 === 0 ? name : pinyinName(name), schema: 'Person', label: 1, how: `homophone character ${chars[k]}→${q[k]} (${reading(chars[k])})` });
    } else {
      let other = pickOf(readings);
      while (other === reading(chars[k])) other = pickOf(readings);
      const q = [...chars];
      q[k] = HAN_BY_READING.get(other)![0];
      rows.push({ cls: 'cjk_one_char', query: q.join(''), listed: i % 4 === 1 ? name : pinyinName(name), schema: 'Person', label: 0, how: `one character of another reading ${chars[k]}→${q[k]} (${reading(chars[k])}/${other})` });
    }
  }
  const vowelIndex = [0, 1, 2, 4, 5, 6, 8, 12, 13, 17, 18, 20];
  for (let i = 0; i < 60; i++) {
    const sur = pickOf(P.KO_SURNAME_HEAD);
    const name = sur + pickOf(P.KO_GIVEN_HEAD);
    const roman = `${P.KO_SURNAME_ROMAN[sur]?.[0] ?? cap(anyAscii(sur))} ${cap([...name].slice(1).map((c) => anyAscii(c).toLowerCase()).join('-'))}`;
    if (i % 2 === 0) {
      rows.push({ cls: 'korean_same', query: name, listed: roman.toUpperCase(), schema: 'Person', label: 1, how: 'Hangul against the usual romanisation' });
      continue;
    }
    // one given-name block with another vowel
    const chars = [...name];
    const k = 1 + Math.floor(rand() * (chars.length - 1));
    const code = chars[k].codePointAt(0)! - 0xac00;
    const lead = Math.floor(code / 588);
    const vowel = Math.floor((code % 588) / 28);
    const tail = code % 28;
    let v = vowelIndex[Math.floor(rand() * vowelIndex.length)];
    while (v === vowel) v = vowelIndex[Math.floor(rand() * vowelIndex.length)];
    chars[k] = String.fromCodePoint(0xac00 + lead * 588 + v * 28 + tail);
    rows.push({ cls: 'cjk_one_char', query: chars.join(''), listed: i % 4 === 1 ? name : roman.toUpperCase(), schema: 'Person', label: 0, how: 'one Hangul block with another vowel' });
  }
  return rows;
}

const loaded = await loadAllLists({ lists: listsFromRoot(dataDir, { includeOptIn: true }) }, { progressBar: false });
const rows = [...fromLists(loaded.entities), ...cjk()];
const seen = new Map<string, number>();
const out = ['class\tquery\tlisted\tschema\tlabel\thow\thalf'];
for (const r of rows) {
  const n = seen.get(r.cls) ?? 0;
  seen.set(r.cls, n + 1);
  out.push([r.cls, r.query, r.listed, r.schema, r.label, r.how, n % 2 === 0 ? 'tuning' : 'held_back'].join('\t'));
}
writeFileSync(path.join(here, 'generated.tsv'), out.join('\n') + '\n');
console.log(`${rows.length} pairs:`, Object.fromEntries(seen));
