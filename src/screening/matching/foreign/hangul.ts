/**
 * A foreign name written in Hangul, read back (issue 32).
 *
 * Source: the Korean foreign-word transcription rules (외래어 표기법, National Institute of the Korean
 * Language, 1986, with its tables for English, German, French, Russian and other languages):
 *  - a consonant with no vowel after it is written with the vowel ㅡ (드 d, 르 r, 프 p/f, 스 s, 크 k),
 *    or ㅣ after sh, zh, ch and j (시, 지, 치: "Bush" 부시, "-vich" 비치);
 *  - v is written ㅂ, f ㅍ, z and j ㅈ, ts and ch ㅊ, sh ㅅ (+ a y-vowel: 샤 sha, 쇼 sho), th ㅅ, kh ㅎ;
 *  - l between vowels is ㄹㄹ (블라디미르 b-l-l-a), a final l, m, n, k, p or t may be a final
 *    consonant (받침) of the syllable before;
 *  - Russian е is 예 or 에, ё 요, ю 유, я 야; й after a vowel is 이 (세르게이).
 * Each Hangul block's initial consonant, vowel and final consonant become one segment each.
 */
import { optional, type Segment } from './pattern';

// initial consonants in Unicode order: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ
const LEAD: Segment[] = [
  ['g', 'k'], ['k', 'g'], ['n'], ['d', 't'], ['t', 'd'], ['r', 'l'], ['m'], ['b', 'v', 'p', 'w'], ['p', 'b'], ['s', 'S', 't', 'z'], ['s', 'S'], [''],
  ['j', 'z', 'Z', 'd'], ['T', 'j', 'C'], ['C', 'T', 'S'], ['k', 'h', 'g'], ['t', 'd'], ['p', 'f', 'v'], ['h', 'k', ''],
];
// vowels: ㅏ ㅐ ㅑ ㅒ ㅓ ㅔ ㅕ ㅖ ㅗ ㅘ ㅙ ㅚ ㅛ ㅜ ㅝ ㅞ ㅟ ㅠ ㅡ ㅢ ㅣ
const VOWEL: Segment[] = [
  ['a', 'o'], ['e', 'a', 'ai'], ['ia', 'a'], ['ie', 'ia', 'e'], ['o', 'e', 'a', 'u'], ['e', 'ie', 'ei'], ['io', 'ie', 'e', 'o'], ['ie', 'e'],
  ['o', 'a', 'au', 'u'], ['wa', 'ua', 'oa', 'va'], ['we', 'wa', 'ue'], ['we', 'oe', 'e', 'oi'], ['io', 'o', 'e'], ['u', 'o', 'w'],
  ['wo', 'uo', 'wa', 'we', 'vo'], ['we', 'ue'], ['wi', 'ui', 'vi'], ['iu', 'u'], ['', 'u', 'e', 'i', 'o'], ['ui', 'i', 'ei'], ['i', 'ie', 'e', 'ei'],
];
// final consonants: (none) ㄱ ㄲ ㄳ ㄴ ㄵ ㄶ ㄷ ㄹ ㄺ ㄻ ㄼ ㄽ ㄾ ㄿ ㅀ ㅁ ㅂ ㅄ ㅅ ㅆ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ
const TAIL: Segment[] = [
  [''], ['k', 'g'], ['k'], ['ks'], ['n'], ['nj'], ['n'], ['t', 'd'], ['l', 'r'], ['lk'], ['lm'], ['lb'], ['ls'], ['lt'], ['lp'], ['l'],
  ['m'], ['p', 'b', 'v', 'f'], ['ps'], ['t', 's', 'd', 'S'], ['s'], ['ng', 'n', 'g'], ['j', 't'], ['C', 't'], ['k'], ['t'], ['p', 'f'], ['t', 'h'],
];
const SIBILANT_LEADS = new Set([9, 10, 12, 13, 14]); // ㅅ ㅆ ㅈ ㅉ ㅊ
const Y_VOWELS = new Set([2, 3, 6, 7, 12, 17]); // ㅑ ㅒ ㅕ ㅖ ㅛ ㅠ

export const RE_HANGUL_BLOCK = /[\uAC00-\uD7A3]/;

/** A word of Hangul blocks as segments, or undefined when it holds anything else. */
export function hangulPattern(word: string): Segment[] | undefined {
  const out: Segment[] = [];
  let prevTail = 0;
  for (const ch of word) {
    const code = ch.charCodeAt(0) - 0xac00;
    if (code < 0 || code > 11171) return undefined;
    const lead = Math.floor(code / 588);
    const vowel = Math.floor((code % 588) / 28);
    const tail = code % 28;
    // ㄹㄹ is one l between vowels (블라디미르 b-l-l-a): the second ㄹ is an l
    out.push(lead === 5 && prevTail === 8 ? ['l'] : LEAD[lead]);
    let v = VOWEL[vowel];
    // 시 지 치 at the end of a sound: sh, zh, ch with no vowel ("Bush" 부시, "-vich" 비치)
    if (SIBILANT_LEADS.has(lead) && vowel === 20) v = optional(v);
    // 샤 쇼 슈 셰, 자 저 조 주: after sh/zh/ch the y of the vowel is the consonant's
    if (SIBILANT_LEADS.has(lead) && Y_VOWELS.has(vowel)) v = [...v, ...v.map((x) => x.replace(/^i/, '')).filter((x) => x && !v.includes(x))];
    out.push(v);
    if (tail) out.push(TAIL[tail]);
    prevTail = tail;
  }
  return out.length ? out : undefined;
}

/** Korean patronymic endings (-비치 -vich, -브나 -vna): the word is a Russian patronymic. */
export const HANGUL_PATRONYMIC = /(비치|비츠|브나|비치흐)$/;
