/**
 * Qualifiers: attributes beyond the name that raise or lower a candidate's score.
 * Each returns the QualifierApplied entries that go into the explanation; `corroborates`
 * marks the ones that can lift an exact name match to 1.0.
 */
import type { BirthDate, EntitySchema, ListEntity, QualifierApplied, ScreeningQuery } from '../model';
import { toIso2 } from '../lists/countries';

export interface Qualified extends QualifierApplied {
  corroborates: boolean;
}

export const QUALIFIER_EFFECTS = {
  dobExact: 0.05,
  dobYear: 0.03,
  dobSameYearOtherDay: -0.04,
  dobConflict: -0.15,
  countryMatch: 0.03,
  countryConflict: -0.05,
  /** An organisation registered or located in another country than the query's: likely a namesake, never confirmed. */
  orgCountryConflict: -0.1,
  identifierMatch: 0.1,
  schemaConflict: -0.25,
} as const;

interface QueryDate {
  year: number;
  month?: number;
  day?: number;
  raw: string;
}

/** Parse YYYY, YYYY-MM, YYYY-MM-DD (also with / or .), or DD.MM.YYYY / DD/MM/YYYY. */
export function parseQueryDate(raw: string | undefined): QueryDate | undefined {
  if (!raw) return undefined;
  const s = raw.trim();
  let m = /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?$/.exec(s);
  if (m) return { year: +m[1], month: m[2] ? +m[2] : undefined, day: m[3] ? +m[3] : undefined, raw: s };
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(s);
  if (m) return { year: +m[3], month: +m[2], day: +m[1], raw: s };
  return undefined;
}

type DobRelation = 'exact' | 'year' | 'same_year_other_day' | 'conflict';

function relate(q: QueryDate, d: BirthDate): { rel: DobRelation; listed: string } | undefined {
  const listed = d.raw ?? d.date ?? (d.fromYear ? `${d.fromYear}–${d.toYear ?? d.fromYear}` : String(d.year ?? ''));
  const parsed = d.date ? parseQueryDate(d.date) : undefined;
  const year = parsed?.year ?? d.year;
  let from = d.fromYear ?? year;
  let to = d.toYear ?? d.fromYear ?? year;
  if (from === undefined || to === undefined) return undefined;
  const tolerance = d.approximate ? 2 : 0;
  from -= tolerance;
  to += tolerance;
  if (q.year < from || q.year > to) return { rel: 'conflict', listed };
  if (parsed?.month && q.month && !d.fromYear) {
    const sameDay = parsed.day && q.day ? parsed.day === q.day : true;
    if (parsed.month === q.month && sameDay) return { rel: parsed.day && q.day ? 'exact' : 'year', listed };
    // day and month swapped by a data-entry convention
    if (parsed.day && q.day && parsed.day === q.month && parsed.month === q.day) return { rel: 'year', listed };
    if (!d.approximate) return { rel: 'same_year_other_day', listed };
  }
  return { rel: 'year', listed };
}

const DOB_RANK: Record<DobRelation, number> = { exact: 3, year: 2, same_year_other_day: 1, conflict: 0 };

export function dobQualifier(query: ScreeningQuery, entity: ListEntity): Qualified | undefined {
  const q = parseQueryDate(query.birthDate);
  if (!q || !entity.birthDates?.length) return undefined;
  let best: { rel: DobRelation; listed: string } | undefined;
  for (const d of entity.birthDates) {
    const r = relate(q, d);
    if (r && (!best || DOB_RANK[r.rel] > DOB_RANK[best.rel])) best = r;
  }
  if (!best) return undefined;
  const all = entity.birthDates.map((d) => d.raw ?? d.date ?? d.year ?? `${d.fromYear}–${d.toYear}`).join(', ');
  switch (best.rel) {
    case 'exact':
      return { kind: 'dob_match', effect: QUALIFIER_EFFECTS.dobExact, detail: `date of birth ${q.raw} equals listed ${best.listed}`, corroborates: true };
    case 'year':
      return { kind: 'dob_match', effect: QUALIFIER_EFFECTS.dobYear, detail: `birth year ${q.year} agrees with listed ${best.listed}`, corroborates: true };
    case 'same_year_other_day':
      return {
        kind: 'dob_conflict',
        effect: QUALIFIER_EFFECTS.dobSameYearOtherDay,
        detail: `same birth year but date ${q.raw} differs from listed ${best.listed}`,
        corroborates: false,
      };
    case 'conflict':
      return { kind: 'dob_conflict', effect: QUALIFIER_EFFECTS.dobConflict, detail: `birth date ${q.raw} outside listed ${all}`, corroborates: false };
  }
}

export function countryQualifier(query: ScreeningQuery, entity: ListEntity): Qualified | undefined {
  if (!query.country) return undefined;
  const iso = query.country.length === 2 ? query.country.toUpperCase() : toIso2(query.country);
  if (!iso) return undefined;
  const nat = entity.nationalities ?? [];
  const other = [...(entity.countries ?? []), ...(entity.addresses ?? []).map((a) => a.country).filter((c): c is string => !!c)];
  if (nat.includes(iso)) {
    return { kind: 'country_match', effect: QUALIFIER_EFFECTS.countryMatch, detail: `nationality ${iso} listed`, corroborates: true };
  }
  if (other.includes(iso)) {
    return { kind: 'country_match', effect: QUALIFIER_EFFECTS.countryMatch, detail: `country ${iso} associated with the entity`, corroborates: true };
  }
  if (!nat.length && !other.length) return undefined;
  const listed = [...new Set([...nat, ...other])].join(', ');
  if (entity.schema === 'organization') {
    return {
      kind: 'country_conflict',
      effect: QUALIFIER_EFFECTS.orgCountryConflict,
      detail: `country ${iso} not among listed ${listed}: a company of the same name in another jurisdiction may be another company`,
      corroborates: false,
    };
  }
  return { kind: 'country_conflict', effect: QUALIFIER_EFFECTS.countryConflict, detail: `country ${iso} not among listed ${listed}`, corroborates: false };
}

const normId = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

export function identifierQualifier(query: ScreeningQuery, entity: ListEntity): Qualified | undefined {
  if (!query.identifiers?.length || !entity.identifiers?.length) return undefined;
  for (const qi of query.identifiers) {
    const v = normId(qi.value);
    if (v.length < 4) continue;
    const hit = entity.identifiers.find((e) => normId(e.value) === v);
    if (hit) {
      return {
        kind: 'identifier_match',
        effect: QUALIFIER_EFFECTS.identifierMatch,
        detail: `${hit.type} ${hit.value}${hit.country ? ` (${hit.country})` : ''} equals the query's identifier`,
        corroborates: true,
      };
    }
  }
  return undefined;
}

export function schemaQualifier(schema: EntitySchema | undefined, entity: ListEntity): Qualified | undefined {
  if (!schema || schema === 'unknown' || entity.schema === 'unknown' || schema === entity.schema) return undefined;
  return {
    kind: 'schema_conflict',
    effect: QUALIFIER_EFFECTS.schemaConflict,
    detail: `query is a ${schema}, listed entity is a ${entity.schema}`,
    corroborates: false,
  };
}

export function qualifiersFor(query: ScreeningQuery, entity: ListEntity): Qualified[] {
  return [dobQualifier(query, entity), countryQualifier(query, entity), identifierQualifier(query, entity), schemaQualifier(query.schema, entity)].filter(
    (q): q is Qualified => !!q,
  );
}
