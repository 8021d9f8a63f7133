/**
 * Latin-script spellings of Russian (and other) names in the languages that write them their own way,
 * read back (issue 32): Lithuanian and Latvian add a case ending (Dmitrijus Medvedevas, Dmitrijs
 * Medvedevs), Polish, Czech, Slovak and Hungarian spell the sounds with their letters (Miedwiediew,
 * Medveděv, Medvegyev; Szergej Sojgu: Hungarian s is sh, sz is s).
 *
 * Sources: the national transcription rules of Russian into each language (Lithuanian: Valstybinė
 * lietuvių kalbos komisija's rules for foreign names, nominative endings -as -is -us -ijus; Latvian:
 * the rules of the State Language Centre, endings -s -š -is -ijs; Polish: the PWN transcription of
 * Russian (sz cz ż szcz ch w ł, ie/ia/io/iu after consonants); Czech and Slovak: the Czech
 * transcription of Russian (š ž č šč ch j, ě); Hungarian: the Akadémia's transcription of Russian
 * (sz s zs cs c gy ty ny j)); German (w v, sch sh/zh, tsch ch, z ts) and Dutch (oe u, sj sh, tsj ch) as the
 * press writes Russian names (text.ts renderingFolds reads single words the same way; here a whole name).
 *
 * A language is recognised by its letters or endings (detectLatinLanguage); a name with none of them is
 * left to the plain Latin comparison.
 */
import { type Segment } from './pattern';

/** ce: a Central European spelling no letter tells apart (Czech, Slovak, German, Dutch or Latvian: Michail Dedov, Jekaterina Altabajeva). */
export type LatinLanguage = 'lt' | 'lv' | 'pl' | 'cs' | 'hu' | 'de' | 'nl' | 'ce';

const COMMON: Record<string, Segment> = {
  a: ['a', 'o'], b: ['b'], c: ['T'], d: ['d'], e: ['e', 'ie'], f: ['f'], g: ['g'], h: ['h'], i: ['i'], j: ['i', ''], k: ['k'], l: ['l'],
  m: ['m'], n: ['n'], o: ['o', 'a'], p: ['p'], q: ['k'], r: ['r'], s: ['s'], t: ['t'], u: ['u'], v: ['v'], w: ['v'], x: ['ks'], y: ['i'], z: ['z'],
  "'": [''], '’': [''],
};
// A Baltic writer keeps a non-Russian name's own Latin spelling and adds the ending (Saburinezhadas,
// Maghamas, Gholamshahi): the English digraphs the lists spell it with
// and its c and j as the lists have them (Carlosas, Juanas, Javadas: k and the j of Juan besides ts and y)
const KEPT_DIGRAPHS: [string, Segment][] = [
  ['zh', ['Z']], ['sh', ['S']], ['kh', ['h']], ['gh', ['g']], ['ph', ['f']], ['th', ['t']], ['c', ['T', 'k', 's']], ['j', ['i', '', 'j']],
];
// letters and letter groups of each language (longest first), over COMMON
const LANG: Record<LatinLanguage, [string, Segment][]> = {
  lt: [['dž', ['j']], ['ch', ['h']], ...KEPT_DIGRAPHS, ['č', ['C']], ['š', ['S']], ['ž', ['Z']], ['ą', ['a']], ['ę', ['e']], ['ė', ['e']], ['į', ['i']], ['ų', ['u']], ['ū', ['u']], ['y', ['i']]],
  lv: [['dž', ['j']], ...KEPT_DIGRAPHS, ['č', ['C']], ['š', ['S']], ['ž', ['Z']], ['ā', ['a']], ['ē', ['e']], ['ī', ['i']], ['ū', ['u']], ['ģ', ['g']], ['ķ', ['k']], ['ļ', ['l']], ['ņ', ['n']], ['o', ['o', 'uo']]],
  // (rz is ż, or r + z in a Russian name: Polish writes ж as ż, so Корзюк is Korzjuk)
  pl: [
    ['szcz', ['S']], ['sz', ['S']], ['cz', ['C']], ['rz', ['Z', 'rz', 'r']], ['dż', ['j']], ['dź', ['j', 'd']], ['ch', ['h']], ['ie', ['e', 'ie']], ['ia', ['ia', 'a']],
    ['io', ['io', 'o', 'e']], ['iu', ['iu', 'u']], ['ż', ['Z']], ['ź', ['Z', 'z']], ['ś', ['S', 's']], ['ć', ['C', 't']], ['ł', ['l']], ['ń', ['n']],
    ['ó', ['o', 'u']], ['ą', ['on', 'a', 'o']], ['ę', ['en', 'e']], ['w', ['v', 'f']],
  ],
  cs: [
    ['dž', ['j']], ['ch', ['h']], ['č', ['C']], ['š', ['S']], ['ž', ['Z']], ['ř', ['rZ', 'r', 'Z']], ['ě', ['ie', 'e']], ['ů', ['u']], ['ú', ['u']],
    ['á', ['a']], ['é', ['e']], ['í', ['i']], ['ó', ['o']], ['ý', ['i']], ['ď', ['d']], ['ť', ['t']], ['ň', ['n']], ['ľ', ['l']], ['ĺ', ['l']],
    ['ŕ', ['r']], ['ä', ['a', 'e']], ['ô', ['o', 'uo']],
  ],
  hu: [
    ['dzs', ['j']], ['sz', ['s']], ['zs', ['Z']], ['cs', ['C']], ['gy', ['d', 'g']], ['ty', ['t']], ['ny', ['n']], ['ly', ['l', 'i']], ['dz', ['dz', 'z']],
    ['s', ['S', 's']], ['á', ['a']], ['é', ['e']], ['í', ['i']], ['ó', ['o']], ['ö', ['o']], ['ő', ['o']], ['ú', ['u']], ['ü', ['u']], ['ű', ['u']],
  ],
  // German: Wladimir Putin, Dmitri Medwedew, Sergei Schoigu, Jewgeni Prigoschin (sch is sh or zh), z is ts
  de: [
    ['schtsch', ['S']], ['tsch', ['C']], ['sch', ['S', 'Z']], ['ch', ['h']], ['ck', ['k']], ['ß', ['s']], ['ä', ['e', 'a']], ['ö', ['o']],
    ['ü', ['u', 'i']], ['w', ['v']], ['z', ['T', 'z']], ['s', ['s', 'z']],
  ],
  // Dutch: Vladimir Poetin, Sergej Sjojgoe, Tsjernov (oe is u, sj sh, tsj ch, zj zh, j y; sj and zj are also
  // s and z before the j of я ю е: Afanasjev, Korzjoek)
  nl: [['sjtsj', ['S']], ['tsj', ['C']], ['sj', ['S', 'si']], ['zj', ['Z', 'zi']], ['oe', ['u']], ['ch', ['h']], ['ij', ['i', 'ei']], ['ie', ['i']], ['w', ['v', 'w']]],
  // what Czech, Slovak, German, Dutch and Latvian share when no letter of one of them shows: j for й and
  // the glide of я е ю (COMMON), ch for х (Michail Dedov, Jekaterina Altabajeva; ch may still be the
  // English ч of a list's spelling)
  ce: [['ch', ['h', 'C']]],
};

// The nominative endings Lithuanian and Latvian add to a name (longest first): what stays is the stem,
// after which the Russian ending (-iy, -y, -i or none) may stand.
const ENDINGS: Record<'lt' | 'lv', string[]> = { lt: ['ijus', 'ejus', 'ajus', 'ojus', 'ius', 'as', 'is', 'ys', 'us'], lv: ['ijs', 'ejs', 'ajs', 'ojs', 'is', 'us', 's', 'š'] };
const RUSSIAN_ENDING: Segment = ['', 'i', 'ii', 'e', 'a'];
// the stem kept by each ending (-ijus → -ij: Dmitrijus → Dmitrij)
const KEEP: Record<string, string> = { ijus: 'ij', ejus: 'ej', ajus: 'aj', ojus: 'oj', ijs: 'ij', ejs: 'ej', ajs: 'aj', ojs: 'oj', ius: 'i' };

/** A Slavic stem the Baltic endings are added to (Medvedev-as, Putin-as, Dmitrij-us, Chodorkovsk-is, Aleksandrovič-ius). */
const SLAVIC_STEM = /(ov|ev|jev|in|yn|ij|ej|aj|oj|sk|ck|nk|čk|ič|vič|ovič|evič|ovn|evn|ir|dr|or|eg|il|ad|im)$/;
const CONSONANT_END = /[^aeiouyąęėįųūāēīō]$/;
/** A name word with no ending to take: Lithuanian and Latvian leave a foreign name ending in a vowel as it is (Mosquera, Romanenko, Mustafa). */
const UNDECLINED = /[aeiouāēīōū]$/;

const MARKS: [LatinLanguage, RegExp][] = [
  ['cs', /[řěůďťňľĺŕô]/],
  // (ie after a consonant is Polish for the Russian е: Miedwiediew, Siergiej; German ie is a long i before a vowel-less end)
  ['pl', /[łśćźżńó]|szcz|cz|rz|[bdfgkmnprstwz]ie[bdfgklmnprstwzj]/],
  ['lv', /[āēīģķļņ]/],
  ['lt', /[ąęėįų]/],
  ['hu', /dzs|sz|zs|cs|gy|[őű]|(ty|ny)[aeiouáéíóöőúüű]/],
  ['nl', /oe|tsj|sj|zj/],
  ['de', /tsch|sch|ß|(ow|ew|jew|owitsch|ewitsch|ewna|owna)\b/],
];

/**
 * The languages a Latin-script name may be written in, by its letters or endings (most likely first):
 * Czech, Polish, Latvian, Lithuanian or Hungarian marks (sz alone is Hungarian s or Polish sh: both);
 * č š ž alone are Czech; with no marks, Baltic endings on every name word over Slavic stems
 * (Dmitrijus Medvedevas), where a word `isNameAsWritten` (a name some naming culture writes so: Jesus,
 * Rojas) shows no ending. None: the plain Latin comparison is all there is.
 */
export function detectLatinLanguages(words: string[], isNameAsWritten: (word: string) => boolean = () => false): LatinLanguage[] {
  const all = words.join(' ');
  const out: LatinLanguage[] = [];
  for (const [lang, re] of MARKS) if (re.test(all)) out.push(lang);
  // č š ž with Baltic endings on every word: Lithuanian or Latvian (Aleksandrovičius, Aleksandrovičs)
  if (!out.length && /[čšž]/.test(all)) {
    for (const lang of ['lt', 'lv'] as const) if (words.length >= 2 && words.every((w) => balticStem(w, lang) !== undefined)) out.push(lang);
    if (out.length) return out;
  }
  if (out.includes('hu') && !out.includes('pl') && /sz/.test(all) && !/(zs|cs|gy|dzs|[őű])/.test(all)) out.push('pl');
  // every name word with a Baltic ending or none to take (Lithuanian: Hasanas Saburinezhadas, Mustafa
  // Zaydanas); Latvian's -s, which English names end in too, also over a Slavic stem in one of them (Deniss Tjurins)
  const baltic = (lang: 'lt' | 'lv') => {
    if (words.length < 2 || !words.every((w) => balticStem(w, lang) !== undefined || UNDECLINED.test(w))) return false;
    // (a word some naming culture writes just so is that name, not a Baltic declension: Jesus Ponce is
    // Spanish, not Lithuanian Jes-us; Tomas Petrauskas is still Lithuanian by its surname)
    const stems = words.filter((w) => !isNameAsWritten(w)).map((w) => balticStem(w, lang)).filter((s): s is string => s !== undefined);
    return stems.length > 0 && (lang === 'lt' || stems.some((s) => SLAVIC_STEM.test(s)));
  };
  // a Baltic nominative ending on every word outweighs a letter group other languages share (Afanasjevas,
  // Sergejs Afanasjevs: sj; Dmitrijs Korzjuks: rz, zj)
  if (out.length) {
    for (const lang of ['lv', 'lt'] as const) if (!out.includes(lang) && baltic(lang)) out.unshift(lang);
    return out.slice(0, 2);
  }
  if (baltic('lt')) return ['lt'];
  if (baltic('lv')) return ['lv'];
  if (/[čšž]/.test(all)) return ['cs', 'lt'];
  return centralEuropean(words) ? ['ce'] : [];
}

/**
 * A Russian name in the spelling Czech, Slovak, German, Dutch and Latvian share, with no letter of one of
 * them: a Russian surname or patronymic ending, and a letter group no English romanisation of Russian
 * writes (j before a vowel: Jekaterina, Altabajeva, Jurij) or one it writes for another sound (ch for х:
 * Michail, Avtuchov). Plain English spellings (Mikhail Dedov, Yekaterina) are left to the Latin comparison.
 */
const RUSSIAN_NAME_END = /(ov|ev|jev|in|yn|ova|eva|jeva|ina|yna|skij|skaja|ovič|evič|ovna|evna|ovich|evich)$/;
function centralEuropean(words: string[]): boolean {
  return words.length >= 2 && words.some((w) => RUSSIAN_NAME_END.test(w) && w.length >= 5) && words.some((w) => /j[aeiou]|ch/.test(w));
}

/** The stem of a word with a Baltic nominative ending (after a consonant: Deniss → Denis, Medvedevas → Medvedev), or undefined. */
function balticStem(word: string, lang: 'lt' | 'lv'): string | undefined {
  for (const e of ENDINGS[lang]) {
    if (!word.endsWith(e) || word.length - e.length < 3) continue;
    const stem = word.slice(0, word.length - e.length) + (KEEP[e] ?? '');
    if (KEEP[e] || CONSONANT_END.test(stem)) return stem;
  }
  return undefined;
}

/** A word (lowercase, with its diacritics) in one language as segments, or undefined. */
export function latinPattern(word: string, lang: LatinLanguage): Segment[] | undefined {
  let w = word.normalize('NFC');
  let ending: Segment | undefined;
  if (lang === 'lt' || lang === 'lv') {
    const stem = balticStem(w, lang);
    if (stem) {
      w = stem;
      ending = RUSSIAN_ENDING;
    }
  }
  const rules = LANG[lang];
  const out: Segment[] = [];
  for (let i = 0; i < w.length; ) {
    const r = rules.find(([g]) => w.startsWith(g, i));
    if (r) {
      out.push(r[1]);
      i += r[0].length;
      continue;
    }
    const seg = COMMON[w[i]];
    if (!seg) return undefined;
    out.push(seg);
    i++;
  }
  if (ending) out.push(ending);
  return out.length ? out : undefined;
}
