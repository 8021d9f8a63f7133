import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { ListEntity, ListSourceId, ListTopic, EntitySchema, NameRecord, CountryRisk } from '../model';

/** A malformed input: names the file, line and field so an operator can find it. */
export class ListParseError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
    readonly field?: string,
  ) {
    super(`${path.basename(file)}${line !== undefined ? `:${line}` : ''}${field ? ` [${field}]` : ''}: ${message}`);
    this.name = 'ListParseError';
  }
}

/** Bytes-read progress for one list (sum over its files). */
export interface ProgressEvent {
  source: ListSourceId;
  file: string;
  bytesRead: number;
  totalBytes: number;
}

/** What a parser needs: the files of its list, opened as byte-counting streams. */
export class ParseContext {
  private readBefore = 0;
  constructor(
    readonly source: ListSourceId,
    readonly totalBytes: number,
    private readonly onProgress?: (e: ProgressEvent) => void,
  ) {}

  /** A read stream that reports progress as it is consumed. */
  open(file: string): NodeJS.ReadableStream {
    const base = this.readBefore;
    let read = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _enc, cb) => {
        read += chunk.length;
        this.readBefore = base + read;
        this.onProgress?.({ source: this.source, file, bytesRead: this.readBefore, totalBytes: this.totalBytes });
        cb(null, chunk);
      },
    });
    const src = createReadStream(file);
    src.on('error', (err) => counter.destroy(err));
    return src.pipe(counter);
  }

  /** For formats read by random access (ZIP): count the whole file once it is done. */
  markRead(file: string, bytes: number): void {
    this.readBefore += bytes;
    this.onProgress?.({ source: this.source, file, bytesRead: this.readBefore, totalBytes: this.totalBytes });
  }
}

export interface ParsedList {
  entities: ListEntity[];
  countryRisk?: CountryRisk[];
  /** All rows over time, when the source has history (FATF). */
  countryRiskHistory?: CountryRisk[];
  /** The issuer's publication date (YYYY-MM-DD or ISO timestamp), when the file says it. */
  publishedAt?: string;
  /** Raw record counts per file role (sdn, alt, add, edges…), for checks against the publisher's counts. */
  stats?: Record<string, number>;
}

/** SHA-256 over the raw bytes of the files, concatenated in the given (fixed) order. */
export async function hashFiles(files: string[]): Promise<string> {
  const h = createHash('sha256');
  for (const f of files) {
    for await (const chunk of createReadStream(f)) h.update(chunk as Buffer);
  }
  return h.digest('hex');
}

export async function totalSize(files: string[]): Promise<number> {
  let n = 0;
  for (const f of files) n += (await fsp.stat(f)).size;
  return n;
}

/** A fresh entity with every array present, so parsers only push what the source has. */
export function newEntity(
  source: ListSourceId,
  sourceId: string,
  topics: ListTopic[],
  schema: EntitySchema,
  primaryName: string,
): ListEntity {
  return {
    id: `${source}:${sourceId}`,
    source,
    sourceId,
    listVersion: '',
    topics,
    schema,
    primaryName,
    names: [{ value: primaryName, kind: 'primary', script: detectScript(primaryName) }],
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [],
    programs: [],
  };
}

/**
 * Add a name unless the same value is already there. A strong alias in a non-Latin script is kept as
 * original_script; a weak alias that reappears as a stronger kind is upgraded.
 */
export function addName(e: ListEntity, value: string | undefined, kind: NameRecord['kind']): void {
  const v = value?.replace(/\s+/g, ' ').trim();
  if (!v || v === '-0-') return;
  const script = detectScript(v);
  let k = kind;
  if (k === 'strong_alias' && script !== undefined && script !== 'Latn') k = 'original_script';
  const existing = e.names.find((n) => n.value === v);
  if (existing) {
    if (existing.kind === 'weak_alias' && k !== 'weak_alias') existing.kind = k;
    return;
  }
  e.names.push({ value: v, kind: k, script });
}

export function pushUnique<T>(arr: T[], v: T | undefined): void {
  if (v === undefined || v === null || (typeof v === 'string' && !v)) return;
  if (!arr.includes(v)) arr.push(v);
}

/** ISO 15924 code of the dominant script of a string (letters only). */
export function detectScript(s: string): string | undefined {
  const counts = new Map<string, number>();
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    let sc: string | undefined;
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f) || (c >= 0x1e00 && c <= 0x1eff)) sc = 'Latn';
    else if (c >= 0x370 && c <= 0x3ff) sc = 'Grek';
    else if (c >= 0x400 && c <= 0x52f) sc = 'Cyrl';
    else if (c >= 0x590 && c <= 0x5ff) sc = 'Hebr';
    else if ((c >= 0x600 && c <= 0x6ff) || (c >= 0x750 && c <= 0x77f) || (c >= 0xfb50 && c <= 0xfeff)) sc = 'Arab';
    else if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f)) sc = 'Hang';
    else if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf)) sc = 'Hani';
    else if (c >= 0x3040 && c <= 0x30ff) sc = 'Jpan';
    else if (c >= 0x10a0 && c <= 0x10ff) sc = 'Geor';
    else if (c >= 0x530 && c <= 0x58f) sc = 'Armn';
    else if (c >= 0xe00 && c <= 0xe7f) sc = 'Thai';
    if (sc) counts.set(sc, (counts.get(sc) ?? 0) + 1);
  }
  let best: string | undefined;
  let n = 0;
  for (const [k, v] of counts) if (v > n) [best, n] = [k, v];
  return best;
}

const MONTHS: Record<string, string> = {
  jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06',
  jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12',
};

/** "01 Jan 1960" → 1960-01-01, "Jan 1960" → 1960-01, "1960" → 1960; also YYYY-MM-DD and MM/DD/YYYY. */
export function parseLooseDate(raw: string): string | undefined {
  const d = parseLooseDateUnchecked(raw);
  if (!d) return undefined;
  const [, m, day] = d.split('-').map(Number);
  if (m !== undefined && (m < 1 || m > 12)) return undefined;
  if (day !== undefined && (day < 1 || day > 31)) return undefined;
  return d;
}

function parseLooseDateUnchecked(raw: string): string | undefined {
  const s = raw.trim();
  let m = /^(\d{1,2})[ -]([A-Za-z]{3})[A-Za-z]*\.?[ -](\d{2,4})$/.exec(s);
  if (m && MONTHS[m[2].toLowerCase()]) {
    const y = m[3].length === 2 ? (Number(m[3]) > 30 ? '19' : '20') + m[3] : m[3];
    return `${y}-${MONTHS[m[2].toLowerCase()]}-${m[1].padStart(2, '0')}`;
  }
  m = /^([A-Za-z]{3})[A-Za-z]*\.? (\d{4})$/.exec(s);
  if (m && MONTHS[m[1].toLowerCase()]) return `${m[2]}-${MONTHS[m[1].toLowerCase()]}`;
  m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T.*)?$/.exec(s);
  if (m) return [m[1], m[2], m[3]].filter(Boolean).join('-');
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  return undefined;
}

/** Max of ISO date strings (lexicographic works for ISO). */
export function maxDate(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

/** The OFAC-style entity type (`Individual`, `Entity`, `Vessel`, `Aircraft`) as an entity schema. */
export function schemaOfOfacType(t: string | undefined): EntitySchema {
  switch ((t ?? '').trim().toLowerCase()) {
    case 'individual':
      return 'person';
    case 'entity':
      return 'organization';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      return 'unknown';
  }
}

/** Adds a structured address (its parts that are present, and a `full` line) and its country. */
export function addAddress(
  e: ListEntity,
  parts: { street?: string; city?: string; region?: string; postalCode?: string; country?: string; countryName?: string },
  fallbackFull?: string,
): void {
  const { street, city, region, postalCode, country, countryName } = parts;
  e.addresses.push({
    full: [street, city, region, postalCode, countryName].filter(Boolean).join(', ') || (fallbackFull ?? ''),
    ...(street ? { street } : {}),
    ...(city ? { city } : {}),
    ...(region ? { region } : {}),
    ...(postalCode ? { postalCode } : {}),
    ...(country ? { country } : {}),
    ...(countryName ? { countryName } : {}),
  });
  pushUnique(e.countries, country);
}
