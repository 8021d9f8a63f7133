/**
 * Name-to-name comparison: token similarity, alignment and the name score in [0,1].
 *
 * The score is order-insensitive. Each side's tokens are weighted (rarity over the indexed names,
 * common given names, particles, legal forms and patronymics weigh less). The name score blends the
 * weighted coverage of both sides: 0.7·max + 0.3·min, so a missing middle name costs little,
 * while a different surname (unmatched tokens on both sides) costs a lot.
 */
import type { TokenAlignment } from '../model';
import { makeToken, type NameToken, type PreparedName } from './prepare';
import { editDistance, jaroWinkler } from './similarity';

export type AlignHow = 'exact' | 'transliterated' | 'phonetic' | 'fuzzy' | 'initial' | 'legal_form' | 'merged' | 'missing';

export interface TokenSim {
  how: AlignHow;
  sim: number;
}

const NONE: TokenSim = { how: 'missing', sim: 0 };

/** Similarity of two tokens, and how they matched. */
export function tokenSimilarity(q: NameToken, c: NameToken, memo?: SpellingMemo): TokenSim {
  if (q.kind === 'legal' || c.kind === 'legal') {
    if (q.kind !== c.kind) return NONE;
    return { how: 'legal_form', sim: q.fold === c.fold ? 1 : 0.7 };
  }
  if (q.kind === 'particle' || c.kind === 'particle') {
    if (q.kind === c.kind && q.fold === c.fold) return { how: 'exact', sim: 1 };
    return NONE;
  }
  if (q.kind === 'number' || c.kind === 'number') return q.norm === c.norm ? { how: 'exact', sim: 1 } : NONE;
  if (q.norm === c.norm) return { how: q.origin === c.origin ? 'exact' : 'transliterated', sim: 1 };
  if (q.fold === c.fold) return { how: 'transliterated', sim: 0.95 };
  if (q.initial || c.initial) {
    return q.norm[0] === c.norm[0] ? { how: 'initial', sim: 0.75 } : NONE;
  }
  const qa = q.origin === 'abjad';
  const ca = c.origin === 'abjad';
  if (qa !== ca) {
    // Unvowelled Arabic/Hebrew against a vowelled spelling: only the consonant skeleton can be compared.
    const latinLen = qa ? c.norm.length : q.norm.length;
    if (q.skel.length >= 2 && q.skel === c.skel) {
      return { how: 'transliterated', sim: q.skel.length >= 3 || latinLen >= 5 ? 0.95 : 0.8 };
    }
    const shortSkel = Math.min(q.skel.length, c.skel.length);
    if (shortSkel >= 4 && editDistance(q.skel, c.skel, 1) <= 1) return { how: 'transliterated', sim: 0.8 };
    return NONE;
  }
  // Two different well-known given names (Maria/Mario, Michael/Michelle) are different names,
  // unless they are spelling variants of one name (Mohammed/Muhammad: same skeleton and ending).
  if (q.common && c.common && q.kind === 'name' && c.kind === 'name') {
    const qs = q.skel;
    const cs = c.skel;
    const ending = (t: NameToken) => t.fold.slice(-1);
    if (qs !== cs || ending(q) !== ending(c)) return NONE;
  }
  const sim = spellingOf(q, c, memo);
  // A common given name matches only itself or its spelling variants, never a near-miss word
  // (Mary/Mayer, David/Davis, Kevin/Kelvin).
  if (sim.sim > 0 && q.common !== c.common && (sim.how === 'fuzzy' || sim.how === 'phonetic')) {
    return { how: sim.how, sim: round(sim.sim * 0.8) };
  }
  return sim;
}

/**
 * Spelling similarities already worked out for a query's tokens. spellingSimilarity is the costly
 * step (two edit distances and Jaro-Winkler) and reads only the two words' spellings, and a query's
 * candidates share many words (Hassan, Trading): the engine keeps one of these per prepared query.
 */
export type SpellingMemo = Map<NameToken, Map<string, TokenSim>>;

function spellingOf(q: NameToken, c: NameToken, memo: SpellingMemo | undefined): TokenSim {
  if (!memo) return spellingSimilarity(q, c);
  let known = memo.get(q);
  if (!known) {
    known = new Map();
    memo.set(q, known);
  }
  // Exactly what spellingSimilarity reads of the candidate word.
  const key = `${c.norm}\u0000${c.fold}\u0000${c.skel}\u0000${c.meta[0]}\u0000${c.meta[1]}`;
  let sim = known.get(key);
  if (sim === undefined) {
    sim = spellingSimilarity(q, c);
    known.set(key, sim);
  }
  return sim;
}

function spellingSimilarity(q: NameToken, c: NameToken): TokenSim {
  // Edit distance on both the transliterated and the folded forms (folding can hide or add an edit).
  let best: TokenSim = NONE;
  const consider = (how: AlignHow, sim: number) => {
    if (sim > best.sim) best = { how, sim };
  };
  for (const [a, b] of [
    [q.fold, c.fold],
    [q.norm, c.norm],
  ]) {
    const longest = Math.max(a.length, b.length);
    const shortest = Math.min(a.length, b.length);
    if (shortest < 3) continue;
    const d = editDistance(a, b, 2);
    if (d === 1 && longest >= 5) consider('fuzzy', longest >= 8 ? 0.93 : longest >= 6 ? 0.9 : 0.85);
    if (d === 2 && longest >= 8) consider('fuzzy', longest >= 10 ? 0.87 : 0.82);
  }
  const shortest = Math.min(q.fold.length, c.fold.length);
  const jw = jaroWinkler(q.fold, c.fold);
  if (jw >= 0.8 && shortest >= 3) {
    const [q1, q2] = q.meta;
    const [c1, c2] = c.meta;
    if (q1 && (q1 === c1 || q1 === c2 || (q2 && (q2 === c1 || q2 === c2)))) consider('phonetic', 0.85);
    if (q.skel.length >= 3 && q.skel === c.skel) consider('transliterated', 0.88);
  }
  if (jw >= 0.94 && shortest >= 6) consider('fuzzy', 0.8);
  return best;
}

/** Weight of a token in the name score, from its kind and its rarity. */
export type RarityFn = (fold: string) => number;

export function tokenWeight(t: NameToken, rarity: RarityFn): number {
  switch (t.kind) {
    case 'particle':
      return 0.1;
    case 'legal':
      return 0.15;
    case 'honorific':
      return 0.05;
    case 'number':
      return 0; // numbers are checked apart: they must agree
    case 'stop':
      return 0.35 * rarity(t.fold);
    case 'name': {
      let w = rarity(t.fold);
      if (t.common) w = Math.min(w, 0.4);
      if (t.patronymic) w *= 0.6;
      if (t.initial) w = 0.3;
      return w;
    }
  }
}

export interface NameComparison {
  score: number;
  alignment: TokenAlignment[];
  /** Human notes about caps and penalties applied inside the name score. */
  notes: string[];
  /** Every token on both sides aligned exactly (name-level identity). */
  exact: boolean;
}

interface Pair {
  qi: number[];
  ci: number[];
  how: AlignHow;
  sim: number;
}

function concatToken(parts: NameToken[]): NameToken {
  const norm = parts.map((p) => p.norm).join('');
  const t = makeToken(norm, parts[0].origin, 'name', parts[0].pos, parts.map((p) => p.display).join(' '));
  t.common = false;
  return t;
}

/** Words split or joined differently ("Abdul Rahman"/"Abdulrahman", "Xi Jin Ping"/"Xi Jinping"). */
function tryMerge(one: NameToken[], oneUsed: boolean[], many: NameToken[], manyUsed: boolean[], oneIsQuery: boolean, pairs: Pair[]): void {
  for (let i = 0; i < one.length; i++) {
    if (oneUsed[i] || one[i].kind !== 'name') continue;
    let best: { idx: number[]; s: TokenSim } | undefined;
    for (let j = 0; j + 1 < many.length; j++) {
      for (const len of [2, 3]) {
        if (j + len > many.length) continue;
        const span = many.slice(j, j + len);
        if (span.some((t, k) => manyUsed[j + k] || (t.kind !== 'name' && t.kind !== 'particle'))) continue;
        let spanLen = 0;
        for (const t of span) spanLen += t.norm.length;
        if (Math.abs(spanLen - one[i].norm.length) > 3) continue;
        const s = tokenSimilarity(one[i], concatToken(span));
        if (s.sim >= 0.85 && (!best || s.sim > best.s.sim)) best = { idx: span.map((_, k) => j + k), s };
      }
    }
    if (best) {
      oneUsed[i] = true;
      for (const k of best.idx) manyUsed[k] = true;
      const how: AlignHow = 'merged';
      pairs.push(oneIsQuery ? { qi: [i], ci: best.idx, how, sim: best.s.sim } : { qi: best.idx, ci: [i], how, sim: best.s.sim });
    }
  }
}

function unmatchedName(toks: NameToken[], used: boolean[]): boolean {
  for (let i = 0; i < toks.length; i++) if (!used[i] && toks[i].kind === 'name' && !toks[i].initial) return true;
  return false;
}

function numberKey(numbers: string[]): string {
  return numbers.length ? [...new Set(numbers)].sort().join(',') : '';
}

/** Compare two prepared names. `rarity` gives each folded token a weight in [0.25, 1] (1 = rare). */
export function compareNames(
  q: PreparedName,
  c: PreparedName,
  rarity: RarityFn = () => 1,
  withAlignment = true,
  /** Kept by the caller for q's tokens (see SpellingMemo). */
  memo?: SpellingMemo,
): NameComparison {
  const qt = q.tokens.filter((t) => t.kind !== 'number');
  const ct = c.tokens.filter((t) => t.kind !== 'number');
  const notes: string[] = [];
  if (!qt.length || !ct.length) {
    return { score: 0, alignment: [], notes: ['empty name'], exact: false };
  }
  const qw = qt.map((t) => tokenWeight(t, rarity));
  const cw = ct.map((t) => tokenWeight(t, rarity));

  // Greedy one-to-one alignment on weighted similarity.
  const cands: { i: number; j: number; s: TokenSim; v: number }[] = [];
  for (let i = 0; i < qt.length; i++) {
    for (let j = 0; j < ct.length; j++) {
      const s = tokenSimilarity(qt[i], ct[j], memo);
      if (s.sim > 0) cands.push({ i, j, s, v: s.sim * (qw[i] + cw[j]) + s.sim * 1e-3 - Math.abs(i - j) * 1e-6 });
    }
  }
  cands.sort((x, y) => y.v - x.v);
  const qUsed = new Array<boolean>(qt.length).fill(false);
  const cUsed = new Array<boolean>(ct.length).fill(false);
  const pairs: Pair[] = [];
  for (const x of cands) {
    if (qUsed[x.i] || cUsed[x.j]) continue;
    qUsed[x.i] = cUsed[x.j] = true;
    pairs.push({ qi: [x.i], ci: [x.j], how: x.s.how, sim: x.s.sim });
  }

  if (qUsed.includes(false) && cUsed.includes(false)) {
    tryMerge(qt, qUsed, ct, cUsed, true, pairs);
    tryMerge(ct, cUsed, qt, qUsed, false, pairs);
  }

  const qTotal = qw.reduce((a, b) => a + b, 0) || 1;
  const cTotal = cw.reduce((a, b) => a + b, 0) || 1;
  let qCov = 0;
  let cCov = 0;
  let strong = false;
  let anyName = false;
  let nameMatches = 0;
  for (const p of pairs) {
    for (const i of p.qi) qCov += p.sim * qw[i];
    for (const j of p.ci) cCov += p.sim * cw[j];
    const qs = p.qi.map((i) => qt[i]);
    const cs = p.ci.map((j) => ct[j]);
    const isName = qs.every((t) => t.kind === 'name' || t.kind === 'stop') && cs.every((t) => t.kind === 'name' || t.kind === 'stop');
    if (isName) {
      anyName = true;
      nameMatches++;
    }
    if (isName && p.sim >= 0.75 && qs.every((t) => !t.common && !t.initial) && cs.every((t) => !t.common && !t.initial)) {
      strong = true;
    }
  }
  const qc = Math.min(1, qCov / qTotal);
  const cc = Math.min(1, cCov / cTotal);
  // The better-covered side counts most: a name missing a middle name or a legal form still matches.
  // (Tried 0.5–0.6 for organisations on the bench: fewer false pairs but more lost legal-form variants.)
  let score = 0.7 * Math.max(qc, cc) + 0.3 * Math.min(qc, cc);

  const qLeft = unmatchedName(qt, qUsed);
  const cLeft = unmatchedName(ct, cUsed);
  if (!anyName) {
    score = Math.min(score, 0.3);
    notes.push('only particles or legal forms matched');
  } else if (!strong && nameMatches < 2 && (qLeft || cLeft)) {
    score = Math.min(score, 0.5);
    notes.push('only common given names or initials matched; other name parts differ');
  } else if (nameMatches === 1 && (qLeft || cLeft)) {
    score = Math.min(score, 0.75);
    notes.push('a single name part matched; the other name has further parts');
  }

  // Numbers in company and vessel names must agree.
  const qn = numberKey(q.numbers);
  const cn = numberKey(c.numbers);
  if (qn !== cn) {
    if (qn && cn) {
      score *= 0.55;
      notes.push(`numbers differ (${qn} vs ${cn})`);
    } else {
      score *= 0.9;
      notes.push(`number only on one side (${qn || cn})`);
    }
  }

  const exact =
    qn === cn &&
    qUsed.every((u, i) => u || qt[i].kind === 'honorific') &&
    cUsed.every((u, j) => u || ct[j].kind === 'honorific') &&
    pairs.every((p) => p.sim === 1 && p.how !== 'merged');
  if (exact) score = 1;
  score = round(Math.max(0, Math.min(1, score)));
  if (!withAlignment) return { score, alignment: [], notes, exact };

  const alignment: TokenAlignment[] = [];
  const allPairs = [...pairs].sort((a, b) => Math.min(...a.qi) - Math.min(...b.qi));
  for (const p of allPairs) {
    alignment.push({
      query: p.qi.map((i) => qt[i].display).join(' '),
      candidate: p.ci.map((j) => ct[j].display).join(' '),
      how: p.how,
      similarity: round(p.sim),
    });
  }
  qt.forEach((t, i) => {
    if (!qUsed[i]) alignment.push({ query: t.display, candidate: '', how: 'missing', similarity: 0 });
  });
  ct.forEach((t, j) => {
    if (!cUsed[j]) alignment.push({ query: '', candidate: t.display, how: 'missing', similarity: 0 });
  });
  for (const n of q.numbers) {
    const ok = c.numbers.includes(n);
    alignment.push({ query: n, candidate: ok ? n : '', how: ok ? 'exact' : 'missing', similarity: ok ? 1 : 0 });
  }
  for (const n of c.numbers) if (!q.numbers.includes(n)) alignment.push({ query: '', candidate: n, how: 'missing', similarity: 0 });
  return { score, alignment, notes, exact };
}

export function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
