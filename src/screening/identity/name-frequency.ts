/**
 * How rare a name is: the name-frequency model behind "an exact match on a distinctive name
 * confirms the identity" (docs/name-frequency.md). Pure functions over two inputs:
 *
 * - the name pools (./data/name-frequency.json, built from faker's locale pools by
 *   scripts/build-name-frequency.ts): for each naming culture, which given names and surnames are in
 *   its pool of common names, with a rough population;
 * - the token frequencies of the loaded lists (listNameFrequency): how many distinct listed names of
 *   each kind carry a word, which tells a recurring name element ("Muhammad", "Ali", "Kim") from a
 *   family name carried by a few relatives.
 *
 * A person's name: the expected number of people world-wide carrying it is estimated culture by
 * culture as population × the shares of its two rarest parts (independent parts), and the largest
 * culture's figure is kept. Distinctive below DISTINCTIVE_MAX_BEARERS, common from COMMON_MIN_BEARERS.
 * An organisation's name: distinctive when at least two of its words are neither legal forms,
 * joining words, generic business words nor words many listed organisations share (a registered
 * name is meant to be unique; "Trading Company" or "Global Star" is not). Vessels and aircraft are
 * never distinctive by name (their IMO or registration mark identifies them).
 */
import { readFileSync } from 'node:fs';
import type { EntitySchema, ListEntity } from '../model';
import { prepareName, type NameToken } from '../matching/prepare';

/** A name part's share of a culture when it is in its pool (at least: the pools hold common names). */
export const MIN_POOL_SHARE = 1e-3;
/** A name part in no pool of a culture, and not recurring on the lists: 1 in 100,000. */
export const TAIL_SHARE = 1e-5;
/** A word carried by this many distinct listed names of a kind recurs: a common name element, not a family's. */
export const LIST_RECURRING_MIN_NAMES = 10;
/** A recurring list word's share where no pool knows it (as a pool name). */
export const LIST_RECURRING_SHARE = MIN_POOL_SHARE;
/** Fewer expected bearers than this world-wide: distinctive. */
export const DISTINCTIVE_MAX_BEARERS = 10;
/** At least this many expected bearers in one culture: "common" there (nationality agreement is then weak evidence). */
export const COMMON_MIN_BEARERS = 100;
/**
 * Pool keys of an unvowelled (Arabic-script, Hebrew) entry are its consonant skeleton behind this prefix:
 * a romanised query part is looked up by its skeleton too (Mohammadi → ~mhmd, the key of محمدی).
 */
export const SKELETON_KEY_PREFIX = '~';
/** Words in this many distinct listed names of organisations, vessels or aircraft are generic ("international", "golden", "star"). */
export const ORG_GENERIC_MIN_NAMES = 20;

interface Pool {
  entries: number;
  coverage: number;
  counts: ReadonlyMap<string, number>;
}
export interface NameCulture {
  id: string;
  label: string;
  /** People (not millions). */
  population: number;
  countries: readonly string[];
  given: Pool;
  surname: Pool;
}
export interface NamePools {
  source: string;
  cultures: readonly NameCulture[];
  /** Every key any culture's pools know (a word no pool knows may still recur on the lists). */
  pooled: ReadonlySet<string>;
}

interface PoolData {
  entries: number;
  coverage: number;
  tokens: string;
}
interface NameFrequencyFile {
  format: number;
  source: string;
  groups: { id: string; label: string; population: number; countries: string[]; given: PoolData; surname: PoolData }[];
}

function decodePool(p: PoolData): Pool {
  const counts = new Map<string, number>();
  for (const item of p.tokens.split(' ')) {
    if (!item) continue;
    const colon = item.indexOf(':');
    counts.set(colon < 0 ? item : item.slice(0, colon), colon < 0 ? 1 : Number(item.slice(colon + 1)));
  }
  return { entries: p.entries, coverage: p.coverage, counts };
}

/** Parses the data file's text (the committed one by default). */
export function parseNamePools(text: string): NamePools {
  const file = JSON.parse(text) as NameFrequencyFile;
  if (file.format !== 1 || !Array.isArray(file.groups)) throw new Error('name-frequency data: unknown format');
  const cultures = file.groups.map((g) => ({
    id: g.id,
    label: g.label,
    population: g.population * 1e6,
    countries: g.countries,
    given: decodePool(g.given),
    surname: decodePool(g.surname),
  }));
  const pooled = new Set(cultures.flatMap((c) => [...c.given.counts.keys(), ...c.surname.counts.keys()]));
  return { source: file.source, cultures, pooled };
}

let committed: NamePools | undefined;
/** The committed pools, parsed on first use (an immutable table, like the matcher's lexicon). */
export function namePools(): NamePools {
  return (committed ??= parseNamePools(readFileSync(new URL('./data/name-frequency.json', import.meta.url), 'utf8')));
}

const givenNamesOf = new WeakMap<NamePools, ReadonlySet<string>>();
/**
 * Every given name of every culture's pool, as its Latin fold (the keys without the skeleton prefix): the
 * matcher asks whether a word is a given name people carry (compare.ts, two given names a letter apart).
 */
export function pooledGivenNames(pools: NamePools = namePools()): ReadonlySet<string> {
  let names = givenNamesOf.get(pools);
  if (!names) {
    names = new Set(pools.cultures.flatMap((c) => [...c.given.counts.keys()].filter((k) => !k.startsWith(SKELETON_KEY_PREFIX))));
    givenNamesOf.set(pools, names);
  }
  return names;
}

/** A word folded the simple way (accents and case off, letters and digits only), for the lists' token counts. */
function plainWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** How many distinct listed names of each kind carry a word (Latin-script primary names, folded plainly). */
export interface ListNameFrequency {
  persons(word: string): number;
  /** Organisations, vessels and aircraft together: the words things are named with. */
  organisations(word: string): number;
}

const listFrequencies = new WeakMap<readonly ListEntity[], ListNameFrequency>();

/**
 * The loaded lists' word frequencies, counted once per list set (the entities of an engine never
 * change). Distinct names, not entities: one person on three lists, or written in two orders, is one name.
 */
export function listNameFrequency(entities: readonly ListEntity[]): ListNameFrequency {
  const kept = listFrequencies.get(entities);
  if (kept) return kept;
  const names = { persons: new Set<string>(), organisations: new Set<string>() };
  for (const e of entities) {
    const words = plainWords(e.primaryName);
    if (words.length) names[e.schema === 'person' ? 'persons' : 'organisations'].add([...new Set(words)].sort().join(' '));
  }
  const count = (set: Set<string>) => {
    const counts = new Map<string, number>();
    for (const name of set) for (const w of name.split(' ')) counts.set(w, (counts.get(w) ?? 0) + 1);
    return counts;
  };
  const persons = count(names.persons);
  const organisations = count(names.organisations);
  const frequency: ListNameFrequency = { persons: (w) => persons.get(w) ?? 0, organisations: (w) => organisations.get(w) ?? 0 };
  listFrequencies.set(entities, frequency);
  return frequency;
}

/** No list at hand (a pair of names compared alone): every word counts as not recurring. */
export const NO_LIST_FREQUENCY: ListNameFrequency = { persons: () => 0, organisations: () => 0 };

export interface NameRarity {
  /** How the name was read. */
  reading: 'person' | 'organisation' | 'vessel_or_aircraft';
  distinctive: boolean;
  /** Persons: the expected number of people carrying the name in the culture where it is most frequent. */
  estimatedBearers?: number;
  /** Cultures where the name is common (≥ COMMON_MIN_BEARERS expected bearers), most bearers first. */
  commonIn: { culture: string; label: string; countries: readonly string[]; bearers: number }[];
  /** One sentence for the explanation: why the name is (or is not) distinctive. */
  reason: string;
}

/** A name part as the pools key it: its fold, and a Latin part also by its consonant skeleton (to meet unvowelled entries). */
interface PartKeys {
  fold: string;
  keys: readonly string[];
}
function partKeys(t: NameToken): PartKeys {
  return { fold: t.fold, keys: t.origin === 'latin' && t.skel.length >= 2 ? [t.fold, SKELETON_KEY_PREFIX + t.skel] : [t.fold] };
}

/**
 * A name part's share of one culture: its pool share when the culture's pools know it; a word no pool
 * of any culture knows but many listed names carry (a romanisation the pools lack) counts as a pool
 * name; anything else is the tail.
 */
function shareIn(culture: NameCulture, part: PartKeys, unpooledRecurring: boolean): number {
  let share = 0;
  for (const pool of [culture.given, culture.surname]) {
    for (const key of part.keys) {
      const n = pool.counts.get(key);
      if (n) share = Math.max(share, MIN_POOL_SHARE, Math.min(1, (pool.coverage * n) / pool.entries));
    }
  }
  if (share > 0) return share;
  return unpooledRecurring ? LIST_RECURRING_SHARE : TAIL_SHARE;
}

/** An estimate in words, to two significant digits ("about 13,000"). */
function rounded(n: number): string {
  if (n < 1) return 'fewer than one';
  const digits = Number(n.toPrecision(2));
  return `about ${Number.isInteger(digits) ? String(digits).replace(/\B(?=(\d{3})+$)/g, ',') : String(digits)}`;
}

/** The reason a name is common in a culture, in words ("common name: about 13,000 expected bearers among Chinese names"). */
export function commonNameReason(bearers: number, cultureLabel: string): string {
  return `common name: ${rounded(bearers)} expected bearers among ${cultureLabel} names`;
}

function personRarity(tokens: readonly NameToken[], pools: NamePools, lists: ListNameFrequency): NameRarity {
  // Name parts that can tell people apart: not initials, particles or patronymics (these repeat a father's name).
  const parts = tokens.filter((t) => t.kind === 'name' && !t.initial && !t.patronymic);
  const byFold = new Map(parts.map((t) => [t.fold, partKeys(t)]));
  const folds = [...byFold.keys()];
  // Only a part's own fold shows it pooled: a consonant skeleton shared with an unvowelled entry is a
  // guess at the part's frequency (Putin meets بطين), not a sign that its rarity is known.
  const isPooled = (fold: string) => pools.pooled.has(fold);
  if (folds.length < 2) {
    return { reading: 'person', distinctive: false, commonIn: [], reason: 'a single name part cannot tell one person from another' };
  }
  // A word many listed people carry is a common name element even where no pool knows it (list words are
  // never a culture's evidence otherwise: a Russian given name recurring on sanctions lists says nothing about India).
  const unpooledRecurring = new Set(
    parts.filter((t) => !isPooled(t.fold) && lists.persons(plainWords(t.norm).join('')) >= LIST_RECURRING_MIN_NAMES).map((t) => t.fold),
  );
  const perCulture = pools.cultures.map((culture) => {
    const shares = folds.map((f) => shareIn(culture, byFold.get(f)!, unpooledRecurring.has(f))).sort((a, b) => a - b);
    return { culture, bearers: culture.population * shares[0]! * shares[1]! };
  });
  perCulture.sort((a, b) => b.bearers - a.bearers);
  const top = perCulture[0]!;
  const commonIn = perCulture
    .filter((c) => c.bearers >= COMMON_MIN_BEARERS)
    .map((c) => ({ culture: c.culture.id, label: c.culture.label, countries: c.culture.countries, bearers: Math.round(c.bearers) }));
  // A rarity that rests only on ignorance is not evidence: when the rarest part is in no pool (its 1 in
  // 100,000 is an assumption) and another part recurs on the lists (a name element many people carry, such as
  // Mohammed or Vladimir), the flat pools cannot tell "Mohammed Al-Masri" from a rare name. Not distinctive.
  const unknownPart = folds.find((f) => !isPooled(f) && !unpooledRecurring.has(f));
  const recurringPart = parts.find((t) => t.fold !== unknownPart && lists.persons(plainWords(t.norm).join('')) >= LIST_RECURRING_MIN_NAMES);
  if (top.bearers < DISTINCTIVE_MAX_BEARERS && unknownPart !== undefined && recurringPart) {
    return {
      reading: 'person',
      distinctive: false,
      estimatedBearers: Math.round(top.bearers * 10) / 10,
      commonIn: [],
      reason: `not distinctive: "${recurringPart.norm}" is carried by ${lists.persons(plainWords(recurringPart.norm).join(''))} listed people and the rest of the name is in no name pool, so how rare it is cannot be told`,
    };
  }
  const distinctive = top.bearers < DISTINCTIVE_MAX_BEARERS;
  const reason = distinctive
    ? `distinctive name: ${rounded(top.bearers)} expected bearer(s) world-wide${top.bearers >= 1 ? ` (most among ${top.culture.label} names)` : ''}`
    : commonIn.length
      ? commonNameReason(top.bearers, top.culture.label)
      : `not distinctive: ${rounded(top.bearers)} expected bearers among ${top.culture.label} names`;
  return { reading: 'person', distinctive, estimatedBearers: Math.round(top.bearers * 10) / 10, commonIn, reason };
}

function organisationRarity(tokens: readonly NameToken[], lists: ListNameFrequency): NameRarity {
  // Content words: not legal forms, joining words or generic business words ("Bank", "Trading").
  const content = [...new Set(tokens.filter((t) => t.kind === 'name' && !t.initial && t.generic === undefined).map((t) => t.fold))];
  const specific = tokens.filter(
    (t) => t.kind === 'name' && !t.initial && t.generic === undefined && lists.organisations(plainWords(t.norm).join('')) < ORG_GENERIC_MIN_NAMES,
  );
  if (content.length >= 2 && specific.length >= 1) {
    return {
      reading: 'organisation',
      distinctive: true,
      commonIn: [],
      reason: `distinctive name: ${content.length} words besides legal forms and generic business words, "${specific[0]!.display}" among few listed organisations`,
    };
  }
  return {
    reading: 'organisation',
    distinctive: false,
    commonIn: [],
    reason:
      content.length < 2
        ? 'not distinctive: fewer than two words besides legal forms and generic business words'
        : 'not distinctive: its words are shared by many listed organisations',
  };
}

/**
 * How rare `name` is, read as the kind of entity it matched (`schema`: a listed person's schema reads
 * the name as a person's). `lists`: the loaded lists' word frequencies (listNameFrequency).
 */
export function nameRarity(name: string, schema: EntitySchema, lists: ListNameFrequency = NO_LIST_FREQUENCY, pools: NamePools = namePools()): NameRarity {
  if (schema === 'vessel' || schema === 'aircraft') {
    return { reading: 'vessel_or_aircraft', distinctive: false, commonIn: [], reason: 'a vessel or aircraft name is reused: its IMO number or registration mark identifies it' };
  }
  const prepared = prepareName(name, schema === 'unknown' ? undefined : schema);
  if (schema === 'person' || (schema === 'unknown' && !prepared.org)) return personRarity(prepared.tokens, pools, lists);
  return organisationRarity(prepared.tokens, lists);
}
