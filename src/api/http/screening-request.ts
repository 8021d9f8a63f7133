/**
 * A screening creation as S1 and S3 answer it: request it, then wait up to the configured time for
 * its end. The answer is the finished screening (completed, or failed: a pipeline failure is
 * reported as it is, not as "running"), else the screening as requested, still running (202).
 */
import type { CommandContext, Principal, ScreeningRequestInput, ScreeningService, ScreeningView } from '../../app/services';

export async function requestAndAwait(
  screenings: Pick<ScreeningService, 'request' | 'waitForCompletion' | 'get'>,
  principal: Principal,
  input: ScreeningRequestInput,
  ctx: CommandContext,
  waitMs: number,
): Promise<ScreeningView> {
  const requested = await screenings.request(principal, input, ctx);
  if (requested.status !== 'running') return requested;
  const finished = await screenings.waitForCompletion(principal.accountId, requested.id, waitMs);
  if (finished) return finished;
  // The wait ended without a completion: a failure is answered as the failure it is.
  const current = await screenings.get(principal.accountId, requested.id);
  return current?.status === 'failed' ? current : requested;
}
