/**
 * The monthly offshore-leak checks of an account (S3 Enterprise API: 100 a month, spec part 8; the
 * figure per plan is in ../plans.ts). One stream per account and UTC month,
 * `quota-offshore_leaks-<accountId>-<YYYY-MM>`, with one OffshoreLeakCheckUsed per screening that
 * took one of the month's checks.
 *
 * Why an aggregate: the check is taken by the screening workflow as the screening's phase 1 starts,
 * possibly in several orchestrator processes at once, and a step can be decided again after a crash
 * or a redelivery. The stream's expected revision makes two screenings that both see 99 taken
 * unable to both take the 100th (one append fails, is decided again, and finds the month used up);
 * a screening that already holds a check gets no second one, so a repeated step counts once.
 *
 * A refusal is an error (LimitExceeded), not an event: once the month's checks are used up every
 * later screening of that month is refused the same way, so there is nothing to remember, and the
 * screening's own stream records why its offshore-leak search did not run (PhaseStarted.notQueried).
 */
import { assertNever, type Event } from '../../shared/events';
import { type Command, type Decider, NUMERIC_ID, stamp } from '../decider';
import { Conflict, Issues, LimitExceeded } from '../errors';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function streamName(accountId: string, month: string): string {
  return `quota-offshore_leaks-${accountId}-${month}`;
}
export const offshoreLeakQuotaStreamName = streamName;

/** The UTC month (`YYYY-MM`) an instant falls in: the month whose checks a screening requested then draws on. */
export function quotaMonthOf(instant: string | Date): string {
  return (typeof instant === 'string' ? new Date(instant) : instant).toISOString().slice(0, 7);
}

/** The day a month's quota resets: the 1st of the next month (00:00 UTC), as `YYYY-MM-DD`. */
export function quotaResetDate(month: string): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mm, 1)).toISOString().slice(0, 10);
}

/** Why a screening's offshore-leak search did not run: the words the agent's `error` carries. */
export function offshoreLeakQuotaRefusal(used: number, limit: number, month: string): string {
  return `monthly offshore-leak quota used: ${used} of ${limit}, resets ${quotaResetDate(month)}`;
}

// ---- commands ----
export type UseOffshoreLeakCheck = Command<
  'UseOffshoreLeakCheck',
  {
    accountId: string;
    /** The UTC month the screening was requested in (`YYYY-MM`): the stream's month. */
    month: string;
    screeningId: string;
    /** The month's checks for the screening's plan (from ../plans.ts). */
    limit: number;
  }
>;
export type OffshoreLeakQuotaCommand = UseOffshoreLeakCheck;

// ---- events ----
export type OffshoreLeakCheckUsed = Event<
  'OffshoreLeakCheckUsed',
  { accountId: string; month: string; screeningId: string; checkNumber: number; limit: number; usedAt: string }
>;
export type OffshoreLeakQuotaEvent = OffshoreLeakCheckUsed;
export const offshoreLeakQuotaEventTypes = ['OffshoreLeakCheckUsed'] as const;

// ---- state ----
export interface OffshoreLeakQuotaState {
  /** Absent until the month's first check. */
  accountId?: string;
  month?: string;
  /** Checks taken this month. */
  used: number;
  /** screening id → its check's number (1…limit). */
  byScreening: Readonly<Record<string, number>>;
}

export function initialState(): OffshoreLeakQuotaState {
  return { used: 0, byScreening: {} };
}

/** The number of the check this screening holds, if it took one. */
export function checkHeldBy(state: OffshoreLeakQuotaState, screeningId: string): number | undefined {
  return state.byScreening[screeningId];
}

export function decide(command: OffshoreLeakQuotaCommand, state: OffshoreLeakQuotaState): OffshoreLeakQuotaEvent[] {
  switch (command.type) {
    case 'UseOffshoreLeakCheck': {
      const d = command.data;
      new Issues()
        .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
        .check(MONTH.test(d.month ?? ''), 'month', 'must be YYYY-MM')
        .check(NUMERIC_ID.test(d.screeningId ?? ''), 'screening_id', 'must be a positive integer string')
        .check(Number.isInteger(d.limit) && d.limit >= 1, 'limit', 'must be a positive integer')
        .throwIfAny();
      if ((state.accountId !== undefined && state.accountId !== d.accountId) || (state.month !== undefined && state.month !== d.month)) {
        throw new Conflict(`this stream counts account ${state.accountId}'s checks of ${state.month}`, { accountId: d.accountId, month: d.month });
      }
      // A step decided again (crash, redelivery, a concurrent writer) keeps the check it took.
      if (checkHeldBy(state, d.screeningId) !== undefined) return [];
      if (state.used >= d.limit) throw new LimitExceeded('offshore_leak_checks', d.limit, state.used);
      return stamp<OffshoreLeakQuotaEvent>(command, [
        {
          type: 'OffshoreLeakCheckUsed',
          data: { accountId: d.accountId, month: d.month, screeningId: d.screeningId, checkNumber: state.used + 1, limit: d.limit, usedAt: command.metadata.now },
        },
      ]);
    }
    default:
      return assertNever(command.type, 'offshore-leak quota command');
  }
}

export function evolve(state: OffshoreLeakQuotaState, event: OffshoreLeakQuotaEvent): OffshoreLeakQuotaState {
  switch (event.type) {
    case 'OffshoreLeakCheckUsed':
      return {
        accountId: event.data.accountId,
        month: event.data.month,
        used: state.used + 1,
        byScreening: { ...state.byScreening, [event.data.screeningId]: event.data.checkNumber },
      };
    default:
      return assertNever(event.type, 'offshore-leak quota event');
  }
}

export const offshoreLeakQuotaDecider: Decider<OffshoreLeakQuotaCommand, OffshoreLeakQuotaEvent, OffshoreLeakQuotaState> = {
  decide,
  evolve,
  initialState,
};
