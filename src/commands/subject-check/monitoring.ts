/**
 * Ongoing monitoring of S2 subject checks: the pure rules the subject-check decider applies.
 *
 * - Hits: a source result's hits on listed entities (list-backed, with the SHA-256 of the entity's
 *   record) are what monitoring compares; one per listed entity (the best-scoring one). Outside-source
 *   hits (adverse media, registries) carry no record hash and are not monitored.
 * - Alerts (RecordMonitoringAlert, only while enrolled):
 *   - the alert id is `${listVersion}:${entityId}`: a list version alerts a check at most once per entity,
 *     whatever kind the matcher reports and however often the update is run;
 *   - `removed_hit` only for an entity the check still reports;
 *   - a new or changed record of an entity the check reports alerts `changed_hit` only when the record
 *     hash differs from the one reported (an unchanged record is not news);
 *   - `new_hit` for an entity the check does not report (or reported and saw removed) needs the hit the
 *     check would report now; `changed_hit` for an entity it does not report is NotFound.
 * Subject checks have no analyst dispositions, so there is no false-positive state to respect here; a
 * reviewer's verdict is about the check as a whole and monitoring never changes it.
 */
import { isNonEmptyText } from '../decider';
import { Issues, NotFound } from '../errors';
import { checkAlertIdentity } from '../screening/monitoring';
import type { AlertIdentity } from '../screening/model';
import type { RiskLevel } from '../plans';

export type SubjectCheckStatus = 'running' | 'needs_review' | 'escalated' | 'completed' | 'failed';
export const subjectCheckStatuses: readonly SubjectCheckStatus[] = ['running', 'needs_review', 'escalated', 'completed', 'failed'];

/** What a RecordMonitoringAlert command carries besides the check's id. */
export type MonitoringAlertInput = {
  kind: MonitoringAlertKind;
  /** The listed entity (`${source}:${sourceId}`). */
  entityId: string;
  /** The list version the change comes from; with entityId it names the alert (one per version and entity). */
  listVersion: string;
  /** What changed in the listed record (field → {before, after}), or the new entity. */
  diff: Record<string, unknown>;
  /** Hash of the entity record in the new list version (absent for removals). */
  entityRecordHash?: string;
  /** What the check would report now: required for a new hit, the new score for a changed one. */
  hit?: { hitId: string; tier: string; source: string; matchedName: string; score: number };
  /**
   * The machine's assessment of that hit on the subject's own facts (issue 27), as the list agent made
   * it: with a date of birth the listing contradicts, a namesake; with one it carries, confirmed.
   */
  identity?: AlertIdentity;
  /** The level the shared scorer gives this hit on its own (assessment.ts alertRiskLevel): what the alert means. */
  riskLevel?: RiskLevel;
};

export type MonitoringAlertKind = 'new_hit' | 'changed_hit' | 'removed_hit';
export const monitoringAlertKinds: readonly MonitoringAlertKind[] = ['new_hit', 'changed_hit', 'removed_hit'];

/** A hit on a listed entity as monitoring knows it (the baseline in SubjectCheckMonitoringEnrolled). */
export interface MonitoredHit {
  hitId: string;
  entityId: string;
  tier: string;
  source: string;
  matchedName: string;
  /** Matcher score in [0,1]. */
  score: number;
  entityRecordHash: string;
}
export interface MonitoredHitState extends MonitoredHit {
  status: 'open' | 'removed';
}

/** States with a result to monitor. */
export const CONCLUDED: readonly SubjectCheckStatus[] = ['needs_review', 'escalated', 'completed'];

const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];

export function subjectCheckAlertId(listVersion: string, entityId: string): string {
  return `${listVersion}:${entityId}`;
}

const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

/**
 * The monitorable hits of one recorded source result. Lenient by design (evolve must accept every
 * recorded event): a malformed result (the check then failed) or an outside-source hit yields nothing.
 */
export function monitorableHits(result: { agent: string; tier?: string; queried: boolean; result: Record<string, unknown> }): MonitoredHitState[] {
  if (!result.queried || !Array.isArray(result.result.hits)) return [];
  const out: MonitoredHitState[] = [];
  for (const raw of result.result.hits as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const h = raw as Record<string, unknown>;
    const matchedName = h.matchedName ?? h.entityName;
    if (!text(h.hitId, 200) || !text(h.entityId, 500) || !text(h.entityRecordHash, 200) || !text(h.source, 200) || !text(matchedName, 500)) continue;
    if (typeof h.score !== 'number' || !(h.score >= 0 && h.score <= 1)) continue;
    out.push({
      hitId: h.hitId,
      entityId: h.entityId,
      tier: result.tier ?? result.agent,
      source: h.source,
      matchedName,
      score: h.score,
      entityRecordHash: h.entityRecordHash,
      status: 'open',
    });
  }
  return out;
}

/** The hits still reported (not removed by a later list version), without their status. */
export function liveHits(hits: Record<string, MonitoredHitState>): MonitoredHit[] {
  return Object.values(hits)
    .filter((h) => h.status === 'open')
    .map(({ status: _status, ...hit }) => hit)
    .sort((a, b) => (a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0));
}

export type AlertFacts = Pick<MonitoredHit, 'hitId' | 'entityId' | 'tier' | 'source' | 'matchedName' | 'score'> & {
  /** `${listVersion}:${entityId}`: one alert per list version and listed entity. */
  alertId: string;
  kind: MonitoringAlertKind;
  diff: Record<string, unknown>;
  listVersion: string;
  entityRecordHash?: string;
  raisedAt: string;
  /** New and re-scored hits (version 2): the assessment on the subject's facts; absent on removals and older alerts. */
  identity?: AlertIdentity;
  /** With identity: the level the hit gives on its own (a namesake at most medium, a confirmed sanctions hit critical). */
  riskLevel?: RiskLevel;
};

/** The alert to raise, or undefined when the rules say this change is not news for this check. */
export function recordMonitoringAlert(
  d: MonitoringAlertInput & { subjectCheckId: string },
  hits: Record<string, MonitoredHitState>,
  alertIds: readonly string[],
  now: string,
): AlertFacts | undefined {
  const issues = new Issues()
    .check(monitoringAlertKinds.includes(d.kind), 'kind', 'must be new_hit, changed_hit or removed_hit')
    .check(isNonEmptyText(d.entityId, 500), 'entity_id', 'is required')
    .check(isNonEmptyText(d.listVersion, 200), 'list_version', 'is required')
    .check(typeof d.diff === 'object' && d.diff !== null && !Array.isArray(d.diff), 'diff', 'must be an object')
    .check(d.kind === 'removed_hit' || isNonEmptyText(d.entityRecordHash, 200), 'entity_record_hash', 'is required unless the entity was removed');
  if (d.hit !== undefined) {
    issues
      .check(isNonEmptyText(d.hit.hitId, 200), 'hit.hit_id', 'is required')
      .check(isNonEmptyText(d.hit.tier, 100) && isNonEmptyText(d.hit.source, 200), 'hit.source', 'tier and source are required')
      .check(isNonEmptyText(d.hit.matchedName, 500), 'hit.matched_name', 'is required')
      .check(typeof d.hit.score === 'number' && d.hit.score >= 0 && d.hit.score <= 1, 'hit.score', 'must be in [0,1]');
  }
  if (d.identity !== undefined) {
    checkAlertIdentity(issues, d.kind, d.identity);
    issues.check(d.hit !== undefined, 'identity', 'assesses the hit the check would report: the hit is required');
  }
  issues.check(
    d.riskLevel === undefined || (d.identity !== undefined && (RISK_LEVELS as readonly string[]).includes(d.riskLevel)),
    'risk_level',
    `must be one of ${RISK_LEVELS.join(', ')}, and only with an assessment`,
  );
  issues.throwIfAny();

  const alertId = subjectCheckAlertId(d.listVersion, d.entityId);
  if (alertIds.includes(alertId)) return undefined;
  const known = hits[d.entityId];
  const live = known?.status === 'open' ? known : undefined;
  const base = { alertId, entityId: d.entityId, diff: d.diff, listVersion: d.listVersion, raisedAt: now };
  const assessed = d.identity
    ? {
        identity: { assessment: d.identity.assessment, ...(d.identity.confirmation ? { confirmation: { ...d.identity.confirmation } } : {}), note: d.identity.note },
        ...(d.riskLevel ? { riskLevel: d.riskLevel } : {}),
      }
    : {};

  if (d.kind === 'removed_hit') {
    if (!live) return undefined;
    const { hitId, tier, source, matchedName, score } = live;
    return { ...base, kind: 'removed_hit', hitId, tier, source, matchedName, score };
  }
  if (live) {
    if (d.entityRecordHash === live.entityRecordHash) return undefined;
    return {
      ...base,
      kind: 'changed_hit',
      hitId: live.hitId,
      tier: live.tier,
      source: live.source,
      matchedName: d.hit?.matchedName ?? live.matchedName,
      score: d.hit?.score ?? live.score,
      entityRecordHash: d.entityRecordHash!,
      ...assessed,
    };
  }
  if (d.kind === 'changed_hit') throw new NotFound('hit for entity', d.entityId);
  if (!d.hit) {
    new Issues().add('hit', 'a new hit needs the hit the check would report').throwIfAny();
  }
  const h = d.hit!;
  return { ...base, kind: 'new_hit', hitId: h.hitId, tier: h.tier, source: h.source, matchedName: h.matchedName, score: h.score, entityRecordHash: d.entityRecordHash!, ...assessed };
}
