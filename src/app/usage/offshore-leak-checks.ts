/**
 * The accounts' monthly offshore-leak checks (S3 Enterprise API, issue 33), kept by the
 * offshore-leak quota aggregate (src/commands/offshore-leak-quota): the screening workflow uses one
 * per screening as its phase 1 starts (src/agents/workflow/offshore-leak-checks.ts); the usage record
 * and the portal read how many the month has used.
 */
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import { LimitExceeded } from '../../commands/errors';
import { offshoreLeakQuotaDecider, offshoreLeakQuotaRefusal, streamName } from '../../commands/offshore-leak-quota';
import type { OffshoreLeakCheckPort } from '../../agents/workflow/offshore-leak-checks';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { Clock } from '../../shared/clock';

/**
 * Appends to one stream per account and month: many screenings of one account starting at once
 * conflict on it and are decided again, so a use gets more attempts than an ordinary command.
 */
const USE_ATTEMPTS = 40;

export class EventSourcedOffshoreLeakChecks implements OffshoreLeakCheckPort {
  constructor(private readonly deps: { store: EventStore; clock: Clock }) {}

  async use(request: { accountId: string; month: string; screeningId: string; limit: number; correlationId?: string }): Promise<{ used: true } | { used: false; reason: string }> {
    const { accountId, month, screeningId, limit } = request;
    try {
      await handleCommand(
        this.deps.store,
        offshoreLeakQuotaDecider,
        streamName(accountId, month),
        {
          type: 'UseOffshoreLeakCheck',
          data: { accountId, month, screeningId, limit },
          metadata: {
            now: this.deps.clock.now().toISOString(),
            actor: { surface: 'system' },
            // One id per screening: even two writers of the same screening's use append one event.
            commandId: `offshore-leak-check:screening-${screeningId}`,
            ...(request.correlationId ? { correlationId: request.correlationId } : {}),
          },
        },
        { maxAttempts: USE_ATTEMPTS },
      );
      return { used: true };
    } catch (error) {
      if (error instanceof LimitExceeded) return { used: false, reason: offshoreLeakQuotaRefusal(error.current, error.limit, month) };
      throw error;
    }
  }

  /** Checks the account has used in the month (`YYYY-MM`). */
  async usedIn(accountId: string, month: string): Promise<number> {
    const { state } = await loadAggregate(this.deps.store, offshoreLeakQuotaDecider, streamName(accountId, month));
    return state.used;
  }
}
