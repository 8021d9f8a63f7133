/**
 * Screening aggregate (S1/S3 CDD, EDD, M&A and S3 SOW share it), stream `screening-<id>`
 * with the numeric id; the S3 uuid is carried in ScreeningRequested.
 *
 * Lifecycle: none → running (ScreeningRequested) → completed | failed.
 * While running, phases start and complete in plan order and agent results are recorded
 * (idempotent per phase+agent); a phase none of whose agents this deployment can query is
 * skipped in one event. Once completed: analyst dispositions and ongoing monitoring.
 * See docs/domain.md for every rule.
 */
import { assertNever, type Event } from '../../shared/events';
import { type AgentAnswer, type Command, type Decider, isInteger, isNonEmptyText, isIsoInstant, NUMERIC_ID, stamp, UUID } from '../decider';
import { Conflict, IllegalTransition, Issues, NotFound, PlanRequired, ValidationFailed } from '../errors';
import { isPlan, minimumPlan, type Plan, planAllows, plansFrom, type RiskLevel, riskLevelForScore } from '../plans';
import {
  type EntityType,
  entityTypes,
  nextPipelineStep,
  type PhaseMode,
  type PhasePlan,
  type PipelinePhase,
  type PipelineStep,
  planPipeline,
  resultKey,
  type ScreeningKind,
  screeningKinds,
} from './pipeline';

export function streamName(screeningId: string): string {
  return `screening-${screeningId}`;
}
export const screeningStreamName = streamName;

export type ScreeningSurface = 's1' | 's3' | 'portal';
export const dealTypes = ['acquisition', 'merger', 'joint_venture', 'restructuring'] as const;
export type DealType = (typeof dealTypes)[number];
export const hitCategories = ['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment'] as const;
export type HitCategory = (typeof hitCategories)[number];

export interface ScreeningSubject {
  /** The screened name: S1 `query`, M&A `target_name`. */
  query: string;
  entityType: EntityType;
  /** Present (true) when the caller gave no type and entityType is the surface's default. */
  entityTypeDefaulted?: boolean;
  jurisdiction?: string;
  /** What separates the subject from a namesake, when the caller knows it (individuals). YYYY, YYYY-MM or YYYY-MM-DD. */
  dateOfBirth?: string;
  /** ISO 3166-1 alpha-2. */
  nationality?: string;
  /** Passport, national id, tax id, registration number, IMO… */
  identifiers?: SubjectIdentifier[];
  /** Postal address, when the caller gave it: the account's internal lists weigh address agreement (issue 21). */
  address?: SubjectAddress;
}
export interface SubjectAddress {
  line?: string;
  city?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}
export interface SubjectIdentifier {
  type: string;
  value: string;
}
export const SUBJECT_IDENTIFIER_TYPES = ['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'lei', 'other'] as const;
const PARTIAL_DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;
const ISO2 = /^[A-Z]{2}$/;

/** A real calendar date (or year, or year-month) no later than `today` (YYYY-MM-DD). */
export function isPartialBirthDate(value: string, today: string): boolean {
  if (!PARTIAL_DATE.test(value) || value < '1880') return false;
  if (value.length === 10) {
    const d = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return false;
  }
  return value <= today.slice(0, value.length);
}
/** EDD declared fields (S1 POST /screening/edd). */
export interface EddDeclarations {
  sourceOfWealth?: string;
  sourceOfFunds?: string;
  purposeOfRelationship?: string;
  beneficialOwnership?: string;
  pepRelationships?: string;
}
/** M&A deal fields (S1 POST /screening/ma). */
export interface MaDeal {
  targetIndustry?: string;
  acquirerName?: string;
  dealType?: DealType;
  dealValue?: string;
  additionalContext?: string;
}
/** SOW request (S3): the id `SVC-<8 chars>-SOW` and the declaration as submitted (designed by the S3 API). */
export interface SowRequest {
  sowScreeningId: string;
  declaration: Record<string, unknown>;
}

export interface ScreeningHit {
  hitId: string;
  /** ListEntity.id `${source}:${sourceId}` (or an adverse-media article id). */
  entityId: string;
  category: HitCategory;
  source: string;
  matchedName: string;
  /** Match score in [0,1]. */
  score: number;
  listVersion?: string;
  /** Hash of the listed entity's record when matched: monitoring compares it to detect changes. */
  entityRecordHash: string;
  /** A hit on one of the account's own lists (issue 21): which list, version, severity and entry. */
  internalList?: InternalListRef;
}

/** As ReportHit.internalList: the scorer counts such a hit by the list's severity. */
export interface InternalListRef {
  watchlistId: string;
  name: string;
  version: number;
  severity: 'block' | 'review' | 'note';
  entryId: string;
  reason: string;
}

export interface HitCounts {
  sanctionsHits: number;
  pepHits: number;
  adverseMediaHits: number;
  offshoreLeaksHits: number;
  debarmentHits: number;
}

export interface ListVersionRef {
  id: string;
  source: string;
  contentHash: string;
  publishedAt?: string;
  /** file | manifest | download | file_date (see ListVersion.publishedAtSource). */
  publishedAtSource?: string;
  loadedAt?: string;
  /** Age of the list at completion, in whole days; absent without a publication date. */
  ageDays?: number;
  /** The list's maximum age at completion; absent when it has none. */
  maxAgeDays?: number;
  /** Older than maxAgeDays at completion. */
  stale?: boolean;
}

/**
 * An analyst's decision on a hit. `needs_more_information` is not a verdict: the hit stays
 * undecided (it counts toward risk as it did while open, and stays in the work queue, marked) until
 * a true match or false positive is recorded. It carries a comment and who/when like the others.
 */
export const dispositions = ['true_match', 'false_positive', 'needs_more_information'] as const;
export type Disposition = (typeof dispositions)[number];
/** The dispositions that close a hit. */
export type FinalDisposition = Exclude<Disposition, 'needs_more_information'>;
export function isDisposition(value: unknown): value is Disposition {
  return typeof value === 'string' && (dispositions as readonly string[]).includes(value);
}
export type MonitoringAlertKind = 'new_hit' | 'changed_hit' | 'removed_hit';

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
  }
>;
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
export type CompletePhase = Command<'CompletePhase', Meta & { phase: PipelinePhase }>;
export type CompleteScreening = Command<
  'CompleteScreening',
  Meta & {
    riskScore: number;
    riskLevel: RiskLevel;
    counts: HitCounts;
    hits: ScreeningHit[];
    summary?: string;
    /** EDD or M&A markdown analysis (required for those kinds). */
    analysis?: string;
    listVersions: ListVersionRef[];
    matcherVersion: string;
  }
>;
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
    /** Optional recomputed risk after this alert. */
    risk?: { riskScore: number; riskLevel: RiskLevel };
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
 * with its reason, in plan order.
 */
export type PhaseSkipped = Event<'PhaseSkipped', Ids & { phase: PipelinePhase; notQueried: SourceNotQueried[]; skippedAt: string }>;
export type AgentResultRecorded = Event<'AgentResultRecorded', Ids & AgentAnswer<PipelinePhase>>;
export type PhaseCompleted = Event<
  'PhaseCompleted',
  Ids & { phase: PipelinePhase; agentsQueried: string[]; agentsNotQueried: string[]; completedAt: string }
>;
export type ScreeningCompleted = Event<
  'ScreeningCompleted',
  Ids & {
    uuid: string;
    kind: ScreeningKind;
    surface: ScreeningSurface;
    riskScore: number;
    riskLevel: RiskLevel;
    counts: HitCounts;
    hits: ScreeningHit[];
    summary?: string;
    analysis?: string;
    listVersions: ListVersionRef[];
    matcherVersion: string;
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

// ---- state ----
export type HitStatus = 'open' | 'needs_more_information' | 'true_match' | 'false_positive' | 'removed';
/** Hits still to be decided: open ones and those waiting for more information. */
export function isUndecided(status: HitStatus): boolean {
  return status === 'open' || status === 'needs_more_information';
}
/** Hits that count toward risk: undecided ones and true matches (a false positive or a removal does not). */
export function countsTowardRisk(status: HitStatus): boolean {
  return isUndecided(status) || status === 'true_match';
}
export interface HitState extends ScreeningHit {
  status: HitStatus;
  /** Entity hash the analyst cleared (false positives re-open only when the record changes). */
  dispositionRecordHash?: string;
}

export interface RequestedScreening {
  status: 'running' | 'completed' | 'failed';
  screeningId: string;
  uuid: string;
  accountId: string;
  kind: ScreeningKind;
  surface: ScreeningSurface;
  plan: Plan;
  subject: ScreeningSubject;
  sowScreeningId?: string;
  monitorOnCompletion: boolean;
  pipeline: PhasePlan[];
  phases: Partial<Record<PipelinePhase, PhaseProgress>>;
  /** `${phase}/${agent}` → queried */
  recorded: Record<string, { queried: boolean }>;
  riskScore?: number;
  riskLevel?: RiskLevel;
  hits: Record<string, HitState>;
  monitoring: boolean;
  alertIds: string[];
  /** The user the case is assigned to (CaseAssigned); absent when nobody holds it. */
  assigneeUserId?: string;
}
export type ScreeningState = { status: 'none' } | RequestedScreening;

export interface PhaseProgress {
  status: 'running' | 'completed';
  /** When the current attempt must be over (absent in streams recorded before deadlines). */
  deadline?: string;
  /** When the phase started (the fallback deadline's base for streams without one). */
  startedAt?: string;
  /** Re-dispatches so far (PhaseRetried); absent = none. Not kept once the phase completed. */
  retries?: number;
}

export function initialState(): ScreeningState {
  return { status: 'none' };
}

/** The process manager's next step for this screening (see pipeline.ts). */
export function nextStep(state: ScreeningState): PipelineStep {
  if (state.status === 'none') return nextPipelineStep({ status: 'none', pipeline: [], phases: {}, recorded: {} });
  return nextPipelineStep(state);
}

/** Hits that count toward risk after dispositions and monitoring: open, needing more information, true matches. */
export function hitsCountingTowardRisk(state: ScreeningState): HitState[] {
  if (state.status === 'none') return [];
  return Object.values(state.hits).filter((h) => countsTowardRisk(h.status));
}

// ---- decide ----
const SOW_ID = /^SVC-[A-Za-z0-9]{8}-SOW$/;

function optionalText(issues: Issues, value: unknown, field: string, max: number): void {
  if (value === undefined) return;
  issues.check(typeof value === 'string' && value.length <= max, field, `must be a string of at most ${max} characters`);
}

function validateRisk(issues: Issues, score: unknown, level: unknown): void {
  issues.check(isInteger(score, 0, 100), 'risk_score', 'must be an integer 0-100');
  if (isInteger(score, 0, 100)) {
    issues.check(level === riskLevelForScore(score), 'risk_level', `must be ${riskLevelForScore(score)} for score ${score}`);
  }
}

function requestScreening(command: RequestScreening, state: ScreeningState): ScreeningEvent[] {
  const d = command.data;
  const issues = new Issues()
    .check(NUMERIC_ID.test(d.screeningId ?? ''), 'screening_id', 'must be a positive integer string')
    .check(UUID.test(d.uuid ?? ''), 'uuid', 'must be a uuid')
    .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
    .check((screeningKinds as readonly string[]).includes(d.kind), 'kind', 'must be cdd, edd, ma or sow')
    .check(['s1', 's3', 'portal'].includes(d.surface), 'surface', 'must be s1, s3 or portal')
    .check(isPlan(d.plan), 'plan', 'must be a known plan');
  const subject = d.subject;
  const queryField = d.kind === 'ma' && d.surface === 's1' ? 'target_name' : 'query';
  issues.check(
    typeof subject?.query === 'string' && subject.query.trim().length >= 2 && subject.query.length <= 500,
    queryField,
    'must be 2-500 characters',
  );
  issues.check((entityTypes as readonly string[]).includes(subject?.entityType), 'entity_type', 'must be individual, company or organization');
  if (d.kind === 'edd') issues.check(subject?.entityType !== 'organization', 'entity_type', 'EDD takes individual or company');
  optionalText(issues, subject?.jurisdiction, 'jurisdiction', 100);
  if (subject?.dateOfBirth !== undefined) {
    issues.check(typeof subject.dateOfBirth === 'string' && isPartialBirthDate(subject.dateOfBirth, command.metadata.now.slice(0, 10)), 'date_of_birth', 'must be YYYY, YYYY-MM or YYYY-MM-DD, a real date, not in the future');
  }
  if (subject?.nationality !== undefined) issues.check(typeof subject.nationality === 'string' && ISO2.test(subject.nationality), 'nationality', 'must be an ISO 3166-1 alpha-2 code');
  if (subject?.identifiers !== undefined) {
    const ids = subject.identifiers;
    issues.check(Array.isArray(ids) && ids.length <= 10, 'identifiers', 'at most 10');
    for (const [i, id] of (Array.isArray(ids) ? ids : []).entries()) {
      issues.check((SUBJECT_IDENTIFIER_TYPES as readonly string[]).includes(id?.type), `identifiers[${i}].type`, `must be one of ${SUBJECT_IDENTIFIER_TYPES.join(', ')}`);
      issues.check(typeof id?.value === 'string' && /^[\p{L}\p{N}][\p{L}\p{N} ./-]{0,63}$/u.test(id.value.trim()), `identifiers[${i}].value`, 'must be 1-64 letters, digits, spaces, dots, slashes or dashes');
    }
  }
  if (subject?.address !== undefined) {
    const a = subject.address;
    const given = a && typeof a === 'object' ? [a.line, a.city, a.postalCode, a.country].filter((v) => v !== undefined) : [];
    issues.check(given.length > 0, 'address', 'needs at least one of line, city, postal_code, country');
    optionalText(issues, a?.line, 'address.line', 300);
    optionalText(issues, a?.city, 'address.city', 100);
    optionalText(issues, a?.postalCode, 'address.postal_code', 20);
    if (a?.country !== undefined) issues.check(typeof a.country === 'string' && ISO2.test(a.country), 'address.country', 'must be an ISO 3166-1 alpha-2 code');
  }
  for (const [field, value] of Object.entries(d.edd ?? {})) optionalText(issues, value, field, 10_000);
  if (d.ma) {
    const { dealType, ...texts } = d.ma;
    issues.check(dealType === undefined || (dealTypes as readonly string[]).includes(dealType), 'deal_type', 'must be acquisition, merger, joint_venture or restructuring');
    for (const [field, value] of Object.entries(texts)) optionalText(issues, value, field, 10_000);
  }
  issues.check(d.edd === undefined || d.kind === 'edd', 'edd', 'declared EDD fields only go with an EDD screening');
  issues.check(d.ma === undefined || d.kind === 'ma', 'ma', 'deal fields only go with an M&A screening');
  if (d.kind === 'sow') {
    issues.check(d.surface !== 's1', 'kind', 'SOW screenings are an S3 feature');
    issues.check(SOW_ID.test(d.sow?.sowScreeningId ?? ''), 'sow_screening_id', 'must look like SVC-<8 chars>-SOW');
  } else {
    issues.check(d.sow === undefined, 'sow', 'SOW fields only go with a SOW screening');
  }
  issues.throwIfAny();

  // Plan rules: Starter has no API access; EDD and SOW need Professional+; M&A needs Enterprise.
  if (d.surface !== 'portal' && !planAllows(d.plan, 'api_access')) throw new PlanRequired('api_access', plansFrom(minimumPlan('api_access')), d.plan);
  if ((d.kind === 'edd' || d.kind === 'sow' || d.kind === 'ma') && !planAllows(d.plan, d.kind)) throw new PlanRequired(d.kind, plansFrom(minimumPlan(d.kind)), d.plan);

  if (state.status !== 'none') throw new Conflict(`screening ${d.screeningId} already exists`);
  const subjectOut: ScreeningSubject = { query: subject.query.trim(), entityType: subject.entityType };
  if (subject.entityTypeDefaulted === true) subjectOut.entityTypeDefaulted = true;
  if (subject.jurisdiction !== undefined && subject.jurisdiction.trim() !== '') subjectOut.jurisdiction = subject.jurisdiction.trim();
  if (subject.dateOfBirth !== undefined) subjectOut.dateOfBirth = subject.dateOfBirth;
  if (subject.nationality !== undefined) subjectOut.nationality = subject.nationality;
  if (subject.identifiers?.length) subjectOut.identifiers = subject.identifiers.map((id) => ({ type: id.type, value: id.value.trim() }));
  if (subject.address) {
    const a: SubjectAddress = {};
    for (const key of ['line', 'city', 'postalCode', 'country'] as const) {
      const v = subject.address[key]?.trim();
      if (v) a[key] = v;
    }
    if (Object.keys(a).length) subjectOut.address = a;
  }
  return stamp<ScreeningEvent>(command, [
    {
      type: 'ScreeningRequested',
      data: {
        screeningId: d.screeningId,
        accountId: d.accountId,
        uuid: d.uuid.toLowerCase(),
        kind: d.kind,
        surface: d.surface,
        plan: d.plan,
        subject: subjectOut,
        ...(d.edd ? { edd: d.edd } : {}),
        ...(d.ma ? { ma: d.ma } : {}),
        ...(d.sow ? { sow: d.sow } : {}),
        monitor: d.monitor === true,
        pipeline: planPipeline({ kind: d.kind, entityType: subject.entityType, plan: d.plan }),
        requestedAt: command.metadata.now,
      },
    },
  ]);
}

function requireExisting(command: Exclude<ScreeningCommand, RequestScreening>, state: ScreeningState): RequestedScreening {
  if (state.status === 'none') throw new NotFound('screening', command.data.screeningId);
  return state;
}

function requireRunning(command: ScreeningCommand, state: RequestedScreening): void {
  if (state.status !== 'running') throw new IllegalTransition('screening', state.status, command.type);
}

function requireCompleted(command: ScreeningCommand, state: RequestedScreening): void {
  if (state.status !== 'completed') throw new IllegalTransition('screening', state.status, command.type);
}

export function decide(command: ScreeningCommand, state: ScreeningState): ScreeningEvent[] {
  if (command.type === 'RequestScreening') return requestScreening(command, state);
  const s = requireExisting(command, state);
  const ids = { screeningId: s.screeningId, accountId: s.accountId };
  const now = command.metadata.now;
  switch (command.type) {
    case 'StartPhase': {
      const { phase } = command.data;
      if (s.phases[phase] !== undefined) return []; // already started: idempotent
      requireRunning(command, s);
      const plan = s.pipeline.find((p) => p.phase === phase);
      if (!plan) throw new Conflict(`phase ${phase} is not part of this screening's pipeline`, { phase });
      const step = nextPipelineStep(s);
      if (step.action !== 'start_phase' || step.phase !== phase) {
        throw new Conflict(`phase ${phase} cannot start yet (next step: ${step.action}${'phase' in step ? ` ${step.phase}` : ''})`, { phase });
      }
      const notQueried = command.data.notQueried ?? [];
      const deadline = command.data.deadline;
      const issues = new Issues();
      issues.check(deadline === undefined || (isIsoInstant(deadline) && Date.parse(deadline) > Date.parse(now)), 'deadline', 'must be an ISO time after now');
      issues.check(notQueried.length === 0 || plan.mode === 'parallel', 'not_queried', 'only a parallel phase records unqueryable sources at its start');
      notQueried.forEach((n, i) =>
        issues
          .check(plan.agents.includes(n.agent), `not_queried[${i}].agent`, `${n.agent} is not an agent of phase ${phase}`)
          .check(notQueried.findIndex((o) => o.agent === n.agent) === i, `not_queried[${i}].agent`, `${n.agent} is listed twice`)
          .check(isNonEmptyText(n.error, 2000), `not_queried[${i}].error`, 'is required'),
      );
      issues.throwIfAny();
      if (notQueried.length > 0 && notQueried.length === plan.agents.length) {
        // Nothing to dispatch or wait for: the phase is over as it starts.
        const byAgent = new Map(notQueried.map((n) => [n.agent, n]));
        return stamp<ScreeningEvent>(command, [
          { type: 'PhaseSkipped', data: { ...ids, phase, notQueried: plan.agents.map((a) => byAgent.get(a)!), skippedAt: now } },
        ]);
      }
      return stamp<ScreeningEvent>(command, [
        {
          type: 'PhaseStarted',
          data: {
            ...ids,
            phase,
            agents: plan.agents,
            mode: plan.mode,
            startedAt: now,
            ...(notQueried.length ? { notQueried } : {}),
            ...(deadline !== undefined ? { deadline } : {}),
          },
        },
      ]);
    }
    case 'ExpirePhase':
      return expirePhase(command, s, ids);
    case 'RecordAgentResult': {
      const d = command.data;
      const key = resultKey(d.phase, d.agent);
      if (s.recorded[key] !== undefined) return []; // at-least-once agents: first result wins
      requireRunning(command, s);
      const phaseState = s.phases[d.phase];
      const plan = s.pipeline.find((p) => p.phase === d.phase);
      if (!phaseState || !plan) throw new Conflict(`phase ${d.phase} has not started`, { phase: d.phase });
      if (phaseState.status === 'completed') throw new IllegalTransition('screening phase', 'completed', command.type);
      if (!plan.agents.includes(d.agent)) throw new ValidationFailed([{ field: 'agent', message: `${d.agent} is not an agent of phase ${d.phase}` }]);
      if (plan.mode === 'sequential') {
        const next = plan.agents.find((a) => s.recorded[resultKey(d.phase, a)] === undefined);
        if (next !== d.agent) throw new Conflict(`phase ${d.phase} is sequential: ${next} runs before ${d.agent}`, { expected: next });
      }
      new Issues()
        .check(typeof d.queried === 'boolean', 'queried', 'must be a boolean')
        .check(d.queried || isNonEmptyText(d.error, 2000), 'error', 'is required when the agent was not queried')
        .check(typeof d.result === 'object' && d.result !== null && !Array.isArray(d.result), 'result', 'must be an object')
        .check(isIsoInstant(d.startedAt), 'started_at', 'must be an ISO time')
        .check(isIsoInstant(d.finishedAt) && Date.parse(d.finishedAt) >= Date.parse(d.startedAt), 'finished_at', 'must be an ISO time not before started_at')
        .throwIfAny();
      return stamp<ScreeningEvent>(command, [
        {
          type: 'AgentResultRecorded',
          data: {
            ...ids,
            phase: d.phase,
            agent: d.agent,
            queried: d.queried,
            ...(d.error !== undefined ? { error: d.error } : {}),
            result: d.result,
            startedAt: d.startedAt,
            finishedAt: d.finishedAt,
          },
        },
      ]);
    }
    case 'CompletePhase': {
      const { phase } = command.data;
      const phaseState = s.phases[phase];
      if (phaseState?.status === 'completed') return [];
      requireRunning(command, s);
      const plan = s.pipeline.find((p) => p.phase === phase);
      if (!phaseState || !plan) throw new Conflict(`phase ${phase} has not started`, { phase });
      const pending = plan.agents.filter((a) => s.recorded[resultKey(phase, a)] === undefined);
      // A timed-out agent is recorded as {queried:false, error:'timeout'} first, never skipped.
      if (pending.length > 0) throw new Conflict(`phase ${phase} still waits for ${pending.join(', ')}`, { phase, pending });
      return stamp<ScreeningEvent>(command, [
        {
          type: 'PhaseCompleted',
          data: {
            ...ids,
            phase,
            agentsQueried: plan.agents.filter((a) => s.recorded[resultKey(phase, a)]?.queried),
            agentsNotQueried: plan.agents.filter((a) => !s.recorded[resultKey(phase, a)]?.queried),
            completedAt: now,
          },
        },
      ]);
    }
    case 'CompleteScreening': {
      if (s.status === 'completed') return []; // a screening completes once
      requireRunning(command, s);
      const step = nextPipelineStep(s);
      if (step.action !== 'complete_screening') {
        throw new Conflict(`the pipeline is not finished (next step: ${step.action}${'phase' in step ? ` ${step.phase}` : ''})`);
      }
      const d = command.data;
      const issues = new Issues();
      validateRisk(issues, d.riskScore, d.riskLevel);
      for (const field of ['sanctionsHits', 'pepHits', 'adverseMediaHits', 'offshoreLeaksHits', 'debarmentHits'] as const) {
        issues.check(isInteger(d.counts?.[field], 0, 1_000_000), `counts.${field}`, 'must be a non-negative integer');
      }
      issues.check(Array.isArray(d.hits), 'hits', 'must be an array');
      const hitIds = new Set<string>();
      for (const hit of d.hits ?? []) {
        issues.check(isNonEmptyText(hit.hitId, 100) && !hitIds.has(hit.hitId), 'hits.hit_id', `hit id ${hit.hitId} must be unique and non-empty`);
        hitIds.add(hit.hitId);
        issues.check((hitCategories as readonly string[]).includes(hit.category), 'hits.category', `unknown category ${hit.category}`);
        issues.check(typeof hit.score === 'number' && hit.score >= 0 && hit.score <= 1, 'hits.score', 'must be in [0,1]');
        issues.check(isNonEmptyText(hit.entityId, 500) && isNonEmptyText(hit.entityRecordHash, 200), 'hits.entity', 'entity id and record hash are required');
      }
      issues.check(Array.isArray(d.listVersions), 'list_versions', 'must list the list versions used');
      issues.check(isNonEmptyText(d.matcherVersion, 100), 'matcher_version', 'is required');
      if (s.kind === 'edd' || s.kind === 'ma') issues.check(isNonEmptyText(d.analysis, 1_000_000), 'analysis', `${s.kind} screenings carry an analysis`);
      issues.throwIfAny();
      return stamp<ScreeningEvent>(command, [
        {
          type: 'ScreeningCompleted',
          data: {
            ...ids,
            uuid: s.uuid,
            kind: s.kind,
            surface: s.surface,
            riskScore: d.riskScore,
            riskLevel: d.riskLevel,
            counts: d.counts,
            hits: d.hits,
            ...(d.summary !== undefined ? { summary: d.summary } : {}),
            ...(d.analysis !== undefined ? { analysis: d.analysis } : {}),
            listVersions: d.listVersions,
            matcherVersion: d.matcherVersion,
            ...(s.sowScreeningId !== undefined ? { sowScreeningId: s.sowScreeningId } : {}),
            completedAt: now,
          },
        },
        ...(s.monitorOnCompletion ? [{ type: 'MonitoringEnrolled' as const, data: { ...ids, subject: s.subject, enrolledAt: now } }] : []),
      ]);
    }
    case 'FailScreening': {
      if (s.status === 'failed') return [];
      requireRunning(command, s);
      new Issues().check(isNonEmptyText(command.data.reason, 2000), 'reason', 'is required').throwIfAny();
      return stamp<ScreeningEvent>(command, [
        { type: 'ScreeningFailed', data: { ...ids, uuid: s.uuid, kind: s.kind, surface: s.surface, reason: command.data.reason, failedAt: now } },
      ]);
    }
    case 'DispositionHit': {
      requireCompleted(command, s);
      const d = command.data;
      const hit = s.hits[d.hitId];
      if (!hit) throw new NotFound('hit', d.hitId);
      const issues = new Issues()
        .check(isDisposition(d.disposition), 'disposition', 'must be true_match, false_positive or needs_more_information')
        .check(isNonEmptyText(d.reason, 2000), 'reason', 'must be 1-2000 characters')
        .check(isNonEmptyText(d.analyst, 200), 'analyst', 'is required');
      validateRisk(issues, d.riskScore, d.riskLevel);
      issues.throwIfAny();
      if (hit.status === 'removed') throw new IllegalTransition('hit', 'removed', command.type);
      if (hit.status === d.disposition) return [];
      return stamp<ScreeningEvent>(command, [
        {
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
        },
        riskRecomputed(s, ids, d.riskScore, d.riskLevel, 'disposition', now, { [hit.hitId]: d.disposition }),
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
      return assertNever(command, 'screening command');
  }
}

type BareEvent = { type: ScreeningEvent['type']; data: ScreeningEvent['data'] };

function riskRecomputed(
  s: RequestedScreening,
  ids: { screeningId: string; accountId: string },
  riskScore: number,
  riskLevel: RiskLevel,
  cause: 'disposition' | 'monitoring_alert',
  now: string,
  statusOverride: Record<string, HitStatus>,
): { type: 'RiskRecomputed'; data: RiskRecomputed['data'] } {
  const counting = Object.values(s.hits)
    .map((h) => ({ id: h.hitId, status: statusOverride[h.hitId] ?? h.status }))
    .filter((h) => countsTowardRisk(h.status))
    .map((h) => h.id);
  return {
    type: 'RiskRecomputed',
    data: {
      ...ids,
      previousRiskScore: s.riskScore ?? 0,
      previousRiskLevel: s.riskLevel ?? 'low',
      riskScore,
      riskLevel,
      countingHitIds: counting,
      cause,
      recomputedAt: now,
    },
  };
}

/**
 * Monitoring alert rules:
 * - only while enrolled; an alert id is recorded once;
 * - a hit cleared as false_positive raises nothing while its entity record is unchanged (same
 *   record hash as when cleared, or a removal); a changed record re-opens it (HitReopened with the diff);
 * - an open/true-match hit raises changed_hit only if its record hash changed, removed_hit once;
 * - new_hit for an entity with no live hit adds a hit (the handler allocates its hitId).
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
  if (d.risk) validateRisk(issues, d.risk.riskScore, d.risk.riskLevel);
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
      .check(isNonEmptyText(h?.hitId, 100) && s.hits[h?.hitId ?? ''] === undefined, 'hit.hit_id', 'a new, unused hit id is required')
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
    },
  });
  if (d.risk && (d.risk.riskScore !== s.riskScore || d.risk.riskLevel !== s.riskLevel)) {
    const withAlert: RequestedScreening = s.hits[hitId] ? s : { ...s, hits: { ...s.hits, [hitId]: { ...hitFacts, hitId } as HitState } };
    events.push(riskRecomputed(withAlert, ids, d.risk.riskScore, d.risk.riskLevel, 'monitoring_alert', now, { [hitId]: newStatus }));
  }
  return stamp<ScreeningEvent>(command, events as never);
}

/**
 * An overdue phase (see ExpirePhase). Nothing happens to a phase that is over, or not yet due: the
 * supervisor may look at a stale view, and a late agent result may have completed the phase since.
 * The pending agents are those the process manager waits for (all missing ones of a parallel phase,
 * the next one of a sequential phase).
 */
function expirePhase(command: ExpirePhase, s: RequestedScreening, ids: { screeningId: string; accountId: string }): ScreeningEvent[] {
  const d = command.data;
  const now = command.metadata.now;
  new Issues()
    .check(isInteger(d.retryBudget, 0, 100), 'retry_budget', 'must be an integer 0-100')
    .check(isIsoInstant(d.retryDeadline) && Date.parse(d.retryDeadline) > Date.parse(now), 'retry_deadline', 'must be an ISO time after now')
    .throwIfAny();
  if (s.status !== 'running') return [];
  const phaseState = s.phases[d.phase];
  if (!phaseState) throw new Conflict(`phase ${d.phase} has not started`, { phase: d.phase });
  if (phaseState.status === 'completed') return [];
  if (phaseState.deadline !== undefined && Date.parse(now) < Date.parse(phaseState.deadline)) {
    throw new Conflict(`phase ${d.phase} is not overdue (deadline ${phaseState.deadline})`, { phase: d.phase, deadline: phaseState.deadline });
  }
  const step = nextPipelineStep(s);
  if (step.action !== 'dispatch' || step.phase !== d.phase) return []; // nothing awaited: the process manager moves it on
  const retries = phaseState.retries ?? 0;
  if (retries < d.retryBudget) {
    return stamp<ScreeningEvent>(command, [
      {
        type: 'PhaseRetried',
        data: {
          ...ids,
          phase: d.phase,
          attempt: retries + 2,
          agents: step.agents,
          ...(phaseState.deadline !== undefined ? { previousDeadline: phaseState.deadline } : {}),
          deadline: d.retryDeadline,
          retriedAt: now,
        },
      },
    ]);
  }
  const dispatches = retries + 1;
  const since = phaseState.startedAt ?? now;
  return stamp<ScreeningEvent>(
    command,
    step.agents.map((agent) => ({
      type: 'AgentResultRecorded' as const,
      data: {
        ...ids,
        phase: d.phase,
        agent,
        queried: false,
        error: `no answer before the phase deadline${phaseState.deadline ? ` ${phaseState.deadline}` : ''} (dispatched ${dispatches} time${dispatches === 1 ? '' : 's'})`,
        result: {},
        startedAt: since,
        finishedAt: now,
      },
    })),
  );
}

// ---- evolve ----
/** The recorded results of sources a phase could not query (PhaseStarted, PhaseSkipped). */
function notQueriedResults(phase: PipelinePhase, sources: readonly SourceNotQueried[]): Record<string, { queried: boolean }> {
  return Object.fromEntries(sources.map((n) => [resultKey(phase, n.agent), { queried: false }]));
}

function onRequested(state: RequestedScreening, change: (s: RequestedScreening) => RequestedScreening): ScreeningState {
  return change(state);
}

export function evolve(state: ScreeningState, event: ScreeningEvent): ScreeningState {
  if (event.type === 'ScreeningRequested') {
    const d = event.data;
    return {
      status: 'running',
      screeningId: d.screeningId,
      uuid: d.uuid,
      accountId: d.accountId,
      kind: d.kind,
      surface: d.surface,
      plan: d.plan,
      subject: d.subject,
      ...(d.sow ? { sowScreeningId: d.sow.sowScreeningId } : {}),
      monitorOnCompletion: d.monitor,
      pipeline: d.pipeline,
      phases: {},
      recorded: {},
      hits: {},
      monitoring: false,
      alertIds: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PhaseStarted':
      return onRequested(state, (s) => ({
        ...s,
        phases: {
          ...s.phases,
          [event.data.phase]: { status: 'running', startedAt: event.data.startedAt, ...(event.data.deadline !== undefined ? { deadline: event.data.deadline } : {}) },
        },
        recorded: { ...s.recorded, ...notQueriedResults(event.data.phase, event.data.notQueried ?? []) },
      }));
    case 'PhaseSkipped':
      // As PhaseStarted with every agent not queried, followed by PhaseCompleted.
      return {
        ...state,
        phases: { ...state.phases, [event.data.phase]: { status: 'completed' } },
        recorded: { ...state.recorded, ...notQueriedResults(event.data.phase, event.data.notQueried) },
      };
    case 'PhaseRetried': {
      const phase = state.phases[event.data.phase];
      if (!phase) return state;
      return { ...state, phases: { ...state.phases, [event.data.phase]: { ...phase, retries: (phase.retries ?? 0) + 1, deadline: event.data.deadline } } };
    }
    case 'AgentResultRecorded':
      return {
        ...state,
        recorded: { ...state.recorded, [resultKey(event.data.phase, event.data.agent)]: { queried: event.data.queried } },
      };
    case 'PhaseCompleted':
      return { ...state, phases: { ...state.phases, [event.data.phase]: { status: 'completed' } } };
    case 'ScreeningCompleted':
      return {
        ...state,
        status: 'completed',
        riskScore: event.data.riskScore,
        riskLevel: event.data.riskLevel,
        hits: Object.fromEntries(event.data.hits.map((h) => [h.hitId, { ...h, status: 'open' as const }])),
      };
    case 'ScreeningFailed':
      return { ...state, status: 'failed' };
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
      return { ...state, riskScore: event.data.riskScore, riskLevel: event.data.riskLevel };
    case 'CaseAssigned':
      return { ...state, assigneeUserId: event.data.assigneeUserId };
    case 'CaseUnassigned': {
      const { assigneeUserId: _gone, ...rest } = state;
      return rest;
    }
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
      return assertNever(event, 'screening event');
  }
}

export const screeningDecider: Decider<ScreeningCommand, ScreeningEvent, ScreeningState> = { decide, evolve, initialState };
