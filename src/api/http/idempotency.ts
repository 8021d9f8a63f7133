/**
 * `Idempotency-Key` on create requests, the same on every surface (Stripe's semantics):
 * - the first request with a key runs; its 2xx answer is stored for 24 hours;
 * - the same key with the same request (method, path, canonical JSON body) within 24 hours gets that
 *   answer again, same status and body, with `Idempotent-Replayed: true`, and nothing is created;
 * - the same key with another request → 422 `idempotency_key_reused`;
 * - while the first request is still being answered, a duplicate waits for it (up to `waitMs`) and
 *   replays its answer, or gets 409 `idempotency_key_in_progress` with Retry-After;
 * - an answer that is not 2xx (validation, limits, a failure) is not stored: the key is free again.
 * - a streamed body (an import: not parsed before the route) is fingerprinted by its content too: a
 *   SHA-256 computed while the route reads it is stored with the answer; a retry's body is hashed the
 *   same way (read to its end) before its stored answer is replayed, so another file under the same key
 *   is a 422 even with the same type and length.
 * Keys are scoped by surface, account and credential (API key id, or the signed-in user), and are 1-255
 * printable ASCII characters without spaces; another value, or the header sent twice, is a 400.
 *
 * One middleware per create route (`idempotent(...)` before the handler), after authentication and body
 * parsing; every refusal is an ApiError, rendered by the app's error handler in the caller's envelope.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { IdempotencyStore, StoredResponse } from '../../app/idempotency/idempotency-store';
import { systemTimer, type Clock, type Timer } from '../../shared/clock';
import { ctxOf } from './context';
import { ApiError } from './errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/**
 * Every create route that takes the header (the routers mount `idempotent()` on exactly these; the OpenAPI
 * description documents the header and its errors on each, and the service test covers each).
 * Not key rotation: it revokes the credential the retry would carry, so a retry is refused (401) anyway.
 */
export const IDEMPOTENT_CREATE_ROUTES = [
  '/api/v1/screening/cdd',
  '/api/v1/screening/edd',
  '/api/v1/screening/ma',
  '/api/v1/screening/sow',
  '/api/v1/batches',
  '/api/v1/person-checks',
  '/api/v1/keys',
  '/api/v1/compliance/subject-checks',
  '/api/v1/compliance/subject-checks/batch',
  '/api/v1/compliance/webhooks',
  '/api/account/api-keys',
  '/api/portal/screenings',
  '/api/person-checks',
  '/api/portal/keys',
  '/api/v1/watchlists',
  '/api/portal/watchlists',
  '/api/v1/watchlists/{id}/imports',
  '/api/portal/watchlists/{id}/imports',
  '/api/v1/watchlists/{id}/entries',
  '/api/portal/watchlists/{id}/entries',
] as const;

/** Response headers replayed with the stored answer (the rest are the replaying request's own). */
const REPLAYED_HEADERS = ['location', 'retry-after'];

export interface IdempotencyDeps {
  store: IdempotencyStore;
  clock: Clock;
  /** How long a reservation holds before another request may take the key over (crash recovery). */
  leaseMs: number;
  /** How long a duplicate waits for the first request's answer before 409 (default 10 s). */
  waitMs?: number;
  /** Elapsed time of that wait (default the monotonic system timer). */
  timer?: Timer;
}

/** Who the key belongs to; undefined when the request is not authenticated (the route refuses it itself). */
export type CredentialOf = (req: Request, res: Response) => Promise<{ accountId: string; credential: string } | undefined>;

/** Builds the per-route middleware; `undefined` deps make it a pass-through (routers built without a store). */
export type Idempotent = (options?: { credentialOf?: CredentialOf }) => RequestHandler;

/** The credential from the request context the surface's gate filled. */
const fromContext: CredentialOf = async (_req, res) => {
  const auth = ctxOf(res).auth;
  if (!auth) return undefined;
  const credential = auth.keyId ? `key:${auth.keyId}` : auth.userId ? `user:${auth.userId}` : undefined;
  return credential ? { accountId: auth.accountId, credential } : undefined;
};

/** JSON with object keys sorted, so key order and whitespace do not make two requests different. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Counts a header's occurrences in the raw request (node keeps only the first of some, joins others). */
export function headerCount(req: Request, name: string): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === name) count++;
  return count;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createIdempotency(deps: IdempotencyDeps | undefined): Idempotent {
  return (options = {}) => {
    if (!deps) return (_req, _res, next) => next();
    const credentialOf = options.credentialOf ?? fromContext;
    const waitMs = deps.waitMs ?? 10_000;
    const timer = deps.timer ?? systemTimer;
    return (req: Request, res: Response, next: NextFunction): void => {
      if (headerCount(req, IDEMPOTENCY_HEADER) === 0) {
        next();
        return;
      }
      (async () => {
        if (headerCount(req, IDEMPOTENCY_HEADER) > 1) throw new ApiError('bad_request', 'Send the Idempotency-Key header once', { errors: ['Idempotency-Key: sent more than once'] });
        const key = String(req.headers[IDEMPOTENCY_HEADER]);
        if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
          throw new ApiError('bad_request', 'Idempotency-Key must be 1-255 printable ASCII characters without spaces', {
            errors: ['Idempotency-Key: must be 1-255 printable ASCII characters without spaces'],
          });
        }
        const owner = await credentialOf(req, res);
        if (!owner) return true; // unauthenticated: the route answers 401 itself, nothing is reserved
        const scope = `${ctxOf(res).surface}:${owner.accountId}:${owner.credential}`;
        // A streamed body (a batch upload, a watchlist import) is not parsed here: its type, length and the
        // query (the upload's options) stand for it, and the route binds the upload's own SHA-256 to the
        // key (see BatchJobService.create, the watchlist import route).
        const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
        const streamed = req.body === undefined;
        // Hash the raw body as it arrives, whoever reads it (the route, or the replay check below).
        const content = streamed ? (bodyHashes.get(req) ?? hashBodyAsRead(req)) : undefined;
        const body = !streamed ? canonicalJson(req.body) : `stream ${String(req.headers['content-type'] ?? '')} ${String(req.headers['content-length'] ?? '')} ${query}`;
        const requestHash = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}\n${body}`).digest('hex');
        const started = timer.nowMs();
        let pause = 25;
        for (;;) {
          const outcome = await deps.store.begin({ scope, key, requestHash, now: deps.clock.now(), leaseMs: deps.leaseMs });
          switch (outcome.kind) {
            case 'started':
              // The commands bind the ids they draw to the key before they append (CommandContext.idempotency).
              ctxOf(res).idempotency = {
                bindingId: outcome.bindingId,
                keyDigest: createHash('sha256').update(`${scope}\n${key}`).digest('hex'),
                requestHash,
                bind: (names, draw) => deps.store.bind({ scope, key, names, draw }),
              };
              captureAnswer(res, deps, { scope, key, ownerToken: outcome.ownerToken }, content);
              return true;
            case 'replay':
              if (content && outcome.contentHash !== undefined && (await content.whenRead()) !== outcome.contentHash) {
                throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body; use a new key for a new request');
              }
              replay(res, outcome.response);
              return false;
            case 'mismatch':
              throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request');
            case 'in_progress': {
              const waited = timer.nowMs() - started;
              if (waited >= waitMs) {
                const leaseLeft = (outcome.lockedUntil.getTime() - deps.clock.now().getTime()) / 1000;
                throw new ApiError('idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed; retry after the Retry-After seconds', {
                  retryAfterSeconds: Math.min(Math.max(1, leaseLeft), 5),
                });
              }
              await sleep(Math.min(pause, waitMs - waited));
              pause = Math.min(pause * 2, 250);
              break;
            }
            default: {
              const never: never = outcome;
              throw new Error(`unexpected idempotency outcome ${JSON.stringify(never)}`);
            }
          }
        }
      })().then((proceed) => {
        if (proceed) next();
      }, next);
    };
  };
}

function replay(res: Response, stored: StoredResponse): void {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(stored.status).json(stored.body);
}

/**
 * Every answer of a create route (its handler's and the error handler's) goes through res.json: the 2xx
 * one is stored before it is sent, so a retry that arrives after the client saw it always replays it.
 */
function captureAnswer(res: Response, deps: IdempotencyDeps, reservation: { scope: string; key: string; ownerToken: string }, content?: BodyHash): void {
  const { store } = deps;
  const send = res.json.bind(res);
  let settled = false;
  res.json = ((body: unknown) => {
    if (settled) return send(body);
    settled = true;
    const status = res.statusCode;
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const recorded =
      status >= 200 && status < 300
        ? store.complete({ ...reservation, response: { status, headers, body }, ...(content?.digest() ? { contentHash: content.digest()! } : {}) })
        : store.release({ ...reservation, now: deps.clock.now() });
    recorded
      .catch((err: unknown) => ctxOf(res).log.error({ err }, 'idempotency record failed; the reservation expires with its lease'))
      .finally(() => send(body));
    return res;
  }) as Response['json'];
}

const bodyHashes = new WeakMap<Request, BodyHash>();

/**
 * Mounted first in the app: a request with an Idempotency-Key gets its body
 * hashed from its first byte (a hook installed later, after asynchronous authentication, could miss
 * chunks already buffered).
 */
export function hashIdempotentBodies(): RequestHandler {
  return (req, _res, next) => {
    // Every such body (a JSON one costs a hash of at most the JSON limit; which bodies stay unparsed is known only later).
    if (req.headers[IDEMPOTENCY_HEADER] !== undefined && !bodyHashes.has(req)) bodyHashes.set(req, hashBodyAsRead(req));
    next();
  };
}

interface BodyHash {
  /** The body's SHA-256 once it has been read to its end, else undefined. */
  digest(): string | undefined;
  /** Reads what is left of the body (discarding it) and resolves its SHA-256. */
  whenRead(): Promise<string>;
}

/**
 * SHA-256 of a request body as it is read, by whoever reads it: every chunk the HTTP parser pushes
 * into the request stream passes through the hash, without changing how or when the route reads it.
 */
function hashBodyAsRead(req: Request): BodyHash {
  const hash = createHash('sha256');
  let digest: string | undefined;
  const push = req.push.bind(req);
  req.push = ((chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) digest ??= hash.digest('hex');
    else if (digest === undefined) hash.update(chunk as Buffer);
    return push(chunk as Buffer, encoding);
  }) as typeof req.push;
  return {
    digest: () => digest,
    whenRead: async () => {
      if (digest === undefined && !req.readableEnded) {
        req.resume();
        await new Promise<void>((resolve, reject) => {
          req.once('end', resolve);
          req.once('error', reject);
        });
      }
      return digest ?? hash.digest('hex');
    },
  };
}

/** For routers built without an idempotency store (unit tests of a router alone): the header is ignored. */
export const withoutIdempotency: Idempotent = createIdempotency(undefined);
