/**
 * Over 500 lines on purpose: one aggregate's commands, events, state and its whole transition table;
 * monitoring's share is already in monitoring.ts and the assessment in assessment.ts.
 *
 * S2 subject check, stream `subject-check-<id>` (numeric id).
 *
 *   (none) --StartSubjectCheck--> running
 *   running --ConcludeSubjectCheck--> escalated | needs_review | completed   (rule below)
 *   running --FailSubjectCheck--> failed
 *   needs_review --ResolveReview(clear)--> completed ; --ResolveReview(adverse)--> escalated
 *   escalated --CloseInvestigation--> completed
 *
 * Ongoing monitoring (docs/monitoring-and-audit.md, "S2"): a concluded check (needs_review, escalated or
 * completed) can be enrolled (EnrollInMonitoring, or `monitor` on StartSubjectCheck: enrolled by the
 * conclusion itself) and unenrolled, both idempotent. While enrolled, RecordMonitoringAlert records at
 * most one SubjectCheckMonitoringAlertRaised per list version and listed entity (rules: monitoring.ts).
 *
 * Conclusion rule, in this order:
 *  1. escalate when any tier score reaches its threshold (sanctions ≥ 80, pep ≥ 70,
 *     adverse_media ≥ 75); priority by the highest triggering score (≥ 90 critical, ≥ 80 high,
 *     else medium); SLA critical 4 h, high 24 h, medium 72 h from the conclusion time;
 *  2. else needs_review `insufficient_source_coverage` when sources_searched / sources_total < 0.6;
 *  3. else needs_review `ambiguous_match` when the best hit is ambiguous;
 *  4. else completed.
 * Every other state × command pair throws IllegalTransition (NotFound before the check exists).
 */
import { assertNever, type Event } from '../../shared/events';
import { addHours, type Command, type Decider, isInteger, isIsoInstant, isNonEmptyText, NUMERIC_ID, stamp } from '../decider';
import { IllegalTransition, Issues, NotFound } from '../errors';
import { isEmailAddress, isPhoneNumber, recordedSubjectAddress, SUBJECT_IDENTIFIER_TYPES, subjectAddressProblems, type SubjectAddress } from '../screening/model';
import {
  CONCLUDED,
  liveHits,
  monitorableHits,
  recordMonitoringAlert,
  type MonitoredHit,
  type AlertFacts,
  type MonitoredHitState,
  type MonitoringAlertInput,
  type MonitoringAlertKind,
  type SubjectCheckStatus,
} from './monitoring';

export type { MonitoredHit, MonitoredHitState, MonitoringAlertKind } from './monitoring';
export { subjectCheckAlertId } from './monitoring';

export function streamName(subjectCheckId: string): string {
  return `subject-check-${subjectCheckId}`;
}
export const subjectCheckStreamName = streamName;

/** The investigation an adverse review opens is named after its subject check. */
export function investigationIdFor(subjectCheckId: string): string {
  return `INV-${subjectCheckId}`;
}

export { subjectCheckStatuses, type SubjectCheckStatus } from './monitoring';

/** Tier score thresholds (0-100) at or above which a check is escalated. Other tiers never escalate. */
export const escalationThresholds: Readonly<Record<string, number>> = { sanctions: 80, pep: 70, adverse_media: 75 };
/** Minimum share of sources searched for an automatic verdict. */
export const minimumSourceCoverage = 0.6;
export type InvestigationPriority = 'critical' | 'high' | 'medium';
export const slaHoursByPriority: Record<InvestigationPriority, number> = { critical: 4, high: 24, medium: 72 };

export function priorityForScore(maxTierScore: number): InvestigationPriority {
  if (maxTierScore >= 90) return 'critical';
  if (maxTierScore >= 80) return 'high';
  return 'medium';
}

export function triggeringTiers(tierScores: Record<string, number>): string[] {
  return Object.entries(tierScores)
    .filter(([tier, score]) => escalationThresholds[tier] !== undefined && score >= escalationThresholds[tier]!)
    .map(([tier]) => tier)
    .sort();
}

export interface SubjectLocation {
  country: string;
  region?: string;
  city?: string;
}
export interface SubjectConsent {
  certified: boolean;
  /** Free text the integrator certified, kept for auditors. */
  statement?: string;
}
export type SubjectSummary = {
  overallResult: string;
  confidenceLevel: string;
  findingsCount: number;
  redFlagCount: number;
  warningCount: number;
  sourcesSearched: number;
  sourcesTotal: number;
};

// ---- commands ----
type Id = { subjectCheckId: string };
/** Who is checked and why: the request's, the command's and the started event's fields. */
export type SubjectOfCheck = {
  firstName: string;
  lastName: string;
  middleName?: string;
  dateOfBirth?: string;
  /** The facts that confirm or clear a hit (issue 27), as screenings take them. */
  nationality?: string;
  identifiers?: { type: string; value: string }[];
  phone?: string;
  email?: string;
  /** The subject's postal address (issue 30): the account's internal lists weigh it, as on a screening. */
  address?: SubjectAddress;
  locations: SubjectLocation[];
  purpose: string;
};
export type StartSubjectCheck = Command<
  'StartSubjectCheck',
  Id &
    SubjectOfCheck & {
    accountId: string;
    consent: SubjectConsent;
    batchId?: string;
    /** Enrol in ongoing monitoring as soon as the check concludes (needs_review, escalated or completed). */
    monitor?: boolean;
  }
>;
export type RecordSubjectCheckAgentResult = Command<
  'RecordAgentResult',
  Id & { agent: string; tier?: string; queried: boolean; error?: string; result: Record<string, unknown>; startedAt: string; finishedAt: string }
>;
export type ConcludeSubjectCheck = Command<
  'ConcludeSubjectCheck',
  Id &
    SubjectSummary & {
      tierScores: Record<string, number>;
      bestHitAmbiguous: boolean;
      /** Allocated by the handler (`INV-…`); required when the rule escalates. */
      investigationId?: string;
      requestedScope?: string;
    }
>;
export type FailSubjectCheck = Command<'FailSubjectCheck', Id & { errorMessage: string }>;
export type ResolveReview = Command<
  'ResolveReview',
  Id & { outcome: 'clear' | 'adverse'; reviewer: string; note: string; investigationId?: string; requestedScope?: string }
>;
export type CloseInvestigation = Command<'CloseInvestigation', Id & { outcome: 'clear' | 'adverse'; reviewer: string; note: string }>;
export type EnrollSubjectCheckInMonitoring = Command<'EnrollInMonitoring', Id>;
export type UnenrollSubjectCheckFromMonitoring = Command<'UnenrollFromMonitoring', Id>;
export type RecordSubjectCheckMonitoringAlert = Command<'RecordMonitoringAlert', Id & MonitoringAlertInput>;
export type SubjectCheckCommand =
  | StartSubjectCheck
  | RecordSubjectCheckAgentResult
  | ConcludeSubjectCheck
  | FailSubjectCheck
  | ResolveReview
  | CloseInvestigation
  | EnrollSubjectCheckInMonitoring
  | UnenrollSubjectCheckFromMonitoring
  | RecordSubjectCheckMonitoringAlert;
/** The check's own lifecycle commands (the monitoring ones follow). */
export const subjectCheckLifecycleCommandTypes = [
  'StartSubjectCheck',
  'RecordAgentResult',
  'ConcludeSubjectCheck',
  'FailSubjectCheck',
  'ResolveReview',
  'CloseInvestigation',
] as const;
export const subjectCheckMonitoringCommandTypes = ['EnrollInMonitoring', 'UnenrollFromMonitoring', 'RecordMonitoringAlert'] as const;
export const subjectCheckCommandTypes = [...subjectCheckLifecycleCommandTypes, ...subjectCheckMonitoringCommandTypes] as const;

// ---- events (field names follow the S2 callback payloads, camelCased) ----
type Ids = { subjectCheckId: string; accountId: string };
export type SubjectCheckStarted = Event<
  'SubjectCheckStarted',
  Ids &
    SubjectOfCheck & {
    status: 'running';
    consent: SubjectConsent & { certified: true; certifiedAt: string };
    batchId?: string;
    /** Present (true) when the request asked for monitoring from the conclusion on. */
    monitor?: boolean;
    processingAt: string;
  }
>;
export type SubjectCheckAgentResultRecorded = Event<
  'SubjectCheckAgentResultRecorded',
  Ids & { agent: string; tier?: string; queried: boolean; error?: string; result: Record<string, unknown>; startedAt: string; finishedAt: string }
>;
export type SubjectCheckReviewRequired = Event<
  'SubjectCheckReviewRequired',
  Ids & SubjectSummary & {
    status: 'needs_review';
    reviewReason: 'insufficient_source_coverage' | 'ambiguous_match';
    tierScores: Record<string, number>;
    reviewRequiredAt: string;
  }
>;
export type SubjectCheckEscalated = Event<
  'SubjectCheckEscalated',
  Ids & {
    status: 'escalated';
    investigationId: string;
    triggeringTiers: string[];
    tierScores: Record<string, number>;
    requestedScope: string;
    priority: InvestigationPriority;
    escalatedAt: string;
    investigationCreatedAt: string;
    slaDueAt: string;
  }
>;
export type SubjectCheckCompleted = Event<
  'SubjectCheckCompleted',
  Ids & SubjectSummary & { status: 'completed'; resolvedBy?: 'automatic' | 'review' | 'investigation'; completedAt: string }
>;
export type SubjectCheckFailed = Event<'SubjectCheckFailed', Ids & { status: 'failed'; errorMessage: string; failedAt: string }>;
export type SubjectCheckReviewResolved = Event<
  'SubjectCheckReviewResolved',
  Ids & { outcome: 'clear' | 'adverse'; reviewer: string; note: string; reviewReason: string; resolvedAt: string }
>;
export type SubjectCheckInvestigationClosed = Event<
  'SubjectCheckInvestigationClosed',
  Ids & { investigationId: string; outcome: 'clear' | 'adverse'; reviewer: string; note: string; closedAt: string }
>;
/**
 * The subject as monitoring re-screens it: the full name, the first location's country, and (version 2
 * of the enrolment, issue 27) the facts that confirm or clear a hit, as the check's own run used them.
 * An enrolment recorded before version 2 has the name and country only.
 */
export type MonitoredSubjectOfCheck = Pick<SubjectOfCheck, 'dateOfBirth' | 'nationality' | 'identifiers' | 'phone' | 'email' | 'address'> & {
  name: string;
  entityType: 'individual';
  jurisdiction?: string;
};
export type SubjectCheckMonitoringEnrolled = Event<
  'SubjectCheckMonitoringEnrolled',
  Ids & {
    subject: MonitoredSubjectOfCheck;
    /** The listed entities the check reports now: the baseline later list versions are compared with. */
    hits: MonitoredHit[];
    enrolledAt: string;
  }
>;
export type SubjectCheckMonitoringUnenrolled = Event<'SubjectCheckMonitoringUnenrolled', Ids & { unenrolledAt: string }>;
/** The alert as recordMonitoringAlert decides it: one per list version and listed entity. */
export type SubjectCheckMonitoringAlertRaised = Event<'SubjectCheckMonitoringAlertRaised', Ids & AlertFacts>;
export type SubjectCheckEvent =
  | SubjectCheckStarted
  | SubjectCheckAgentResultRecorded
  | SubjectCheckReviewRequired
  | SubjectCheckEscalated
  | SubjectCheckCompleted
  | SubjectCheckFailed
  | SubjectCheckReviewResolved
  | SubjectCheckInvestigationClosed
  | SubjectCheckMonitoringEnrolled
  | SubjectCheckMonitoringUnenrolled
  | SubjectCheckMonitoringAlertRaised;
export const subjectCheckEventTypes = [
  'SubjectCheckStarted',
  'SubjectCheckAgentResultRecorded',
  'SubjectCheckReviewRequired',
  'SubjectCheckEscalated',
  'SubjectCheckCompleted',
  'SubjectCheckFailed',
  'SubjectCheckReviewResolved',
  'SubjectCheckInvestigationClosed',
  'SubjectCheckMonitoringEnrolled',
  'SubjectCheckMonitoringUnenrolled',
  'SubjectCheckMonitoringAlertRaised',
] as const;

// ---- state ----
export type SubjectCheckState =
  | { status: 'none' }
  | {
      status: SubjectCheckStatus;
      subjectCheckId: string;
      accountId: string;
      agents: string[];
      summary?: SubjectSummary;
      tierScores: Record<string, number>;
      reviewReason?: string;
      investigationId?: string;
      subject: MonitoredSubjectOfCheck;
      monitorOnConclusion: boolean;
      monitoring: boolean;
      /** Hits on listed entities (with a record hash), one per entity id: what monitoring compares. */
      hits: Record<string, MonitoredHitState>;
      alertIds: string[];
    };

export function initialState(): SubjectCheckState {
  return { status: 'none' };
}

const INVESTIGATION_ID = /^INV-[A-Za-z0-9-]{1,64}$/;
const DEFAULT_SCOPE = 'enhanced_due_diligence';

function validateStart(d: StartSubjectCheck['data']): void {
  // One message per problem, in the order of the S2 `errors` list.
  const issues = new Issues()
    .check(isNonEmptyText(d.firstName, 100), 'first_name', 'first_name is required (1-100 characters)')
    .check(isNonEmptyText(d.lastName, 100), 'last_name', 'last_name is required (1-100 characters)')
    .check(
      Array.isArray(d.locations) && d.locations.length >= 1 && d.locations.length <= 20 && d.locations.every((l) => isNonEmptyText(l?.country, 100)),
      'location',
      'at least one location with a country is required',
    )
    .check(isNonEmptyText(d.purpose, 100), 'purpose', 'purpose is required')
    .check(d.consent?.certified === true, 'consent', 'consent must be certified (certified: true)');
  if (d.middleName !== undefined) issues.check(isNonEmptyText(d.middleName, 100), 'middle_name', 'must be 1-100 characters');
  if (d.nationality !== undefined) issues.check(typeof d.nationality === 'string' && /^[A-Z]{2}$/.test(d.nationality), 'nationality', 'must be an ISO 3166-1 alpha-2 code');
  if (d.identifiers !== undefined) {
    issues.check(Array.isArray(d.identifiers) && d.identifiers.length <= 10, 'identifiers', 'at most 10');
    for (const [i, id] of (Array.isArray(d.identifiers) ? d.identifiers : []).entries()) {
      issues.check((SUBJECT_IDENTIFIER_TYPES as readonly string[]).includes(id?.type), `identifiers[${i}].type`, `must be one of ${SUBJECT_IDENTIFIER_TYPES.join(', ')}`);
      issues.check(isNonEmptyText(id?.value, 64), `identifiers[${i}].value`, 'must be 1-64 characters');
    }
  }
  if (d.phone !== undefined) issues.check(typeof d.phone === 'string' && isPhoneNumber(d.phone), 'phone', 'must be a phone number: 6-15 digits, optionally a leading +');
  if (d.email !== undefined) issues.check(typeof d.email === 'string' && isEmailAddress(d.email), 'email', 'must be an e-mail address');
  if (d.address !== undefined) for (const [field, message] of subjectAddressProblems(d.address)) issues.add(field, message);
  issues.check(NUMERIC_ID.test(d.subjectCheckId ?? '') && NUMERIC_ID.test(d.accountId ?? ''), 'subject_check_id', 'ids must be positive integer strings');
  if (d.monitor !== undefined) issues.check(typeof d.monitor === 'boolean', 'monitor', 'must be a boolean');
  issues.throwIfAny();
}

function escalation(
  ids: Ids,
  tierScores: Record<string, number>,
  tiers: string[],
  investigationId: string | undefined,
  requestedScope: string | undefined,
  now: string,
): { type: 'SubjectCheckEscalated'; data: SubjectCheckEscalated['data'] } {
  new Issues()
    .check(INVESTIGATION_ID.test(investigationId ?? ''), 'investigation_id', 'an INV-… id is required to escalate')
    .check(requestedScope === undefined || isNonEmptyText(requestedScope, 200), 'requested_scope', 'must be 1-200 characters')
    .throwIfAny();
  const scores = tiers.map((t) => tierScores[t] ?? 0);
  const priority = priorityForScore(scores.length > 0 ? Math.max(...scores) : 0);
  return {
    type: 'SubjectCheckEscalated',
    data: {
      ...ids,
      status: 'escalated',
      investigationId: investigationId!,
      triggeringTiers: tiers,
      tierScores,
      requestedScope: requestedScope ?? DEFAULT_SCOPE,
      priority,
      escalatedAt: now,
      investigationCreatedAt: now,
      slaDueAt: addHours(now, slaHoursByPriority[priority]),
    },
  };
}

/** The name and facts the sources were asked about (as the subject-check workflow builds them): what monitoring re-screens. */
export function monitoredSubjectOfStart(d: SubjectCheckStarted['data']): MonitoredSubjectOfCheck {
  const country = d.locations[0]?.country;
  return {
    name: [d.firstName, d.middleName, d.lastName].filter((p) => p !== undefined && p !== '').join(' '),
    entityType: 'individual',
    ...(country ? { jurisdiction: country } : {}),
    ...(d.dateOfBirth ? { dateOfBirth: d.dateOfBirth } : {}),
    ...(d.nationality ? { nationality: d.nationality } : {}),
    ...(d.identifiers?.length ? { identifiers: d.identifiers.map((i) => ({ ...i })) } : {}),
    ...(d.phone ? { phone: d.phone } : {}),
    ...(d.email ? { email: d.email } : {}),
    ...(d.address ? { address: { ...d.address } } : {}),
  };
}

function illegal(state: SubjectCheckState, command: SubjectCheckCommand): never {
  throw new IllegalTransition('subject check', state.status, command.type);
}

export function decide(command: SubjectCheckCommand, state: SubjectCheckState): SubjectCheckEvent[] {
  const now = command.metadata.now;
  if (command.type === 'StartSubjectCheck') {
    if (state.status !== 'none') illegal(state, command);
    const d = command.data;
    validateStart(d);
    return stamp<SubjectCheckEvent>(command, [
      {
        type: 'SubjectCheckStarted',
        data: {
          subjectCheckId: d.subjectCheckId,
          accountId: d.accountId,
          status: 'running',
          firstName: d.firstName.trim(),
          lastName: d.lastName.trim(),
          ...(d.middleName !== undefined ? { middleName: d.middleName.trim() } : {}),
          ...(d.dateOfBirth !== undefined ? { dateOfBirth: d.dateOfBirth } : {}),
          ...(d.nationality !== undefined ? { nationality: d.nationality } : {}),
          ...(d.identifiers?.length ? { identifiers: d.identifiers.map((i) => ({ type: i.type, value: i.value.trim() })) } : {}),
          ...(d.phone !== undefined ? { phone: d.phone.trim() } : {}),
          ...(d.email !== undefined ? { email: d.email.trim() } : {}),
          ...(recordedSubjectAddress(d.address) ? { address: recordedSubjectAddress(d.address)! } : {}),
          locations: d.locations,
          purpose: d.purpose,
          consent: { ...d.consent, certified: true, certifiedAt: now },
          ...(d.batchId !== undefined ? { batchId: d.batchId } : {}),
          ...(d.monitor === true ? { monitor: true } : {}),
          processingAt: now,
        },
      },
    ]);
  }
  if (state.status === 'none') throw new NotFound('subject check', command.data.subjectCheckId);
  const ids = { subjectCheckId: state.subjectCheckId, accountId: state.accountId };
  switch (command.type) {
    case 'RecordAgentResult': {
      const d = command.data;
      if (state.agents.includes(d.agent)) return []; // redelivered result: first one wins
      if (state.status !== 'running') illegal(state, command);
      new Issues()
        .check(isNonEmptyText(d.agent, 100), 'agent', 'is required')
        .check(d.queried || isNonEmptyText(d.error, 2000), 'error', 'is required when the agent was not queried')
        .check(isIsoInstant(d.startedAt) && isIsoInstant(d.finishedAt), 'started_at', 'times must be ISO instants')
        .throwIfAny();
      return stamp<SubjectCheckEvent>(command, [
        {
          type: 'SubjectCheckAgentResultRecorded',
          data: {
            ...ids,
            agent: d.agent,
            ...(d.tier !== undefined ? { tier: d.tier } : {}),
            queried: d.queried,
            ...(d.error !== undefined ? { error: d.error } : {}),
            result: d.result,
            startedAt: d.startedAt,
            finishedAt: d.finishedAt,
          },
        },
      ]);
    }
    case 'ConcludeSubjectCheck': {
      if (state.status !== 'running') illegal(state, command);
      const d = command.data;
      const issues = new Issues()
        .check(isNonEmptyText(d.overallResult, 50), 'overall_result', 'is required')
        .check(isNonEmptyText(d.confidenceLevel, 50), 'confidence_level', 'is required')
        .check(isInteger(d.sourcesTotal, 0, 10_000) && isInteger(d.sourcesSearched, 0, d.sourcesTotal), 'sources_searched', 'must be 0..sources_total')
        .check(
          isInteger(d.findingsCount, 0, 100_000) && isInteger(d.redFlagCount, 0, d.findingsCount) && isInteger(d.warningCount, 0, d.findingsCount),
          'findings_count',
          'counts must be non-negative integers within findings_count',
        )
        .check(
          typeof d.tierScores === 'object' && d.tierScores !== null && Object.values(d.tierScores).every((s) => typeof s === 'number' && s >= 0 && s <= 100),
          'tier_scores',
          'must map tier names to scores 0-100',
        );
      issues.throwIfAny();
      const summary: SubjectSummary = {
        overallResult: d.overallResult,
        confidenceLevel: d.confidenceLevel,
        findingsCount: d.findingsCount,
        redFlagCount: d.redFlagCount,
        warningCount: d.warningCount,
        sourcesSearched: d.sourcesSearched,
        sourcesTotal: d.sourcesTotal,
      };
      const tiers = triggeringTiers(d.tierScores);
      const coverage = d.sourcesTotal > 0 ? d.sourcesSearched / d.sourcesTotal : 0;
      const reviewReason = coverage < minimumSourceCoverage ? 'insufficient_source_coverage' : d.bestHitAmbiguous === true ? 'ambiguous_match' : undefined;
      const conclusion: BareEvent =
        tiers.length > 0
          ? escalation(ids, d.tierScores, tiers, d.investigationId, d.requestedScope, now)
          : reviewReason
            ? { type: 'SubjectCheckReviewRequired', data: { ...ids, ...summary, status: 'needs_review', reviewReason, tierScores: d.tierScores, reviewRequiredAt: now } }
            : { type: 'SubjectCheckCompleted', data: { ...ids, ...summary, status: 'completed', resolvedBy: 'automatic', completedAt: now } };
      // A check requested with `monitor` is enrolled by its conclusion, with the hits it concluded on.
      return stamp<SubjectCheckEvent>(command, state.monitorOnConclusion ? [conclusion, enrolment(state, ids, now)] : [conclusion]);
    }
    case 'FailSubjectCheck':
      if (state.status !== 'running') illegal(state, command);
      new Issues().check(isNonEmptyText(command.data.errorMessage, 2000), 'error_message', 'is required').throwIfAny();
      return stamp<SubjectCheckEvent>(command, [
        { type: 'SubjectCheckFailed', data: { ...ids, status: 'failed', errorMessage: command.data.errorMessage, failedAt: now } },
      ]);
    case 'ResolveReview': {
      if (state.status !== 'needs_review') illegal(state, command);
      const d = command.data;
      validateReviewer(d);
      const resolved = {
        type: 'SubjectCheckReviewResolved' as const,
        data: { ...ids, outcome: d.outcome, reviewer: d.reviewer, note: d.note, reviewReason: state.reviewReason ?? 'unknown', resolvedAt: now },
      };
      if (d.outcome === 'clear') {
        return stamp<SubjectCheckEvent>(command, [resolved, completedAfter(ids, state.summary, 'clean', 'review', now)]);
      }
      // A reviewer's adverse finding opens an investigation even when no tier crossed its threshold.
      const tiers = triggeringTiers(state.tierScores);
      return stamp<SubjectCheckEvent>(command, [
        resolved,
        escalation(ids, state.tierScores, tiers.length > 0 ? tiers : ['manual_review'], d.investigationId, d.requestedScope, now),
      ]);
    }
    case 'CloseInvestigation': {
      if (state.status !== 'escalated') illegal(state, command);
      const d = command.data;
      validateReviewer(d);
      return stamp<SubjectCheckEvent>(command, [
        {
          type: 'SubjectCheckInvestigationClosed',
          data: { ...ids, investigationId: state.investigationId ?? '', outcome: d.outcome, reviewer: d.reviewer, note: d.note, closedAt: now },
        },
        completedAfter(ids, state.summary, d.outcome === 'clear' ? 'clean' : 'adverse_found', 'investigation', now),
      ]);
    }
    case 'EnrollInMonitoring':
      if (state.monitoring) return [];
      // Only a concluded check has a result to monitor; a running one is enrolled by `monitor` instead.
      if (!CONCLUDED.includes(state.status)) illegal(state, command);
      return stamp<SubjectCheckEvent>(command, [enrolment(state, ids, now)]);
    case 'UnenrollFromMonitoring':
      if (!state.monitoring) return [];
      return stamp<SubjectCheckEvent>(command, [{ type: 'SubjectCheckMonitoringUnenrolled', data: { ...ids, unenrolledAt: now } }]);
    case 'RecordMonitoringAlert': {
      if (!state.monitoring) throw new IllegalTransition('subject check', 'not_monitored', command.type);
      const alert = recordMonitoringAlert(command.data, state.hits, state.alertIds, now);
      return alert ? stamp<SubjectCheckEvent>(command, [{ type: 'SubjectCheckMonitoringAlertRaised', data: { ...ids, ...alert } }]) : [];
    }
    default:
      return assertNever(command, 'subject check command');
  }
}

type BareEvent =
  | Pick<SubjectCheckEscalated, 'type' | 'data'>
  | Pick<SubjectCheckReviewRequired, 'type' | 'data'>
  | Pick<SubjectCheckCompleted, 'type' | 'data'>
  | Pick<SubjectCheckMonitoringEnrolled, 'type' | 'data'>;

function enrolment(state: Extract<SubjectCheckState, { subjectCheckId: string }>, ids: Ids, now: string): Pick<SubjectCheckMonitoringEnrolled, 'type' | 'data'> {
  return { type: 'SubjectCheckMonitoringEnrolled', data: { ...ids, subject: state.subject, hits: liveHits(state.hits), enrolledAt: now } };
}

function validateReviewer(d: { outcome: string; reviewer: string; note: string }): void {
  new Issues()
    .check(d.outcome === 'clear' || d.outcome === 'adverse', 'outcome', 'must be clear or adverse')
    .check(isNonEmptyText(d.reviewer, 200), 'reviewer', 'is required')
    .check(isNonEmptyText(d.note, 5000), 'note', 'is required (1-5000 characters)')
    .throwIfAny();
}

function completedAfter(
  ids: Ids,
  summary: SubjectSummary | undefined,
  overallResult: string,
  resolvedBy: 'review' | 'investigation',
  now: string,
): { type: 'SubjectCheckCompleted'; data: SubjectCheckCompleted['data'] } {
  const base: SubjectSummary = summary ?? {
    overallResult,
    confidenceLevel: 'low',
    findingsCount: 0,
    redFlagCount: 0,
    warningCount: 0,
    sourcesSearched: 0,
    sourcesTotal: 0,
  };
  // A human decided: the verdict is theirs and its confidence is high.
  return { type: 'SubjectCheckCompleted', data: { ...ids, ...base, overallResult, confidenceLevel: 'high', status: 'completed', resolvedBy, completedAt: now } };
}

export function evolve(state: SubjectCheckState, event: SubjectCheckEvent): SubjectCheckState {
  if (event.type === 'SubjectCheckStarted') {
    const d = event.data;
    return {
      status: 'running',
      subjectCheckId: d.subjectCheckId,
      accountId: d.accountId,
      agents: [],
      tierScores: {},
      subject: monitoredSubjectOfStart(d),
      monitorOnConclusion: d.monitor === true,
      monitoring: false,
      hits: {},
      alertIds: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'SubjectCheckAgentResultRecorded': {
      const hits = { ...state.hits };
      for (const hit of monitorableHits(event.data)) {
        const known = hits[hit.entityId];
        if (!known || known.score < hit.score) hits[hit.entityId] = hit;
      }
      return { ...state, agents: [...state.agents, event.data.agent], hits };
    }
    case 'SubjectCheckReviewRequired': {
      const { overallResult, confidenceLevel, findingsCount, redFlagCount, warningCount, sourcesSearched, sourcesTotal } = event.data;
      return {
        ...state,
        status: 'needs_review',
        reviewReason: event.data.reviewReason,
        tierScores: event.data.tierScores,
        summary: { overallResult, confidenceLevel, findingsCount, redFlagCount, warningCount, sourcesSearched, sourcesTotal },
      };
    }
    case 'SubjectCheckEscalated':
      return { ...state, status: 'escalated', investigationId: event.data.investigationId, tierScores: event.data.tierScores };
    case 'SubjectCheckCompleted':
      return { ...state, status: 'completed' };
    case 'SubjectCheckFailed':
      return { ...state, status: 'failed' };
    case 'SubjectCheckReviewResolved':
    case 'SubjectCheckInvestigationClosed':
      return state;
    case 'SubjectCheckMonitoringEnrolled':
      return { ...state, monitoring: true };
    case 'SubjectCheckMonitoringUnenrolled':
      return { ...state, monitoring: false };
    case 'SubjectCheckMonitoringAlertRaised': {
      const d = event.data;
      const hit: MonitoredHitState =
        d.kind === 'removed_hit' && state.hits[d.entityId]
          ? { ...state.hits[d.entityId]!, status: 'removed' }
          : {
              hitId: d.hitId,
              entityId: d.entityId,
              tier: d.tier,
              source: d.source,
              matchedName: d.matchedName,
              score: d.score,
              entityRecordHash: d.entityRecordHash ?? state.hits[d.entityId]?.entityRecordHash ?? '',
              status: d.kind === 'removed_hit' ? 'removed' : 'open',
            };
      return { ...state, alertIds: [...state.alertIds, d.alertId], hits: { ...state.hits, [d.entityId]: hit } };
    }
    default:
      return assertNever(event, 'subject check event');
  }
}

export const subjectCheckDecider: Decider<SubjectCheckCommand, SubjectCheckEvent, SubjectCheckState> = { decide, evolve, initialState };
