/**
 * Korean names: Hanja (Korean names written in Chinese characters) read in Korean, and one key per
 * romanised Korean syllable so that Revised Romanization, McCune–Reischauer, DPRK and passport
 * spellings of one syllable meet (Kim/Gim, Jong/Jeong/Chong/Chung, Un/Eun, Choe/Choi, Hyon/Hyun/Hyeon).
 *
 * The Hanja → Hangul reading table is the `hanja` npm package's data (lib/data/hanjaeum.json, MIT,
 * 27,497 characters, one standard Korean reading each, before the initial-sound rule): loaded on the
 * first Han name met, so a process that never sees one never pays for it.
 */
import { createRequire } from 'node:module';

let table: Record<string, string> | undefined;
function readings(): Record<string, string> {
  table ??= createRequire(import.meta.url)('hanja/lib/data/hanjaeum.json') as Record<string, string>;
  return table;
}

/**
 * Surnames whose reading as a surname differs from the character's usual reading (金 is "geum" as a
 * word, "Kim" as a surname).
 */
const SURNAME_READINGS: Record<string, string> = { 金: '김' };

const RE_HAN_NAME = /^[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]{2,4}$/;

/**
 * A name written only in Han characters, read as Korean: each word of 2–4 characters read syllable by
 * syllable, the first character of the name as a surname. The reading is the North Korean one (no
 * initial-sound rule: 李 리 Ri, 柳 류 Ryu); the South Korean spellings (Lee, Yu) meet it through the
 * surname variant groups. Undefined when the name is not 2–4-character Han words only, or a character
 * has no reading.
 */
export function hanjaReading(raw: string): string | undefined {
  const words = raw.trim().split(/[\s·・]+/).filter(Boolean);
  if (!words.length || words.length > 3 || !words.every((w) => RE_HAN_NAME.test(w) || /^[\u3400-\u9FFF\uF900-\uFAFF]$/.test(w))) return undefined;
  const t = readings();
  const out: string[] = [];
  for (const [wi, w] of words.entries()) {
    let s = '';
    for (const [ci, ch] of [...w].entries()) {
      const r = (wi === 0 && ci === 0 ? SURNAME_READINGS[ch] : undefined) ?? t[ch];
      if (!r) return undefined;
      s += r;
    }
    out.push(s);
  }
  return out.join(' ');
}

// ---------- one key per romanised Korean syllable
// Onsets, longest first; each maps to the class RR, MR and passport spellings share (voiced/voiceless and
// tense consonants fold together: g/k/kk, d/t/tt, b/p/pp, j/ch/jj, s/ss, r/l).
const ONSETS: [string, string][] = [
  ['tch', 'c'], ['jj', 'c'], ['ch', 'c'], ['kk', 'k'], ['gg', 'k'], ['tt', 't'], ['dd', 't'], ['pp', 'p'], ['bb', 'p'], ['ss', 's'],
  ['sh', 's'], ['kh', 'k'], ['th', 't'], ['ph', 'p'], ['rh', 'r'], ['ng', 'n'],
  ['g', 'k'], ['k', 'k'], ['d', 't'], ['t', 't'], ['b', 'p'], ['p', 'p'], ['j', 'c'], ['c', 'c'], ['s', 's'], ['r', 'r'], ['l', 'r'],
  ['n', 'n'], ['m', 'm'], ['h', 'h'], ['', ''],
];
// Nuclei, longest first. Back rounded and mid vowels written eo/o/u/eu/oo/ou (ŏ, ŭ and older spellings:
// 정 Jeong/Jong/Chung, 은 Eun/Un, 문 Mun/Moon) fold to "o"; ae/e/ai to "e"; oe/oi/we/wae to "we"; the
// y-diphthongs of those vowels (yeo/yo/yu/you/yeu: 현 Hyeon/Hyon/Hyun) to "yo".
const NUCLEI: [string, string][] = [
  ['yeo', 'yo'], ['woo', 'o'], ['yae', 'ye'], ['wae', 'we'], ['you', 'yo'], ['yeu', 'yo'],
  ['eo', 'o'], ['eu', 'o'], ['oo', 'o'], ['ou', 'o'], ['ae', 'e'], ['ai', 'e'], ['ay', 'e'], ['oe', 'we'], ['oi', 'we'], ['we', 'we'],
  ['wa', 'wa'], ['wo', 'wo'], ['wi', 'wi'], ['ui', 'wi'], ['ya', 'ya'], ['ye', 'ye'], ['yo', 'yo'], ['yu', 'yo'], ['ee', 'i'],
  ['a', 'a'], ['e', 'e'], ['i', 'i'], ['o', 'o'], ['u', 'o'],
];
// Codas: k/g, t/d, p/b, l/r fold; ng, n, m stay apart.
const CODAS: [string, string][] = [['ng', 'N'], ['k', 'K'], ['g', 'K'], ['n', 'n'], ['m', 'm'], ['l', 'L'], ['r', 'L'], ['t', 'T'], ['d', 'T'], ['p', 'P'], ['b', 'P'], ['', '']];

const keyCache = new Map<string, string | null>();

/**
 * The Korean key of a word that reads as one or two romanised Korean syllables ("jeong" → "con",
 * "jongun" → "con.on"), or undefined when it does not read as Korean. Two words with one key are
 * spellings of the same syllables in different romanisation systems.
 */
export function koreanKey(word: string): string | undefined {
  const cached = keyCache.get(word);
  if (cached !== undefined) return cached ?? undefined;
  const out = word.length > 12 || !/^[a-z]+$/.test(word) ? undefined : parse(word, 0, 0);
  if (keyCache.size > 200_000) keyCache.clear();
  keyCache.set(word, out ?? null);
  return out;
}

/** Parse syllables from position i (at most 2); the first parse that consumes the word, preferring longer syllables. */
function parse(w: string, i: number, depth: number): string | undefined {
  if (i === w.length) return depth ? '' : undefined;
  if (depth === 2) return undefined; // a surname is one syllable, a given name two (Jongun)
  for (const [on, onKey] of ONSETS) {
    if (!w.startsWith(on, i)) continue;
    const j = i + on.length;
    for (const [nu, nuKey] of NUCLEI) {
      if (!w.startsWith(nu, j)) continue;
      const k = j + nu.length;
      for (const [co, coKey] of CODAS) {
        if (!w.startsWith(co, k)) continue;
        const rest = parse(w, k + co.length, depth + 1);
        if (rest !== undefined) return onKey + nuKey + coKey + (rest ? `.${rest}` : '');
      }
    }
  }
  return undefined;
}

/**
 * Keys of the common Korean surnames in their usual spellings (about 60 surnames cover nine Koreans in
 * ten): a name is read as Korean only when its first or last word is one of them, so that Chinese,
 * Spanish or English names whose words happen to parse as Korean syllables are left alone.
 */
export const KOREAN_SURNAME_KEYS: ReadonlySet<string> = new Set(
  (
    'kim gim lee ri yi rhee i park pak bak choi choe chwe jung jeong jong chung chong kang gang cho jo yoon yun youn jang chang ' +
    'lim rim im han oh o seo so suh shin sin kwon gwon hwang ahn an song jeon chon jun chun hong ko go koh moon mun yang ryang ' +
    'son sohn bae pae paek baek heo ho hur nam roh no ro noh ha kwak gwak sung seong cha ju joo woo u min ryu yu yoo na ra jin ji ' +
    'chae won pyon byun byeon hyon hyun hyeon om eom um kil gil yom yeom ryom tak thak sim shim maeng kye gye'
  )
    .split(' ')
    .map((w) => koreanKey(w) ?? w),
);
