/**
 * Retry delays: one definition for every part that retries (bus redelivery, the relay, the event
 * subscription, the list downloader, the outside sources, webhook delivery). Each keeps its own loop,
 * because what counts as retryable differs (an HTTP status, a transient database error, a handler
 * error); how long to wait before the next try is computed here.
 */
export type Backoff =
  /** initialMs, then × factor (default 2) each retry, capped at maxMs. */
  | { initialMs: number; maxMs?: number; factor?: number }
  /** A fixed schedule (a spec's "30 s, then 2 min"): the n-th entry before retry n, the last repeating, capped at maxMs. */
  | { scheduleMs: readonly number[]; maxMs?: number };

/** The delay before retry `retry` (1 = the first retry after the first failure). */
export function backoffDelay(backoff: Backoff, retry: number): number {
  const n = Math.max(1, retry);
  const delay = 'scheduleMs' in backoff ? (backoff.scheduleMs[Math.min(n, backoff.scheduleMs.length) - 1] ?? 0) : backoff.initialMs * (backoff.factor ?? 2) ** (n - 1);
  return Math.max(0, Math.min(backoff.maxMs ?? Number.POSITIVE_INFINITY, delay));
}
