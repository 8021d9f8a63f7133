/**
 * Ongoing monitoring of S2 subject checks: enrolment on the subject-check stream, and the subject
 * checks' share of each list update, run by MonitoringService.onListUpdate right after the screenings'.
 *
 * The same machinery as screenings: the enrolled subjects (monitoring read model,
 * `subject_check_subjects`) are indexed in a SubjectIndex and matched with matchDelta, so only the
 * subjects a delta entity can reach are screened again, by the same list agents; removals and changes
 * find the checks that report the entity through `subject_check_hits` (indexed by entity id). Subject
 * checks have their own id space, so they get their own index and lookups rather than sharing the
 * screenings' (a check and a screening may have the same number). Each intent becomes
 * RecordMonitoringAlert on `subject-check-<id>`; the decider keeps what is news (one alert per list
 * version and entity) and the webhook projector sends the S2 `subject_check.monitoring_alert` callback.
 *
 * Re-screening uses the subject's full name, first location's country and the facts the check was
 * run with (date of birth, nationality, identifiers, address, phone, e-mail: recorded by the enrolment
 * since its version 2), as the screenings' monitoring does: a fresh hit is assessed on them (issue 27),
 * so a namesake whose date of birth the listing contradicts is not a high alert, and the listed date of
 * birth confirms. The alert records that assessment and the level the hit gives on its own. For an
 * enrolment recorded before version 2 the read model takes the facts its SubjectCheckStarted recorded.
 */
import type pg from 'pg';
import type { NameScreener } from '../../agents/lists/list-agents';
import { NotFound } from '../../commands/errors';
import {
  streamName as subjectCheckStream,
  subjectCheckDecider,
  type RecordSubjectCheckMonitoringAlert,
  type SubjectCheckEvent,
} from '../../commands/subject-check';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { projectionSchema } from '../../projections/projection';
import type { ListDelta } from '../../screening/delta';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import type { CommandContext, Principal } from '../services';
import { hitsByEntityId, matchDelta, type AlertIntent, type ReportedHit } from './delta-matcher';
import { CachedSubjectIndex, type MonitoredSubject, type MonitoredSubjectFacts } from './reverse-index';
import { alertIdentity } from './alert-identity';
import { alertFinding } from '../../commands/subject-check/assessment';

export interface SubjectCheckMonitoringStatus {
  subjectCheckId: string;
  monitoring: boolean;
}

/** The subject checks' part of one list update. */
export interface SubjectCheckRunResult {
  enrolled: number;
  subjectsRescreened: number;
  pairsCompared: number;
  intents: number;
  /** Alerts appended (the decider drops what is not news). */
  alertsRaised: number;
}

const ID = /^[1-9][0-9]{0,18}$/;

export class SubjectCheckMonitoring {
  private readonly schema = projectionSchema('monitoring');
  private readonly subjectIndex = new CachedSubjectIndex();

  constructor(private readonly deps: { store: EventStore; pool: pg.Pool; clock: Clock; logger?: Logger }) {}

  private meta(ctx: CommandContext) {
    return { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId };
  }

  /** The check of this account, or NotFound (another account's id looks missing). */
  private async own(principal: Principal, subjectCheckId: string): Promise<void> {
    if (!ID.test(subjectCheckId)) throw new NotFound('subject check', subjectCheckId);
    const { state } = await loadAggregate(this.deps.store, subjectCheckDecider, subjectCheckStream(subjectCheckId));
    if (state.status === 'none' || state.accountId !== principal.accountId) throw new NotFound('subject check', subjectCheckId);
  }

  private async decide(principal: Principal, subjectCheckId: string, type: 'EnrollInMonitoring' | 'UnenrollFromMonitoring', ctx: CommandContext): Promise<SubjectCheckMonitoringStatus> {
    await this.own(principal, subjectCheckId);
    const handled = await handleCommand(this.deps.store, subjectCheckDecider, subjectCheckStream(subjectCheckId), {
      type,
      data: { subjectCheckId },
      metadata: this.meta(ctx),
    });
    return { subjectCheckId, monitoring: handled.state.status !== 'none' && handled.state.monitoring };
  }

  /** Idempotent; only a concluded check (needs_review, escalated, completed): otherwise IllegalTransition (409). */
  enrol(principal: Principal, subjectCheckId: string, ctx: CommandContext): Promise<SubjectCheckMonitoringStatus> {
    return this.decide(principal, subjectCheckId, 'EnrollInMonitoring', ctx);
  }

  /** Idempotent, in any state. */
  unenrol(principal: Principal, subjectCheckId: string, ctx: CommandContext): Promise<SubjectCheckMonitoringStatus> {
    return this.decide(principal, subjectCheckId, 'UnenrollFromMonitoring', ctx);
  }

  /** Enrolled subject checks as monitored subjects (`screeningId` carries the subject check id), with their facts. */
  async enrolledSubjects(): Promise<MonitoredSubject[]> {
    const { rows } = await this.deps.pool.query<{ subject_check_id: string; account_id: string; name: string; jurisdiction: string | null; facts: MonitoredSubjectFacts | null }>(
      `SELECT subject_check_id::text, account_id::text, name, jurisdiction, facts FROM ${this.schema}.subject_check_subjects WHERE enrolled ORDER BY subject_check_id`,
    );
    return rows.map((r) => ({
      screeningId: r.subject_check_id,
      accountId: r.account_id,
      query: r.name,
      entityType: 'individual',
      ...(r.jurisdiction ? { jurisdiction: r.jurisdiction } : {}),
      ...(r.facts ? { facts: r.facts } : {}),
    }));
  }

  private async hitsOn(entityIds: string[]): Promise<Map<string, ReportedHit[]>> {
    if (entityIds.length === 0) return new Map();
    const { rows } = await this.deps.pool.query<{ subject_check_id: string; hit_id: string; entity_id: string; status: 'open' | 'removed'; entity_record_hash: string; tier: string }>(
      `SELECT h.subject_check_id::text, h.hit_id, h.entity_id, h.status, h.entity_record_hash, h.tier
         FROM ${this.schema}.subject_check_hits h
         JOIN ${this.schema}.subject_check_subjects s ON s.subject_check_id = h.subject_check_id AND s.enrolled
        WHERE h.entity_id = ANY($1::text[])`,
      [entityIds],
    );
    return hitsByEntityId(rows.map((r): ReportedHit => ({ screeningId: r.subject_check_id, hitId: r.hit_id, entityId: r.entity_id, status: r.status, entityRecordHash: r.entity_record_hash, category: r.tier })));
  }

  /** The subject checks' share of a list update (the caller has caught the read models up). */
  async onListUpdate(delta: ListDelta, engine: NameScreener): Promise<SubjectCheckRunResult> {
    const subjects = await this.enrolledSubjects();
    if (subjects.length === 0) return { enrolled: 0, subjectsRescreened: 0, pairsCompared: 0, intents: 0, alertsRaised: 0 };
    const index = this.subjectIndex.for(subjects);
    const hitsByEntity = await this.hitsOn([...delta.removed.map((e) => e.id), ...delta.changed.map((c) => c.id)]);
    const { intents, stats } = await matchDelta({ delta, engine, index, hitsByEntity });
    let alertsRaised = 0;
    for (const intent of intents) {
      try {
        alertsRaised += (await this.raise(intent)).length;
      } catch (error) {
        // One check's problem (unenrolled meanwhile, a hit it no longer reports) never stops the others' alerts.
        this.deps.logger?.warn({ err: error, subjectCheckId: intent.screeningId, entityId: intent.entityId }, 'subject-check monitoring alert not recorded');
      }
    }
    return { enrolled: subjects.length, subjectsRescreened: stats.subjectsRescreened, pairsCompared: stats.pairsCompared, intents: stats.intents, alertsRaised };
  }

  private async raise(intent: AlertIntent): Promise<SubjectCheckEvent[]> {
    const fresh = intent.hit ?? intent.rescored;
    const identity = fresh ? alertIdentity(fresh) : undefined;
    const command: RecordSubjectCheckMonitoringAlert = {
      type: 'RecordMonitoringAlert',
      data: {
        subjectCheckId: intent.screeningId,
        kind: intent.kind,
        entityId: intent.entityId,
        listVersion: intent.listVersion,
        diff: intent.diff,
        ...(intent.entityRecordHash ? { entityRecordHash: intent.entityRecordHash } : {}),
        ...(fresh ? { hit: { hitId: fresh.hitId, tier: fresh.category, source: fresh.source, matchedName: fresh.matchedName, score: fresh.score } } : {}),
        ...(fresh && identity ? { identity, riskLevel: alertFinding(fresh.category, fresh, identity).riskLevel } : {}),
      },
      // The command id names the alert: running the same update again appends nothing.
      metadata: {
        now: this.deps.clock.now().toISOString(),
        actor: { surface: 'system' },
        commandId: `monitoring:subject-check-${intent.screeningId}:${intent.listVersion}:${intent.entityId}`,
        correlationId: `monitoring:${intent.listVersion}`,
      },
    };
    const handled = await handleCommand(this.deps.store, subjectCheckDecider, subjectCheckStream(intent.screeningId), command);
    return handled.events;
  }
}
