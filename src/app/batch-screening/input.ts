/**
 * The batch's input rows, streamed, in line order, from a CSV (header line with a `name` column) or from
 * JSON lines (one object per line: `{"name": …, "entity_type"|"type": …, "dob": …, "country": …}`).
 * Both yield the same thing: a row's fields as strings with its line, or the problems of a line that
 * cannot be read (the batch reports them in its errors file and carries on). Row rules (what a valid
 * name, DOB, country is) are applied by the caller, the same for both formats.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';

export type BatchInputFormat = 'csv' | 'jsonl';

export interface RowProblem {
  field: string;
  value: string;
  message: string;
}

export type InputItem =
  /** A row: its fields (lower-case names) as strings. `line` is where it starts (1 = a CSV's header). */
  | { line: number; record: Record<string, string> }
  /** A line that cannot be read as a row. */
  | { line: number; problems: RowProblem[] };

/** The input's header (CSV) cannot be used at all: the whole batch is refused. */
export class BatchInputError extends Error {}

/** Longest JSON line read, in characters (a longer one is reported unreadable and skipped, never held whole). */
export const MAX_JSON_LINE_BYTES = 1024 * 1024;

/** The format a file name says (`.jsonl`, `.ndjson` → JSON lines; anything else CSV). */
export function formatOfFileName(file: string): BatchInputFormat {
  return /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'csv';
}

export function readInput(input: Readable, format: BatchInputFormat): AsyncGenerator<InputItem> {
  return format === 'jsonl' ? jsonLines(input) : csvRows(input);
}

/** Line breaks inside a record's raw text (without the skipped blank lines before it and its own end). */
function countLineBreaks(raw: string): number {
  const body = raw.replace(/^[\r\n]+/, '').replace(/\r?\n?$/, '');
  let n = 0;
  for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) n++;
  return n;
}

async function* csvRows(input: Readable): AsyncGenerator<InputItem> {
  const parser = input.pipe(
    parse({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
      info: true,
      raw: true,
      columns: (header: string[]) => {
        const cols = header.map((c) => c.trim().toLowerCase());
        if (!cols.includes('name')) throw new BatchInputError(`the header must have a "name" column (found: ${cols.join(', ') || 'nothing'})`);
        return cols;
      },
    }),
  );
  input.on('error', (e) => parser.destroy(e));
  // The parser reads ahead: a broken row is reported when the rows reach its line (line order).
  const skipped: { line: number; message: string }[] = [];
  parser.on('skip', (error: Error & { lines?: number }) => {
    skipped.push({ line: error.lines ?? 0, message: error.message });
  });
  const unreadable = (s: { line: number; message: string }): InputItem => ({ line: s.line, problems: [{ field: 'row', value: '', message: `unreadable CSV row: ${s.message}` }] });
  for await (const { record, info, raw } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number }; raw: string }>) {
    // info.lines is where the record ends; a quoted field may hold line breaks
    const line = info.lines - countLineBreaks(raw);
    while (skipped.length && skipped[0]!.line < line) yield unreadable(skipped.shift()!);
    yield { line, record };
  }
  while (skipped.length) yield unreadable(skipped.shift()!);
}

const JSON_FIELDS = ['name', 'entity_type', 'type', 'dob', 'country'] as const;

/** One JSON line as a row: an object whose known fields are strings (a number is taken as its digits). */
function jsonRow(line: number, text: string): InputItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { line, problems: [{ field: 'row', value: text.slice(0, 100), message: `unreadable JSON line: ${(e as Error).message}` }] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { line, problems: [{ field: 'row', value: text.slice(0, 100), message: 'unreadable JSON line: not a JSON object' }] };
  }
  const record: Record<string, string> = {};
  const problems: RowProblem[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = key.trim().toLowerCase();
    if (!(JSON_FIELDS as readonly string[]).includes(field)) continue;
    if (v === null || v === undefined) record[field] = '';
    else if (typeof v === 'string') record[field] = v.trim();
    else if (typeof v === 'number' && Number.isFinite(v)) record[field] = String(v);
    else problems.push({ field: field === 'type' ? 'entity_type' : field, value: JSON.stringify(v).slice(0, 100), message: 'must be a string' });
  }
  return problems.length ? { line, problems } : { line, record };
}

async function* jsonLines(input: Readable): AsyncGenerator<InputItem> {
  const decoder = new TextDecoder('utf-8');
  let line = 0;
  let pending = '';
  /** The current line passed MAX_JSON_LINE_BYTES: its rest is dropped up to the next line break. */
  let overlong = false;
  const finish = (text: string): InputItem | undefined => {
    line++;
    if (overlong) {
      overlong = false;
      return { line, problems: [{ field: 'row', value: '', message: `unreadable JSON line: longer than ${MAX_JSON_LINE_BYTES} characters` }] };
    }
    const body = (line === 1 ? text.replace(/^\uFEFF/, '') : text).replace(/\r$/, '');
    return body.trim() ? jsonRow(line, body) : undefined;
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      if (pending.length + nl - from > MAX_JSON_LINE_BYTES) overlong = true;
      const item = finish(overlong ? '' : pending + text.slice(from, nl));
      pending = '';
      from = nl + 1;
      if (item) yield item;
    }
    if (!overlong) {
      pending += text.slice(from);
      if (pending.length > MAX_JSON_LINE_BYTES) {
        overlong = true;
        pending = '';
      }
    }
  }
  const rest = overlong ? '' : pending + decoder.decode();
  if (overlong || rest.trim()) {
    const item = finish(rest);
    if (item) yield item;
  }
}
