/**
 * Turns a raw name into typed tokens ready for indexing and comparison.
 * Done once per listed name at build time and once per query.
 */
import { doubleMetaphone } from 'double-metaphone';
import type { EntitySchema } from '../model';
import {
  AMBIGUOUS_LEGAL_FORMS,
  BUSINESS_PHRASES,
  BUSINESS_WORDS,
  COMMON_GIVEN_NAMES,
  HONORIFICS,
  NUMERAL_WORDS,
  ROMAN_NUMERALS,
  TITLES,
  NAME_VARIANTS,
  ORG_STOP_WORDS,
  PARTICLES,
  PATRONYMIC,
  SUN_LETTER_ARTICLES,
  matchLegalForm,
} from './lexicon';
import { splitFormerNames } from './former-names';
import { hanjaReading, KOREAN_SURNAME_KEYS, koreanKey } from './korean';
import { CHINESE_SURNAMES, isPinyin } from './chinese';
import { westernArmenianFolds } from './armenian';
import { skipAcronymsOf } from './acronyms';
import { foldToken, renderingFolds, skeleton, transliterateTokens, type RawToken, type TokenOrigin } from './text';

export type TokenKind = 'name' | 'particle' | 'legal' | 'number' | 'honorific' | 'stop';

export interface NameToken {
  /** What to show an analyst: the transliterated word (or the legal-form phrase). */
  display: string;
  norm: string;
  fold: string;
  skel: string;
  /** double-metaphone codes (primary, secondary), empty strings when not applicable. */
  meta: [string, string];
  origin: TokenOrigin;
  kind: TokenKind;
  /** Position among the name's tokens. */
  pos: number;
  /** A single letter: an initial. */
  initial: boolean;
  /** A very common given name: can match but cannot carry a match alone. */
  common: boolean;
  /** A Slavic patronymic: a middle name often left out. */
  patronymic: boolean;
  /** An initial written right after another (the A of "D. A. Medvedev"): a patronymic's initial in Russian order. Queries only (foreign/query.ts). */
  followsInitial?: boolean;
  /** A generic business word (data/business-words.tsv): its concept, shared with its translations. */
  generic?: string;
  /** The Hebrew word this token was read from (compared letter by letter with Latin spellings). */
  hebrew?: string;
  /** Folds of this Latin word read as a German/Polish/French/Dutch/Hungarian rendering of a Russian name. */
  renderings?: string[];
  /** Korean syllable key (korean.ts), set when every name word of the name reads as romanised Korean. */
  korean?: string;
  /** The word in its own script when romanising it loses what tells names apart (a Hangul block: text.ts). */
  native?: string;
  /**
   * A syllable of a Chinese name: read from Han characters, or a Latin word of a name that reads as
   * pinyin with a Chinese surname (markChinese); or of a Vietnamese name whose every word is one syllable
   * (markVietnamese, round 5). One different syllable is another name, not a typo.
   */
  pinyin: boolean;
}

export interface PreparedName {
  raw: string;
  tokens: NameToken[];
  /** Digits found in the name ("Sea Star 2" → ["2"]): they must agree. */
  numbers: string[];
  /** The space-joined fold of the name tokens, for exact-equality checks and dedup. */
  key: string;
  /** Read as an organisation, vessel or aircraft name (not a person's). */
  org: boolean;
  /** Initials of an organisation name of 3+ words ("Islamic Revolutionary Guard Corps" → irgc), with and without legal forms. */
  acronyms: string[];
  /** Acronyms that leave out generic words and at most one distinctive word ("MCI"): potential matches only (acronyms.ts). */
  skipAcronyms?: string[];
  /** What preparing the name did that the explanation must show (titles dropped, abbreviations expanded, …). */
  notes: string[];
  /** Former names written inside the name string ("X (ex-Y)"): each is matched as well (see former-names.ts). */
  alternatives?: PreparedName[];
  /** Prepared as a vessel's name. */
  vessel?: boolean;
  /** Holds a holding-company word ("Holdings", "Holding"), for the holding/operating discriminator. */
  holding?: boolean;
  /** Holds a word read from Burmese script (every syllable of a Burmese name must match). */
  burmese?: boolean;
  /** Set on an alternative that is another reading of the same written name (Hanja read in Korean), not a former name. */
  reading?: string;
  /**
   * A person's name written "SURNAME, Given Middle": the index of the first token after the comma
   * (tokens before it are the surname). Undefined when the name has no such comma: then its first and
   * last words are its given name and surname, in either order.
   */
  commaAt?: number;
}

export type SchemaHint = EntitySchema | undefined;

const ABD_PREFIX = /^(abd|abdu|abdul|abdel|abdal|abdol|abdoul|abdur|abdar|abdus|abdas|abdul|abed)$/;
const ABD_JOINED = /^(abdul|abdel|abdal|abdol|abdoul|abdur|abdus|abdu)(.{3,})$/;

function abdName(rest: string): string {
  if (/^(a|u|e)?ll?ah?$/.test(rest) || rest === 'lh') return 'abdallah';
  return `abd${rest.replace(/^(al|el|ul|ar|as|ur|us)(?=.{3,})/, '')}`;
}

/** Arabic theophoric names written in 1, 2 or 3 words ("Abd al-Rahman", "Abdul Rahman", "Abdulrahman") → one token. */
function mergeAbd(raw: RawToken[]): RawToken[] {
  const out: RawToken[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    const norm = t.origin === 'abjad' && t.norm === 'bd' ? 'abd' : t.norm;
    if (ABD_PREFIX.test(norm) && i + 1 < raw.length) {
      let j = i + 1;
      if (PARTICLES[raw[j].norm] === 'al' && j + 1 < raw.length) j++;
      out.push({ norm: abdName(raw[j].norm), origin: t.origin });
      i = j;
      continue;
    }
    if (t.origin === 'abjad' && /^bd/.test(norm) && norm.length > 3) {
      // عبدالرحمن written as one word: "bdlrhmn"
      if (/^bda?ll?h$/.test(norm)) out.push({ norm: 'abdallah', origin: t.origin });
      else out.push({ norm: `abd${norm.slice(2).replace(/^a?l(?=.{3,})/, '')}`, origin: t.origin });
      continue;
    }
    const m = ABD_JOINED.exec(norm);
    if (m && !ABD_PREFIX.test(norm)) {
      out.push({ norm: abdName(m[2]), origin: t.origin });
      continue;
    }
    out.push(t);
  }
  return out;
}

const metaCache = new Map<string, [string, string]>();
function metaphone(norm: string): [string, string] {
  let m = metaCache.get(norm);
  if (!m) {
    if (norm.length < 2 || /\d/.test(norm)) m = ['', ''];
    else {
      const [p, s] = doubleMetaphone(norm);
      m = [p, s === p ? '' : s];
    }
    if (metaCache.size > 200_000) metaCache.clear();
    metaCache.set(norm, m);
  }
  return m;
}

const formCache = new Map<string, { fold: string; skel: string }>();
function forms(norm: string): { fold: string; skel: string } {
  let f = formCache.get(norm);
  if (!f) {
    f = { fold: foldToken(norm), skel: skeleton(norm) };
    if (formCache.size > 300_000) formCache.clear();
    formCache.set(norm, f);
  }
  return f;
}

export function makeToken(norm: string, origin: TokenOrigin, kind: TokenKind, pos: number, display = norm, withRenderings = true): NameToken {
  const f = forms(norm);
  const fold = kind === 'particle' ? PARTICLES[norm] ?? norm : kind === 'name' ? NAME_VARIANTS.get(f.fold) ?? f.fold : f.fold;
  return {
    display,
    norm,
    fold,
    skel: f.skel,
    meta: kind === 'name' || kind === 'stop' ? metaphone(norm) : ['', ''],
    origin,
    kind,
    pos,
    // (a Hangul or Han syllable of one Latin letter, 오 O, 우 U, is a syllable of the name, never an initial: round 4)
    initial: kind === 'name' && norm.length === 1 && origin !== 'hangul' && origin !== 'han',
    common: kind === 'name' && (COMMON_GIVEN_NAMES.has(norm) || COMMON_GIVEN_NAMES.has(fold)),
    patronymic: false,
    renderings: !withRenderings || kind !== 'name' ? undefined : origin === 'latin' ? renderingFolds(norm) : origin === 'armenian' ? westernArmenianFolds(norm) : undefined,
    generic: undefined,
    hebrew: undefined,
    korean: undefined,
    native: undefined,
    pinyin: origin === 'han',
  };
}

/**
 * Every token and prepared name has one shape (one hidden class): all their fields, in one order,
 * present from the start (undefined when unset), made by makeToken and newPrepared (and by
 * prepared-codec.ts's decoder, with the same literal). A field added later (korean, skipAcronyms…)
 * would give another shape per combination, and a v8-deserialised object has another shape than the
 * same object made by a literal: with listed names of one set of shapes and queries of another, the
 * matcher's hot code met eight or more, was optimised and thrown away a dozen times per thread, and
 * read every field megamorphically (1.15× the CPU per name of a snapshot-started batch worker).
 */
export function newPrepared(raw: string, tokens: NameToken[], numbers: string[], key: string, org: boolean, acronyms: string[], notes: string[]): PreparedName {
  return {
    raw,
    tokens,
    numbers,
    key,
    org,
    acronyms,
    notes,
    skipAcronyms: undefined,
    alternatives: undefined,
    vessel: undefined,
    holding: undefined,
    burmese: undefined,
    reading: undefined,
    commaAt: undefined,
  };
}

const COMMON_FOLDS = new Set([...COMMON_GIVEN_NAMES].map(foldToken));

/**
 * Prepare a name. `schema` steers legal-form detection (never for persons) and patronymics (never for
 * organisations). A name string holding former names ("X (ex-Y)") is prepared as X with Y as an alternative.
 */
export function prepareName(raw: string, schema?: SchemaHint): PreparedName {
  const trace: PrepareTrace = { orgReading: false };
  const p = withReadings(prepareSplit(raw, schema, trace), raw, schema, trace);
  if (!trace.orgReading && (schema === undefined || schema === 'unknown')) readsAsPerson.set(p, raw);
  return p;
}

/** What one prepareName call noticed on its way (handed down to the steps that set it). */
interface PrepareTrace {
  /** A step that is skipped for a person's name changed the result: an abbreviation, a numeral word, a legal form, a business word or a stop word read as such. */
  orgReading: boolean;
}
// Names prepared with no schema that no such step changed, with the string they were prepared from.
const readsAsPerson = new WeakMap<PreparedName, string>();

/**
 * prepareName(raw, 'person') for a name that has just been prepared with no schema (`q` =
 * prepareName(raw) or prepareName(raw, 'unknown')): `q` itself when reading the name as a person's
 * changes nothing (no abbreviation, numeral word, legal form, business or stop word was read in it;
 * every other step is the same for both readings), else a new preparation. Most names in a batch
 * without an entity type are plain personal names: they are prepared once instead of twice.
 */
export function prepareAsPerson(raw: string, q: PreparedName): PreparedName {
  return readsAsPerson.get(q) === raw ? q : prepareName(raw, 'person');
}

function prepareSplit(raw: string, schema: SchemaHint | undefined, trace: PrepareTrace): PreparedName {
  const split = splitFormerNames(raw);
  if (!split) return prepareOne(raw, schema, trace);
  const main = prepareOne(split.current, schema, trace);
  if (!main.tokens.length) return prepareOne(raw, schema, trace);
  main.raw = raw;
  main.alternatives = split.former.map((f) => prepareOne(f, schema, trace)).filter((p) => p.tokens.length > 0);
  return main;
}

const RE_HAN_ONLY = /^[\s\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF·・]+$/;

/** A name in Han characters only may be Korean (Hanja): its Korean reading is matched as well. */
function withReadings(p: PreparedName, raw: string, schema: SchemaHint | undefined, trace: PrepareTrace): PreparedName {
  if (schema === 'vessel' || schema === 'aircraft' || !RE_HAN_ONLY.test(raw)) return p;
  const hangul = hanjaReading(raw);
  if (!hangul) return p;
  const alt = prepareOne(hangul, schema, trace);
  if (!alt.tokens.length) return p;
  alt.reading = `Han characters "${raw.trim()}" read in Korean (Hanja) as ${hangul} (${alt.tokens.map((t) => t.display).join(' ')})`;
  p.alternatives = [...(p.alternatives ?? []), alt];
  return p;
}

/** Scripts whose names have acronyms written in Latin letters (an acronym of a transliteration is not one). */
export const ACRONYM_SCRIPTS: ReadonlySet<string> = new Set(['latin', 'cyrillic', 'greek']);

/**
 * Whether a word may be a title, honorific or particle: not a syllable of a Han, Hangul or kana name
 * ("林斌" is Lin Bin, not Lin son-of), and not a short unvowelled Arabic or Hebrew word ("سارا", Sara,
 * is "sr" without its vowels, not "Sr."; "شيخ" shykh still is a title).
 */
function mayBeWord(t: RawToken, asParticle = false): boolean {
  if (t.origin === 'han' || t.origin === 'hangul' || t.origin === 'kana') return false;
  return asParticle || t.origin !== 'abjad' || t.norm.length >= 4;
}

/** The words "son of" or "daughter of" written before the father's name (oglu, ogly, kyzy come after it). */
const SON_OF_BEFORE = new Set(['bin', 'ibn', 'ben', 'bint', 'binti', 'bn', 'ould', 'walad']);

const ARTICLE_FREE = new Set(['of', 'the', 'and', 'for', 'de', 'la', 'el', 'al', 'y', 'du', 'des', 'di', 'da', 'del', 'und', 'et']);

function prepareOne(raw: string, schema: SchemaHint | undefined, trace: PrepareTrace): PreparedName {
  const isPerson = schema === 'person';
  const isOrgLike = schema === 'organization' || schema === 'vessel' || schema === 'aircraft';
  const notes: string[] = [];
  const rawTokens = expandAbbreviations(mergeAbd(transliterateTokens(raw)), isPerson, notes, trace);
  // "SURNAME, Given": where the given names start (the raw tokens before the first comma are the surname)
  const comma = isOrgLike ? -1 : raw.indexOf(',');
  const surnameCount = comma > 0 ? mergeAbd(transliterateTokens(raw.slice(0, comma))).length : 0;
  let commaAt: number | undefined;
  const norms = rawTokens.map((t) => t.norm);
  const folds = norms.map(foldToken);
  const tokens: NameToken[] = [];
  const numbers: string[] = [];
  const n = rawTokens.length;
  let hasLegal = false;
  // Titles before a person's name ("President", "Präsident", "Sheikh", "H.E."): dropped from the front only.
  let leadingTitles = 0;
  if (!isOrgLike) {
    while (leadingTitles < n - 1) {
      const w = rawTokens[leadingTitles].norm;
      const next = rawTokens[leadingTitles + 1];
      if (w === 'h' && next?.norm === 'e' && leadingTitles + 2 < n) leadingTitles += 2;
      else if ((TITLES.has(w) || HONORIFICS.has(w)) && mayBeWord(rawTokens[leadingTitles])) leadingTitles++;
      // the Arabic article written onto a title (الشيخ: al + shykh)
      else if (w === 'al' && rawTokens[leadingTitles].origin === 'abjad' && next && leadingTitles + 2 < n && TITLES.has(next.norm) && mayBeWord(next)) leadingTitles += 2;
      else break;
    }
    if (leadingTitles) notes.push(`title "${rawTokens.slice(0, leadingTitles).map((t) => t.norm).join(' ')}" is not part of the name`);
  }
  for (let i = 0; i < n; i++) {
    const t = rawTokens[i];
    const pos = tokens.length;
    if (i === surnameCount && i > 0 && commaAt === undefined) commaAt = pos;
    if (i < leadingTitles) {
      tokens.push(makeToken(t.norm, t.origin, 'honorific', pos));
      continue;
    }
    if (/^\d+$/.test(t.norm)) {
      numbers.push(String(Number(t.norm)));
      tokens.push(makeToken(String(Number(t.norm)), t.origin, 'number', pos, t.norm));
      continue;
    }
    // Written-out and Roman numerals after the first word of a non-person name ("SEA STAR THREE", "SEA STAR II").
    const numeral = !isPerson && i > 0 ? NUMERAL_WORDS[t.norm] ?? ROMAN_NUMERALS[t.norm] : undefined;
    if (numeral !== undefined) {
      trace.orgReading = true;
      numbers.push(String(numeral));
      tokens.push(makeToken(String(numeral), t.origin, 'number', pos, t.norm));
      notes.push(`"${t.norm}" read as the number ${numeral}`);
      continue;
    }
    if (!isPerson && n > 1) {
      const lf = matchLegalForm(norms, folds, i);
      const nextIsLegal = () => i + 1 < n && !!matchLegalForm(norms, folds, i + 1);
      if (lf && (lf.length > 1 || !AMBIGUOUS_LEGAL_FORMS.has(norms[i]) || i === 0 || i + lf.length === n || nextIsLegal()) && lf.length < n) {
        const phrase = norms.slice(i, i + lf.length).join(' ');
        trace.orgReading = true;
        const tok = makeToken(`~${lf.cls}`, t.origin, 'legal', pos, phrase);
        tok.fold = `~${lf.cls}`;
        tokens.push(tok);
        hasLegal = true;
        i += lf.length - 1;
        continue;
      }
    }
    // (a Latin particle comes before the word it belongs to: the last word is a name, "Anish Das", "Le Bach Van")
    // (a one-letter Cyrillic word is an initial, Ю. or Е., never the Spanish "y" or the Italian "e": issue 32)
    // (round 5: "son of" needs the father's name after it in any script: בן or bin at the end is a name, Gad Ben)
    const particle =
      mayBeWord(t, true) && (i + 1 < n || (t.origin !== 'latin' && !SON_OF_BEFORE.has(t.norm))) && !(t.origin === 'cyrillic' && t.norm.length === 1) ? PARTICLES[t.norm] : undefined;
    if (particle && n > 1 && !(SUN_LETTER_ARTICLES.has(t.norm) && (t.origin !== 'abjad' || i + 1 >= n))) {
      // "y"/"e"/"and"/"of" are particles only between words; "al"/"bin"/"abu" anywhere but alone.
      const between = i > 0 && i + 1 < n;
      if (!['y', 'of', 'the'].includes(particle) || between || particle === 'the') {
        tokens.push(makeToken(t.norm, t.origin, 'particle', pos));
        continue;
      }
    }
    if (HONORIFICS.has(t.norm) && n > 1 && mayBeWord(t)) {
      tokens.push(makeToken(t.norm, t.origin, 'honorific', pos));
      continue;
    }
    // Generic business words and their translations ("Banco", "Schifffahrt", "Ticaret"): one concept each.
    if (!isPerson && n > 1) {
      const phrase = i + 1 < n ? BUSINESS_PHRASES.get(`${t.norm} ${rawTokens[i + 1].norm}`) : undefined;
      const word = phrase ?? BUSINESS_WORDS.get(t.norm);
      if (word && word.kind === 'generic') {
        trace.orgReading = true;
        const display = phrase ? `${t.norm} ${rawTokens[i + 1].norm}` : t.norm;
        const tok = makeToken(t.norm, t.origin, 'stop', pos, display);
        tok.generic = word.concept;
        tok.fold = foldToken(word.concept);
        tokens.push(tok);
        if (phrase) i++;
        continue;
      }
    }
    const kind: TokenKind = !isPerson && ORG_STOP_WORDS.has(t.norm) && n > 1 ? 'stop' : 'name';
    if (kind === 'stop') trace.orgReading = true;
    const tok = makeToken(t.norm, t.origin, kind, pos);
    if (t.hebrew) tok.hebrew = t.hebrew;
    if (t.native) tok.native = t.native;
    if (kind === 'name') {
      if (isOrgLike) tok.common = false;
      else if (COMMON_FOLDS.has(tok.fold)) tok.common = true;
      if (!isOrgLike && tok.norm.length > 6 && PATRONYMIC.test(tok.norm)) tok.patronymic = true;
    }
    tokens.push(tok);
  }
  // In an organisation name (legal form present), given names are just words.
  if (hasLegal) for (const t of tokens) t.common = false;
  if (!isOrgLike && !hasLegal) {
    markKorean(tokens);
    markChinese(tokens);
    markVietnamese(tokens);
  }
  const key = tokens
    .filter((t) => t.kind !== 'honorific')
    .map((t) => t.fold)
    .sort()
    .join(' ');
  const org = !isPerson && (isOrgLike || hasLegal || tokens.some((t) => t.kind === 'stop' && t.norm.length >= 4));
  // Acronyms only of names read as organisations: a person's initials ("John A. Adams" → jaa) are no acronym.
  const acronyms = org ? acronymsOf(tokens, raw) : [];
  const prepared = newPrepared(raw, tokens, numbers, key, org, acronyms, notes);
  if (!org && commaAt !== undefined && commaAt < tokens.length) prepared.commaAt = commaAt;
  if (schema === 'vessel') prepared.vessel = true;
  if (tokens.some((t) => t.generic === 'holding')) prepared.holding = true;
  if (tokens.some((t) => t.origin === 'burmese' && t.kind === 'name')) prepared.burmese = true;
  if (org && !/^[A-Z]{3,7}$/.test(raw.trim())) {
    const skip = skipAcronymsOf(acronymWords(tokens), acronyms);
    if (skip.length) prepared.skipAcronyms = skip;
  }
  return prepared;
}

/**
 * A name whose every word reads as romanised Korean syllables ("Gim Jeong Eun", "Kim Jong-un", or read
 * from Hangul) gets Korean syllable keys, so RR, McCune–Reischauer and passport spellings meet. Names
 * with any other word (John, Smith) get none: the key is too loose for names of other languages.
 */
function markKorean(tokens: NameToken[]): void {
  let names = 0;
  for (const t of tokens) {
    if (koreanParticle(t)) continue; // "Du", "Do": Korean syllables here
    if (t.kind !== 'name') continue;
    if (t.origin !== 'latin' && t.origin !== 'hangul') return;
    if (!koreanKey(t.norm) && !KOREAN_SURNAME_FOLDS.has(t.fold)) return;
    if (!t.initial) names++;
  }
  if (names < 2) return;
  // a Korean name starts or ends with a Korean surname (Kim Jong Un, Jong Un Kim)
  const words = tokens.filter((t) => t.kind === 'name' && !t.initial);
  const surname = (t: NameToken) => KOREAN_SURNAME_KEYS.has(koreanKey(t.norm) ?? t.fold) || KOREAN_SURNAME_FOLDS.has(t.fold);
  if (!surname(words[0]) && !surname(words[words.length - 1])) return;
  tokens.forEach((t, i) => {
    if (koreanParticle(t)) {
      tokens[i] = makeToken(t.norm, t.origin, 'name', t.pos);
      tokens[i].common = false;
      t = tokens[i];
    }
    if (t.kind !== 'name') return;
    // a one-letter syllable (우 U, 오 O, 이 I) is a syllable, not an initial
    if (t.initial && koreanKey(t.norm)) t.initial = false;
    t.korean = koreanKey(t.norm) ?? t.fold;
  });
}
// the particles de/da/do/du (never bin, al, van) are Korean syllables in a Korean name (Chun Doo-hwan / Jeon Du-hwan)
const koreanParticle = (t: NameToken) => t.kind === 'particle' && t.origin === 'latin' && t.fold === 'de' && !!koreanKey(t.norm);
// surnames whose spellings the syllable parse does not read (Park, Yi, Oh, Roh): their variant group's fold is their key
const KOREAN_SURNAME_FOLDS = new Set(['pak', 'ri', 'o', 'ro']);

/**
 * A Latin name whose every word reads as pinyin and which starts or ends with a Chinese surname
 * ("Lin Bin", "Wang Xiuying", "Xiuying Wang") is read as Chinese: its words are syllables (compared
 * as such: chinese.ts), and "Bin", "De" or "An" in it are syllables, not particles.
 */
function markChinese(tokens: NameToken[]): void {
  let words = 0;
  for (const t of tokens) {
    if (t.kind !== 'name' && !(t.kind === 'particle' && t.origin === 'latin')) continue;
    if (t.origin === 'han') return; // read from Han characters: syllables already
    if (t.origin !== 'latin' || t.initial || !isPinyin(t.norm)) return;
    words++;
  }
  if (words < 2) return;
  const named = tokens.filter((t) => t.kind === 'name' || t.kind === 'particle');
  if (!CHINESE_SURNAMES.has(named[0].norm) && !CHINESE_SURNAMES.has(named[named.length - 1].norm)) return;
  tokens.forEach((t, i) => {
    if (t.kind === 'particle') {
      tokens[i] = makeToken(t.norm, t.origin, 'name', t.pos);
      tokens[i].common = false;
      tokens[i].korean = t.korean;
    }
    if (tokens[i].kind === 'name') tokens[i].pinyin = true;
  });
}

/**
 * A Latin name starting with a Vietnamese surname (Nguyen, Tran, Le, Pham…) is Vietnamese: "Le" and
 * "Van" (the common middle name Văn) in it are names, not the French and Dutch particles. When every
 * word of it is one Vietnamese syllable, its words are syllables as a Chinese name's are (round 5): each
 * is a word of its own meaning, and one different syllable is another name (Thanh / Thach, Quang /
 * Cuong), never a typo or a sound-alike; they are marked as pinyin's are and compared alike (compare.ts).
 */
function markVietnamese(tokens: NameToken[]): void {
  const first = tokens.find((t) => t.kind === 'name' || t.kind === 'particle');
  if (!first || first.origin !== 'latin' || !VIETNAMESE_SURNAMES.has(first.norm) || tokens.length < 2) return;
  tokens.forEach((t, i) => {
    if (t.kind !== 'particle' || t.origin !== 'latin') return;
    tokens[i] = makeToken(t.norm, t.origin, 'name', t.pos);
    tokens[i].common = false;
  });
  const words = tokens.filter((t) => t.kind === 'name');
  if (words.length < 2 || !words.every((t) => t.origin === 'latin' && !t.initial && VIETNAMESE_SYLLABLE.test(t.norm))) return;
  for (const t of words) t.pinyin = true;
}
const VIETNAMESE_SURNAMES = new Set('nguyen tran le pham hoang huynh phan vu vo dang bui do ho ngo duong ly truong dinh lam mai trinh doan cao luong'.split(' '));
/** One syllable of Vietnamese written without its diacritics: an initial consonant, a vowel nucleus, a final. */
const VIETNAMESE_SYLLABLE = /^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnprstvx])?(uye|uya|uyu|oai|oay|oao|oeo|uoi|uou|uay|ieu|yeu|ai|ao|au|ay|eo|eu|ia|ie|iu|oa|oe|oi|oo|ua|ue|ui|uo|uu|uy|ye|[aeiouy])(ng|nh|ch|[cmnpt])?$/;

/** Word abbreviations in non-person names ("Intl", "Mfg", "Trdg") → the word, from data/business-words.tsv. */
function expandAbbreviations(raw: RawToken[], isPerson: boolean, notes: string[], trace: PrepareTrace): RawToken[] {
  if (isPerson || raw.length < 2) return raw;
  let out: RawToken[] | undefined;
  raw.forEach((t, i) => {
    const w = BUSINESS_WORDS.get(t.norm);
    if (w?.kind !== 'abbr') return;
    out ??= [...raw];
    out[i] = { ...t, norm: w.concept };
    trace.orgReading = true;
    notes.push(`abbreviation "${t.norm}" read as "${w.concept}"`);
  });
  return out ?? raw;
}

/** Initials of a name of 3+ words, with and without its legal form ("Mobile Telecommunication Company of Iran" → mci, mtci). */
/** The words whose initials make an acronym: names, generic words and legal forms, not articles. */
export function acronymWords(tokens: NameToken[]): NameToken[] {
  const words = tokens.filter((t) => t.kind === 'name' || t.kind === 'stop' || t.kind === 'legal');
  if (words.some((t) => t.kind !== 'legal' && t.norm.length === 1)) return [];
  return words.filter((t) => !ARTICLE_FREE.has(t.norm));
}

function acronymsOf(tokens: NameToken[], raw: string): string[] {
  const words = tokens.filter((t) => t.kind === 'name' || t.kind === 'stop' || t.kind === 'legal');
  // the initials of a transliteration (Arabic, Hebrew, Han, Hangul, kana) are no acronym anyone writes
  if (words.some((t) => !ACRONYM_SCRIPTS.has(t.origin))) return [];
  // a name of generic words only ("Shipping Management Company") has no distinctive acronym
  if (!words.some((t) => t.kind === 'name')) return [];
  if (words.length < 3 || words.length > 8 || words.some((t) => t.kind !== 'legal' && t.norm.length === 1)) return [];
  const first = (t: NameToken) => (t.kind === 'legal' ? t.display.split(' ').map((w) => w[0]).join('') : t.norm[0]);
  const all = words.filter((t) => !ARTICLE_FREE.has(t.norm)).map(first).join('');
  const noLegal = words.filter((t) => t.kind !== 'legal' && !ARTICLE_FREE.has(t.norm)).map(first).join('');
  const out = new Set<string>();
  for (const a of [all, noLegal]) if (a.length >= 3 && a.length <= 7 && /^[a-z]+$/.test(a)) out.add(a);
  // a plain acronym written in the name itself is not an acronym of the name
  if (/^[A-Z]{3,7}$/.test(raw.trim())) return [];
  return [...out];
}
