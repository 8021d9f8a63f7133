/**
 * Transcription patterns: what a word written by a writer of another script may stand for in the Latin
 * spellings the lists use (issue 32).
 *
 * A writer of Korean, Japanese, Chinese, Greek, Persian, Hebrew, Thai, Burmese or Georgian who writes a
 * foreign name ("Medvedev") spells its sounds with the letters or syllables their language has: Korean
 * adds a vowel to a consonant with none (메드베데프 me-d(eu)-be-de-p(eu)), Japanese writes ヴ or ブ for
 * v, Chinese writes one character per syllable (梅德韦杰夫 mei-de-wei-jie-fu), Persian leaves the short
 * vowels out (مدودف m-d-w-d-f). Going back is not one spelling but a set: each written unit (a Hangul
 * block's consonant, a kana, a character, a letter) stands for one of a few Latin sounds, a vowel the
 * script adds may be silent, one the script leaves out may be there.
 *
 * So a word is read as a pattern: a sequence of segments, each a short list of alternatives, in a
 * reduced Latin sound alphabet (`latinKey`). A listed Latin word matches when some choice of one
 * alternative per segment spells it exactly. The alternatives come from the public transcription rules
 * of each language (see each script's module), not from names looked up.
 *
 * The sound alphabet: vowels a e i o u (y is i); consonants b p v f w m n l r d t g k h s z j (dʒ);
 * S (ʃ: sh), Z (ʒ: zh), C (tʃ: ch), T (ts). Latin digraphs fold to them (kh → h, ph → f, th → t, ts → T,
 * shch → S), doubled letters count once.
 */

/** One written unit's Latin readings ('' = silent or absent). */
export type Segment = readonly string[];
export type Pattern = readonly Segment[];

const KEY_RULES: [RegExp, string][] = [
  [/shch|sch|szcz/g, 'S'],
  [/tsch|tch/g, 'C'],
  [/dzh|dj|dsch/g, 'j'],
  [/zh/g, 'Z'],
  [/sh/g, 'S'],
  [/ch/g, 'C'],
  [/kh/g, 'h'],
  [/gh/g, 'g'],
  [/ph/g, 'f'],
  [/th/g, 't'],
  [/dh/g, 'd'],
  [/ts|tz/g, 'T'],
  [/ck|q/g, 'k'],
  [/x/g, 'ks'],
  [/c(?=[eiy])/g, 's'],
  [/c/g, 'k'],
  [/ou|oo/g, 'u'],
  [/ee/g, 'i'],
  [/y/g, 'i'],
  [/ij$/, 'i'],
  [/(.)\1+/g, '$1'],
];

const keyCache = new Map<string, string>();

const PLAIN_RULES: [RegExp, string][] = KEY_RULES.filter(([re]) => !['ou|oo', 'ee', '(.)\\1+'].includes(re.source)).map(([re, rep]) =>
  re.source === 'c(?=[eiy])' ? [/c(?=[ei])/g, 'C'] : [re, rep],
);
const keysCache = new Map<string, string[]>();

/**
 * Every key a listed word may be spelt from: latinKey, the same without the English readings of ee, oo
 * and doubled vowels (Panteleev is e-e, not i; Saad is a-a) and with Italian c before e and i (Riccio),
 * and with or without the y glide a Russian е or ю starts with (Yelena / Elena, Yevgeny / Evgeny; after a
 * vowel: Altabaeva / Altabayeva).
 */
export function latinKeys(norm: string): string[] {
  let out = keysCache.get(norm);
  if (out) return out;
  const main = latinKey(norm);
  let plain = norm;
  for (const [re, rep] of PLAIN_RULES) plain = plain.replace(re, rep);
  plain = plain.replace(/([bcdfgjklmnpqrstvwxzSZCT])\1+/g, '$1');
  const set = new Set([main, plain]);
  for (const v of spellingVariants(norm)) set.add(latinKey(v).replace(/\u0001/g, 'SC'));
  for (const k of [...set]) {
    if (/^ie[^aeiou]/.test(k) || /^iu/.test(k)) set.add(k.slice(1));
    else if (/^e[^aeiou]/.test(k)) set.add(`i${k}`);
    // (and after a vowel, where Russian е is ye too and a script writes the glide: Алтабаева is
    // Altabayeva in BGN/PCGN, آلتاباییوا, 알타바예바; the lists often leave it out: Altabaeva, Matveev)
    if (/[aeou]e/.test(k)) set.add(k.replace(/([aeou])(?=e)/g, '$1i'));
  }
  out = [...set];
  if (keysCache.size > 200_000) keysCache.clear();
  keysCache.set(norm, out);
  return out;
}

/**
 * The listed spelling read by other conventions than the English-like one latinKey assumes, each a
 * whole-word variant (a writer follows one convention throughout a word): c before e and i read as
 * the Latin letter's hard k (Riccio 리키오, Belavencev 벨라벤케프), or as the ts it is in the Slavic
 * Latin spellings (Belavencev: Белавенцев, ц); qu before e and i as the k of Spanish, Portuguese and
 * French (Mosquera 모스케라, Moskera); shch as the sh + ch most scripts spell щ with (Georgian შჩ,
 * Persian شچ, Lithuanian šč; \u0001 marks it through latinKey's rules, which would fold it to sh).
 */
function spellingVariants(norm: string): string[] {
  const out: string[] = [];
  const soft = /c(?=[eiy])/.test(norm);
  if (soft || /qu(?=[eiy])/.test(norm) || norm.includes('shch')) out.push(norm.replace(/c(?=[eiy])/g, 'k').replace(/qu(?=[eiy])/g, 'k').replace(/shch/g, '\u0001'));
  if (soft) out.push(norm.replace(/c(?=[eiy])/g, 'ts'));
  return out;
}

/**
 * A listed word (lowercase ASCII, as text.ts transliterates it) in the sound alphabet above:
 * "Khodorkovskiy" → hodorkovski, "Shoygu" → Soigu, "Dmitriy" → dmitri, "Tsvetkov" → Tvetkov.
 */
export function latinKey(norm: string): string {
  let s = keyCache.get(norm);
  if (s !== undefined) return s;
  s = norm;
  for (const [re, rep] of KEY_RULES) s = s.replace(re, rep);
  if (keyCache.size > 200_000) keyCache.clear();
  keyCache.set(norm, s);
  return s;
}

const CONSONANT = /^[bpvfwmnlrdtgkhszjSZCT]$/;
const VOWEL_AFTER = /^[aeou]$/;

/**
 * Does some choice of one alternative per segment spell `key` (a latinKey) exactly? A pattern consonant
 * repeated (ㄹ + ㄹ, ッ + タ) may stand for the one letter the key has there, since keys write doubled
 * letters once; so may an i repeated, the й of a final -ий that scripts write as a second i
 * (Ντμίτριι, 德米特里伊, დმიტრიი: Dmitry). Forward reachability over the key's positions: at most |pattern| × |key| steps.
 */
export function patternMatches(p: Pattern, key: string): boolean {
  const n = key.length;
  if (n === 0 || n > 60) return false;
  let reach = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  reach[0] = 1;
  for (const seg of p) {
    next.fill(0);
    let any = false;
    for (let j = 0; j <= n; j++) {
      if (!reach[j]) continue;
      for (const alt of seg) {
        if (alt === '') {
          next[j] = 1;
          any = true;
        } else if (key.startsWith(alt, j)) {
          next[j + alt.length] = 1;
          any = true;
        } else if (j > 0 && alt.length === 1 && key.charCodeAt(j - 1) === alt.charCodeAt(0) && (CONSONANT.test(alt) || alt === 'i')) {
          next[j] = 1;
          any = true;
        }
      }
    }
    // the y glide of a Latin spelling after a consonant (Tyurin, Sipyagin, Lyudmila: key "tiurin") may be
    // one a script does not write (투린, シパギン, Σίπαγκιν): an i between a consonant and a vowel is optional
    for (let j = 1; j + 1 < n; j++) {
      if (next[j] && key.charCodeAt(j) === 105 && CONSONANT.test(key[j - 1]) && VOWEL_AFTER.test(key[j + 1])) next[j + 1] = 1;
    }
    if (!any) return false;
    [reach, next] = [next, reach];
  }
  return reach[n] === 1;
}

// How each sound is spelt in the lists' Latin, for the index's consonant-skeleton keys (text.ts skeleton()).
const SPELLINGS: Record<string, string[]> = {
  S: ['sh'],
  C: ['ch'],
  Z: ['zh'],
  T: ['ts'],
  j: ['j', 'dzh'],
  h: ['h', 'kh'],
};

/**
 * The distinct consonant strings one segment may contribute to a spelling (vowels, w and y left out, as
 * text.ts skeleton() leaves them out), first alternative first.
 */
function consonantSpellings(seg: Segment): string[] {
  const out: string[] = [];
  for (const alt of seg) {
    let variants = [''];
    for (const ch of alt) {
      if ('aeiouwy'.includes(ch)) continue;
      const sp = SPELLINGS[ch] ?? [ch];
      const grown: string[] = [];
      for (const v of variants) for (const s of sp) grown.push(v + s);
      variants = grown;
    }
    for (const v of variants) if (!out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * Choices of one option per slot in order of their cost, an option's cost being its rank in its slot
 * (the first, likeliest, costs nothing): every spelling one step from the likeliest comes before any
 * two steps away. At most `cap`.
 */
function* byDeviation(options: readonly (readonly string[])[], cap: number): Generator<string> {
  let produced = 0;
  let most = 0;
  for (const o of options) most += o.length - 1;
  for (let budget = 0; budget <= most && produced < cap; budget++) {
    const stack: { i: number; prefix: string; used: number }[] = [{ i: 0, prefix: '', used: 0 }];
    while (stack.length && produced < cap) {
      const { i, prefix, used } = stack.pop()!;
      if (i === options.length) {
        if (used === budget) {
          produced++;
          yield prefix;
        }
        continue;
      }
      const o = options[i];
      // pushed in reverse so the first option is explored first
      for (let k = Math.min(o.length, 1 + budget - used) - 1; k >= 0; k--) stack.push({ i: i + 1, prefix: prefix + o[k], used: used + k });
    }
  }
}

/**
 * The consonant skeletons (text.ts skeleton(), which the index keys every listed word by) of the
 * spellings a pattern allows, at most `cap`, the likelier first (each segment's alternatives are
 * listed likeliest first). `skeleton` is passed in to keep this module free of the matcher's imports.
 */
export function patternSkeletons(p: Pattern, skeleton: (norm: string) => string, cap = 48): string[] {
  const options = p.map(consonantSpellings).filter((o) => !(o.length === 1 && o[0] === ''));
  const out = new Set<string>();
  for (const s of byDeviation(options, cap * 16)) {
    const k = skeleton(s);
    if (k.length >= 2) out.add(k);
    if (out.size >= cap) break;
  }
  return [...out];
}

/** Up to `cap` full spellings (vowels included) a pattern allows, the likelier first: keys for short words. */
export function patternSpellings(p: Pattern, cap = 12): string[] {
  const options = p.map((seg) => [...new Set(seg.map((alt) => [...alt].map((ch) => SPELLINGS[ch]?.[0] ?? ch).join('')))]);
  return [...new Set(byDeviation(options, cap * 4))].slice(0, cap);
}

/** A pattern as an analyst can read it: "d(e)m i t r(u) i", alternatives in brackets. */
export function describePattern(p: Pattern): string {
  return p
    .map((seg) => {
      const alts = seg.filter(Boolean);
      const opt = seg.includes('');
      if (!alts.length) return '';
      const body = alts.length === 1 ? alts[0] : `[${alts.join('|')}]`;
      return opt ? `(${body})` : body;
    })
    .filter(Boolean)
    .join(' ');
}

// ---------- helpers the script modules build their segments with

/** Short vowels a script may leave unwritten (abjads, Thai and Burmese inherent vowels). */
export const ANY_SHORT_VOWEL: Segment = ['', 'a', 'e', 'i', 'o', 'u'];

/** A segment with '' added (a unit that may be silent). */
export function optional(seg: Segment): Segment {
  return seg.includes('') ? seg : [...seg, ''];
}
