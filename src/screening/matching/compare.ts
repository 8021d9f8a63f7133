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
  // A generic business word matches its translations ("Banco" = "Bank", "Denizcilik" = "Shipping").
  if (q.generic && q.generic === c.generic) return { how: q.norm === c.norm ? 'exact' : 'translated', sim: 1 };
  if (q.norm === c.norm) return { how: q.origin === c.origin ? 'exact' : 'transliterated', sim: 1 };
  if (q.fold === c.fold) return { how: 'transliterated', sim: 0.95 };
  // One Korean syllable in two romanisations (Gim/Kim, Jeong/Jong/Chung, Eun/Un, Choe/Choi): see korean.ts.
  if (q.korean && q.korean === c.korean) return { how: 'transliterated', sim: 0.92 };
  if (q.initial || c.initial) {
    return q.norm[0] === c.norm[0] ? { how: 'initial', sim: 0.75 } : NONE;
  }
  // Two names known to be different (Muhammad / Mahmud, Ri / Pak), whatever their spellings share.
  if (q.kind === 'name' && c.kind === 'name' && NAME_VARIANT_HEADS.has(q.fold) && NAME_VARIANT_HEADS.has(c.fold)) return NONE;
  // A Russian name as German, Polish, French, Dutch or Hungarian write it (Poetin, Szojgu, Jewgeni).
  if (q.renderings?.length || c.renderings?.length) {
    if (q.renderings?.includes(c.fold) || c.renderings?.includes(q.fold) || q.renderings?.some((r) => c.renderings?.includes(r))) {
      return { how: 'transliterated', sim: 0.9 };
    }
  }
  const qa = q.origin === 'abjad';
  const ca = c.origin === 'abjad';
  if (qa !== ca) {
    // Hebrew letter by letter against a Latin spelling (vowel letters, begadkefat, the article).
    const heb = qa ? q.hebrew : c.hebrew;
    if (heb && hebrewMatchesLatin(heb, qa ? c.norm : q.norm)) return { how: 'transliterated', sim: 0.95 };
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
 * Spelling similarities already worked out. spellingSimilarity is the costly step (two edit
 * distances and Jaro-Winkler) and reads only the two words' spellings, and a query's candidates
 * share many words (Hassan, Trading), as do the queries of a batch: the engine keeps one of these.
 * Keyed by the first word's spelling id, then the second's (spellingId).
 */
export type SpellingMemo = Map<number, Map<number, TokenSim>>;

// Spelling ids: one number per distinct (norm, fold, skel, metaphone codes), exactly what
// spellingSimilarity reads of a candidate word. Ids only grow: when the table is cleared (to bound
// memory in a long-running service) a spelling seen again gets a new id, never another word's.
const spellingIds = new Map<string, number>();
let nextSpellingId = 1;
const SPELLING_ID = Symbol('spellingId');
type WithSpellingId = NameToken & { [SPELLING_ID]?: number };

/** The id of a token's spelling (assigned on first use; tokens are not changed after they are compared). */
export function spellingId(t: NameToken): number {
  const known = (t as WithSpellingId)[SPELLING_ID];
  if (known !== undefined) return known;
  const key = `${t.norm}\u0000${t.fold}\u0000${t.skel}\u0000${t.meta[0]}\u0000${t.meta[1]}`;
  let id = spellingIds.get(key);
  if (id === undefined) {
    if (spellingIds.size >= 500_000) spellingIds.clear();
    id = nextSpellingId++;
    spellingIds.set(key, id);
  }
  (t as WithSpellingId)[SPELLING_ID] = id;
  return id;
}

function spellingOf(q: NameToken, c: NameToken, memo: SpellingMemo | undefined): TokenSim {
  if (!memo) return spellingSimilarity(q, c);
  const qId = spellingId(q);
  let known = memo.get(qId);
  if (!known) {
    known = new Map();
    memo.set(qId, known);
  }
  const key = spellingId(c);
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
    // A short word with another first letter is another word, not a typo (Petro/Metro, Power/Tower, Hotel/Motel).
    if (longest <= 6 && a[0] !== b[0]) continue;
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

interface Pair {
  qi: number[];
  ci: number[];
  how: AlignHow;
  sim: number;
}

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
 * weights for this rarity function, and the joined spans tryMerge tries (made on first use).
 */
interface Side {
  rarity: RarityFn;
  toks: NameToken[];
  w: number[];
  total: number;
  spans: (NameToken | undefined)[];
}
const sides = new WeakMap<PreparedName, Side>();

function sideOf(p: PreparedName, rarity: RarityFn): Side {
  const known = sides.get(p);
  if (known && known.rarity === rarity) return known;
  const toks = p.tokens.filter((t) => t.kind !== 'number');
  const w = toks.map((t) => tokenWeight(t, rarity));
  const side: Side = { rarity, toks, w, total: w.reduce((a, b) => a + b, 0) || 1, spans: [] };
  sides.set(p, side);
  return side;
}

/** The joined token of side.toks[j .. j+len-1] (len 2 or 3), made once per side. */
function spanToken(side: Side, j: number, len: number): NameToken {
  const k = j * 2 + len - 2;
  return (side.spans[k] ??= concatToken(side.toks.slice(j, j + len)));
}

/** Words split or joined differently ("Abdul Rahman"/"Abdulrahman", "Xi Jin Ping"/"Xi Jinping"). */
function tryMerge(one: NameToken[], oneUsed: boolean[], manySide: Side, manyUsed: boolean[], oneIsQuery: boolean, pairs: Pair[], memo?: SpellingMemo): void {
  const many = manySide.toks;
  for (let i = 0; i < one.length; i++) {
    if (oneUsed[i] || one[i].kind !== 'name') continue;
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
        const s = tokenSimilarity(one[i], spanToken(manySide, j, len), memo);
        if (s.sim >= 0.85 && (!bestS || s.sim > bestS.sim)) {
          bestJ = j;
          bestLen = len;
          bestS = s;
        }
      }
    }
    if (bestS) {
      oneUsed[i] = true;
      const idx: number[] = [];
      for (let k = bestJ; k < bestJ + bestLen; k++) {
        manyUsed[k] = true;
        idx.push(k);
      }
      const how: AlignHow = 'merged';
      pairs.push(oneIsQuery ? { qi: [i], ci: idx, how, sim: bestS.sim } : { qi: idx, ci: [i], how, sim: bestS.sim });
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
  if (!q.alternatives?.length && !c.alternatives?.length) return compareOne(q, c, rarity, withAlignment, memo);
  let best: NameComparison | undefined;
  let bestQ = q;
  let bestC = c;
  for (const qa of [q, ...(q.alternatives ?? [])]) {
    for (const ca of [c, ...(c.alternatives ?? [])]) {
      const r = compareOne(qa, ca, rarity, withAlignment, memo);
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

function leftWords(toks: NameToken[], used: boolean[]): NameToken[] {
  return toks.filter((t, i) => !used[i] && (t.kind === 'name' || t.kind === 'stop'));
}

function nameLike(t: NameToken): boolean {
  return t.kind === 'name' || t.kind === 'stop';
}

// Scratch for compareOne's greedy alignment (reused: compareOne never runs inside itself).
let candI = new Int32Array(64);
let candJ = new Int32Array(64);
let candV = new Float64Array(64);
let candS: TokenSim[] = [];
let candOrder = new Int32Array(64);

function compareOne(q: PreparedName, c: PreparedName, rarity: RarityFn, withAlignment: boolean, memo?: SpellingMemo): NameComparison {
  const qSide = sideOf(q, rarity);
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
  for (let i = 0; i < qt.length; i++) {
    for (let j = 0; j < ct.length; j++) {
      const s = tokenSimilarity(qt[i], ct[j], memo);
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
  const qUsed = new Array<boolean>(qt.length).fill(false);
  const cUsed = new Array<boolean>(ct.length).fill(false);
  const pairs: Pair[] = [];
  for (let k = 0; k < n; k++) {
    const x = candOrder[k];
    const i = candI[x];
    const j = candJ[x];
    if (qUsed[i] || cUsed[j]) continue;
    qUsed[i] = cUsed[j] = true;
    pairs.push({ qi: [i], ci: [j], how: candS[x].how, sim: candS[x].sim });
  }
  candS.length = 0;

  if (qUsed.includes(false) && cUsed.includes(false)) {
    tryMerge(qt, qUsed, cSide, cUsed, true, pairs, memo);
    tryMerge(ct, cUsed, qSide, qUsed, false, pairs, memo);
  }

  // In an organisation or vessel name, a short word one letter away from another word that the lists
  // also use is that other word, not a typo ("Hotel"/"Motel", "Trans"/"Trains" once both are listed words).
  if ((q.org || c.org) && rarity.known) {
    for (const p of pairs) {
      if (p.how !== 'fuzzy' || p.qi.length !== 1 || p.ci.length !== 1) continue;
      const a = qt[p.qi[0]];
      const b = ct[p.ci[0]];
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
  // A one-word query ("Putin", "Sberbank"): the names that hold that very word are potential matches,
  // ranked by how much of the listed name the word is; a near spelling of another word is not enough.
  let maxScore: number | undefined;
  let qWord: NameToken | undefined;
  let qWordCount = 0;
  for (const t of qt) if (nameLike(t) && ++qWordCount === 1) qWord = t;
  const oneWord = qWordCount === 1 && qWord!.kind === 'name' && !qWord!.initial ? qWord : undefined;
  const oneWordPair = oneWord ? pairs.find((p) => p.qi.length === 1 && qt[p.qi[0]] === oneWord) : undefined;
  let oneWordDone = false;
  if (oneWord && oneWordPair) {
    const cWords = ct.filter(nameLike);
    const whole = oneWordPair.sim >= 0.95 && oneWordPair.ci.length === 1 && oneWordPair.how !== 'merged';
    const generic = ORG_STOP_WORDS.has(oneWord.norm) || BUSINESS_WORDS.has(oneWord.norm);
    if (whole && cWords.length > 1 && !oneWord.common && !ct[oneWordPair.ci[0]].common && !generic && oneWord.norm.length >= 3 && rarity(oneWord.fold) >= 0.45) {
      const share = cw[oneWordPair.ci[0]] / (cWords.reduce((a, t) => a + cw[ct.indexOf(t)], 0) || 1);
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
      Math.max(oneWord.norm.length, ...oneWordPair.ci.map((j) => ct[j].norm.length)) <= 7 &&
      (oneWordPair.how === 'fuzzy' || oneWordPair.how === 'phonetic' || oneWordPair.how === 'transliterated')
    ) {
      // (a long word two letters off is more likely a typo of that word, and keeps its score)
      score = Math.min(score, 0.75);
      notes.push(`one-word query "${oneWord.display}" only resembles "${oneWordPair.ci.map((j) => ct[j].display).join(' ')}": another word`);
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
    qUsed.every((u, i) => u || qt[i].kind === 'honorific') &&
    cUsed.every((u, j) => u || ct[j].kind === 'honorific') &&
    pairs.every((p) => p.sim === 1 && p.how !== 'merged');
  if (exact) score = 1;
  score = round(Math.max(0, Math.min(1, score)));
  if (!withAlignment) return { score, alignment: [], notes, exact, maxScore };

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
  return { score, alignment, notes, exact, maxScore };
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
