/**
 * Reading an internal-list import (CSV or JSON lines) into entries, streaming (issue 21).
 *
 * - Columns are mapped to entry fields: recognised automatically from common headers (full name,
 *   first/middle/last, DOB, address lines, city, postcode, country, passport, national id, tax id,
 *   registration number, IMO, phone, e-mail, reason…), or by a caller's mapping that overrides them.
 * - Dates of birth in several formats (ISO, 03/04/1971 day-first unless the mapping says
 *   `dob_order: "mdy"`, 3 April 1971, April 1971, 1971); countries as ISO codes or names.
 * - A cell may hold several values separated by `;` or `|` (aliases, DOBs, nationalities, identifiers).
 * - Every unreadable row is reported as (line, field, reason); the caller commits nothing unless
 *   there are none. Lines are the file's physical lines (the header is line 1 in a CSV).
 */
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { toIso2 } from '../../screening/lists/countries';
import { watchlistEntityTypes, type IdentifierKind, type WatchlistEntityType, type WatchlistEntryInput } from '../../screening/watchlists/model';

export const importTargets = [
  'entry_id',
  'full_name',
  'first_name',
  'middle_name',
  'last_name',
  'alias',
  'entity_type',
  'date_of_birth',
  'nationality',
  'address_line',
  'city',
  'postal_code',
  'country',
  'passport',
  'national_id',
  'tax_id',
  'registration_number',
  'imo',
  'phone',
  'email',
  'other_id',
  'reason',
  'ignore',
] as const;
export type ImportTarget = (typeof importTargets)[number];

export interface ImportMapping {
  /** Column header (or JSON key) → target field; overrides the automatic recognition. */
  columns?: Record<string, ImportTarget>;
  /** How to read an ambiguous numeric date such as 03/04/1971 (default dmy). */
  dob_order?: 'dmy' | 'mdy';
  /** Entity type of rows without an entity_type column (default person). */
  default_entity_type?: WatchlistEntityType;
}

export interface ImportRow {
  line: number;
  entryId: string;
  entry: WatchlistEntryInput;
}

export interface ImportRowError {
  line: number;
  field: string;
  reason: string;
}

export interface ParsedImport {
  format: 'csv' | 'jsonl';
  /** Column → target as used (detected, then the caller's overrides). Columns not mapped are ignored. */
  mapping: Record<string, ImportTarget>;
  unmappedColumns: string[];
  rows: ImportRow[];
  /** Row errors in file order (at most maxErrors of them); errorCount counts them all. */
  errors: ImportRowError[];
  errorCount: number;
  /** Rows read (with or without errors). */
  rowCount: number;
  bytes: number;
  sha256: string;
}

/** Header spellings recognised automatically (compared lower-case, letters and digits only). */
const HEADER_SYNONYMS: Record<Exclude<ImportTarget, 'ignore'>, string[]> = {
  entry_id: ['entryid', 'id', 'ref', 'reference', 'customerid', 'customerref', 'recordid', 'externalid', 'clientid'],
  full_name: ['name', 'fullname', 'primaryname', 'entityname', 'customername', 'clientname', 'companyname', 'legalname'],
  first_name: ['firstname', 'givenname', 'givennames', 'forename', 'forenames', 'first'],
  middle_name: ['middlename', 'middlenames', 'middle', 'middleinitial'],
  last_name: ['lastname', 'surname', 'familyname', 'last'],
  alias: ['alias', 'aliases', 'aka', 'othernames', 'alsoknownas', 'nickname'],
  entity_type: ['entitytype', 'type', 'kind', 'partytype'],
  date_of_birth: ['dob', 'dateofbirth', 'birthdate', 'born', 'birthday', 'dateofbirthddmmyyyy'],
  nationality: ['nationality', 'nationalities', 'citizenship'],
  address_line: ['address', 'addressline', 'addressline1', 'addressline2', 'addressline3', 'address1', 'address2', 'address3', 'street', 'streetaddress', 'line1', 'line2'],
  city: ['city', 'town', 'locality'],
  postal_code: ['postcode', 'postalcode', 'zip', 'zipcode'],
  country: ['country', 'countrycode', 'countryofresidence', 'residencecountry'],
  passport: ['passport', 'passportnumber', 'passportno'],
  national_id: ['nationalid', 'nationalidnumber', 'idnumber', 'ssn', 'nin', 'nationalinsurancenumber'],
  tax_id: ['taxid', 'tin', 'taxnumber', 'vat', 'vatnumber'],
  registration_number: ['registrationnumber', 'companynumber', 'regno', 'crn', 'companyregistrationnumber'],
  imo: ['imo', 'imonumber'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'mobilenumber'],
  email: ['email', 'emailaddress', 'mail'],
  other_id: ['otherid', 'identifier', 'otheridentifier'],
  reason: ['reason', 'notes', 'note', 'comment', 'comments', 'remarks', 'listingreason'],
};
const byHeader = new Map<string, ImportTarget>();
for (const [target, names] of Object.entries(HEADER_SYNONYMS)) for (const n of names) byHeader.set(n, target as ImportTarget);

const headerKey = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The target a header is recognised as, if any. */
export function detectColumn(header: string): ImportTarget | undefined {
  return byHeader.get(headerKey(header));
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function realDate(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** A date of birth in one of the accepted forms, as YYYY, YYYY-MM or YYYY-MM-DD; undefined when unreadable. */
export function normaliseDob(raw: string, order: 'dmy' | 'mdy' = 'dmy'): string | undefined {
  const s = raw.trim();
  let m = /^(\d{4})$/.exec(s);
  if (m) return m[1];
  m = /^(\d{4})[-/.](\d{1,2})$/.exec(s);
  if (m) return +m[2]! >= 1 && +m[2]! <= 12 ? `${m[1]}-${pad(+m[2]!)}` : undefined;
  m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) return realDate(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(s);
  if (m) {
    const [a, b, y] = [+m[1]!, +m[2]!, +m[3]!];
    // An unambiguous day (> 12) decides the order whatever the setting.
    if (a > 12) return realDate(y, b, a);
    if (b > 12) return realDate(y, a, b);
    return order === 'dmy' ? realDate(y, b, a) : realDate(y, a, b);
  }
  m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,})\.?,?\s+(\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1;
    return month ? realDate(+m[3]!, month, +m[1]!) : undefined;
  }
  m = /^([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1;
    return month ? realDate(+m[3]!, month, +m[2]!) : undefined;
  }
  m = /^([A-Za-z]{3,})\.?\s+(\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1;
    return month ? `${m[2]}-${pad(month)}` : undefined;
  }
  return undefined;
}

const split = (cell: string) =>
  cell
    .split(/[;|]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');

const ID_TARGETS: Partial<Record<ImportTarget, IdentifierKind>> = {
  passport: 'passport',
  national_id: 'national_id',
  tax_id: 'tax_id',
  registration_number: 'registration_number',
  imo: 'imo',
  phone: 'phone',
  email: 'email',
  other_id: 'other',
};

/** One record (column → cell) to an entry, or the reasons it cannot be. */
export function mapRecord(
  cells: { column: string; target: ImportTarget; value: string }[],
  line: number,
  mapping: ImportMapping,
): { row?: ImportRow; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const fail = (field: string, reason: string) => errors.push({ line, field, reason });
  const values = (target: ImportTarget) => cells.filter((c) => c.target === target && c.value.trim() !== '').map((c) => c.value.trim());
  const one = (target: ImportTarget) => values(target)[0];

  const full = one('full_name');
  const parts = [one('first_name'), one('middle_name'), one('last_name')].filter((p): p is string => !!p);
  const primaryName = full ?? parts.join(' ');
  if (!primaryName) fail(full === undefined && parts.length === 0 ? 'full_name' : 'full_name', 'no name: a row needs a full name or first/last name');
  if (primaryName.length > 300) fail('full_name', 'longer than 300 characters');

  const typeCell = one('entity_type')?.toLowerCase();
  const typeAliases: Record<string, WatchlistEntityType> = { individual: 'person', person: 'person', company: 'organization', organisation: 'organization', organization: 'organization', entity: 'organization', vessel: 'vessel', ship: 'vessel', aircraft: 'aircraft' };
  let entityType: WatchlistEntityType = mapping.default_entity_type ?? 'person';
  if (typeCell) {
    const t = typeAliases[typeCell] ?? ((watchlistEntityTypes as readonly string[]).includes(typeCell) ? (typeCell as WatchlistEntityType) : undefined);
    if (t) entityType = t;
    else fail('entity_type', `"${typeCell}" is not person, organization, vessel or aircraft`);
  }

  const datesOfBirth: string[] = [];
  for (const cell of values('date_of_birth')) {
    for (const raw of split(cell)) {
      const dob = normaliseDob(raw, mapping.dob_order);
      if (dob) datesOfBirth.push(dob);
      else fail('date_of_birth', `"${raw.slice(0, 40)}" is not a readable date (YYYY-MM-DD, DD/MM/YYYY, 3 April 1971, 1971…)`);
    }
  }
  const nationalities: string[] = [];
  for (const cell of values('nationality')) {
    for (const raw of split(cell)) {
      const iso = toIso2(raw);
      if (iso) nationalities.push(iso);
      else fail('nationality', `"${raw.slice(0, 40)}" is not a known country`);
    }
  }
  const lines = values('address_line');
  const city = one('city');
  const postalCode = one('postal_code');
  const countryCell = one('country');
  let country: string | undefined;
  if (countryCell) {
    country = toIso2(countryCell);
    if (!country) fail('country', `"${countryCell.slice(0, 40)}" is not a known country`);
  }
  const addresses = lines.length || city || postalCode || country ? [{ ...(lines.length ? { line: lines.join(', ') } : {}), ...(city ? { city } : {}), ...(postalCode ? { postalCode } : {}), ...(country ? { country } : {}) }] : [];
  const identifiers = Object.entries(ID_TARGETS).flatMap(([target, kind]) => values(target as ImportTarget).flatMap(split).map((value) => ({ kind: kind!, value })));
  for (const id of identifiers) if (id.value.length > 200) fail(id.kind, 'longer than 200 characters');
  const aliases = values('alias')
    .flatMap(split)
    .map((name) => ({ name }));
  const reason = values('reason').join('; ');
  if (reason.length > 2000) fail('reason', 'longer than 2000 characters');
  const given = one('entry_id');
  const entryId = given ?? `row-${createHash('sha256').update(primaryName.toLowerCase()).update('\u0000').update(datesOfBirth.join(',')).digest('hex').slice(0, 16)}`;
  if (given && !/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(given)) fail('entry_id', 'must be 1-128 characters of letters, digits, . _ : -');
  if (errors.length) return { errors };
  return { row: { line, entryId, entry: { entityType, primaryName, aliases, datesOfBirth, nationalities, addresses, identifiers, reason } }, errors };
}

/** Counts and hashes the bytes that pass through (the import records the file's SHA-256). */
class Tap extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      done(new ImportTooLarge(this.limit));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

export class ImportTooLarge extends Error {
  override readonly name = 'ImportTooLarge';
  constructor(readonly limit: number) {
    super(`the import is larger than ${limit} bytes`);
  }
}

/** The row sink failed (not the body's fault): its error is passed on as it is. */
class SinkFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('the import row sink failed');
  }
}

/** The body cannot be read at all (not CSV/JSON lines, no header, bad UTF-8): not a row problem. */
export class ImportUnreadable extends Error {
  override readonly name = 'ImportUnreadable';
}

function resolveMapping(columns: string[], mapping: ImportMapping): { used: Record<string, ImportTarget>; unmapped: string[] } {
  const used: Record<string, ImportTarget> = {};
  const unmapped: string[] = [];
  for (const column of columns) {
    const target = mapping.columns?.[column] ?? detectColumn(column);
    if (target && target !== 'ignore') used[column] = target;
    else unmapped.push(column);
  }
  return { used, unmapped };
}

export interface ParseOptions {
  format: 'csv' | 'jsonl';
  mapping?: ImportMapping;
  maxBytes: number;
  maxRows: number;
  /** Stop keeping rows after this many (preview); errors are still collected for every row read. */
  keepRows?: number;
  /**
   * Streaming: each readable row is handed here as it is read (awaited: the body is read no faster
   * than the sink takes rows) and never kept in `rows`. Errors are still collected.
   */
  onRow?: (row: ImportRow) => void | Promise<void>;
  /** Row errors kept (the count goes on): a file of 100k bad rows does not hold 100k errors. */
  maxErrors?: number;
}

/** Reads the whole body, streaming; rows and row errors in file order. */
export async function parseImport(body: Readable, options: ParseOptions): Promise<ParsedImport> {
  const mapping = options.mapping ?? {};
  const tap = new Tap(options.maxBytes);
  body.on('error', (err) => tap.destroy(err));
  const source = body.pipe(tap);
  const out: ParsedImport = { format: options.format, mapping: {}, unmappedColumns: [], rows: [], errors: [], errorCount: 0, rowCount: 0, bytes: 0, sha256: '' };
  const maxErrors = options.maxErrors ?? Number.POSITIVE_INFINITY;
  const fail = (...errors: ImportRowError[]) => {
    out.errorCount += errors.length;
    for (const e of errors) if (out.errors.length < maxErrors) out.errors.push(e);
  };
  // Rows read but not yet handed to the sink (JSON lines hands them over once per body chunk).
  const handOver: ImportRow[] = [];
  const keep = (row: ImportRow) => {
    if (options.onRow) handOver.push(row);
    else if (options.keepRows === undefined || out.rows.length < options.keepRows) out.rows.push(row);
  };
  const flushRows = async () => {
    if (!options.onRow) return;
    try {
      for (const row of handOver.splice(0)) await options.onRow(row);
    } catch (error) {
      throw new SinkFailed(error);
    }
  };
  const tooMany = () => {
    if (out.rowCount > options.maxRows) throw new ImportUnreadable(`more than ${options.maxRows} rows in one import`);
  };
  if (options.format === 'csv') {
    const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true });
    source.on('error', (err) => parser.destroy(err));
    source.pipe(parser);
    let header: string[] | undefined;
    let used: Record<string, ImportTarget> = {};
    try {
      for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (!header) {
          header = rec.record.map((h) => h.trim());
          if (header.some((h) => h === '') || new Set(header).size !== header.length) throw new ImportUnreadable('the header row must name every column once');
          const resolved = resolveMapping(header, mapping);
          used = resolved.used;
          out.mapping = used;
          out.unmappedColumns = resolved.unmapped;
          const targets = new Set(Object.values(used));
          if (!targets.has('full_name') && !targets.has('last_name') && !targets.has('first_name')) {
            throw new ImportUnreadable(`no name column: none of ${header.slice(0, 20).join(', ')} is recognised as a name; send a mapping`);
          }
          continue;
        }
        out.rowCount += 1;
        tooMany();
        const cells = header.flatMap((column, i) => (used[column] ? [{ column, target: used[column]!, value: rec.record[i] ?? '' }] : []));
        const line = rec.info.lines;
        if (rec.record.length > header.length) fail({ line, field: 'row', reason: `${rec.record.length} cells for ${header.length} columns` });
        const { row, errors } = mapRecord(cells, line, mapping);
        fail(...errors);
        if (row) keep(row);
        await flushRows();
      }
    } catch (error) {
      if (error instanceof SinkFailed) throw error.cause;
      if (error instanceof ImportTooLarge || error instanceof ImportUnreadable) throw error;
      if ((error as { cause?: unknown }).cause instanceof ImportTooLarge) throw (error as { cause: ImportTooLarge }).cause;
      const e = error as Error & { lines?: number };
      if (e instanceof ImportTooLarge) throw e;
      throw new ImportUnreadable(`not readable as CSV${e.lines ? ` at line ${e.lines}` : ''}: ${e.message}`);
    }
    if (!header) throw new ImportUnreadable('the body is empty: a CSV import needs a header row and at least one row');
  } else {
    let line = 0;
    let pending = '';
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const columns = new Set<string>();
    const handleLine = (text: string) => {
      line += 1;
      if (text.trim() === '') return;
      out.rowCount += 1;
      tooMany();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        fail({ line, field: 'row', reason: 'not valid JSON' });
        return;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        fail({ line, field: 'row', reason: 'each line must be a JSON object' });
        return;
      }
      const cells: { column: string; target: ImportTarget; value: string }[] = [];
      for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
        columns.add(key);
        const target = mapping.columns?.[key] ?? detectColumn(key);
        if (!target || target === 'ignore' || raw === null) continue;
        if (Array.isArray(raw) && raw.every((x) => typeof x === 'string' || typeof x === 'number')) cells.push({ column: key, target, value: raw.join('; ') });
        else if (typeof raw === 'string' || typeof raw === 'number') cells.push({ column: key, target, value: String(raw) });
        else fail({ line, field: key, reason: 'must be a string, a number or an array of them' });
      }
      const { row, errors } = mapRecord(cells, line, mapping);
      fail(...errors);
      if (row) keep(row);
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        pending += decoder.decode(chunk, { stream: true });
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          handleLine(pending.slice(0, nl).replace(/\r$/, ''));
          pending = pending.slice(nl + 1);
          nl = pending.indexOf('\n');
        }
        await flushRows();
      }
      pending += decoder.decode();
    } catch (error) {
      if (error instanceof SinkFailed) throw error.cause;
      if (error instanceof ImportTooLarge || error instanceof ImportUnreadable) throw error;
      throw new ImportUnreadable(`not readable as JSON lines: ${(error as Error).message}`);
    }
    if (pending.trim() !== '') handleLine(pending);
    await flushRows();
    const resolved = resolveMapping([...columns], mapping);
    out.mapping = resolved.used;
    out.unmappedColumns = resolved.unmapped;
    if (out.rowCount === 0) throw new ImportUnreadable('the body is empty: no JSON lines');
  }
  out.bytes = tap.bytes;
  out.sha256 = tap.hash.digest('hex');
  return out;
}
