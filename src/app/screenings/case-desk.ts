/**
 * The analyst's desk around one case (a completed screening and the monitoring alerts that add or
 * re-open its hits): who holds it, and its history as a timeline.
 *
 * - assign / unassign: AssignCase / UnassignCase on the screening stream. The assignee is named by
 *   e-mail and must be a user of the screening's own account (tenant isolation: another account's
 *   user, or an unknown e-mail, is refused as a validation error and nothing is written).
 * - history: every step of the case from its stream (requested, completed or failed, each
 *   disposition including "needs more information", assignments, monitoring alerts, re-openings),
 *   oldest first, with the stable identities recorded; the caller turns them into e-mails.
 */
import type pg from 'pg';
import { screeningDecider, streamName as screeningStream, type ScreeningEvent } from '../../commands/screening';
import { NotFound, ValidationFailed } from '../../commands/errors';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { projectionSchema } from '../../projections/projection';
import type { Clock } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import { handleCommand } from '../../commands/command-handler';
import type { CommandContext, Principal } from '../services';

export interface AccountUser {
  userId: string;
  email: string;
  role: string;
}

export type CaseHistoryEntry =
  | { at: string; kind: 'requested' | 'completed'; risk_level?: string }
  | { at: string; kind: 'failed'; reason: string }
  | { at: string; kind: 'disposition'; hit_id: string; decision: string; previous?: string; reason: string; by: string }
  | { at: string; kind: 'assigned'; assignee: string; previous_assignee?: string; by: string }
  | { at: string; kind: 'unassigned'; previous_assignee: string; by: string }
  | { at: string; kind: 'risk_changed'; from: string; to: string; risk_score: number }
  | { at: string; kind: 'monitoring_alert'; hit_id: string; alert: string; list_version: string }
  | { at: string; kind: 'reopened'; hit_id: string };

/**
 * The identity of a user in a history entry, in the form the analyst-name lookup knows
 * (src/app/accounts/analyst-names.ts): `user:<id>`.
 */
export function userIdentity(userId: string): string {
  return userId.includes(':') ? userId : `user:${userId}`;
}

/** A case's history from its stream, oldest first (pure). */
export function caseHistoryOf(events: readonly RecordedEvent[]): CaseHistoryEntry[] {
  const out: CaseHistoryEntry[] = [];
  for (const e of events as readonly (RecordedEvent & ScreeningEvent)[]) {
    switch (e.type) {
      case 'ScreeningRequested':
        out.push({ at: e.data.requestedAt, kind: 'requested' });
        break;
      case 'ScreeningCompleted':
        out.push({ at: e.data.completedAt, kind: 'completed', risk_level: e.data.riskLevel });
        break;
      case 'ScreeningFailed':
        out.push({ at: e.data.failedAt, kind: 'failed', reason: e.data.reason });
        break;
      case 'HitDispositioned':
        out.push({
          at: e.data.dispositionedAt,
          kind: 'disposition',
          hit_id: e.data.hitId,
          decision: e.data.disposition,
          ...(e.data.previousDisposition ? { previous: e.data.previousDisposition } : {}),
          reason: e.data.reason,
          by: e.data.analyst,
        });
        break;
      case 'RiskRecomputed':
        if (e.data.riskLevel !== e.data.previousRiskLevel) {
          out.push({ at: e.data.recomputedAt, kind: 'risk_changed', from: e.data.previousRiskLevel, to: e.data.riskLevel, risk_score: e.data.riskScore });
        }
        break;
      case 'CaseAssigned':
        out.push({
          at: e.data.assignedAt,
          kind: 'assigned',
          assignee: userIdentity(e.data.assigneeUserId),
          ...(e.data.previousAssigneeUserId ? { previous_assignee: userIdentity(e.data.previousAssigneeUserId) } : {}),
          by: userIdentity(e.data.assignedBy),
        });
        break;
      case 'CaseUnassigned':
        out.push({ at: e.data.unassignedAt, kind: 'unassigned', previous_assignee: userIdentity(e.data.previousAssigneeUserId), by: userIdentity(e.data.unassignedBy) });
        break;
      case 'MonitoringAlertRaised':
        out.push({ at: e.data.raisedAt, kind: 'monitoring_alert', hit_id: e.data.hitId, alert: e.data.kind, list_version: e.data.listVersion });
        break;
      case 'HitReopened':
        out.push({ at: e.data.reopenedAt, kind: 'reopened', hit_id: e.data.hitId });
        break;
      default:
        break;
    }
  }
  return out;
}

/** The identities a history names (to look their e-mails up in one go). */
export function identitiesIn(history: readonly CaseHistoryEntry[]): string[] {
  const ids = new Set<string>();
  for (const h of history) {
    if ('by' in h) ids.add(h.by);
    if ('assignee' in h) ids.add(h.assignee);
    if ('previous_assignee' in h && h.previous_assignee) ids.add(h.previous_assignee);
  }
  return [...ids];
}

export interface CaseFile {
  /** The user holding the case, when someone does. */
  assignee?: AccountUser;
  history: CaseHistoryEntry[];
}

export class CaseDesk {
  private readonly accounts = projectionSchema('accounts');

  constructor(private readonly deps: { store: EventStore; pool: pg.Pool; clock: Clock }) {}

  /** The users of the account (the people a case can be assigned to), by e-mail. */
  async users(accountId: string): Promise<AccountUser[]> {
    const { rows } = await this.deps.pool.query<{ user_id: string; email: string; role: string }>(
      `SELECT user_id, email, role FROM ${this.accounts}.users WHERE account_id = $1 ORDER BY lower(email)`,
      [accountId],
    );
    return rows.map((r) => ({ userId: r.user_id, email: r.email, role: r.role }));
  }

  /** The case's assignee and history; NotFound for another account's screening. */
  async caseFile(accountId: string, screeningId: string): Promise<CaseFile> {
    const { state, events } = await this.load(accountId, screeningId);
    const assignee = state.assigneeUserId ? (await this.users(accountId)).find((u) => u.userId === state.assigneeUserId) : undefined;
    return { ...(assignee ? { assignee } : {}), history: caseHistoryOf(events) };
  }

  /**
   * Assigns the case to the user of the principal's account with this e-mail, or unassigns it
   * (null). Who assigns is the signed-in user. An e-mail that is not a user of this account is a
   * validation error on `assignee` (the same answer whether it exists elsewhere or not).
   */
  async assign(principal: Principal, screeningId: string, assigneeEmail: string | null, ctx: CommandContext): Promise<{ assignee?: AccountUser }> {
    if (!principal.userId) throw new ValidationFailed([{ field: 'assignee', message: 'only a signed-in user can assign a case' }]);
    await this.load(principal.accountId, screeningId);
    const metadata = { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId };
    if (assigneeEmail === null) {
      await handleCommand(this.deps.store, screeningDecider, screeningStream(screeningId), {
        type: 'UnassignCase',
        data: { screeningId, unassignedBy: principal.userId },
        metadata,
      });
      return {};
    }
    const users = await this.users(principal.accountId);
    const assignee = users.find((u) => u.email.toLowerCase() === assigneeEmail.trim().toLowerCase());
    if (!assignee) throw new ValidationFailed([{ field: 'assignee', message: 'is not a user of this account' }]);
    await handleCommand(this.deps.store, screeningDecider, screeningStream(screeningId), {
      type: 'AssignCase',
      data: { screeningId, assigneeUserId: assignee.userId, assignedBy: principal.userId },
      metadata,
    });
    return { assignee };
  }

  private async load(accountId: string, screeningId: string) {
    if (!/^[1-9][0-9]{0,18}$/.test(screeningId)) throw new NotFound('screening', screeningId);
    const events = await this.deps.store.readStream(screeningStream(screeningId));
    let state = screeningDecider.initialState();
    for (const e of events) state = screeningDecider.evolve(state, e as unknown as ScreeningEvent);
    if (state.status === 'none' || state.accountId !== accountId) throw new NotFound('screening', screeningId);
    return { state, events };
  }
}
