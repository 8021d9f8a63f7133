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
import { BUSINESS_WORDS, HONORIFICS, NAME_VARIANT_HEADS, NAME_VARIANTS, ORG_STOP_WORDS, TITLES } from './lexicon';
import { acronymWords, makeToken, type NameToken, type PreparedName } from './prepare';
import { skippedWords } from './acronyms';
import { relatedEntity } from './discriminators';
import { editDistance, jaroWinkler } from './similarity';
import { arabicNameOfLetters, foldToken, hebrewMatchesLatin } from './text';
import { koreanGivenNameReordered, koreanKey } from './korean';
import { familyNameTakenForGivenName, familyNameTakenForListedGivenName, givenNameTakenForFathersName, ownNameOfChain } from './arabic-roles';
import { SimilarityMemo } from './similarity-memo';
import type { AlignedSpan } from './aligned-span';
import { pooledGivenNames } from '../identity/name-frequency';
import { capReading, isForeignReading, transcribedSimilarity } from './foreign/readings';

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
const SKELETAL_JOIN: TokenSim = { how: 'transliterated', sim: 0.88 };
const INITIAL_PATRONYMIC: TokenSim = { how: 'initial', sim: 0.5 };

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
  // Two Hangul blocks: one different block is another name (김정민 / 김종민), whatever the romanisation
  // shares ("jong" is both 정 and 종 in the lists' spelling); 리/이, 림/임 are one name (hangulSame).
  if (q.native && c.native && q.origin === 'hangul' && c.origin === 'hangul') return hangulSame(q.native, c.native) ? EXACT : NONE;
  if (q.norm === c.norm) return q.origin === c.origin ? EXACT : TRANSLIT_1;
  // A Chinese syllable against another (read from Han characters, or both names read as pinyin):
  // one different syllable is another name (Lin Bin / Lin Ping, Guiying / Guoying), not a typo;
  // homophone characters have the same pinyin and were equal above. (Hanja readings: Korean keys.)
  if ((q.pinyin && c.pinyin) || (q.pinyin && q.origin === 'han') || (c.pinyin && c.origin === 'han')) {
    // (two Latin spellings may still differ as romanisations do: Jiangzhou / Jiangzhu)
    if (q.fold === c.fold && q.origin === 'latin' && c.origin === 'latin') return TRANSLIT_95;
    return q.korean && q.korean === c.korean ? TRANSLIT_92 : NONE;
  }
  // A syllable read from Hangul against a Latin word of a name that does not read as Korean: only a
  // romanisation of that syllable (a Japanese name's Hanja reading 길 kil is not the Kyl of Jon Kyl)
  const hangul = q.origin === 'hangul' ? q : c.origin === 'hangul' ? c : undefined;
  const other = hangul === q ? c : q;
  if (hangul && other.origin === 'latin' && !other.korean) {
    const key = hangul.korean ?? koreanKey(hangul.norm);
    return key && key === koreanKey(other.norm) ? TRANSLIT_92 : NONE;
  }
  // (an unvowelled word's letters are no spelling of a given name, though they fold like one: علی and אלי,
  // "ly", fold through the variant groups as the Korean surname Li / Ri; the script's own rules compare such
  // a word below. آلی, "aly", folds as Ali by its own letters and stays equal to it)
  if (q.fold === c.fold && !spuriousFold(q, c)) return TRANSLIT_95;
  // One Korean syllable in two romanisations (Gim/Kim, Jeong/Jong/Chung, Eun/Un, Choe/Choi): see korean.ts.
  if (q.korean && q.korean === c.korean) return TRANSLIT_92;
  if (q.initial || c.initial) {
    // (an initial goes to a given name before a patronymic: "V. Putin" is Vladimir, not Vladimirovich;
    // issue 32: a Cyrillic initial also agrees by the folds' first letters: Е. is Yevgeny, Ю. Yuri or Iurii)
    const cyrillic = q.origin === 'cyrillic' || c.origin === 'cyrillic';
    if (q.norm[0] !== c.norm[0] && !(cyrillic && q.fold[0] === c.fold[0])) return NONE;
    // (the second of two initials is the patronymic's in Russian order: "D. A. Medvedev" is Dmitry Anatolievich)
    const patronymicInitial = (q.patronymic && c.followsInitial) || (c.patronymic && q.followsInitial);
    return (q.patronymic || c.patronymic) && !patronymicInitial ? INITIAL_PATRONYMIC : INITIAL;
  }
  // Two Korean names: a syllable in another romanisation matched above; any other difference is another syllable.
  if (q.korean && c.korean) return NONE;
  // Two names known to be different (Muhammad / Mahmud, Ri / Pak), whatever their spellings share.
  if (q.kind === 'name' && c.kind === 'name' && NAME_VARIANT_HEADS.has(q.fold) && NAME_VARIANT_HEADS.has(c.fold) && !spuriousFold(q, c)) return NONE;
  // A Russian name as German, Polish, French, Dutch or Hungarian write it (Poetin, Szojgu, Jewgeni).
  if ((q.renderings?.length || c.renderings?.length) && sharesRendering(q, c)) return TRANSLIT_9;
  const qa = q.origin === 'abjad';
  const ca = c.origin === 'abjad';
  if (qa !== ca) {
    // Hebrew letter by letter against a Latin spelling (vowel letters, begadkefat, the article).
    const heb = qa ? q.hebrew : c.hebrew;
    // (Hebrew is compared letter by letter only: the Arabic consonant skeleton below merges p/b and g/k,
    // which Hebrew writes apart, and reads ד+ה as "dh": דביר is not Dapper, פלג not Black)
    if (heb) return hebrewMatchesLatin(heb, qa ? c.norm : q.norm) ? TRANSLIT_95 : NONE;
    // A name made from one well-known name is not the one made from another (محمدی Mohammadi is not Mahmoudi).
    if (otherKnownName(qa ? q.norm : c.norm, qa ? c.norm : q.norm)) return NONE;
    // A word starts and ends with a vowel where its letters write one (امینی is Amini, not Minai; عاصم Asim, not Usama)
    // (checked only where the letters otherwise agree: most pairs differ in their skeletons)
    const written = qa ? q.native : c.native;
    const vowelled = qa ? c : q;
    const endsAgree = () => !written || !VOWELLED_ORIGINS.has(vowelled.origin) || abjadEndsAgree(written, vowelled.norm);
    // Unvowelled Arabic/Hebrew against a vowelled spelling: only the consonant skeleton can be compared.
    const latinLen = qa ? c.norm.length : q.norm.length;
    // (and the vowels the script does write must be where the Latin spelling has them: abjadVowelsAgree)
    if (q.skel.length >= 2 && q.skel === c.skel) {
      if (!abjadVowelsAgree(qa ? q.norm : c.norm, qa ? c.norm : q.norm) || !endsAgree()) return NONE;
      return q.skel.length >= 3 || latinLen >= 5 ? TRANSLIT_95 : TRANSLIT_8;
    }
    const shortSkel = Math.min(q.skel.length, c.skel.length);
    if (shortSkel >= 4 && editDistance(q.skel, c.skel, 1) <= 1 && endsAgree()) return TRANSLIT_8;
    return NONE;
  }
  // A given name and its other gender's form are two names, two people (Juan / Juana, Daniel / Daniela, Carlo / Carla).
  // (the name the other is made from is the well-known one: Mustaf, a typo of Mustafa, is no man's name)
  if (q.kind === 'name' && c.kind === 'name' && ((q.common && genderedForm(q.fold, c.fold)) || (c.common && genderedForm(c.fold, q.fold)))) return NONE;
  // A Persian family name with a suffix that makes another family name (Jafari / Jafariyeh, Ghorbani / Ghorbaniyan).
  if (q.kind === 'name' && c.kind === 'name' && (derivedFamilyName(q.fold, c.fold) || derivedFamilyName(c.fold, q.fold))) return NONE;
  // A name with the Persian/Arabic adjective ending -i is another name (Zamani / Zaman, Karimi / Karim).
  if (q.kind === 'name' && c.kind === 'name' && (nisbaOf(q.norm, c.norm) || nisbaOf(c.norm, q.norm))) return NONE;
  // Two different well-known given names (Maria/Mario, Michael/Michelle) are different names,
  // unless they are spelling variants of one name (Mohammed/Muhammad: same skeleton and ending).
  if (q.common && c.common && q.kind === 'name' && c.kind === 'name') {
    // (same skeleton and the same last letter)
    if (q.skel !== c.skel || lastCode(q.fold) !== lastCode(c.fold)) return NONE;
  }
  const sim = spellingSimilarity(q, c);
  // A Chinese syllable may carry a typo, never a sound-alike (Jing / Wing, Sun / Xun): see chinese.ts
  if ((q.pinyin || c.pinyin) && sim.how !== 'fuzzy') return NONE;
  // A common given name matches only itself or its spelling variants, never a near-miss word
  // (Mary/Mayer, David/Davis, Kevin/Kelvin).
  if (sim.sim > 0 && q.common !== c.common && (sim.how === 'fuzzy' || sim.how === 'phonetic')) {
    // (round 5: its spellings differ in their vowels, Mohammed / Muhammad, Aleksey / Alexy: a near spelling with
    // one consonant in place of another that is itself a given name people carry is another name, Khalid / Khalil,
    // Karim / Qassim; a typo makes no name, Muhammad / Muhammta, Richard / Ricward, and a consonant more may be an
    // ending, the Lithuanian Husaynas)
    if (q.kind === 'name' && c.kind === 'name' && anotherGivenName(q.common ? c : q, q.common ? q : c)) return NONE;
    return { how: sim.how, sim: round(sim.sim * 0.8) };
  }
  return sim;
}

/**
 * An unvowelled word against a vowelled one whose fold comes from a given name's variant group, not from
 * its letters' own fold (علی "ly" folds as Ri): the fold says nothing of the name (called only on a fold
 * equality or two known names, rare enough to fold the letters again).
 */
function spuriousFold(q: NameToken, c: NameToken): boolean {
  if ((q.origin === 'abjad') === (c.origin === 'abjad')) return false;
  const a = q.origin === 'abjad' ? q : c;
  return a.kind === 'name' && a.fold !== foldToken(a.norm);
}

/**
 * `other`, a near spelling of the well-known given name `common`, is a given name of its own: a consonant
 * in place of one of `common`'s (as many consonants, another skeleton) and the word a given name of the
 * name-frequency pools (identity/name-frequency.ts): Khalil for Khalid, Qassim for Karim.
 */
function anotherGivenName(other: NameToken, common: NameToken): boolean {
  return other.skel !== common.skel && vowelGaps(other.norm).length === vowelGaps(common.norm).length && pooledGivenNames().has(other.fold);
}

/**
 * `longer` (folded) is the family name `base` with a Persian suffix that forms family names of their own:
 * -yeh, -iyan (Jafari / Jafariyeh, Ghorbani / Ghorbaniyan, Rezaei / Rezaeian), -zadeh, -pour, -nejad.
 * The folds write -iyeh as -ieh and -iyan as -ian.
 */
function derivedFamilyName(base: string, longer: string): boolean {
  return base.length >= 4 && longer.length > base.length && longer.startsWith(base) && DERIVING_SUFFIX.test(longer.slice(base.length));
}
const DERIVING_SUFFIX = /^(i?eh|i?an|zadeh?|pur|nejad|nezhad)$/;

/**
 * `other` is the feminine form of the given name `name`: the name with -a added (Juan / Juana, Daniel /
 * Daniela) or its final -o made -a (Carlo / Carla, Antonio / Antonia). Only called when `name` is a
 * well-known given name: a surname's feminine form (Ivanov / Ivanova) is one family's name.
 */
function genderedForm(name: string, other: string): boolean {
  if (name.length < 3) return false;
  if (other === `${name}a` && !VOWEL.test(name[name.length - 1])) return true;
  return name.endsWith('o') && other === `${name.slice(0, -1)}a`;
}

/**
 * An unvowelled word that writes one well-known Arabic name (or its adjective in -i: محمدی is Mohammadi)
 * against a Latin word that spells another (Mahmoudi): the script's letters decide which name it is,
 * where the consonant skeleton (mhmd for both) cannot.
 */
function otherKnownName(abjad: string, latin: string): boolean {
  const nisba = abjad.length > 3 && abjad.endsWith('y') && /[iy]$/.test(latin);
  const written = arabicNameOfLetters(nisba ? abjad.slice(0, -1) : abjad);
  if (!written) return false;
  const latinHead = (w: string) => {
    const f = foldToken(w);
    return NAME_VARIANTS.get(f) ?? (NAME_VARIANT_HEADS.has(f) ? f : undefined);
  };
  const head = latinHead(nisba ? latin.slice(0, -1) : latin);
  return head !== undefined && head !== latinHead(written);
}

/** `longer` is `shorter` with the adjective ending -i (-y): a Persian or Arabic name made from another. */
function nisbaOf(longer: string, shorter: string): boolean {
  if (longer.length <= shorter.length || shorter.length < 4 || longer[0] !== shorter[0]) return false;
  const end = longer.charCodeAt(longer.length - 1);
  const stem = longer[longer.length - 2];
  // i, y after the consonant the other name ends with (Soltani / Sultan, Hashemi / Hashim, Mohammadi / Mohamad)
  if (!((end === 105 || end === 121) && !VOWEL.test(stem) && stem === shorter[shorter.length - 1])) return false;
  // (the rest one spelling apart at most: Kawrafarni is a typo of Karafarin, not a nisba)
  return longer.length - shorter.length <= 2 && editDistance(longer.slice(0, -1), shorter, 1) <= 1;
}
const VOWEL = /[aeiouy]/;

/**
 * Two Latin spellings of one name start alike and end alike with a vowel or a consonant: a vowel
 * before the first consonant or after the last is a sound the other name lacks (Ehsan / Hassan,
 * Salma / Salim), where a vowel between consonants may be a spelling's choice (Abdelkrim / Abdelkarim).
 */
function sameVowelEnds(a: string, b: string): boolean {
  return VOWEL.test(a[0]) === VOWEL.test(b[0]) && !oneFeminineA(a, b);
}

/** One word ends in -a and the other in a consonant (a final h after a vowel writes the vowel: Fatemeh / Fatima). */
function oneFeminineA(a: string, b: string): boolean {
  const last = (w: string) => (w.length > 2 && w.endsWith('h') && VOWEL.test(w[w.length - 2]) ? w[w.length - 2] : w[w.length - 1]);
  const ea = last(a);
  const eb = last(b);
  return (ea === 'a' && !VOWEL.test(eb)) || (eb === 'a' && !VOWEL.test(ea));
}

// Arabic-script letters that write a vowel at the start of a word (alef, ain) and at its end (alef, the long
// vowels, ta marbuta and the final he of -a/-e, hamza, Urdu's he and bari ye)
const ABJAD_INITIAL_VOWEL = /^[اآأإٱع]/u;
const ABJAD_INITIAL_EITHER = /^[ویيئء]/u;
const ABJAD_FINAL_VOWEL = /[اآأإویيىهةعءئؤۃۂےۓہ]$/u;

/**
 * An Arabic-script word (as written) against a Latin spelling: a word-initial vowel is always written (ا
 * or ع), so the Latin spelling starts with a vowel exactly when the word starts with one of those (امینی
 * is Amini, not Minai; منایل is not Amanullah); و and ی may be either (Ouadie, Yusuf). A final vowel is
 * written too (ا ی و ه ة): a word ending in another letter ends in its consonant, bar a Latin silent e
 * after it (Hassine): عاصم is Asim, not Usama.
 */
export function abjadEndsAgree(written: string, latin: string): boolean {
  if (!latin) return true;
  if (!ABJAD_INITIAL_EITHER.test(written) && ABJAD_INITIAL_VOWEL.test(written) !== /^[aeiou]/.test(latin)) return false;
  if (!ABJAD_FINAL_VOWEL.test(written) && /[aeiouy]$/.test(latin) && !/[^aeiouy]e$/.test(latin)) return false;
  return true;
}

/** Origins whose folds write the vowels (an unvowelled Arabic-script or Hebrew word does not; kana adds its own). */
const VOWELLED_ORIGINS: ReadonlySet<string> = new Set(['latin', 'cyrillic', 'greek']);

/**
 * Two words with their vowels written have as many vowel sounds, unless both end in a consonant: the
 * short vowels inside a romanised Arabic name come and go with the writer (Khodr / Khader, Salman /
 * Sulayman), while a final vowel is part of the name (a feminine -a, an -i): Asma is not Usamah,
 * Bhamini not Bahman. A word without its vowels written agrees with any.
 */
function sameSyllableCount(a: NameToken, b: NameToken): boolean {
  if (!VOWELLED_ORIGINS.has(a.origin) || !VOWELLED_ORIGINS.has(b.origin)) return true;
  return vowelGroups(a.fold) === vowelGroups(b.fold) || (!endsInVowelSound(a.fold) && !endsInVowelSound(b.fold));
}

/** A word ends in a vowel sound: a vowel, or a vowel and h (Usamah, Fatemeh); a final e after a consonant is silent (Hassine, Amine). */
function endsInVowelSound(w: string): boolean {
  if (/[aiouy]$/.test(w) || /[aeiou]h$/.test(w)) return true;
  return /[aeiouy]e$/.test(w);
}

/** Runs of vowels in a Latin word (y counts as a vowel): its syllables, roughly. */
function vowelGroups(word: string): number {
  let n = 0;
  let inRun = false;
  for (let i = 0; i < word.length; i++) {
    const v = VOWEL.test(word[i]);
    if (v && !inRun) n++;
    inRun = v;
  }
  return n;
}

/**
 * Gaps between the consonants of a word, as skeleton() counts consonants (digraphs one, doubled
 * letters one, y and w with the vowels): `consonants.length + 1` strings, from before the first.
 */
function vowelGaps(norm: string): string[] {
  const s = norm
    .replace(/kh|gh|sh|ch|th|dh|ph|ts|zh/g, 'C')
    .replace(/x/g, 'C');
  const gaps: string[] = [''];
  let last = '';
  for (const ch of s) {
    if (/[aeiouyw]/.test(ch)) gaps[gaps.length - 1] += ch;
    else if (ch === last && gaps[gaps.length - 1] === '') continue; // doubled consonant
    else gaps.push('');
    last = ch;
  }
  return gaps;
}

/**
 * An unvowelled (Arabic, Persian, Hebrew) word against a Latin spelling with the same consonants: the
 * script writes long vowels (ا و ی), so where it writes one the Latin spelling has a vowel, and where it
 * writes none the Latin has at most a short one. "کریمی" (krymy) is Karimi, not Cayaurima; "زمانی"
 * (zmny) is Zamani, not Zaman; "עופרי" (wpry) is Ofri, not Para.
 */
export function abjadVowelsAgree(abjad: string, latin: string): boolean {
  let a = vowelGaps(abjad);
  const l = vowelGaps(latin);
  // A final ه/ة (h) that the Latin leaves unwritten or writes as the vowel it stands for (Amna, Fatima): the
  // other letters are still compared place by place, aligned without it (round 5: غويلة ghwylh writes a و and
  // a ی after its first letter, which Kalai has not). Where dropping the h leaves as many places (an h that
  // was part of a digraph, ش sh), the word without it is compared as a whole.
  if (a.length === l.length + 1 && /h$/.test(abjad) && !/h$/.test(latin)) {
    a = vowelGaps(abjad.slice(0, -1));
    if (a.length === l.length + 1) return abjadVowelsAgree(abjad.slice(0, -1), latin);
  }
  if (a.length !== l.length) {
    // A consonant the script writes, missing from the Latin (خليل khlyl is Khalil, three consonants, not
    // Kalai: the skeleton's doubled-letter rule merged l-y-l). A final ه/ة (h) is often not written in Latin.
    const written = a.length - (/h$/.test(abjad) ? 1 : 0);
    // A consonant the Latin repeats across a vowel is two letters the script would write twice
    // (Akbaba's b-a-b: not يعقوب, whose skeleton kb the repeat had collapsed into)
    const repeat = /([bcdfgjklmnpqrstvz])[aeiouy]+\1/.exec(latin);
    if (repeat && abjad.split(repeat[1]).length < 3) return false;
    return written <= l.length;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '') {
      // (a Latin w or y is a letter the script would write: "انس" Anas is not Wanus)
      if (l[i].length >= 3 || LONG_VOWEL.test(l[i]) || /[wy]/.test(l[i])) return false;
    } else if (l[i] === '') return false;
    // (nor where it writes another vowel: آمنه Amna is not Ayman, whose y the script would write ی)
    else if (/[wy]/.test(l[i]) && !/[wy]/.test(a[i])) return false;
    // the long vowel written is the one read: ی (y) an i or e, و (w) an o or u (کریمی Karimi is not Karami)
    else if ((a[i].includes('y') && !/[iey]/.test(l[i])) || (a[i].includes('w') && !/[ouw]/.test(l[i]))) return false;
  }
  return true;
}
// (not ou, ai, ei: French writes a short u as ou, Mounir / منير, and the reading leaves out alef and ain, القاعدة qdh / Qaida)
const LONG_VOWEL = /^(oo|uu|ee|ii)$/;

/** Two Hangul blocks are one syllable, reading an initial ㄹ as ㅇ/ㄴ as the South writes it (리/이, 림/임, 로/노). */
function hangulSame(a: string, b: string): boolean {
  return a === b || dueum(a) === dueum(b);
}
function dueum(block: string): string {
  const code = block.charCodeAt(0) - 0xac00;
  if (code < 0 || code > 11171) return block;
  const lead = Math.floor(code / 588);
  const vowel = Math.floor((code % 588) / 28);
  // ㄹ (5) → ㄴ (2), and ㄴ → ㅇ (11) before i/y vowels (ㅑ2 ㅕ6 ㅖ7 ㅛ12 ㅠ17 ㅣ20)
  let l = lead === 5 ? 2 : lead;
  if (l === 2 && [2, 6, 7, 12, 17, 20].includes(vowel)) l = 11;
  return l === lead ? block : String.fromCharCode(0xac00 + l * 588 + (code % 588));
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
    (a.native ?? '') === (b.native ?? '') &&
    a.pinyin === b.pinyin &&
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
  // (a feminine -a is another name, whatever the sound code says: Salma / Salim, Roberta / Robert)
  // (and, between two words spelled with their vowels, with as many vowel sounds where one ends in a
  // vowel: a sound code keeps the consonants only, so Asma / Usamah and Bhamini / Bahman share one; round 4)
  const phonetic =
    !!q1 && (q1 === c1 || q1 === c2 || (!!q2 && (q2 === c1 || q2 === c2))) && 0.85 > best && !oneFeminineA(q.fold, c.fold) && sameSyllableCount(q, c);
  // (a shared consonant skeleton counts only with as many vowel sounds: Fang / Fangwei, Hamid / Ahmadi are other names)
  // (kana writes a vowel after every consonant: アエロスキャン aerosukyan is Aeroscan)
  // (and with the vowels at the same ends: Ehsan / Hassan and Salma / Salim share consonants, not a name)
  const skeletal =
    q.skel.length >= 3 &&
    q.skel === c.skel &&
    0.88 > best &&
    (q.origin === 'kana' || c.origin === 'kana' || (vowelGroups(q.fold) === vowelGroups(c.fold) && sameVowelEnds(q.fold, c.fold)));
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
   * Every name word and initial of both names is aligned (particles, titles and legal forms aside):
   * the names are the same length, each word accounted for. A weak alias alerts only then (engine.ts).
   */
  whole: boolean;
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
interface Pair extends AlignedSpan {
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
  t.pinyin = parts.every((p) => p.pinyin);
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

/** The Hangul blocks many[j .. j+len-1] read as `word`'s romanised Korean syllables, one for one. */
function sameHangulSyllables(many: NameToken[], j: number, len: number, word: NameToken): boolean {
  const keys: string[] = [];
  for (let k = j; k < j + len; k++) {
    const key = many[k].origin === 'hangul' ? (many[k].korean ?? koreanKey(many[k].norm)) : undefined;
    if (!key) return false;
    keys.push(key);
  }
  return keys.join('.') === (word.korean ?? koreanKey(word.norm));
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
        let transcribed = one[i].origin === 'transcribed';
        for (let k = j; k < j + len; k++) {
          const t = many[k];
          // (an initial is a word of its own, never a syllable run into a name: Manuela is not Manuel J., round 5)
          if (manyUsed[k] || (t.kind !== 'name' && t.kind !== 'particle') || t.initial) {
            eligible = false;
            break;
          }
          spanLen += t.norm.length;
          if (t.origin === 'transcribed') transcribed = true;
        }
        // (a transcribed word's norm is its script's letters, whose count says nothing of the Latin length: a
        // Burmese word has a letter per mark, 아 is one block; its pattern decides: foreign/readings.ts)
        if (!eligible || (!transcribed && Math.abs(spanLen - one[i].norm.length) > 3)) continue;
        const span = spanToken(manySide, j, len);
        // Chinese syllables run together only as they are ("Jin Ping" = "Jinping"; "Han Lei" is not "Hanley")
        if ((span.pinyin || one[i].pinyin) && span.norm !== one[i].norm) continue;
        // Hangul blocks run together only into a word that reads as the same syllables, block for block
        // (이우진: 이+우 ri+u is two syllables, never the one syllable Ryu)
        if (many[j].origin === 'hangul' && span.norm !== one[i].norm && !sameHangulSyllables(many, j, len, one[i])) continue;
        let s = similarityIn(memo, one[i], oneId, span, manySide.spanIds[j * 2 + len - 2]);
        // Burmese syllables run together into a word that spells them, near enough for a romanisation's
        // choices (Than + Ta, Thanda), never one that only shares a sound code: Ta + Nwe is not Than
        if (many[j].origin === 'burmese' && s.how === 'phonetic') continue;
        // (words run together keep their consonants, not always their vowels: ISIS GS / ISGS; the
        // vowel count that a single word must keep does not apply to a join)
        if (s.sim < 0.85 && !one[i].korean && !span.korean && one[i].skel.length >= 3 && one[i].skel === span.skel && jaroWinkler(one[i].fold, span.fold) >= 0.8) {
          s = SKELETAL_JOIN;
        }
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

/**
 * Highest name score of a person match that leaves a name part unaccounted for: the final score
 * (0.95 × this = 0.70) stays below the default threshold even with a DOB and a country agreeing.
 */
export const PARTIAL_NAME_CAP = 0.74;

/**
 * Why two person names that share some parts are different people, or undefined when every part is
 * accounted for as a variant allows (a middle name, patronymic or initial missing on one side):
 *  - a one-word listed name inside a longer query (the query's other words unmatched);
 *  - name words unmatched on both sides (Kim Jong Min / Kim Jong Un);
 *  - on the longer side, a given name or surname unmatched (the match goes through a middle name);
 *  - an Arabic chain read the other way ("Ahmad bin Khalid" is Ahmad son of Khalid, not Khalid son of Ahmad).
 */
function unaccounted(q: PreparedName, qt: NameToken[], qUsed: Used, c: PreparedName, ct: NameToken[], cUsed: Used, pairs: Pair[]): string | undefined {
  const cWords = countNames(ct);
  if (cWords === 1 && unmatchedNameOrInitial(qt, qUsed)) {
    return `the listed name is the one word "${ct.find(isNameWord)!.display}": it matches a query that is that word alone, not a longer name (${leftDisplays(qt, qUsed)} unmatched)`;
  }
  const qLeft = unmatchedFull(qt, qUsed);
  const cLeft = unmatchedFull(ct, cUsed);
  // a Chinese or Korean name written in its script: every syllable counts (a given name is one or two of them)
  const syllable = (qLeft && syllableLeft(qt, qUsed)) || (cLeft && syllableLeft(ct, cUsed));
  if (syllable) return `the syllable "${syllable}" is unmatched: in a Chinese or Korean name one syllable more or less is another name`;
  if (qLeft && cLeft) {
    return `${leftDisplays(qt, qUsed)} of the query and ${leftDisplays(ct, cUsed)} of the listed name are unmatched: different name parts, another person`;
  }
  if (qLeft) {
    const edge = unmatchedEdge(q, qt, qUsed, c, ct, cUsed, pairs, true);
    if (edge) return `the query's ${edge} is not in the listed name: a match through a middle name only`;
  } else if (cLeft) {
    const edge = unmatchedEdge(c, ct, cUsed, q, qt, qUsed, pairs, false);
    if (edge) return `the listed name's ${edge} is not in the query: a match through a middle name only`;
  }
  const swapped = swappedChain(q, qt, c, ct, pairs);
  if (swapped) return swapped;
  const reordered = koreanGivenNameReordered(qt, q.tokens.length === qt.length ? q.commaAt : undefined, ct, c.tokens.length === ct.length ? c.commaAt : undefined, pairs);
  if (reordered) return reordered;
  return familyNameTakenForGivenName(q, qt, c, ct, pairs) ?? familyNameTakenForListedGivenName(q, qt, c, ct, pairs) ?? givenNameTakenForFathersName(q, qt, c, ct, pairs);
}

const isNameWord = (t: NameToken) => t.kind === 'name';

/** An unmatched syllable of a name read from Han or Hangul characters (a Latin name may add a Western middle name). */
function syllableLeft(toks: NameToken[], used: Used): string | undefined {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!used[i] && t.kind === 'name' && (t.origin === 'han' || t.origin === 'hangul')) return t.display;
  }
  return undefined;
}

/** A name with a well-known given name, or written in a script read as personal names (Han, Hangul, Arabic, pinyin). */
function readsAsPerson(toks: NameToken[]): boolean {
  for (const t of toks) {
    if (t.kind !== 'name') continue;
    if (t.common || t.pinyin || t.origin === 'hangul' || t.origin === 'abjad' || t.origin === 'arabic_name') return true;
  }
  return false;
}

/**
 * A name that reads as a person's (no legal form or business word) against an organisation or vessel:
 * the same words on both sides, or nothing ("Li Wei" is not WEI TA LEE COMPANY, "Jing Sun" not SUN WING LTD).
 */
function unaccountedEntity(qt: NameToken[], qUsed: Used, ct: NameToken[], cUsed: Used, pairs: readonly Pair[]): string | undefined {
  // (a person's name words run together into one word of a company or vessel: Ma Na is not MANA
  // INTERNATIONAL, אניעם עמר not NIMR INTERNATIONAL, as Han Lei is not HANLEY LIMITED)
  const joined = pairs.find((p) => p.how === 'merged' && p.qn > 1);
  if (joined) return `the person's name words ${displays(qt, joined.q0, joined.qn)} run together into the organisation or vessel word "${displays(ct, joined.c0, joined.cn)}": not the same name`;
  if (!unmatchedFull(qt, qUsed) && !unmatchedFull(ct, cUsed)) return undefined;
  const left = [leftDisplays(qt, qUsed), leftDisplays(ct, cUsed)].filter(Boolean).join(' and ');
  return `a person's name against an organisation or vessel name with ${left} unmatched: not the same name`;
}

function countNames(toks: NameToken[]): number {
  let n = 0;
  for (const t of toks) if (t.kind === 'name') n++;
  return n;
}

function unmatchedNameOrInitial(toks: NameToken[], used: Used): boolean {
  for (let i = 0; i < toks.length; i++) if (!used[i] && toks[i].kind === 'name') return true;
  return false;
}

/** An unmatched name word that is not an initial (patronymics count: another father is another person). */
function unmatchedFull(toks: NameToken[], used: Used): boolean {
  for (let i = 0; i < toks.length; i++) if (!used[i] && toks[i].kind === 'name' && !toks[i].initial) return true;
  return false;
}

function leftDisplays(toks: NameToken[], used: Used): string {
  return toks
    .filter((t, i) => !used[i] && t.kind === 'name')
    .map((t) => `"${t.display}"`)
    .join(', ');
}

/**
 * The given name or surname of side `a` (the longer name) that is unmatched, described, or undefined.
 * "SURNAME, Given Middle": the surname words (one of them must match) and the first given name;
 * otherwise the first and the last name words (in either order they are the given name and the
 * surname), patronymics aside. A second surname ("Juan Martinez Perez" against "MARTINEZ, Juan") is
 * not a surname missing: the other side's surname matched the word before it.
 */
function unmatchedEdge(a: PreparedName, at: NameToken[], aUsed: Used, b: PreparedName, bt: NameToken[], bUsed: Used, pairs: Pair[], aIsQuery: boolean): string | undefined {
  const commaAt = a.tokens.length === at.length ? a.commaAt : undefined;
  if (commaAt !== undefined) {
    let surnameSeen = false;
    let surnameMatched = false;
    for (let i = 0; i < commaAt; i++) {
      if (at[i].kind !== 'name') continue;
      surnameSeen = true;
      if (aUsed[i]) surnameMatched = true;
    }
    if (surnameSeen && !surnameMatched) return 'surname';
    for (let i = commaAt; i < at.length; i++) {
      if (at[i].kind !== 'name' || at[i].patronymic) continue;
      if (aUsed[i]) return undefined;
      // (a common first given name left out, the second one matched: Jose Miguel / Miguel; not the
      // third, a grandfather's name: Jamal Ibrahim Muhammad AL-SHITAYWI is not Muhammad al-Shitaywi)
      let next = i + 1;
      while (next < at.length && at[next].kind !== 'name') next++;
      // (nor the given name of an Arabic chain: the next is the father's name, arabic-roles.ts)
      return mayBeLeftOut(at[i]) && !byInitial(pairs) && next < at.length && aUsed[next] && !ownNameOfChain(at, i, commaAt) ? undefined : `given name "${at[i].display}"`;
    }
    return undefined;
  }
  let first = -1;
  let last = -1;
  for (let i = 0; i < at.length; i++) {
    if (at[i].kind !== 'name' || at[i].patronymic) continue;
    if (first < 0) first = i;
    last = i;
  }
  if (first < 0 || first === last) return undefined;
  // (the last word is the surname only when the other name says which its surname is: "SURNAME,
  // Given"; a name in surname-first order, GUZMAN LOERA Joaquin Archivaldo, ends with a given name)
  const bComma = b.tokens.length === bt.length ? b.commaAt : undefined;
  if (!aUsed[first]) {
    // a common first name left out keeps the other parts in their places: the other side's surname
    // is this side's last word (Ali Ibrahim KHALIL is not IBRAHIM, Khalil), and no initial stands for a name
    const inPlace = bComma === undefined || surnameMatchedTo(pairs, bComma, last, aIsQuery);
    // (never one followed by "bin": the name after it is the father's, so the first is the person's own:
    // Omar bin Mohammed al-Masri is not AL-MASRI, Mohammed, his father's name)
    const ownBeforeChain = at[first + 1]?.kind === 'particle' && at[first + 1]!.fold === 'bin';
    // (nor one of a chain without "bin": Aisha Ahmed al-Masri is not AL-MASRI, Ahmad, arabic-roles.ts)
    if (!(mayBeLeftOut(at[first]) && inPlace && !byInitial(pairs)) || ownBeforeChain || ownNameOfChain(at, first)) return `first name word "${at[first].display}"`;
  }
  if (!aUsed[last] && bComma !== undefined) {
    // a listed Arabic name's last "al-" name (family, tribe or origin: SADDAM HUSSEIN AL-TIKRITI) is
    // often left out; the query's own surname is not (issue 27: no alert through a middle name)
    if (!aIsQuery && last > 0 && at[last - 1].kind === 'particle' && at[last - 1].fold === 'al') return undefined;
    // the word before it matched the other side's surname: a second (maternal) surname
    for (const p of pairs) {
      const aStart = aIsQuery ? p.q0 : p.c0;
      const aLen = aIsQuery ? p.qn : p.cn;
      const bStart = aIsQuery ? p.c0 : p.q0;
      if (aStart + aLen === last && bStart < bComma && bUsed[bStart]) return undefined;
    }
    return `last name word "${at[last].display}"`;
  }
  return undefined;
}

/**
 * A first given name often left out of a variant of the same person's name: a very common one
 * (Muhammad Arif Qasmani / Arif Qasmani, Jose Miguel / Miguel) or a title written as a name (Haji,
 * Hafiz, Mullah, Sheikh, U, Major).
 */
function mayBeLeftOut(t: NameToken): boolean {
  return t.common || TITLES.has(t.norm) || HONORIFICS.has(t.norm) || TITLE_NAMES.has(t.norm);
}
const TITLE_NAMES = new Set(['hafiz', 'hafez', 'molavi', 'molvi', 'sahib', 'saheb', 'syed', 'sayyed', 'seyyed', 'mirza', 'saw', 'haj', 'major', 'king', 'prince']);

/** Most a missing name part costs, when the parts that matched are as common as names in the lists get. */
export const MISSING_PART_PENALTY = 0.025;

/** Mean rarity (name-index.ts: 1 rare … 0.25 common) of the matched name words of the fully matched side. */
function matchedRarity(qt: NameToken[], qUsed: Used, ct: NameToken[], cUsed: Used, rarity: RarityFn): number {
  const toks = unmatchedNameOrInitial(qt, qUsed) ? ct : qt;
  const used = toks === qt ? qUsed : cUsed;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < toks.length; i++) {
    if (!used[i] || toks[i].kind !== 'name' || toks[i].initial) continue;
    sum += toks[i].common ? Math.min(0.4, rarity(toks[i].fold)) : rarity(toks[i].fold);
    n++;
  }
  return n ? sum / n : 1;
}

/** An unmatched name word that is neither an initial nor a patronymic (those cost through the coverage alone). */
function missingMiddle(toks: NameToken[], used: Used): boolean {
  for (let i = 0; i < toks.length; i++) if (!used[i] && toks[i].kind === 'name' && !toks[i].initial && !toks[i].patronymic) return true;
  return false;
}

/** Some aligned pair is an initial against a name. */
function byInitial(pairs: Pair[]): boolean {
  for (const p of pairs) if (p.how === 'initial') return true;
  return false;
}

/** A surname word of side b (its tokens before bComma) is aligned with token `at` of side a. */
function surnameMatchedTo(pairs: Pair[], bComma: number, at: number, aIsQuery: boolean): boolean {
  for (const p of pairs) {
    const a0 = aIsQuery ? p.q0 : p.c0;
    const an = aIsQuery ? p.qn : p.cn;
    const b0 = aIsQuery ? p.c0 : p.q0;
    if (b0 < bComma && at >= a0 && at < a0 + an) return true;
  }
  return false;
}

/** Natural reading order of a side's tokens ("SURNAME, Given" read as "Given SURNAME"): rank by token index. */
function naturalRank(p: PreparedName, toks: NameToken[]): Int32Array {
  const rank = new Int32Array(toks.length);
  const commaAt = p.tokens.length === toks.length ? p.commaAt : undefined;
  for (let i = 0; i < toks.length; i++) rank[i] = commaAt === undefined ? i : i >= commaAt ? i - commaAt : i + toks.length;
  return rank;
}

/**
 * "X bin Y" on one side (X son of Y) and the words matched to X and Y in the other order on the other
 * side: another person (the father and the son), whatever else the names share.
 */
function swappedChain(q: PreparedName, qt: NameToken[], c: PreparedName, ct: NameToken[], pairs: Pair[]): string | undefined {
  if (!hasChain(qt) && !hasChain(ct) && !(hasFamilyArticle(qt) && c.commaAt !== undefined) && !(hasFamilyArticle(ct) && q.commaAt !== undefined)) return undefined;
  const qRank = naturalRank(q, qt);
  const cRank = naturalRank(c, ct);
  // the other side's token matched to each token (-1: none)
  const qToC = new Int32Array(qt.length).fill(-1);
  const cToQ = new Int32Array(ct.length).fill(-1);
  for (const p of pairs) {
    for (let i = p.q0; i < p.q0 + p.qn; i++) qToC[i] = p.c0;
    for (let j = p.c0; j < p.c0 + p.cn; j++) cToQ[j] = p.q0;
  }
  const check = (toks: NameToken[], rank: Int32Array, toOther: Int32Array, otherToks: NameToken[], otherRank: Int32Array, otherComma: boolean): string | undefined => {
    const order = [...toks.keys()].sort((x, y) => rank[x] - rank[y]);
    for (let k = 1; k + 1 < order.length; k++) {
      const bin = toks[order[k]];
      // ("BIN ALI, Khodr": a family name starting with Bin, not a link of the chain)
      if (bin.kind !== 'particle' || order[k] === 0) continue;
      // "X al-Y": X of the family al-Y. Against a "SURNAME, Given" name (which says which word is the
      // given name) that gives Y as the given name and X as the surname, it is another person too
      // (أحمد الحسن, Ahmad al-Hasan, is not AHMAD, Hasan, that is Hasan Ahmad).
      const family = bin.fold === 'al' && otherComma;
      if (bin.fold !== 'bin' && !family) continue;
      // (a word a name repeats, HASSAN, Hassan el-Hajj, says nothing about which of its places is which)
      if (family && (repeats(toks, order[k - 1]) || repeats(toks, order[k + 1]))) continue;
      const son = order[k - 1];
      const father = order[k + 1];
      if (toks[son].kind !== 'name' || toks[father].kind !== 'name') continue;
      const s2 = toOther[son];
      const f2 = toOther[father];
      // (the father's word right before the son's, a particle between at most: a reordered list name
      // that moves one word to the end is not a swapped chain)
      if (s2 >= 0 && f2 >= 0 && s2 !== f2 && otherRank[s2] > otherRank[f2] && onlyParticlesBetween(otherToks, otherRank, f2, s2)) {
        return family
          ? `"${toks[son].display} ${bin.display}-${toks[father].display}" is ${toks[son].display} of the family ${bin.display}-${toks[father].display}; the other name gives ${toks[father].display} as the given name and ${toks[son].display} as the surname: another person`
          : `"${toks[son].display} ${bin.display} ${toks[father].display}" names ${toks[son].display} as the son of ${toks[father].display}; the other name has them the other way round: another person`;
      }
    }
    return undefined;
  };
  return check(qt, qRank, qToC, ct, cRank, c.commaAt !== undefined) ?? check(ct, cRank, cToQ, qt, qRank, q.commaAt !== undefined);
}

function repeats(toks: NameToken[], at: number): boolean {
  for (let i = 0; i < toks.length; i++) if (i !== at && toks[i].fold === toks[at].fold) return true;
  return false;
}

function hasFamilyArticle(toks: NameToken[]): boolean {
  for (const t of toks) if (t.kind === 'particle' && t.fold === 'al') return true;
  return false;
}

/** In reading order, token `to` follows token `from` with nothing but particles between. */
function onlyParticlesBetween(toks: NameToken[], rank: Int32Array, from: number, to: number): boolean {
  for (let i = 0; i < toks.length; i++) {
    if (rank[i] > rank[from] && rank[i] < rank[to] && toks[i].kind !== 'particle') return false;
  }
  return true;
}

function hasChain(toks: NameToken[]): boolean {
  for (const t of toks) if (t.kind === 'particle' && t.fold === 'bin') return true;
  return false;
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
  if (!q.alternatives?.length && !c.alternatives?.length) return capReading(q, c, compareOne(q, c, rarity, withAlignment, memo), true, PARTIAL_NAME_CAP);
  let best: NameComparison | undefined;
  let bestQ = q;
  let bestC = c;
  for (const qa of [q, ...(q.alternatives ?? [])]) {
    for (const ca of [c, ...(c.alternatives ?? [])]) {
      const r = capHanjaReading(qa, qa !== q, ca, capReading(qa, ca, compareOne(qa, ca, rarity, withAlignment, memo), qa === q, PARTIAL_NAME_CAP));
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

/**
 * A query in Han characters read in Korean (Hanja, prepare.ts withReadings) is a guess that the
 * person is Korean: it may find a Korean person's whole name, never an organisation or a vessel
 * (林静 read rim jong is not the vessel CHONG RIM 2, 罗娜 ra na not RANA INSTITUTE, 中村 剛 not
 * CHONG CHON GANG), and never a name with a syllable or name part left over on either side (刘思 read
 * ryu sa is not Yu Long): each such match is capped at PARTIAL_NAME_CAP, below the threshold.
 */
function capHanjaReading(p: PreparedName, isAlternative: boolean, c: PreparedName, r: NameComparison): NameComparison {
  if (!isAlternative || !p.reading || isForeignReading(p) || r.score <= PARTIAL_NAME_CAP) return r;
  const why = c.org || c.vessel ? 'the listed name is not a person\'s' : !r.whole ? 'a syllable or name part of either side is left unmatched' : undefined;
  if (!why) return r;
  r.score = PARTIAL_NAME_CAP;
  r.notes.push(`read in Korean (Hanja), ${why}: not a match`);
  return r;
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
    return { score: 0, alignment: [], notes: ['empty name'], exact: false, whole: false };
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

  // Every name part of both names is accounted for (issue 27 §1): a person's given name or surname
  // left unmatched on either side means another person, whatever the other parts share.
  const whole = !unmatchedNameOrInitial(qt, qUsed) && !unmatchedNameOrInitial(ct, cUsed);
  let anotherPerson = false;
  if (!oneWordDone && anyName && !q.org && !q.vessel && score > PARTIAL_NAME_CAP) {
    const why = !(c.org || c.vessel) ? unaccounted(q, qt, qUsed, c, ct, cUsed, pairs) : readsAsPerson(qt) ? unaccountedEntity(qt, qUsed, ct, cUsed, pairs) : undefined;
    if (why) {
      score = PARTIAL_NAME_CAP;
      anotherPerson = true;
      notes.push(why);
    } else if (!whole && !c.org && !c.vessel && (missingMiddle(qt, qUsed) || missingMiddle(ct, cUsed))) {
      // A middle name missing on one side: a small penalty on top of the coverage's, larger when what
      // matched is common (Mohammad Hosseini is many people; Ishaqzai is few). A missing patronymic or
      // an initial for a name costs through the coverage alone.
      const d = matchedRarity(qt, qUsed, ct, cUsed, rarity);
      const penalty = MISSING_PART_PENALTY * (1 - d);
      if (penalty >= 0.005) {
        score -= penalty;
        notes.push(`${[leftDisplays(qt, qUsed), leftDisplays(ct, cUsed)].filter(Boolean).join(', ')} missing on one side: −${round(penalty)} (the matched parts are ${d >= 0.7 ? 'rare' : 'common'} in the lists)`);
      }
    }
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
    !anotherPerson &&
    qn === cn &&
    allUsedOrHonorific(qt, qUsed) &&
    allUsedOrHonorific(ct, cUsed) &&
    pairs.every(identicalPair);
  if (exact) score = 1;
  score = round(Math.max(0, Math.min(1, score)));
  if (!withAlignment) return { score, alignment: NO_ALIGNMENT, notes, exact, whole, maxScore };

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
  return { score, alignment, notes, exact, whole, maxScore };
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
      whole: false,
      maxScore: SKIP_ACRONYM_SCORE,
    };
  }
  return {
    score: round(ACRONYM_SCORE / NAME_TO_FINAL),
    alignment,
    notes: [...q.notes, ...c.notes, `"${short.display.toUpperCase()}" is the acronym of "${spelled}": a potential match, not a confirmed one`],
    exact: false,
    whole: false,
    maxScore: ONE_WORD_BAND.cap,
  };
}

export function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
