/**
 * A foreign name written in the Arabic script (Persian, Urdu, Arabic) or in Hebrew, read back (issue 32).
 *
 * Both scripts write consonants and long vowels and leave the short vowels out (مدودف m-d-w-d-f is
 * Medvedev, דמיטרי d-m-y-t-r-y Dmitri). So between two letters any one short vowel may be unwritten, and
 * the letters that also write vowels may be either (Persian و v/u/o, ی y/i/e, ا a; Hebrew ו v/u/o, י y/i/e,
 * א ה ע a/e or silent: the matres lectionis). Where the script has no letter for a sound it writes the
 * nearest (Arabic ب for p, ف for v, ج for g; Hebrew ב for v, ג׳ for j, צ׳ for ch).
 *
 * Sources: the Persian, Urdu and Arabic alphabets with the values the UN romanisation systems
 * (UNGEGN, BGN/PCGN 1956 Persian, 1958 Hebrew, Arabic 1972) give each letter, read in the other direction;
 * the pairs ت + ش (tsh) and ت + س (ts) for ch and ts as Arabic writes them in foreign names.
 */
import { ANY_SHORT_VOWEL, type Segment } from './pattern';

const ARABIC: Record<string, Segment> = {
  ا: ['a', 'e', 'o', 'i'], أ: ['a', 'o', 'u'], إ: ['i', 'e'], آ: ['a'], ٱ: ['a', ''],
  ب: ['b', 'p', 'v'], پ: ['p'], ت: ['t'], ط: ['t'], ث: ['s', 't'], ج: ['j', 'Z', 'g'], چ: ['C'], ح: ['h'], خ: ['h', 'k'],
  د: ['d'], ذ: ['z', 'd'], ر: ['r'], ز: ['z'], ژ: ['Z', 'j'], س: ['s'], ص: ['s'], ش: ['S', 'C'], ض: ['z', 'd'], ظ: ['z'],
  ع: ['', 'a', 'e', 'i', 'o', 'u'], غ: ['g', 'h'], ف: ['f', 'v'], ڤ: ['v'], ق: ['k', 'g'], ک: ['k'], ك: ['k'], گ: ['g'], ل: ['l'],
  م: ['m'], ن: ['n'], و: ['v', 'u', 'o', 'w'], ؤ: ['u', 'o', ''], ه: ['h', 'e', 'a', ''], ة: ['a', 'e', 't', ''],
  ی: ['i', 'e'], ي: ['i', 'e'], ى: ['a', 'i', ''], ئ: ['', 'i', 'e'], ء: [''], ے: ['e', 'ai', 'i'], ۓ: ['e'],
  // Urdu
  ٹ: ['t'], ڈ: ['d'], ڑ: ['r'], ں: ['n', ''], ھ: ['h', ''], ۃ: ['a', 'h'], ۂ: ['a', 'e'],
};
const ARABIC_PAIRS: Record<string, Segment> = { تش: ['C'], تس: ['T'], دج: ['j'], دز: ['dz', 'z'], کس: ['ks'], كس: ['ks'] };
// letters that write a vowel only (alef, ayin, hamza): no short vowel is assumed beside them (و and ی
// may be the consonants v and y, followed by an unwritten vowel: مدودف m-e-d-v-e-d-e-f)
const ARABIC_VOWEL_LETTERS = new Set(['ا', 'أ', 'إ', 'آ', 'ٱ', 'ع', 'ئ', 'ء', 'ى', 'ة']);

const HEBREW: Record<string, Segment> = {
  א: ['', 'a', 'e', 'o', 'i'], ב: ['b', 'v'], ג: ['g'], ד: ['d'], ה: ['h', 'a', 'e', ''], ו: ['v', 'u', 'o', 'w'], ז: ['z'],
  ח: ['h', 'k'], ט: ['t'], י: ['i', 'e'], כ: ['k', 'h'], ך: ['k', 'h'], ל: ['l'], מ: ['m'], ם: ['m'], נ: ['n'], ן: ['n'],
  ס: ['s'], ע: ['', 'a', 'e', 'o'], פ: ['p', 'f'], ף: ['f', 'p'], צ: ['T', 'z', 's'], ץ: ['T', 'z', 's'], ק: ['k'], ר: ['r'],
  ש: ['S', 's'], ת: ['t', 's'],
};
// (ו and י write a vowel or a consonant, never nothing: a transcription writes them for a sound, so מורן is
// Moran, not Maren; the doubled pair below is one sound)
// a letter with geresh (ג׳ j, ז׳ zh, צ׳ ch, ת׳ th) and the doubled vav / yod
const HEBREW_MARKED: Record<string, Segment> = { 'ג׳': ['j'], 'ז׳': ['Z'], 'צ׳': ['C'], 'ץ׳': ['C'], 'ת׳': ['t'], וו: ['v', 'w'], יי: ['i', 'ei', 'ai'] };
const HEBREW_VOWEL_LETTERS = new Set(['א', 'ע']);

export const RE_ARABIC_WORD = /^[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]+$/u;
export const RE_HEBREW_WORD = /^[\u0590-\u05FF\uFB1D-\uFB4F'׳]+$/u;

/**
 * Letters as segments with an optional short vowel between two letters that are not vowel letters
 * (and none before the first or after the last letter: a Latin spelling writes those vowels as
 * letters the script writes too).
 */
function withShortVowels(units: { seg: Segment; vowelLetter: boolean }[]): Segment[] {
  const out: Segment[] = [];
  units.forEach((u, i) => {
    if (i > 0 && !u.vowelLetter && !units[i - 1].vowelLetter) out.push(ANY_SHORT_VOWEL);
    out.push(u.seg);
  });
  return out;
}

/** A Persian, Urdu or Arabic word as segments, or undefined. */
export function arabicPattern(word: string): Segment[] | undefined {
  const w = word.replace(/[\u064B-\u065F\u0670\u0640\u200C\u200D]/g, ''); // vowel points, tatweel, joiners
  if (!w) return undefined;
  const units: { seg: Segment; vowelLetter: boolean }[] = [];
  const chars = [...w];
  for (let i = 0; i < chars.length; i++) {
    const pair = ARABIC_PAIRS[chars[i] + (chars[i + 1] ?? '')];
    if (pair) {
      units.push({ seg: pair, vowelLetter: false });
      i++;
      continue;
    }
    let seg = ARABIC[chars[i]];
    if (!seg) return undefined;
    // a word-initial ا before و or ی only carries the vowel they write (ایگور Igor, اولگا Olga)
    if (i === 0 && chars[i] === 'ا' && /[وی]/.test(chars[1] ?? '')) {
      units.push({ seg: [''], vowelLetter: true });
      continue;
    }
    // a word-initial و or ی is a consonant v/y or a vowel; ا before و/ی carries it (او u, ای i)
    if (i === 0 && (chars[i] === 'و' || chars[i] === 'ی' || chars[i] === 'ي')) seg = seg.filter(Boolean);
    units.push({ seg, vowelLetter: ARABIC_VOWEL_LETTERS.has(chars[i]) });
  }
  return withShortVowels(units);
}

/** A Hebrew word as segments, or undefined. */
export function hebrewPattern(word: string): Segment[] | undefined {
  const w = word.normalize('NFD').replace(/[\u0591-\u05C7]/g, '').replace(/'/g, '׳').replace(/״/g, '');
  if (!w) return undefined;
  const units: { seg: Segment; vowelLetter: boolean }[] = [];
  const chars = [...w];
  for (let i = 0; i < chars.length; i++) {
    const two = chars[i] + (chars[i + 1] ?? '');
    const marked = HEBREW_MARKED[two];
    if (marked && !(two === 'יי' && i === 0)) {
      units.push({ seg: marked, vowelLetter: HEBREW_VOWEL_LETTERS.has(two) });
      i++;
      continue;
    }
    if (chars[i] === '׳') continue;
    let seg = HEBREW[chars[i]];
    if (!seg) return undefined;
    // a word-initial א carries the word's first vowel; a final ה writes a or e
    if (i === 0 && chars[i] === 'א') seg = /[וי]/.test(chars[1] ?? '') ? [''] : ['a', 'e', 'i', 'o', 'u'];
    else if (i === chars.length - 1 && chars[i] === 'ה') seg = ['a', 'e', 'h', ''];
    units.push({ seg, vowelLetter: HEBREW_VOWEL_LETTERS.has(chars[i]) });
  }
  return withShortVowels(units);
}

/**
 * A word that is an Arabic or Persian name, not the transcription of a foreign one: it has a letter only
 * Arabic words have (ع ح ص ض ظ ث ذ ة), which a Persian or Arabic writer does not use for a Russian or
 * Western name (they write ط غ ق and the hamza seats in foreign names too: أنطون, غورباتشوف, سرگئی).
 * Such names are matched by the script's own reading (text.ts).
 */
export const RE_NATIVE_ARABIC_LETTERS = /[عحصضظثذة]/u;

/** Patronymic endings (Persian/Arabic ویچ, ونا; Hebrew ביץ׳, בנה). */
export const ARABIC_PATRONYMIC = /(ویچ|فيتش|ويتش|ونا|وونا|فنا)$/u;
export const HEBREW_PATRONYMIC = /(ביץ׳|ביץ'|ביטש|בנה|ובנה)$/u;
