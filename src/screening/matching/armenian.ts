/**
 * Armenian names read the Western Armenian way. any-ascii transliterates Armenian script as Eastern
 * Armenian (Գևորգ → gevorg, Պետրոս → petros); the diaspora and many Lebanese, Syrian, French and US
 * records spell the same names as Western Armenian pronounces them, where the voiced and voiceless stops
 * and affricates trade places: Kevork, Bedros, Hagop (Hakob), Krikor (Grigor), Dikran (Tigran).
 * Georgian needs no such table: any-ascii's national transliteration (ejectives marked with an apostrophe,
 * which tokenisation drops) is what lists write, and French spellings (Zourabichvili) are read by the
 * French rendering rules in text.ts.
 */
import { foldToken } from './text';

// Eastern reading → Western reading, longest first; applied in one left-to-right pass so a swap is not swapped back.
const SWAPS: [string, string][] = [
  ['dz', 'ts'], ['ts', 'dz'], ['ch', 'j'], ['j', 'ch'], ['gh', 'gh'], ['kh', 'kh'], ['sh', 'sh'], ['zh', 'zh'], ['th', 'th'],
  ['b', 'p'], ['p', 'b'], ['d', 't'], ['t', 'd'], ['g', 'k'], ['k', 'g'],
];

/** The fold of the Western Armenian spelling of an (Eastern-transliterated) Armenian word, when it differs. */
export function westernArmenianFolds(norm: string): string[] {
  let out = '';
  for (let i = 0; i < norm.length; ) {
    const swap = SWAPS.find(([from]) => norm.startsWith(from, i));
    if (swap) {
      out += swap[1];
      i += swap[0].length;
    } else out += norm[i++];
  }
  const f = foldToken(out);
  return f !== foldToken(norm) ? [f] : [];
}
