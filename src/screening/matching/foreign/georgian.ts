/**
 * A foreign name written in Georgian (Mkhedruli), read back (issue 32).
 *
 * Georgian writes every sound with one letter (the national romanisation of 2002 read in the other
 * direction: ვ v, ფ p/f, ხ kh, ყ q/k, ღ gh, შ sh, ჟ zh, ჩ ჭ ch, ც წ ts, ძ dz, ჯ j, თ ტ t, კ ქ k, პ p), and
 * adds the nominative ending -ი to a name ending in a consonant (მედვედევი Medvedev-i, პუტინი Putin-i):
 * a final ი after a consonant may be that ending.
 */
import { type Segment } from './pattern';

const LETTERS: Record<string, Segment> = {
  ა: ['a'], ბ: ['b', 'v'], გ: ['g'], დ: ['d'], ე: ['e', 'ie'], ვ: ['v', 'w', 'u'], ზ: ['z'], თ: ['t'], ი: ['i', 'e'], კ: ['k'], ლ: ['l'],
  მ: ['m'], ნ: ['n'], ო: ['o', 'a'], პ: ['p'], ჟ: ['Z', 'j'], რ: ['r'], ს: ['s'], ტ: ['t'], უ: ['u', 'w'], ფ: ['p', 'f', 'v'], ქ: ['k'],
  ღ: ['g', 'h'], ყ: ['k'], შ: ['S'], ჩ: ['C'], ც: ['T', 'z'], ძ: ['dz', 'z', 'j'], წ: ['T'], ჭ: ['C'], ხ: ['h', 'k'], ჯ: ['j', 'Z'],
  ჰ: ['h', ''], ჱ: ['e'], ჲ: ['i'], ჳ: ['u'], ჴ: ['h'], ჵ: ['o'],
};
const VOWEL = /[აეიოუ]/u;

export const RE_GEORGIAN_WORD = /^[\u10D0-\u10FF\u1C90-\u1CBF]+$/u;

/** A word in Georgian letters as segments, or undefined. */
export function georgianPattern(word: string): Segment[] | undefined {
  const chars = [...word.toLowerCase()];
  const out: Segment[] = [];
  for (let i = 0; i < chars.length; i++) {
    const seg = LETTERS[chars[i]];
    if (!seg) return undefined;
    // the nominative -ი after a consonant: the name's own last vowel or that ending
    if (i === chars.length - 1 && chars[i] === 'ი' && i > 1 && !VOWEL.test(chars[i - 1])) out.push(['i', '']);
    // ი before a vowel is the y glide a Russian е, ю, я starts with (იევგენი Yevgeny, პანტელეიევი Panteleyev): written or not
    else if (chars[i] === 'ი' && VOWEL.test(chars[i + 1] ?? '') && chars[i + 1] !== 'ი') out.push(['i', '']);
    else out.push(seg);
  }
  return out.length ? out : undefined;
}

/** Georgian patronymic endings (-ვიჩი -vich, -ვნა -vna). */
export const GEORGIAN_PATRONYMIC = /(ვიჩი|ვიჩ|ვნა)$/u;
