/**
 * A foreign name written in Burmese (Myanmar script), read back (issue 32).
 *
 * Burmese writes a foreign name syllable by syllable: a consonant letter with a vowel sign (ဗီ vi, မေ me),
 * a consonant with no vowel sign carrying the inherent a (or nothing, in a cluster), and a consonant with
 * no vowel written with the killer ် (asat) or stacked under the next with ္ (virama). Medials ျ ြ are a y
 * glide, ွ w, ှ h. Source: the letter values of the MLC transcription system for the Burmese script
 * (Myanmar Language Commission), read as the consonants and vowels of a foreign name; tone marks (့ း)
 * are spelling only. (Burmese personal names are read by ../burmese.ts: this reading is for foreign
 * names only, which is why it keeps every consonant a syllable of its own.)
 */
import { type Segment } from './pattern';

const CONSONANTS: Record<string, Segment> = {
  က: ['k', 'g'], ခ: ['k', 'h'], ဂ: ['g', 'k'], ဃ: ['g'], င: ['ng', 'n'], စ: ['s', 'C', 'T'], ဆ: ['s', 'C', 'S', 'T'], ဇ: ['z', 'j'], ဈ: ['z', 'j'],
  ည: ['n', 'i'], ဋ: ['t'], ဌ: ['t'], ဍ: ['d'], ဎ: ['d'], ဏ: ['n'], တ: ['t', 'd'], ထ: ['t'], ဒ: ['d'], ဓ: ['d'], န: ['n'], ပ: ['p', 'b'],
  ဖ: ['p', 'f'], ဗ: ['b', 'v'], ဘ: ['b', 'v'], မ: ['m'], ယ: ['i', ''], ရ: ['r', 'i', 'l'], လ: ['l', 'r'], ဝ: ['w', 'v', 'u'], သ: ['t', 's'],
  ဟ: ['h', ''], ဠ: ['l'], အ: [''], ဿ: ['s'],
};
const INDEPENDENT: Record<string, Segment> = { ဣ: ['i'], ဤ: ['i'], ဥ: ['u'], ဦ: ['u'], ဧ: ['e'], ဩ: ['o'], ဪ: ['o'] };
const ASAT = '\u103A';
/** The vowel of a syllable closed by a killed final (the standard rhymes: -က် et, -င် in, -စ် it, -ည် i or e). */
const KILLED_RHYME: Record<string, Segment> = { က: ['e'], င: ['i'], စ: ['i'], ည: ['i', 'e'] };
const VIRAMA = '\u1039';

export const RE_MYANMAR_WORD = /^[\u1000-\u109F]+$/u;

/** A word in Burmese as segments, or undefined. */
export function myanmarPattern(word: string): Segment[] | undefined {
  const chars = [...word.replace(/[\u1037\u1038]/g, '')];
  const out: Segment[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (INDEPENDENT[ch]) {
      out.push(INDEPENDENT[ch]);
      continue;
    }
    const cons = CONSONANTS[ch];
    if (!cons) return undefined;
    // the marks of this consonant, up to the next consonant
    let marks = '';
    let j = i + 1;
    while (j < chars.length && !CONSONANTS[chars[j]] && !INDEPENDENT[chars[j]]) marks += chars[j++];
    i = j - 1;
    if (marks.includes(VIRAMA)) marks = marks.replace(VIRAMA, ASAT); // stacked under the next: no vowel
    const y = /[\u103B\u103C]/.test(marks); // ျ ြ
    const h = marks.includes('\u103E'); // ှ
    // ရှ ယှ are sh; ကျ ချ are ch (or ky), ဂျ j: what Burmese writes for those foreign sounds
    if (h && (ch === 'ရ' || ch === 'ယ')) out.push(['S', 's']);
    else if (y && (ch === 'က' || ch === 'ခ')) out.push(['C', 'k', 'ki']);
    else if (y && ch === 'ဂ') out.push(['j', 'Z', 'g', 'gi']);
    else {
      out.push(cons);
      if (y) out.push(['i', '']);
      if (h) out.push(['h', '']);
    }
    if (marks.includes('\u103D')) out.push(['w', 'u', 'v']); // ွ
    const v = marks.replace(/[\u103B-\u103E]/g, '');
    if (v.includes(ASAT)) continue; // a consonant with no vowel
    if (/ေ.*ာ|ော|ေါ/.test(v)) out.push(['o', 'au']);
    else if (/ို/.test(v)) out.push(['o', 'u']);
    else if (/[ာါ]/.test(v)) out.push(['a']);
    else if (/[ိီ]/.test(v)) out.push(['i', 'e']);
    else if (/[ုူ]/.test(v)) out.push(['u', 'o']);
    else if (v.includes('ေ')) out.push(['e', 'ei']);
    else if (v.includes('ဲ')) out.push(['e', 'ai']);
    else {
      // the inherent vowel, or none in a cluster; before a killed final it takes the rhyme's vowel
      // (-က် et, -င် in, -စ် it, -ည် i/e: ပူတင် Pu-tin)
      const rhyme = chars[j + 1] === ASAT ? KILLED_RHYME[chars[j]] : undefined;
      out.push(rhyme ? ['a', '', 'o', ...rhyme] : ['a', '', 'o']);
    }
    if (v.includes('\u1036')) out.push(['n', 'm']); // ံ
  }
  return out.length ? out : undefined;
}
