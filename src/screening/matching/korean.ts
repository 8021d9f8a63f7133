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
import type { AlignedSpan } from './aligned-span';

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
 * The Korean surnames as Hanja (the census's surnames in their traditional characters: about 120 cover
 * nearly every Korean). A name in Han characters is read in Korean only when it starts with one: 陈
 * (Chen, a simplified character Korea never writes) or 肖 (Xiao) starts a Chinese name, whose Korean
 * reading (陈丽 jin ryo, 肖娜 cho na) would find Korean people it has nothing to do with.
 */
const KOREAN_SURNAME_HANJA = new Set([
  ...'金李朴崔鄭姜趙尹張林韓吳徐申權黃安宋全洪柳高文梁孫裵白許劉南沈盧河丁成車具郭禹朱任田羅辛閔兪俞池陳嚴元蔡千方孔玄康咸卞楊廉邊呂秋魯都蘇愼慎石宣薛馬吉周延表魏明房潘王琴玉陸印孟諸卓秦鞠余奇殷片龍蔣太睦桂皮夫甘邢陰杜韋董溫景晉昔芮牟承慶彭邕範范葛奉弓左俊段賓',
  '南宮', '皇甫', '諸葛', '鮮于', '獨孤', '司空', '西門', '東方',
]);

/** The name's first characters are a Korean surname in Hanja (a two-character surname first). */
function startsWithKoreanSurname(name: string): boolean {
  return KOREAN_SURNAME_HANJA.has(name.slice(0, 2)) || KOREAN_SURNAME_HANJA.has(name[0]);
}

/**
 * A name written only in Han characters, read as Korean: each word of 2–4 characters read syllable by
 * syllable, the first character of the name as a surname. The reading is the North Korean one (no
 * initial-sound rule: 李 리 Ri, 柳 류 Ryu); the South Korean spellings (Lee, Yu) meet it through the
 * surname variant groups. Undefined when the name is not 2–4-character Han words only, does not start
 * with a Korean surname's Hanja, or a character has no reading.
 */
export function hanjaReading(raw: string): string | undefined {
  const words = raw.trim().split(/[\s·・]+/).filter(Boolean);
  if (!words.length || words.length > 3 || !words.every((w) => RE_HAN_NAME.test(w) || /^[\u3400-\u9FFF\uF900-\uFAFF]$/.test(w))) return undefined;
  if (!startsWithKoreanSurname(words[0])) return undefined;
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

/** What the order rule reads of a token. */
interface SyllableToken {
  kind: string;
  korean?: string;
  display: string;
}

/**
 * A Korean given name is its syllables in order (round 5): 성준 Seong-jun and 준성 Jun-seong are two
 * names, as Chinese and Korean parents choose each syllable for its place. When one name is written
 * "SURNAME, Given" (RI, Chun Song), its surname says which word of the other is the surname (the one
 * aligned to it); the given-name syllables of both, each aligned to one of the other's, must then come
 * in the same order. Both names must read as Korean (every name word has a Korean syllable key). A
 * reason, or undefined.
 */
export function koreanGivenNameReordered(
  qt: readonly SyllableToken[],
  qComma: number | undefined,
  ct: readonly SyllableToken[],
  cComma: number | undefined,
  pairs: readonly AlignedSpan[],
): string | undefined {
  const korean = (toks: readonly SyllableToken[]) => toks.every((t) => t.kind !== 'name' || t.korean !== undefined);
  if (!korean(qt) || !korean(ct)) return undefined;
  // the listed surname, or the query's: the words before the comma; without a comma on either side, the
  // first words of both when they are surnames aligned together (RI CHUN SONG: Ri first, as Koreans write it)
  const commaSide = cComma !== undefined ? 'c' : qComma !== undefined ? 'q' : undefined;
  const firstName = (toks: readonly SyllableToken[]) => toks.findIndex((t) => t.kind === 'name');
  const surnameSpan = commaSide
    ? pairs.find((p) => (commaSide === 'c' ? p.c0 < cComma! : p.q0 < qComma!))
    : pairs.find((p) => p.q0 === firstName(qt) && p.c0 === firstName(ct) && KOREAN_SURNAME_KEYS.has(qt[p.q0].korean!) && KOREAN_SURNAME_KEYS.has(ct[p.c0].korean!));
  if (!surnameSpan) return undefined;
  // the other name's surname stands first or last, as Korean names are written (Pak Seong-ho, Seong-ho Pak):
  // a name with its surname inside (Sik Kim Jong) has no order to read
  const other = commaSide === 'q' ? ct : qt;
  const at = commaSide === 'q' ? surnameSpan.c0 : surnameSpan.q0;
  const names = other.flatMap((t, i) => (t.kind === 'name' ? [i] : []));
  if (at !== names[0] && at !== names[names.length - 1]) return undefined;
  // the other pairs are given-name syllables of both: their order must agree
  const given = pairs
    .filter((p) => p !== surnameSpan && p.qn === 1 && p.cn === 1 && qt[p.q0].kind === 'name' && ct[p.c0].kind === 'name')
    .sort((a, b) => a.q0 - b.q0);
  for (let i = 1; i < given.length; i++) {
    if (given[i].c0 < given[i - 1].c0) {
      const q = (p: AlignedSpan) => qt[p.q0].display;
      const c = (p: AlignedSpan) => ct[p.c0].display;
      return `the given name's syllables come in another order ("${q(given[i - 1])} ${q(given[i])}" against "${c(given[i])} ${c(given[i - 1])}"): in a Korean name that is another name`;
    }
  }
  return undefined;
}
