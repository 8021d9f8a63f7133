/**
 * A foreign name written in katakana (or hiragana), read back (issue 32).
 *
 * Source: the Japanese conventions for writing foreign words (外来語の表記, Cabinet notice No. 2 of 1991,
 * and its first and second tables of kana combinations), as the press writes foreign names:
 *  - every consonant is followed by a vowel: u after most (ク k, ス s, フ f, ブ b, ム m, ル r/l), o after
 *    t and d (ト, ド), i after ch, j, sh (チ, ジ, シ); those vowels may be silent;
 *  - ヴ (ヴァ ヴィ ヴェ ヴォ) is v, and バ行 (ブ, ビ) is written for v as well (ウラジミール, ビクトル);
 *    a word-initial ウ before a consonant may be a v or w (ウラジーミル Vladimir);
 *  - ー lengthens a vowel and ッ doubles a consonant (neither shows in the lists' spellings);
 *  - small kana make other sounds: ティ ti, ディ di, ファ fa, ジェ je (also a soft d: メドヴェージェフ), シェ she, チェ che, ツァ tsa.
 * Each mora (kana with its small kana) is one segment or a consonant segment and a vowel segment.
 */
import { type Segment } from './pattern';

type Mora = [consonant: Segment, vowel: Segment];

const V: Record<string, Segment> = { a: ['a', 'o'], i: ['i', 'e', 'ie'], u: ['u', 'o'], e: ['e', 'ie', 'ei'], o: ['o', 'a', 'u'] };
// u after these is the vowel Japanese adds to a consonant with none; o after t and d; i after ch, sh, j
const SILENT_U = new Set(['k', 'g', 's', 'z', 'T', 'n', 'f', 'b', 'p', 'm', 'r', 'v', 'h']);
const SILENT_O = new Set(['t', 'd']);
const SILENT_I = new Set(['C', 'j', 'S']);

const ROWS: Record<string, Segment> = {
  '': [''], k: ['k', 'h', 'g'], g: ['g', 'k'], s: ['s', 'z', 'T'], z: ['z', 'j', 'Z', 's'], t: ['t', 'd'], d: ['d', 't'], n: ['n'],
  h: ['h', 'k', ''], b: ['b', 'v', 'p'], p: ['p', 'b'], m: ['m'], r: ['r', 'l'], w: ['w', 'v', 'u'], y: ['i', ''],
};
// base kana (katakana) → row and vowel; irregular ones written out
const BASE: Record<string, [string, string] | Mora> = {};
const GOJUON: [string, string][] = [
  ['', 'アイウエオ'], ['k', 'カキクケコ'], ['g', 'ガギグゲゴ'], ['s', 'サシスセソ'], ['z', 'ザジズゼゾ'], ['t', 'タチツテト'], ['d', 'ダヂヅデド'],
  ['n', 'ナニヌネノ'], ['h', 'ハヒフヘホ'], ['b', 'バビブベボ'], ['p', 'パピプペポ'], ['m', 'マミムメモ'], ['r', 'ラリルレロ'],
];
for (const [row, kana] of GOJUON) [...kana].forEach((k, i) => (BASE[k] = [row, 'aiueo'[i]]));
Object.assign(BASE, {
  ヤ: ['y', 'a'], ユ: ['y', 'u'], ヨ: ['y', 'o'], ワ: ['w', 'a'], ヰ: ['w', 'i'], ヱ: ['w', 'e'], ヲ: ['', 'o'], ヴ: ['v', 'u'],
  シ: [['S', 's'], ['i', '']], ジ: [['j', 'Z', 'z', 'd'], ['i', '']], チ: [['C', 'T', 't'], ['i', '']], ヂ: [['j', 'd'], ['i', '']],
  ツ: [['T', 't'], ['u', '']], ヅ: [['z', 'd'], ['u', '']], フ: [['f', 'h', 'v'], ['u', '']],
});
const SMALL_VOWEL: Record<string, string> = { ァ: 'a', ィ: 'i', ゥ: 'u', ェ: 'e', ォ: 'o' };
const SMALL_Y: Record<string, string> = { ャ: 'a', ュ: 'u', ョ: 'o' };

function consonantOf(row: string): Segment {
  return row === 'v' ? ['v', 'b'] : ROWS[row];
}

function vowelAfter(row: string, vowel: string): Segment {
  const v = V[vowel];
  if ((vowel === 'u' && SILENT_U.has(row)) || (vowel === 'o' && SILENT_O.has(row))) return [...v, ''];
  return v;
}

const toKatakana = (ch: string) => {
  const c = ch.charCodeAt(0);
  return c >= 0x3041 && c <= 0x3096 ? String.fromCharCode(c + 0x60) : ch;
};

export const RE_KANA_ONLY = /^[\u3041-\u3096\u30A1-\u30FA\u30FC\u30FD\u30FE]+$/u;

/** A word in kana as segments, or undefined when it holds anything else. */
export function kanaPattern(word: string): Segment[] | undefined {
  if (!RE_KANA_ONLY.test(word)) return undefined;
  const ks = [...word].map(toKatakana);
  const out: Segment[] = [];
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i];
    if (k === 'ー' || k === 'ッ' || k === 'ヽ' || k === 'ヾ') continue;
    if (k === 'ン') {
      out.push(['n', 'm']);
      continue;
    }
    const small = SMALL_VOWEL[k] ?? SMALL_Y[k];
    if (small) {
      out.push(V[small]); // a small kana on its own: its vowel
      continue;
    }
    const base = BASE[k];
    if (!base) return undefined;
    const next = ks[i + 1];
    const [rowOrSeg, vowelOrSeg] = base;
    const row = typeof rowOrSeg === 'string' ? rowOrSeg : '';
    const cons: Segment = typeof rowOrSeg === 'string' ? consonantOf(rowOrSeg) : rowOrSeg;
    if (next && SMALL_Y[next]) {
      // キャ kya, シャ sha, チョ cho, ジュ ju, リャ rya: the y is the consonant's palatal glide
      const v = V[SMALL_Y[next]];
      const sib = typeof rowOrSeg !== 'string';
      // (シュ チュ ジュ at the end of a sound are sh, ch, j alone: カラシュニコフ, シュペロフ)
      out.push(cons, sib ? (SMALL_Y[next] === 'u' ? [...v, ''] : v) : [...v.map((x) => `i${x}`), ...v]);
      i++;
      continue;
    }
    if (next && SMALL_VOWEL[next]) {
      // ヴァ va, ティ ti, ファ fa, ジェ je, ウィ wi, クァ kwa: the consonant with the small vowel
      const v = V[SMALL_VOWEL[next]];
      let c = cons;
      if (k === 'ウ') c = ['w', 'v', 'u'];
      else if (k === 'テ' || k === 'ト') c = ['t'];
      else if (k === 'デ' || k === 'ド') c = ['d'];
      else if (k === 'イ') c = ['i', ''];
      else if (k === 'ク' || k === 'グ') c = k === 'ク' ? ['k', 'kw'] : ['g', 'gw'];
      out.push(c, v);
      i++;
      continue;
    }
    // a word-initial ウ before a consonant: v or w (ウラジーミル Vladimir, ウィリアム William)
    if (k === 'ウ' && i === 0 && next && BASE[next] && BASE[next][0] !== '') {
      out.push(['v', 'w', 'u']);
      continue;
    }
    const vowel: Segment = typeof vowelOrSeg === 'string' ? vowelAfter(row, vowelOrSeg) : vowelOrSeg;
    out.push(cons, k === 'ジ' || k === 'シ' || k === 'チ' ? vowel : SILENT_I.has(row) ? [...vowel, ''] : vowel);
  }
  return out.length ? out : undefined;
}

/** Japanese patronymic endings (-ヴィチ -ビッチ -vich, -ヴナ -vna). */
export const KANA_PATRONYMIC = /(ヴィチ|ヴィッチ|ビッチ|ビチ|ヴナ|ブナ|ウィチ)$/;
