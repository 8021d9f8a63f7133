/**
 * Real events for the typed-schema tests: every aggregate's decider is driven through its life
 * cycle with representative commands (optional fields both present and absent), the way the
 * command handlers drive them. Nothing here is hand-written event data: it is what decide() emits.
 */
import { createHash } from 'node:crypto';
import * as commands from '../../../src/commands';
import { type Command, type Decider, foldEvents } from '../../../src/commands/decider';
import type { Actor, Event } from '../../../src/shared/events';

const NOW = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T10:00:02.500Z';
const actor: Actor = { surface: 'portal', accountId: '42', userId: 'u-owner' };
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let counter = 0;
const meta = (now = NOW) => ({ now, actor, commandId: `cmd-${++counter}`, correlationId: 'corr-1' });

/** Applies commands to one stream in order, keeping every emitted event. */
class Stream<C extends Command, E extends Event, S> {
  readonly events: E[] = [];
  constructor(private readonly decider: Decider<C, E, S>) {}

  run(type: C['type'], data: C['data'], now?: string): E[] {
    const command = { type, data, metadata: meta(now) } as C;
    const emitted = this.decider.decide(command, foldEvents(this.decider, this.events));
    this.events.push(...emitted);
    return emitted;
  }

  get state(): S {
    return foldEvents(this.decider, this.events);
  }
}

function accountEvents(): Event[] {
  const s = new Stream(commands.account.accountDecider);
  s.run('CreateAccount', { accountId: '42', name: 'Acme Bank', ownerUserId: 'u-owner', ownerEmail: 'owner@acme.test', passwordHash: 'scrypt$abc', plan: 'professional' });
  s.run('ChangePlan', { accountId: '42', plan: 'enterprise', providerEventId: 'evt_1', source: 'payment' });
  s.run('ChangePlan', { accountId: '42', plan: 'essentials', source: 'admin' });
  s.run('AddUser', { accountId: '42', userId: 'u-2', email: 'ann@acme.test', role: 'analyst', passwordHash: 'scrypt$def' });
  s.run('AddUser', { accountId: '42', userId: 'u-3', email: 'bob@acme.test', role: 'auditor' });
  s.run('ChangeUserRole', { accountId: '42', userId: 'u-2', role: 'owner' });
  return s.events;
}

function apiKeyEvents(): Event[] {
  const s = new Stream(commands.apiKeys.apiKeysDecider);
  const webhook = { url: 'https://hooks.acme.test/svc', secretHash: sha('whsec'), secretCiphertext: 'v1:iv:ct' };
  s.run('CreateApiKey', {
    accountId: '42', keyId: '1', surface: 's1', name: 'prod', keyHash: sha('k1'), prefix: 'svc_ab12',
    expiresAt: '2027-01-01T00:00:00.000Z', webhook,
  });
  s.run('CreateApiKey', { accountId: '42', keyId: '2', surface: 's2', name: 'batch', keyHash: sha('k2'), prefix: 'svca_cd34' });
  s.run('CreateApiKey', { accountId: '42', keyId: '3', surface: 's3', name: 'enterprise', keyHash: sha('k3'), prefix: 'svcc_live_0a1b', userId: 'u-owner' });
  s.run('RotateApiKey', { accountId: '42', keyId: '2', keyHash: sha('k2-new'), prefix: 'svca_ef56' });
  s.run('ConfigureKeyWebhook', { accountId: '42', keyId: '1', webhook: { url: 'https://hooks.acme.test/v2', secretCiphertext: 'v1:iv:ct2' } });
  s.run('ConfigureKeyWebhook', { accountId: '42', keyId: '1', webhook });
  s.run('RevokeApiKey', { accountId: '42', keyId: '3' });
  return s.events;
}

type ScreeningRequest = commands.screening.RequestScreening['data'];

/** Drives a screening through its pipeline with the pure process manager, as the handler does. */
function runScreening(request: ScreeningRequest, options: { overduePhases?: readonly string[]; skipTogether?: boolean; finaliseWhole?: boolean } = {}) {
  const s = new Stream(commands.screening.screeningDecider);
  s.run('RequestScreening', request);
  for (let guard = 0; guard < 200; guard++) {
    const step = commands.screening.nextStep(s.state);
    if (step.action === 'start_phase' && options.finaliseWhole && step.phase === '5') {
      // finaliseWhole: the finalisation recorded whole, its results in PhaseCompleted (v2); the first step could not answer.
      const results = step.agents.map((agent, i) => ({
        agent,
        queried: i !== 0,
        ...(i === 0 ? { error: 'FATF lists not loaded' } : {}),
        result: i === 0 ? {} : { step: agent, findings: [{ code: 'x', n: i }], nested: { ok: true, n: null } },
        startedAt: NOW,
        finishedAt: LATER,
      }));
      s.run('CompletePhase', { screeningId: request.screeningId, phase: '5', results });
    }
    else if (step.action === 'start_phase' && options.skipTogether && step.phase === '3' && s.state.status === 'running') {
      // skipTogether: no source of phases 3 and 4 can be queried: one PhaseSkipped for both (thenSkipped).
      const plans = s.state.pipeline;
      const unqueryable = (phase: string) => (plans.find((p) => p.phase === phase)?.agents ?? []).map((agent) => ({ agent, error: 'not configured: set its API key' }));
      s.run('StartPhase', { screeningId: request.screeningId, phase: '3', notQueried: unqueryable('3'), deadline: '2026-03-01T10:00:45.000Z', thenSkipped: [{ phase: '4', notQueried: unqueryable('4') }] });
    }
    else if (step.action === 'start_phase') {
      // Phase 3's first source is one this deployment cannot query: recorded in PhaseStarted (notQueried).
      // No source of phase 4 (Enterprise) can be queried: the phase is skipped (PhaseSkipped).
      const plan = s.state.status === 'running' ? s.state.pipeline.find((p) => p.phase === step.phase) : undefined;
      const unqueryable = step.phase === '3' ? plan?.agents.slice(0, 1) : step.phase === '4' ? plan?.agents : undefined;
      const notQueried = unqueryable?.length ? unqueryable.map((agent) => ({ agent, error: 'not configured: set its API key' })) : undefined;
      // Phases carry their deadline, except 1b (as a stream recorded before deadlines existed).
      const deadline = step.phase === '1b' ? undefined : '2026-03-01T10:00:45.000Z';
      s.run('StartPhase', { screeningId: request.screeningId, phase: step.phase, ...(notQueried ? { notQueried } : {}), ...(deadline ? { deadline } : {}) });
    }
    else if (step.action === 'complete_phase') s.run('CompletePhase', { screeningId: request.screeningId, phase: step.phase });
    else if (step.action === 'dispatch') {
      // An overdue phase the supervisor retries once (PhaseRetried), before its agents answer.
      const phaseState = s.state.status === 'running' ? s.state.phases[step.phase] : undefined;
      if (options.overduePhases?.includes(step.phase) && phaseState?.retries === undefined) {
        s.run('ExpirePhase', { screeningId: request.screeningId, phase: step.phase, retryBudget: 1, retryDeadline: '2026-03-01T10:02:00.000Z' }, '2026-03-01T10:01:00.000Z');
      }
      for (const agent of step.agents) {
        const failed = agent === 'osint';
        s.run('RecordAgentResult', {
          screeningId: request.screeningId,
          phase: step.phase,
          agent,
          queried: !failed,
          ...(failed ? { error: 'not configured' } : {}),
          result: failed ? {} : { matches: [{ name: 'ROSNEFT', score: 0.97, aliases: ['Rosneft Oil'] }], nested: { ok: true, n: null } },
          startedAt: NOW,
          finishedAt: LATER,
        });
      }
    } else return s;
  }
  throw new Error('pipeline did not finish');
}

const hits: commands.screening.ScreeningHit[] = [
  { hitId: 'h1', entityId: 'ofac_sdn:123', category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT', score: 0.97, listVersion: 'ofac_sdn@abc', entityRecordHash: 'rec-a', lists: ['ofac_sdn', 'us_csl'] },
  { hitId: 'h2', entityId: 'opensanctions_peps:Q1', category: 'pep', source: 'opensanctions_peps', matchedName: 'Rosneft', score: 0.81, entityRecordHash: 'rec-b' },
];

function completion(screeningId: string, extra: Partial<commands.screening.CompleteScreening['data']> = {}): commands.screening.CompleteScreening['data'] {
  return {
    screeningId,
    riskScore: 30,
    riskLevel: 'medium',
    counts: { sanctionsHits: 1, pepHits: 1, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
    hits,
    listVersions: [
      {
        id: 'ofac_sdn@abc',
        source: 'ofac_sdn',
        contentHash: 'abc',
        publishedAt: '2026-02-27',
        publishedAtSource: 'manifest',
        loadedAt: '2026-03-01T08:00:00.000Z',
        ageDays: 2,
        maxAgeDays: 7,
        stale: false,
      },
      { id: 'peps@1', source: 'opensanctions_peps', contentHash: 'def' },
    ],
    matcherVersion: 'matcher@1',
    ...extra,
  };
}

function screeningEvents(): Event[] {
  const base = { accountId: '42', uuid: '6f1c2a0e-8b7d-4c3e-9a1f-0b2c3d4e5f60', surface: 's1' as const, subject: { query: 'Rosneft', entityType: 'company' as const } };

  // CDD with monitoring: completion, dispositions, alerts, re-opening, unenrolment.
  const cdd = runScreening({ ...base, screeningId: '501', kind: 'cdd', plan: 'essentials', monitor: true, internalListVersions: ['watchlist-6f1c0f7e-1b7a-4c59-9a53-0d7c8e2f4a10@v2'] }, { overduePhases: ['1', '1b'] });
  cdd.run('CompleteScreening', completion('501', { summary: 'One sanctions hit, one PEP hit.' }));
  cdd.run('AssignCase', { screeningId: '501', assigneeUserId: 'u-owner', assignedBy: 'u-owner' });
  cdd.run('AssignCase', { screeningId: '501', assigneeUserId: 'u-ann', assignedBy: 'u-owner' });
  cdd.run('DispositionHit', { screeningId: '501', hitId: 'h2', disposition: 'needs_more_information', reason: 'ask for a passport copy', analyst: 'ann@acme.test', riskScore: 30, riskLevel: 'medium' });
  cdd.run('DispositionHit', { screeningId: '501', hitId: 'h2', disposition: 'true_match', reason: 'same DOB', analyst: 'ann@acme.test', riskScore: 30, riskLevel: 'medium' });
  cdd.run('UnassignCase', { screeningId: '501', unassignedBy: 'u-owner' });
  cdd.run('DispositionHit', {
    screeningId: '501', hitId: 'h2', disposition: 'false_positive', reason: 'different DOB', analyst: 'ann@acme.test', riskScore: 15, riskLevel: 'low',
    summary: 'Rosneft was screened against 9 sources. 2 matches (strong name match 1, dismissed 1): ROSNEFT on OFAC SDN (97, strong name match).',
  });
  cdd.run('RecordMonitoringAlert', {
    screeningId: '501', alertId: 'a1', kind: 'changed_hit', entityId: 'opensanctions_peps:Q1',
    diff: { birthDates: { before: [], after: ['1961-01-01'] } }, listVersion: 'peps@2', entityRecordHash: 'rec-b2',
    risk: { riskScore: 30, riskLevel: 'medium' },
  });
  cdd.run('RecordMonitoringAlert', { screeningId: '501', alertId: 'a2', kind: 'removed_hit', entityId: 'ofac_sdn:123', diff: {}, listVersion: 'ofac_sdn@def' });
  cdd.run('RecordMonitoringAlert', {
    screeningId: '501', alertId: 'a3', kind: 'new_hit', entityId: 'ofac_sdn:999', diff: { name: 'ROSNEFT TRADING' }, listVersion: 'ofac_sdn@def',
    entityRecordHash: 'rec-z', hit: { hitId: 'h3', category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT TRADING', score: 0.9 },
  });
  cdd.run('RecordMonitoringAlert', {
    screeningId: '501', alertId: 'a4', kind: 'new_hit', entityId: 'internal_list:6f1c0f7e-1b7a-4c59-9a53-0d7c8e2f4a10:C-1', diff: { added: { entryId: 'C-1' } },
    listVersion: 'watchlist-6f1c0f7e-1b7a-4c59-9a53-0d7c8e2f4a10@v2', entityRecordHash: 'rec-w',
    hit: {
      hitId: 'h4', category: 'sanctions', source: 'internal_list', matchedName: 'Robert Smith', score: 0.87,
      internalList: { watchlistId: '6f1c0f7e-1b7a-4c59-9a53-0d7c8e2f4a10', name: 'Fraud exits', version: 2, severity: 'block', entryId: 'C-1', reason: 'card fraud' },
    },
  });
  // Alerts assessed on the subject's facts (issue 27): confirmed by the date of birth, and contradicted by it.
  cdd.run('RecordMonitoringAlert', {
    screeningId: '501', alertId: 'a5', kind: 'new_hit', entityId: 'ofac_sdn:1001', diff: { added: { id: 'ofac_sdn:1001' } }, listVersion: 'ofac_sdn@ghi',
    entityRecordHash: 'rec-c', hit: { hitId: 'h5', category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT OIL', score: 0.96 },
    identity: {
      assessment: 'identity_corroborated',
      confirmation: { basis: 'identifier', detail: 'registration number 1027700043502 equals listed registration number 1027700043502' },
      note: 'identity corroborated: registration number 1027700043502 equals listed registration number 1027700043502',
    },
  });
  cdd.run('RecordMonitoringAlert', {
    screeningId: '501', alertId: 'a6', kind: 'new_hit', entityId: 'ofac_sdn:1002', diff: { added: { id: 'ofac_sdn:1002' } }, listVersion: 'ofac_sdn@ghi',
    entityRecordHash: 'rec-d', hit: { hitId: 'h6', category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT', score: 0.82 },
    identity: { assessment: 'identity_contradicted', note: 'identity contradicted: date of birth 1990-03-15 is outside listed 1961' },
  });
  cdd.run('UnenrollFromMonitoring', { screeningId: '501' });

  // EDD and M&A carry their declarations; enrolment after completion.
  const edd = runScreening({
    ...base, screeningId: '502', kind: 'edd', plan: 'professional', internalListVersions: [],
    subject: {
      query: 'Ivan Petrov',
      entityType: 'individual',
      entityTypeDefaulted: true,
      jurisdiction: 'RU',
      dateOfBirth: '1961-04',
      nationality: 'RU',
      identifiers: [{ type: 'passport', value: '75 1234567' }],
      address: { line: '12 Tverskaya St', city: 'Moscow', region: 'Moscow', postalCode: '125009', country: 'RU' },
      phone: '+7 495 123-45-67',
      email: 'ivan.petrov@example.ru',
    },
    edd: { sourceOfWealth: 'salary', sourceOfFunds: 'savings', purposeOfRelationship: 'investment', beneficialOwnership: 'self', pepRelationships: 'none' },
  }, { finaliseWhole: true });
  edd.run('CompleteScreening', completion('502', { hits: [], counts: { sanctionsHits: 0, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 }, riskScore: 5, riskLevel: 'low', analysis: '## EDD\nNothing found.' }));
  edd.run('EnrollInMonitoring', { screeningId: '502' });

  const ma = runScreening({
    ...base, screeningId: '503', kind: 'ma', plan: 'enterprise', subject: { query: 'Target Ltd', entityType: 'company' },
    ma: { targetIndustry: 'energy', acquirerName: 'Acme Holdings', dealType: 'merger', dealValue: '120000000 EUR', additionalContext: 'cross-border' },
  }, { skipTogether: true });
  ma.run('FailScreening', { screeningId: '503', reason: 'broker down' });

  const sow = runScreening({
    ...base, screeningId: '504', kind: 'sow', surface: 's3', plan: 'enterprise', subject: { query: 'Jane Doe', entityType: 'individual' },
    sow: { sowScreeningId: 'SVC-ab12cd34-SOW', declaration: { employment: { employer: 'Acme', years: 12 }, inheritance: null, notes: 'π ≈ 3.14' } },
  });
  sow.run('CompleteScreening', completion('504', { hits: [], counts: { sanctionsHits: 0, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 }, riskScore: 0, riskLevel: 'low' }));

  return [...cdd.events, ...edd.events, ...ma.events, ...sow.events];
}

function personCheckEvents(): Event[] {
  const full = new Stream(commands.personCheck.personCheckDecider);
  const id = 'SVC-0a1b2c3d-P';
  full.run('RequestPersonCheck', {
    personCheckId: id, accountId: '42', surface: 's1', fullName: 'William Smith', firstName: 'William', middleName: 'J', lastName: 'Smith',
    purpose: 'employment', fcraConsent: true, dateOfBirth: '1970-05-04', locations: ['TX'], aliases: ['Bill Smith'], phone: '+1 512 555 0100', email: 'bill@example.com',
    address: { line: '1 Main St', city: 'Austin', region: 'TX', postalCode: '78701', country: 'US' },
    internalListVersions: ['watchlist-0b9f5c1e-3a2d-4c1b-9e8f-1a2b3c4d5e6f@v3'],
    associatedDomain: 'Smith.example', identifiers: [{ type: 'ssn', value: '123-45-6789' }],
  });
  full.run('RecordAgentResult', { personCheckId: id, phase: 1, agent: 'standardisation', queried: true, result: { variants: ['Bill'] }, startedAt: NOW, finishedAt: LATER });
  full.run('RecordAgentResult', { personCheckId: id, phase: 2, agent: 'whois', queried: false, error: 'RDAP not configured', result: {}, startedAt: NOW, finishedAt: LATER });
  full.run('CompletePersonCheck', {
    personCheckId: id, result: 'adverse_found', confidence: 'medium', riskScore: 75, riskLevel: 'critical',
    redFlagCount: 1, warningCount: 1, sourcesChecked: 18, sourcesTotal: 22,
    findings: [
      {
        severity: 'red_flag', category: 'sanctions', corroboration: 'name_dob', matchedName: 'William SMITH', why: 'name and DOB match', title: 'OFAC SDN entry',
        source: { name: 'OFAC SDN', url: 'https://sanctionssearch.ofac.treas.gov/', entityId: 'ofac_sdn:1', retrievedAt: NOW },
      },
      { severity: 'warning', category: 'court', corroboration: 'name_only', matchedName: 'W. Smith', why: 'same name', source: { name: 'CourtListener', retrievedAt: NOW } },
    ],
  });
  const minimal = new Stream(commands.personCheck.personCheckDecider);
  minimal.run('RequestPersonCheck', { personCheckId: 'SVC-0a1b2c3e-P', accountId: '42', surface: 'portal', fullName: 'Ann Lee', purpose: 'licensing', fcraConsent: true });
  minimal.run('FailPersonCheck', { personCheckId: 'SVC-0a1b2c3e-P', reason: 'sources unavailable' });
  return [...full.events, ...minimal.events];
}

function subjectCheckEvents(): Event[] {
  const summary = { overallResult: 'inconclusive', confidenceLevel: 'low', findingsCount: 2, redFlagCount: 0, warningCount: 1, sourcesSearched: 3, sourcesTotal: 10 };
  const start = (id: string, full: boolean) => {
    const s = new Stream(commands.subjectCheck.subjectCheckDecider);
    s.run('StartSubjectCheck', {
      subjectCheckId: id, accountId: '42', firstName: 'Ada', lastName: 'Lovelace', purpose: 'employment',
      ...(full
        ? { middleName: 'King', dateOfBirth: '1815-12-10', nationality: 'GB', identifiers: [{ type: 'passport', value: 'GB1234567' }], phone: '+44 20 7946 0958', email: 'ada@example.co.uk', address: { line: '12 St James Sq', city: 'London', region: 'Greater London', postalCode: 'SW1Y 4JH', country: 'GB' }, locations: [{ country: 'GB', region: 'London', city: 'Marylebone' }, { country: 'IT' }], consent: { certified: true, statement: 'I certify consent' }, batchId: 'batch-7' }
        : { locations: [{ country: 'GB' }], consent: { certified: true } }),
    });
    return s;
  };
  // review, cleared by the reviewer
  const reviewed = start('1001', true);
  reviewed.run('RecordAgentResult', { subjectCheckId: '1001', agent: 'sanctions', tier: 'sanctions', queried: true, result: { matches: [] }, startedAt: NOW, finishedAt: LATER });
  reviewed.run('RecordAgentResult', { subjectCheckId: '1001', agent: 'news', queried: false, error: 'timeout', result: {}, startedAt: NOW, finishedAt: LATER });
  reviewed.run('ConcludeSubjectCheck', { subjectCheckId: '1001', ...summary, tierScores: { pep: 40.5 }, bestHitAmbiguous: false });
  reviewed.run('ResolveReview', { subjectCheckId: '1001', outcome: 'clear', reviewer: 'analyst-1', note: 'coverage accepted' });
  // escalated by score, investigation closed
  const escalated = start('1002', false);
  escalated.run('ConcludeSubjectCheck', { subjectCheckId: '1002', ...summary, sourcesSearched: 9, tierScores: { sanctions: 92, pep: 10 }, bestHitAmbiguous: false, investigationId: 'INV-7' });
  escalated.run('CloseInvestigation', { subjectCheckId: '1002', outcome: 'adverse', reviewer: 'analyst-2', note: 'same person' });
  // automatic completion
  const automatic = start('1003', false);
  automatic.run('ConcludeSubjectCheck', { subjectCheckId: '1003', ...summary, overallResult: 'clean', sourcesSearched: 9, tierScores: {}, bestHitAmbiguous: false });
  // failure
  const failed = start('1004', false);
  failed.run('FailSubjectCheck', { subjectCheckId: '1004', errorMessage: 'source pool crashed' });
  // ambiguous match, the reviewer finds it adverse: an investigation with a requested scope
  const adverse = start('1005', false);
  adverse.run('ConcludeSubjectCheck', { subjectCheckId: '1005', ...summary, sourcesSearched: 9, tierScores: { pep: 50 }, bestHitAmbiguous: true });
  adverse.run('ResolveReview', { subjectCheckId: '1005', outcome: 'adverse', reviewer: 'analyst-1', note: 'looks like the PEP', investigationId: 'INV-8', requestedScope: 'full_background' });
  // ongoing monitoring: requested with `monitor` (enrolled by the conclusion, with its list-backed hits), alerts, unenrolled, enrolled again
  const monitored = new Stream(commands.subjectCheck.subjectCheckDecider);
  monitored.run('StartSubjectCheck', { subjectCheckId: '1006', accountId: '42', firstName: 'Ada', lastName: 'Lovelace', purpose: 'employment', locations: [{ country: 'GB' }], consent: { certified: true }, monitor: true });
  const listed = (entityId: string, score: number) => ({ hitId: `sanctions:${entityId}`, category: 'sanctions', source: 'ofac_sdn', entityId, entityName: 'LOVELACE, Ada', matchedName: 'LOVELACE, Ada', score, entityRecordHash: sha(entityId) });
  monitored.run('RecordAgentResult', { subjectCheckId: '1006', agent: 'sanctions', tier: 'sanctions', queried: true, result: { hits: [listed('ofac_sdn:1', 0.97)] }, startedAt: NOW, finishedAt: LATER });
  monitored.run('ConcludeSubjectCheck', { subjectCheckId: '1006', ...summary, sourcesSearched: 9, tierScores: { sanctions: 97 }, bestHitAmbiguous: false, investigationId: 'INV-9' });
  monitored.run('RecordMonitoringAlert', {
    subjectCheckId: '1006', kind: 'new_hit', entityId: 'ofac_sdn:2', listVersion: 'ofac_sdn@2', diff: { added: { id: 'ofac_sdn:2' } }, entityRecordHash: sha('2'),
    hit: { hitId: 'sanctions:ofac_sdn:2', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada K', score: 0.91 },
  });
  monitored.run('RecordMonitoringAlert', { subjectCheckId: '1006', kind: 'removed_hit', entityId: 'ofac_sdn:1', listVersion: 'ofac_sdn@2', diff: { removed: { id: 'ofac_sdn:1' } } });
  monitored.run('UnenrollFromMonitoring', { subjectCheckId: '1006' });
  monitored.run('EnrollInMonitoring', { subjectCheckId: '1006' });
  // a check with every fact, enrolled (the enrolment carries them, version 2) and alerted with the assessment made on them
  const withFacts = start('1007', true);
  withFacts.run('ConcludeSubjectCheck', { subjectCheckId: '1007', ...summary, overallResult: 'clean', sourcesSearched: 9, tierScores: {}, bestHitAmbiguous: false });
  withFacts.run('EnrollInMonitoring', { subjectCheckId: '1007' });
  withFacts.run('RecordMonitoringAlert', {
    subjectCheckId: '1007', kind: 'new_hit', entityId: 'ofac_sdn:3', listVersion: 'ofac_sdn@3', diff: { added: { id: 'ofac_sdn:3' } }, entityRecordHash: sha('3'),
    hit: { hitId: 'sanctions:ofac_sdn:3', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada King', score: 0.99 },
    identity: { assessment: 'identity_corroborated', confirmation: { basis: 'date_of_birth', detail: 'date of birth 1815-12-10 equals listed 10 Dec 1815' }, note: 'identity corroborated: date of birth 1815-12-10 equals listed 10 Dec 1815' },
    riskLevel: 'critical',
  });
  withFacts.run('RecordMonitoringAlert', {
    subjectCheckId: '1007', kind: 'new_hit', entityId: 'ofac_sdn:4', listVersion: 'ofac_sdn@3', diff: { added: { id: 'ofac_sdn:4' } }, entityRecordHash: sha('4'),
    hit: { hitId: 'sanctions:ofac_sdn:4', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada', score: 0.88 },
    identity: { assessment: 'identity_contradicted', note: 'date of birth 1815-12-10 differs from listed 1901' },
    riskLevel: 'medium',
  });
  return [reviewed, escalated, automatic, failed, adverse, monitored, withFacts].flatMap((s) => s.events);
}

function webhookEndpointEvents(): Event[] {
  const key = { accountId: '42', surface: 's3' as const };
  const s = new Stream(commands.webhookEndpoint.webhookEndpointDecider);
  s.run('RegisterWebhook', { ...key, endpointId: '9', url: 'https://hooks.acme.test/svc', secretCiphertext: 'v1:ct', secretHash: sha('secret') });
  const failTimes = (from: number, count: number) => {
    for (let n = from; n < from + count; n++) {
      s.run('RecordDeliveryFailure', { ...key, deliveryId: `d${n}`, attempts: 3, reason: n % 2 ? 'HTTP 500' : 'connection refused', ...(n % 2 ? { statusCode: 500 } : {}) });
    }
  };
  failTimes(1, 10); // the 10th disables
  s.run('ReenableWebhook', { ...key, reason: 'receiver fixed' });
  failTimes(11, 2);
  s.run('RecordDeliverySuccess', { ...key, deliveryId: 'ok1', statusCode: 200 });
  failTimes(13, 1);
  s.run('RecordDeliverySuccess', { ...key, deliveryId: 'ok2' });
  failTimes(14, 10);
  s.run('ReenableWebhook', key);
  s.run('RegisterWebhook', { ...key, endpointId: '77', url: 'https://new.acme.test/hook', secretCiphertext: 'v1:ct2' });
  s.run('RegisterWebhook', { ...key, endpointId: '77', url: 'https://new.acme.test/hook2', secretCiphertext: 'v1:ct3', secretHash: sha('secret3') });
  return s.events;
}

function watchlistEvents(): Event[] {
  const ref = { watchlistId: '0b6c2f1e-8d4a-4c1e-9a53-2f6d1b7e4c90', accountId: '42' };
  const s = new Stream(commands.watchlist.watchlistDecider);
  const full = {
    entityType: 'person' as const,
    primaryName: 'Robert Smith',
    aliases: [{ name: 'Bob Smith' }, { name: 'Роберт Смит', script: 'Cyrl' }],
    datesOfBirth: ['1971-04-03', '1971'],
    nationalities: ['GB'],
    addresses: [{ line: '12 Baker Street', city: 'London', postalCode: 'NW1 6XE', country: 'GB' }, { city: 'Leeds' }, { line: '1 Main St', city: 'Reno', region: 'NV', country: 'US' }],
    identifiers: [{ kind: 'passport' as const, value: '123456789', country: 'GB' }, { kind: 'email' as const, value: 'bob@example.test' }, { kind: 'drivers_license' as const, value: 'D1234567', country: 'US', region: 'NV' }],
    reason: 'exited for card fraud',
    gender: 'male' as const,
  };
  const bare = { entityType: 'organization' as const, primaryName: 'Shellco Ltd', aliases: [], datesOfBirth: [], nationalities: [], addresses: [], identifiers: [], reason: '' };
  s.run('CreateWatchlist', { ...ref, name: 'Exited customers', purpose: 'fraud exits', severity: 'block', owner: 'fincrime@acme.test' });
  s.run('ChangeWatchlist', { ...ref, name: 'Exited customers (fraud)', severity: 'review' });
  s.run('AddEntry', { ...ref, entryId: 'e-1', entry: full, addedBy: 'u-owner' });
  s.run('ChangeEntry', { ...ref, entryId: 'e-1', entry: { ...full, reason: 'exited for card fraud, 2024', status: 'inactive' } });
  // A streamed import: its chunk (on the staging stream) and the ListImported that commits it.
  const { base, ids } = commands.watchlist.beginImport(s.state, { ...ref, mode: 'replace', source: { fileName: 'exits.csv' }, addedBy: 'key:3' });
  const staging = commands.watchlist.importStagingStream(ref.watchlistId, '9d1c0a4e-3b7f-4e2a-8c51-6f0e2d9b7a13');
  const chunk = commands.watchlist.decideImportChunk(base, ids, [{ entryId: 'e-2', entry: bare }, { entryId: 'e-3', entry: { ...bare, primaryName: 'Other Ltd' } }, { entryId: 'e-5', entry: { ...full, status: 'inactive' } }], { importId: 'imp-1', chunk: 0, addedBy: 'key:3', now: '2026-01-02T03:04:05.000Z', stampedBy: { type: 'StageImportChunk', data: {}, metadata: meta() } });
  const removals = [...commands.watchlist.decideImportRemovals(base, ids, new Set(['e-2', 'e-3']), { importId: 'imp-1', firstChunk: 1, fileName: 'exits.csv', now: '2026-01-02T03:04:05.000Z', size: 1000, stampedBy: () => ({ type: 'StageImportChunk', data: {}, metadata: meta() }) })];
  s.events.push(chunk.event, ...removals);
  s.run('CommitImport', { ...ref, importId: 'imp-1', staging: { stream: staging, chunks: 1 + removals.length }, basedOnVersion: base.version, mode: 'replace', source: { fileName: 'exits.csv', sha256: sha('exits'), format: 'csv', bytes: 120 }, counts: { ...chunk.counts, removed: removals.reduce((n, e) => n + e.data.removed.length, 0) }, skippedRows: 2, dateOrders: { DOB: 'mdy' } });
  s.run('AddEntry', { ...ref, entryId: 'e-4', entry: { ...bare, status: 'inactive' }, addedBy: 'u-owner' });
  s.run('RemoveEntry', { ...ref, entryId: 'e-4', reason: 'added by mistake' });
  s.run('RemoveEntry', { ...ref, entryId: 'e-3' });
  s.run('ArchiveWatchlist', { ...ref, reason: 'superseded' });
  const other = new Stream(commands.watchlist.watchlistDecider);
  const ref2 = { ...ref, watchlistId: '1c7d3a2f-9e5b-4d2f-8b64-3a7e2c8f5d01' };
  other.run('CreateWatchlist', { ...ref2, name: 'Regulator letters', purpose: '', severity: 'note', owner: 'mlro' });
  other.run('ArchiveWatchlist', ref2);
  // Written by imports before they were streamed (entry events with importId, then ListImported, in one
  // append): no decider emits them any more, but the schemas must still read them.
  const legacy = { ...ref2, version: 2, importId: 'imp-0' };
  const at = '2026-01-02T03:04:05.000Z';
  const legacyEvents = [
    { type: 'EntryAdded', data: { ...legacy, entry: { entryId: 'e-1', ...bare, addedBy: 'key:3', addedAt: at } } },
    { type: 'EntryChanged', data: { ...legacy, entry: { entryId: 'e-2', ...bare, addedBy: 'key:3', addedAt: at }, changedAt: at } },
    { type: 'EntryRemoved', data: { ...legacy, entryId: 'e-3', primaryName: 'Other Ltd', reason: 'not in import old.csv', removedAt: at } },
  ].map((e, i) => ({ ...e, metadata: { ...meta(), eventId: `legacy:${i}`, occurredAt: at } })) as unknown as Event[];
  return [...s.events, ...other.events, ...legacyEvents];
}

function offshoreLeakQuotaEvents(): Event[] {
  const s = new Stream(commands.offshoreLeakQuota.offshoreLeakQuotaDecider);
  s.run('UseOffshoreLeakCheck', { accountId: '42', month: '2026-03', screeningId: '501', limit: 100 });
  s.run('UseOffshoreLeakCheck', { accountId: '42', month: '2026-03', screeningId: '502', limit: 100 });
  return s.events;
}

/** Every event the scenarios above produce, from the real deciders. */
export function deciderEvents(): Event[] {
  return [
    ...accountEvents(),
    ...apiKeyEvents(),
    ...screeningEvents(),
    ...personCheckEvents(),
    ...subjectCheckEvents(),
    ...webhookEndpointEvents(),
    ...watchlistEvents(),
    ...offshoreLeakQuotaEvents(),
  ];
}
