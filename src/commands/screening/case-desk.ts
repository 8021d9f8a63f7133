/**
 * The screening's case desk, once it completed: analysts' dispositions of hits (each with the risk
 * recomputed) and the case's assignment. Decisions and the state changes of these events; composed
 * with the lifecycle and monitoring in decider.ts.
 */
import { assertNever } from '../../shared/events';
import { isNonEmptyText, stamp } from '../decider';
import { IllegalTransition, Issues, NotFound } from '../errors';
import type { AssignCase, CaseAssigned, CaseUnassigned, DispositionHit, DispositionHits, HitDispositioned, RiskRecomputed, ScreeningEvent, UnassignCase } from './messages';
import { type Disposition, isDisposition } from './model';
import { type RequestedScreening, requireCompleted, requireExisting, riskRecomputed, type ScreeningState, validateRisk } from './state';

export type CaseDeskCommand = DispositionHit | DispositionHits | AssignCase | UnassignCase;

/** Hits one bulk decision may cover (a case rarely has more than a few dozen). */
export const MAX_HITS_PER_DECISION = 100;
export type CaseDeskEvent = HitDispositioned | RiskRecomputed | CaseAssigned | CaseUnassigned;

export function decideCaseDesk(command: CaseDeskCommand, state: ScreeningState): ScreeningEvent[] {
  const s = requireExisting(command, state);
  const ids = { screeningId: s.screeningId, accountId: s.accountId };
  const now = command.metadata.now;
  switch (command.type) {
    case 'DispositionHit': {
      requireCompleted(command, s);
      const d = command.data;
      const hit = s.hits[d.hitId];
      if (!hit) throw new NotFound('hit', d.hitId);
      const issues = new Issues()
        .check(isDisposition(d.disposition), 'disposition', 'must be true_match, false_positive or needs_more_information')
        .check(isNonEmptyText(d.reason, 2000), 'reason', 'must be 1-2000 characters')
        .check(isNonEmptyText(d.analyst, 200), 'analyst', 'is required');
      validateRisk(issues, d.riskScore, d.riskLevel, d.summary);
      issues.throwIfAny();
      if (hit.status === 'removed') throw new IllegalTransition('hit', 'removed', command.type);
      if (hit.status === d.disposition) return [];
      return stamp<ScreeningEvent>(command, [
        hitDispositioned(ids, hit, d, now),
        riskRecomputed(s, ids, d.riskScore, d.riskLevel, 'disposition', now, { [hit.hitId]: d.disposition }, d.summary),
      ]);
    }
    case 'DispositionHits': {
      requireCompleted(command, s);
      const d = command.data;
      const hitIds = Array.isArray(d.hitIds) ? d.hitIds : [];
      const issues = new Issues()
        .check(hitIds.length >= 1 && hitIds.length <= MAX_HITS_PER_DECISION, 'hit_ids', `must name 1-${MAX_HITS_PER_DECISION} hits`)
        .check(new Set(hitIds).size === hitIds.length, 'hit_ids', 'must not name a hit twice')
        .check(isDisposition(d.disposition), 'disposition', 'must be true_match, false_positive or needs_more_information')
        .check(isNonEmptyText(d.reason, 2000), 'reason', 'must be 1-2000 characters')
        .check(isNonEmptyText(d.analyst, 200), 'analyst', 'is required');
      validateRisk(issues, d.riskScore, d.riskLevel, d.summary);
      issues.throwIfAny();
      // Every hit is checked before anything is decided: one unknown or removed hit refuses them all.
      const hits = hitIds.map((id) => {
        const hit = s.hits[id];
        if (!hit) throw new NotFound('hit', id);
        if (hit.status === 'removed') throw new IllegalTransition('hit', 'removed', command.type);
        return hit;
      });
      const changing = hits.filter((hit) => hit.status !== d.disposition);
      if (changing.length === 0) return [];
      return stamp<ScreeningEvent>(command, [
        ...changing.map((hit) => hitDispositioned(ids, hit, d, now)),
        riskRecomputed(s, ids, d.riskScore, d.riskLevel, 'disposition', now, Object.fromEntries(changing.map((hit) => [hit.hitId, d.disposition])), d.summary),
      ]);
    }
    case 'AssignCase': {
      requireCompleted(command, s);
      const d = command.data;
      new Issues()
        .check(isNonEmptyText(d.assigneeUserId, 200), 'assignee', 'is required')
        .check(isNonEmptyText(d.assignedBy, 200), 'assigned_by', 'is required')
        .throwIfAny();
      if (s.assigneeUserId === d.assigneeUserId) return [];
      return stamp<ScreeningEvent>(command, [
        {
          type: 'CaseAssigned',
          data: {
            ...ids,
            assigneeUserId: d.assigneeUserId,
            ...(s.assigneeUserId !== undefined ? { previousAssigneeUserId: s.assigneeUserId } : {}),
            assignedBy: d.assignedBy,
            assignedAt: now,
          },
        },
      ]);
    }
    case 'UnassignCase': {
      requireCompleted(command, s);
      new Issues().check(isNonEmptyText(command.data.unassignedBy, 200), 'unassigned_by', 'is required').throwIfAny();
      if (s.assigneeUserId === undefined) return [];
      return stamp<ScreeningEvent>(command, [
        { type: 'CaseUnassigned', data: { ...ids, previousAssigneeUserId: s.assigneeUserId, unassignedBy: command.data.unassignedBy, unassignedAt: now } },
      ]);
    }
    default:
      return assertNever(command, 'screening case desk command');
  }
}

/** One hit's decision, as a single or a bulk decision records it. */
function hitDispositioned(
  ids: { screeningId: string; accountId: string },
  hit: { hitId: string; entityId: string; status: string; entityRecordHash: string },
  d: { disposition: Disposition; reason: string; analyst: string },
  now: string,
): { type: 'HitDispositioned'; data: HitDispositioned['data'] } {
  return {
    type: 'HitDispositioned',
    data: {
      ...ids,
      hitId: hit.hitId,
      entityId: hit.entityId,
      disposition: d.disposition,
      ...(hit.status !== 'open' ? { previousDisposition: hit.status as Disposition } : {}),
      reason: d.reason,
      analyst: d.analyst,
      entityRecordHash: hit.entityRecordHash,
      dispositionedAt: now,
    },
  };
}

export function evolveCaseDesk(state: RequestedScreening, event: CaseDeskEvent): ScreeningState {
  switch (event.type) {
    case 'HitDispositioned': {
      const hit = state.hits[event.data.hitId];
      if (!hit) return state;
      return {
        ...state,
        hits: {
          ...state.hits,
          [hit.hitId]: { ...hit, status: event.data.disposition, dispositionRecordHash: event.data.entityRecordHash },
        },
      };
    }
    case 'RiskRecomputed':
      return { ...state, riskScore: event.data.riskScore, riskLevel: event.data.riskLevel, ...(event.data.summary !== undefined ? { summary: event.data.summary } : {}) };
    case 'CaseAssigned':
      return { ...state, assigneeUserId: event.data.assigneeUserId };
    case 'CaseUnassigned': {
      const { assigneeUserId: _gone, ...rest } = state;
      return rest;
    }
    default:
      return assertNever(event, 'screening case desk event');
  }
}
