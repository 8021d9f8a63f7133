/**
 * Issue 32's development set: sanctioned people from the bundled lists, each written in the scripts and
 * language forms a writer of that language would use (write.ts), split into a tuning and a held-back half
 * by person. `npx tsx bench/screening/foreign/devset.ts [--data DIR]` writes dev-sets/foreign/devset.tsv
 * (committed, so the bench and a reader see fixed rows); bench/screening/foreign/run.ts measures it.
 *
 * People: persons on a sanctions list of the bundled lists whose listed name ("SURNAME, Given
 * [Patronymic]", OFAC style) has a given name of one of four origins (lists below, written here) and a
 * one-word surname: Russian (and Ukrainian/Belarusian Russian-spelt) names with a Russian surname
 * ending, Arabic, Persian and Spanish/Latin-American names. Chosen by a seeded shuffle, one person per
 * surname, at most 40 Russian and 8 of each other origin. Nobody is looked up anywhere: the listed
 * spelling is all each writer starts from.
 *
 * Forms: Korean, Japanese, Chinese, Greek, Persian, Hebrew, Thai, Burmese, Georgian (every person);
 * Lithuanian (every person); Latvian, Polish, Czech, Hungarian, German, Dutch, Ukrainian and Belarusian
 * Cyrillic, and initials (Russian names). A title in the form's language is added to one query in six
 * (before the name, or after it where the language writes it there).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dataDirArg, rng } from '../devsets';
import * as W from './write';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEVSET_FILE = path.join(here, '../dev-sets/foreign/devset.tsv');

export type Origin = 'russian' | 'arabic' | 'persian' | 'western';
export const SCRIPT_FORMS = ['ko', 'ja', 'zh', 'el', 'fa', 'he', 'th', 'my', 'ka'] as const;
export const LATIN_FORMS = ['lt', 'lv', 'pl', 'cs', 'hu', 'de', 'nl'] as const;
export const CYRILLIC_FORMS = ['uk', 'be'] as const;
export type Form = (typeof SCRIPT_FORMS)[number] | (typeof LATIN_FORMS)[number] | (typeof CYRILLIC_FORMS)[number] | 'initials';
export const FORMS: Form[] = [...SCRIPT_FORMS, ...LATIN_FORMS, ...CYRILLIC_FORMS, 'initials'];

export interface Person {
  entityId: string;
  listed: string;
  origin: Origin;
  surname: string;
  given: string;
  patronymic?: string;
}

export interface ForeignCase {
  entityId: string;
  listed: string;
  origin: Origin;
  form: Form;
  query: string;
  half: 'tuning' | 'held_back';
}

const RUSSIAN_GIVEN = new Set(
  (
    'aleksandr alexander aleksey alexey aleksei alexei anatoly anatoliy andrey andrei anton arkady arkadiy artem boris denis dmitry dmitriy ' +
    'evgeny evgeniy yevgeny yevgeniy gennady gennadiy georgy georgiy grigory grigoriy igor ilya ivan kirill konstantin leonid maksim maxim ' +
    'mikhail nikolay nikolai oleg pavel petr pyotr roman ruslan sergey sergei stanislav valery valeriy vasily vasiliy viktor vitaly vitaliy ' +
    'vladimir vladislav vyacheslav yury yuriy yuri vadim anna elena yelena irina natalia natalya olga svetlana tatiana tatyana mariya maria ' +
    'ekaterina yekaterina lyudmila valentina galina'
  ).split(' '),
);
const ARABIC_GIVEN = new Set(
  'muhammad mohammed mohammad ahmad ahmed ali hasan hassan husayn hussein umar omar khalid yusuf ibrahim abdallah abdullah hamza said jamal nasir tariq salim mahmud mustafa walid faisal'.split(' '),
);
const PERSIAN_GIVEN = new Set('mohammad hossein hosein ali reza mehdi qasem ghasem morteza majid hamid mahmoud mohsen saeed esmail ebrahim abbas javad masoud parviz'.split(' '));
const WESTERN_GIVEN = new Set('jose juan carlos luis jorge miguel francisco pedro manuel rafael fernando ricardo alejandro roberto eduardo diego pablo victor mario oscar'.split(' '));
const RUSSIAN_SURNAME = /^[A-Z]+(OV|EV|YEV|IN|YN|SKIY|SKY|SKIKH|ENKO|OVA|EVA|INA|SKAYA|UK|YUK|ICH)$/;
const PATRONYMIC = /(OVICH|EVICH|YEVICH|OVNA|EVNA|YEVNA|ICH|ICHNA)$/i;

interface EntityLike {
  id: string;
  schema: string;
  topics: string[];
  primaryName: string;
  programs?: string[];
}

/** The people of the set, from the loaded entities (deterministic for one list set). */
export function selectPeople(entities: readonly EntityLike[], seed = 32): Person[] {
  const byOrigin: Record<Origin, Person[]> = { russian: [], arabic: [], persian: [], western: [] };
  for (const e of entities) {
    if (e.schema !== 'person' || !e.topics.includes('sanctions')) continue;
    const m = /^([A-Z'-]+), ([A-Za-z'-]+)(?: ([A-Za-z'-]+))?$/.exec(e.primaryName.trim());
    if (!m) continue;
    const [, sur, given, third] = m;
    const g = given.toLowerCase();
    const programs = (e.programs ?? []).join(' ');
    let origin: Origin | undefined;
    if (RUSSIAN_GIVEN.has(g) && RUSSIAN_SURNAME.test(sur) && (!third || PATRONYMIC.test(third))) origin = 'russian';
    else if (!third && PERSIAN_GIVEN.has(g) && /IRAN|IRGC|IFSR|NPWMD/.test(programs)) origin = 'persian';
    else if (!third && ARABIC_GIVEN.has(g) && /SDGT|SYRIA|IRAQ|LEBANON|YEMEN|LIBYA/.test(programs)) origin = 'arabic';
    else if (WESTERN_GIVEN.has(g) && /SDNTK|SDNT|VENEZUELA|CUBA|ILLICIT|TCO/.test(programs)) origin = 'western';
    if (!origin) continue;
    byOrigin[origin].push({ entityId: e.id, listed: e.primaryName, origin, surname: sur, given, ...(origin === 'russian' && third ? { patronymic: third } : {}) });
  }
  const out: Person[] = [];
  const quota: Record<Origin, number> = { russian: 40, arabic: 8, persian: 8, western: 8 };
  const r = rng(seed);
  for (const origin of Object.keys(byOrigin) as Origin[]) {
    const list = byOrigin[origin].sort((a, b) => a.entityId.localeCompare(b.entityId));
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    const seen = new Set<string>();
    for (const p of list) {
      if (seen.size >= quota[origin]) break;
      if (seen.has(p.surname)) continue;
      seen.add(p.surname);
      out.push(p);
    }
  }
  return out;
}

// ---------- titles a writer puts with a name (from src/screening/matching/data/titles.tsv's words)
const TITLES: Partial<Record<Form, { words: string[]; after?: boolean; attached?: boolean }>> = {
  ko: { words: ['대통령', '장관', '장군'], after: true },
  ja: { words: ['大統領', '大臣', '将軍'], after: true, attached: true },
  zh: { words: ['总统', '部长', '将军'], after: true, attached: true },
  el: { words: ['Πρόεδρος', 'Στρατηγός', 'Υπουργός'] },
  fa: { words: ['رئیس‌جمهور', 'وزیر', 'سردار'] },
  he: { words: ['הנשיא', 'השר', 'גנרל'] },
  th: { words: ['ประธานาธิบดี', 'รัฐมนตรี', 'พลเอก'] },
  my: { words: ['သမ္မတ', 'ဝန်ကြီး', 'ဗိုလ်ချုပ်'] },
  ka: { words: ['პრეზიდენტი', 'მინისტრი', 'გენერალი'] },
  lt: { words: ['prezidentas', 'ministras', 'generolas'] },
  lv: { words: ['prezidents', 'ministrs', 'ģenerālis'] },
  pl: { words: ['prezydent', 'minister', 'generał'] },
  cs: { words: ['prezident', 'ministr', 'generál'] },
  hu: { words: ['elnök', 'miniszter', 'tábornok'], after: true },
  de: { words: ['Präsident', 'Minister', 'General'] },
  nl: { words: ['president', 'minister', 'generaal'] },
  uk: { words: ['президент', 'міністр', 'генерал'] },
  be: { words: ['прэзідэнт', 'міністр', 'генерал'] },
};

const SEPARATOR: Partial<Record<Form, string>> = { ja: '・', zh: '·' };

/** One person's name written in one form (undefined: the form does not apply to the person's origin). */
export function writeName(p: Person, form: Form, r: () => number): string | undefined {
  const russian = p.origin === 'russian';
  const withPatronymic = russian && p.patronymic && r() < 0.35;
  const parts = [p.given, ...(withPatronymic ? [p.patronymic!] : []), p.surname].map((w) => w.toLowerCase());
  if (form === 'initials') {
    // "Д. А. Медведев", "Medvedev D.A.", "MEDVEDEV, D. A.": initials of the given name and patronymic, in either order
    if (!russian) return undefined;
    const cyrillic = r() < 0.5;
    const spell = (w: string) => (cyrillic ? W.russianToCyrillic(w.toLowerCase()) : w.toLowerCase());
    const letters = [p.given, ...(p.patronymic ? [p.patronymic] : [])].map((w) => `${spell(w)[0].toUpperCase()}.`);
    const surname = W.cap(spell(p.surname));
    const style = Math.floor(r() * 3);
    return style === 0 ? `${letters.join(' ')} ${surname}` : style === 1 ? `${surname} ${letters.join('')}` : `${surname}, ${letters.join(' ')}`;
  }
  if ((LATIN_FORMS as readonly string[]).includes(form) || (CYRILLIC_FORMS as readonly string[]).includes(form)) {
    if (!russian && form !== 'lt') return undefined;
    let words: string[];
    if (form === 'uk') words = parts.map(W.russianToCyrillic).map(W.writeUkrainian);
    else if (form === 'be') words = parts.map(W.russianToCyrillic).map((w) => W.writeBelarusian(w, r));
    else if (russian) words = parts.map((w) => W.cap(W.writeLatinLanguage(W.russianToCyrillic(w), form, r)));
    else words = parts.map((w) => W.cap(/[^aeiouy]$/.test(w) ? `${w}as` : w)); // Lithuanian -as on any name ending in a consonant
    if (form === 'hu') words = [words[words.length - 1], ...words.slice(0, -1)]; // Hungarian: family name first
    return withTitle(words.join(' '), form, r);
  }
  // scripts: from sounds
  const sounds = parts.map((w) => (russian ? W.cyrillicSounds(W.russianToCyrillic(w)) : W.latinSounds(w)));
  const write: Record<(typeof SCRIPT_FORMS)[number], (s: W.Sound[]) => string> = {
    ko: (s) => W.writeKorean(s, r),
    ja: (s) => W.writeJapanese(s, r),
    zh: (s) => W.writeChinese(s, r),
    el: (s) => W.writeGreek(s, r),
    fa: (s) => W.writePersian(s, r),
    he: (s) => W.writeHebrew(s, r),
    th: (s) => W.writeThai(s, r),
    my: (s) => W.writeBurmese(s),
    ka: (s) => W.writeGeorgian(s),
  };
  const words = sounds.map(write[form as (typeof SCRIPT_FORMS)[number]]);
  return withTitle(words.join(SEPARATOR[form] ?? ' '), form, r);
}

function withTitle(name: string, form: Form, r: () => number): string {
  const t = TITLES[form];
  if (!t || r() >= 1 / 6) return name;
  const word = t.words[Math.floor(r() * t.words.length)];
  if (t.after) return t.attached ? `${name}${word}` : `${name} ${word}`;
  return `${word} ${name}`;
}

/** Every person in every form that applies, halves by person (seeded). */
export function buildCases(people: Person[], seed = 3232): ForeignCase[] {
  const r = rng(seed);
  const order = people.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const half = new Map(order.map((pi, k) => [people[pi].entityId, k % 2 === 0 ? 'tuning' : 'held_back'] as const));
  const out: ForeignCase[] = [];
  for (const p of people) {
    for (const form of FORMS) {
      const query = writeName(p, form, r);
      if (query) out.push({ entityId: p.entityId, listed: p.listed, origin: p.origin, form, query, half: half.get(p.entityId)! });
    }
  }
  return out;
}

export function readCases(file = DEVSET_FILE): ForeignCase[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [entityId, listed, origin, form, query, half] = l.split('\t');
      return { entityId, listed, origin: origin as Origin, form: form as Form, query, half: half as ForeignCase['half'] };
    });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const data = dataDirArg(args);
  const lists = await import(pathToFileURL(path.join(here, '../../../src/screening/lists/index.ts')).href);
  const loaded = await lists.loadAllLists({ lists: lists.listsFromRoot(data, { includeOptIn: true }) }, { progressBar: false });
  const people = selectPeople(loaded.entities);
  const cases = buildCases(people);
  mkdirSync(path.dirname(DEVSET_FILE), { recursive: true });
  writeFileSync(DEVSET_FILE, ['entity\tlisted\torigin\tform\tquery\thalf', ...cases.map((c) => [c.entityId, c.listed, c.origin, c.form, c.query, c.half].join('\t'))].join('\n') + '\n');
  const count = (o: string) => people.filter((p) => p.origin === o).length;
  console.log(`${people.length} people (russian ${count('russian')}, arabic ${count('arabic')}, persian ${count('persian')}, western ${count('western')}), ${cases.length} queries → ${path.relative(process.cwd(), DEVSET_FILE)}`);
}
