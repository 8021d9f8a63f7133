/**
 * Strict input at the edge, for every surface, before any route sees the request:
 * - a credential header sent twice (Authorization, X-API-Key) is refused: node would keep only
 *   the first (or join them), so which credential the request meant is ambiguous;
 * - a JSON body must be valid UTF-8 (the decoder would otherwise turn bad bytes into U+FFFD and a name
 *   would be stored and screened as something the client never sent);
 * - a JSON object must not name a key twice (JSON.parse keeps the last one silently; a reviver runs
 *   after that choice, so it cannot see the duplicate). `findDuplicateKey` scans the raw text once,
 *   with an explicit stack (no recursion, so deep nesting cannot overflow it).
 * Refusals are ApiErrors (400), rendered in the caller's envelope; nothing has been read by a route.
 */
import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './errors';
import { headerCount } from './idempotency';

const SINGLE_HEADERS = ['authorization', 'x-api-key'];

export function rejectDuplicateCredentialHeaders() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    for (const name of SINGLE_HEADERS) {
      if (headerCount(req, name) > 1) {
        const label = name === 'x-api-key' ? 'X-API-Key' : 'Authorization';
        next(new ApiError('bad_request', `Send the ${label} header once: this request has it more than once`, { errors: [`${label}: sent more than once`] }));
        return;
      }
    }
    next();
  };
}

/** Thrown from the body parser's verify hook; error-mapping renders it as 400. */
export class StrictBodyError extends Error {
  override readonly name = 'StrictBodyError';
  readonly type = 'entity.strict.failed';
  readonly status = 400;
  constructor(message: string) {
    super(message);
  }
}

/** Verifies a raw JSON body (express.json's verify hook, before parsing). */
export function verifyJsonBody(buf: Buffer): void {
  if (!isUtf8(buf)) throw new StrictBodyError('Request body is not valid UTF-8');
  const duplicate = findDuplicateKey(buf.toString('utf8'));
  if (duplicate !== undefined) throw new StrictBodyError(`Request body names the key ${JSON.stringify(duplicate)} twice in one object`);
}

/**
 * The first key found twice in one JSON object (keys compared after unescaping: "a" and "\u0061" are the
 * same key), or undefined. Text that is not JSON yields undefined: the parser that runs next refuses it.
 */
export function findDuplicateKey(text: string): string | undefined {
  // One entry per open container: a Set of keys for an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      // The closing quote is the next one not escaped (preceded by an even number of backslashes);
      // indexOf keeps long string values fast.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return undefined;
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        let key: string;
        try {
          key = JSON.parse(text.slice(start, i + 1)) as string;
        } catch {
          return undefined;
        }
        if (top.has(key)) return key;
        top.add(key);
        expectKey = false;
      }
    } else if (c === 0x7b /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
  return undefined;
}
