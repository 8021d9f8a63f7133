/**
 * Latin readings of the name pools written in other scripts, for scripts/build-name-frequency.ts
 * (docs/name-frequency.md "Latin readings"). A romanised query ("Ikeda Takashi", "Farhad Mohammadi",
 * "Giorgos Papadopoulos", "Dvir Cohen") must find its name in the pool of its culture, or the model
 * takes a common name for a rare one and an exact name-only match for a confirmed identity.
 *
 * - Japanese: a kanji entry is read through kuromoji's dictionary (IPADIC, a devDependency): every
 *   reading the dictionary gives the written name as a personal name (隆: Takashi, Yutaka, Ryu), else
 *   the reading of its analysis when every part is a personal name; the katakana is then romanised by
 *   the matcher itself (kana → Hepburn in prepareName), as a query in Latin letters folds.
 * - Greek: the usual Latin spelling (ELOT 743 without accents: ου → ou, μπ → b at the start).
 * - Arabic script (Arabic, Persian, Urdu, Sorani) and Hebrew: an unvowelled name has no one Latin
 *   spelling, so it is keyed by its consonant skeleton (`~` + skeleton, the matcher's skeleton()),
 *   which every Latin spelling of it shares (محمدی, Mohammadi, Mohamadi: ~mhmd); a Hebrew letter with
 *   two readings (ב b/v, פ p/f) gives a key for each.
 * - English and Nordic surnames: the patronymic surnames of the male given-name pool (Daniel →
 *   Daniels, Danielson; Hans → Hansen, Hansson), the largest family of surnames these pools leave out;
 *   and Greek surnames' feminine forms (Papadopoulos → Papadopoulou), which faker's el pool lacks.
 */
import { createRequire } from 'node:module';
import kuromoji from 'kuromoji';
import { prepareName } from '../src/screening/matching/prepare';
import { skeleton } from '../src/screening/matching/text';
import { SKELETON_KEY_PREFIX } from '../src/screening/identity/name-frequency';

/** The token folds one pool entry counts for: each name token, and its tokens joined when there are several. */
export function entryFolds(entry: string): string[] {
  const folds = prepareName(entry, 'person')
    .tokens.filter((t) => t.kind === 'name' && !t.initial && /^[a-z]+$/.test(t.fold))
    .map((t) => t.fold);
  const out = new Set(folds);
  if (folds.length > 1) out.add(folds.join(''));
  return [...out];
}

export interface Readings {
  source: string;
  /** The pool keys an entry of culture `group` counts for besides its own folds. */
  keysOf(group: string, entry: string): string[];
}

const HAN = /\p{Script=Han}/u;
const ARABIC_SCRIPT_GROUPS = new Set(['ar', 'fa', 'ur', 'ku']);

async function japaneseTokenizer(): Promise<kuromoji.Tokenizer<kuromoji.IpadicFeatures>> {
  const dicPath = createRequire(import.meta.url).resolve('kuromoji/package.json').replace(/package\.json$/, 'dict/');
  return new Promise((resolve, reject) => kuromoji.builder({ dicPath }).build((err, tokenizer) => (err ? reject(err) : resolve(tokenizer))));
}

/** Internals of kuromoji's tokenizer used to list every dictionary entry of one written form. */
interface KuromojiInternals {
  viterbi_builder: { trie: { commonPrefixSearch(s: string): { k: string; v: number }[] } };
  token_info_dictionary: { target_map: Record<number, number[]>; getFeatures(id: number): string };
}

/** Katakana readings of a kanji name: the dictionary's personal-name entries of exactly this form, else its analysis. */
function kanjiReadings(tokenizer: kuromoji.Tokenizer<kuromoji.IpadicFeatures>, entry: string): string[] {
  const inner = tokenizer as unknown as KuromojiInternals;
  const readings = new Set<string>();
  for (const match of inner.viterbi_builder.trie.commonPrefixSearch(entry)) {
    if (match.k !== entry) continue;
    for (const id of inner.token_info_dictionary.target_map[match.v] ?? []) {
      // surface,pos,detail1,detail2,detail3,…,basic,reading,pronunciation
      const f = inner.token_info_dictionary.getFeatures(id).split(',');
      if (f[2] === '固有名詞' && f[3] === '人名' && f[8] && f[8] !== '*') readings.add(f[8]);
    }
  }
  if (readings.size === 0) {
    const parts = tokenizer.tokenize(entry);
    if (parts.length > 0 && parts.every((p) => p.pos_detail_2 === '人名' && p.reading && p.reading !== '*')) readings.add(parts.map((p) => p.reading).join(''));
  }
  return [...readings];
}

const GREEK_DIGRAPHS: [RegExp, string][] = [
  [/ου/g, 'ou'], [/^μπ/, 'b'], [/μπ/g, 'mp'], [/^ντ/, 'd'], [/ντ/g, 'nt'], [/γγ/g, 'ng'], [/^γκ/, 'g'], [/γκ/g, 'nk'],
  [/α[υ](?=[θκξπσςτφχψ]|$)/g, 'af'], [/αυ/g, 'av'], [/ε[υ](?=[θκξπσςτφχψ]|$)/g, 'ef'], [/ευ/g, 'ev'],
];
const GREEK_LETTERS: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n', ξ: 'x', ο: 'o', π: 'p',
  ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};

/** A Greek name in its usual Latin spelling (Παπαδόπουλος → papadopoulos, Μπακογιάννης → bakogiannis). */
export function greekLatin(entry: string): string {
  return entry
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => {
      let s = w;
      for (const [re, rep] of GREEK_DIGRAPHS) s = s.replace(re, rep);
      return [...s].map((ch) => GREEK_LETTERS[ch] ?? ch).join('');
    })
    .join(' ');
}

/** Hebrew letters with their Latin consonants (a letter with two readings gives both). */
const HEBREW_CONSONANTS: Record<string, string[]> = {
  א: [''], ב: ['b', 'v'], ג: ['g'], ד: ['d'], ה: ['h'], ו: [''], ז: ['z'], ח: ['h'], ט: ['t'], י: [''], כ: ['k'], ך: ['k'], ל: ['l'],
  מ: ['m'], ם: ['m'], נ: ['n'], ן: ['n'], ס: ['s'], ע: [''], פ: ['p', 'f'], ף: ['f'], צ: ['ts'], ץ: ['ts'], ק: ['k'], ר: ['r'], ש: ['sh'], ת: ['t'],
};

/** Skeleton keys of a Hebrew word, letter by letter (so ד+ה is d-h, never the digraph dh). */
export function hebrewSkeletonKeys(word: string): string[] {
  let variants = [''];
  for (const ch of word.normalize('NFD').replace(/[\u0591-\u05C7]/g, '')) {
    const options = HEBREW_CONSONANTS[ch];
    if (!options) continue;
    variants = variants.flatMap((v) => options.map((o) => v + (o ? skeleton(o) : ''))).slice(0, 16);
  }
  return [...new Set(variants.map((v) => v.replace(/(.)\1+/g, '$1')).filter((v) => v.length >= 2).map((v) => SKELETON_KEY_PREFIX + (v.length > 2 ? v.replace(/h$/, '') : v)))];
}

/** Skeleton keys of an Arabic-script entry: each name token's skeleton as the matcher reads it. */
function arabicSkeletonKeys(entry: string): string[] {
  return prepareName(entry, 'person')
    .tokens.filter((t) => t.kind === 'name' && (t.origin === 'abjad' || t.origin === 'arabic_name') && t.skel.length >= 2)
    .map((t) => SKELETON_KEY_PREFIX + t.skel);
}

export async function latinReadings(): Promise<Readings> {
  const tokenizer = await japaneseTokenizer();
  const version = (createRequire(import.meta.url)('kuromoji/package.json') as { version: string }).version;
  return {
    source: `Japanese kanji read by kuromoji ${version} (Apache-2.0, IPADIC dictionary); Greek in ELOT 743 spelling; Arabic-script and Hebrew names by consonant skeleton; English and Nordic patronymic surnames`,
    keysOf(group, entry) {
      switch (group) {
        case 'ja':
          return HAN.test(entry) ? kanjiReadings(tokenizer, entry).flatMap(entryFolds) : [];
        case 'el':
          return entryFolds(greekLatin(entry));
        case 'he':
          return entry.split(/[\s-]+/).flatMap(hebrewSkeletonKeys);
        default:
          return ARABIC_SCRIPT_GROUPS.has(group) ? arabicSkeletonKeys(entry) : [];
      }
    },
  };
}

/** A Greek surname's feminine form (Παπαδόπουλος → Παπαδοπούλου, Γεωργίου stays): faker's el pool has the masculine only. */
function greekFeminine(surname: string): string | undefined {
  const plain = surname.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
  if (/ος$/.test(plain)) return plain.replace(/ος$/, 'ου');
  if (/ης$/.test(plain)) return plain.replace(/ης$/, 'η');
  if (/ας$/.test(plain)) return plain.replace(/ας$/, 'α');
  return undefined;
}

/**
 * Surnames a culture's pools imply but do not list: the patronymic surnames of its male given names
 * (English Daniels/Danielson, Nordic Hansen/Hansson) and the feminine forms of Greek surnames.
 */
export function derivedSurnames(group: string, maleGiven: readonly string[], surnames: readonly string[]): string[] {
  if (group === 'el') return surnames.map(greekFeminine).filter((s): s is string => s !== undefined);
  const suffixes = group === 'en' ? ['s', 'son'] : group === 'nordic' ? ['sen', 'son', 'sson'] : [];
  return maleGiven.filter((g) => /^\p{Lu}\p{Ll}+$/u.test(g) && !/s$/.test(g)).flatMap((g) => suffixes.map((s) => g + s));
}
