/**
 * Ongoing monitoring and analyst dispositions: the application service every surface calls.
 *
 * - enrol / unenrol: EnrollInMonitoring / UnenrollFromMonitoring on the screening stream.
 * - disposition: DispositionHit with the analyst's identity and the risk recomputed from the hits
 *   that still count (HitDispositioned + RiskRecomputed).
 * - onListUpdate(delta): matches only the delta against the enrolled subjects (reverse index, see
 *   delta-matcher.ts) and appends one RecordMonitoringAlert per affected screening and entity; the
 *   decider drops what must not alert (unchanged record, cleared false positive without a change)
 *   and re-opens a false positive whose record changed. The webhook projector turns each
 *   MonitoringAlertRaised into the surface's signed `monitoring.alert`. Enrolled S2 subject checks take
 *   their share of the same update (subject-check-monitoring.ts) when `subjectChecks` is wired.
 */
import type pg from 'pg';
import { StreamRevisionConflictError, type EventStore } from '../../infrastructure/eventstore/port';
import {
  type AlertIdentity,
  screeningDecider,
  streamName as screeningStream,
  type Disposition,
  type DispositionHit,
  type DispositionHits,
  isDisposition,
  type RecordMonitoringAlert,
  type ScreeningEvent,
  type ScreeningState,
} from '../../commands/screening';
import { DomainError, NotFound, ValidationFailed } from '../../commands/errors';
import type { NameScreener } from '../../agents/lists/list-agents';
import { projectionSchema } from '../../projections/projection';
import { computeDelta, type ListDelta } from '../../screening/delta';
import type { CountryRisk, ListEntity, ListVersion } from '../../screening/model';
import { stopwatch, type Clock, type Timer } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import type { Logger } from '../../shared/logger';
import { handleCommand } from '../../commands/command-handler';
import type { CommandContext, Principal } from '../services';
import { hitsByEntityId, matchDelta, type AlertIntent, type DeltaMatchStats, type ReportedHit } from './delta-matcher';
import { CachedSubjectIndex, type MonitoredSubject, type MonitoredSubjectFacts } from './reverse-index';
import type { SubjectCheckRunResult } from './subject-check-monitoring';
import { recomputeRisk } from './risk';
import { alertIdentity } from './alert-identity';
import type { RiskLevel } from '../../commands/plans';

/** What a re-score puts in the command: the score, the level and the summary as the hits will stand. */
function rescored(risk: ReturnType<typeof recomputeRisk>): { riskScore: number; riskLevel: RiskLevel; summary?: string } {
  return { riskScore: risk.riskScore, riskLevel: risk.riskLevel, ...(risk.summary !== undefined ? { summary: risk.summary } : {}) };
}

export interface MonitoringStatus {
  screeningId: string;
  monitoring: boolean;
}

export interface DispositionResult {
  hitId: string;
  disposition: Disposition;
  riskScore: number;
  riskLevel: string;
  /** False when the hit already had this disposition (nothing appended). */
  changed: boolean;
}

/**
 * One list update's monitoring. `enrolled`, `subjectsRescreened`, `pairsCompared`, `intents` and
 * `alertsRaised` count screenings and subject checks together; `subjectChecks` is the checks' share.
 */
export interface MonitoringRunResult extends DeltaMatchStats {
  source?: string;
  fromVersion?: string;
  toVersion?: string;
  enrolled: number;
  subjectChecks?: SubjectCheckRunResult;
  /** Alerts actually appended (the decider drops the ones that must not alert). */
  alertsRaised: number;
  reopened: number;
  ms: number;
}

export interface MonitoringServiceDeps {
  store: EventStore;
  pool: pg.Pool;
  clock: Clock;
  /** Measures how long a run took (default: the system's monotonic time). */
  timer?: Timer;
  logger?: Logger;
  /** The FATF table of the lists in service (for the UK controller rule when risk is recomputed). */
  countryRisk?: () => CountryRisk[];
  /** Wait for read models (tests and the CLI call it before a run). */
  readModelsCaughtUp?: () => Promise<void>;
  /** S2 subject checks' share of each list update (SubjectCheckMonitoring). */
  subjectChecks?: { onListUpdate(delta: ListDelta, engine: NameScreener): Promise<SubjectCheckRunResult> };
}

type Loaded = { state: ScreeningState; events: RecordedEvent[] };

export class MonitoringService {
  private readonly schema = projectionSchema('monitoring');

  constructor(private readonly deps: MonitoringServiceDeps) {}

  private async load(screeningId: string): Promise<Loaded> {
    const events = await this.deps.store.readStream(screeningStream(screeningId));
    let state = screeningDecider.initialState();
    for (const e of events) state = screeningDecider.evolve(state, e as unknown as ScreeningEvent);
    return { state, events };
  }

  /** The screening of this account, or NotFound (other tenants' ids look missing). */
  private async own(principal: Principal, screeningId: string): Promise<Loaded> {
    if (!/^[1-9][0-9]{0,18}$/.test(screeningId)) throw new NotFound('screening', screeningId);
    const loaded = await this.load(screeningId);
    if (loaded.state.status === 'none' || loaded.state.accountId !== principal.accountId) throw new NotFound('screening', screeningId);
    return loaded;
  }

  private meta(ctx: CommandContext) {
    return { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId };
  }

  async enrol(principal: Principal, screeningId: string, ctx: CommandContext): Promise<MonitoringStatus> {
    await this.own(principal, screeningId);
    const r = await handleCommand(this.deps.store, screeningDecider, screeningStream(screeningId), {
      type: 'EnrollInMonitoring',
      data: { screeningId },
      metadata: this.meta(ctx),
    });
    return { screeningId, monitoring: r.state.status !== 'none' && r.state.monitoring };
  }

  async unenrol(principal: Principal, screeningId: string, ctx: CommandContext): Promise<MonitoringStatus> {
    await this.own(principal, screeningId);
    const r = await handleCommand(this.deps.store, screeningDecider, screeningStream(screeningId), {
      type: 'UnenrollFromMonitoring',
      data: { screeningId },
      metadata: this.meta(ctx),
    });
    return { screeningId, monitoring: r.state.status !== 'none' && r.state.monitoring };
  }

  /**
   * Records an analyst's disposition. `analyst` is the authenticated identity (user id, or the key
   * id for key-only surfaces), never a value from the request body.
   */
  async disposition(
    principal: Principal,
    input: { screeningId: string; hitId: string; disposition: Disposition; reason: string; analyst: string },
    ctx: CommandContext,
  ): Promise<DispositionResult> {
    const outcome = await this.decideWithRisk(principal, input.screeningId, (risk): DispositionHit => ({
      type: 'DispositionHit',
      data: { screeningId: input.screeningId, hitId: input.hitId, disposition: input.disposition, reason: input.reason, analyst: input.analyst, ...risk },
      metadata: this.meta(ctx),
    }), (state) => {
      if (!state.hits[input.hitId]) throw new NotFound('hit', input.hitId);
    });
    return { hitId: input.hitId, disposition: input.disposition, ...outcome };
  }

  /**
   * One decision with one comment on several hits of a case (a bulk decision): one HitDispositioned
   * per hit whose decision changes and one RiskRecomputed, appended together or not at all. An
   * unknown or removed hit refuses the whole decision (nothing is written).
   */
  async dispositionMany(
    principal: Principal,
    input: { screeningId: string; hitIds: string[]; disposition: Disposition; reason: string; analyst: string },
    ctx: CommandContext,
  ): Promise<{ hitIds: string[]; disposition: Disposition; riskScore: number; riskLevel: string; changed: boolean }> {
    const outcome = await this.decideWithRisk(principal, input.screeningId, (risk): DispositionHits => ({
      type: 'DispositionHits',
      data: { screeningId: input.screeningId, hitIds: input.hitIds, disposition: input.disposition, reason: input.reason, analyst: input.analyst, ...risk },
      metadata: this.meta(ctx),
    }));
    return { hitIds: input.hitIds, disposition: input.disposition, ...outcome };
  }

  /**
   * A case-desk decision with the risk and summary as they will be once it applies: decide once with
   * the current risk, fold the resulting events into the report, re-score, decide again and append
   * (retried on a concurrent write).
   */
  private async decideWithRisk(
    principal: Principal,
    screeningId: string,
    command: (risk: { riskScore: number; riskLevel: RiskLevel; summary?: string }) => DispositionHit | DispositionHits,
    check: (state: Exclude<ScreeningState, { status: 'none' }>) => void = () => undefined,
  ): Promise<{ riskScore: number; riskLevel: RiskLevel; changed: boolean }> {
    const stream = screeningStream(screeningId);
    for (let attempt = 1; ; attempt++) {
      const { state, events } = await this.own(principal, screeningId);
      if (state.status === 'none') throw new NotFound('screening', screeningId);
      check(state);
      const first = screeningDecider.decide(command({ riskScore: state.riskScore ?? 0, riskLevel: state.riskLevel ?? 'low' }), state);
      if (first.length === 0) return { riskScore: state.riskScore ?? 0, riskLevel: state.riskLevel ?? 'low', changed: false };
      let after: ScreeningState = state;
      for (const e of first) after = screeningDecider.evolve(after, e);
      const withEvents = [...events, ...first.map((e, i) => ({ ...e, streamName: stream, streamPosition: BigInt(events.length + i), globalPosition: 0n, recordedAt: e.metadata.occurredAt }))];
      const risk = recomputeRisk(withEvents, after, this.deps.countryRisk ? { countryRisk: this.deps.countryRisk } : {});
      const decided = screeningDecider.decide(command(rescored(risk)), state);
      try {
        await this.deps.store.appendToStream(stream, decided, { expectedRevision: events[events.length - 1]!.streamPosition });
        return { riskScore: risk.riskScore, riskLevel: risk.riskLevel, changed: true };
      } catch (error) {
        if (error instanceof StreamRevisionConflictError && attempt < 5) continue;
        throw error;
      }
    }
  }

  /** Enrolled subjects, from the monitoring read model, with the identity facts each was screened with. */
  async enrolledSubjects(): Promise<MonitoredSubject[]> {
    const { rows } = await this.deps.pool.query<{
      screening_id: string;
      account_id: string;
      query: string;
      entity_type: MonitoredSubject['entityType'];
      jurisdiction: string | null;
      facts: MonitoredSubjectFacts | null;
    }>(`SELECT screening_id::text, account_id::text, query, entity_type, jurisdiction, facts FROM ${this.schema}.subjects WHERE enrolled ORDER BY screening_id`);
    return rows.map((r) => ({
      screeningId: r.screening_id,
      accountId: r.account_id,
      query: r.query,
      entityType: r.entity_type,
      ...(r.jurisdiction ? { jurisdiction: r.jurisdiction } : {}),
      ...(r.facts ? { facts: r.facts } : {}),
    }));
  }

  /** The reverse index is kept between list updates while the enrolled subjects stay the same. */
  private readonly subjectIndex = new CachedSubjectIndex();

  private async hitsOn(entityIds: string[]): Promise<Map<string, ReportedHit[]>> {
    if (entityIds.length === 0) return new Map();
    const { rows } = await this.deps.pool.query<{ screening_id: string; hit_id: string; entity_id: string; status: ReportedHit['status']; entity_record_hash: string; category: string }>(
      `SELECT h.screening_id::text, h.hit_id, h.entity_id, h.status, h.entity_record_hash, h.category
         FROM ${this.schema}.hits h JOIN ${this.schema}.subjects s ON s.screening_id = h.screening_id AND s.enrolled
        WHERE h.entity_id = ANY($1::text[])`,
      [entityIds],
    );
    return hitsByEntityId(rows.map((r): ReportedHit => ({ screeningId: r.screening_id, hitId: r.hit_id, entityId: r.entity_id, status: r.status, entityRecordHash: r.entity_record_hash, category: r.category })));
  }

  /** Live hits of enrolled screenings on these listed entities (internal-list monitoring reads them too). */
  async liveHitsOn(entityIds: string[]): Promise<Map<string, ReportedHit[]>> {
    await this.deps.readModelsCaughtUp?.();
    return this.hitsOn(entityIds);
  }

  /**
   * Records alerts worked out elsewhere (an internal-list change, src/app/watchlists/watchlist-monitoring.ts)
   * exactly as list-update alerts are: same decider rules, dispositions respected, risk recomputed.
   */
  /**
   * Records each intent's alert (idempotent: the alert id is recorded once). One screening's refusal
   * (a domain error) never stops the others. With `failOnError`, any other failure (the store) is
   * thrown once every intent was tried, so a durable caller retries the lot (watchlist monitoring).
   */
  async raiseAlerts(intents: readonly AlertIntent[], options: { failOnError?: boolean } = {}): Promise<{ alertsRaised: number; reopened: number }> {
    let alertsRaised = 0;
    let reopened = 0;
    const failures: unknown[] = [];
    for (const intent of intents) {
      try {
        const events = await this.raise(intent);
        alertsRaised += events.filter((e) => e.type === 'MonitoringAlertRaised').length;
        reopened += events.filter((e) => e.type === 'HitReopened').length;
      } catch (error) {
        // One screening's problem (e.g. unenrolled meanwhile) never stops the others' alerts.
        this.deps.logger?.warn({ err: error, screeningId: intent.screeningId, entityId: intent.entityId }, 'monitoring alert not recorded');
        if (!(error instanceof DomainError)) failures.push(error);
      }
    }
    if (options.failOnError && failures.length > 0) throw new AggregateError(failures, `${failures.length} monitoring alert(s) not recorded`);
    return { alertsRaised, reopened };
  }

  /** Runs monitoring for one list delta against the engine now in service (built from the new version). */
  async onListUpdate(delta: ListDelta, engine: NameScreener): Promise<MonitoringRunResult> {
    const elapsed = stopwatch(this.deps.timer);
    await this.deps.readModelsCaughtUp?.();
    const subjects = await this.enrolledSubjects();
    const index = this.subjectIndex.for(subjects);
    const hitsByEntity = await this.hitsOn([...delta.removed.map((e) => e.id), ...delta.changed.map((c) => c.id)]);
    const { intents, stats } = await matchDelta({ delta, engine, index, hitsByEntity });
    const { alertsRaised, reopened } = await this.raiseAlerts(intents);
    const checks = await this.deps.subjectChecks?.onListUpdate(delta, engine);
    const result: MonitoringRunResult = {
      ...stats,
      ...(delta.source ? { source: delta.source } : {}),
      ...(delta.fromVersion ? { fromVersion: delta.fromVersion } : {}),
      ...(delta.toVersion ? { toVersion: delta.toVersion } : {}),
      enrolled: subjects.length + (checks?.enrolled ?? 0),
      subjectsRescreened: stats.subjectsRescreened + (checks?.subjectsRescreened ?? 0),
      pairsCompared: stats.pairsCompared + (checks?.pairsCompared ?? 0),
      intents: stats.intents + (checks?.intents ?? 0),
      ...(checks ? { subjectChecks: checks } : {}),
      alertsRaised: alertsRaised + (checks?.alertsRaised ?? 0),
      reopened,
      ms: elapsed(),
    };
    this.deps.logger?.info({ ...result }, 'monitoring run for a list update');
    return result;
  }

  /** One alert: decide without risk, recompute risk on the resulting state, decide again with it, append. */
  private async raise(intent: AlertIntent): Promise<ScreeningEvent[]> {
    const stream = screeningStream(intent.screeningId);
    const alertId = `${intent.listVersion}:${intent.kind}:${intent.entityId}`;
    const commandId = `monitoring:${intent.screeningId}:${alertId}`;
    for (let attempt = 1; ; attempt++) {
      const { state, events } = await this.load(intent.screeningId);
      if (state.status === 'none') return [];
      const live = Object.values(state.hits).find((h) => h.entityId === intent.entityId && h.status !== 'removed');
      const fresh = intent.hit ?? intent.rescored;
      const identity = fresh ? alertIdentity(fresh) : undefined;
      let hitId = live?.hitId ?? fresh?.hitId ?? `monitoring:${intent.entityId}`;
      for (let n = 2; !live && state.hits[hitId]; n++) hitId = `${fresh?.hitId ?? intent.entityId}#${n}`;
      const command: RecordMonitoringAlert = {
        type: 'RecordMonitoringAlert',
        data: {
          screeningId: intent.screeningId,
          alertId,
          kind: intent.kind,
          entityId: intent.entityId,
          diff: intent.diff,
          listVersion: intent.listVersion,
          ...(intent.entityRecordHash ? { entityRecordHash: intent.entityRecordHash } : {}),
          ...(fresh
            ? {
                hit: {
                  hitId,
                  category: fresh.category,
                  source: fresh.source,
                  matchedName: fresh.matchedName,
                  score: fresh.score,
                  listVersion: intent.listVersion,
                  ...(fresh.internalList ? { internalList: fresh.internalList } : {}),
                },
                ...(identity ? { identity } : {}),
              }
            : {}),
        },
        metadata: { now: this.deps.clock.now().toISOString(), actor: { surface: 'system' }, commandId, correlationId: commandId },
      };
      const first = screeningDecider.decide(command, state);
      if (first.length === 0) return [];
      let after: ScreeningState = state;
      for (const e of first) after = screeningDecider.evolve(after, e);
      const withEvents = [...events, ...first.map((e, i) => ({ ...e, streamName: stream, streamPosition: BigInt(events.length + i), globalPosition: 0n, recordedAt: e.metadata.occurredAt }))];
      const risk = recomputeRisk(withEvents, after, this.deps.countryRisk ? { countryRisk: this.deps.countryRisk } : {});
      const decided = screeningDecider.decide({ ...command, data: { ...command.data, risk: rescored(risk) } }, state);
      try {
        await this.deps.store.appendToStream(stream, decided, { expectedRevision: events.length ? events[events.length - 1]!.streamPosition : 'no_stream' });
        return decided;
      } catch (error) {
        if (error instanceof StreamRevisionConflictError && attempt < 5) continue;
        throw error;
      }
    }
  }
}

/** Where list versions come from (ListRegistry satisfies it). */
export interface MonitoredLists {
  currentVersions(): ListVersion[];
  getVersion(versionId: string): Promise<ListEntity[] | undefined>;
}

/**
 * Catches monitoring up with the lists in service: for each list whose version differs from the one it
 * was last monitored at (table monitoring_list_versions), the delta between the two is matched against
 * the enrolled subjects, then the new version is recorded. A list seen for the first time is recorded
 * as the baseline (there is nothing to compare it with). Serialised across processes by an advisory
 * lock, so two instances never raise the same alerts concurrently (the alert ids make it idempotent anyway).
 */
export async function catchUpLists(
  service: MonitoringService,
  deps: { pool: pg.Pool; lists: MonitoredLists; engine: NameScreener; clock: Clock; logger?: Logger },
): Promise<MonitoringRunResult[]> {
  const client = await deps.pool.connect();
  const runs: MonitoringRunResult[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1::int, 0)', [727_180]);
    try {
      for (const version of deps.lists.currentVersions()) {
        const { rows } = await client.query<{ version_id: string }>('SELECT version_id FROM monitoring_list_versions WHERE source = $1', [version.source]);
        const last = rows[0]?.version_id;
        let alerts = 0;
        if (last && last !== version.id) {
          const [old, fresh] = await Promise.all([deps.lists.getVersion(last), deps.lists.getVersion(version.id)]);
          if (old && fresh) {
            const run = await service.onListUpdate(computeDelta(old, fresh, { to: version }), deps.engine);
            run.fromVersion = last;
            runs.push(run);
            alerts = run.alertsRaised;
          } else {
            deps.logger?.warn({ source: version.source, from: last, to: version.id }, 'list version last monitored is not kept: its delta cannot be computed');
          }
        }
        if (last !== version.id) {
          await client.query(
            `INSERT INTO monitoring_list_versions (source, version_id, monitored_at, alerts) VALUES ($1, $2, $3, $4)
             ON CONFLICT (source) DO UPDATE SET version_id = EXCLUDED.version_id, monitored_at = EXCLUDED.monitored_at, alerts = EXCLUDED.alerts`,
            [version.source, version.id, deps.clock.now().toISOString(), alerts],
          );
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::int, 0)', [727_180]);
    }
  } finally {
    client.release();
  }
  return runs;
}

/** Lists never monitored before start from the version in service: there is nothing to compare it with. */
export async function recordMonitoringBaseline(pool: pg.Pool, lists: Pick<MonitoredLists, 'currentVersions'>, clock: Clock): Promise<void> {
  for (const v of lists.currentVersions()) {
    await pool.query(
      'INSERT INTO monitoring_list_versions (source, version_id, monitored_at) VALUES ($1, $2, $3) ON CONFLICT (source) DO NOTHING',
      [v.source, v.id, clock.now().toISOString()],
    );
  }
}

/** Parses an S1/S3 disposition body value. */
export function parseDisposition(value: unknown): Disposition {
  if (isDisposition(value)) return value;
  throw new ValidationFailed([{ field: 'disposition', message: 'must be true_match, false_positive or needs_more_information' }]);
}
