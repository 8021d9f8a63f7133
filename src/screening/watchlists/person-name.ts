/**
 * Person-name agreement for internal lists: ordinary Western names where a nickname stands for the
 * formal name (Bob Smith = Robert Smith), a middle name or initial may be missing, the surname may be
 * misspelt by a letter, and "Smith, Robert" is written surname first. Two different given names
 * (John/Robert) or surnames are different people whatever else agrees in the name, and so are two
 * different generational suffixes (John Smith Jr / John Smith Sr: a father and son often share a
 * name, a home and a phone).
 */
import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';
import { HONORIFICS } from '../matching/lexicon';
import { editDistance } from '../matching/similarity';
import { englishGivenNames, type GivenNameTable } from './given-names';

export type NameTokenHow = 'exact' | 'nickname' | 'short_form' | 'spelling' | 'sounds_alike' | 'initial';

export interface NamePairing {
  subject: string;
  listed: string;
  how: NameTokenHow;
  sim: number;
}

export interface PersonNameAgreement {
  /** in [0,1]: 1 = the same words */
  score: number;
  pairs: NamePairing[];
  /** words of one side with no counterpart */
  unmatched: { subject: string[]; listed: string[] };
  /** why the score was held down, in words */
  notes: string[];
  /** the first given names pair (exactly or as a short form) */
  givenAgrees: boolean;
  /** the surnames pair (exactly or within a letter or two) */
  surnameAgrees: boolean;
  /** both names carry a generational suffix and they differ (Jr / Sr, II / III): two people */
  suffixConflict: boolean;
  /** the first given names are both in the table and do not stand for each other (Robert / Richard, Steven / Stephanie): two people */
  givenNamesDiffer: boolean;
}

/** Generational suffixes, each written one way: kept, since Jr and Sr are two people. */
const GENERATIONS: Readonly<Record<string, string>> = {
  jr: 'jr', jnr: 'jr', junior: 'jr', sr: 'sr', snr: 'sr', senior: 'sr', ii: 'ii', '2nd': 'ii', iii: 'iii', '3rd': 'iii', iv: 'iv', '4th': 'iv',
};
/** Suffixes that say nothing about who the person is. */
const OTHER_SUFFIXES = new Set(['esq', 'phd', 'md', 'dds', 'cpa']);
/** A person's name never gets above this when the generational suffixes differ (below the weak-name bar of the policy). */
export const SUFFIX_CONFLICT_CAP = 0.6;

export interface PersonNameParts {
  /** given names first, surname last, titles and suffixes left out */
  words: string[];
  /** the generational suffix, written one way (jr, sr, ii, iii, iv) */
  generation?: string;
}

/** A person's name in given-names-first order ("Smith, Robert J. Jr" → robert j smith, jr). */
export function personNameParts(name: string): PersonNameParts {
  let s = anyAscii(name).toLowerCase().trim();
  const comma = s.indexOf(',');
  if (comma > 0) s = `${s.slice(comma + 1)} ${s.slice(0, comma)}`;
  const all = s
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/'/g, ''))
    // the matcher's honorifics hold jr/sr/ii/iii too: a generational suffix is read before they are dropped
    .filter((w) => w && (GENERATIONS[w] !== undefined || (!HONORIFICS.has(w) && !OTHER_SUFFIXES.has(w))));
  let generation: string | undefined;
  const words: string[] = [];
  // a suffix is a suffix after the first word ("Junior Smith" is a given name)
  all.forEach((w, i) => {
    const g = i > 0 ? GENERATIONS[w] : undefined;
    if (g) generation ??= g;
    else if (/^[a-z]+$/.test(w)) words.push(w);
  });
  return { words, ...(generation ? { generation } : {}) };
}

/** Words of a person's name in given-names-first order ("Smith, Robert J." → robert j smith). */
export function personNameWords(name: string): string[] {
  return personNameParts(name).words;
}

function tokenSim(a: string, b: string, table: GivenNameTable, firstGiven: boolean): { how: NameTokenHow; sim: number } | undefined {
  if (a === b) return { how: 'exact', sim: 1 };
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? { how: 'initial', sim: 0.7 } : undefined;
  if (table.agree(a, b)) return { how: 'nickname', sim: 0.9 };
  // two given names the table knows and that do not stand for each other are two names (Robert/Roberta, John/Joan)
  if (table.knows(a) && table.knows(b)) return undefined;
  const shortest = Math.min(a.length, b.length);
  // a first given name written short, the table not knowing the pair (Kim / Kimberly, Sam / Samantha): the start of the other
  if (firstGiven && shortest >= 3 && Math.max(a.length, b.length) >= shortest + 2 && (a.startsWith(b) || b.startsWith(a))) return { how: 'short_form', sim: 0.85 };
  const d = editDistance(a, b, 2);
  if (d === 1 && shortest >= 4) return { how: 'spelling', sim: 0.88 };
  if (d === 2 && shortest >= 7) return { how: 'spelling', sim: 0.82 };
  if (shortest >= 3 && a[0] === b[0]) {
    const [a1, a2] = doubleMetaphone(a);
    const [b1, b2] = doubleMetaphone(b);
    if (a1 && (a1 === b1 || a1 === b2 || (a2 && (a2 === b1 || a2 === b2)))) return { how: 'sounds_alike', sim: 0.82 };
  }
  return undefined;
}

/** Weight of a word by its place: the surname carries most, a middle name or initial little. */
function weights(words: string[]): number[] {
  return words.map((w, i) => (i === words.length - 1 ? 1.2 : i === 0 ? 1 : w.length === 1 ? 0.2 : 0.4));
}

function align(sw: string[], lw: string[], table: GivenNameTable): { pairs: { i: number; j: number; how: NameTokenHow; sim: number }[] } {
  const cands: { i: number; j: number; how: NameTokenHow; sim: number; v: number }[] = [];
  for (let i = 0; i < sw.length; i++) {
    for (let j = 0; j < lw.length; j++) {
      const t = tokenSim(sw[i]!, lw[j]!, table, i === 0 && j === 0 && sw.length > 1 && lw.length > 1);
      // prefer pairing words in the same role (first with first, last with last)
      const role = (k: number, n: number) => (k === n - 1 ? 2 : k === 0 ? 0 : 1);
      if (t) cands.push({ i, j, ...t, v: t.sim + (role(i, sw.length) === role(j, lw.length) ? 0.01 : 0) });
    }
  }
  cands.sort((a, b) => b.v - a.v);
  const su = new Set<number>();
  const lu = new Set<number>();
  const pairs: { i: number; j: number; how: NameTokenHow; sim: number }[] = [];
  for (const c of cands) {
    if (su.has(c.i) || lu.has(c.j)) continue;
    // an initial pairs only with a given name, never with the surname
    if (c.how === 'initial' && (c.i === sw.length - 1 || c.j === lw.length - 1)) continue;
    su.add(c.i);
    lu.add(c.j);
    pairs.push({ i: c.i, j: c.j, how: c.how, sim: c.sim });
  }
  return { pairs };
}

export function personNameAgreement(subjectName: string, listedName: string, table: GivenNameTable = englishGivenNames()): PersonNameAgreement {
  const subject = personNameParts(subjectName);
  const listed = personNameParts(listedName);
  const sw = subject.words;
  const lw = listed.words;
  if (!sw.length || !lw.length) return { score: 0, pairs: [], unmatched: { subject: sw, listed: lw }, notes: ['a name is empty'], givenAgrees: false, surnameAgrees: false, suffixConflict: false, givenNamesDiffer: false };
  // surname written first without a comma ("Smith Robert"): try the reversed order too and keep the better reading
  let best = scoreOf(sw, lw, table);
  if (sw.length === 2 && lw.length === 2) {
    const reversed = scoreOf([sw[1], sw[0]], lw, table);
    // only when it pairs the surnames: otherwise a given name read as a surname would look better than it is
    if (reversed.surnameAgrees && reversed.score > best.score) best = reversed;
  }
  if (subject.generation && listed.generation && subject.generation !== listed.generation) {
    best.suffixConflict = true;
    best.score = Math.min(best.score, SUFFIX_CONFLICT_CAP);
    best.notes.push(`the generational suffixes differ ("${subject.generation}" / "${listed.generation}"): two people of one name`);
  }
  return best;
}

function scoreOf(sw: string[], lw: string[], table: GivenNameTable): PersonNameAgreement {
  const { pairs } = align(sw, lw, table);
  const swt = weights(sw);
  const lwt = weights(lw);
  let sCov = 0;
  let lCov = 0;
  for (const p of pairs) {
    sCov += p.sim * swt[p.i];
    lCov += p.sim * lwt[p.j];
  }
  const sc = sCov / swt.reduce((a, b) => a + b, 0);
  const lc = lCov / lwt.reduce((a, b) => a + b, 0);
  let score = 0.7 * Math.max(sc, lc) + 0.3 * Math.min(sc, lc);
  const notes: string[] = [];
  const sLast = sw.length - 1;
  const lLast = lw.length - 1;
  const surname = pairs.find((p) => p.i === sLast && p.j === lLast);
  if (!surname || surname.sim < 0.8) {
    score = Math.min(score, 0.45);
    notes.push(`the surnames differ ("${sw[sLast]}" / "${lw[lLast]}")`);
  }
  if (sw.length > 1 && lw.length > 1) {
    const first = pairs.find((p) => p.i === 0);
    const firstPaired = pairs.find((p) => p.j === 0);
    if (!first && !firstPaired) {
      score = Math.min(score, 0.55);
      notes.push(`the given names differ ("${sw[0]}" / "${lw[0]}")`);
    }
  }
  // every word of both sides paired exactly
  if (pairs.length === sw.length && pairs.length === lw.length && pairs.every((p) => p.how === 'exact')) score = 1;
  const given = pairs.find((p) => p.i === 0 && p.j === 0);
  const givenAgrees = sw.length > 1 && lw.length > 1 && !!given && (given.how === 'exact' || given.how === 'nickname' || given.how === 'short_form');
  const givenNamesDiffer = sw.length > 1 && lw.length > 1 && sw[0]!.length > 1 && lw[0]!.length > 1 && sw[0] !== lw[0] && table.knows(sw[0]!) && table.knows(lw[0]!) && !table.agree(sw[0]!, lw[0]!);
  const su = new Set(pairs.map((p) => p.i));
  const lu = new Set(pairs.map((p) => p.j));
  return {
    score: Math.round(Math.min(1, score) * 1000) / 1000,
    pairs: pairs.sort((a, b) => a.i - b.i).map((p) => ({ subject: sw[p.i], listed: lw[p.j], how: p.how, sim: p.sim })),
    unmatched: { subject: sw.filter((_, i) => !su.has(i)), listed: lw.filter((_, j) => !lu.has(j)) },
    notes,
    givenAgrees,
    surnameAgrees: !!surname && surname.sim >= 0.8,
    suffixConflict: false,
    givenNamesDiffer,
  };
}
