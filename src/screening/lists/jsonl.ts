import { createInterface } from 'node:readline';
import { ListParseError } from './common';

/** Stream JSON Lines: one object per line, with the line number for error messages. */
export async function* readJsonLines(
  stream: NodeJS.ReadableStream,
  file: string,
): AsyncGenerator<{ obj: Record<string, unknown>; line: number }> {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) {
    line++;
    const t = text.trim();
    if (!t) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch (err) {
      throw new ListParseError(file, `invalid JSON: ${(err as Error).message}`, line, 'json');
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new ListParseError(file, 'each line must be a JSON object', line, 'json');
    }
    yield { obj: obj as Record<string, unknown>, line };
  }
}
