/**
 * Screening aggregate: its commands and events (past tense), one union each. The decisions that
 * take them are split by concern (lifecycle.ts, case-desk.ts, monitoring.ts) and composed in decider.ts.
 */
import type { Event } from '../../shared/events';
import type { AgentAnswer, Command } from '../decider';
import type { Plan, RiskLevel } from '../plans';
import type { PhaseMode, PhasePlan, PipelinePhase, ScreeningKind } from './pipeline';
import type {
  AlertIdentity,
  Disposition,
  EddDeclarations,
  HitCategory,
  HitCounts,
  InternalListRef,
  ListVersionRef,
  MaDeal,
  MonitoringAlertKind,
  ScreeningHit,
  ScreeningSubject,
  ScreeningSurface,
  SowRequest,
} from './model';

// ---- commands ----
type Meta = { screeningId: string };
export type RequestScreening = Command<
  'RequestScreening',
  {
    screeningId: string;
    uuid: string;
    kind: ScreeningKind;
    surface: ScreeningSurface;
    accountId: string;
    /** The account's plan when requested (drives plan rules and tier gates). */
    plan: Plan;
    subject: ScreeningSubject;
    edd?: EddDeclarations;
    ma?: MaDeal;
    sow?: SowRequest;
    /** Enrol in ongoing monitoring as soon as the screening completes. */
    monitor?: boolean;
    /**
     * The account's internal-list versions active at request time (`watchlist-<id>@v<n>`; [] when it had
     * none): the sanctions agent screens exactly these, on the first run and on any later one, so a list
     * edited while the screening runs does not change what it was screened against (issue 21, as person checks).
     */
    internalListVersions?: string[];
  }
>;
/** A source this deployment cannot query (not configured, no agent serves it), recorded as the phase starts. */
export interface SourceNotQueried {
  agent: string;
  error: string;
}
export type StartPhase = Command<
  'StartPhase',
  Meta & {
    phase: PipelinePhase;
    /**
     * Agents of a parallel phase known unqueryable at its start: recorded in PhaseStarted itself, as
     * `{queried: false, error}` results, instead of one AgentResultRecorded each (most of a
     * screening's events were such not-queried results: they cost a hash, an insert, a relay
     * message and a read-model pass apiece). When they are all of the phase's agents, the phase
     * is recorded as one PhaseSkipped instead of PhaseStarted + PhaseCompleted.
     */
    notQueried?: SourceNotQueried[];
    /**
     * When the phase must be over (ISO instant, from the process manager's clock + the configured
     * phase deadline). Past it the supervisor expires the phase (ExpirePhase). Optional only for
     * callers that predate deadlines; the process manager always sets it.
     */
    deadline?: string;
    /**
     * Only with a phase that is skipped (`notQueried` covers all its agents): the phases that follow
     * it in the plan, in order, none of whose agents can be queried either. They are recorded in the
     * same PhaseSkipped (`thenSkipped`) instead of one PhaseSkipped each: without outside sources
     * configured, phases 1b-4 of a screening are four such phases in a row.
     */
    thenSkipped?: SkippedPhase[];
  }
>;
/** A phase none of whose agents this deployment can query: each recorded as not queried, in plan order. */
export interface SkippedPhase {
  phase: PipelinePhase;
  notQueried: SourceNotQueried[];
}
/**
 * The supervisor found a phase still running past its deadline (its agent tasks were lost, or a
 * worker died). Within the retry budget the phase's pending agents are dispatched again with a new
 * deadline (PhaseRetried); once the budget is spent they are recorded as not queried with an error
 * (the spec's failing-agent rule), so the screening completes with the data gap shown.
 */
export type ExpirePhase = Command<
  'ExpirePhase',
  Meta & {
    phase: PipelinePhase;
    /** Re-dispatches allowed before giving up on the pending agents. */
    retryBudget: number;
    /** Deadline of the re-dispatched attempt. */
    retryDeadline: string;
  }
>;
export type RecordAgentResult = Command<'RecordAgentResult', Meta & AgentAnswer<PipelinePhase>>;
export type CompletePhase = Command<
  'CompletePhase',
  Meta & {
    phase: PipelinePhase;
    /**
     * Only for a phase not yet started whose agents all answered in this process in one step (phase 5,
     * finalisation): every agent's answer, in plan order, recorded in the PhaseCompleted itself
     * (`results`) instead of a PhaseStarted, one AgentResultRecorded each and a PhaseCompleted.
     * Without it, the phase must have started and every agent's result be recorded already.
     */
    results?: PhaseResult[];
  }
>;
/** One agent's answer recorded in its phase's PhaseCompleted (`results`): an AgentResultRecorded's fields but the ids and the phase. */
export type PhaseResult = Omit<AgentAnswer<PipelinePhase>, 'phase'>;
/** What a screening concluded: given by CompleteScreening, recorded as is by ScreeningCompleted. */
// a type alias, not an interface: command and event data must stay assignable to Record<string, unknown>
export type ScreeningVerdict = {
  riskScore: number;
  riskLevel: RiskLevel;
  counts: HitCounts;
  hits: ScreeningHit[];
  summary?: string;
  /** EDD or M&A markdown analysis (required for those kinds). */
  analysis?: string;
  listVersions: ListVersionRef[];
  matcherVersion: string;
};
export type CompleteScreening = Command<'CompleteScreening', Meta & ScreeningVerdict>;
export type FailScreening = Command<'FailScreening', Meta & { reason: string }>;
export type DispositionHit = Command<
  'DispositionHit',
  Meta & {
    hitId: string;
    disposition: Disposition;
    reason: string;
    analyst: string;
    /** Recomputed from the hits still counting (see hitsCountingTowardRisk) by the handler's scorer. */
    riskScore: number;
    riskLevel: RiskLevel;
    /** The screening's summary with its matches sentence as the hits stand once decided (src/reports/match-summary.ts). */
    summary?: string;
  }
>;
/**
 * One decision, with one comment, on several hits of a case at once (a bulk decision: every hit on
 * a bank's subsidiaries is a false positive, "not the bank onboarded"). All or nothing: one
 * HitDispositioned per hit whose decision changes, then one RiskRecomputed, in one append.
 */
export type DispositionHits = Command<
  'DispositionHits',
  Meta & {
    hitIds: string[];
    disposition: Disposition;
    reason: string;
    analyst: string;
    /** Recomputed from the hits still counting once every one of them is decided. */
    riskScore: number;
    riskLevel: RiskLevel;
    /** The summary as the hits stand once every one of them is decided. */
    summary?: string;
  }
>;
/**
 * Assigns the case (a completed screening, with its monitoring alerts) to a user of the account, or
 * reassigns it. The handler checks that the assignee is a user of the screening's account (tenant
 * isolation); the decider records who assigned it (`assignedBy`, the signed-in user) and when.
 */
export type AssignCase = Command<'AssignCase', Meta & { assigneeUserId: string; assignedBy: string }>;
export type UnassignCase = Command<'UnassignCase', Meta & { unassignedBy: string }>;
export type EnrollInMonitoring = Command<'EnrollInMonitoring', Meta>;
export type UnenrollFromMonitoring = Command<'UnenrollFromMonitoring', Meta>;
export type RecordMonitoringAlert = Command<
  'RecordMonitoringAlert',
  Meta & {
    alertId: string;
    kind: MonitoringAlertKind;
    entityId: string;
    /** What changed in the listed record (field → {before, after}), or the new entity for new hits. */
    diff: Record<string, unknown>;
    listVersion: string;
    /** Hash of the entity record in the new list version (absent for removals). */
    entityRecordHash?: string;
    /** Required for a new hit (the handler allocates hitId). */
    hit?: Omit<ScreeningHit, 'entityId' | 'entityRecordHash'>;
    /** The machine's assessment of the new or re-scored hit on the subject's facts (absent: the match was not re-scored). */
    identity?: AlertIdentity;
    /** Optional recomputed risk (and the summary as the hits stand) after this alert. */
    risk?: { riskScore: number; riskLevel: RiskLevel; summary?: string };
  }
>;
export type ScreeningCommand =
  | RequestScreening
  | StartPhase
  | ExpirePhase
  | RecordAgentResult
  | CompletePhase
  | CompleteScreening
  | FailScreening
  | DispositionHit
  | DispositionHits
  | AssignCase
  | UnassignCase
  | EnrollInMonitoring
  | UnenrollFromMonitoring
  | RecordMonitoringAlert;

// ---- events ----
type Ids = { screeningId: string; accountId: string };
export type ScreeningRequested = Event<
  'ScreeningRequested',
  Ids & {
    uuid: string;
    kind: ScreeningKind;
    surface: ScreeningSurface;
    plan: Plan;
    subject: ScreeningSubject;
    edd?: EddDeclarations;
    ma?: MaDeal;
    sow?: SowRequest;
    monitor: boolean;
    /** The account's internal-list versions pinned at request time (absent in screenings recorded before they were). */
    internalListVersions?: string[];
    pipeline: PhasePlan[];
    requestedAt: string;
  }
>;
export type PhaseStarted = Event<
  'PhaseStarted',
  Ids & { phase: PipelinePhase; agents: string[]; mode: PhaseMode; startedAt: string; notQueried?: SourceNotQueried[]; deadline?: string }
>;
/** An overdue phase's pending agents were dispatched again (attempt 2, 3, …) with a new deadline. */
export type PhaseRetried = Event<
  'PhaseRetried',
  Ids & { phase: PipelinePhase; attempt: number; agents: string[]; previousDeadline?: string; deadline: string; retriedAt: string }
>;
/**
 * Every agent of the phase is a source this deployment cannot query, so the phase started and
 * completed at once: one event instead of PhaseStarted + PhaseCompleted (each event costs a hash,
 * an insert, a relay message and a pass of every reader). Each agent is listed as not queried,
 * with its reason, in plan order. `thenSkipped` (schema version 2; absent in events recorded before
 * it) lists the phases right after it in the plan that were skipped the same way, in order: one
 * event for a run of skipped phases. Read it through `skippedPhases`.
 */
export type PhaseSkipped = Event<'PhaseSkipped', Ids & { phase: PipelinePhase; notQueried: SourceNotQueried[]; thenSkipped?: SkippedPhase[]; skippedAt: string }>;

/** Every phase a PhaseSkipped records, in plan order (version 1 events: their one phase). */
export function skippedPhases(data: PhaseSkipped['data']): SkippedPhase[] {
  return [{ phase: data.phase, notQueried: data.notQueried }, ...(data.thenSkipped ?? [])];
}
export type AgentResultRecorded = Event<'AgentResultRecorded', Ids & AgentAnswer<PipelinePhase>>;
/**
 * Every agent of the phase answered. `results` (schema version 2; absent in events recorded before it
 * and in phases whose results were recorded one by one): the phase ran here from start to end in one
 * step (phase 5, finalisation) and this one event records it whole: as a PhaseStarted, one
 * AgentResultRecorded per result in order, then a PhaseCompleted (each event costs a hash, an insert,
 * a read-back, a relay message and a pass of every reader: the finalisation step was 8 of a CDD
 * screening's 16 events). Read a screening's answers through `answersRecordedBy`.
 */
export type PhaseCompleted = Event<
  'PhaseCompleted',
  Ids & { phase: PipelinePhase; agentsQueried: string[]; agentsNotQueried: string[]; results?: PhaseResult[]; completedAt: string }
>;

/**
 * The agents' answers a screening event records, in order: an AgentResultRecorded's one, a
 * PhaseCompleted's `results` (v2), none for any other event. Every reader of agent results (the
 * report fold, the risk facts, the SOW view, the portal's progress) reads them through this, so a
 * stream recorded either way gives them the same answers.
 */
export function answersRecordedBy(event: { type: string; data: unknown }): AgentAnswer<PipelinePhase>[] {
  if (event.type === 'AgentResultRecorded') return [event.data as AgentResultRecorded['data']];
  if (event.type !== 'PhaseCompleted') return [];
  const d = event.data as PhaseCompleted['data'];
  return (d.results ?? []).map((r) => ({ phase: d.phase, ...r }));
}
export type ScreeningCompleted = Event<
  'ScreeningCompleted',
  Ids &
    ScreeningVerdict & {
      uuid: string;
      kind: ScreeningKind;
      surface: ScreeningSurface;
      sowScreeningId?: string;
      completedAt: string;
    }
>;
export type ScreeningFailed = Event<'ScreeningFailed', Ids & { uuid: string; kind: ScreeningKind; surface: ScreeningSurface; reason: string; failedAt: string }>;
export type HitDispositioned = Event<
  'HitDispositioned',
  Ids & {
    hitId: string;
    entityId: string;
    disposition: Disposition;
    previousDisposition?: Disposition;
    reason: string;
    analyst: string;
    /** The entity record the analyst looked at: a later change re-opens a false positive. */
    entityRecordHash: string;
    dispositionedAt: string;
  }
>;
export type RiskRecomputed = Event<
  'RiskRecomputed',
  Ids & {
    previousRiskScore: number;
    previousRiskLevel: RiskLevel;
    riskScore: number;
    riskLevel: RiskLevel;
    /** Hits that still count toward risk (open, needing more information, or true match). */
    countingHitIds: string[];
    cause: 'disposition' | 'monitoring_alert';
    recomputedAt: string;
    /**
     * The screening's summary with its matches sentence counted from the hits as they stand after
     * this change (issue 31 item 3), for read models that keep no hits (the S1/S3 list). Absent on
     * events recorded before it was kept: the summary then stays as last recorded.
     */
    summary?: string;
  }
>;
/** The case was assigned (or reassigned) to a user of the account. */
export type CaseAssigned = Event<
  'CaseAssigned',
  Ids & { assigneeUserId: string; previousAssigneeUserId?: string; assignedBy: string; assignedAt: string }
>;
/** The case's assignee was removed: nobody holds it. */
export type CaseUnassigned = Event<'CaseUnassigned', Ids & { previousAssigneeUserId: string; unassignedBy: string; unassignedAt: string }>;
export type MonitoringEnrolled = Event<'MonitoringEnrolled', Ids & { subject: ScreeningSubject; enrolledAt: string }>;
export type MonitoringUnenrolled = Event<'MonitoringUnenrolled', Ids & { unenrolledAt: string }>;
export type MonitoringAlertRaised = Event<
  'MonitoringAlertRaised',
  Ids & {
    alertId: string;
    kind: MonitoringAlertKind;
    hitId: string;
    entityId: string;
    category: HitCategory;
    source: string;
    matchedName: string;
    score: number;
    diff: Record<string, unknown>;
    listVersion: string;
    entityRecordHash?: string;
    raisedAt: string;
    /** The hit is on an internal list (new or changed hit): counted by the list's severity at once. */
    internalList?: InternalListRef;
    /**
     * The machine's assessment of the new or re-scored hit on the subject's facts (issue 27): the report
     * reads it as a screening's own hit. Absent on removals, on changes the subject was not re-scored
     * against, and on events recorded before it was kept (then read by the score: never confirmed).
     */
    identity?: AlertIdentity;
  }
>;
export type HitReopened = Event<
  'HitReopened',
  Ids & { hitId: string; entityId: string; previousDisposition: Disposition; diff: Record<string, unknown>; reopenedAt: string }
>;
export type ScreeningEvent =
  | ScreeningRequested
  | PhaseStarted
  | PhaseSkipped
  | PhaseRetried
  | AgentResultRecorded
  | PhaseCompleted
  | ScreeningCompleted
  | ScreeningFailed
  | HitDispositioned
  | RiskRecomputed
  | CaseAssigned
  | CaseUnassigned
  | MonitoringEnrolled
  | MonitoringUnenrolled
  | MonitoringAlertRaised
  | HitReopened;
export const screeningEventTypes = [
  'ScreeningRequested',
  'PhaseStarted',
  'PhaseSkipped',
  'PhaseRetried',
  'AgentResultRecorded',
  'PhaseCompleted',
  'ScreeningCompleted',
  'ScreeningFailed',
  'HitDispositioned',
  'RiskRecomputed',
  'CaseAssigned',
  'CaseUnassigned',
  'MonitoringEnrolled',
  'MonitoringUnenrolled',
  'MonitoringAlertRaised',
  'HitReopened',
] as const;

