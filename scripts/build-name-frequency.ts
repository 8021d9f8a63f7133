/**
 * Builds src/screening/identity/data/name-frequency.json, the name pools the name-frequency model
 * reads (src/screening/identity/name-frequency.ts, documented in docs/name-frequency.md), from the
 * given-name and surname pools of @faker-js/faker (MIT, a devDependency: the service never loads
 * faker, it reads the committed file).
 *
 *   npx tsx scripts/build-name-frequency.ts           write the data file
 *   npx tsx scripts/build-name-frequency.ts --check   fail if the committed file is out of date
 *
 * Each naming culture ("group") unites faker locales that share one name stock, with a rough
 * population and the countries where it is the main stock. Every pool entry is prepared the way the
 * matcher prepares a query (prepareName, so Chinese, Korean, Cyrillic, Greek and Arabic entries
 * come out romanised exactly as a query in those scripts does), and each distinct token fold is
 * counted once per entry; an entry of several tokens ("민준" → min jun, "Anh Vũ") also counts its
 * tokens joined ("minjun"), the way such names are often written in Latin script. The data depends
 * on prepareName: when the matcher's folding changes, run this again (the unit test
 * test/unit/screening/name-frequency.test.ts fails until then).
 *
 * Latin readings (latin-readings.ts): a pool written in another script must also know the name as a
 * romanised query spells it, or "Ikeda Takashi" and "Farhad Mohammadi" look rare because no pool holds
 * them in Latin letters. Each entry also counts the folds of its readings: Japanese kanji read in
 * Hepburn (kuromoji's dictionary, a devDependency), Greek in its usual Latin spelling, Arabic-script
 * and Hebrew entries by their consonant skeleton (keys `~skel`, what any Latin spelling of an
 * unvowelled name shares with it), and English and Nordic patronymic surnames derived from the
 * given-name pool (Daniels, Johnson, Hansen); Persian family names in -i derived from the given names
 * and the common Arabic nisbas (family-names.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allLocales } from '@faker-js/faker';
import { derivedSurnames, entryFolds, latinReadings, type Readings } from './latin-readings';
import { familyNames, givenNames } from './family-names';

export { entryFolds };

export const DATA_FILE = fileURLToPath(new URL('../src/screening/identity/data/name-frequency.json', import.meta.url));

/** A naming culture: faker locales that share a name stock, its population (millions, rough) and countries. */
interface GroupSpec {
  id: string;
  label: string;
  locales: string[];
  population: number;
  countries: string[];
  /** Share of the group's people whose surname / given name is in the pool (see docs/name-frequency.md). */
  coverage?: { given?: number; surname?: number };
}

/**
 * Population: speakers or inhabitants in millions, to an order of magnitude (UN World Population
 * Prospects 2024 and common language statistics, rounded). Countries: ISO 3166-1 alpha-2 where this
 * stock is the main one, for "common in that country" (nationality and jurisdiction are weak evidence there).
 */
export const GROUPS: readonly GroupSpec[] = [
  { id: 'zh', label: 'Chinese', locales: ['zh_CN', 'zh_TW', 'en_HK'], population: 1420, countries: ['CN', 'TW', 'HK', 'MO', 'SG'], coverage: { surname: 0.85, given: 0.3 } },
  { id: 'ko', label: 'Korean', locales: ['ko'], population: 77, countries: ['KR', 'KP'], coverage: { surname: 0.9, given: 0.5 } },
  { id: 'ja', label: 'Japanese', locales: ['ja'], population: 124, countries: ['JP'] },
  { id: 'vi', label: 'Vietnamese', locales: ['vi'], population: 100, countries: ['VN'], coverage: { surname: 0.9, given: 0.5 } },
  { id: 'th', label: 'Thai', locales: ['th'], population: 70, countries: ['TH'] },
  { id: 'id', label: 'Indonesian', locales: ['id_ID'], population: 280, countries: ['ID'] },
  { id: 'in', label: 'Indian (Latin script)', locales: ['en_IN'], population: 1430, countries: ['IN'] },
  { id: 'ne', label: 'Nepali', locales: ['en_NP', 'ne'], population: 30, countries: ['NP'] },
  { id: 'ur', label: 'Urdu', locales: ['ur'], population: 240, countries: ['PK'] },
  { id: 'ar', label: 'Arabic', locales: ['ar'], population: 420, countries: ['SA', 'EG', 'IQ', 'SY', 'JO', 'LB', 'AE', 'YE', 'LY', 'TN', 'DZ', 'MA', 'SD', 'KW', 'QA', 'OM', 'BH', 'PS'] },
  { id: 'fa', label: 'Persian', locales: ['fa'], population: 110, countries: ['IR', 'AF', 'TJ'] },
  { id: 'ku', label: 'Kurdish', locales: ['ku_ckb', 'ku_kmr_latin'], population: 30, countries: ['IQ', 'TR', 'SY', 'IR'] },
  { id: 'he', label: 'Hebrew', locales: ['he'], population: 10, countries: ['IL'] },
  { id: 'tr', label: 'Turkish and Azerbaijani', locales: ['tr', 'az'], population: 95, countries: ['TR', 'AZ', 'CY'] },
  { id: 'uz', label: 'Uzbek', locales: ['uz_UZ_latin'], population: 36, countries: ['UZ'] },
  { id: 'ru', label: 'Russian', locales: ['ru'], population: 150, countries: ['RU', 'BY', 'KZ', 'KG'] },
  { id: 'uk', label: 'Ukrainian', locales: ['uk'], population: 38, countries: ['UA'] },
  { id: 'pl', label: 'Polish', locales: ['pl'], population: 40, countries: ['PL'] },
  { id: 'cs', label: 'Czech and Slovak', locales: ['cs_CZ', 'sk'], population: 16, countries: ['CZ', 'SK'] },
  { id: 'hu', label: 'Hungarian', locales: ['hu'], population: 10, countries: ['HU'] },
  { id: 'ro', label: 'Romanian', locales: ['ro', 'ro_MD'], population: 22, countries: ['RO', 'MD'] },
  { id: 'sh', label: 'South Slavic', locales: ['hr', 'sr_RS_latin', 'mk', 'sl_SI'], population: 16, countries: ['HR', 'RS', 'BA', 'ME', 'MK', 'SI'] },
  { id: 'el', label: 'Greek', locales: ['el'], population: 13, countries: ['GR', 'CY'] },
  { id: 'ka', label: 'Georgian and Armenian', locales: ['ka_GE', 'hy'], population: 7, countries: ['GE', 'AM'] },
  { id: 'es', label: 'Spanish', locales: ['es', 'es_MX'], population: 480, countries: ['ES', 'MX', 'CO', 'AR', 'PE', 'VE', 'CL', 'EC', 'GT', 'CU', 'BO', 'DO', 'HN', 'PY', 'SV', 'NI', 'CR', 'PA', 'UY'] },
  { id: 'pt', label: 'Portuguese', locales: ['pt_BR', 'pt_PT'], population: 260, countries: ['BR', 'PT', 'AO', 'MZ'] },
  { id: 'it', label: 'Italian', locales: ['it'], population: 60, countries: ['IT', 'SM'] },
  { id: 'fr', label: 'French', locales: ['fr', 'fr_BE', 'fr_CH'], population: 100, countries: ['FR', 'BE', 'CH', 'LU', 'MC'] },
  { id: 'de', label: 'German', locales: ['de', 'de_AT', 'de_CH'], population: 100, countries: ['DE', 'AT', 'CH', 'LI'] },
  { id: 'nl', label: 'Dutch', locales: ['nl', 'nl_BE'], population: 25, countries: ['NL', 'BE'] },
  { id: 'nordic', label: 'Nordic', locales: ['sv', 'nb_NO', 'da', 'fi'], population: 27, countries: ['SE', 'NO', 'DK', 'FI'] },
  { id: 'en', label: 'English', locales: ['en', 'en_AU', 'en_ZA'], population: 400, countries: ['US', 'GB', 'AU', 'CA', 'IE', 'NZ'] },
  { id: 'ng', label: 'Nigerian', locales: ['en_NG', 'yo_NG'], population: 220, countries: ['NG'] },
  { id: 'gh', label: 'Ghanaian', locales: ['en_GH'], population: 34, countries: ['GH'] },
  { id: 'sn', label: 'Senegalese', locales: ['fr_SN'], population: 18, countries: ['SN'] },
  { id: 'za', label: 'South African (Zulu, Afrikaans)', locales: ['zu_ZA', 'af_ZA'], population: 40, countries: ['ZA'] },
];

export const DEFAULT_COVERAGE = 0.5;

type Pools = { first_name?: Record<string, string[]> | string[]; last_name?: Record<string, string[]> | string[] };

function poolOf(value: Pools['first_name']): string[] {
  if (!value) return [];
  return Array.isArray(value) ? value : Object.values(value).flat();
}

/**
 * fold → number of entries, written `fold` (1) or `fold:n`, sorted: compact and stable. An entry counts
 * once for every fold of itself and of its Latin readings (keys of `readings`).
 */
function encodePool(group: string, entries: Iterable<string>, readings: Readings): { entries: number; tokens: string } {
  const counts = new Map<string, number>();
  let n = 0;
  for (const entry of new Set(entries)) {
    const own = entryFolds(entry);
    if (own.length === 0) continue;
    n++;
    const folds = new Set([...own, ...readings.keysOf(group, entry)]);
    for (const f of folds) counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  const tokens = [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([f, c]) => (c === 1 ? f : `${f}:${c}`))
    .join(' ');
  return { entries: n, tokens };
}

export async function buildNameFrequencyData(): Promise<string> {
  const readings = await latinReadings();
  const locales = allLocales as unknown as Record<string, { person?: Pools }>;
  const version = (JSON.parse(readFileSync(new URL('../node_modules/@faker-js/faker/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const groups = GROUPS.map((g) => {
    const given: string[] = [];
    const maleGiven: string[] = [];
    const surname: string[] = [];
    for (const id of g.locales) {
      const person = locales[id]?.person;
      if (!person) throw new Error(`faker has no locale ${id} with person names`);
      given.push(...poolOf(person.first_name));
      if (person.first_name && !Array.isArray(person.first_name)) maleGiven.push(...(person.first_name.male ?? []));
      surname.push(...poolOf(person.last_name));
    }
    given.push(...givenNames(g.id));
    surname.push(...derivedSurnames(g.id, maleGiven, surname), ...familyNames(g.id, given, poolOf(locales.ar?.person?.first_name)));
    return {
      id: g.id,
      label: g.label,
      locales: g.locales,
      population: g.population,
      countries: g.countries,
      given: { coverage: g.coverage?.given ?? DEFAULT_COVERAGE, ...encodePool(g.id, given, readings) },
      surname: { coverage: g.coverage?.surname ?? DEFAULT_COVERAGE, ...encodePool(g.id, surname, readings) },
    };
  });
  const data = {
    format: 1,
    generatedBy: 'scripts/build-name-frequency.ts',
    source: `@faker-js/faker ${version} (MIT): person.first_name and person.last_name pools, prepared by the matcher's prepareName; Latin readings: ${readings.source}`,
    groups,
  };
  return `${JSON.stringify(data, null, 1)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await buildNameFrequencyData();
  if (process.argv.includes('--check')) {
    const current = readFileSync(DATA_FILE, 'utf8');
    if (current !== text) {
      process.stderr.write(`${DATA_FILE} is out of date: run npx tsx scripts/build-name-frequency.ts\n`);
      process.exit(1);
    }
    process.stdout.write('name-frequency.json is up to date\n');
  } else {
    writeFileSync(DATA_FILE, text);
    const parsed = JSON.parse(text) as { groups: { id: string; given: { entries: number }; surname: { entries: number } }[] };
    for (const g of parsed.groups) process.stdout.write(`${g.id.padEnd(7)} given ${String(g.given.entries).padStart(5)}  surname ${String(g.surname.entries).padStart(5)}\n`);
    process.stdout.write(`wrote ${DATA_FILE} (${text.length} bytes)\n`);
  }
}
