/**
 * Reading an internal-list import (CSV or JSON lines) into entries, streaming (issues 21, 30).
 *
 * - Columns are mapped to entry fields: recognised automatically (./import-columns.ts: plain headers
 *   and the common vendor layouts), or by a caller's mapping that overrides them.
 * - Dates of birth in several forms (./import-values.ts): ISO, 03/04/1971 (the day/month order of a
 *   column is decided from all its rows, unless the mapping or the header states it), 3/1/70 (a
 *   two-digit year by the stated pivot), 3 April 1971, April 1971, 1971; countries as ISO codes or names.
 * - A cell may hold several values separated by `;` or `|` (aliases, DOBs, nationalities, identifiers).
 * - JSON lines: flat objects, or the vendor's nested form `{RECORD_ID, FEATURES: [{NAME_LAST…}, {DATE_OF_BIRTH…}]}`.
 * - A row needs a name, an alias (a native-script name) or a strong identifier (a document, phone or
 *   e-mail: a list of fraudsters' e-mails has no names); one with none is an error.
 * - Every unreadable row is reported as (line, field, reason). Lines are the file's physical lines
 *   (the header is line 1 in a CSV).
 */
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { toIso2 } from '../../screening/lists/countries';
import { regionCode } from '../../screening/watchlists/address-parse';
import type { IdentifierKind, WatchlistAddress, WatchlistAlias, WatchlistEntityType, WatchlistEntryInput, WatchlistIdentifier } from '../../screening/watchlists/model';
import { detectColumn, importTargets, recogniseColumn, type ImportTarget, type RecognisedColumn } from './import-columns';
import { DateOrderEvidence, describePivot, entityTypeOf, genderOf, readDate, statusOf, type DateColumnOrder } from './import-values';

export { importTargets, detectColumn, type ImportTarget } from './import-columns';

export interface ImportMapping {
  /** Column header (or JSON key) → target field; overrides the automatic recognition. */
  columns?: Record<string, ImportTarget>;
  /** How to read an ambiguous numeric date such as 03/04/1971 in every date column (default: decided per column from its rows). */
  dob_order?: 'dmy' | 'mdy';
  /** Two-digit years: 00 up to this are 20yy, above it 19yy (default: this year's last two digits). */
  century_pivot?: number;
  /** Entity type of rows without an entity_type column (default person). */
  default_entity_type?: WatchlistEntityType;
}

export interface ImportRow {
  line: number;
  entryId: string;
  entry: WatchlistEntryInput;
  /** ambiguous dates, read day first for now: the month-first reading replaces them when their column proves month first */
  ambiguousDates?: { index: number; column: string; monthFirst: string }[];
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
  /** Rows with at least one error. */
  badRows: number;
  /** Rows read (with or without errors). */
  rowCount: number;
  /** How each date column's day/month order was decided (from every row). */
  dateOrders: Record<string, DateColumnOrder>;
  /** The two-digit-year rule applied. */
  twoDigitYears: string;
  bytes: number;
  sha256: string;
}

const split = (cell: string) =>
  cell
    .split(/[;|]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');

const ID_TARGETS: Partial<Record<ImportTarget, IdentifierKind>> = {
  passport: 'passport',
  national_id: 'national_id',
  ssn: 'national_id',
  tax_id: 'tax_id',
  registration_number: 'registration_number',
  imo: 'imo',
  drivers_license: 'drivers_license',
  phone: 'phone',
  email: 'email',
  other_id: 'other',
};
/**
 * The identifier kind a column holds, as the internal lists compare it, read with the import's own
 * header vocabulary; also the kind of a person check's named identifier ("ssn", "passport"; "ssn_last4"
 * is a partial value and none). An SSN is a US national id.
 */
export function identifierKindOf(header: string): { kind: IdentifierKind; country?: string } | undefined {
  const target = detectColumn(header);
  const kind = target ? ID_TARGETS[target] : undefined;
  return kind ? { kind, ...(target === 'ssn' ? { country: 'US' } : {}) } : undefined;
}

/** Identifiers strong enough to list an entry that has no name. */
const STRONG = new Set<IdentifierKind>(['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'drivers_license', 'phone', 'email', 'other']);

/** Scripts a native name is written in (ISO 15924), tried in this order; Latin names carry none. */
const SCRIPTS: [string, RegExp][] = [
  ['Cyrl', /\p{Script=Cyrillic}/u], ['Arab', /\p{Script=Arabic}/u], ['Hebr', /\p{Script=Hebrew}/u], ['Grek', /\p{Script=Greek}/u],
  ['Hang', /\p{Script=Hangul}/u], ['Jpan', /[\p{Script=Hiragana}\p{Script=Katakana}]/u], ['Hani', /\p{Script=Han}/u], ['Thai', /\p{Script=Thai}/u],
  ['Deva', /\p{Script=Devanagari}/u], ['Geor', /\p{Script=Georgian}/u], ['Armn', /\p{Script=Armenian}/u],
];
function scriptOf(name: string): string | undefined {
  return SCRIPTS.find(([, re]) => re.test(name))?.[0];
}

/** One cell of a record: its column, what it fills, the address it belongs to. */
export interface ImportCell {
  column: string;
  target: ImportTarget;
  value: string;
  /** address label (HOME_, MAILING_…): one address per label */
  group?: string;
}

export interface MapContext {
  /** two-digit years: ≤ pivot ⇒ 20yy */
  pivot: number;
  /** date order a column's header states */
  statedOrder?: (column: string) => 'dmy' | 'mdy' | undefined;
  /** collects what each date says about its column's order */
  evidence?: DateOrderEvidence;
}

/** One record (column → cell) to an entry, or the reasons it cannot be. */
export function mapRecord(cells: readonly ImportCell[], line: number, mapping: ImportMapping, context: MapContext = { pivot: mapping.century_pivot ?? 30 }): { row?: ImportRow; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const fail = (field: string, reason: string) => errors.push({ line, field, reason });
  const valuesOf = (target: ImportTarget) => cells.filter((c) => c.target === target && c.value.trim() !== '');
  const values = (target: ImportTarget) => valuesOf(target).map((c) => c.value.trim());
  const one = (target: ImportTarget) => values(target)[0];

  const aliases = values('alias')
    .flatMap(split)
    .map((name): WatchlistAlias => {
      const script = scriptOf(name);
      return { name, ...(script ? { script } : {}) };
    });
  const suffix = one('suffix');
  const full = one('full_name');
  const parts = [one('first_name'), one('middle_name'), one('last_name')].filter((p): p is string => !!p);
  let primaryName = full ?? parts.join(' ');
  // the generational suffix is part of the name (Jr and Sr are two people)
  if (primaryName && suffix && !new RegExp(`\\b${suffix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.?$`, 'i').test(primaryName)) primaryName = `${primaryName} ${suffix}`;
  // a record known by an alias only (a native-script name mapped to alias): that name is the entry's
  if (!primaryName && aliases.length) primaryName = aliases.shift()!.name;
  if (primaryName.length > 300) fail('full_name', 'longer than 300 characters');

  const typeCell = one('entity_type');
  let entityType: WatchlistEntityType = mapping.default_entity_type ?? 'person';
  if (typeCell) {
    const t = entityTypeOf(typeCell);
    if (t) entityType = t;
    else fail('entity_type', `"${typeCell.slice(0, 40)}" is not person, organization, vessel or aircraft`);
  }
  const statusCell = one('status');
  const status = statusCell ? statusOf(statusCell) : 'active';
  if (!status) fail('status', `"${statusCell!.slice(0, 40)}" is not active or inactive`);
  const genderCell = one('gender');
  const gender = genderCell ? genderOf(genderCell) : null;
  if (gender === undefined) fail('gender', `"${genderCell!.slice(0, 40)}" is not male, female or other`);

  const datesOfBirth: string[] = [];
  const ambiguousDates: NonNullable<ImportRow['ambiguousDates']> = [];
  for (const cell of valuesOf('date_of_birth')) {
    const stated = mapping.dob_order ?? context.statedOrder?.(cell.column);
    for (const raw of split(cell.value)) {
      const dob = readDate(raw, { order: stated, pivot: context.pivot });
      if (!dob) {
        fail('date_of_birth', `"${raw.slice(0, 40)}" is not a readable date (YYYY-MM-DD, DD/MM/YYYY or MM/DD/YYYY, 3/1/70, 3 April 1971, 1971…)`);
        continue;
      }
      if (dob.evidence) context.evidence?.add(cell.column, dob.evidence);
      if (dob.monthFirst) ambiguousDates.push({ index: datesOfBirth.length, column: cell.column, monthFirst: dob.monthFirst });
      datesOfBirth.push(dob.value);
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
  const countryOf = (field: string, cell: string | undefined): string | undefined => {
    if (!cell) return undefined;
    const iso = toIso2(cell);
    if (!iso) fail(field, `"${cell.slice(0, 40)}" is not a known country`);
    return iso;
  };
  // one address per label (HOME_ADDR_…, MAILING_ADDR_…); the unlabelled columns make one too
  const addresses: WatchlistAddress[] = [];
  const groups = [...new Set(cells.filter((c) => ['address_line', 'city', 'region', 'postal_code', 'country'].includes(c.target)).map((c) => c.group ?? ''))];
  for (const group of groups) {
    const inGroup = (target: ImportTarget) => cells.filter((c) => c.target === target && (c.group ?? '') === group && c.value.trim() !== '').map((c) => c.value.trim());
    const lines = inGroup('address_line');
    const city = inGroup('city')[0];
    const regionCell = inGroup('region')[0];
    const region = regionCell ? (regionCode(regionCell)?.toUpperCase() ?? regionCell) : undefined;
    const postalCode = inGroup('postal_code')[0];
    const country = countryOf('country', inGroup('country')[0]);
    if (lines.length || city || region || postalCode || country) {
      addresses.push({ ...(lines.length ? { line: lines.join(', ') } : {}), ...(city ? { city } : {}), ...(region ? { region } : {}), ...(postalCode ? { postalCode } : {}), ...(country ? { country } : {}) });
    }
  }
  const passportCountry = countryOf('passport_country', one('passport_country'));
  const licenceRegionCell = one('drivers_license_region');
  const licenceRegion = licenceRegionCell ? (regionCode(licenceRegionCell)?.toUpperCase() ?? licenceRegionCell) : undefined;
  const identifiers: WatchlistIdentifier[] = Object.entries(ID_TARGETS).flatMap(([target, kind]) =>
    values(target as ImportTarget)
      .flatMap(split)
      .map((value): WatchlistIdentifier => {
        const country = target === 'ssn' ? 'US' : target === 'passport' ? passportCountry : kind === 'drivers_license' && licenceRegion && regionCode(licenceRegion) ? 'US' : undefined;
        return { kind: kind!, value, ...(country ? { country } : {}), ...(kind === 'drivers_license' && licenceRegion ? { region: licenceRegion } : {}) };
      }),
  );
  for (const id of identifiers) if (id.value.length > 200) fail(id.kind, 'longer than 200 characters');
  if (!primaryName && !identifiers.some((i) => STRONG.has(i.kind))) {
    fail('full_name', 'no name: a row needs a name (full name, first/last name or an alias) or a document number, phone or e-mail');
  }
  const reason = values('reason').join('; ');
  if (reason.length > 2000) fail('reason', 'longer than 2000 characters');
  const given = one('entry_id');
  const idBasis = primaryName || identifiers.map((i) => `${i.kind}:${i.value}`).join(',');
  const entryId = given ?? `row-${createHash('sha256').update(idBasis.toLowerCase()).update('\u0000').update(datesOfBirth.join(',')).digest('hex').slice(0, 16)}`;
  if (given && !/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(given)) fail('entry_id', 'must be 1-128 characters of letters, digits, . _ : -');
  if (errors.length) return { errors };
  const entry: WatchlistEntryInput = {
    entityType,
    primaryName,
    aliases,
    datesOfBirth,
    nationalities,
    addresses,
    identifiers,
    reason,
    ...(status === 'inactive' ? { status } : {}),
    ...(gender ? { gender } : {}),
  };
  return { row: { line, entryId, entry, ...(ambiguousDates.length ? { ambiguousDates } : {}) }, errors };
}

/** A row with its ambiguous dates read as their columns' orders say (month first where proven or stated). */
export function resolveDates(row: ImportRow, orders: Readonly<Record<string, DateColumnOrder>>): ImportRow {
  if (!row.ambiguousDates?.length) return row;
  const datesOfBirth = [...row.entry.datesOfBirth];
  for (const a of row.ambiguousDates) if (orders[a.column]?.order === 'mdy') datesOfBirth[a.index] = a.monthFirst;
  const { ambiguousDates: _resolved, ...rest } = row;
  return { ...rest, entry: { ...row.entry, datesOfBirth } };
}

/**
 * The vendor's nested JSON form: `{"RECORD_ID": …, "FEATURES": [{"NAME_TYPE": "PRIMARY", "NAME_LAST": …},
 * {"DATE_OF_BIRTH": …}, {"ADDR_TYPE": "HOME", "ADDR_LINE1": …}]}` read as the flat record its features
 * make: a PRIMARY (or untyped) name's parts are the name, another type's name an alias; each address
 * feature an address of its own; repeated attributes (two phones) several values.
 */
export function flattenFeatures(record: Record<string, unknown>): { key: string; value: string; group?: string; target?: ImportTarget }[] {
  const out: { key: string; value: string; group?: string; target?: ImportTarget }[] = [];
  for (const [key, value] of Object.entries(record)) if (key !== 'FEATURES' && (typeof value === 'string' || typeof value === 'number')) out.push({ key, value: String(value) });
  const features = Array.isArray(record.FEATURES) ? record.FEATURES : [];
  let addressNumber = 0;
  for (const f of features) {
    if (!f || typeof f !== 'object' || Array.isArray(f)) continue;
    const feature = f as Record<string, unknown>;
    const text = (k: string) => (typeof feature[k] === 'string' || typeof feature[k] === 'number' ? String(feature[k]) : undefined);
    const nameType = text('NAME_TYPE')?.toUpperCase();
    const isName = Object.keys(feature).some((k) => k.startsWith('NAME_') && k !== 'NAME_TYPE');
    if (isName && nameType && nameType !== 'PRIMARY') {
      const alias = text('NAME_FULL') ?? text('NAME_ORG') ?? [text('NAME_FIRST'), text('NAME_MIDDLE'), text('NAME_LAST'), text('NAME_SUFFIX')].filter(Boolean).join(' ');
      if (alias) out.push({ key: `${nameType}_NAME`, value: alias, target: 'alias' });
      continue;
    }
    const isAddress = Object.keys(feature).some((k) => k.startsWith('ADDR_'));
    const group = isAddress ? `${text('ADDR_TYPE') ?? 'address'}-${addressNumber++}` : undefined;
    for (const [key, value] of Object.entries(feature)) {
      if (typeof value === 'string' || typeof value === 'number') out.push({ key, value: String(value), ...(group !== undefined ? { group } : {}) });
    }
  }
  return out;
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

/** A date of birth as YYYY, YYYY-MM or YYYY-MM-DD, an ambiguous numeric one read in `order`; undefined when unreadable. */
export function normaliseDob(raw: string, order: 'dmy' | 'mdy' = 'dmy', pivot = 30): string | undefined {
  return readDate(raw, { order, pivot })?.value;
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
  /** Today (YYYY-MM-DD, the service clock's): the default two-digit-year pivot is its year's last two digits. */
  today?: string;
}

/** Targets that can stand for a row's identity: a file needs a column of one of them. */
const IDENTITY_TARGETS = new Set<ImportTarget>(['full_name', 'first_name', 'last_name', 'alias', 'passport', 'national_id', 'ssn', 'tax_id', 'registration_number', 'imo', 'drivers_license', 'phone', 'email', 'other_id']);

/** Reads the whole body, streaming; rows and row errors in file order. */
export async function parseImport(body: Readable, options: ParseOptions): Promise<ParsedImport> {
  const mapping = options.mapping ?? {};
  const pivot = mapping.century_pivot ?? (options.today ? Number(options.today.slice(2, 4)) : 30);
  const evidence = new DateOrderEvidence();
  const tap = new Tap(options.maxBytes);
  body.on('error', (err) => tap.destroy(err));
  const source = body.pipe(tap);
  const out: ParsedImport = {
    format: options.format, mapping: {}, unmappedColumns: [], rows: [], errors: [], errorCount: 0, badRows: 0, rowCount: 0, dateOrders: {}, twoDigitYears: describePivot(pivot), bytes: 0, sha256: '',
  };
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
  /** Columns seen, as recognised (JSON keys are met row by row). */
  const known = new Map<string, RecognisedColumn | undefined>();
  const recognised = (column: string): RecognisedColumn | undefined => {
    if (!known.has(column)) {
      const auto = recogniseColumn(column);
      const target = mapping.columns?.[column] ?? auto?.target;
      const r = target && target !== 'ignore' ? { ...(auto ?? { group: '' }), target } : undefined;
      known.set(column, r);
      if (r?.target === 'date_of_birth') {
        const stated = mapping.dob_order ? { order: mapping.dob_order, by: 'mapping' as const } : auto?.dateOrder ? { order: auto.dateOrder, by: 'header' as const } : undefined;
        evidence.column(column, stated);
      }
    }
    return known.get(column);
  };
  const context: MapContext = { pivot, evidence, statedOrder: (column) => known.get(column)?.dateOrder };
  const record = (cells: ImportCell[], line: number, extra: ImportRowError[] = []) => {
    const { row, errors } = mapRecord(cells, line, mapping, context);
    const all = [...extra, ...errors];
    if (all.length) {
      out.badRows += 1;
      fail(...all);
    }
    if (row && !extra.length) keep(row);
  };
  if (options.format === 'csv') {
    const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true });
    source.on('error', (err) => parser.destroy(err));
    source.pipe(parser);
    let header: string[] | undefined;
    let columns: (RecognisedColumn | undefined)[] = [];
    try {
      for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (!header) {
          header = rec.record.map((h) => h.trim());
          if (header.some((h) => h === '') || new Set(header).size !== header.length) throw new ImportUnreadable('the header row must name every column once');
          columns = header.map(recognised);
          if (!columns.some((c) => c && IDENTITY_TARGETS.has(c.target))) {
            throw new ImportUnreadable(
              `no name or identifier column: none of the ${header.length} columns (${header.join(', ')}) is recognised as a name, an alias, a document number, a phone or an e-mail; send a mapping`,
            );
          }
          continue;
        }
        out.rowCount += 1;
        tooMany();
        const cells: ImportCell[] = [];
        header.forEach((column, i) => {
          const c = columns[i];
          if (c) cells.push({ column, target: c.target, value: rec.record[i] ?? '', group: c.group });
        });
        const line = rec.info.lines;
        record(cells, line, rec.record.length > header.length ? [{ line, field: 'row', reason: `${rec.record.length} cells for ${header.length} columns` }] : []);
        await flushRows();
      }
    } catch (error) {
      if (error instanceof SinkFailed) throw error.cause;
      if (error instanceof ImportTooLarge || error instanceof ImportUnreadable) throw error;
      if ((error as { cause?: unknown }).cause instanceof ImportTooLarge) throw (error as { cause: ImportTooLarge }).cause;
      const e = error as Error & { lines?: number };
      throw new ImportUnreadable(`not readable as CSV${e.lines ? ` at line ${e.lines}` : ''}: ${e.message}`);
    }
    if (!header) throw new ImportUnreadable('the body is empty: a CSV import needs a header row and at least one row');
  } else {
    let line = 0;
    let pending = '';
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const handleLine = (text: string) => {
      line += 1;
      if (text.trim() === '') return;
      out.rowCount += 1;
      tooMany();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        out.badRows += 1;
        fail({ line, field: 'row', reason: 'not valid JSON' });
        return;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        out.badRows += 1;
        fail({ line, field: 'row', reason: 'each line must be a JSON object' });
        return;
      }
      const cells: ImportCell[] = [];
      const problems: ImportRowError[] = [];
      const object = value as Record<string, unknown>;
      if (Array.isArray(object.FEATURES)) {
        // the vendor's nested form: its features make the record
        for (const f of flattenFeatures(object)) {
          if (f.target) known.set(f.key, { target: f.target, group: '' });
          const c = f.target ? known.get(f.key) : recognised(f.key);
          if (c) cells.push({ column: f.key, target: c.target, value: f.value, group: f.group ?? c.group });
        }
      } else {
        for (const [key, raw] of Object.entries(object)) {
          const c = recognised(key);
          if (!c || raw === null) continue;
          if (Array.isArray(raw) && raw.every((x) => typeof x === 'string' || typeof x === 'number')) cells.push({ column: key, target: c.target, value: raw.join('; '), group: c.group });
          else if (typeof raw === 'string' || typeof raw === 'number') cells.push({ column: key, target: c.target, value: String(raw), group: c.group });
          else problems.push({ line, field: key, reason: 'must be a string, a number or an array of them' });
        }
      }
      record(cells, line, problems);
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        pending += decoder.decode(chunk, { stream: true });
        let from = 0;
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          handleLine(pending.slice(from, nl).replace(/\r$/, ''));
          from = nl + 1;
          nl = pending.indexOf('\n', from);
        }
        pending = pending.slice(from);
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
    if (out.rowCount === 0) throw new ImportUnreadable('the body is empty: no JSON lines');
  }
  for (const [column, r] of known) {
    if (r) out.mapping[column] = r.target;
    else out.unmappedColumns.push(column);
  }
  out.dateOrders = evidence.orders();
  out.rows = out.rows.map((r) => resolveDates(r, out.dateOrders));
  out.bytes = tap.bytes;
  out.sha256 = tap.hash.digest('hex');
  return out;
}
