import { parse, type Options } from 'csv-parse';
import { ListParseError } from './common';

export interface CsvRow {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
}

/**
 * Stream CSV records with their line numbers. Malformed CSV (e.g. an unclosed quote) becomes a
 * ListParseError naming the file and line.
 */
export async function* readCsv(
  stream: NodeJS.ReadableStream,
  file: string,
  options: Options = {},
): AsyncGenerator<CsvRow> {
  const parser = parse({ relax_column_count: true, relax_quotes: true, bom: true, info: true, ...options });
  stream.on('error', (err) => parser.destroy(err));
  stream.pipe(parser);
  try {
    for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { fields: rec.record, line: rec.info.lines };
    }
  } catch (err) {
    if (err instanceof ListParseError) throw err;
    const e = err as Error & { lines?: number; code?: string };
    throw new ListParseError(file, e.message, e.lines, e.code ? `csv:${e.code}` : undefined);
  }
}

/** A CSV with a header row: yields objects keyed by column name. */
export async function* readCsvWithHeader(
  stream: NodeJS.ReadableStream,
  file: string,
  options: Options = {},
): AsyncGenerator<{ row: Record<string, string>; line: number; header: string[] }> {
  let header: string[] | undefined;
  for await (const { fields, line } of readCsv(stream, file, options)) {
    if (!header) {
      header = fields.map((h) => h.trim());
      continue;
    }
    if (fields.length === 1 && fields[0].trim() === '') continue;
    if (fields.length !== header.length) {
      throw new ListParseError(file, `expected ${header.length} columns, found ${fields.length}`, line, 'columns');
    }
    const row: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) row[header[i]] = fields[i];
    yield { row, line, header };
  }
  if (!header) throw new ListParseError(file, 'empty file: no header row', 1, 'header');
}

/** Split a multi-valued CSV cell (CSL joins with "; "). */
export function splitMulti(v: string | undefined, sep: RegExp | string = /;\s*/): string[] {
  if (!v) return [];
  return v
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
