/**
 * Runs one outside source under the per-agent budget (spec part 8: the parallel agent pool gives
 * each agent 30 s). The source gets an AbortSignal; if it does not stop in time the outcome is
 * `queried: false` with the timeout, and a source that throws is reported the same way, so one
 * agent can never fail a screening.
 */

import type { HttpJson } from './http';
import { notQueried, type AgentOutcome, type ExternalSource, type SourceSubject } from './types';

export const DEFAULT_AGENT_TIMEOUT_MS = 30_000;

export interface QuerySourceOptions {
  timeoutMs?: number;
  http?: HttpJson;
  /** Monotonic milliseconds for the duration; defaults to performance.now. */
  now?: () => number;
}

export async function querySource(
  source: ExternalSource,
  subject: SourceSubject,
  options: QuerySourceOptions = {},
): Promise<{ outcome: AgentOutcome; durationMs: number }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<AgentOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`agent timeout after ${timeoutMs} ms`));
      resolve(notQueried(`agent timeout after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const outcome = await Promise.race([
      source.query(subject, { signal: controller.signal, http: options.http }).catch((err: unknown) => notQueried(err instanceof Error ? err.message : String(err))),
      timeout,
    ]);
    return { outcome, durationMs: Math.round(now() - started) };
  } finally {
    clearTimeout(timer);
  }
}
