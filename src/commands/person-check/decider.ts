/**
 * Person background check (FCRA), stream `person-check-<id>`, id `SVC-<8 hex>-P`. One stream
 * type serves the S1 endpoints and the S3 portal form.
 *
 * FCRA rules kept here: a permissible purpose and `fcra_consent === true` are required (else
 * ValidationFailed and no event); both are recorded in PersonCheckRequested for auditors.
 * Identifiers are reduced to their last four characters before they reach an event: a full
 * national id never enters the store.
 */
import { assertNever, type Event } from '../../shared/events';
import { type AgentAnswer, type Command, type Decider, isCalendarDate, isInteger, isIsoInstant, isNonEmptyText, NUMERIC_ID, recordedAnswer, stamp } from '../decider';
import { IllegalTransition, Issues, NotFound, ValidationFailed } from '../errors';
import { type RiskLevel, riskLevelForScore } from '../plans';
import { isEmailAddress, isPhoneNumber, recordedSubjectAddress, subjectAddressProblems, type SubjectAddress } from '../screening/model';
import { isPinnedInternalListVersions } from '../../screening/watchlists/model';

export const PERSON_CHECK_ID = /^SVC-[0-9a-fA-F]{8}-P$/;
export function streamName(personCheckId: string): string {
  return `person-check-${personCheckId}`;
}
export const personCheckStreamName = streamName;

export const personCheckPurposes = ['employment', 'business_due_diligence', 'volunteer_screening', 'licensing'] as const;
export type PersonCheckPurpose = (typeof personCheckPurposes)[number];

/** The S3 person-check pipeline (phases 1-7), agents per phase. `whois` only with an associated domain. */
export const personCheckPhases: Record<number, readonly string[]> = {
  1: ['standardisation'],
  2: ['identity_verification', 'whois'],
  3: ['federal_courts', 'sanctions_list', 'state_court_portals'],
  4: ['sex_offender_registry', 'professional_licences', 'secretary_of_state'],
  5: ['bankruptcy', 'judgment_liens', 'county_assessor'],
  6: ['news', 'encyclopedia', 'social_presence', 'pep_sanctions'],
  7: ['corroboration'],
};

export function personCheckAgents(hasDomain: boolean): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(personCheckPhases).map(([phase, agents]) => [phase, agents.filter((a) => a !== 'whois' || hasDomain)]),
  );
}

export type FindingSeverity = 'info' | 'warning' | 'red_flag';
export type Corroboration = 'name_dob' | 'name_location' | 'name_only';
export interface PersonFinding {
  severity: FindingSeverity;
  category: string;
  corroboration: Corroboration;
  source: { name: string; url?: string; entityId?: string; retrievedAt: string };
  matchedName: string;
  why: string;
  title?: string;
}
export interface MaskedIdentifier {
  type: string;
  /** Last four characters only. */
  last4: string;
}

// ---- commands ----
/** What a person check is asked with: the request input of the application service and the command's fields. */
export type PersonCheckRequestFields = {
  fullName: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  purpose: PersonCheckPurpose;
  /** Must be literally `true`. Typed `unknown` because the decider is the last line of defence. */
  fcraConsent: unknown;
  dateOfBirth?: string;
  locations?: string[];
  aliases?: string[];
  associatedDomain?: string;
  /** Raw identifiers from the request: only the last four characters are kept. */
  identifiers?: { type: string; value: string }[];
  /** Phone and e-mail (issue 27): compared with the account's internal lists (screening them needs the whole value). */
  phone?: string;
  email?: string;
  /** The subject's postal address (issue 30): the account's internal lists weigh it. */
  address?: SubjectAddress;
  /**
   * The account's internal-list versions active when the check was requested (`watchlist-<id>@v<n>`):
   * the phase-3 list agent screens exactly these, on its first run as on a run resumed after the lists changed.
   */
  internalListVersions?: string[];
};
export type RequestPersonCheck = Command<'RequestPersonCheck', { personCheckId: string; accountId: string; surface: 's1' | 'portal' } & PersonCheckRequestFields>;
/** The verdict as the command carries it and the event records it (agents/person/verdict.ts computes it). */
export type PersonCheckOutcome = {
  result: 'clean' | 'adverse_found' | 'inconclusive';
  confidence: 'high' | 'medium' | 'low';
  riskScore: number;
  riskLevel: RiskLevel;
  redFlagCount: number;
  warningCount: number;
  sourcesChecked: number;
  sourcesTotal: number;
};
export type RecordPersonCheckAgentResult = Command<'RecordAgentResult', { personCheckId: string } & AgentAnswer<number>>;
export type CompletePersonCheck = Command<'CompletePersonCheck', { personCheckId: string; findings: PersonFinding[] } & PersonCheckOutcome>;
export type FailPersonCheck = Command<'FailPersonCheck', { personCheckId: string; reason: string }>;
export type PersonCheckCommand = RequestPersonCheck | RecordPersonCheckAgentResult | CompletePersonCheck | FailPersonCheck;

// ---- events ----
type Ids = { personCheckId: string; accountId: string };
export type PersonCheckRequested = Event<
  'PersonCheckRequested',
  Ids & {
    surface: 's1' | 'portal';
    fullName: string;
    firstName?: string;
    middleName?: string;
    lastName?: string;
    purpose: PersonCheckPurpose;
    fcraConsent: true;
    consentRecordedAt: string;
    dateOfBirth?: string;
    locations: string[];
    aliases: string[];
    associatedDomain?: string;
    identifiers: MaskedIdentifier[];
    phone?: string;
    email?: string;
    address?: SubjectAddress;
    /** Absent on checks recorded before the versions were pinned: their list agent screens the lists active when it runs. */
    internalListVersions?: string[];
    agents: Record<string, string[]>;
    requestedAt: string;
  }
>;
export type PersonCheckAgentResultRecorded = Event<'PersonCheckAgentResultRecorded', Ids & AgentAnswer<number>>;
export type PersonCheckCompleted = Event<
  'PersonCheckCompleted',
  Ids &
    PersonCheckOutcome & {
      surface: 's1' | 'portal';
      findingsCount: number;
      findings: PersonFinding[];
      completedAt: string;
    }
>;
export type PersonCheckFailed = Event<'PersonCheckFailed', Ids & { reason: string; failedAt: string }>;
export type PersonCheckEvent = PersonCheckRequested | PersonCheckAgentResultRecorded | PersonCheckCompleted | PersonCheckFailed;
export const personCheckEventTypes = [
  'PersonCheckRequested',
  'PersonCheckAgentResultRecorded',
  'PersonCheckCompleted',
  'PersonCheckFailed',
] as const;

// ---- state ----
export type PersonCheckState =
  | { status: 'none' }
  | {
      status: 'running' | 'completed' | 'failed';
      personCheckId: string;
      accountId: string;
      surface: 's1' | 'portal';
      agents: Record<string, string[]>;
      recorded: Record<string, { queried: boolean }>;
    };

export function initialState(): PersonCheckState {
  return { status: 'none' };
}

/** Agents (`${phase}/${agent}`) without a recorded result. */
export function pendingAgents(state: PersonCheckState): string[] {
  if (state.status === 'none') return [];
  return Object.entries(state.agents).flatMap(([phase, agents]) =>
    agents.map((a) => `${phase}/${a}`).filter((key) => state.recorded[key] === undefined),
  );
}

/** Keeps the last four letters/digits of an identifier, nothing else. */
export function maskIdentifier(value: string): string {
  const significant = value.replace(/[^A-Za-z0-9]/g, '');
  return significant.slice(-4);
}

const HOSTNAME = /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;

function requestPersonCheck(command: RequestPersonCheck, state: PersonCheckState): PersonCheckEvent[] {
  const d = command.data;
  const now = command.metadata.now;
  const issues = new Issues()
    .check(PERSON_CHECK_ID.test(d.personCheckId ?? ''), 'id', 'must look like SVC-<8 hex>-P')
    .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
    .check(d.surface === 's1' || d.surface === 'portal', 'surface', 'must be s1 or portal')
    .check(typeof d.fullName === 'string' && d.fullName.trim().length >= 2 && d.fullName.length <= 200, 'full_name', 'must be 2-200 characters')
    .check((personCheckPurposes as readonly string[]).includes(d.purpose), 'purpose', 'must be employment, business_due_diligence, volunteer_screening or licensing')
    .check(d.fcraConsent === true, 'fcra_consent', 'must be true: the FCRA requires the consumer\'s consent');
  for (const field of ['firstName', 'middleName', 'lastName'] as const) {
    if (d[field] !== undefined) issues.check(isNonEmptyText(d[field], 100), field, 'must be 1-100 characters');
  }
  if (d.dateOfBirth !== undefined) {
    issues.check(
      isCalendarDate(d.dateOfBirth) && d.dateOfBirth <= now.slice(0, 10) && d.dateOfBirth >= '1900-01-01',
      'date_of_birth',
      'must be a real date YYYY-MM-DD between 1900-01-01 and today',
    );
  }
  issues.check(
    d.locations === undefined || (Array.isArray(d.locations) && d.locations.length <= 50 && d.locations.every((l) => isNonEmptyText(l, 100))),
    'locations',
    'must be up to 50 names of states or countries',
  );
  issues.check(
    d.aliases === undefined || (Array.isArray(d.aliases) && d.aliases.length <= 20 && d.aliases.every((a) => isNonEmptyText(a, 200))),
    'aliases',
    'must be up to 20 names',
  );
  if (d.associatedDomain !== undefined) issues.check(HOSTNAME.test(d.associatedDomain), 'associated_domain', 'must be a hostname');
  issues.check(
    d.identifiers === undefined ||
      (Array.isArray(d.identifiers) &&
        d.identifiers.length <= 10 &&
        d.identifiers.every((i) => isNonEmptyText(i?.type, 50) && typeof i.value === 'string' && maskIdentifier(i.value).length > 0)),
    'identifiers',
    'must be up to 10 {type, value} pairs',
  );
  if (d.phone !== undefined) issues.check(typeof d.phone === 'string' && isPhoneNumber(d.phone), 'phone', 'must be a phone number: 6-15 digits, optionally a leading +');
  if (d.email !== undefined) issues.check(typeof d.email === 'string' && isEmailAddress(d.email), 'email', 'must be an e-mail address');
  if (d.address !== undefined) for (const [field, message] of subjectAddressProblems(d.address)) issues.add(field, message);
  issues.check(
    d.internalListVersions === undefined || isPinnedInternalListVersions(d.internalListVersions),
    'internal_list_versions',
    'must be up to 1000 internal-list version ids watchlist-<id>@v<n>',
  );
  issues.throwIfAny();
  if (state.status !== 'none') throw new IllegalTransition('person check', state.status, command.type);
  const hasDomain = d.associatedDomain !== undefined;
  return stamp<PersonCheckEvent>(command, [
    {
      type: 'PersonCheckRequested',
      data: {
        personCheckId: d.personCheckId,
        accountId: d.accountId,
        surface: d.surface,
        fullName: d.fullName.trim(),
        ...(d.firstName !== undefined ? { firstName: d.firstName.trim() } : {}),
        ...(d.middleName !== undefined ? { middleName: d.middleName.trim() } : {}),
        ...(d.lastName !== undefined ? { lastName: d.lastName.trim() } : {}),
        purpose: d.purpose,
        fcraConsent: true,
        consentRecordedAt: now,
        ...(d.dateOfBirth !== undefined ? { dateOfBirth: d.dateOfBirth } : {}),
        locations: (d.locations ?? []).map((l) => l.trim()),
        aliases: (d.aliases ?? []).map((a) => a.trim()),
        ...(hasDomain ? { associatedDomain: d.associatedDomain!.toLowerCase() } : {}),
        identifiers: (d.identifiers ?? []).map((i) => ({ type: i.type, last4: maskIdentifier(i.value) })),
        ...(d.phone !== undefined ? { phone: d.phone.trim() } : {}),
        ...(d.email !== undefined ? { email: d.email.trim() } : {}),
        ...(recordedSubjectAddress(d.address) ? { address: recordedSubjectAddress(d.address)! } : {}),
        ...(d.internalListVersions !== undefined ? { internalListVersions: [...d.internalListVersions] } : {}),
        agents: personCheckAgents(hasDomain),
        requestedAt: now,
      },
    },
  ]);
}

export function decide(command: PersonCheckCommand, state: PersonCheckState): PersonCheckEvent[] {
  if (command.type === 'RequestPersonCheck') return requestPersonCheck(command, state);
  if (state.status === 'none') throw new NotFound('person check', command.data.personCheckId);
  const ids = { personCheckId: state.personCheckId, accountId: state.accountId };
  const now = command.metadata.now;
  switch (command.type) {
    case 'RecordAgentResult': {
      const d = command.data;
      const key = `${d.phase}/${d.agent}`;
      if (state.recorded[key] !== undefined) return [];
      if (state.status !== 'running') throw new IllegalTransition('person check', state.status, command.type);
      if (!state.agents[String(d.phase)]?.includes(d.agent)) {
        throw new ValidationFailed([{ field: 'agent', message: `${d.agent} is not an agent of phase ${d.phase}` }]);
      }
      new Issues()
        .check(d.queried || isNonEmptyText(d.error, 2000), 'error', 'is required when the agent was not queried')
        .check(typeof d.result === 'object' && d.result !== null, 'result', 'must be an object')
        .check(isIsoInstant(d.startedAt) && isIsoInstant(d.finishedAt), 'started_at', 'times must be ISO instants')
        .throwIfAny();
      return stamp<PersonCheckEvent>(command, [
        {
          type: 'PersonCheckAgentResultRecorded',
          data: { ...ids, ...recordedAnswer(d) },
        },
      ]);
    }
    case 'CompletePersonCheck': {
      if (state.status === 'completed') return [];
      if (state.status !== 'running') throw new IllegalTransition('person check', state.status, command.type);
      const d = command.data;
      const findings = Array.isArray(d.findings) ? d.findings : [];
      const issues = new Issues()
        .check(['clean', 'adverse_found', 'inconclusive'].includes(d.result), 'result', 'must be clean, adverse_found or inconclusive')
        .check(['high', 'medium', 'low'].includes(d.confidence), 'confidence', 'must be high, medium or low')
        .check(isInteger(d.riskScore, 0, 100), 'risk_score', 'must be an integer 0-100')
        .check(isInteger(d.riskScore, 0, 100) && d.riskLevel === riskLevelForScore(d.riskScore), 'risk_level', 'must match the risk scale')
        .check(Array.isArray(d.findings), 'findings', 'must be an array')
        .check(isInteger(d.sourcesTotal, 0, 1000) && isInteger(d.sourcesChecked, 0, d.sourcesTotal), 'sources_checked', 'must be 0..sources_total')
        .check(d.redFlagCount === findings.filter((f) => f.severity === 'red_flag').length, 'red_flag_count', 'must equal the red-flag findings')
        .check(d.warningCount === findings.filter((f) => f.severity === 'warning').length, 'warning_count', 'must equal the warning findings');
      // Invariants of an honest verdict (the full rule lives in the person-check engine):
      issues.check(!(d.result === 'clean' && d.redFlagCount > 0), 'result', 'a check with red flags is never clean');
      issues.check(!(d.result === 'adverse_found' && d.redFlagCount + d.warningCount === 0), 'result', 'adverse_found needs a red flag or warning');
      const coverage = d.sourcesTotal > 0 ? d.sourcesChecked / d.sourcesTotal : 0;
      issues.check(!(d.confidence === 'high' && coverage < 0.5), 'confidence', 'high confidence needs at least half of the sources searched');
      issues.throwIfAny();
      return stamp<PersonCheckEvent>(command, [
        {
          type: 'PersonCheckCompleted',
          data: {
            ...ids,
            surface: state.surface,
            result: d.result,
            confidence: d.confidence,
            riskScore: d.riskScore,
            riskLevel: d.riskLevel,
            redFlagCount: d.redFlagCount,
            warningCount: d.warningCount,
            findingsCount: findings.length,
            sourcesChecked: d.sourcesChecked,
            sourcesTotal: d.sourcesTotal,
            findings,
            completedAt: now,
          },
        },
      ]);
    }
    case 'FailPersonCheck':
      if (state.status === 'failed') return [];
      if (state.status !== 'running') throw new IllegalTransition('person check', state.status, command.type);
      new Issues().check(isNonEmptyText(command.data.reason, 2000), 'reason', 'is required').throwIfAny();
      return stamp<PersonCheckEvent>(command, [{ type: 'PersonCheckFailed', data: { ...ids, reason: command.data.reason, failedAt: now } }]);
    default:
      return assertNever(command, 'person check command');
  }
}

export function evolve(state: PersonCheckState, event: PersonCheckEvent): PersonCheckState {
  switch (event.type) {
    case 'PersonCheckRequested':
      return {
        status: 'running',
        personCheckId: event.data.personCheckId,
        accountId: event.data.accountId,
        surface: event.data.surface,
        agents: event.data.agents,
        recorded: {},
      };
    case 'PersonCheckAgentResultRecorded':
      if (state.status === 'none') return state;
      return { ...state, recorded: { ...state.recorded, [`${event.data.phase}/${event.data.agent}`]: { queried: event.data.queried } } };
    case 'PersonCheckCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed' };
    case 'PersonCheckFailed':
      return state.status === 'none' ? state : { ...state, status: 'failed' };
    default:
      return assertNever(event, 'person check event');
  }
}

export const personCheckDecider: Decider<PersonCheckCommand, PersonCheckEvent, PersonCheckState> = { decide, evolve, initialState };
