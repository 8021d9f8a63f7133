/**
 * Foreign-name readings of a query (issue 32): a name written by a writer of another script or
 * language, read back towards the Latin and Cyrillic spellings on the lists.
 *
 * "드미트리 메드베데프", "ドミートリー・メドヴェージェフ", "德米特里·梅德韦杰夫", "Ντμίτρι Μεντβέντεφ",
 * "دمیتری مدودف", "Dmitrijus Medvedevas" all name MEDVEDEV, Dmitry Anatolievich. The query's own
 * preparation (text.ts) reads each script as its own names are romanised, which no list spelling of a
 * foreign name resembles. A reading is one more alternative of the prepared query (like a Hanja
 * reading): each word written in one of those scripts becomes a transcribed token carrying its
 * transcription pattern (pattern.ts and one module per script), compared with a listed Latin or
 * Cyrillic word by whether the pattern spells it.
 *
 * Precision guard: a reading is never more than a potential match (READING_NAME_CAP: name-only final
 * score ≤ 0.90, never confirmed by itself), needs two name words (a one-word query is not read), and
 * is only made for the query, never for a listed name (a listed Han or Hangul name is a Chinese or
 * Korean name, not a transcription). Each module reads only what its script's transcription
 * conventions allow, so a native Korean, Japanese, Chinese, Persian, Hebrew or Greek name rarely spells
 * a listed foreign one (bench/screening/foreign: the innocents of each script, same run).
 *
 * A transcribed token's norm is `<language>|<word>` (the word as written, lowercased): the language
 * picks the rules, and two tokens with one norm have one pattern (the matcher's similarity memo keys
 * on it). Joined tokens (compare.ts tryMerge) concatenate norms; patternOf reads them back.
 */
import { namePools } from '../../identity/name-frequency';
import { COMMON_GIVEN_NAMES, NAME_VARIANTS, PATRONYMIC, TITLES } from '../lexicon';
import { makeToken, newPrepared, type NameToken, type PreparedName, type SchemaHint } from '../prepare';
import { foldToken, skeleton, transliterateTokens } from '../text';
import { ARABIC_PATRONYMIC, arabicPattern, HEBREW_PATRONYMIC, hebrewPattern, RE_ARABIC_WORD, RE_HEBREW_WORD, RE_NATIVE_ARABIC_LETTERS } from './abjad';
import { burmeseSyllables } from '../burmese';
import { eastSlavicPattern, RE_CYRILLIC_WORD, RE_UK_BE_LETTERS } from './cyrillic';
import { GEORGIAN_PATRONYMIC, georgianPattern, RE_GEORGIAN_WORD } from './georgian';
import { GREEK_PATRONYMIC, greekPattern, RE_GREEK_WORD } from './greek';
import { HAN_PATRONYMIC, hanPattern } from './han';
import { HANGUL_PATRONYMIC, hangulPattern } from './hangul';
import { KANA_PATRONYMIC, kanaPattern, RE_KANA_ONLY } from './kana';
import { detectLatinLanguages, latinPattern, type LatinLanguage } from './latin';
import { myanmarPattern, RE_MYANMAR_WORD } from './myanmar';
import { latinKey, latinKeys, patternMatches, patternSkeletons, patternSpellings, type Pattern, type Segment } from './pattern';
import { RE_THAI_WORD, THAI_PATRONYMIC, thaiPattern } from './thai';
import { TITLE_WORDS } from './titles';

/** The languages (scripts) a word may be read from; the tag of a transcribed token's norm. */
export type ReadingLanguage = 'ko' | 'ja' | 'zh' | 'el' | 'fa' | 'he' | 'th' | 'my' | 'ka' | 'uk' | LatinLanguage;

const LANGUAGE_NAMES: Record<ReadingLanguage, string> = {
  ko: 'Korean (Hangul)', ja: 'Japanese (kana)', zh: 'Chinese (transcription characters)', el: 'Greek', fa: 'Persian/Arabic script',
  he: 'Hebrew', th: 'Thai', my: 'Burmese', ka: 'Georgian', uk: 'Ukrainian/Belarusian Cyrillic', lt: 'Lithuanian', lv: 'Latvian',
  pl: 'Polish', cs: 'Czech/Slovak', hu: 'Hungarian', de: 'German', nl: 'Dutch', ce: 'a Central European spelling (Czech, Slovak, German, Dutch or Latvian)',
};

/** Highest name score of a match through a reading: 0.95 × this = 0.90, a potential match (issue 32). */
export const READING_NAME_CAP = 0.9 / 0.95;

/**
 * Similarity of a transcribed word and a listed word its pattern spells: the word itself, as a Cyrillic
 * word that transliterates to the listed spelling is (a given name's variant: a little less). A reading's
 * doubt is priced once, by READING_NAME_CAP on the whole name; a token discount on top would be paid
 * again for every name part a comparison leaves out, so a listed middle name the writer left out would
 * cost a reading more than it costs a Latin or Cyrillic query (issue 27 §1: a small penalty; Карлос Лобо
 * alerts on LOBO, Carlos Arnoldo, and 카르로스 로보 did not).
 */
const SPELLS = { how: 'transliterated', sim: 1 } as const;
const SPELLS_VARIANT = { how: 'transliterated', sim: 0.9 } as const;
const SAME = { how: 'exact', sim: 1 } as const;
export type TranscribedSim = typeof SPELLS | typeof SPELLS_VARIANT | typeof SAME;

const RE_HANGUL_ONLY = /^[\uAC00-\uD7A3]+$/u;
const RE_HAN_ONLY = /^[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]+$/u;
const RE_LATIN_WORD = /^[\p{Script=Latin}'’]+$/u;

function patternFor(lang: ReadingLanguage, word: string): Segment[] | undefined {
  switch (lang) {
    case 'ko':
      return hangulPattern(word);
    case 'ja':
      return kanaPattern(word);
    case 'zh':
      return hanPattern(word);
    case 'el':
      return greekPattern(word);
    case 'fa':
      return arabicPattern(word);
    case 'he':
      return hebrewPattern(word);
    case 'th':
      return thaiPattern(word);
    case 'my':
      return myanmarPattern(word);
    case 'ka':
      return georgianPattern(word);
    case 'uk':
      return eastSlavicPattern(word);
    case 'lt':
    case 'lv':
    case 'pl':
    case 'cs':
    case 'hu':
    case 'de':
    case 'nl':
    case 'ce':
      return latinPattern(word, lang);
  }
}

const PATRONYMIC_ENDINGS: Partial<Record<ReadingLanguage, RegExp>> = {
  ko: HANGUL_PATRONYMIC, ja: KANA_PATRONYMIC, zh: HAN_PATRONYMIC, el: GREEK_PATRONYMIC, fa: ARABIC_PATRONYMIC, he: HEBREW_PATRONYMIC,
  th: THAI_PATRONYMIC, ka: GEORGIAN_PATRONYMIC,
};

// ---------- transcribed tokens: norm, pattern, keys

const TAG = /([a-z]{2})\|/g;

/** The language and the word(s) of a transcribed token's norm (joined tokens: every part's word). */
function parseNorm(norm: string): { lang: ReadingLanguage; words: string[] } | undefined {
  const parts = norm.split(TAG).filter((x) => x !== '');
  // [lang, word, lang, word, …]
  if (parts.length < 2 || parts.length % 2) return undefined;
  const words: string[] = [];
  for (let i = 0; i < parts.length; i += 2) words.push(parts[i + 1]);
  return { lang: parts[0] as ReadingLanguage, words };
}

const patternCache = new Map<string, Pattern | null>();

/** The transcription pattern of a transcribed token's norm (joined tokens: the parts' patterns in a row). */
export function patternOf(norm: string): Pattern | undefined {
  const cached = patternCache.get(norm);
  if (cached !== undefined) return cached ?? undefined;
  const parsed = parseNorm(norm);
  let out: Segment[] | undefined;
  if (parsed) {
    out = [];
    for (const w of parsed.words) {
      const p = patternFor(parsed.lang, w);
      if (!p) {
        out = undefined;
        break;
      }
      out.push(...p);
    }
  }
  if (patternCache.size > 50_000) patternCache.clear();
  patternCache.set(norm, out ?? null);
  return out;
}

/**
 * The index keys a transcribed token is looked up by (name-index.ts tokenKeys): the folds of its
 * likeliest full spellings (t:) and the consonant skeletons of the spellings it allows (s:), which
 * every listed word is keyed by. A bounded number of each: a reading costs a few dozen map lookups.
 */
export function transcribedKeys(t: NameToken): string[] {
  const p = patternOf(t.norm);
  if (!p) return [];
  const keys = new Set<string>();
  const skeletons = skeletonsOf(p);
  // a word with no skeleton of two consonants (Ali, Atwa, Yuri) is found by its full spellings only: more of them
  const long = skeletons.some((s) => s.length >= 3);
  const spellings = patternSpellings(p, long ? 6 : 32);
  for (const s of spellings) if (s.length >= 2) keys.add(`t:${foldToken(s)}`);
  for (const s of skeletons) keys.add(`s:${s}`);
  // the Arabic article written onto the name (알샤미, アルシャミ, Αλσάμι: al-Shami), which the lists write
  // apart and key by the name alone: the name after it is looked up too
  // (kana and Hangul add a vowel to the l: アル aru, 알 al)
  for (const s of spellings) {
    const rest = /^[aeo]lu?(?=[^aeiouy])(.{3,})$/.exec(s)?.[1];
    if (rest) keys.add(`t:${foldToken(rest)}`);
  }
  for (const s of skeletons) if (s.length >= 3 && s[0] === 'l' && /^[aeo]/.test(spellings[0] ?? '')) keys.add(`s:${s.slice(1)}`);
  return [...keys];
}

const skeletonCache = new WeakMap<Pattern, string[]>();
function skeletonsOf(p: Pattern): string[] {
  let s = skeletonCache.get(p);
  // (enough for a long word's likelier spellings: 흐리스토포로프 reaches khristoforov's skeleton only past the 40th)
  if (!s) skeletonCache.set(p, (s = patternSkeletons(p, skeleton, 128)));
  return s;
}

// ---------- comparison with a listed word

/** latinKey of every other spelling of a listed given name's variant group (Vladimir: volodymyr, uladzimir). */
let variantsByHead: Map<string, string[]> | undefined;
function variantKeys(fold: string): string[] {
  if (!variantsByHead) {
    variantsByHead = new Map();
    for (const [variant, head] of NAME_VARIANTS) {
      const l = variantsByHead.get(head) ?? [];
      l.push(latinKey(variant));
      variantsByHead.set(head, l);
    }
    for (const [head, l] of variantsByHead) l.push(latinKey(head));
  }
  return variantsByHead.get(NAME_VARIANTS.get(fold) ?? fold) ?? [];
}

// Abd al-X written as one word by prepare.ts (mergeAbd: "Abdul Rahman" → abdrahman); a writer spells the article
const ABD_INFIXES = ['ul', 'al', 'el', 'ur', 'ar', 'ol', 'ou', 'u', 'a', 'e'];

/**
 * A transcribed token against another token (compare.ts calls this for any pair with one): the listed
 * word matches when the pattern spells it (its latinKey), or spells another form of the same given name
 * (lexicon.ts variant groups). Undefined: no match.
 */
export function transcribedSimilarity(q: NameToken, c: NameToken): TranscribedSim | undefined {
  const qt = q.origin === 'transcribed';
  const ct = c.origin === 'transcribed';
  if (qt && ct) return q.norm === c.norm ? SAME : undefined;
  const t = qt ? q : c;
  const o = qt ? c : q;
  if (o.kind !== 'name' || o.initial || (o.origin !== 'latin' && o.origin !== 'cyrillic')) return undefined;
  const p = patternOf(t.norm);
  if (!p) return undefined;
  for (const k of latinKeys(o.norm)) if (patternMatches(p, k)) return SPELLS;
  for (const v of variantKeys(o.fold)) if (patternMatches(p, v)) return SPELLS_VARIANT;
  if (o.norm.startsWith('abd') && o.norm.length > 5) {
    const rest = latinKey(o.norm.slice(3));
    for (const infix of ABD_INFIXES) if (patternMatches(p, `abd${infix}${rest}`)) return SPELLS;
  }
  return undefined;
}

// ---------- reading a query

const WORD_SPLIT = /[\s,;:()[\]{}"“”„«»!?/\\|+*=<>_~^・·•‧＝゠.&@#%$\-–—]+/u;

// Particles a writer transcribes (빈 bin, イブン ibn, 阿布 abu, ال al): read as the particle, not as a name
const PARTICLE_SPELLINGS: [string, string][] = [
  ['al', 'al'], ['el', 'al'], ['bin', 'bin'], ['ibn', 'bin'], ['ben', 'bin'], ['abu', 'abu'], ['abou', 'abu'], ['umm', 'umm'],
  ['van', 'van'], ['von', 'van'], ['der', 'der'], ['de', 'de'], ['da', 'de'], ['di', 'de'], ['du', 'de'], ['la', 'la'], ['le', 'la'],
];

/** Common given names by consonant skeleton (to mark a transcribed given name as common: lexicon.ts). */
let commonBySkeleton: Map<string, string[]> | undefined;
/** latinKey of the common given names of fewer than two consonants (Ali, Eli), which no skeleton key finds. */
let commonShort: string[] = [];
function isCommonGivenName(p: Pattern): boolean {
  if (!commonBySkeleton) {
    commonBySkeleton = new Map();
    for (const n of COMMON_GIVEN_NAMES) {
      const s = skeleton(n);
      if (s.length < 2) commonShort.push(latinKey(n));
      const l = commonBySkeleton.get(s) ?? [];
      l.push(latinKey(n));
      commonBySkeleton.set(s, l);
    }
  }
  for (const s of skeletonsOf(p)) for (const k of commonBySkeleton.get(s) ?? []) if (patternMatches(p, k)) return true;
  for (const k of commonShort) if (patternMatches(p, k)) return true;
  return false;
}

/** The language a word of a name is read from, given what the whole name showed (Ukrainian letters, a Latin language). */
function wordLanguage(word: string, nameLangs: { cyrillic?: 'uk'; latin?: LatinLanguage }): ReadingLanguage | undefined {
  if (RE_HANGUL_ONLY.test(word)) return 'ko';
  if (RE_KANA_ONLY.test(word)) return 'ja';
  if (RE_HAN_ONLY.test(word)) return 'zh';
  if (RE_GREEK_WORD.test(word)) return 'el';
  if (RE_ARABIC_WORD.test(word)) return 'fa';
  if (RE_HEBREW_WORD.test(word)) return 'he';
  if (RE_THAI_WORD.test(word)) return 'th';
  if (RE_MYANMAR_WORD.test(word)) return 'my';
  if (RE_GEORGIAN_WORD.test(word)) return 'ka';
  if (RE_CYRILLIC_WORD.test(word)) return nameLangs.cyrillic;
  if (RE_LATIN_WORD.test(word) && word.length > 1) return nameLangs.latin;
  return undefined;
}

/**
 * The foreign-name readings of a query (at most two: a Latin name may be Hungarian or Polish), or none
 * when no word of it is written in a script or language read here, or it has fewer than two name words.
 */
export function foreignReadings(raw: string, schema: SchemaHint): PreparedName[] {
  if (schema === 'vessel' || schema === 'aircraft') return [];
  const words = raw.normalize('NFC').split(WORD_SPLIT).filter(Boolean);
  if (words.length < 2 || words.length > 8) return [];
  const lower = words.map((w) => w.toLowerCase());
  const cyrillic = lower.some((w) => RE_CYRILLIC_WORD.test(w) && RE_UK_BE_LETTERS.test(w)) ? ('uk' as const) : undefined;
  const latinLangs = detectLatinLanguages(lower.filter((w) => RE_LATIN_WORD.test(w)), isPooledName);
  const out: PreparedName[] = [];
  for (const latin of latinLangs.length ? latinLangs : [undefined]) {
    const r = readingOf(raw, words, lower, { cyrillic, latin });
    if (r) out.push(r);
  }
  return out;
}

/** Every given name and surname of the name-frequency model's pools, as written (docs/name-frequency.md). */
let pooledNames: Set<string> | undefined;
function isPooledName(word: string): boolean {
  if (!pooledNames) {
    pooledNames = new Set();
    for (const c of namePools().cultures) for (const pool of [c.given, c.surname]) for (const w of pool.counts.keys()) pooledNames.add(w);
  }
  return pooledNames.has(word);
}

/**
 * A name the script's own reading is for, not a foreign name's transcription (no reading is made):
 *  - Arabic script with a word of native Arabic letters, a common Arabic or Persian given name
 *    (abjad.ts; lexicon.ts COMMON_GIVEN_NAMES read by text.ts; ABJAD_GIVEN_NAMES), or a Persian surname
 *    ending (unless a given name is one of those written plene, as copied from a Latin spelling);
 *    Hebrew with a Hebrew surname or a common Hebrew given name (HEBREW_SURNAMES, HEBREW_GIVEN_NAMES; a given name
 *    whose letters also write a common given name of other cultures, אלי Eli or Ali, only beside another of them);
 *  - Hangul in the shape of a Korean name: a one-block Korean surname first or last, the other words of
 *    one or two blocks (김 민준, 남궁 민수), which korean.ts reads;
 *  - Burmese written one syllable a word (အောင် ဆန်း): a Burmese name spaced by syllable, which
 *    ../burmese.ts reads (a foreign name in Burmese has words of several syllables).
 */
function nativeName(lower: string[]): boolean {
  const arabic = lower.filter((w) => RE_ARABIC_WORD.test(w));
  if (arabic.some((w) => RE_NATIVE_ARABIC_LETTERS.test(w) || transliterateTokens(w).some((t) => t.origin === 'arabic_name' || COMMON_GIVEN_NAMES.has(t.norm)))) return true;
  if (arabic.some(isNativeAbjadName)) return true;
  // (a Persian surname ending is a native name's, unless a given name is spelt letter by letter from a
  // Latin spelling, as no Persian writes it: موهاماد یازدی is a foreign writer's Mohammad Yazdi)
  if (arabic.length && PERSIAN_SURNAME.test(toPersianLetters(arabic[arabic.length - 1])) && !arabic.some(spellsKnownNamePlene)) return true;
  const hebrew = lower.filter((w) => RE_HEBREW_WORD.test(w));
  // (a Hebrew given name whose letters also write a given name common among the lists' other cultures, אלי
  // Eli or Ali, tells nothing of the writer alone: a Hebrew surname or a second Hebrew name beside it does)
  const nativeHebrew = hebrew.filter(isNativeHebrewName);
  if (nativeHebrew.length > 1 || (nativeHebrew.length === 1 && !(hebrew.length >= 2 && spellsSharedGivenName(nativeHebrew[0])))) return true;
  const hangul = lower.filter((w) => RE_HANGUL_ONLY.test(w));
  if (hangul.length >= 2 && hangul.length === lower.length) {
    const blocks = hangul.map((w) => [...w].length);
    const surnameAt = (i: number) => blocks[i] <= 2 && KOREAN_SURNAMES.has(hangul[i]);
    const rest = (skip: number) => blocks.every((b, i) => i === skip || b <= 2);
    if ((surnameAt(0) && rest(0)) || (surnameAt(hangul.length - 1) && rest(hangul.length - 1))) return true;
  }
  const burmese = lower.filter((w) => RE_MYANMAR_WORD.test(w));
  if (burmese.length >= 2 && burmese.every((w) => burmeseSyllables(w).length <= 1)) return true;
  return false;
}

// Persian, Arabic and Hebrew names in their own script (issue 32's precision guard): a name with one of
// these words is the native reading's (text.ts, with issue 27's rules on written vowels), never read as
// a foreign name's transcription, whose looser letters would let امیر قاسمی or אליהו כהן meet listed
// Latin spellings the native reading refuses. The most frequent given names of Iran, the Arab world and
// Israel and Israel's most frequent surnames (as national name statistics rank them), written here;
// and the Persian surname endings (-i of origin, -zadeh, -pour, -nejad, -ian, -far, -doust), which no
// Russian or Western surname written in Persian letters has (its -i is -ski: اسکی).
const ABJAD_GIVEN_NAMES = new Set(
  ('محمد علی حسین حسن رضا مهدی امیر احمد محمود مصطفی ابراهیم اسماعیل یوسف عباس جواد مجید حمید سعید مسعود مرتضی مجتبی ' +
    'محسن هادی کاظم جعفر قاسم صادق باقر اکبر اصغر ناصر منصور بهروز فرهاد داوود یعقوب موسی عیسی یحیی سلیمان خلیل کریم رحیم ' +
    'عبدالله عبدالرحمن عمر عثمان خالد ولید طارق جمال کمال نبیل سمیر بشیر نصر فیصل سلطان عادل ' +
    'علیرضا محمدرضا حمیدرضا غلامرضا امیرحسین محمدحسین محمدعلی ' +
    'فاطمه زهرا مریم سارا لیلا نرگس مهسا شیرین زینب معصومه اعظم سمیه الهام نسرین پریسا نازنین مینا ندا هانیه ریحانه عایشه خدیجه آمنه نور هدی')
    .split(' '),
);
const HEBREW_GIVEN_NAMES = new Set(
  ('אברהם יצחק יעקב משה אהרון דוד שלמה יוסף אליהו שמואל חיים דניאל מיכאל יונתן נועם איתי עומר אורי גיא רון עידו אביגיל ' +
    'יהודה בנימין מנחם מאיר נתן אריה צבי עמית אלון ליאור אסף יובל ניר שי תומר אלי ' +
    'שרה רבקה רחל לאה מרים נועה תמר מיכל יעל שירה רוני אסתר חנה רות דבורה אורית ענבל הילה מאיה טל')
    .split(' '),
);
const HEBREW_SURNAMES = new Set('כהן לוי מזרחי פרץ ביטון דהן פרידמן מלכה אזולאי כץ עמר אוחיון חדד גבאי שפירא אשכנזי ברק רוזנברג גולדברג'.split(' '));
const PERSIAN_SURNAME = /(?:[^ک]ی|زاده|پور|نژاد|یان|فر|دوست)$/u;

// The letters a writer working from a Latin spelling writes for an Arabic name's consonants (one class
// each: ح and ه are both h, ص ث س s, ذ ض ظ ز z, ط ت t, ق غ گ g), vowel letters and ع left out.
const LETTER_CLASS: Record<string, string> = {
  ح: 'ه', ص: 'س', ث: 'س', ذ: 'ز', ض: 'ز', ظ: 'ز', ط: 'ت', ق: 'گ', غ: 'گ', ك: 'ک', ا: '', آ: '', أ: '', إ: '', و: '', ی: '', ي: '', ى: '', ئ: '', ع: '', ء: '', ة: 'ه',
};
const consonantClasses = (w: string) => [...toPersianLetters(w)].map((ch) => LETTER_CLASS[ch] ?? ch).join('');
const vowelLetters = (w: string) => [...w].filter((ch) => /[اآأإویيى]/u.test(ch)).length;
let knownByClasses: Map<string, number> | undefined;
/**
 * A well-known given name (ABJAD_GIVEN_NAMES) written plene: its consonants, and at least two vowel
 * letters more than its own spelling, the short vowels a Latin spelling writes (هاسان for حسن Hasan,
 * موهاماد for محمد Mohammad, هوساین for حسین Husayn). Persian writes these names defectively; only a
 * writer copying a foreign spelling letter by letter writes them so.
 */
function spellsKnownNamePlene(w: string): boolean {
  if (!knownByClasses) {
    knownByClasses = new Map();
    for (const n of ABJAD_GIVEN_NAMES) {
      const k = consonantClasses(n);
      if (k.length >= 2) knownByClasses.set(k, Math.min(knownByClasses.get(k) ?? 99, vowelLetters(n)));
    }
  }
  const vowels = knownByClasses.get(consonantClasses(w));
  return vowels !== undefined && !isNativeAbjadName(w) && vowelLetters(toPersianLetters(w)) >= vowels + 2;
}
const toPersianLetters = (w: string) => w.replace(/ي/g, 'ی').replace(/ك/g, 'ک').replace(/[\u064B-\u065F\u0670\u0640\u200C]/g, '');
const isNativeAbjadName = (w: string) => ABJAD_GIVEN_NAMES.has(toPersianLetters(w));
const unpointed = (w: string) => w.normalize('NFD').replace(/[\u0591-\u05C7]/g, '');
const isNativeHebrewName = (w: string) => HEBREW_GIVEN_NAMES.has(unpointed(w)) || HEBREW_SURNAMES.has(unpointed(w));
/** A Hebrew given name (not a surname) whose letters also spell a common given name of the lexicon (אלי: Eli, Ali). */
function spellsSharedGivenName(w: string): boolean {
  if (!HEBREW_GIVEN_NAMES.has(unpointed(w))) return false;
  const p = hebrewPattern(w);
  return !!p && isCommonGivenName(p);
}

// Korean surnames in Hangul, the common ones (Statistics Korea's census lists; one- and two-block)
const KOREAN_SURNAMES = new Set(
  ('김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 유 홍 전 고 문 양 손 배 백 허 남 심 노 하 곽 성 차 주 우 구 민 진 지 엄 채 원 ' +
    '천 방 공 현 함 변 염 여 추 도 소 석 선 설 마 길 연 위 표 명 기 반 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용 예 경 봉 사 부 리 림 로 량 ' +
    '황보 남궁 제갈 선우 독고 사공 서문').split(' '),
);

function readingOf(raw: string, words: string[], lower: string[], nameLangs: { cyrillic?: 'uk'; latin?: LatinLanguage }): PreparedName | undefined {
  if (nativeName(lower)) return undefined;
  const tokens: NameToken[] = [];
  const langs = new Set<ReadingLanguage>();
  let nameWords = 0;
  let untranscribable = false;
  lower.forEach((w, i) => {
    // a title the matcher knows in the lists' languages before the name (generaal, president): not a name word
    if (!tokens.length && isTitleWord(words[i])) return;
    const lang = wordLanguage(w, nameLangs);
    // the Arabic article written onto a name (الزواهري al-Zawahiri)
    if (lang === 'fa' && /^ال.{3,}$/u.test(w)) {
      tokens.push(makeToken('al', 'abjad', 'particle', tokens.length));
      w = w.slice(2);
    }
    const p = lang ? patternFor(lang, w) : undefined;
    // a word of the reading's script with a letter no transcription uses (Urdu ہ, a Han character of a
    // native name): the name is no foreign name's transcription, and its native reading decides
    if (lang && !p) untranscribable = true;
    if (!lang || !p) {
      // a word of another script (a Latin name part, an initial): prepared as it is
      for (const t of transliterateTokens(words[i])) {
        const tok = makeToken(t.norm, t.origin, 'name', tokens.length);
        tokens.push(tok);
        if (!tok.initial) nameWords++;
      }
      return;
    }
    // (not a word that also spells a common given name: Georgian ალი, Ali with the nominative -ი, is no al-)
    const particle = [...w].length <= 4 && !isCommonGivenName(p) ? PARTICLE_SPELLINGS.find(([s]) => patternMatches(p, latinKey(s))) : undefined;
    if (particle) {
      tokens.push(makeToken(particle[1], 'latin', 'particle', tokens.length, words[i]));
      return;
    }
    langs.add(lang);
    tokens.push(transcribedToken(lang, w, words[i], p, tokens.length));
    nameWords++;
  });
  if (!langs.size || nameWords < 2 || untranscribable) return undefined;
  const key = tokens.map((t) => t.fold).sort().join(' ');
  const reading = newPrepared(raw, tokens, [], key, false, [], []);
  const names = [...langs].map((l) => LANGUAGE_NAMES[l]).join(', ');
  reading.reading = `"${raw.trim()}" read as a foreign name written in ${names} (each word compared by the Latin spellings its transcription allows): a potential match, not a confirmed one`;
  return reading;
}

function transcribedToken(lang: ReadingLanguage, word: string, display: string, p: Pattern, pos: number): NameToken {
  const t = makeToken(`${lang}|${word}`, 'transcribed', 'name', pos, display, false);
  t.meta = ['', ''];
  t.initial = false;
  t.common = isCommonGivenName(p);
  const ending = PATRONYMIC_ENDINGS[lang];
  t.patronymic = ending ? ending.test(word) : PATRONYMIC.test(word.normalize('NFD').replace(/[\u0300-\u036f]/g, ''));
  return t;
}

/** A word lexicon.ts TITLES or titles.tsv's single-word alphabetic forms hold, as the matcher transliterates it. */
function isTitleWord(word: string): boolean {
  const toks = transliterateTokens(word);
  return toks.length === 1 && (TITLES.has(toks[0].norm) || TITLE_WORD_SET.has(toks[0].norm));
}
const TITLE_WORD_SET = new Set(TITLE_WORDS);

/** A prepared name is a foreign-name reading (its tokens are transcribed words). */
export function isForeignReading(p: PreparedName): boolean {
  return p.tokens.some((t) => t.origin === 'transcribed');
}

/**
 * A comparison made through a foreign-name reading `p` with a listed name `c`, capped at potential
 * strength (READING_NAME_CAP; compare.ts calls this on every comparison: a name that is not a reading
 * passes untouched). The precision guard of issue 32 on top of the matcher's own name-part rules: a
 * reading is a person's name spelt by sound, so it matches only a listed person, and only as the whole
 * name: every name word of both sides accounted for, bar a listed patronymic the writer left out
 * (Медведев, Dmitry Anatolievich as 드미트리 메드베데프). Anything less is capped at `partialCap` (the
 * matcher's PARTIAL_NAME_CAP, below the threshold): a transcription's loose vowels and consonants
 * otherwise let a native name spell two words of a longer listed one (שלמה פרץ: SALIM, Firas Hajj).
 * `withNote`: the reading's note is put first (when the reading is compared as the query itself).
 */
export function capReading<T extends { score: number; notes: string[]; exact: boolean; whole: boolean }>(
  p: PreparedName,
  c: PreparedName,
  r: T,
  withNote: boolean,
  partialCap: number,
): T {
  if (!p.reading || !isForeignReading(p)) return r;
  if (r.score > READING_NAME_CAP) r.score = Math.round(READING_NAME_CAP * 10000) / 10000;
  r.exact = false;
  const why = c.org || c.vessel ? 'the listed name is not a person\'s' : !r.whole && !onlyListedMiddleLeft(p, c) ? 'a name part of either side is left unmatched' : undefined;
  if (why && r.score > partialCap) {
    r.score = partialCap;
    r.notes.push(`read as a foreign name, ${why}: not a match`);
  }
  if (withNote && !r.notes.includes(p.reading)) r.notes.unshift(p.reading);
  return r;
}

/**
 * Whether what a comparison left unmatched can only be a middle part of the listed name: its patronymic
 * (the listed name has one, and no more other name words than the reading has), or one second given
 * name (Carlos Lobo: LOBO, Carlos Arnoldo), which issue 27 makes a small penalty like a patronymic. The
 * matcher's own rules (compare.ts unaccounted) have already capped a given name or surname left
 * unmatched, so the word left is a middle one. Through Persian and Hebrew letters too (round 4): rounds
 * 2-3 refused it there because consonants alone spell two words of a longer listed name too easily
 * (שלמה פרץ: SALIM, Firas Hajj), but such a name is a native one, which nativeName leaves to the
 * script's own reading before any reading is made; the innocents of both scripts, measured in the same
 * run, did not rise (bench/screening/RESULTS.md, issue 32 round 4).
 */
function onlyListedMiddleLeft(p: PreparedName, c: PreparedName): boolean {
  let patronymics = 0;
  let others = 0;
  for (const t of c.tokens) {
    if (t.kind !== 'name') continue;
    if (t.patronymic) patronymics++;
    else others++;
  }
  const words = p.tokens.filter((t) => t.kind === 'name' && !t.patronymic && !t.initial).length;
  if (patronymics > 0 && others <= words) return true;
  return words >= 2 && others === words + 1;
}

/** Whether a word (a query's remainder after a CJK title is cut off) still reads as a name. */
export function readsAsNameWord(word: string): boolean {
  const w = word.trim();
  if (RE_KANA_ONLY.test(w) || (RE_HAN_ONLY.test(w) && hanPattern(w))) return [...w].length >= 2;
  return [...w].length >= 3;
}
