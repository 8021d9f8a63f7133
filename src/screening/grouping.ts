/**
 * One hit per real-world entity: groups the matches of one query that are the same listed entity
 * seen in several files (an SDN row, the same designation inside the CSL and the Enhanced XML, a UN
 * entry another list repeats), and merges what those rows say about it.
 *
 * Pure: no I/O, no clock. Two rows are the same entity when
 *  1. they share an identifier the issuers assign to one entity only: the OFAC ent_num (SDN/non-SDN
 *     CSV, Enhanced XML identity, CSL rows that come from Treasury lists), a UN reference number
 *     (UN list, or quoted in another list's remarks), or a passport, national id, IMO, registration,
 *     LEI, tax id or SWIFT/BIC number; or
 *  2. no identifier links them, but they carry the same normalised primary name and agree on a date
 *     of birth or a nationality/country, with no conflicting date of birth.
 * Rows of different kinds (a person and a company) are never merged.
 */
import { authorityOfSource } from './lists/authority';
import { listLabel } from './lists/freshness';
import type { BirthDate, EntitySchema, Identifier, ListEntity, MatchResult } from './model';

/** Why two rows were put together (shown to the analyst). */
export interface GroupLink {
  kind: 'ofac_id' | 'un_reference' | 'identifier' | 'name_and_dob' | 'name_and_country';
  detail: string;
}

export interface MatchGroup {
  /** The best-scoring row: its name, score and list are the hit's primary ones. */
  best: MatchResult;
  /** Every row of the entity, best first (includes best). */
  members: MatchResult[];
  links: GroupLink[];
}

/** Identifier types that name one entity only (a website or an e-mail can be shared by a whole group). */
const LINKING_ID_TYPES = new Set(['passport', 'national_id', 'imo', 'registration', 'lei', 'tax_id', 'swift_bic']);
const OFAC_SOURCES = new Set(['ofac_sdn', 'ofac_cons', 'ofac_enhanced']);
/** UN Security Council reference numbers: QDi.001, KPe.033, IRi.012, CFi.005 … */
const UN_REF = /\b([A-Z]{2}[ie]\.\d{3})\b/g;
/** When scores tie, the primary source is the issuer's own list before the aggregates. */
const SOURCE_RANK = ['ofac_sdn', 'un_sc', 'eu_fsf', 'uk_sanctions', 'ofac_cons', 'ofac_enhanced', 'us_csl', 'us_dpl'];

const normId = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Same-kind class: a person is never merged with a non-person; unknown joins either. */
function kindClass(schema: EntitySchema): string {
  return schema === 'person' ? 'person' : schema === 'unknown' ? 'unknown' : 'thing';
}

/** The OFAC entity number of a row, when the row comes from an OFAC file or a Treasury list inside the CSL. */
export function ofacEntityNumber(e: ListEntity): string | undefined {
  if (OFAC_SOURCES.has(e.source)) return /^\d+$/.test(e.sourceId) ? e.sourceId : undefined;
  if (e.source === 'us_csl' && /Treasury Department/i.test(e.extra?.list ?? '')) {
    const n = e.extra?.entity_number ?? e.sourceId.replace(/-\d+$/, '');
    return /^\d+$/.test(n) ? n : undefined;
  }
  return undefined;
}

/** UN reference numbers the row carries (its own on the UN list, or quoted by another list). */
export function unReferences(e: ListEntity): string[] {
  const texts = [e.remarks ?? '', ...Object.values(e.extra ?? {}), ...e.identifiers.map((i) => `${i.value} ${i.note ?? ''}`)];
  const out = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(UN_REF)) out.add(m[1]!);
  return [...out];
}

/**
 * Every screening groups the rows it matched, and the same listed rows come up screening after
 * screening: what links a row depends on the row alone (list entities are never changed once
 * loaded), so it is worked out once per row and kept as long as the row is.
 */
const linkingKeysOf = new WeakMap<ListEntity, readonly { key: string; link: GroupLink }[]>();

function linkingKeys(e: ListEntity): readonly { key: string; link: GroupLink }[] {
  let keys = linkingKeysOf.get(e);
  if (!keys) {
    keys = computeLinkingKeys(e);
    linkingKeysOf.set(e, keys);
  }
  return keys;
}

function computeLinkingKeys(e: ListEntity): { key: string; link: GroupLink }[] {
  const cls = kindClass(e.schema);
  const keys: { key: string; link: GroupLink }[] = [];
  const ofac = ofacEntityNumber(e);
  if (ofac) keys.push({ key: `${cls}|ofac|${ofac}`, link: { kind: 'ofac_id', detail: `OFAC entity number ${ofac}` } });
  for (const ref of unReferences(e)) keys.push({ key: `${cls}|un|${ref}`, link: { kind: 'un_reference', detail: `UN reference ${ref}` } });
  for (const id of e.identifiers) {
    if (!LINKING_ID_TYPES.has(id.type)) continue;
    const v = id.type === 'imo' ? normId(id.value).replace(/^IMO/, '') : normId(id.value);
    // short or digit-free values ("N/A", "123") are not distinctive enough to join two records
    if (v.length < 6 || !/\d/.test(v)) continue;
    keys.push({ key: `${cls}|id|${id.type}|${v}`, link: { kind: 'identifier', detail: `${id.type.replace('_', ' ')} ${id.value}` } });
  }
  return keys;
}

/** Names folded lately (a name's fold depends on the name alone); emptied when it grows past its size. */
const foldedNames = new Map<string, string>();
const FOLDED_NAMES_KEPT = 50_000;

/** The primary name folded for comparison: case, accents, punctuation and word order removed. */
export function normalisedName(name: string): string {
  let folded = foldedNames.get(name);
  if (folded === undefined) {
    folded = foldName(name);
    if (foldedNames.size >= FOLDED_NAMES_KEPT) foldedNames.clear();
    foldedNames.set(name, folded);
  }
  return folded;
}

function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ');
}

function yearRange(d: BirthDate): [number, number] | undefined {
  const fromDate = d.date ? Number(d.date.slice(0, 4)) : undefined;
  const from = d.fromYear ?? fromDate ?? d.year;
  const to = d.toYear ?? d.fromYear ?? fromDate ?? d.year;
  if (from === undefined || to === undefined || !Number.isFinite(from) || !Number.isFinite(to)) return undefined;
  const slack = d.approximate ? 2 : 0;
  return [from - slack, to + slack];
}

function datesAgree(a: BirthDate, b: BirthDate): boolean {
  const ra = yearRange(a);
  const rb = yearRange(b);
  if (!ra || !rb || ra[1] < rb[0] || rb[1] < ra[0]) return false;
  // two full dates must be the same day
  if (a.date?.length === 10 && b.date?.length === 10) return a.date === b.date;
  return true;
}

/** 'agree' when some DOBs match, 'conflict' when both have DOBs and none match, 'unknown' otherwise. */
export function dobRelation(a: ListEntity, b: ListEntity): 'agree' | 'conflict' | 'unknown' {
  const da = a.birthDates.filter((d) => yearRange(d));
  const db = b.birthDates.filter((d) => yearRange(d));
  if (!da.length || !db.length) return 'unknown';
  return da.some((x) => db.some((y) => datesAgree(x, y))) ? 'agree' : 'conflict';
}

function sharedCountry(a: ListEntity, b: ListEntity): string | undefined {
  // a person's nationality; a company's registration or address country
  const of = (e: ListEntity) => new Set(e.schema === 'person' ? e.nationalities : [...e.nationalities, ...e.countries]);
  const cb = of(b);
  return [...of(a)].find((c) => cb.has(c));
}

/** Words of a legal form or an article: they do not make two organisation names the same. */
const ORG_FORM_WORDS = new Set([
  'pjsc', 'ojsc', 'cjsc', 'jsc', 'pao', 'oao', 'zao', 'ooo', 'ao', 'llc', 'ltd', 'limited', 'liability', 'public', 'private', 'joint', 'stock',
  'company', 'co', 'inc', 'incorporated', 'corp', 'corporation', 'plc', 'ag', 'gmbh', 'sa', 'sarl', 'bv', 'nv', 'closed', 'open', 'the', 'of', 'and',
]);

/** An organisation name reduced to its distinctive words, sorted; undefined when fewer than two remain. */
export function distinctiveOrgName(name: string): string | undefined {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !ORG_FORM_WORDS.has(w));
  return words.length >= 2 ? [...new Set(words)].sort().join(' ') : undefined;
}

/** The issuer of a row's list; lists of no known authority each stand for themselves. */
function issuerOf(source: string): string {
  const authority = authorityOfSource(source);
  return authority === 'other' ? source : authority;
}

function countriesConflict(a: ListEntity, b: ListEntity): boolean {
  const ca = new Set([...a.nationalities, ...a.countries]);
  const cb = new Set([...b.nationalities, ...b.countries]);
  return ca.size > 0 && cb.size > 0 && ![...ca].some((c) => cb.has(c));
}

const sourceRank = (s: string) => {
  const i = SOURCE_RANK.indexOf(s);
  return i < 0 ? SOURCE_RANK.length : i;
};

/** Lists that republish other issuers' designations (the CSL gathers US agencies' lists). */
const AGGREGATE_SOURCES = new Set(['us_csl']);
const isAggregate = (source: string) => AGGREGATE_SOURCES.has(source) || source.startsWith('opensanctions');

/**
 * The row a merged hit is filed under: the issuing authority's own list before any list that
 * republishes it, whichever row scored best, so the same entity is filed under the same list
 * whether it was found by its Latin or its Chinese name (the score stays the best row's).
 * Among own lists, the SOURCE_RANK order; then score, then id.
 */
export function filingMember(group: Pick<MatchGroup, 'members'>): MatchResult {
  return [...group.members].sort(
    (a, b) => Number(isAggregate(a.entity.source)) - Number(isAggregate(b.entity.source)) || sourceRank(a.entity.source) - sourceRank(b.entity.source) || compareMatches(a, b),
  )[0]!;
}

/** Best first: score, then the issuer's own list before aggregates, then id (stable order). */
export function compareMatches(a: MatchResult, b: MatchResult): number {
  return b.score - a.score || sourceRank(a.entity.source) - sourceRank(b.entity.source) || a.entity.id.localeCompare(b.entity.id);
}

/** Groups the matches of one query by real-world entity. Groups come best first. */
export function groupMatches(results: readonly MatchResult[]): MatchGroup[] {
  const n = results.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const linksOf = new Map<number, GroupLink[]>();
  const union = (i: number, j: number, link: GroupLink) => {
    const ri = find(i);
    const rj = find(j);
    if (ri === rj) return;
    parent[rj] = ri;
    const merged = [...(linksOf.get(ri) ?? []), ...(linksOf.get(rj) ?? []), link];
    linksOf.delete(rj);
    linksOf.set(ri, merged);
  };

  // 1. shared identifiers
  const byKey = new Map<string, number>();
  results.forEach((r, i) => {
    for (const { key, link } of linkingKeys(r.entity)) {
      const first = byKey.get(key);
      if (first === undefined) byKey.set(key, i);
      else union(first, i, link);
    }
  });

  // 2. same normalised primary name, agreeing DOB or country, no DOB conflict
  const byName = new Map<string, number[]>();
  results.forEach((r, i) => {
    const key = `${kindClass(r.entity.schema)}|${normalisedName(r.entity.primaryName)}`;
    const list = byName.get(key) ?? [];
    list.push(i);
    byName.set(key, list);
  });
  for (const idx of byName.values()) {
    for (let x = 0; x < idx.length; x++) {
      for (let y = x + 1; y < idx.length; y++) {
        const a = results[idx[x]!]!.entity;
        const b = results[idx[y]!]!.entity;
        if (find(idx[x]!) === find(idx[y]!)) continue;
        const dob = dobRelation(a, b);
        if (dob === 'conflict') continue;
        if (dob === 'agree') {
          union(idx[x]!, idx[y]!, { kind: 'name_and_dob', detail: `same name "${a.primaryName}" and date of birth` });
          continue;
        }
        const country = sharedCountry(a, b);
        if (country) union(idx[x]!, idx[y]!, { kind: 'name_and_country', detail: `same name "${a.primaryName}" and country ${country}` });
      }
    }
  }

  // 3. organisations on lists of different authorities: the same distinctive name (primary or strong
  //    alias, legal forms aside, at least two words) and no conflicting country. Another authority's
  //    list rarely shares an identifier with ours (the UK list quotes no OFAC number), and a company's
  //    full name is far more specific than a person's.
  const byOrgName = new Map<string, number[]>();
  results.forEach((r, i) => {
    if (r.entity.schema === 'person') return;
    const names = new Set([r.entity.primaryName, ...r.entity.names.filter((n) => n.kind === 'primary' || n.kind === 'strong_alias').map((n) => n.value)]);
    for (const name of names) {
      const key = distinctiveOrgName(name);
      if (!key) continue;
      const list = byOrgName.get(key) ?? [];
      if (!list.includes(i)) list.push(i);
      byOrgName.set(key, list);
    }
  });
  for (const [key, idx] of byOrgName) {
    for (let x = 0; x < idx.length; x++) {
      for (let y = x + 1; y < idx.length; y++) {
        const a = results[idx[x]!]!.entity;
        const b = results[idx[y]!]!.entity;
        if (find(idx[x]!) === find(idx[y]!) || issuerOf(a.source) === issuerOf(b.source)) continue;
        if (countriesConflict(a, b)) continue;
        union(idx[x]!, idx[y]!, { kind: 'name_and_country', detail: `same organisation name "${key}" on the ${listLabel(a.source)} and the ${listLabel(b.source)}, no conflicting country` });
      }
    }
  }

  const groups = new Map<number, MatchResult[]>();
  results.forEach((r, i) => {
    const root = find(i);
    const list = groups.get(root) ?? [];
    list.push(r);
    groups.set(root, list);
  });
  const out: MatchGroup[] = [];
  for (const [root, members] of groups) {
    members.sort(compareMatches);
    const seen = new Set<string>();
    const links = (linksOf.get(root) ?? []).filter((l) => !seen.has(l.detail) && seen.add(l.detail));
    out.push({ best: members[0]!, members, links });
  }
  return out.sort((a, b) => compareMatches(a.best, b.best));
}

/** What the rows of one entity say together. */
export interface MergedFacts {
  aliases: string[];
  /** As the lists wrote them (full date, year, range). */
  birthDates: string[];
  birthPlaces: string[];
  nationalities: string[];
  countries: string[];
  identifiers: Identifier[];
  programs: string[];
  addresses: string[];
}

export function birthDateText(d: BirthDate): string | undefined {
  if (d.date) return d.approximate ? `circa ${d.date}` : d.date;
  if (d.fromYear !== undefined) return d.toYear !== undefined && d.toYear !== d.fromYear ? `${d.fromYear}–${d.toYear}` : String(d.fromYear);
  if (d.year !== undefined) return d.approximate ? `circa ${d.year}` : String(d.year);
  return d.raw;
}

function addUnique(list: string[], seen: Set<string>, value: string | undefined, key = value?.toLowerCase()) {
  if (!value || !key || seen.has(key)) return;
  seen.add(key);
  list.push(value);
}

export function mergeFacts(members: readonly ListEntity[]): MergedFacts {
  const out: MergedFacts = { aliases: [], birthDates: [], birthPlaces: [], nationalities: [], countries: [], identifiers: [], programs: [], addresses: [] };
  const seen = {
    aliases: new Set<string>(members[0] ? [normalisedName(members[0].primaryName)] : []),
    birthDates: new Set<string>(),
    birthPlaces: new Set<string>(),
    nationalities: new Set<string>(),
    countries: new Set<string>(),
    identifiers: new Set<string>(),
    programs: new Set<string>(),
    addresses: new Set<string>(),
  };
  for (const e of members) {
    for (const name of [e.primaryName, ...e.names.map((n) => n.value)]) addUnique(out.aliases, seen.aliases, name, normalisedName(name));
    for (const d of e.birthDates) addUnique(out.birthDates, seen.birthDates, birthDateText(d));
    for (const p of e.birthPlaces) addUnique(out.birthPlaces, seen.birthPlaces, p);
    for (const c of e.nationalities) addUnique(out.nationalities, seen.nationalities, c);
    for (const c of e.countries) addUnique(out.countries, seen.countries, c);
    for (const id of e.identifiers) {
      const key = `${id.type}|${normId(id.value)}`;
      if (seen.identifiers.has(key)) continue;
      seen.identifiers.add(key);
      out.identifiers.push({ type: id.type, value: id.value, ...(id.country ? { country: id.country } : {}), ...(id.note ? { note: id.note } : {}) });
    }
    for (const p of e.programs) addUnique(out.programs, seen.programs, p);
    for (const a of e.addresses) {
      const text = a.full ?? [a.street, a.city, a.region, a.postalCode, a.countryName ?? a.country].filter(Boolean).join(', ');
      addUnique(out.addresses, seen.addresses, text || undefined);
    }
  }
  return out;
}
