/**
 * An S3 batch upload streamed to disk (never held whole): size limit, strict UTF-8, SHA-256, and a CSV
 * header with a `name` column or, for JSON lines, a first line that is a JSON object. A refusal throws
 * BatchUploadRefused (the caller removes the file; the route renders it in the S3 envelope).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import type { BatchInputFormat } from '../batch-screening/input';

/** Why an upload is refused (the route renders each in the surface's envelope); nothing is recorded. */
export class BatchUploadRefused extends Error {
  constructor(
    readonly reason: 'too_large' | 'not_utf8' | 'empty' | 'no_name_column' | 'not_json_lines' | 'key_reused' | 'queue_full',
    message: string,
  ) {
    super(message);
  }
}

/** Streams the body to `file`: size limit, strict UTF-8, SHA-256, a header with a name column (CSV) or a first JSON object. */
export async function receiveUpload(upload: Readable, file: string, format: BatchInputFormat, maxBytes: number): Promise<{ bytes: number; sha256: string; rows: number }> {
  const out = createWriteStream(file, { flags: 'wx' });
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let lineBreaks = 0;
  let endsWithBreak = false;
  try {
    // Not destroyed when the loop stops early: the connection must still carry the refusal.
    for await (const chunk of upload.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        throw new BatchUploadRefused('too_large', `The file is larger than the limit of ${maxBytes} bytes; split it into several batches`);
      }
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        throw new BatchUploadRefused('not_utf8', `The file is not valid UTF-8 (near byte ${bytes - chunk.length}); save it as UTF-8`);
      }
      hash.update(chunk);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lineBreaks++;
      endsWithBreak = chunk[chunk.length - 1] === 10;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    try {
      decoder.decode();
    } catch {
      throw new BatchUploadRefused('not_utf8', 'The file is not valid UTF-8 (it ends inside a character); save it as UTF-8');
    }
  } finally {
    out.end();
    await finished(out).catch(() => {});
  }
  const lines = lineBreaks + (endsWithBreak ? 0 : 1);
  const sha256 = hash.digest('hex');
  if (format === 'jsonl') {
    const first = (await firstLine(file, true)).trim();
    if (!first) throw new BatchUploadRefused('empty', 'The file is empty: send JSON lines, one object {"name": …} per line');
    let value: unknown;
    try {
      value = JSON.parse(first);
    } catch {
      // refused below
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new BatchUploadRefused('not_json_lines', `The first line is not a JSON object (found: ${first.slice(0, 100)}); send one object {"name": …} per line`);
    }
    return { bytes, sha256, rows: lines };
  }
  if (bytes === 0) throw new BatchUploadRefused('empty', 'The file is empty: send a CSV with a header line holding a "name" column and one row per name');
  const header = await firstLine(file, false);
  let columns: string[] = [];
  try {
    columns = ((parse(header, { bom: true, trim: true }) as string[][])[0] ?? []).map((c) => c.toLowerCase());
  } catch {
    // reported below as a header without a name column
  }
  if (!columns.includes('name')) {
    throw new BatchUploadRefused('no_name_column', `The header line must have a "name" column (found: ${columns.join(', ').slice(0, 200) || 'nothing'})`);
  }
  return { bytes, sha256, rows: Math.max(0, lines - 1) };
}


/** The file's first line (or first non-blank line), read without reading the rest. */
async function firstLine(file: string, skipBlank: boolean): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
    const lines = text.split(/\r?\n/);
    return (skipBlank ? lines.find((l) => l.trim()) : lines[0]) ?? '';
  } finally {
    await handle.close();
  }
}
