/**
 * Ongoing monitoring of a completed screening: enrolment, and the alerts a list change raises on its
 * hits (new, changed, removed; a cleared hit whose record changed re-opens). Decisions and the state
 * changes of these events; composed with the lifecycle and the case desk in decider.ts.
 */
import { assertNever } from '../../shared/events';
import { isNonEmptyText, stamp } from '../decider';
import { IllegalTransition, Issues, NotFound } from '../errors';
import type {
  EnrollInMonitoring,
  HitReopened,
  MonitoringAlertRaised,
  MonitoringEnrolled,
  MonitoringUnenrolled,
  RecordMonitoringAlert,
  ScreeningEvent,
  UnenrollFromMonitoring,
} from './messages';
import { hitCategories, MAX_HIT_ID_LENGTH, type AlertIdentity, type ScreeningHit } from './model';
import { isMachineConfirmation, MATCH_ASSESSMENTS } from '../../reports/confirmation';
import { type BareEvent, type HitState, type HitStatus, type RequestedScreening, requireCompleted, requireExisting, riskRecomputed, type ScreeningState, validateRisk } from './state';

export type MonitoringCommand = EnrollInMonitoring | UnenrollFromMonitoring | RecordMonitoringAlert;
export type MonitoringEvent = MonitoringEnrolled | MonitoringUnenrolled | MonitoringAlertRaised | HitReopened;

export function decideMonitoring(command: MonitoringCommand, state: ScreeningState): ScreeningEvent[] {
  const s = requireExisting(command, state);
  const ids = { screeningId: s.screeningId, accountId: s.accountId };
  const now = command.metadata.now;
  switch (command.type) {
    case 'EnrollInMonitoring':
      if (s.monitoring) return [];
      requireCompleted(command, s);
      return stamp<ScreeningEvent>(command, [{ type: 'MonitoringEnrolled', data: { ...ids, subject: s.subject, enrolledAt: now } }]);
    case 'UnenrollFromMonitoring':
      if (!s.monitoring) return [];
      return stamp<ScreeningEvent>(command, [{ type: 'MonitoringUnenrolled', data: { ...ids, unenrolledAt: now } }]);
    case 'RecordMonitoringAlert':
      return recordMonitoringAlert(command, s, ids);
    default:
      return assertNever(command, 'screening monitoring command');
  }
}

/**
 * Monitoring alert rules:
 * - only while enrolled; an alert id is recorded once;
 * - a hit cleared as false_positive raises nothing while its entity record is unchanged (same
 *   record hash as when cleared, or a removal); a changed record re-opens it (HitReopened with the diff);
 * - an open/true-match hit raises changed_hit only if its record hash changed, removed_hit once;
 * - new_hit for an entity with no live hit adds a hit (the handler allocates its hitId);
 * - RiskRecomputed follows when the recomputed score, level or summary differs from the recorded one.
 */
function recordMonitoringAlert(
  command: RecordMonitoringAlert,
  s: RequestedScreening,
  ids: { screeningId: string; accountId: string },
): ScreeningEvent[] {
  const d = command.data;
  const now = command.metadata.now;
  if (!s.monitoring) throw new IllegalTransition('screening', 'not_monitored', command.type);
  const issues = new Issues()
    .check(isNonEmptyText(d.alertId, 200), 'alert_id', 'is required')
    .check(['new_hit', 'changed_hit', 'removed_hit'].includes(d.kind), 'kind', 'must be new_hit, changed_hit or removed_hit')
    .check(isNonEmptyText(d.entityId, 500), 'entity_id', 'is required')
    .check(isNonEmptyText(d.listVersion, 200), 'list_version', 'is required')
    .check(typeof d.diff === 'object' && d.diff !== null, 'diff', 'must be an object')
    .check(d.kind === 'removed_hit' || isNonEmptyText(d.entityRecordHash, 200), 'entity_record_hash', 'is required unless the entity was removed')
    .check(
      d.hit?.internalList === undefined ||
        (isNonEmptyText(d.hit.internalList.watchlistId, 100) && ['block', 'review', 'note'].includes(d.hit.internalList.severity) && Number.isInteger(d.hit.internalList.version)),
      'hit.internal_list',
      'must name the list, its version and a severity of block, review or note',
    );
  if (d.identity !== undefined) checkAlertIdentity(issues, d.kind, d.identity);
  if (d.risk) validateRisk(issues, d.risk.riskScore, d.risk.riskLevel, d.risk.summary);
  issues.throwIfAny();
  if (s.alertIds.includes(d.alertId)) return [];

  const live = Object.values(s.hits).find((h) => h.entityId === d.entityId && h.status !== 'removed');
  const events: BareEvent[] = [];
  let newStatus: HitStatus;
  let hitId: string;
  let hitFacts: Pick<ScreeningHit, 'category' | 'source' | 'matchedName' | 'score'>;

  if (d.kind === 'removed_hit') {
    if (!live || live.status === 'false_positive') return [];
    hitId = live.hitId;
    hitFacts = live;
    newStatus = 'removed';
  } else if (live) {
    // new_hit or changed_hit on an entity we already report: only a changed record matters.
    const clearedHash = live.status === 'false_positive' ? live.dispositionRecordHash : live.entityRecordHash;
    if (d.entityRecordHash === clearedHash || d.entityRecordHash === live.entityRecordHash) return [];
    hitId = live.hitId;
    hitFacts = { category: live.category, source: live.source, matchedName: d.hit?.matchedName ?? live.matchedName, score: d.hit?.score ?? live.score };
    if (live.status === 'false_positive') {
      events.push({
        type: 'HitReopened',
        data: { ...ids, hitId, entityId: d.entityId, previousDisposition: 'false_positive', diff: d.diff, reopenedAt: now },
      });
      newStatus = 'open';
    } else {
      newStatus = live.status;
    }
  } else {
    if (d.kind === 'changed_hit') throw new NotFound('hit for entity', d.entityId);
    const h = d.hit;
    new Issues()
      .check(isNonEmptyText(h?.hitId, MAX_HIT_ID_LENGTH) && s.hits[h?.hitId ?? ''] === undefined, 'hit.hit_id', 'a new, unused hit id is required')
      .check((hitCategories as readonly string[]).includes(h?.category ?? ''), 'hit.category', 'is required')
      .check(typeof h?.score === 'number' && h.score >= 0 && h.score <= 1, 'hit.score', 'must be in [0,1]')
      .check(isNonEmptyText(h?.matchedName, 500) && isNonEmptyText(h?.source, 200), 'hit.matched_name', 'matched name and source are required')
      .throwIfAny();
    hitId = h!.hitId;
    hitFacts = { category: h!.category, source: h!.source, matchedName: h!.matchedName, score: h!.score };
    newStatus = 'open';
  }

  events.push({
    type: 'MonitoringAlertRaised',
    data: {
      ...ids,
      alertId: d.alertId,
      kind: d.kind,
      hitId,
      entityId: d.entityId,
      category: hitFacts.category,
      source: hitFacts.source,
      matchedName: hitFacts.matchedName,
      score: hitFacts.score,
      diff: d.diff,
      listVersion: d.listVersion,
      ...(d.entityRecordHash !== undefined ? { entityRecordHash: d.entityRecordHash } : {}),
      raisedAt: now,
      ...(d.kind !== 'removed_hit' && d.hit?.internalList ? { internalList: d.hit.internalList } : {}),
      ...(d.identity ? { identity: { assessment: d.identity.assessment, ...(d.identity.confirmation ? { confirmation: { ...d.identity.confirmation } } : {}), note: d.identity.note } } : {}),
    },
  });
  // A re-score is recorded when the score or level moves, and also when only the summary does (another
  // match counted at the same level): the S1/S3 list takes its summary from RiskRecomputed alone.
  const summaryMoved = d.risk?.summary !== undefined && d.risk.summary !== s.summary;
  if (d.risk && (d.risk.riskScore !== s.riskScore || d.risk.riskLevel !== s.riskLevel || summaryMoved)) {
    const withAlert: RequestedScreening = s.hits[hitId] ? s : { ...s, hits: { ...s.hits, [hitId]: { ...hitFacts, hitId } as HitState } };
    events.push(riskRecomputed(withAlert, ids, d.risk.riskScore, d.risk.riskLevel, 'monitoring_alert', now, { [hitId]: newStatus }, d.risk.summary));
  }
  return stamp<ScreeningEvent>(command, events as never);
}

/**
 * A machine assessment is one of the four, "identity corroborated" exactly when it carries a
 * confirmation, and that confirmation is a fact or a distinctive name (an analyst confirms by a
 * disposition, never through an alert); a removal has nothing to assess.
 */
export function checkAlertIdentity(issues: Issues, kind: RecordMonitoringAlert['data']['kind'], identity: AlertIdentity): void {
  const corroborated = identity.assessment === 'identity_corroborated';
  issues
    .check(kind !== 'removed_hit', 'identity', 'a removal has no assessment')
    .check((MATCH_ASSESSMENTS as readonly string[]).includes(identity.assessment), 'identity.assessment', `must be one of ${MATCH_ASSESSMENTS.join(', ')}`)
    .check(
      corroborated === (identity.confirmation !== undefined),
      'identity.confirmation',
      'is required with identity_corroborated and only with it',
    )
    .check(
      identity.confirmation === undefined || isMachineConfirmation(identity.confirmation),
      'identity.confirmation',
      'must name its basis (date_of_birth, identifier or distinctive_name) and the fact in words',
    )
    .check(isNonEmptyText(identity.note, 2000), 'identity.note', 'is required (at most 2000 characters)');
}

export function evolveMonitoring(state: RequestedScreening, event: MonitoringEvent): ScreeningState {
  switch (event.type) {
    case 'MonitoringEnrolled':
      return { ...state, monitoring: true };
    case 'MonitoringUnenrolled':
      return { ...state, monitoring: false };
    case 'HitReopened': {
      const hit = state.hits[event.data.hitId];
      if (!hit) return state;
      return { ...state, hits: { ...state.hits, [hit.hitId]: { ...hit, status: 'open' } } };
    }
    case 'MonitoringAlertRaised': {
      const d = event.data;
      const existing = state.hits[d.hitId];
      const base: HitState = existing ?? {
        hitId: d.hitId,
        entityId: d.entityId,
        category: d.category,
        source: d.source,
        matchedName: d.matchedName,
        score: d.score,
        listVersion: d.listVersion,
        entityRecordHash: d.entityRecordHash ?? '',
        status: 'open',
      };
      const next: HitState =
        d.kind === 'removed_hit'
          ? { ...base, status: 'removed' }
          : {
              ...base,
              matchedName: d.matchedName,
              score: d.score,
              listVersion: d.listVersion,
              entityRecordHash: d.entityRecordHash ?? base.entityRecordHash,
              status: existing && existing.status !== 'removed' ? existing.status : 'open',
            };
      return { ...state, alertIds: [...state.alertIds, d.alertId], hits: { ...state.hits, [d.hitId]: next } };
    }
    default:
      return assertNever(event, 'screening monitoring event');
  }
}
