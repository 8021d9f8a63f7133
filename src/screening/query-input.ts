/**
 * Validation of one screening query as an operator types it (`svc screen "X" --dob … --country …`)
 * or as one row of a batch file gives it. Pure: today's date comes in, nothing is read.
 *
 * Rules, the same as the HTTP surfaces' (S2 and the person checks): a date of birth is a real
 * calendar date, not before 1900 and not in the future; a country resolves to ISO 3166-1 alpha-2
 * (code or a name the lists use); the entity type is one the engine knows.
 * Accepted DOB forms: YYYY, YYYY-MM, YYYY-MM-DD (month and day with or without a leading zero:
 * 1969-7-16), DD/MM/YYYY or DD.MM.YYYY (day first, as the matcher reads them), and a range of years
 * YYYY..YYYY or YYYY-YYYY.
 *
 * A batch row is lenient (issue 27): only a missing or unusable name refuses it; an optional field
 * that cannot be used (an impossible date, an unknown country or type) is left out, the name is
 * screened without it, and a warning says so. A single name on the command line is strict.
 */
import type { EntitySchema, ScreeningQuery } from './model';
import { toIso2 } from './lists/countries';

export interface InputProblem {
  field: 'name' | 'dob' | 'country' | 'entity_type' | 'threshold';
  value: string;
  message: string;
}

export interface RawScreeningInput {
  name?: string;
  dob?: string;
  country?: string;
  type?: string;
}

export type ParsedScreeningInput =
  /** warnings: optional fields left out (lenient mode only), each naming the field and why. */
  | { ok: true; query: ScreeningQuery; notes: string[]; warnings: InputProblem[] }
  | { ok: false; problems: InputProblem[] };

export const ENTITY_TYPES: Record<string, EntitySchema> = {
  person: 'person',
  individual: 'person',
  organization: 'organization',
  organisation: 'organization',
  company: 'organization',
  entity: 'organization',
  vessel: 'vessel',
  aircraft: 'aircraft',
};
const TYPE_LIST = 'person (individual), organization (organisation, company, entity), vessel, aircraft';

export const MAX_NAME_LENGTH = 500;
const MIN_YEAR = 1900;

function realDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A birth date as the engine takes it (YYYY, YYYY-MM or YYYY-MM-DD), or a problem message.
 * `today` is YYYY-MM-DD. A year range comes back as `{ range }`.
 */
export function parseBirthDate(raw: string, today: string): { date: string } | { range: [number, number] } | { problem: string } {
  const s = raw.trim();
  const thisYear = Number(today.slice(0, 4));
  const inYears = (y: number) => y >= MIN_YEAR && y <= thisYear;
  const yearProblem = `the year must be between ${MIN_YEAR} and ${thisYear}`;
  let m = /^(\d{4})\s*(?:\.\.|-|–|to)\s*(\d{4})$/.exec(s);
  if (m) {
    const from = Number(m[1]);
    const to = Number(m[2]);
    if (!inYears(from) || !inYears(to)) return { problem: `"${s}": ${yearProblem}` };
    if (from > to) return { problem: `"${s}": a range must go from the earlier year to the later one` };
    return from === to ? { date: String(from) } : { range: [from, to] };
  }
  let y: number;
  let mo: number | undefined;
  let d: number | undefined;
  if ((m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(s))) {
    y = Number(m[1]);
    mo = m[2] ? Number(m[2]) : undefined;
    d = m[3] ? Number(m[3]) : undefined;
  } else if ((m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(s))) {
    d = Number(m[1]);
    mo = Number(m[2]);
    y = Number(m[3]);
  } else {
    return { problem: `"${s}" is not a date: use YYYY, YYYY-MM, YYYY-MM-DD (1969-7-16 too), DD/MM/YYYY or a range YYYY..YYYY` };
  }
  if (mo !== undefined && (mo < 1 || mo > 12)) return { problem: `"${s}": there is no month ${mo}` };
  if (d !== undefined && !realDate(y, mo!, d)) return { problem: `"${s}" is not a real calendar date` };
  if (!inYears(y)) return { problem: `"${s}": ${yearProblem}` };
  const date = `${String(y)}${mo !== undefined ? `-${String(mo).padStart(2, '0')}` : ''}${d !== undefined ? `-${String(d).padStart(2, '0')}` : ''}`;
  if (date > today) return { problem: `"${s}" is in the future` };
  return { date };
}

export function parseEntityType(raw: string): EntitySchema | undefined {
  return ENTITY_TYPES[raw.trim().toLowerCase()];
}

/** A match threshold between 0 and 1, or a problem message. */
export function parseThresholdValue(raw: string): number | { problem: string } {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) return { problem: `"${raw}" is not a number between 0 and 1` };
  return n;
}

/**
 * Validate and map one query. Blank optional fields are absent, not errors. `lenient` (batch rows):
 * a problem with an optional field is a warning and the field is left out; only the name refuses.
 */
export function parseScreeningInput(input: RawScreeningInput, today: string, options: { lenient?: boolean } = {}): ParsedScreeningInput {
  const problems: InputProblem[] = [];
  const warnings: InputProblem[] = [];
  const notes: string[] = [];
  const optional = (p: InputProblem) => (options.lenient ? warnings.push({ ...p, message: `${p.message}; screened without it` }) : problems.push(p));
  const name = (input.name ?? '').trim();
  if (!name) problems.push({ field: 'name', value: input.name ?? '', message: 'a name is required' });
  else if (name.length > MAX_NAME_LENGTH) problems.push({ field: 'name', value: name.slice(0, 40), message: `the name is longer than ${MAX_NAME_LENGTH} characters` });
  else if (!/[\p{L}\p{N}]/u.test(name)) problems.push({ field: 'name', value: name, message: 'the name has no letter or digit' });

  const query: ScreeningQuery = { name };
  const dob = input.dob?.trim();
  if (dob) {
    const parsed = parseBirthDate(dob, today);
    if ('problem' in parsed) optional({ field: 'dob', value: dob, message: parsed.problem });
    else if ('range' in parsed) {
      // The matcher reads one date or year; a range cannot be scored yet, so it is left out, and said so.
      notes.push(`birth years ${parsed.range[0]}..${parsed.range[1]}: the matcher scores a single date or year only, so this range was not used`);
    } else query.birthDate = parsed.date;
  }
  const country = input.country?.trim();
  if (country) {
    const iso2 = toIso2(country);
    if (!iso2) optional({ field: 'country', value: country, message: `unknown country "${country}": give an ISO 3166-1 code (GB, GBR) or a country name` });
    else query.country = iso2;
  }
  const type = input.type?.trim();
  if (type) {
    const schema = parseEntityType(type);
    if (!schema) optional({ field: 'entity_type', value: type, message: `unknown entity type "${type}": one of ${TYPE_LIST}` });
    else query.schema = schema;
  }
  return problems.length ? { ok: false, problems } : { ok: true, query, notes, warnings };
}
