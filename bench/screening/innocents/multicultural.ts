/**
 * The multicultural innocents set (issue 27, "Your own evidence"): synthetic people from 13 naming
 * cultures, each written once, either in the culture's own script or romanised, with a random date of
 * birth. Deterministic (seeded): the same call gives the same people on every machine.
 *
 * Pools: @faker-js/faker's locale lists (MIT) and the hand-written pools of pools.ts. Faker's lists
 * carry no frequencies, so each pool is ordered with its culture's common names first (pools.ts) and a
 * name is drawn with a Zipf weight by rank: "Wang Wei" and "Kim Min-jun" come up far more often than a
 * rare name, as in a real customer book.
 *
 * Split: person i is in the tuning half when i is even, in the held-back half when i is odd (the
 * people are drawn independently, so both halves have the same make-up). Rules are tuned on the
 * tuning half only; the held-back half is only reported.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allLocales } from '@faker-js/faker';
import anyAscii from 'any-ascii';
import { rng } from '../devsets';
import * as P from './pools';

export type Culture =
  | 'chinese'
  | 'korean'
  | 'japanese'
  | 'russian'
  | 'persian'
  | 'arabic'
  | 'hebrew'
  | 'greek'
  | 'turkish'
  | 'vietnamese'
  | 'hispanic'
  | 'indian'
  | 'english';

export const CULTURES: Culture[] = ['chinese', 'korean', 'japanese', 'russian', 'persian', 'arabic', 'hebrew', 'greek', 'turkish', 'vietnamese', 'hispanic', 'indian', 'english'];

export interface Innocent {
  id: number;
  culture: Culture;
  /** native: the culture's own script (or its own diacritics for Latin-script cultures); roman: romanised. */
  form: 'native' | 'roman';
  name: string;
  /** YYYY-MM-DD, 1940–2005. */
  birthDate: string;
  half: 'tuning' | 'held_back';
}

type Rand = () => number;

/** A pool drawn with a Zipf weight by rank (rank 0 most common). */
export class Pool {
  private readonly cum: number[] = [];
  constructor(readonly names: string[], exponent = 1) {
    let acc = 0;
    names.forEach((_, r) => this.cum.push((acc += 1 / (r + 1) ** exponent)));
  }
  static weighted(entries: [string, number][]): Pool {
    const p = new Pool([]);
    let acc = 0;
    for (const [n, w] of entries) {
      p.names.push(n);
      p.cum.push((acc += w));
    }
    return p;
  }
  pick(rand: Rand): string {
    const x = rand() * this.cum[this.cum.length - 1];
    let lo = 0;
    let hi = this.cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return this.names[lo];
  }
}

/** head first (in its order), then the rest of `more` in a seeded order, without repeats. */
function ranked(head: string[], more: string[], seed: number): Pool {
  const rand = rng(seed);
  const rest = [...new Set(more)].filter((n) => !head.includes(n));
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return new Pool([...head, ...rest]);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const faker = (locale: string): any => (allLocales as Record<string, any>)[locale].person;
const values = (x: unknown): string[] => (Array.isArray(x) ? x : Object.values(x as Record<string, string[]>).flat());

const here = path.dirname(fileURLToPath(import.meta.url));
/** A pool of bench/data (name,per_100k rows), drawn by its frequencies. */
export function usPool(file: string): Pool {
  const rows = readFileSync(path.join(here, '../../data', file), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  return Pool.weighted(rows.map((r) => [r[0], Number(r[1])]));
}

// ---------- romanisers written for this set (independent of the matcher's own transliteration)
const RU_LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o',
  п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};
function romaniseRussian(s: string): string {
  return s.replace(/[А-яЁё]/g, (ch) => {
    const low = ch.toLowerCase();
    const r = RU_LATIN[low] ?? low;
    return ch === low ? r : r.charAt(0).toUpperCase() + r.slice(1);
  });
}
const EL_PAIRS: [RegExp, string][] = [
  [/ου/g, 'ou'], [/αι/g, 'ai'], [/ει/g, 'ei'], [/οι/g, 'oi'], [/μπ/g, 'b'], [/ντ/g, 'nt'], [/γγ/g, 'ng'], [/γκ/g, 'gk'],
];
const EL_ONE: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n', ξ: 'x', ο: 'o', π: 'p',
  ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};
function romaniseGreek(word: string): string {
  let s = word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  for (const [re, r] of EL_PAIRS) s = s.replace(re, r);
  s = [...s].map((c) => EL_ONE[c] ?? c).join('');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
const stripMarks = (s: string) => s.replace(/ı/g, 'i').replace(/İ/g, 'I').replace(/đ/g, 'd').replace(/Đ/g, 'D').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
/** Pinyin of Han characters, one syllable per character (any-ascii's reading). */
const pinyin = (han: string) => [...han].map((c) => anyAscii(c).toLowerCase());

/** The patronymic of a Russian male given name (simplified: -ович/-евич, -овна/-евна). */
function patronymic(father: string, female: boolean): string {
  const stem = father.replace(/[йь]$/, '');
  const soft = /[йь]$/.test(father) || /[жшчщц]$/.test(father);
  if (/[ая]$/.test(father)) return stem.slice(0, -1) + (female ? 'ична' : 'ич');
  return stem + (soft ? (female ? 'евна' : 'евич') : female ? 'овна' : 'ович');
}

interface Pools {
  zhSur: Pool; zhGiven: Pool; koSur: Pool; koGiven: Pool; jaSur: Pool; jaGiven: Pool;
  ruSurM: Pool; ruMale: Pool; ruFemale: Pool; faSur: Pool; faGiven: Pool; faSurR: Pool; faGivenR: Pool;
  arSur: Pool; arGiven: Pool; arMale: Pool; arSurR: Pool; arGivenR: Pool; arMaleR: Pool;
  heSur: Pool; heGiven: Pool; heSurR: Pool; heGivenR: Pool; elSur: Pool; elGiven: Pool; trSur: Pool; trGiven: Pool;
  viSur: Pool; viGiven: Pool; esSur: Pool; esGiven: Pool; inSur: Pool; inGiven: Pool; usGiven: Pool; usSur: Pool;
}

function pools(): Pools {
  const zh = faker('zh_CN');
  const ko = faker('ko');
  const ru = faker('ru');
  const fa = faker('fa');
  const ar = faker('ar');
  const he = faker('he');
  const el = faker('el');
  const tr = faker('tr');
  const vi = faker('vi');
  const es = faker('es_MX');
  const en = faker('en_IN');
  return {
    zhSur: ranked(P.ZH_SURNAME_HEAD, values(zh.last_name), 1),
    zhGiven: ranked(P.ZH_GIVEN_HEAD, values(zh.first_name), 2),
    koSur: ranked(P.KO_SURNAME_HEAD, values(ko.last_name), 3),
    koGiven: ranked(P.KO_GIVEN_HEAD, values(ko.first_name), 4),
    jaSur: new Pool(P.JA_SURNAMES.map((x) => x.join('|')), 0.8),
    jaGiven: new Pool(P.JA_GIVEN.map((x) => x.join('|')), 0.6),
    ruSurM: ranked(P.RU_SURNAME_HEAD, ru.last_name.male, 5),
    ruMale: ranked(P.RU_MALE_HEAD, ru.first_name.male, 6),
    ruFemale: ranked(P.RU_FEMALE_HEAD, ru.first_name.female, 7),
    faSur: ranked(P.FA_SURNAME_HEAD, values(fa.last_name), 8),
    faGiven: ranked(P.FA_GIVEN_HEAD, values(fa.first_name), 9),
    faSurR: new Pool(P.FA_SURNAMES_ROMAN, 0.8),
    faGivenR: new Pool(P.FA_GIVEN_ROMAN, 0.8),
    arSur: ranked(P.AR_SURNAME_HEAD, values(ar.last_name), 10),
    arGiven: ranked(P.AR_GIVEN_HEAD, values(ar.first_name), 11),
    arMale: ranked(P.AR_GIVEN_HEAD.slice(0, 12), ar.first_name.male, 12),
    arSurR: new Pool(P.AR_SURNAMES_ROMAN, 0.8),
    arGivenR: new Pool(P.AR_GIVEN_ROMAN, 0.8),
    arMaleR: new Pool(P.AR_MALE_ROMAN, 0.8),
    heSur: ranked(P.HE_SURNAME_HEAD, values(he.last_name), 13),
    heGiven: ranked([], values(he.first_name), 14),
    heSurR: new Pool(P.HE_SURNAMES_ROMAN, 0.8),
    heGivenR: new Pool(P.HE_GIVEN_ROMAN, 0.6),
    elSur: ranked(P.EL_SURNAME_HEAD, values(el.last_name), 15),
    elGiven: ranked(P.EL_GIVEN_HEAD, values(el.first_name), 16),
    trSur: ranked(P.TR_SURNAME_HEAD, values(tr.last_name), 17),
    trGiven: ranked(P.TR_GIVEN_HEAD, values(tr.first_name), 18),
    viSur: Pool.weighted(P.VI_SURNAMES),
    viGiven: ranked([], values(vi.first_name), 19),
    esSur: ranked(P.ES_SURNAME_HEAD, values(es.last_name), 20),
    esGiven: ranked(P.ES_GIVEN_HEAD, values(es.first_name), 21),
    inSur: ranked(P.IN_SURNAME_HEAD, values(en.last_name), 22),
    inGiven: ranked(P.IN_GIVEN_HEAD, values(en.first_name), 23),
    usGiven: usPool('us_given_names.csv'),
    usSur: usPool('us_surnames.csv'),
  };
}

/** One person's name in one culture and form. */
function personName(c: Culture, form: 'native' | 'roman', p: Pools, r: Rand): string {
  const native = form === 'native';
  switch (c) {
    case 'chinese': {
      const s = p.zhSur.pick(r);
      const g = p.zhGiven.pick(r);
      if (native) return s + g;
      const given = pinyin(g).join('');
      // pinyin surname first (mainland), or the given name first (as abroad)
      return r() < 0.7 ? `${cap(pinyin(s).join(''))} ${cap(given)}` : `${cap(given)} ${cap(pinyin(s).join(''))}`;
    }
    case 'korean': {
      const s = p.koSur.pick(r);
      const g = p.koGiven.pick(r);
      if (native) return s + g;
      const sur = P.KO_SURNAME_ROMAN[s] ?? [cap(anyAscii(s))];
      const syl = [...g].map((ch) => anyAscii(ch).toLowerCase());
      const given = r() < 0.5 ? cap(syl.join('-')) : r() < 0.7 ? cap(syl.join('')) : syl.map(cap).join(' ');
      return `${sur[Math.floor(r() * sur.length)]} ${given}`;
    }
    case 'japanese': {
      const [sk, sr] = p.jaSur.pick(r).split('|');
      const [gk, gr] = p.jaGiven.pick(r).split('|');
      if (native) return r() < 0.5 ? sk + gk : `${sk} ${gk}`;
      return r() < 0.5 ? `${gr} ${sr}` : `${sr} ${gr}`;
    }
    case 'russian': {
      const female = r() < 0.5;
      const given = female ? p.ruFemale.pick(r) : p.ruMale.pick(r);
      const male = p.ruSurM.pick(r);
      const sur = female ? (/(ов|ев|ин|ын)$/.test(male) ? `${male}а` : male.replace(/ий$/, 'ая')) : male;
      const pat = r() < 0.4 ? ` ${patronymic(p.ruMale.pick(r), female)}` : '';
      const name = r() < 0.3 ? `${sur} ${given}${pat}` : `${given}${pat} ${sur}`;
      return native ? name : romaniseRussian(name);
    }
    case 'persian':
      return native ? `${p.faGiven.pick(r)} ${p.faSur.pick(r)}` : `${p.faGivenR.pick(r)} ${p.faSurR.pick(r)}`;
    case 'arabic': {
      // a given name, often the father's name, then the family name; some with "bin"
      const chain = r() < 0.35;
      if (native) {
        const father = chain ? ` ${r() < 0.3 ? 'بن ' : ''}${p.arMale.pick(r)}` : '';
        return `${p.arGiven.pick(r)}${father} ${p.arSur.pick(r)}`;
      }
      const father = chain ? ` ${r() < 0.3 ? 'bin ' : ''}${p.arMaleR.pick(r)}` : '';
      return `${p.arGivenR.pick(r)}${father} ${p.arSurR.pick(r)}`;
    }
    case 'hebrew':
      return native ? `${p.heGiven.pick(r)} ${p.heSur.pick(r)}` : `${p.heGivenR.pick(r)} ${p.heSurR.pick(r)}`;
    case 'greek': {
      const g = p.elGiven.pick(r);
      const s = p.elSur.pick(r);
      return native ? `${g} ${s}` : `${romaniseGreek(g)} ${romaniseGreek(s)}`;
    }
    case 'turkish': {
      const second = r() < 0.2 ? ` ${p.trGiven.pick(r)}` : '';
      const name = `${p.trGiven.pick(r)}${second} ${p.trSur.pick(r)}`;
      return native ? name : stripMarks(name);
    }
    case 'vietnamese': {
      const given = p.viGiven.pick(r);
      const middle = given.includes(' ') ? '' : `${P.VI_MIDDLE[Math.floor(r() * P.VI_MIDDLE.length)]} `;
      const name = `${p.viSur.pick(r)} ${middle}${given}`;
      return native ? name : stripMarks(name);
    }
    case 'hispanic': {
      const second = r() < 0.25 ? ` ${p.esGiven.pick(r)}` : '';
      const sur2 = r() < 0.5 ? ` ${p.esSur.pick(r)}` : '';
      const name = `${p.esGiven.pick(r)}${second} ${p.esSur.pick(r)}${sur2}`;
      return native ? name : stripMarks(name);
    }
    case 'indian':
      return `${p.inGiven.pick(r)} ${p.inSur.pick(r)}`;
    case 'english': {
      const middle = r() < 0.25 ? ` ${String.fromCharCode(65 + Math.floor(r() * 26))}.` : r() < 0.1 ? ` ${p.usGiven.pick(r)}` : '';
      return `${p.usGiven.pick(r)}${middle} ${p.usSur.pick(r)}`;
    }
  }
}

/** Cultures written only in the Latin script in this set (their "native" form keeps the diacritics). */
const LATIN_ONLY: Culture[] = ['indian', 'english'];

function birthDate(r: Rand): string {
  const y = 1940 + Math.floor(r() * 66);
  const m = 1 + Math.floor(r() * 12);
  const d = 1 + Math.floor(r() * 28);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `perCulture` people of each culture (13 cultures), interleaved, half native and half romanised. */
export function multiculturalInnocents(perCulture = 1600, seed = 2027): Innocent[] {
  const p = pools();
  const r = rng(seed);
  const out: Innocent[] = [];
  for (let k = 0; k < perCulture; k++) {
    for (const culture of CULTURES) {
      const form = LATIN_ONLY.includes(culture) ? 'roman' : r() < 0.5 ? 'native' : 'roman';
      const id = out.length;
      out.push({ id, culture, form, name: personName(culture, form, p, r), birthDate: birthDate(r), half: id % 2 === 0 ? 'tuning' : 'held_back' });
    }
  }
  return out;
}

// `npx tsx bench/screening/innocents/multicultural.ts [n]`: print a sample
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const people = multiculturalInnocents();
  const n = Number(process.argv[2] ?? 40);
  for (const x of people.slice(0, n)) console.log(`${x.id}\t${x.culture}\t${x.form}\t${x.half}\t${x.birthDate}\t${x.name}`);
  console.log(`${people.length} people`);
}
