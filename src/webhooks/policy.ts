/**
 * Delivery policies per surface (spec part 6 and part 8). Delays are measured from the start of
 * one attempt to the start of the next, on the injected clock.
 */
import type { WebhookSurface } from './payloads';

/** What one HTTP attempt came to. */
export type AttemptResult =
  | { kind: 'response'; statusCode: number; snippet: string }
  | { kind: 'timeout'; error: string }
  | { kind: 'transport'; error: string }
  /** The SSRF guard refused the destination at delivery time: retrying cannot help. */
  | { kind: 'blocked'; error: string };

export type AttemptVerdict = 'succeeded' | 'retryable' | 'terminal';

export interface DeliveryPolicy {
  surface: WebhookSurface;
  /** Total attempts including the first. */
  maxAttempts: number;
  /** delaysMs[i] = wait between attempt i+1 and attempt i+2. */
  delaysMs: readonly number[];
  timeoutMs: number;
  classify(result: AttemptResult): AttemptVerdict;
  /** Outbox status once attempts are exhausted or a terminal answer came back. */
  givenUpStatus: 'failed' | 'dropped';
  /** Disable the endpoint after this many consecutive failed deliveries (S3). */
  autoDisableAfter?: number;
}

const is2xx = (code: number) => code >= 200 && code <= 299;

/** S1: "Failed delivery (non-2xx or timeout) is retried 3 times after 30 s, 5 min, 30 min; after 3 failures the event is dropped." */
function classifyAnyFailureRetryable(result: AttemptResult): AttemptVerdict {
  if (result.kind === 'response') return is2xx(result.statusCode) ? 'succeeded' : 'retryable';
  return result.kind === 'blocked' ? 'terminal' : 'retryable';
}

/** S2 rule 3: transport failures, 5xx, 408 and 429 are retried; other 4xx are terminal. */
function classifyTransientOnly(result: AttemptResult): AttemptVerdict {
  if (result.kind === 'blocked') return 'terminal';
  if (result.kind !== 'response') return 'retryable';
  const code = result.statusCode;
  if (is2xx(code)) return 'succeeded';
  if (code >= 500 || code === 408 || code === 429) return 'retryable';
  // Other 4xx are terminal by the spec; 1xx/3xx (we never follow redirects) cannot improve by retrying either.
  return 'terminal';
}

export const S1_POLICY: DeliveryPolicy = {
  surface: 's1',
  maxAttempts: 4,
  delaysMs: [30_000, 5 * 60_000, 30 * 60_000],
  timeoutMs: 10_000,
  classify: classifyAnyFailureRetryable,
  givenUpStatus: 'dropped',
};

export const S2_POLICY: DeliveryPolicy = {
  surface: 's2',
  maxAttempts: 3,
  delaysMs: [1_000, 5_000],
  timeoutMs: 10_000,
  classify: classifyTransientOnly,
  givenUpStatus: 'failed',
};

/** S3: 3 attempts with exponential backoff (30 s, then 4 × 30 s = 2 min); auto-disable after 10 failed deliveries. */
export const S3_POLICY: DeliveryPolicy = {
  surface: 's3',
  maxAttempts: 3,
  delaysMs: [30_000, 120_000],
  timeoutMs: 10_000,
  classify: classifyTransientOnly,
  givenUpStatus: 'failed',
  autoDisableAfter: 10,
};

export const DEFAULT_POLICIES: Readonly<Record<WebhookSurface, DeliveryPolicy>> = { s1: S1_POLICY, s2: S2_POLICY, s3: S3_POLICY };

export const USER_AGENT = 'Service-Webhooks/1.0';
