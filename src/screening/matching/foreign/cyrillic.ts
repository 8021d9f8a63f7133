/**
 * Ukrainian and Belarusian Cyrillic spellings of Russian names, read back (issue 32).
 *
 * The same person is written Дмитрий Медведев in Russian, Дмитро Медведєв in Ukrainian and Дзмітрый
 * Мядзведзеў in Belarusian: the letters differ where the languages' sounds and spelling rules do.
 * Source: the Ukrainian and Belarusian alphabets and their standard correspondences with Russian
 * spelling (Ukrainian і for Russian и and for е/о in closed syllables (Федір = Фёдор), и for ы, є and
 * ї for е and йи, г for h; Belarusian дз and ц for the soft д and т (дзеканне, цеканне), ў for в
 * before a consonant and at the end, а for an unstressed о and я for an unstressed е (аканне,
 * яканне), э for е after hard consonants, і for и). Given names that the languages form differently
 * (Володимир, Уладзімір) meet their Russian form through the name-variant groups of lexicon.ts.
 */
import { type Segment } from './pattern';

const LETTERS: Record<string, Segment> = {
  а: ['a', 'o'], б: ['b'], в: ['v', 'u', 'w'], г: ['g', 'h'], ґ: ['g'], д: ['d'], е: ['e', 'ie', 'ia'], є: ['ie', 'e'], ё: ['io', 'o', 'e'],
  ж: ['Z'], з: ['z'], и: ['i', 'e'], і: ['i', 'e', 'o'], ї: ['i', 'ii'], й: ['i', ''], к: ['k'], л: ['l'], м: ['m'], н: ['n'], о: ['o', 'a'],
  п: ['p'], р: ['r'], с: ['s'], т: ['t'], у: ['u', 'v'], ў: ['v', 'u', 'w', 'f'], ф: ['f'], х: ['h'], ц: ['T', 't'], ч: ['C'], ш: ['S'],
  щ: ['S', 'SC'], ъ: [''], ы: ['i'], ь: [''], э: ['e'], ю: ['iu', 'u'], я: ['ia', 'a', 'e', 'ie'], "'": [''], 'ʼ': [''], '’': [''],
};

export const RE_CYRILLIC_WORD = /^[\u0400-\u04FF'ʼ’]+$/u;
/**
 * Letters only Ukrainian or Belarusian write (a name in Russian has none of them), and the Belarusian
 * дзеканне and цеканне, which need no such letter (Якацерына, Дзяніс Цьюрын for Екатерина, Денис Тюрин):
 * дз, and ц before a soft vowel or ь, where Russian writes д and т.
 */
export const RE_UK_BE_LETTERS = /[іїєґў]|дз|ц[еёюяь]/u;

/** A Ukrainian or Belarusian word as segments, or undefined. */
export function eastSlavicPattern(word: string): Segment[] | undefined {
  const w = word.toLowerCase();
  const out: Segment[] = [];
  const chars = [...w];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    // дз, дж: one sound (Belarusian дз is a soft d: Дзмітрый, Мядзведзеў)
    if (ch === 'д' && chars[i + 1] === 'з') {
      out.push(['d', 'dz', 'z']);
      i++;
      continue;
    }
    if (ch === 'д' && chars[i + 1] === 'ж') {
      out.push(['j']);
      i++;
      continue;
    }
    // a word-initial у before a consonant: the Belarusian у for в (Уладзімір)
    if (i === 0 && ch === 'у' && chars[1] && !/[аеёиіїоуыэюяє]/.test(chars[1])) {
      out.push(['v', 'u']);
      continue;
    }
    const seg = LETTERS[ch];
    if (!seg) return undefined;
    out.push(seg);
  }
  return out.length ? out : undefined;
}
