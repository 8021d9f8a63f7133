/**
 * The S3 Enterprise API's monthly offshore-leak checks as the screening workflow uses them (issue 33).
 *
 * A used-up quota limits offshore-leak checks, not screenings: as a screening's phase 1 starts, an
 * S3 screening of a plan with a cap uses one of the month's checks; when none is left, the
 * offshore-leak agent is recorded `queried: false` with the reason ("monthly offshore-leak quota
 * used: 100 of 100, resets 2026-12-01"), like a source this deployment cannot query, and every other
 * source runs. The check is used here, not at the API, so that it is counted once per screening that
 * exists (the quota aggregate keeps one per screening id, whatever repeats the step) and under the
 * stream's expected revision (two screenings at 99 cannot both use the 100th).
 */
import { offshoreLeakChecksPerMonth } from '../../commands/plans';
import { quotaMonthOf } from '../../commands/offshore-leak-quota';
import type { ScreeningState } from '../../commands/screening';
import type { RunContext } from './definition';

export const OFFSHORE_LEAKS_AGENT = 'offshore_leaks';

/** Uses one of an account's monthly offshore-leak checks for a screening (src/app/usage/offshore-leak-checks.ts). */
export interface OffshoreLeakCheckPort {
  /** Idempotent per screening: a screening that used a check keeps it. Refused: the reason to record. */
  use(request: { accountId: string; month: string; screeningId: string; limit: number; correlationId?: string }): Promise<{ used: true } | { used: false; reason: string }>;
}

/** The offshore-leak agent, withheld with the reason when this screening finds the month's checks used up. */
export async function withheldOffshoreLeakCheck(
  port: OffshoreLeakCheckPort,
  agents: readonly string[],
  run: RunContext<ScreeningState>,
): Promise<{ agent: string; error: string }[]> {
  const s = run.state;
  if (s.status === 'none' || !agents.includes(OFFSHORE_LEAKS_AGENT)) return [];
  const limit = offshoreLeakChecksPerMonth(s.plan, s.surface);
  if (limit === null) return [];
  // The month the screening was requested in (the request quota's month too), not the phase's.
  const requested = run.history.find((e) => e.type === 'ScreeningRequested');
  const requestedAt = (requested?.data as { requestedAt?: string } | undefined)?.requestedAt ?? requested?.metadata.occurredAt;
  if (!requestedAt) throw new Error(`screening ${s.screeningId}: no ScreeningRequested in its history`);
  const correlationId = requested?.metadata.correlationId;
  const outcome = await port.use({ accountId: s.accountId, month: quotaMonthOf(requestedAt), screeningId: s.screeningId, limit, ...(correlationId ? { correlationId } : {}) });
  return outcome.used ? [] : [{ agent: OFFSHORE_LEAKS_AGENT, error: outcome.reason }];
}
