/**
 * Script-aware transliteration and token-level keys.
 *
 * Every name, in whatever script, becomes a list of ASCII tokens. Each token carries three forms:
 *  - norm: lowercase ASCII as transliterated (what an analyst would read),
 *  - fold: a transliteration-variant fold (kh/h, ks/x, iy/y, ei/ey, ou/u, w/v, doubled letters…),
 *    so that "Yevgeniy", "Evgeny" and "Evgenii" become one key,
 *  - skel: a consonant skeleton, the only form an abjad (Arabic, Hebrew) spelling without vowels
 *    can be compared on ("حسين" → hsn = "Hussein").
 */
import anyAscii from 'any-ascii';
import { burmeseSyllables, RE_MYANMAR } from './burmese';

/** Where a token came from; abjad tokens have no written vowels, CJK/Hangul tokens are syllables. */
export type TokenOrigin =
  | 'latin' | 'cyrillic' | 'greek' | 'abjad' | 'arabic_name' | 'han' | 'hangul' | 'kana' | 'burmese' | 'armenian' | 'other'
  // issue 32: a query word read as the transcription of a foreign name (matching/foreign/readings.ts)
  | 'transcribed';

export interface RawToken {
  norm: string;
  origin: TokenOrigin;
  /** The Hebrew word (points stripped) a token came from: compared letter by letter (hebrewMatchesLatin). */
  hebrew?: string;
  /**
   * The word as its own script writes it, where the romanisation loses what tells two names apart:
   * a Hangul syllable block (정 and 종 are both "jong" in the lists' spelling).
   */
  native?: string;
}

/**
 * Common Arabic given names written in Arabic script, with the vowels the script leaves out: "محمد" is
 * Muhammad, never Mahmud (محمود), which the consonant skeleton alone cannot tell apart.
 */
const ARABIC_NAMES: Record<string, string> = {
  محمد: 'muhammad', احمد: 'ahmad', علي: 'ali', على: 'ali', حسين: 'husayn', حسن: 'hasan', محمود: 'mahmud', عمر: 'umar',
  يوسف: 'yusuf', ابراهيم: 'ibrahim', خالد: 'khalid', مصطفى: 'mustafa', سعيد: 'said', فاطمة: 'fatima', فاطمه: 'fatima',
  عائشة: 'aisha', مريم: 'maryam', زينب: 'zaynab', عثمان: 'uthman', جمال: 'jamal', كمال: 'kamal', ناصر: 'nasir',
  طارق: 'tariq', حمزة: 'hamza', اسماعيل: 'ismail', سلمان: 'salman', سليمان: 'sulayman', صالح: 'salih', حامد: 'hamid',
  حميد: 'hamid', سعد: 'saad', فيصل: 'faisal', عباس: 'abbas', جعفر: 'jafar', موسى: 'musa', عيسى: 'isa', يحيى: 'yahya',
  زكريا: 'zakariya', رشيد: 'rashid', راشد: 'rashid', منصور: 'mansur', نور: 'nur', امين: 'amin', كريم: 'karim',
};
const normalizeArabic = (w: string) => w.replace(/[\u064B-\u0652\u0670]/g, '').replace(/[أإآٱ]/g, 'ا');

let namesByLetters: Map<string, string> | undefined;
/**
 * The common Arabic given name an unvowelled word writes, by its letters as the matcher transliterates
 * them ("mhmd" → muhammad, "mhmwd" → mahmud), or undefined. The written و of Mahmud is what tells it
 * from Muhammad.
 */
export function arabicNameOfLetters(abjadNorm: string): string | undefined {
  if (!namesByLetters) {
    namesByLetters = new Map();
    for (const [written, reading] of Object.entries(ARABIC_NAMES)) {
      const letters = anyAscii(written).toLowerCase().replace(/[^a-z]/g, '');
      if (!namesByLetters.has(letters)) namesByLetters.set(letters, reading);
    }
  }
  return namesByLetters.get(abjadNorm);
}

const RE_ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const RE_HEBREW = /[\u0590-\u05FF\uFB1D-\uFB4F]/;
const RE_CYRILLIC = /[\u0400-\u052F]/;
const RE_GREEK = /[\u0370-\u03FF\u1F00-\u1FFF]/;
const RE_HAN = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/;
const RE_HANGUL = /[\uAC00-\uD7AF\u1100-\u11FF\u3130-\u318F]/;
const RE_KANA = /[\u3040-\u30FF\u31F0-\u31FF]/;
const RE_ARMENIAN = /[\u0530-\u058F\uFB13-\uFB17]/;
const RE_UKRAINIAN = /[іїєґІЇЄҐ]/;

/** ISO 15924 code of the dominant non-Latin script of a string, or Latn. */
export function detectScript(s: string): string {
  if (RE_ARABIC.test(s)) return 'Arab';
  if (RE_HEBREW.test(s)) return 'Hebr';
  if (RE_CYRILLIC.test(s)) return 'Cyrl';
  if (RE_GREEK.test(s)) return 'Grek';
  if (RE_HANGUL.test(s)) return 'Hang';
  if (RE_KANA.test(s)) return 'Kana';
  if (RE_MYANMAR.test(s)) return 'Mymr';
  if (RE_HAN.test(s)) return 'Hani';
  return 'Latn';
}

// Russian BGN/PCGN-like table; Ukrainian differences applied when the word is Ukrainian.
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l',
  м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch',
  ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya', і: 'i', ї: 'yi', є: 'ye', ґ: 'g',
  ў: 'u', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', ђ: 'dj', џ: 'dz', ѓ: 'gj', ќ: 'kj', ѕ: 'dz', ә: 'a', ө: 'o',
  ү: 'u', ұ: 'u', қ: 'k', ғ: 'g', ң: 'n', һ: 'h', '\u02bc': '', "'": '', '\u2019': '',
};
const UKRAINIAN_OVERRIDES: Record<string, string> = { г: 'h', и: 'y' };

// Hebrew consonants (any-ascii reads vav as "v" and bet as "v", which breaks skeleton matching).
const HEBREW: Record<string, string> = {
  א: '', ב: 'b', ג: 'g', ד: 'd', ה: 'h', ו: 'w', ז: 'z', ח: 'h', ט: 't', י: 'y', כ: 'k', ך: 'k', ל: 'l',
  מ: 'm', ם: 'm', נ: 'n', ן: 'n', ס: 's', ע: '', פ: 'p', ף: 'f', צ: 'ts', ץ: 'ts', ק: 'k', ר: 'r', ש: 'sh',
  ת: 't', '\u05f3': '', '\u05f4': '',
};

function transliterateCyrillic(word: string): string {
  const lower = word.toLowerCase();
  const ukr = RE_UKRAINIAN.test(lower);
  let out = '';
  for (const ch of lower) {
    const u = ukr ? UKRAINIAN_OVERRIDES[ch] : undefined;
    const m = u ?? CYRILLIC[ch];
    out += m !== undefined ? m : anyAscii(ch);
  }
  return out;
}

function transliterateHebrew(word: string): string {
  let out = '';
  for (const ch of word.normalize('NFD')) {
    if (/[\u0591-\u05C7]/.test(ch)) continue; // points and cantillation
    const m = HEBREW[ch];
    out += m !== undefined ? m : anyAscii(ch);
  }
  return out;
}

/** Hangul syllable (any-ascii gives Revised Romanization) → the McCune-Reischauer-like spelling the lists use. */
function foldKoreanSyllable(rr: string): string {
  let s = rr.toLowerCase();
  if (s === 'i' || s === 'li' || s === 'ri') return 'ri'; // 이/리: Lee, Yi, Ri
  s = s.replace(/^g/, 'k').replace(/^b/, 'p').replace(/^d/, 't').replace(/^l/, 'r');
  s = s.replace(/eo/g, 'o').replace(/eu/g, 'u').replace(/g$/, s.endsWith('ng') ? 'g' : 'k');
  if (s === 'pag' || s === 'pak') return 'pak';
  return s;
}

const SPLIT = /[\s,;:()[\]{}"“”„‟«»‹›!?/\\|+*=<>_~^・·•.&@#%$]+/u;

/**
 * Transliterate a name to lowercase ASCII tokens, word by word, keeping the origin script of each.
 * Hyphens and apostrophes inside Latin words: hyphen splits, apostrophe joins ("O'Brien" → obrien).
 */
export function transliterateTokens(raw: string): RawToken[] {
  const out: RawToken[] = [];
  const push = (text: string, origin: TokenOrigin) => {
    for (const part of text.toLowerCase().replace(/['`\u2019\u02bc\u02bb]/g, '').split(/[^a-z0-9]+/)) {
      if (part) out.push({ norm: part, origin });
    }
  };
  for (const word of raw.normalize('NFC').split(SPLIT)) {
    if (!word) continue;
    if (RE_ARABIC.test(word)) {
      // The article ال is written attached; split it off so it becomes the particle "al".
      // tatweel out; emphatic zaa is "z" in Latin spellings (Zawahiri), any-ascii reads it "dh"
      const w = word.replace(/\u0640/g, '').replace(/ظ/g, 'ز').replace(/^ال(?=\S{2,})/, 'ال ');
      for (const piece of w.split(/\s+/)) {
        const known = ARABIC_NAMES[normalizeArabic(piece)];
        if (piece === 'ال') out.push({ norm: 'al', origin: 'abjad' });
        else if (known) out.push({ norm: known, origin: 'arabic_name' });
        else push(anyAscii(piece), 'abjad');
      }
    } else if (RE_HEBREW.test(word)) {
      const start = out.length;
      push(transliterateHebrew(word), 'abjad');
      const letters = word.normalize('NFD').replace(/[^\u05D0-\u05EA]/g, '');
      if (out.length === start + 1 && letters) out[start].hebrew = letters;
    } else if (RE_CYRILLIC.test(word)) {
      // issue 32: a one-letter word is an initial: Ю., Ж., Ш. keep one Latin letter (y, z, s), not yu, zh, sh
      const latin = transliterateCyrillic(word);
      push([...word].length === 1 && latin.length > 1 ? latin[0] : latin, 'cyrillic');
    } else if (RE_HANGUL.test(word) || RE_HAN.test(word)) {
      // A Chinese name in Han characters: surname, then the given name's syllables joined, as pinyin
      // writes it (习近平 → Xi Jinping, 李克强 → Li Keqiang).
      if (/^[\u3400-\u4DBF\u4E00-\u9FFF]{3,4}$/.test(word)) {
        const syl = [...word].map((ch) => anyAscii(ch).toLowerCase());
        out.push({ norm: syl[0], origin: 'han' }, { norm: syl.slice(1).join(''), origin: 'han' });
        continue;
      }
      // One token per syllable; the aligner re-joins adjacent syllables ("Jin Ping" = "Jinping").
      let latinRun = '';
      for (const ch of word) {
        if (RE_HANGUL.test(ch)) {
          if (latinRun) push(anyAscii(latinRun), 'latin');
          latinRun = '';
          out.push({ norm: foldKoreanSyllable(anyAscii(ch)), origin: 'hangul', native: ch });
        } else if (RE_HAN.test(ch)) {
          if (latinRun) push(anyAscii(latinRun), 'latin');
          latinRun = '';
          push(anyAscii(ch), 'han');
        } else latinRun += ch;
      }
      if (latinRun) push(anyAscii(latinRun), RE_KANA.test(latinRun) ? 'kana' : 'latin');
    } else if (RE_GREEK.test(word)) {
      push(anyAscii(word), 'greek');
    } else if (RE_ARMENIAN.test(word)) {
      // Eastern Armenian reading; the Western one is added as a rendering (armenian.ts)
      push(anyAscii(word), 'armenian');
    } else if (RE_MYANMAR.test(word)) {
      // one token per syllable, as Latin spellings write Burmese names (burmese.ts)
      for (const syl of burmeseSyllables(word)) push(syl, 'burmese');
    } else if (RE_KANA.test(word)) {
      push(kanaToHepburn(word), 'kana');
    } else {
      push(anyAscii(word), 'latin');
    }
  }
  return out;
}

const FOLD_RULES: [RegExp, string][] = [
  [/^ye/, 'e'],
  [/^yu/, 'iu'],
  [/^ya/, 'ia'],
  [/dzh|dj/g, 'j'],
  [/zh/g, 'j'],
  [/shch|sch/g, 'sh'],
  [/tch/g, 'ch'],
  [/kh/g, 'h'],
  [/ph/g, 'f'],
  [/ck/g, 'k'],
  [/q/g, 'k'],
  [/c(?!h)/g, 'k'],
  [/x/g, 'ks'],
  [/w/g, 'v'],
  [/ou|oo/g, 'u'],
  [/ee/g, 'i'],
  [/ue/g, 'u'],
  [/oe/g, 'o'],
  [/ae/g, 'a'],
  [/y/g, 'i'],
  [/ij$/, 'i'],
  [/(.)\1+/g, '$1'],
  [/ie$/, 'i'],
];

/** Fold transliteration variants: Evgeniy/Yevgeny/Evgenii → evgeni, Khabib/Habib → habib, Aleksei/Alexey → aleksei. */
const foldCache = new Map<string, string>();
export function foldToken(norm: string): string {
  let s = foldCache.get(norm);
  if (s !== undefined) return s;
  s = norm;
  if (!/^\d+$/.test(norm)) for (const [re, rep] of FOLD_RULES) s = s.replace(re, rep);
  if (foldCache.size > 300_000) foldCache.clear();
  foldCache.set(norm, s);
  return s;
}

/**
 * Consonant skeleton: what an unvowelled Arabic or Hebrew spelling shares with any Latin spelling.
 * Mohammed/Muhammad/محمد → mhmd, Hussein/Husayn/حسين → hsn, Ibrahim/إبراهيم → brhm.
 */
export function skeleton(norm: string): string {
  if (/^\d+$/.test(norm)) return norm;
  let s = norm
    .replace(/kh/g, 'k')
    .replace(/gh/g, 'g')
    .replace(/sh|ch/g, 's')
    .replace(/th/g, 't')
    .replace(/dh/g, 'd')
    .replace(/ph/g, 'f')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/[qckg]/g, 'k')
    .replace(/p/g, 'b')
    .replace(/v/g, 'f')
    .replace(/x/g, 'ks')
    .replace(/[aeiouyw'`]/g, '');
  s = s.replace(/ts/g, 's').replace(/(.)\1+/g, '$1');
  if (s.length > 2) s = s.replace(/h$/, '');
  return s;
}

// ---------- kana → Hepburn (without macrons: long vowels written once, as the lists and passports do)
const KANA: Record<string, string> = {};
((rows: string) => {
  for (const pair of rows.split(' ')) {
    const [k, r] = pair.split(':');
    KANA[k] = r;
  }
})(
  'あ:a い:i う:u え:e お:o か:ka き:ki く:ku け:ke こ:ko さ:sa し:shi す:su せ:se そ:so た:ta ち:chi つ:tsu て:te と:to ' +
    'な:na に:ni ぬ:nu ね:ne の:no は:ha ひ:hi ふ:fu へ:he ほ:ho ま:ma み:mi む:mu め:me も:mo や:ya ゆ:yu よ:yo ら:ra り:ri ' +
    'る:ru れ:re ろ:ro わ:wa ゐ:i ゑ:e を:o ん:n が:ga ぎ:gi ぐ:gu げ:ge ご:go ざ:za じ:ji ず:zu ぜ:ze ぞ:zo だ:da ぢ:ji づ:zu ' +
    'で:de ど:do ば:ba び:bi ぶ:bu べ:be ぼ:bo ぱ:pa ぴ:pi ぷ:pu ぺ:pe ぽ:po ぁ:a ぃ:i ぅ:u ぇ:e ぉ:o ゔ:vu',
);
const SMALL_Y: Record<string, string> = { ゃ: 'a', ゅ: 'u', ょ: 'o' };
const SMALL_V: Record<string, string> = { ぁ: 'a', ぃ: 'i', ぅ: 'u', ぇ: 'e', ぉ: 'o' };

/** Hiragana or katakana → Hepburn: yoon (きょ kyo, しゃ sha), sokuon (っ doubles), long vowels once (とうきょう tokyo). */
export function kanaToHepburn(word: string): string {
  const chars = [...word].map((ch) => {
    const c = ch.codePointAt(0)!;
    return c >= 0x30a1 && c <= 0x30f6 ? String.fromCodePoint(c - 0x60) : ch; // katakana → hiragana
  });
  let out = '';
  let double = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === 'っ') {
      double = true;
      continue;
    }
    if (ch === 'ー') continue;
    let r = KANA[ch];
    if (r === undefined) {
      out += anyAscii(ch);
      continue;
    }
    const next = chars[i + 1];
    if (next && SMALL_Y[next] && r.endsWith('i') && r.length >= 2) {
      const stem = r.slice(0, -1);
      r = (/(sh|ch|j)$/.test(stem) ? stem : `${stem}y`) + SMALL_Y[next];
      i++;
    } else if (next && SMALL_V[next] && r.length >= 1 && !SMALL_V[ch]) {
      r = (r === 'u' ? 'w' : r.slice(0, -1)) + SMALL_V[next];
      i++;
    }
    if (double) r = (r.startsWith('ch') ? 't' : r[0]) + r;
    double = false;
    out += r;
  }
  return out.replace(/ou|oo/g, 'o').replace(/uu/g, 'u');
}

// ---------- Hebrew letters against a Latin spelling
// What each letter may be written as in Latin (begadkefat pairs b/v, k/kh, p/f; tsadi ts/tz/z; shin sh/s).
const HEBREW_LATIN: Record<string, string[]> = {
  א: [''], ב: ['b', 'v', 'w'], ג: ['g', 'j'], ד: ['d'], ה: ['h', ''], ו: ['v', 'w', 'o', 'u', ''], ז: ['z', 's', 'zh'],
  ח: ['ch', 'kh', 'h', 'x'], ט: ['t', 'th'], י: ['y', 'i', 'e', 'j', ''], כ: ['kh', 'ch', 'k', 'c', 'q', 'h'], ך: ['kh', 'ch', 'k', 'h'],
  ל: ['l'], מ: ['m'], ם: ['m'], נ: ['n'], ן: ['n'], ס: ['s', 'c'], ע: [''], פ: ['p', 'f', 'ph'], ף: ['f', 'ph', 'p'],
  צ: ['tz', 'ts', 'z', 's', 'c'], ץ: ['tz', 'ts', 'z', 's'], ק: ['k', 'q', 'c', 'ck'], ר: ['r'], ש: ['sh', 's', 'sch'],
  ת: ['t', 'th', 's'],
};
const LATIN_VOWEL = /[aeiouy]/;

/**
 * What a Hebrew letter may be written as at position `i` of a word of `length` letters. Where a letter
 * stands changes what it can be: a word never starts with an unwritten vowel, so an initial א or ע
 * carries one (Omer, Ilan: never "Mar" or "Lina") and an initial י is a consonant or a vowel, never
 * silent (Yotam is not Tom); a ה inside a word is the consonant h (Dahan, Cohen: not Don or Kuni),
 * silent only at the end, where it writes a final vowel (Dalia).
 */
function hebrewReadings(letter: string, i: number, length: number): readonly string[] {
  const all = HEBREW_LATIN[letter] ?? [];
  if (i === 0 && letter === 'י') return all.filter((r) => r !== '');
  if (letter === 'ה' && i > 0 && i < length - 1) return ['h'];
  return all;
}

/**
 * Does an unvowelled Hebrew word read as this Latin spelling? Latin vowels may stand where Hebrew writes
 * none, vowel letters (א ה ו י ע) may be silent where a Hebrew word lets them be (hebrewReadings), a Latin
 * doubled consonant counts once, and the article ה may be written "ha" on either side. "שלום" = shalom,
 * "כהן" = cohen/kohen, "צפרירים" = tsfririm/zafririm. The Latin spelling cannot start with a vowel the
 * Hebrew does not write: a word-initial vowel is always written (א, ע, or י/ו), so דליה is not Adel.
 */
export function hebrewMatchesLatin(hebrew: string, latin: string): boolean {
  const h = [...hebrew];
  const consonants = h.filter((c) => !'אהויע'.includes(c)).length;
  if (consonants < 1 || h.length < 2 || latin.length < 3) return false;
  // an initial א or ע is read as the vowel it carries
  if ((h[0] === 'א' || h[0] === 'ע') && !LATIN_VOWEL.test(latin[0])) return false;
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    // (after the last letter, no vowel: Hebrew writes a final vowel, ה א י ו ע, so ליאור is not Luria; a silent
    // final e or an h after the written vowel may follow, Moshe, Hannah; round 5)
    if (i === h.length) return j === latin.length || /^e?h?$/.test(latin.slice(j));
    const key = i * 1000 + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let ok = false;
    for (const r of hebrewReadings(h[i], i, h.length)) {
      if (latin.startsWith(r, j) && go(i + 1, j + r.length)) {
        ok = true;
        break;
      }
    }
    // a written vowel with no Hebrew letter (never before the first letter), or a doubled Latin consonant
    if (!ok && j < latin.length && ((i > 0 && LATIN_VOWEL.test(latin[j])) || (j > 0 && latin[j] === latin[j - 1]))) ok = go(i, j + 1);
    memo.set(key, ok);
    return ok;
  };
  if (go(0, 0)) return true;
  // the article written on the Latin side only ("Hayam" for ים)
  return h[0] !== 'ה' && latin.startsWith('ha') && latin.length > 3 && go(0, 2);
}

// ---------- Russian names as other languages write them (German, Polish, French, Dutch, Hungarian)
const RENDERINGS: [RegExp, string][][] = [
  // German: Schoigu, Jewgeni, Wladimir, Prigoschin, Tschernow
  [[/tsch/g, 'ch'], [/sch/g, 'sh'], [/w/g, 'v'], [/^j/, 'y'], [/j/g, 'y'], [/ow$/, 'ov'], [/ew$/, 'ev']],
  [[/tsch/g, 'ch'], [/sch/g, 'zh'], [/w/g, 'v'], [/^j/, 'y'], [/j/g, 'y']],
  // Polish: Szojgu, Siergiej, Jewgienij, Czernow
  [[/szcz/g, 'shch'], [/sz/g, 'sh'], [/cz/g, 'ch'], [/rz/g, 'zh'], [/w/g, 'v'], [/ie/g, 'e'], [/j/g, 'y']],
  // French: Poutine, Choïgou, Prigojine, Evgueni
  [[/ou/g, 'u'], [/ch/g, 'sh'], [/j/g, 'zh'], [/gu(?=[ei])/g, 'g'], [/ine$/, 'in'], [/e$/, '']],
  // Dutch: Poetin, Loekasjenko, Sjojgoe, Tsjernov
  [[/oe/g, 'u'], [/tsj/g, 'ch'], [/sj/g, 'sh'], [/ch/g, 'kh'], [/j/g, 'y'], [/w/g, 'v']],
  // Hungarian: Vlagyimir Putyin, Szergej
  [[/gy/g, 'd'], [/ty/g, 't'], [/ny/g, 'n'], [/sz/g, 's'], [/zs/g, 'zh'], [/cs/g, 'ch'], [/j/g, 'y']],
];

// What must be in a word for each rendering above to apply (most words have none and cost nothing).
const RENDERING_MARKS = [/sch|w|j/, /sch|w|j/, /sz|cz|rz|w|ie|j/, /ou|j|gu[ei]|ine$|ch/, /oe|sj|j|w/, /gy|ty|ny|sz|zs|cs/];

/** Folded spellings of a Latin word read as a German/Polish/French/Dutch/Hungarian rendering of a Russian name. */
const renderingCache = new Map<string, string[]>();
export function renderingFolds(norm: string): string[] {
  let out = renderingCache.get(norm);
  if (out) return out;
  const own = foldToken(norm);
  const set = new Set<string>();
  if (norm.length >= 4 && !/\d/.test(norm)) {
    for (let k = 0; k < RENDERINGS.length; k++) {
      if (!RENDERING_MARKS[k].test(norm)) continue; // nothing of that language's spelling in the word
      const rules = RENDERINGS[k];
      let s = norm;
      for (const [re, rep] of rules) s = s.replace(re, rep);
      if (s !== norm) {
        const f = foldToken(s);
        if (f !== own) set.add(f);
      }
    }
  }
  out = [...set];
  if (renderingCache.size > 200_000) renderingCache.clear();
  renderingCache.set(norm, out);
  return out;
}
