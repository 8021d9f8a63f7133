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

/** Where a token came from; abjad tokens have no written vowels, CJK/Hangul tokens are syllables. */
export type TokenOrigin = 'latin' | 'cyrillic' | 'greek' | 'abjad' | 'han' | 'hangul' | 'kana' | 'other';

export interface RawToken {
  norm: string;
  origin: TokenOrigin;
}

const RE_ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const RE_HEBREW = /[\u0590-\u05FF\uFB1D-\uFB4F]/;
const RE_CYRILLIC = /[\u0400-\u052F]/;
const RE_GREEK = /[\u0370-\u03FF\u1F00-\u1FFF]/;
const RE_HAN = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/;
const RE_HANGUL = /[\uAC00-\uD7AF\u1100-\u11FF\u3130-\u318F]/;
const RE_KANA = /[\u3040-\u30FF\u31F0-\u31FF]/;
const RE_UKRAINIAN = /[іїєґІЇЄҐ]/;

/** ISO 15924 code of the dominant non-Latin script of a string, or Latn. */
export function detectScript(s: string): string {
  if (RE_ARABIC.test(s)) return 'Arab';
  if (RE_HEBREW.test(s)) return 'Hebr';
  if (RE_CYRILLIC.test(s)) return 'Cyrl';
  if (RE_GREEK.test(s)) return 'Grek';
  if (RE_HANGUL.test(s)) return 'Hang';
  if (RE_KANA.test(s)) return 'Kana';
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
        if (piece === 'ال') out.push({ norm: 'al', origin: 'abjad' });
        else push(anyAscii(piece), 'abjad');
      }
    } else if (RE_HEBREW.test(word)) {
      push(transliterateHebrew(word), 'abjad');
    } else if (RE_CYRILLIC.test(word)) {
      push(transliterateCyrillic(word), 'cyrillic');
    } else if (RE_HANGUL.test(word) || RE_HAN.test(word)) {
      // One token per syllable; the aligner re-joins adjacent syllables ("Jin Ping" = "Jinping").
      let latinRun = '';
      for (const ch of word) {
        if (RE_HANGUL.test(ch)) {
          if (latinRun) push(anyAscii(latinRun), 'latin');
          latinRun = '';
          out.push({ norm: foldKoreanSyllable(anyAscii(ch)), origin: 'hangul' });
        } else if (RE_HAN.test(ch)) {
          if (latinRun) push(anyAscii(latinRun), 'latin');
          latinRun = '';
          push(anyAscii(ch), 'han');
        } else latinRun += ch;
      }
      if (latinRun) push(anyAscii(latinRun), RE_KANA.test(latinRun) ? 'kana' : 'latin');
    } else if (RE_GREEK.test(word)) {
      push(anyAscii(word), 'greek');
    } else if (RE_KANA.test(word)) {
      push(anyAscii(word), 'kana');
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
