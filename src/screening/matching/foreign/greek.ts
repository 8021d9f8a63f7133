/**
 * A foreign name written in Greek letters, read back (issue 32).
 *
 * Source: Modern Greek spelling of foreign names (the conventions of the Greek press, as in the
 * ELOT 743 / ISO 843 correspondences read in the other direction): Greek has no letters for b, d, g,
 * so it writes them μπ, ντ, γκ (word-initially always b, d, g; inside a word b/mb, d/nd, g/ng); u is
 * ου, sh σ, ch τσ, j τζ, zh ζ, kh χ; β is v, η ι υ ει οι are all i, αι is e, ω is o. A vowel letter
 * ι before another vowel is a y glide (Γιούρι Yuri). Accents and diaeresis are spelling only.
 */
import { type Segment } from './pattern';

const DIGRAPHS: [string, (initial: boolean) => Segment][] = [
  ['ου', () => ['u', 'w', 'o']],
  ['αι', () => ['e', 'ai']],
  ['ει', () => ['i', 'ei', 'e']],
  ['οι', () => ['i', 'oi']],
  ['υι', () => ['i', 'ui']],
  ['αυ', () => ['av', 'af', 'au']],
  ['ευ', () => ['ev', 'ef', 'eu']],
  ['μπ', (initial) => (initial ? ['b'] : ['b', 'mb', 'mp'])],
  ['ντ', (initial) => (initial ? ['d'] : ['d', 'nd', 'nt'])],
  ['γκ', (initial) => (initial ? ['g'] : ['g', 'ng', 'nk'])],
  ['γγ', () => ['ng', 'g']],
  ['τσ', () => ['C', 'T']],
  ['τζ', () => ['j', 'dz', 'z', 'Z']],
];
const LETTERS: Record<string, Segment> = {
  α: ['a'], β: ['v', 'b', 'w'], γ: ['g', 'h'], δ: ['d', 't'], ε: ['e', 'ie'], ζ: ['z', 'Z', 'j'], η: ['i', 'e'], θ: ['t'], ι: ['i', 'e'],
  κ: ['k', 'c'], λ: ['l'], μ: ['m'], ν: ['n'], ξ: ['ks'], ο: ['o', 'a'], π: ['p'], ρ: ['r'], σ: ['s', 'S', 'z'], ς: ['s', 'S', 'z'],
  τ: ['t'], υ: ['i', 'u'], φ: ['f', 'v'], χ: ['h', 'k'], ψ: ['ps'], ω: ['o'],
};
const GREEK_VOWEL = /[αεηιουω]/;

export const RE_GREEK_WORD = /^[\u0370-\u03FF\u1F00-\u1FFF]+$/u;

/** A word in Greek letters as segments, or undefined. */
export function greekPattern(word: string): Segment[] | undefined {
  const w = word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ς/g, 'σ');
  if (!/^[α-ω]+$/.test(w)) return undefined;
  const out: Segment[] = [];
  for (let i = 0; i < w.length; ) {
    const pair = w.slice(i, i + 2);
    const d = DIGRAPHS.find(([g]) => g === pair);
    if (d) {
      // αι before a vowel may be a and the y glide (Αλταμπαιέβα)
      out.push(pair === 'αι' && GREEK_VOWEL.test(w[i + 2] ?? '') ? [...d[1](i === 0), 'a'] : d[1](i === 0));
      i += 2;
      continue;
    }
    const ch = w[i];
    // ι (or γ before ι/ε) before a vowel is the y of Yuri, Yevgeny: silent or i
    if (ch === 'ι' && GREEK_VOWEL.test(w[i + 1] ?? '') && !(w[i + 1] === 'ι')) out.push(['i', '']);
    else if (ch === 'γ' && /[ιεη]/.test(w[i + 1] ?? '')) out.push(['g', 'i', '']);
    else {
      const seg = LETTERS[ch];
      if (!seg) return undefined;
      out.push(seg);
    }
    i++;
  }
  return out;
}

/** Greek patronymic endings (-βιτς -vich, -βνα -vna). */
export const GREEK_PATRONYMIC = /(βιτς|βιτσ|βνα)$/u;
