/**
 * Over 500 lines on purpose: the comparison is the matcher's hot loop; token similarity, alignment
 * and the score's qualifiers stay in one module so the per-candidate path is read (and profiled) in
 * one place. Script readings, acronyms and discriminators live in their own modules beside it.
 *
 * Name-to-name comparison: token similarity, alignment and the name score in [0,1].
 *
 * The score is order-insensitive. Each side's tokens are weighted (rarity over the indexed names,
 * common given names, particles, legal forms and patronymics weigh less). The name score blends the
 * weighted coverage of both sides: 0.7·max + 0.3·min, so a missing middle name costs little,
 * while a different surname (unmatched tokens on both sides) costs a lot.
 */
import type { TokenAlignment } from '../model';
import { BUSINESS_WORDS, NAME_VARIANT_HEADS, ORG_STOP_WORDS } from './lexicon';
import { acronymWords, makeToken, type NameToken, type PreparedName } from './prepare';
import { skippedWords } from './acronyms';
import { relatedEntity } from './discriminators';
import { editDistance, jaroWinkler } from './similarity';
import { hebrewMatchesLatin } from './text';
import { koreanKey } from './korean';
import { SimilarityMemo } from './similarity-memo';
import { capReading, transcribedSimilarity } from './foreign/readings';

export type AlignHow =
  | 'exact'
  | 'transliterated'
  | 'translated'
  | 'phonetic'
  | 'fuzzy'
  | 'initial'
  | 'legal_form'
  | 'merged'
  | 'acronym'
  | 'missing';

export interface TokenSim {
  how: AlignHow;
  sim: number;
}

const NONE: TokenSim = { how: 'missing', sim: 0 };
// The results that do not depend on the words, made once (a TokenSim is never changed after it is made:
// callers copy `how` and `sim`, and the similarity memo hands the same object to every query).
const EXACT: TokenSim = { how: 'exact', sim: 1 };
const LEGAL_SAME: TokenSim = { how: 'legal_form', sim: 1 };
const LEGAL_OTHER: TokenSim = { how: 'legal_form', sim: 0.7 };
const TRANSLATED: TokenSim = { how: 'translated', sim: 1 };
const TRANSLIT_1: TokenSim = { how: 'transliterated', sim: 1 };
const TRANSLIT_95: TokenSim = { how: 'transliterated', sim: 0.95 };
const TRANSLIT_92: TokenSim = { how: 'transliterated', sim: 0.92 };
const TRANSLIT_9: TokenSim = { how: 'transliterated', sim: 0.9 };
const TRANSLIT_8: TokenSim = { how: 'transliterated', sim: 0.8 };
const INITIAL: TokenSim = { how: 'initial', sim: 0.75 };

/** Similarity of two tokens, and how they matched. */
export function tokenSimilarity(q: NameToken, c: NameToken): TokenSim {
  // issue 32: a query word read as a foreign name's transcription (foreign/readings.ts)
  if (q.origin === 'transcribed' || c.origin === 'transcribed') return transcribedSimilarity(q, c) ?? NONE;
  if (q.kind === 'legal' || c.kind === 'legal') {
    if (q.kind !== c.kind) return NONE;
    return q.fold === c.fold ? LEGAL_SAME : LEGAL_OTHER;
  }
  if (q.kind === 'particle' || c.kind === 'particle') {
    if (q.kind === c.kind && q.fold === c.fold) return EXACT;
    return NONE;
  }
  if (q.kind === 'number' || c.kind === 'number') return q.norm === c.norm ? EXACT : NONE;
  // A generic business word matches its translations ("Banco" = "Bank", "Denizcilik" = "Shipping").
  if (q.generic && q.generic === c.generic) return q.norm === c.norm ? EXACT : TRANSLATED;
  if (q.norm === c.norm) return q.origin === c.origin ? EXACT : TRANSLIT_1;
  if (q.fold === c.fold) return TRANSLIT_95;
  // One Korean syllable in two romanisations (Gim/Kim, Jeong/Jong/Chung, Eun/Un, Choe/Choi): see korean.ts.
  if (q.korean && q.korean === c.korean) return TRANSLIT_92;
  if (q.initial || c.initial) {
    // (issue 32: a Cyrillic initial also by the folds' first letters: Е. is Yevgeny, Ю. Yuri or Iurii: fold ye → e, y → i)
    const cyrillic = q.origin === 'cyrillic' || c.origin === 'cyrillic';
    return q.norm[0] === c.norm[0] || (cyrillic && q.fold[0] === c.fold[0]) ? INITIAL : NONE;
  }
  // Two names known to be different (Muhammad / Mahmud, Ri / Pak), whatever their spellings share.
  if (q.kind === 'name' && c.kind === 'name' && NAME_VARIANT_HEADS.has(q.fold) && NAME_VARIANT_HEADS.has(c.fold)) return NONE;
  // A Russian name as German, Polish, French, Dutch or Hungarian write it (Poetin, Szojgu, Jewgeni).
  if ((q.renderings?.length || c.renderings?.length) && sharesRendering(q, c)) return TRANSLIT_9;
  const qa = q.origin === 'abjad';
  const ca = c.origin === 'abjad';
  if (qa !== ca) {
    // Hebrew letter by letter against a Latin spelling (vowel letters, begadkefat, the article).
    const heb = qa ? q.hebrew : c.hebrew;
    if (heb && hebrewMatchesLatin(heb, qa ? c.norm : q.norm)) return TRANSLIT_95;
    // Unvowelled Arabic/Hebrew against a vowelled spelling: only the consonant skeleton can be compared.
    const latinLen = qa ? c.norm.length : q.norm.length;
    if (q.skel.length >= 2 && q.skel === c.skel) {
      return q.skel.length >= 3 || latinLen >= 5 ? TRANSLIT_95 : TRANSLIT_8;
    }
    const shortSkel = Math.min(q.skel.length, c.skel.length);
    if (shortSkel >= 4 && editDistance(q.skel, c.skel, 1) <= 1) return TRANSLIT_8;
    return NONE;
  }
  // Two different well-known given names (Maria/Mario, Michael/Michelle) are different names,
  // unless they are spelling variants of one name (Mohammed/Muhammad: same skeleton and ending).
  if (q.common && c.common && q.kind === 'name' && c.kind === 'name') {
    // (same skeleton and the same last letter)
    if (q.skel !== c.skel || lastCode(q.fold) !== lastCode(c.fold)) return NONE;
  }
  const sim = spellingSimilarity(q, c);
  // A common given name matches only itself or its spelling variants, never a near-miss word
  // (Mary/Mayer, David/Davis, Kevin/Kelvin).
  if (sim.sim > 0 && q.common !== c.common && (sim.how === 'fuzzy' || sim.how === 'phonetic')) {
    return { how: sim.how, sim: round(sim.sim * 0.8) };
  }
  return sim;
}

/** One token's fold is a rendering of the other's, or they share a rendering. */
function sharesRendering(q: NameToken, c: NameToken): boolean {
  const qr = q.renderings;
  const cr = c.renderings;
  if (qr && qr.includes(c.fold)) return true;
  if (cr && cr.includes(q.fold)) return true;
  if (qr && cr) for (let i = 0; i < qr.length; i++) if (cr.includes(qr[i])) return true;
  return false;
}

/** The last UTF-16 unit of a string (-1 for ''): what s.slice(-1) compares, without making a string. */
function lastCode(s: string): number {
  return s.length ? s.charCodeAt(s.length - 1) : -1;
}

/**
 * Token similarities already worked out (similarity-memo.ts), keyed by the two tokens' class ids in
 * the order tokenSimilarity was called with them. A query's candidates share many words (Hassan,
 * Trading), and so do the queries of a batch: the engine keeps one across queries.
 */
export type SpellingMemo = SimilarityMemo<TokenSim>;
export { SimilarityMemo };

// Token class ids: one number per distinct combination of every field tokenSimilarity (and the
// spelling comparison under it) reads of a token: kind, norm, fold, skel, metaphone codes, origin,
// initial, common, generic concept, Korean key, Hebrew letters and renderings. Two tokens with one
// id get the same similarity against any token, so a similarity is memoised by ids. Ids only grow:
// when the table is cleared (to bound memory in a long-running service) a class seen again gets a
// new id, never another class's.
// The classes are found by norm, then field by field against the first token of each class with
// that norm (tokens are not changed once compared): no key string is built and hashed per token.
interface TokenClass {
  id: number;
  token: NameToken;
}
const tokenClasses = new Map<string, TokenClass[]>();
let tokenClassCount = 0;
let nextTokenClass = 1;

/** The class id of a token, read when it is compared (tokens are not changed after they are compared). */
export function tokenClassId(t: NameToken): number {
  let classes = tokenClasses.get(t.norm);
  if (classes) {
    for (let i = 0; i < classes.length; i++) if (sameClass(classes[i].token, t)) return classes[i].id;
  }
  if (tokenClassCount >= 500_000) {
    tokenClasses.clear();
    tokenClassCount = 0;
    classes = undefined;
  }
  const id = nextTokenClass++;
  if (classes) classes.push({ id, token: t });
  else tokenClasses.set(t.norm, [{ id, token: t }]);
  tokenClassCount++;
  return id;
}

/** Every field of a token that tokenSimilarity reads is the same (norm is equal already). */
function sameClass(a: NameToken, b: NameToken): boolean {
  return (
    a.kind === b.kind &&
    a.fold === b.fold &&
    a.skel === b.skel &&
    a.meta[0] === b.meta[0] &&
    a.meta[1] === b.meta[1] &&
    a.origin === b.origin &&
    a.initial === b.initial &&
    a.common === b.common &&
    (a.generic ?? '') === (b.generic ?? '') &&
    (a.korean ?? '') === (b.korean ?? '') &&
    (a.hebrew ?? '') === (b.hebrew ?? '') &&
    sameRenderings(a.renderings, b.renderings)
  );
}

function sameRenderings(a: string[] | undefined, b: string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** tokenSimilarity(a, b) through the memo, when there is one. */
function similarityIn(memo: SpellingMemo | undefined, a: NameToken, aId: number, b: NameToken, bId: number): TokenSim {
  if (!memo) return tokenSimilarity(a, b);
  // the recent pairs first: a query's candidates share its matching words (Gray against every GRAY)
  const at = (Math.imul(aId, 0x9e3779b1) ^ bId) & RECENT_MASK;
  if (recentA[at] === aId && recentB[at] === bId) {
    return recentSim[at];
  }
  let sim = memo.get(aId, bId);
  if (sim === undefined) {
    sim = tokenSimilarity(a, b);
    memo.set(aId, bId, sim);
  }
  recentA[at] = aId;
  recentB[at] = bId;
  recentSim[at] = sim;
  return sim;
}

// A small direct-mapped table of the last similarities looked up, in front of the memo (whose table is
// far bigger than the CPU caches): the same class-id pair always has the same similarity (ids are never
// reused, whatever memo the caller keeps), so an entry never goes stale. 0 is no class id.
const RECENT_MASK = 4095;
const recentA = new Int32Array(RECENT_MASK + 1);
const recentB = new Int32Array(RECENT_MASK + 1);
const recentSim: TokenSim[] = new Array<TokenSim>(RECENT_MASK + 1).fill(NONE);

function spellingSimilarity(q: NameToken, c: NameToken): TokenSim {
  // Edit distance on both the folded and the transliterated forms (folding can hide or add an edit).
  // The best kind of match wins; on a tie the first found (the order below) is kept.
  let how: AlignHow = 'missing';
  let best = editSimilarity(q.fold, c.fold);
  if (best > 0) how = 'fuzzy';
  // (on the transliterated forms only when they are other strings: the same strings give the same value)
  if (q.norm !== q.fold || c.norm !== c.fold) {
    const onNorm = editSimilarity(q.norm, c.norm);
    if (onNorm > best) {
      best = onNorm;
      how = 'fuzzy';
    }
  }
  const shortest = Math.min(q.fold.length, c.fold.length);
  const q1 = q.meta[0];
  const q2 = q.meta[1];
  const c1 = c.meta[0];
  const c2 = c.meta[1];
  const phonetic = !!q1 && (q1 === c1 || q1 === c2 || (!!q2 && (q2 === c1 || q2 === c2))) && 0.85 > best;
  const skeletal = q.skel.length >= 3 && q.skel === c.skel && 0.88 > best;
  // Jaro-Winkler is worked out only when its value can change the result: for a phonetic or skeleton
  // match to count, or for a long pair whose lengths let it reach 0.94 (jw ≤ 0.8 + 0.2·shortest/longest).
  const longest = Math.max(q.fold.length, c.fold.length);
  const nearLong = shortest >= 6 && 0.8 > best && shortest * 10 >= longest * 7;
  if (!(shortest >= 3 && (phonetic || skeletal)) && !nearLong) return how === 'missing' ? NONE : { how, sim: best };
  const jw = jaroWinkler(q.fold, c.fold);
  if (jw >= 0.8 && shortest >= 3) {
    if (phonetic) {
      best = 0.85;
      how = 'phonetic';
    }
    if (skeletal) {
      best = 0.88;
      how = 'transliterated';
    }
  }
  if (jw >= 0.94 && shortest >= 6 && 0.8 > best) {
    best = 0.8;
    how = 'fuzzy';
  }
  return how === 'missing' ? NONE : { how, sim: best };
}

/** The 'fuzzy' similarity of two spellings from their edit distance (0 when they are not near enough). */
function editSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  const shortest = Math.min(a.length, b.length);
  if (shortest < 3) return 0;
  // A short word with another first letter is another word, not a typo (Petro/Metro, Power/Tower, Hotel/Motel).
  if (longest <= 6 && a.charCodeAt(0) !== b.charCodeAt(0)) return 0;
  const d = editDistance(a, b, 2);
  let sim = 0;
  if (d === 1 && longest >= 5) sim = longest >= 8 ? 0.93 : longest >= 6 ? 0.9 : 0.85;
  if (d === 2 && longest >= 8 && (longest >= 10 ? 0.87 : 0.82) > sim) sim = longest >= 10 ? 0.87 : 0.82;
  return sim;
}

/**
 * Weight of a token in the name score, from its kind and its rarity. `known` (when the index gives it)
 * says whether a folded word occurs in any listed name.
 */
export type RarityFn = ((fold: string) => number) & { known?: (fold: string) => boolean };

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
  /**
   * Highest final score this match may reach whatever the qualifiers add: a one-word query or an
   * acronym is a potential match (below 0.95, never confirmed).
   */
  maxScore?: number;
}

/** Final-score band of a one-word query found as a whole word of a longer listed name (issue 16 §4). */
export const ONE_WORD_BAND = { min: 0.8, max: 0.92, cap: 0.94 } as const;
/** Final score of an acronym against the name it abbreviates, before qualifiers (capped like one word). */
export const ACRONYM_SCORE = 0.85;
/** Final score of an acronym that leaves words out (acronyms.ts): just above the default threshold, never higher. */
export const SKIP_ACRONYM_SCORE = 0.82;
/** Highest final score of a vessel's name against a company name (its owner, most likely). */
export const VESSEL_OWNER_CAP = 0.85;
/** The engine's factor from name score to final score (engine.ts NAME_ONLY_CAP). */
const NAME_TO_FINAL = 0.95;

/**
 * Aligned tokens: qt[q0 .. q0+qn-1] with ct[c0 .. c0+cn-1]. One side is always a single token; the
 * other is one token or, for a merge, a run of adjacent tokens.
 */
interface Pair {
  q0: number;
  qn: number;
  c0: number;
  cn: number;
  how: AlignHow;
  sim: number;
}

/** Which tokens of a side are aligned already (1) or not (0), indexed like the side's tokens (a scratch buffer: may be longer). */
type Used = Uint8Array;

function concatToken(parts: NameToken[]): NameToken {
  const norm = parts.map((p) => p.norm).join('');
  // (a joined span is compared for its spelling only: no renderings, which would cost more than the merge)
  const t = makeToken(norm, parts[0].origin, 'name', parts[0].pos, parts.map((p) => p.display).join(' '), false);
  t.common = false;
  if (parts.every((p) => p.korean)) t.korean = koreanKey(norm);
  return t;
}

/**
 * What compareOne needs of one side, worked out once per prepared name (a listed name is compared
 * with thousands of queries, a query with all its candidates): the tokens without numbers, their
 * weights for this rarity function and class ids, and the joined spans tryMerge tries (made on first use).
 */
interface Side {
  rarity: RarityFn;
  toks: NameToken[];
  w: Float64Array;
  total: number;
  /** tokenClassId of each of toks. */
  ids: Int32Array;
  /** Joined spans by j·2 + len − 2 (filled on first use), and their class ids. */
  spans: (NameToken | undefined)[];
  spanIds: Int32Array;
}
// Each prepared name's side, kept on the name under a symbol (not enumerable: v8 serialisation, JSON
// and deep equality do not see it) rather than in a WeakMap: a comparison reads the name anyway,
// and a WeakMap lookup over hundreds of thousands of listed names is a hash probe into a big table.
const SIDE = Symbol('compare side');
type WithSide = PreparedName & { [SIDE]?: Side };
// the last query side asked for (querySideOf): a query is compared with each of its candidates in turn
let lastQuery: PreparedName | undefined;
let lastQuerySide: Side | undefined;

function querySideOf(p: PreparedName, rarity: RarityFn): Side {
  if (p !== lastQuery || lastQuerySide!.rarity !== rarity) {
    lastQuerySide = sideOf(p, rarity);
    lastQuery = p;
  }
  return lastQuerySide!;
}

function sideOf(p: PreparedName, rarity: RarityFn): Side {
  const side = (p as WithSide)[SIDE];
  if (side && side.rarity === rarity) return side;
  return newSide(p, rarity);
}

function newSide(p: PreparedName, rarity: RarityFn): Side {
  // (the tokens themselves when there is no number among them: toks is never changed)
  const toks = p.tokens.some(isNumber) ? p.tokens.filter(notNumber) : p.tokens;
  // Typed arrays and a spans array filled with undefined from the start: every side's arrays have one
  // hidden class (a plain number array is SMI- or double-elements by its values, a spans array packed
  // or holey by the order it is filled in), so the code reading them is not optimised for one and
  // thrown away at the next.
  const w = new Float64Array(toks.length);
  const ids = new Int32Array(toks.length);
  const spans: (NameToken | undefined)[] = [];
  for (let k = 0; k < toks.length * 2; k++) spans.push(undefined);
  let total = 0;
  for (let i = 0; i < toks.length; i++) {
    w[i] = tokenWeight(toks[i], rarity);
    total += w[i];
    ids[i] = tokenClassId(toks[i]);
  }
  const side: Side = { rarity, toks, w, total: total || 1, ids, spans, spanIds: new Int32Array(toks.length * 2) };
  if (Object.prototype.hasOwnProperty.call(p, SIDE)) (p as WithSide)[SIDE] = side;
  else Object.defineProperty(p, SIDE, { value: side, writable: true, enumerable: false, configurable: true });
  return side;
}

function isNumber(t: NameToken): boolean {
  return t.kind === 'number';
}

function notNumber(t: NameToken): boolean {
  return t.kind !== 'number';
}

/** The joined token of side.toks[j .. j+len-1] (len 2 or 3), made once per side. */
function spanToken(side: Side, j: number, len: number): NameToken {
  const k = j * 2 + len - 2;
  let t = side.spans[k];
  if (!t) {
    t = side.spans[k] = concatToken(side.toks.slice(j, j + len));
    side.spanIds[k] = tokenClassId(t);
  }
  return t;
}

/** Words split or joined differently ("Abdul Rahman"/"Abdulrahman", "Xi Jin Ping"/"Xi Jinping"). */
function tryMerge(oneSide: Side, oneUsed: Used, manySide: Side, manyUsed: Used, oneIsQuery: boolean, pairs: Pair[], memo?: SpellingMemo): void {
  const one = oneSide.toks;
  const many = manySide.toks;
  for (let i = 0; i < one.length; i++) {
    if (oneUsed[i] || one[i].kind !== 'name') continue;
    const oneId = oneSide.ids[i];
    let bestJ = -1;
    let bestLen = 0;
    let bestS: TokenSim | undefined;
    for (let j = 0; j + 1 < many.length; j++) {
      for (let len = 2; len <= 3; len++) {
        if (j + len > many.length) continue;
        let eligible = true;
        let spanLen = 0;
        for (let k = j; k < j + len; k++) {
          const t = many[k];
          if (manyUsed[k] || (t.kind !== 'name' && t.kind !== 'particle')) {
            eligible = false;
            break;
          }
          spanLen += t.norm.length;
        }
        if (!eligible || Math.abs(spanLen - one[i].norm.length) > 3) continue;
        const span = spanToken(manySide, j, len);
        const s = similarityIn(memo, one[i], oneId, span, manySide.spanIds[j * 2 + len - 2]);
        if (s.sim >= 0.85 && (!bestS || s.sim > bestS.sim)) {
          bestJ = j;
          bestLen = len;
          bestS = s;
        }
      }
    }
    if (bestS) {
      oneUsed[i] = 1;
      for (let k = bestJ; k < bestJ + bestLen; k++) manyUsed[k] = 1;
      const how: AlignHow = 'merged';
      pairs.push(
        oneIsQuery ? { q0: i, qn: 1, c0: bestJ, cn: bestLen, how, sim: bestS.sim } : { q0: bestJ, qn: bestLen, c0: i, cn: 1, how, sim: bestS.sim },
      );
    }
  }
}

function unmatchedName(toks: NameToken[], used: Used): boolean {
  for (let i = 0; i < toks.length; i++) if (!used[i] && toks[i].kind === 'name' && !toks[i].initial) return true;
  return false;
}

function numberKey(numbers: string[]): string {
  return numbers.length ? [...new Set(numbers)].sort().join(',') : '';
}

/**
 * Compare two prepared names. `rarity` gives each folded token a weight in [0.25, 1] (1 = rare).
 * A name holding former names ("X (ex-Y)", either side) matches through its best part.
 */
export function compareNames(
  q: PreparedName,
  c: PreparedName,
  rarity: RarityFn = () => 1,
  withAlignment = true,
  /** Kept by the caller for q's tokens (see SpellingMemo). */
  memo?: SpellingMemo,
): NameComparison {
  if (!q.alternatives?.length && !c.alternatives?.length) return capReading(q, compareOne(q, c, rarity, withAlignment, memo), true);
  let best: NameComparison | undefined;
  let bestQ = q;
  let bestC = c;
  for (const qa of [q, ...(q.alternatives ?? [])]) {
    for (const ca of [c, ...(c.alternatives ?? [])]) {
      const r = capReading(qa, compareOne(qa, ca, rarity, withAlignment, memo), qa === q);
      if (!best || r.score > best.score) [best, bestQ, bestC] = [r, qa, ca];
    }
  }
  const out = best!;
  if (bestQ !== q && bestQ.reading) out.notes.unshift(bestQ.reading);
  else if (bestQ !== q) out.notes.unshift(`the query's former name "${bestQ.raw}" matched (split from "${q.raw}")`);
  else if (q.alternatives?.length) out.notes.unshift(`the query's current name "${q.tokens.map((t) => t.display).join(' ')}" matched; former names split off`);
  if (bestC !== c && bestC.reading) out.notes.unshift(`listed name: ${bestC.reading}`);
  else if (bestC !== c) out.notes.unshift(`listed former name "${bestC.raw}" matched (split from "${c.raw}")`);
  out.exact = out.exact && bestQ === q && bestC === c;
  return out;
}

function oneWordName(toks: NameToken[]): boolean {
  let n = 0;
  for (const t of toks) if (t.kind !== 'legal' && t.kind !== 'honorific' && ++n > 1) return false;
  return n === 1;
}

function leftWords(toks: NameToken[], used: Used): NameToken[] {
  return toks.filter((t, i) => !used[i] && (t.kind === 'name' || t.kind === 'stop'));
}

function nameLike(t: NameToken): boolean {
  return t.kind === 'name' || t.kind === 'stop';
}

/** The alignment of a comparison made without one (shared, so frozen). */
const NO_ALIGNMENT: TokenAlignment[] = Object.freeze([]) as unknown as TokenAlignment[];

// Scratch for compareOne's greedy alignment (reused: compareOne never runs inside itself).
let candI = new Int32Array(64);
let candJ = new Int32Array(64);
let candV = new Float64Array(64);
let candS: TokenSim[] = [];
let candOrder = new Int32Array(64);

function compareOne(q: PreparedName, c: PreparedName, rarity: RarityFn, withAlignment: boolean, memo?: SpellingMemo): NameComparison {
  const qSide = querySideOf(q, rarity);
  const cSide = sideOf(c, rarity);
  const qt = qSide.toks;
  const ct = cSide.toks;
  const notes: string[] = q.notes.length || c.notes.length ? [...q.notes, ...c.notes] : [];
  if (!qt.length || !ct.length) {
    return { score: 0, alignment: [], notes: ['empty name'], exact: false };
  }
  // an acronym needs one side to be a single word (checked without allocating: most pairs are not)
  const acronym =
    (q.acronyms.length || c.acronyms.length || q.skipAcronyms || c.skipAcronyms) && (oneWordName(qt) || oneWordName(ct))
      ? acronymMatch(q, c, qt, ct, rarity)
      : undefined;
  if (acronym) return acronym;
  const qw = qSide.w;
  const cw = cSide.w;

  // Greedy one-to-one alignment on weighted similarity: the pairs by value, best first (ties in
  // the order they were found), each taken unless one of its tokens is taken already.
  const most = qt.length * ct.length;
  if (most > candI.length) {
    candI = new Int32Array(most);
    candJ = new Int32Array(most);
    candV = new Float64Array(most);
    candOrder = new Int32Array(most);
  }
  let n = 0;
  const qIds = qSide.ids;
  const cIds = cSide.ids;
  for (let i = 0; i < qt.length; i++) {
    for (let j = 0; j < ct.length; j++) {
      const s = similarityIn(memo, qt[i], qIds[i], ct[j], cIds[j]);
      if (s.sim > 0) {
        candI[n] = i;
        candJ[n] = j;
        candS[n] = s;
        candV[n] = s.sim * (qw[i] + cw[j]) + s.sim * 1e-3 - Math.abs(i - j) * 1e-6;
        // insertion sort, stable: after every entry of a greater or equal value
        let k = n;
        while (k > 0 && candV[candOrder[k - 1]] < candV[n]) {
          candOrder[k] = candOrder[k - 1];
          k--;
        }
        candOrder[k] = n;
        n++;
      }
    }
  }
  const qUsed = usedScratch(0, qt.length);
  const cUsed = usedScratch(1, ct.length);
  const pairs: Pair[] = [];
  for (let k = 0; k < n; k++) {
    const x = candOrder[k];
    const i = candI[x];
    const j = candJ[x];
    if (qUsed[i] || cUsed[j]) continue;
    qUsed[i] = cUsed[j] = 1;
    pairs.push({ q0: i, qn: 1, c0: j, cn: 1, how: candS[x].how, sim: candS[x].sim });
  }
  candS.length = 0;

  if (anyUnused(qUsed, qt.length) && anyUnused(cUsed, ct.length)) {
    tryMerge(qSide, qUsed, cSide, cUsed, true, pairs, memo);
    tryMerge(cSide, cUsed, qSide, qUsed, false, pairs, memo);
  }

  // In an organisation or vessel name, a short word one letter away from another word that the lists
  // also use is that other word, not a typo ("Hotel"/"Motel", "Trans"/"Trains" once both are listed words).
  if ((q.org || c.org) && rarity.known) {
    for (const p of pairs) {
      if (p.how !== 'fuzzy' || p.qn !== 1 || p.cn !== 1) continue;
      const a = qt[p.q0];
      const b = ct[p.c0];
      if (Math.max(a.norm.length, b.norm.length) <= 6 && p.sim > 0.7 && rarity.known(a.fold) && rarity.known(b.fold)) {
        p.sim = 0.7;
        notes.push(`"${a.display}" and "${b.display}" are short words one letter apart: read as different words`);
      }
    }
  }
  const qTotal = qSide.total;
  const cTotal = cSide.total;
  let qCov = 0;
  let cCov = 0;
  let strong = false;
  let anyName = false;
  let nameMatches = 0;
  for (const p of pairs) {
    for (let i = p.q0; i < p.q0 + p.qn; i++) qCov += p.sim * qw[i];
    for (let j = p.c0; j < p.c0 + p.cn; j++) cCov += p.sim * cw[j];
    const isName = allNameLike(qt, p.q0, p.qn) && allNameLike(ct, p.c0, p.cn);
    if (isName) {
      anyName = true;
      nameMatches++;
    }
    if (isName && p.sim >= 0.75 && noneCommonOrInitial(qt, p.q0, p.qn) && noneCommonOrInitial(ct, p.c0, p.cn)) {
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
  // A one-word query ("Putin", "Sberbank"): the names that hold that very word are potential matches,
  // ranked by how much of the listed name the word is; a near spelling of another word is not enough.
  let maxScore: number | undefined;
  let qWord: NameToken | undefined;
  let qWordCount = 0;
  for (const t of qt) if (nameLike(t) && ++qWordCount === 1) qWord = t;
  const oneWord = qWordCount === 1 && qWord!.kind === 'name' && !qWord!.initial ? qWord : undefined;
  let oneWordPair: Pair | undefined;
  if (oneWord) {
    for (const p of pairs) {
      if (p.qn === 1 && qt[p.q0] === oneWord) {
        oneWordPair = p;
        break;
      }
    }
  }
  let oneWordDone = false;
  if (oneWord && oneWordPair) {
    const cWords = ct.filter(nameLike);
    const whole = oneWordPair.sim >= 0.95 && oneWordPair.cn === 1 && oneWordPair.how !== 'merged';
    const generic = ORG_STOP_WORDS.has(oneWord.norm) || BUSINESS_WORDS.has(oneWord.norm);
    if (whole && cWords.length > 1 && !oneWord.common && !ct[oneWordPair.c0].common && !generic && oneWord.norm.length >= 3 && rarity(oneWord.fold) >= 0.45) {
      const share = cw[oneWordPair.c0] / (cWords.reduce((a, t) => a + cw[ct.indexOf(t)], 0) || 1);
      const final = ONE_WORD_BAND.min + (ONE_WORD_BAND.max - ONE_WORD_BAND.min) * Math.min(1, share);
      score = final / NAME_TO_FINAL;
      maxScore = ONE_WORD_BAND.cap;
      oneWordDone = true;
      notes.push(`one-word query "${oneWord.display}" found as a whole word of the listed name: a potential match, not a confirmed one`);
    } else if (whole && cWords.length === 1) {
      // the listed name is that one word (with a legal form or title): a full-name match, ranked above the band
      score = Math.max(score, (ONE_WORD_BAND.max + 0.01) / NAME_TO_FINAL);
    } else if (
      oneWordPair.sim < 0.9 &&
      Math.max(oneWord.norm.length, longestNorm(ct, oneWordPair.c0, oneWordPair.cn)) <= 7 &&
      (oneWordPair.how === 'fuzzy' || oneWordPair.how === 'phonetic' || oneWordPair.how === 'transliterated')
    ) {
      // (a long word two letters off is more likely a typo of that word, and keeps its score)
      score = Math.min(score, 0.75);
      notes.push(`one-word query "${oneWord.display}" only resembles "${displays(ct, oneWordPair.c0, oneWordPair.cn)}": another word`);
      oneWordDone = true;
    }
  }
  if ((q.burmese || c.burmese) && score > 0.75 && !oneWordDone && (qLeft || cLeft)) {
    // a Burmese name has no surname or middle name: a syllable more or less is another person's name
    score = Math.min(score, 0.75);
    notes.push('a Burmese name matched without all its syllables: Burmese names have no surname, each syllable counts');
  }
  if (oneWordDone) {
    // the caps below are for multi-word queries
  } else if (!anyName) {
    score = Math.min(score, 0.3);
    notes.push('only particles or legal forms matched');
  } else if (!strong && nameMatches < 2 && (qLeft || cLeft)) {
    score = Math.min(score, 0.5);
    notes.push('only common given names or initials matched; other name parts differ');
  } else if (nameMatches === 1 && (qLeft || cLeft)) {
    score = Math.min(score, 0.75);
    notes.push('a single name part matched; the other name has further parts');
  }

  // A subsidiary in another place, or a holding company, shares its parent's name (discriminators.ts).
  // (only for names close enough to matter: below 0.6 no qualifier lifts a pair to the threshold)
  if ((q.org || c.org) && strong && score >= 0.6 && !oneWordDone && (qLeft || cLeft || q.holding || c.holding)) {
    const qRest = leftWords(qt, qUsed);
    const cRest = leftWords(ct, cUsed);
    // (a place is one to three words; a longer remainder is another name, not a subsidiary's)
    const d = qRest.length <= 3 && cRest.length <= 3 ? relatedEntity(qRest, cRest) : undefined;
    if (d) {
      if (d.factor) score *= d.factor;
      if (d.cap) maxScore = Math.min(maxScore ?? 1, d.cap);
      notes.push(d.note);
    }
  }

  // A vessel's name carries no legal form: a name with one is a company, such as the vessel's owner.
  if ((q.vessel || c.vessel) && q.tokens.some((t) => t.kind === 'legal') !== c.tokens.some((t) => t.kind === 'legal')) {
    maxScore = Math.min(maxScore ?? 1, VESSEL_OWNER_CAP);
    notes.push('one name has a legal form and the other is a vessel: a vessel and its owner company are different entities; potential, not confirmed');
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
    !oneWordDone &&
    qn === cn &&
    allUsedOrHonorific(qt, qUsed) &&
    allUsedOrHonorific(ct, cUsed) &&
    pairs.every(identicalPair);
  if (exact) score = 1;
  score = round(Math.max(0, Math.min(1, score)));
  if (!withAlignment) return { score, alignment: NO_ALIGNMENT, notes, exact, maxScore };

  const alignment: TokenAlignment[] = [];
  const allPairs = [...pairs].sort((a, b) => a.q0 - b.q0);
  for (const p of allPairs) {
    alignment.push({
      query: displays(qt, p.q0, p.qn),
      candidate: displays(ct, p.c0, p.cn),
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
  return { score, alignment, notes, exact, maxScore };
}


// Scratch for the `used` marks of compareOne's two sides (reused: compareOne never runs inside itself).
// Only the first `length` marks of a buffer are the side's; the rest is left over from other names.
const usedBufs = [new Uint8Array(64), new Uint8Array(64)];

/** Buffer `which` with its first `length` marks cleared. */
function usedScratch(which: 0 | 1, length: number): Used {
  if (usedBufs[which].length < length) usedBufs[which] = new Uint8Array(length * 2);
  const used = usedBufs[which];
  used.fill(0, 0, length);
  return used;
}

function anyUnused(used: Used, length: number): boolean {
  for (let i = 0; i < length; i++) if (!used[i]) return true;
  return false;
}

function allNameLike(toks: NameToken[], from: number, count: number): boolean {
  for (let k = from; k < from + count; k++) if (!nameLike(toks[k])) return false;
  return true;
}

function noneCommonOrInitial(toks: NameToken[], from: number, count: number): boolean {
  for (let k = from; k < from + count; k++) if (toks[k].common || toks[k].initial) return false;
  return true;
}

function longestNorm(toks: NameToken[], from: number, count: number): number {
  let longest = -Infinity;
  for (let k = from; k < from + count; k++) longest = Math.max(longest, toks[k].norm.length);
  return longest;
}

function displays(toks: NameToken[], from: number, count: number): string {
  let out = toks[from].display;
  for (let k = from + 1; k < from + count; k++) out += ` ${toks[k].display}`;
  return out;
}

function allUsedOrHonorific(toks: NameToken[], used: Used): boolean {
  for (let i = 0; i < toks.length; i++) if (!used[i] && toks[i].kind !== 'honorific') return false;
  return true;
}

function identicalPair(p: Pair): boolean {
  return p.sim === 1 && p.how !== 'merged';
}

/**
 * One side is a single word of 3–7 letters that spells the initials of the other side's organisation
 * name ("IRGC" / "Islamic Revolutionary Guard Corps"): a potential match, shown as an acronym.
 */
function acronymMatch(q: PreparedName, c: PreparedName, qt: NameToken[], ct: NameToken[], rarity: RarityFn): NameComparison | undefined {
  const single = (toks: NameToken[]) => {
    const words = toks.filter((t) => t.kind !== 'legal' && t.kind !== 'honorific');
    return words.length === 1 && words[0].kind === 'name' && words[0].norm.length >= 3 && words[0].norm.length <= 7 ? words[0] : undefined;
  };
  const qs = single(qt);
  const cs = single(ct);
  let short: NameToken | undefined;
  let long: PreparedName | undefined;
  let skip = false;
  if (qs && !cs && c.acronyms.includes(qs.norm)) [short, long] = [qs, c];
  else if (cs && !qs && q.acronyms.includes(cs.norm)) [short, long] = [cs, q];
  // an acronym that leaves words out: only when it is distinctive (no word of more than two listed entities)
  else if (qs && !cs && c.skipAcronyms?.includes(qs.norm) && rarity(qs.fold) >= 1) [short, long, skip] = [qs, c, true];
  else if (cs && !qs && q.skipAcronyms?.includes(cs.norm) && rarity(cs.fold) >= 1) [short, long, skip] = [cs, q, true];
  if (!short || !long) return undefined;
  if ((q.numbers.join() || '') !== (c.numbers.join() || '')) return undefined;
  const spelled = long.tokens.filter((t) => t.kind !== 'particle' && t.kind !== 'number').map((t) => t.display).join(' ');
  const shortIsQuery = short === qs;
  const alignment: TokenAlignment[] = [
    shortIsQuery
      ? { query: short.display, candidate: spelled, how: 'acronym', similarity: 1 }
      : { query: spelled, candidate: short.display, how: 'acronym', similarity: 1 },
  ];
  if (skip) {
    const left = skippedWords(short.norm, acronymWords(long.tokens));
    return {
      score: round(SKIP_ACRONYM_SCORE / NAME_TO_FINAL),
      alignment,
      notes: [
        ...q.notes,
        ...c.notes,
        `"${short.display.toUpperCase()}" may be an acronym of "${spelled}" leaving out ${left.map((w) => `"${w}"`).join(', ')}: a weak potential match, not a confirmed one`,
      ],
      exact: false,
      maxScore: SKIP_ACRONYM_SCORE,
    };
  }
  return {
    score: round(ACRONYM_SCORE / NAME_TO_FINAL),
    alignment,
    notes: [...q.notes, ...c.notes, `"${short.display.toUpperCase()}" is the acronym of "${spelled}": a potential match, not a confirmed one`],
    exact: false,
    maxScore: ONE_WORD_BAND.cap,
  };
}

export function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
