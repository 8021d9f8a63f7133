/**
 * The outside-source HTTP utility (spec part 8 "default HTTP utility"): JSON over HTTP with a
 * per-attempt timeout and bounded retries on transient failures.
 *
 * Defaults: 10 s per attempt, 3 retries after 1.5 s, 3 s and 6 s (every delay capped at 8 s),
 * retried on 5xx, 429, 403, connection reset and timeout. Everything else (4xx, DNS failure,
 * connection refused, invalid JSON) fails at once. `sleep` is injected so tests never wait.
 */
import { backoffDelay } from '../../shared/backoff';
import { systemClock, type Clock } from '../../shared/clock';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_BACKOFF_MS: readonly number[] = [1_500, 3_000, 6_000];
export const MAX_BACKOFF_MS = 8_000;

export interface HttpJsonOptions {
  method?: 'GET' | 'POST';
  /** Serialised as JSON (sets Content-Type) unless a string is given. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Per attempt. Default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  retries?: number;
  /** Delay before retry n (0-based); the last value repeats; each is capped at maxBackoffMs. */
  backoff?: readonly number[] | ((retry: number) => number);
  maxBackoffMs?: number;
  /** Aborts the whole call, including waits between attempts. */
  signal?: AbortSignal;
  sleep?: Sleep;
  /** Reads a Retry-After given as an HTTP date against this clock (default the system clock). */
  clock?: Clock;
  /** For tests or a custom agent; defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  /** Statuses that are a valid "nothing here" answer: returned as `null` instead of thrown (e.g. 404). */
  acceptStatuses?: number[];
}

export class HttpSourceError extends Error {
  constructor(
    message: string,
    readonly kind: 'status' | 'timeout' | 'network' | 'invalid_json' | 'aborted',
    readonly status?: number,
    readonly retryable = false,
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'HttpSourceError';
  }
}

function abortReason(signal: AbortSignal): Error {
  return new HttpSourceError(`aborted: ${String((signal.reason as Error | undefined)?.message ?? signal.reason ?? 'signal')}`, 'aborted');
}

const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']);

function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 403;
}

function networkCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function delayFor(options: HttpJsonOptions, retry: number, retryAfterMs?: number): number {
  const cap = options.maxBackoffMs ?? MAX_BACKOFF_MS;
  const backoff = options.backoff ?? DEFAULT_BACKOFF_MS;
  let base = typeof backoff === 'function' ? backoff(retry) : backoffDelay({ scheduleMs: backoff }, retry + 1);
  if (retryAfterMs !== undefined && retryAfterMs > base) base = retryAfterMs;
  return Math.max(0, Math.min(cap, base));
}

function parseRetryAfter(value: string | null, clock: Clock): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - clock.now().getTime());
}

/** Fetches `url` and parses the JSON body, retrying transient failures. Throws HttpSourceError. */
export async function httpJson<T = unknown>(url: string, options: HttpJsonOptions = {}): Promise<T> {
  const retries = options.retries ?? DEFAULT_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sleep = options.sleep ?? realSleep;
  const doFetch = options.fetchImpl ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }

  let lastError: HttpSourceError | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (options.signal?.aborted) throw abortReason(options.signal);
    let retryAfterMs: number | undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    const onOuterAbort = () => controller.abort(options.signal!.reason);
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      const response = await doFetch(url, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body, signal: controller.signal });
      const text = await response.text();
      if (options.acceptStatuses?.includes(response.status)) return null as T;
      if (!response.ok) {
        retryAfterMs = response.status === 429 ? parseRetryAfter(response.headers.get('retry-after'), options.clock ?? systemClock) : undefined;
        lastError = new HttpSourceError(
          `HTTP ${response.status} from ${safeHost(url)}`,
          'status',
          response.status,
          isRetryableStatus(response.status),
          attempt + 1,
        );
      } else {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new HttpSourceError(`invalid JSON from ${safeHost(url)}`, 'invalid_json', response.status, false, attempt + 1);
        }
      }
    } catch (err) {
      if (err instanceof HttpSourceError) throw err;
      if (options.signal?.aborted) throw abortReason(options.signal);
      if (controller.signal.aborted) {
        lastError = new HttpSourceError(`timeout after ${timeoutMs} ms (${safeHost(url)})`, 'timeout', undefined, true, attempt + 1);
      } else {
        const code = networkCode(err);
        const detail = code ?? (err instanceof Error ? err.message : String(err));
        lastError = new HttpSourceError(
          `network error ${detail} (${safeHost(url)})`,
          'network',
          undefined,
          code !== undefined && RETRYABLE_NETWORK_CODES.has(code),
          attempt + 1,
        );
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onOuterAbort);
    }
    if (!lastError.retryable || attempt === retries) break;
    await sleep(delayFor(options, attempt, retryAfterMs), options.signal);
  }
  const e = lastError!;
  throw new HttpSourceError(
    e.attempts > 1 ? `${e.message} after ${e.attempts} attempts` : e.message,
    e.kind,
    e.status,
    e.retryable,
    e.attempts,
  );
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid url';
  }
}

/** An httpJson with some options fixed (the sleep, a fetch, default timeouts), as adapters receive it. */
export type HttpJson = <T = unknown>(url: string, options?: HttpJsonOptions) => Promise<T>;

export function httpClient(defaults: Partial<HttpJsonOptions>): HttpJson {
  return (url, options = {}) => httpJson(url, { ...defaults, ...options, headers: { ...defaults.headers, ...options.headers } });
}
