/**
 * Sanctions programmes targeting a country: the reviewed classification of lists/country_sanctions
 * (authority, programme, comprehensive / sectoral / targeted, legal basis, dates, issuer's page)
 * joined with what the lists in service actually carry: how many designations each programme has on
 * the OFAC SDN (programme tags), UK (Regime) and UN (list type) lists, and the date of that list.
 *
 * The classification is read once at start; the counts follow the engine (a list reload brings new
 * counts). See lists/country_sanctions/README.md for where the classification comes from.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ListVersion } from '../model';
import { BUNDLED_LISTS_DIR } from './config';

export type SanctionsScope = 'comprehensive' | 'sectoral' | 'targeted';
export const SANCTIONS_SCOPES: readonly SanctionsScope[] = ['comprehensive', 'sectoral', 'targeted'];
export type SanctionsAuthority = 'us' | 'uk' | 'un';

/** One reviewed row: a programme of one authority targeting one country. */
export interface CountrySanctionsRow {
  iso2: string;
  jurisdiction: string;
  authority: SanctionsAuthority;
  programme: string;
  /** The programme tags as the lists write them (OFAC `Program`, UK `Regime`, UN list type). */
  listProgrammes: string[];
  scope: SanctionsScope;
  /** Set when the measures cover only part of the country (e.g. Crimea). */
  region?: string;
  basis: string;
  inForceSince: string;
  reviewedAsOf: string;
  sourceUrl: string;
}

/** A programme as a screening reports it: the reviewed row, with its designations on the list in service. */
export interface SanctionsProgrammeFinding extends Omit<CountrySanctionsRow, 'iso2' | 'jurisdiction' | 'listProgrammes'> {
  /** The list whose designations were counted (ofac_sdn, uk_sanctions, un_sc) and its publication date. */
  list?: string;
  listPublishedAt?: string;
  /** Designations carrying one of the programme's tags on that list (absent when the list is not in service). */
  designations?: number;
}

/** Which list carries each authority's programme tags. */
const LIST_OF: Record<SanctionsAuthority, string> = { us: 'ofac_sdn', uk: 'uk_sanctions', un: 'un_sc' };

export const COUNTRY_SANCTIONS_FILE = path.join(BUNDLED_LISTS_DIR, 'country_sanctions', 'country_sanctions.csv');

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses and checks the reviewed file; a malformed row is an error naming its line (never skipped). */
export function parseCountrySanctions(text: string, file = 'country_sanctions.csv'): CountrySanctionsRow[] {
  const records = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  return records.map((r, i) => {
    const where = `${file} row ${i + 2}`;
    const fail = (what: string): never => {
      throw new Error(`${where}: ${what}`);
    };
    if (!/^[A-Z]{2}$/.test(r.iso2 ?? '')) fail(`iso2 "${r.iso2}" is not an ISO alpha-2 code`);
    if (!['us', 'uk', 'un'].includes(r.authority ?? '')) fail(`authority "${r.authority}" must be us, uk or un`);
    if (!(SANCTIONS_SCOPES as readonly string[]).includes(r.scope ?? '')) fail(`scope "${r.scope}" must be ${SANCTIONS_SCOPES.join(', ')}`);
    for (const field of ['in_force_since', 'reviewed_as_of'] as const) if (!DATE.test(r[field] ?? '')) fail(`${field} must be YYYY-MM-DD`);
    for (const field of ['jurisdiction', 'programme', 'list_programmes', 'basis'] as const) if (!r[field]) fail(`${field} is required`);
    if (!/^https:\/\//.test(r.source_url ?? '')) fail('source_url must be an https URL of the issuer');
    return {
      iso2: r.iso2!,
      jurisdiction: r.jurisdiction!,
      authority: r.authority as SanctionsAuthority,
      programme: r.programme!,
      listProgrammes: r.list_programmes!.split(';').map((p) => p.trim()).filter(Boolean),
      scope: r.scope as SanctionsScope,
      ...(r.region ? { region: r.region } : {}),
      basis: r.basis!,
      inForceSince: r.in_force_since!,
      reviewedAsOf: r.reviewed_as_of!,
      sourceUrl: r.source_url!,
    };
  });
}

export function loadCountrySanctions(file = COUNTRY_SANCTIONS_FILE): CountrySanctionsRow[] {
  return parseCountrySanctions(readFileSync(file, 'utf8'), path.basename(file));
}

/**
 * The bundled programmes targeting each country, counted on the given lists: what the service's
 * country-risk step records, for a verdict worked out outside it (`svc screen`, batch workers).
 */
export function bundledProgrammes(lists: ProgrammeSource): (iso2: string) => SanctionsProgrammeFinding[] {
  const sanctions = new CountrySanctions(loadCountrySanctions());
  return (iso2) => sanctions.programmesFor(iso2, lists);
}

/** What the counts are taken from: each entity's list and programme tags. */
export interface ProgrammeSource {
  listedEntities(): Iterable<{ source: string; programs: readonly string[] }>;
  versions: readonly Pick<ListVersion, 'source' | 'publishedAt'>[];
}

/**
 * The programmes targeting one country, broadest first, with their designations on the lists in
 * service. Counts are computed once per source object (an engine) and kept.
 */
export class CountrySanctions {
  private readonly counts = new WeakMap<object, Map<string, number>>();

  constructor(private readonly rows: readonly CountrySanctionsRow[]) {}

  get size(): number {
    return this.rows.length;
  }

  programmesFor(iso2: string, lists?: ProgrammeSource): SanctionsProgrammeFinding[] {
    const rows = this.rows.filter((r) => r.iso2 === iso2.toUpperCase());
    if (rows.length === 0) return [];
    const counts = lists ? this.countsOf(lists) : undefined;
    return rows
      .map((r) => {
        const list = LIST_OF[r.authority];
        const version = lists?.versions.find((v) => v.source === list);
        const designations = version && counts ? r.listProgrammes.reduce((n, p) => n + (counts.get(`${list}|${p}`) ?? 0), 0) : undefined;
        return {
          authority: r.authority,
          programme: r.programme,
          scope: r.scope,
          ...(r.region ? { region: r.region } : {}),
          basis: r.basis,
          inForceSince: r.inForceSince,
          reviewedAsOf: r.reviewedAsOf,
          sourceUrl: r.sourceUrl,
          ...(version ? { list, ...(version.publishedAt ? { listPublishedAt: version.publishedAt.slice(0, 10) } : {}) } : {}),
          ...(designations !== undefined ? { designations } : {}),
        };
      })
      .sort((a, b) => scopeRank(a) - scopeRank(b) || a.authority.localeCompare(b.authority));
  }

  private countsOf(lists: ProgrammeSource): Map<string, number> {
    const cached = this.counts.get(lists);
    if (cached) return cached;
    const wanted = new Set(this.rows.flatMap((r) => r.listProgrammes.map((p) => `${LIST_OF[r.authority]}|${p}`)));
    const counts = new Map<string, number>();
    for (const e of lists.listedEntities()) {
      for (const p of e.programs) {
        const key = `${e.source}|${p}`;
        if (wanted.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    this.counts.set(lists, counts);
    return counts;
  }
}

/** Comprehensive first; a regional embargo after a country-wide one. */
function scopeRank(p: Pick<SanctionsProgrammeFinding, 'scope' | 'region'>): number {
  return SANCTIONS_SCOPES.indexOf(p.scope) * 2 + (p.region ? 1 : 0);
}

/**
 * The broadest scope over a country as a whole: `comprehensive` only for a country-wide embargo (a
 * regional one, like Crimea's, makes the country `sectoral` at most); `none` when no programme
 * targets it.
 */
export function countryScope(programmes: readonly Pick<SanctionsProgrammeFinding, 'scope' | 'region'>[]): SanctionsScope | 'none' {
  if (programmes.some((p) => p.scope === 'comprehensive' && !p.region)) return 'comprehensive';
  if (programmes.some((p) => p.scope === 'sectoral' || (p.scope === 'comprehensive' && p.region))) return 'sectoral';
  if (programmes.length > 0) return 'targeted';
  return 'none';
}
