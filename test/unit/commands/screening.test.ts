import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  answersRecordedBy,
  type CompletePhase,
  type CompleteScreening,
  hitsCountingTowardRisk,
  nextStep,
  type PhaseResult,
  type PhaseSkipped,
  type PipelinePhase,
  type RecordMonitoringAlert,
  type RequestScreening,
  type ScreeningCommand,
  screeningDecider,
  type ScreeningEvent,
  skippedPhases,
  streamName,
} from '../../../src/commands/screening';
import { foldEvents } from '../../../src/commands/decider';
import { Conflict, IllegalTransition, NotFound, PlanRequired, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(screeningDecider);
const UUID = '6f1c2a0e-8b7d-4c3e-9a1f-0b2c3d4e5f60';
const ids = { screeningId: '501', accountId: '42' };

function request(over: Partial<RequestScreening['data']> = {}): RequestScreening {
  return {
    type: 'RequestScreening',
    data: {
      ...ids,
      uuid: UUID,
      kind: 'cdd',
      surface: 's1',
      plan: 'starter' === over.plan ? 'starter' : 'essentials',
      subject: { query: 'Rosneft', entityType: 'individual' },
      ...over,
    },
    metadata: meta(),
  };
}

const hits = [
  { hitId: 'h1', entityId: 'ofac_sdn:123', category: 'sanctions' as const, source: 'ofac_sdn', matchedName: 'ROSNEFT', score: 0.97, entityRecordHash: 'rec-a' },
  { hitId: 'h2', entityId: 'opensanctions_peps:Q1', category: 'pep' as const, source: 'opensanctions_peps', matchedName: 'Rosneft', score: 0.81, entityRecordHash: 'rec-b' },
];

function completion(over: Partial<CompleteScreening['data']> = {}): CompleteScreening {
  return {
    type: 'CompleteScreening',
    data: {
      screeningId: '501',
      riskScore: 30,
      riskLevel: 'medium',
      counts: { sanctionsHits: 1, pepHits: 1, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
      hits,
      summary: 'One sanctions hit, one PEP hit.',
      listVersions: [{ id: 'ofac_sdn@abc', source: 'ofac_sdn', contentHash: 'abc', publishedAt: '2026-02-27' }],
      matcherVersion: 'matcher@1',
      ...over,
    },
    metadata: meta(),
  };
}

/** Drives the pure process manager to the end of the pipeline, as the handler would. */
function runPipeline(history: ScreeningEvent[]): ScreeningEvent[] {
  const events = [...history];
  const apply = (command: ScreeningCommand) => {
    const state = foldEvents(screeningDecider, events);
    events.push(...screeningDecider.decide(command, state));
  };
  for (let guard = 0; guard < 200; guard++) {
    const step = nextStep(foldEvents(screeningDecider, events));
    switch (step.action) {
      case 'start_phase':
        apply({ type: 'StartPhase', data: { screeningId: '501', phase: step.phase }, metadata: meta() });
        break;
      case 'dispatch':
        for (const agent of step.agents) {
          apply({
            type: 'RecordAgentResult',
            data: {
              screeningId: '501',
              phase: step.phase,
              agent,
              queried: agent !== 'osint',
              ...(agent === 'osint' ? { error: 'not configured' } : {}),
              result: { matches: [] },
              startedAt: NOW,
              finishedAt: NOW,
            },
            metadata: meta(),
          });
        }
        break;
      case 'complete_phase':
        apply({ type: 'CompletePhase', data: { screeningId: '501', phase: step.phase }, metadata: meta() });
        break;
      case 'complete_screening':
      case 'none':
        return events;
    }
  }
  throw new Error('pipeline did not finish');
}

function requested(over: Partial<RequestScreening['data']> = {}): ScreeningEvent[] {
  const cmd = request(over);
  return screeningDecider.decide(cmd, screeningDecider.initialState());
}
const finishedPipeline = () => runPipeline(requested());
const completedHistory = () => {
  const events = finishedPipeline();
  return [...events, ...screeningDecider.decide(completion(), foldEvents(screeningDecider, events))];
};
const asGiven = (events: ScreeningEvent[]) => events as GivenEvent<ScreeningEvent>[];

describe('screening: request', () => {
  it('records the request with its phase plan', () => {
    const { events } = spec.given([]).when(request()).thenTypes(['ScreeningRequested']);
    const data = events[0]!.data as Extract<ScreeningEvent, { type: 'ScreeningRequested' }>['data'];
    assert.deepEqual(data.pipeline.map((p) => p.phase), ['1', '1b', '2', '5']);
    assert.equal(data.requestedAt, NOW);
    assert.equal(data.monitor, false);
    assert.equal(streamName('501'), 'screening-501');
  });

  it('applies the plan rules: no API on Starter, EDD Professional+, M&A Enterprise only', () => {
    spec.given([]).when(request({ plan: 'starter' })).thenThrows(PlanRequired, (e) => e.feature === 'api_access' && e.code === 'plan_required');
    spec.given([]).when(request({ plan: 'starter', surface: 'portal' })).thenTypes(['ScreeningRequested']);
    spec.given([]).when(request({ kind: 'edd', plan: 'essentials' })).thenThrows(PlanRequired, (e) => e.requiredPlans.join() === 'professional,enterprise');
    spec.given([]).when(request({ kind: 'edd', plan: 'professional', edd: { sourceOfWealth: 'salary' } })).thenTypes(['ScreeningRequested']);
    spec.given([]).when(request({ kind: 'ma', plan: 'professional' })).thenThrows(PlanRequired, (e) => e.requiredPlans.join() === 'enterprise');
    spec
      .given([])
      .when(request({ kind: 'ma', plan: 'enterprise', subject: { query: 'Target Ltd', entityType: 'company' }, ma: { dealType: 'merger' } }))
      .thenTypes(['ScreeningRequested']);
  });

  it('records what tells the subject from a namesake: date of birth, nationality, identifiers', () => {
    const subject = { query: 'Vladimir Putin', entityType: 'individual' as const, dateOfBirth: '1952-10-07', nationality: 'RU', identifiers: [{ type: 'passport', value: ' 1234567 ' }] };
    const { events } = spec.given([]).when(request({ subject })).thenTypes(['ScreeningRequested']);
    const data = events[0]!.data as Extract<ScreeningEvent, { type: 'ScreeningRequested' }>['data'];
    assert.deepEqual(data.subject, { ...subject, identifiers: [{ type: 'passport', value: '1234567' }] });
    // A year, or a year and month, is a date of birth too (lists often know no more).
    spec.given([]).when(request({ subject: { ...subject, dateOfBirth: '1952' } })).thenTypes(['ScreeningRequested']);
    spec.given([]).when(request({ subject: { ...subject, dateOfBirth: '1952-10' } })).thenTypes(['ScreeningRequested']);
  });

  it('records the subject\'s address, trimmed, without empty parts (the internal lists weigh it)', () => {
    const subject = { query: 'Bob Smith', entityType: 'individual' as const, address: { line: ' 12 High St. ', city: 'London', postalCode: ' ', country: 'GB' } };
    const { events } = spec.given([]).when(request({ subject })).thenTypes(['ScreeningRequested']);
    const data = events[0]!.data as Extract<ScreeningEvent, { type: 'ScreeningRequested' }>['data'];
    assert.deepEqual(data.subject.address, { line: '12 High St.', city: 'London', country: 'GB' });
  });

  it('refuses an impossible or future date of birth, a nationality that is no ISO code, and malformed identifiers', () => {
    const base = { query: 'Vladimir Putin', entityType: 'individual' as const };
    const fields = (over: object) => spec.given([]).when(request({ subject: { ...base, ...over } as never })).thenThrows(ValidationFailed).issues.map((i) => i.field);
    assert.deepEqual(fields({ dateOfBirth: '1960-02-31' }), ['date_of_birth'], 'no such day');
    assert.deepEqual(fields({ dateOfBirth: '31/02/1960' }), ['date_of_birth']);
    // NOW is 2026-03-01: the day after is in the future for the command's own clock.
    assert.deepEqual(fields({ dateOfBirth: '2026-03-02' }), ['date_of_birth']);
    assert.deepEqual(fields({ dateOfBirth: '1700' }), ['date_of_birth']);
    assert.deepEqual(fields({ nationality: 'Narnia' }), ['nationality']);
    assert.deepEqual(fields({ nationality: 'ru' }), ['nationality']);
    assert.deepEqual(fields({ identifiers: [{ type: 'dna', value: 'x' }] }), ['identifiers[0].type']);
    assert.deepEqual(fields({ identifiers: [{ type: 'passport', value: '<script>' }] }), ['identifiers[0].value']);
    assert.deepEqual(fields({ identifiers: Array.from({ length: 11 }, () => ({ type: 'other', value: '1' })) }), ['identifiers']);
    assert.deepEqual(fields({ address: {} }), ['address'], 'an address names at least one part');
    assert.deepEqual(fields({ address: { country: 'United Kingdom', line: 'x'.repeat(301) } }), ['address.line', 'address.country']);
    spec.given([]).when(request({ subject: { ...base, dateOfBirth: '2026-03-01' } })).thenTypes(['ScreeningRequested']);
  });

  it('validates the subject and the kind-specific fields', () => {
    const e1 = spec.given([]).when(request({ subject: { query: 'A', entityType: 'robot' as never } })).thenThrows(ValidationFailed);
    assert.deepEqual(e1.issues.map((i) => i.field), ['query', 'entity_type']);
    spec
      .given([])
      .when(request({ kind: 'ma', plan: 'enterprise', subject: { query: 'x', entityType: 'company' } }))
      .thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'target_name');
    spec.given([]).when(request({ kind: 'ma', plan: 'enterprise', ma: { dealType: 'hostile' as never } })).thenThrows(ValidationFailed);
    spec.given([]).when(request({ kind: 'sow', plan: 'enterprise' })).thenThrows(ValidationFailed);
    spec
      .given([])
      .when(request({ kind: 'sow', surface: 's3', plan: 'enterprise', sow: { sowScreeningId: 'SVC-ab12cd34-SOW', declaration: {} } }))
      .thenTypes(['ScreeningRequested']);
    spec.given([]).when(request({ uuid: 'nope', screeningId: '0' })).thenThrows(ValidationFailed, (e) => e.issues.length === 2);
  });

  it('refuses a second request on the same stream', () => {
    spec.given(asGiven(requested())).when(request()).thenThrows(Conflict);
  });

  describe("the account's internal-list versions, pinned at request time (issue 21, as person checks)", () => {
    const version = 'watchlist-6f1c0f7e-1b7a-4c59-9a53-0d7c8e2f4a10@v3';
    it('given no screening, when it is requested with the active versions, then the request records them and the state keeps them for every run', () => {
      const { events, stateAfter } = spec.given([]).when(request({ internalListVersions: [version] })).thenTypes(['ScreeningRequested']);
      assert.deepEqual((events[0]!.data as { internalListVersions?: string[] }).internalListVersions, [version]);
      assert.deepEqual(stateAfter.status !== 'none' && stateAfter.internalListVersions, [version]);
    });
    it('given no screening, when the account had no list, then an empty pinning is recorded (no list is screened, even one made later); without the field none is', () => {
      const { events } = spec.given([]).when(request({ internalListVersions: [] })).thenTypes(['ScreeningRequested']);
      assert.deepEqual((events[0]!.data as { internalListVersions?: string[] }).internalListVersions, []);
      const old = spec.given([]).when(request()).thenTypes(['ScreeningRequested']);
      assert.equal('internalListVersions' in old.events[0]!.data, false);
    });
    it('when a pinned version is not an internal-list version id, or there are more than 1000, then nothing is recorded', () => {
      for (const bad of [['ofac_sdn@abc'], [version, 'watchlist-x@v1'], Array.from({ length: 1001 }, () => version), 'watchlist' as never]) {
        spec.given([]).when(request({ internalListVersions: bad as string[] })).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'internal_list_versions'));
      }
    });
  });
});

describe('screening: pipeline commands', () => {
  it('a full run follows the plan and ends ready for completion', () => {
    const events = finishedPipeline();
    const types = events.map((e) => e.type);
    assert.equal(types.filter((t) => t === 'PhaseStarted').length, 4);
    assert.equal(types.filter((t) => t === 'PhaseCompleted').length, 4);
    const phase1 = events.find((e) => e.type === 'PhaseCompleted') as Extract<ScreeningEvent, { type: 'PhaseCompleted' }>;
    assert.deepEqual(phase1.data.agentsNotQueried, ['osint']);
    assert.deepEqual(nextStep(foldEvents(screeningDecider, events)), { action: 'complete_screening' });
  });

  it('a phase starts only in order and only once', () => {
    const given = asGiven(requested());
    spec.given(given).when({ type: 'StartPhase', data: { screeningId: '501', phase: '2' }, metadata: meta() }).thenThrows(Conflict);
    spec.given(given).when({ type: 'StartPhase', data: { screeningId: '501', phase: '4' }, metadata: meta() }).thenThrows(Conflict);
    const { events } = spec.given(given).when({ type: 'StartPhase', data: { screeningId: '501', phase: '1' }, metadata: meta() }).thenTypes(['PhaseStarted']);
    spec
      .given([...given, ...asGiven(events)])
      .when({ type: 'StartPhase', data: { screeningId: '501', phase: '1' }, metadata: meta() })
      .thenNothing();
  });

  const result = (phase: '1' | '5', agent: string) =>
    ({
      type: 'RecordAgentResult',
      data: { screeningId: '501', phase, agent, queried: true, result: { matches: [] }, startedAt: NOW, finishedAt: '2026-03-01T10:00:01.000Z' },
      metadata: meta(),
    }) as const;

  it('records an agent result once per phase and agent', () => {
    const started = [...requested(), ...screeningDecider.decide({ type: 'StartPhase', data: { screeningId: '501', phase: '1' }, metadata: meta() }, foldEvents(screeningDecider, requested()))];
    const { events } = spec.given(asGiven(started)).when(result('1', 'sanctions')).thenTypes(['AgentResultRecorded']);
    spec.given(asGiven([...started, ...events])).when(result('1', 'sanctions')).thenNothing();
    spec.given(asGiven(started)).when(result('1', 'litigation')).thenThrows(ValidationFailed);
    spec
      .given(asGiven(started))
      .when({ ...result('1', 'pep'), data: { ...result('1', 'pep').data, queried: false } })
      .thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'error');
  });

  it('sources unqueryable at a parallel phase\'s start are recorded in PhaseStarted as not-queried results', () => {
    const start = (notQueried: { agent: string; error: string }[]) =>
      ({ type: 'StartPhase', data: { screeningId: '501', phase: '1', notQueried }, metadata: meta() }) as const;
    const given = asGiven(requested());
    const { events } = spec
      .given(given)
      .when(start([{ agent: 'osint', error: 'not configured: set SEARCH_API_KEY' }, { agent: 'adverse_media', error: 'no agent serves adverse_media' }]))
      .thenTypes(['PhaseStarted']);
    const started = events[0] as Extract<ScreeningEvent, { type: 'PhaseStarted' }>;
    assert.deepEqual(started.data.notQueried?.map((n) => n.agent), ['osint', 'adverse_media']);
    // They count as recorded: the step dispatches only the others, and a late answer changes nothing.
    const state = foldEvents(screeningDecider, [...requested(), ...events]);
    const step = nextStep(state);
    assert.equal(step.action, 'dispatch');
    assert.ok(step.action === 'dispatch' && !step.agents.includes('osint') && !step.agents.includes('adverse_media') && step.agents.includes('sanctions'));
    spec.given(asGiven([...requested(), ...events])).when(result('1', 'osint')).thenNothing();
    // And PhaseCompleted lists them as not queried.
    let history = [...requested(), ...events];
    for (const agent of (step.action === 'dispatch' ? step.agents : [])) {
      history = [...history, ...screeningDecider.decide(result('1', agent), foldEvents(screeningDecider, history))];
    }
    const completed = screeningDecider.decide({ type: 'CompletePhase', data: { screeningId: '501', phase: '1' }, metadata: meta() }, foldEvents(screeningDecider, history));
    assert.deepEqual((completed[0] as Extract<ScreeningEvent, { type: 'PhaseCompleted' }>).data.agentsNotQueried.sort(), ['adverse_media', 'osint']);
    // Bad lists are refused whole.
    spec.given(given).when(start([{ agent: 'litigation', error: 'x' }])).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'not_queried[0].agent');
    spec.given(given).when(start([{ agent: 'osint', error: 'x' }, { agent: 'osint', error: 'y' }])).thenThrows(ValidationFailed);
    spec.given(given).when(start([{ agent: 'osint', error: '' }])).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'not_queried[0].error');
  });

  it('a phase cannot complete while agents are pending', () => {
    const started = [...requested(), ...screeningDecider.decide({ type: 'StartPhase', data: { screeningId: '501', phase: '1' }, metadata: meta() }, foldEvents(screeningDecider, requested()))];
    spec
      .given(asGiven(started))
      .when({ type: 'CompletePhase', data: { screeningId: '501', phase: '1' }, metadata: meta() })
      .thenThrows(Conflict, (e) => (e.details.pending as string[]).length === 7);
  });

  it('finalisation (phase 5) records results strictly in order', () => {
    const events = finishedPipeline();
    // rebuild the history up to the start of phase 5
    const cut = events.findIndex((e) => e.type === 'PhaseStarted' && (e.data as { phase: string }).phase === '5');
    const given = asGiven(events.slice(0, cut + 1));
    spec.given(given).when(result('5', 'risk_score')).thenThrows(Conflict, (e) => e.details.expected === 'country_risk');
    spec.given(given).when(result('5', 'country_risk')).thenTypes(['AgentResultRecorded']);
  });

  it('completes once, with a risk level that matches the scale', () => {
    const given = asGiven(finishedPipeline());
    const { stateAfter } = spec.given(given).when(completion()).thenTypes(['ScreeningCompleted']);
    assert.equal(stateAfter.status, 'completed');
    spec.given(given).when(completion({ riskScore: 30, riskLevel: 'high' })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'risk_level');
    spec.given(asGiven(completedHistory())).when(completion()).thenNothing();
    spec.given(asGiven(requested())).when(completion()).thenThrows(Conflict);
  });

  it('given a hit on an internal-list entry with a long reference, then it completes; every list of a hit is recorded; an empty list of lists is refused', () => {
    const given = asGiven(finishedPipeline());
    const entityId = `internal_list:3c6a0e2b-8b7d-4c3e-9a1f-0b2c3d4e5f60:row-${'2d91c4e7'.repeat(15)}`;
    const internal = { hitId: `sanctions:${entityId}`, entityId, category: 'sanctions' as const, source: 'internal_list', matchedName: 'Margaret Thistlewood', score: 0.97, entityRecordHash: 'rec-c', lists: ['internal_list:3c6a0e2b-8b7d-4c3e-9a1f-0b2c3d4e5f60'] };
    assert.ok(internal.hitId.length > 100);
    const { events } = spec.given(given).when(completion({ hits: [...hits, internal] })).thenTypes(['ScreeningCompleted']);
    assert.deepEqual((events[0]!.data as { hits: { lists?: string[] }[] }).hits[2]!.lists, internal.lists);
    spec.given(given).when(completion({ hits: [{ ...hits[0]!, lists: [] }] })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'hits.lists');
    spec.given(given).when(completion({ hits: [{ ...hits[0]!, hitId: 'x'.repeat(601) }] })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'hits.hit_id');
  });

  it('EDD and M&A completions must carry their analysis', () => {
    const edd = runPipeline(requested({ kind: 'edd', plan: 'professional' }));
    spec.given(asGiven(edd)).when(completion()).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'analysis');
    spec.given(asGiven(edd)).when(completion({ analysis: '## EDD\n…' })).thenTypes(['ScreeningCompleted']);
  });

  it('fails while running only', () => {
    const fail = { type: 'FailScreening' as const, data: { screeningId: '501', reason: 'broker down' }, metadata: meta() };
    spec.given(asGiven(requested())).when(fail).thenTypes(['ScreeningFailed']);
    spec.given(asGiven(completedHistory())).when(fail).thenThrows(IllegalTransition, (e) => e.state === 'completed');
    spec.given([]).when(fail).thenThrows(NotFound);
  });

  it('enrols in monitoring on completion when the request asked for it', () => {
    const events = runPipeline(requested({ monitor: true }));
    const { stateAfter } = spec.given(asGiven(events)).when(completion()).thenTypes(['ScreeningCompleted', 'MonitoringEnrolled']);
    assert.equal(stateAfter.status !== 'none' && stateAfter.monitoring, true);
  });
});

describe('screening: a phase none of whose sources this deployment can query', () => {
  const start = (phase: '1' | '1b', notQueried?: { agent: string; error: string }[]) =>
    ({ type: 'StartPhase', data: { screeningId: '501', phase, ...(notQueried ? { notQueried } : {}) }, metadata: meta() }) as const;
  const unconfigured = [
    { agent: 'company_registries', error: 'not configured: set COMPANIES_HOUSE_API_KEY' },
    { agent: 'market_data', error: 'no agent serves market_data in this deployment' },
  ];
  /** Requested (phases 1, 1b, 2, 5), phase 1 run and completed: phase 1b (company_registries, market_data) is next. */
  const atPhase1b = (): ScreeningEvent[] => {
    const events = requested();
    const apply = (command: ScreeningCommand) => events.push(...screeningDecider.decide(command, foldEvents(screeningDecider, events)));
    apply(start('1'));
    const step = nextStep(foldEvents(screeningDecider, events));
    for (const agent of step.action === 'dispatch' ? step.agents : []) {
      apply({
        type: 'RecordAgentResult',
        data: { screeningId: '501', phase: '1', agent, queried: true, result: { matches: [] }, startedAt: NOW, finishedAt: NOW },
        metadata: meta(),
      });
    }
    apply({ type: 'CompletePhase', data: { screeningId: '501', phase: '1' }, metadata: meta() });
    assert.deepEqual(nextStep(foldEvents(screeningDecider, events)), { action: 'start_phase', phase: '1b', agents: ['company_registries', 'market_data'], mode: 'parallel' });
    return events;
  };

  it('is recorded as one PhaseSkipped listing each agent with its reason, in plan order', () => {
    const { stateAfter } = spec
      .given(asGiven(atPhase1b()))
      .when(start('1b', [...unconfigured].reverse()))
      .then([{ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried: unconfigured, skippedAt: NOW } }]);
    // Started and completed at once, every agent answered "not queried": the next step is the next phase.
    assert.ok(stateAfter.status === 'running');
    assert.deepEqual(stateAfter.phases['1b'], { status: 'completed' });
    assert.deepEqual(stateAfter.recorded['1b/company_registries'], { queried: false });
    assert.deepEqual(stateAfter.recorded['1b/market_data'], { queried: false });
    assert.deepEqual(nextStep(stateAfter), { action: 'start_phase', phase: '2', agents: ['browser_verification'], mode: 'parallel' });
  });

  it('a skipped phase takes no further phase commands or results', () => {
    const given = atPhase1b();
    const skipped = [...given, ...screeningDecider.decide(start('1b', unconfigured), foldEvents(screeningDecider, given))];
    spec.given(asGiven(skipped)).when(start('1b', unconfigured)).thenNothing();
    spec.given(asGiven(skipped)).when({ type: 'CompletePhase', data: { screeningId: '501', phase: '1b' }, metadata: meta() }).thenNothing();
    spec
      .given(asGiven(skipped))
      .when({
        type: 'RecordAgentResult',
        data: { screeningId: '501', phase: '1b', agent: 'market_data', queried: true, result: {}, startedAt: NOW, finishedAt: NOW },
        metadata: meta(),
      })
      .thenNothing();
  });

  it('a phase with one agent that is queried starts as before (PhaseStarted, then its results, then PhaseCompleted)', () => {
    const given = atPhase1b();
    const { events, stateAfter } = spec
      .given(asGiven(given))
      .when(start('1b', [unconfigured[1]!]))
      .then([
        {
          type: 'PhaseStarted',
          data: { ...ids, phase: '1b', agents: ['company_registries', 'market_data'], mode: 'parallel', startedAt: NOW, notQueried: [unconfigured[1]!] },
        },
      ]);
    assert.deepEqual(nextStep(stateAfter), { action: 'dispatch', phase: '1b', agents: ['company_registries'], pending: ['company_registries'] });
    spec.given(asGiven(given)).when(start('1b')).thenTypes(['PhaseStarted']);
    spec.given(asGiven(given)).when(start('1b', [])).thenTypes(['PhaseStarted']);
    // A list that is not all of the phase's agents is still checked whole.
    spec
      .given(asGiven(given))
      .when(start('1b', [unconfigured[0]!, { agent: 'litigation', error: 'x' }]))
      .thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'not_queried[1].agent');
  });

  it('an old stream (PhaseStarted with every agent not queried, then PhaseCompleted) replays to the same state as before', () => {
    const given = atPhase1b();
    const stored = { eventId: 'old', occurredAt: NOW };
    const oldStyle: ScreeningEvent[] = [
      ...given,
      {
        type: 'PhaseStarted',
        data: { ...ids, phase: '1b', agents: ['company_registries', 'market_data'], mode: 'parallel', startedAt: NOW, notQueried: unconfigured },
        metadata: stored,
      },
      {
        type: 'PhaseCompleted',
        data: { ...ids, phase: '1b', agentsQueried: [], agentsNotQueried: ['company_registries', 'market_data'], completedAt: NOW },
        metadata: stored,
      },
    ];
    const replayed = foldEvents(screeningDecider, oldStyle);
    assert.ok(replayed.status === 'running');
    assert.deepEqual(replayed.phases, { '1': { status: 'completed' }, '1b': { status: 'completed' } });
    assert.deepEqual(
      Object.entries(replayed.recorded).filter(([key]) => key.startsWith('1b/')),
      [['1b/company_registries', { queried: false }], ['1b/market_data', { queried: false }]],
    );
    assert.deepEqual(nextStep(replayed), { action: 'start_phase', phase: '2', agents: ['browser_verification'], mode: 'parallel' });
    // The same state as the one event written today.
    const skipped = [...given, ...screeningDecider.decide(start('1b', unconfigured), foldEvents(screeningDecider, given))];
    assert.deepEqual(replayed, foldEvents(screeningDecider, skipped));
    // And the old stream goes on the same way: the next phase starts, the skipped one takes nothing more.
    spec.given(asGiven(oldStyle)).when({ type: 'CompletePhase', data: { screeningId: '501', phase: '1b' }, metadata: meta() }).thenNothing();
  });
});

describe('screening: a run of phases none of whose sources can be queried (PhaseSkipped v2, thenSkipped)', () => {
  const unconfigured1b = [
    { agent: 'company_registries', error: 'not configured: set COMPANIES_HOUSE_API_KEY' },
    { agent: 'market_data', error: 'no agent serves market_data in this deployment' },
  ];
  const unconfigured2 = [{ agent: 'browser_verification', error: 'no agent serves browser_verification in this deployment' }];
  const start = (phase: '1b' | '2', notQueried: { agent: string; error: string }[], thenSkipped?: { phase: PipelinePhase; notQueried: { agent: string; error: string }[] }[]) =>
    ({ type: 'StartPhase', data: { screeningId: '501', phase, notQueried, ...(thenSkipped ? { thenSkipped } : {}) }, metadata: meta() }) as const;
  const decideAll = (events: ScreeningEvent[], command: ScreeningCommand) => [...events, ...screeningDecider.decide(command, foldEvents(screeningDecider, events))];
  /** Requested (phases 1, 1b, 2, 5), phase 1 run and completed: 1b and 2 are next, both answerable here only. */
  const atPhase1b = (): ScreeningEvent[] => {
    let events = decideAll(requested(), { type: 'StartPhase', data: { screeningId: '501', phase: '1' }, metadata: meta() });
    const step = nextStep(foldEvents(screeningDecider, events));
    for (const agent of step.action === 'dispatch' ? step.agents : []) {
      events = decideAll(events, {
        type: 'RecordAgentResult',
        data: { screeningId: '501', phase: '1', agent, queried: true, result: { matches: [] }, startedAt: NOW, finishedAt: NOW },
        metadata: meta(),
      });
    }
    return decideAll(events, { type: 'CompletePhase', data: { screeningId: '501', phase: '1' }, metadata: meta() });
  };

  it('is one PhaseSkipped with the later phases in thenSkipped, each in plan order, and the run goes on after the last', () => {
    const { stateAfter } = spec
      .given(asGiven(atPhase1b()))
      .when(start('1b', [...unconfigured1b].reverse(), [{ phase: '2', notQueried: unconfigured2 }]))
      .then([{ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried: unconfigured1b, thenSkipped: [{ phase: '2', notQueried: unconfigured2 }], skippedAt: NOW } }]);
    assert.ok(stateAfter.status === 'running');
    assert.deepEqual(stateAfter.phases['1b'], { status: 'completed' });
    assert.deepEqual(stateAfter.phases['2'], { status: 'completed' });
    assert.deepEqual(stateAfter.recorded['2/browser_verification'], { queried: false });
    const next = nextStep(stateAfter);
    assert.equal(next.action === 'start_phase' && next.phase, '5');
  });

  it('folds to the same state as one PhaseSkipped per phase (streams recorded before v2), and takes nothing more for those phases', () => {
    const given = atPhase1b();
    const together = decideAll(given, start('1b', unconfigured1b, [{ phase: '2', notQueried: unconfigured2 }]));
    const oneEach = decideAll(decideAll(given, start('1b', unconfigured1b)), start('2', unconfigured2));
    assert.deepEqual(oneEach.slice(given.length).map((e) => e.type), ['PhaseSkipped', 'PhaseSkipped']);
    assert.deepEqual(foldEvents(screeningDecider, together), foldEvents(screeningDecider, oneEach));
    assert.deepEqual(
      skippedPhases((together[together.length - 1] as PhaseSkipped).data),
      oneEach.slice(given.length).map((e) => ({ phase: (e as PhaseSkipped).data.phase, notQueried: (e as PhaseSkipped).data.notQueried })),
    );
    // A repeated start of a phase skipped with it (a redelivered step) records nothing.
    spec.given(asGiven(together)).when(start('2', unconfigured2)).thenNothing();
    spec.given(asGiven(together)).when(start('1b', unconfigured1b, [{ phase: '2', notQueried: unconfigured2 }])).thenNothing();
  });

  it('refuses thenSkipped that is not the next phases of the plan, each skipped whole, after a phase skipped itself', () => {
    const given = atPhase1b();
    const refused = (command: ScreeningCommand, field: string) =>
      spec.given(asGiven(given)).when(command).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === field));
    // The first phase is not skipped (one of its sources is queried).
    refused(start('1b', [unconfigured1b[1]!], [{ phase: '2', notQueried: unconfigured2 }]), 'then_skipped');
    // Not the next phase of the plan (3 is not in this plan; 2 comes first).
    refused(start('1b', unconfigured1b, [{ phase: '3' as PipelinePhase, notQueried: unconfigured2 }]), 'then_skipped[0].phase');
    // Phase 5 (sequential finalisers) is never skipped this way.
    refused(start('1b', unconfigured1b, [{ phase: '2', notQueried: unconfigured2 }, { phase: '5', notQueried: [{ agent: 'country_risk', error: 'x' }] }]), 'then_skipped[1]');
    // Every agent of the later phase, once, with an error.
    refused(start('1b', unconfigured1b, [{ phase: '2', notQueried: [] }]), 'then_skipped[0]');
    refused(start('1b', unconfigured1b, [{ phase: '2', notQueried: [{ agent: 'browser_verification', error: '' }] }]), 'then_skipped[0].not_queried[0].error');
    refused(start('1b', unconfigured1b, [{ phase: '2', notQueried: [{ agent: 'litigation', error: 'x' }] }]), 'then_skipped[0].not_queried[0].agent');
  });
});

describe('screening: a phase recorded whole in its completion (PhaseCompleted v2, results: the finalisation)', () => {
  const LATER = '2026-03-01T10:00:00.250Z';
  /** The pipeline run one answer at a time (the form of streams recorded before v2), and the history up to phase 5's start. */
  const perAgent = finishedPipeline();
  const cut = perAgent.findIndex((e) => e.type === 'PhaseStarted' && e.data.phase === '5');
  const atPhase5 = () => perAgent.slice(0, cut);
  const finalisers = ['country_risk', 'risk_score', 'merged_adverse_media', 'data_gaps', 'summary', 'verification'];
  const answer = (agent: string, over: Partial<PhaseResult> = {}): PhaseResult => ({ agent, queried: true, result: { step: agent }, startedAt: NOW, finishedAt: LATER, ...over });
  const results = () => finalisers.map((agent) => (agent === 'country_risk' ? answer(agent, { queried: false, error: 'FATF lists not loaded', result: {} }) : answer(agent)));
  const complete = (over: Partial<CompletePhase['data']> = {}): CompletePhase => ({ type: 'CompletePhase', data: { screeningId: '501', phase: '5', results: results(), ...over }, metadata: meta() });

  it('is one PhaseCompleted carrying every answer in plan order, and the screening can complete', () => {
    const { stateAfter } = spec
      .given(asGiven(atPhase5()))
      .when(complete())
      .then([
        {
          type: 'PhaseCompleted',
          data: { ...ids, phase: '5', agentsQueried: finalisers.slice(1), agentsNotQueried: ['country_risk'], results: results(), completedAt: NOW },
        },
      ]);
    assert.ok(stateAfter.status === 'running');
    assert.deepEqual(stateAfter.phases['5'], { status: 'completed' });
    assert.deepEqual(stateAfter.recorded['5/country_risk'], { queried: false });
    assert.deepEqual(stateAfter.recorded['5/summary'], { queried: true });
    assert.equal(nextStep(stateAfter).action, 'complete_screening');
  });

  it('folds to the same state, and gives the same answers, as PhaseStarted + one AgentResultRecorded each + PhaseCompleted', () => {
    const whole = [...atPhase5(), ...screeningDecider.decide(complete({ results: perAgentResults() }), foldEvents(screeningDecider, atPhase5()))];
    assert.equal(whole.length, cut + 1);
    assert.deepEqual(perAgent.slice(cut).map((e) => e.type), ['PhaseStarted', ...finalisers.map(() => 'AgentResultRecorded'), 'PhaseCompleted']);
    assert.deepEqual(foldEvents(screeningDecider, whole), foldEvents(screeningDecider, perAgent));
    const answers = (events: ScreeningEvent[]) => events.flatMap((e) => answersRecordedBy(e)).map(({ phase, agent, queried, error, result, startedAt, finishedAt }) => ({ phase, agent, queried, error, result, startedAt, finishedAt }));
    assert.deepEqual(answers(whole), answers(perAgent));
    assert.deepEqual(answersRecordedBy(perAgent[perAgent.length - 1]!), [], 'a PhaseCompleted without results records no answer');
    // Either way the screening completes alike.
    for (const events of [whole, perAgent]) spec.given(asGiven(events)).when(completion()).thenTypes(['ScreeningCompleted']);
  });

  /** The answers the per-agent stream recorded for phase 5, as results. */
  function perAgentResults(): PhaseResult[] {
    return perAgent
      .slice(cut)
      .flatMap((e) => (e.type === 'AgentResultRecorded' ? [e.data] : []))
      .map(({ screeningId: _s, accountId: _a, phase: _p, ...r }) => r);
  }

  it('records nothing more for the phase once recorded whole: a repeated completion, a late answer, a start', () => {
    const whole = [...atPhase5(), ...screeningDecider.decide(complete(), foldEvents(screeningDecider, atPhase5()))];
    spec.given(asGiven(whole)).when(complete()).thenNothing();
    spec.given(asGiven(whole)).when({ type: 'RecordAgentResult', data: { screeningId: '501', phase: '5', ...answer('summary', { result: { summary: 'late' } }) }, metadata: meta() }).thenNothing();
    spec.given(asGiven(whole)).when({ type: 'StartPhase', data: { screeningId: '501', phase: '5' }, metadata: meta() }).thenNothing();
  });

  it('refuses a phase that is not the next to start, one already started, or a screening not running', () => {
    spec.given(asGiven(requested())).when(complete()).thenThrows(Conflict, (e) => /cannot run yet \(next step: start_phase 1\)/.test(e.message));
    spec.given(asGiven(atPhase5())).when(complete({ phase: '3' })).thenThrows(Conflict, (e) => /not part of this screening's pipeline/.test(e.message));
    // Started one answer at a time (by a version before v2): it goes on that way.
    const started = perAgent.slice(0, cut + 3);
    spec.given(asGiven(started)).when(complete()).thenThrows(Conflict, (e) => /has started: its results are recorded one by one/.test(e.message));
    const failed = [...atPhase5(), ...screeningDecider.decide({ type: 'FailScreening', data: { screeningId: '501', reason: 'broker down' }, metadata: meta() }, foldEvents(screeningDecider, atPhase5()))];
    spec.given(asGiven(failed)).when(complete()).thenThrows(IllegalTransition, (e) => e.state === 'failed');
  });

  it('refuses results that are not every agent of the phase once, in plan order, each a valid answer', () => {
    const refused = (over: Partial<CompletePhase['data']>, field: string) =>
      spec.given(asGiven(atPhase5())).when(complete(over)).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === field));
    refused({ results: results().slice(1) }, 'results');
    refused({ results: [...results().slice(1), results()[0]!] }, 'results');
    refused({ results: [...results(), answer('verification')] }, 'results');
    refused({ results: [] }, 'results');
    refused({ results: results().map((r, i) => (i === 0 ? { ...r, error: undefined } : r)) }, 'results[0].error');
    refused({ results: results().map((r, i) => (i === 1 ? { ...r, finishedAt: '2026-03-01T09:59:59.000Z' } : r)) }, 'results[1].finished_at');
    refused({ results: results().map((r, i) => (i === 2 ? { ...r, result: [] as unknown as Record<string, unknown> } : r)) }, 'results[2].result');
    refused({ results: results().map((r, i) => (i === 3 ? { ...r, startedAt: 'yesterday' } : r)) }, 'results[3].started_at');
  });
});

describe('screening: phase deadlines and the supervisor (ExpirePhase)', () => {
  const DEADLINE = '2026-03-01T10:00:45.000Z';
  const LATE = '2026-03-01T10:01:00.000Z';
  const RETRY_DEADLINE = '2026-03-01T10:01:45.000Z';
  const start = (phase: '0' | '1', deadline?: string) =>
    ({ type: 'StartPhase', data: { screeningId: '501', phase, ...(deadline ? { deadline } : {}) }, metadata: meta() }) as const;
  const expire = (over: { now?: string; retryBudget?: number; retryDeadline?: string } = {}) =>
    ({
      type: 'ExpirePhase',
      data: { screeningId: '501', phase: '1', retryBudget: over.retryBudget ?? 1, retryDeadline: over.retryDeadline ?? RETRY_DEADLINE },
      metadata: meta({ now: over.now ?? LATE }),
    }) as const;
  const decideAll = (events: ScreeningEvent[], command: ScreeningCommand) => [...events, ...screeningDecider.decide(command, foldEvents(screeningDecider, events))];
  /** Phase 1 of an individual CDD (no phase 0) started with the deadline. */
  const phaseOneStarted = () => decideAll(requested(), start('1', DEADLINE));
  const result = (agent: string): ScreeningCommand => ({
    type: 'RecordAgentResult',
    data: { screeningId: '501', phase: '1', agent, queried: true, result: { hits: [] }, startedAt: NOW, finishedAt: NOW },
    metadata: meta(),
  });

  it('PhaseStarted records the deadline it was given; a deadline not after now is refused', () => {
    const { events, stateAfter } = spec.given(asGiven(requested())).when(start('1', DEADLINE)).thenTypes(['PhaseStarted']);
    assert.equal((events[0] as Extract<ScreeningEvent, { type: 'PhaseStarted' }>).data.deadline, DEADLINE);
    assert.equal(stateAfter.status === 'running' && stateAfter.phases['1']?.deadline, DEADLINE);
    spec.given(asGiven(requested())).when(start('1', NOW)).thenThrows(ValidationFailed);
    spec.given(asGiven(requested())).when(start('1', 'tomorrow')).thenThrows(ValidationFailed);
  });

  it('before the deadline an overdue claim is refused: nothing is re-dispatched early', () => {
    spec.given(asGiven(phaseOneStarted())).when(expire({ now: '2026-03-01T10:00:44.999Z' })).thenThrows(Conflict);
  });

  it('past the deadline, within the retry budget: the pending agents are dispatched again with a new deadline', () => {
    const given = decideAll(phaseOneStarted(), result('sanctions'));
    const { events, stateAfter } = spec.given(asGiven(given)).when(expire()).thenTypes(['PhaseRetried']);
    const retried = events[0] as Extract<ScreeningEvent, { type: 'PhaseRetried' }>;
    assert.equal(retried.data.attempt, 2);
    assert.equal(retried.data.previousDeadline, DEADLINE);
    assert.equal(retried.data.deadline, RETRY_DEADLINE);
    assert.equal(retried.data.retriedAt, LATE);
    assert.ok(!retried.data.agents.includes('sanctions'), 'an agent that answered is not asked again');
    assert.deepEqual(retried.data.agents, ['pep', 'adverse_media', 'offshore_leaks', 'debarment', 'osint', 'public_company']);
    // The process manager's next step is to dispatch them (new tasks), still in phase 1.
    assert.deepEqual(nextStep(stateAfter), { action: 'dispatch', phase: '1', agents: retried.data.agents, pending: retried.data.agents });
    // The new attempt has its own deadline: a second claim before it is refused.
    spec.given(asGiven([...given, ...events])).when(expire({ now: '2026-03-01T10:01:30.000Z' })).thenThrows(Conflict);
  });

  it('once the budget is spent the missing agents are recorded as not queried with an error, and the screening can complete with the gap', () => {
    const given = decideAll(decideAll(phaseOneStarted(), result('sanctions')), expire());
    const after = '2026-03-01T10:02:00.000Z';
    const { events, stateAfter } = spec.given(asGiven(given)).when(expire({ now: after, retryDeadline: '2026-03-01T10:03:00.000Z' })).thenTypes(Array(6).fill('AgentResultRecorded'));
    for (const e of events as Extract<ScreeningEvent, { type: 'AgentResultRecorded' }>[]) {
      assert.equal(e.data.queried, false);
      assert.equal(e.data.phase, '1');
      assert.match(e.data.error ?? '', /no answer before the phase deadline 2026-03-01T10:01:45.000Z \(dispatched 2 times\)/);
      assert.deepEqual(e.data.result, {});
      assert.equal(e.data.finishedAt, after);
    }
    // Nothing is awaited any more: the phase completes, listing the gap, and the pipeline moves on.
    assert.deepEqual(nextStep(stateAfter), { action: 'complete_phase', phase: '1' });
    const completed = screeningDecider.decide({ type: 'CompletePhase', data: { screeningId: '501', phase: '1' }, metadata: meta() }, stateAfter);
    const phaseCompleted = completed[0] as Extract<ScreeningEvent, { type: 'PhaseCompleted' }>;
    assert.deepEqual(phaseCompleted.data.agentsQueried, ['sanctions']);
    assert.equal(phaseCompleted.data.agentsNotQueried.length, 6);
    const finished = runPipeline([...given, ...events]);
    assert.equal(nextStep(foldEvents(screeningDecider, finished)).action, 'complete_screening');
  });

  it('a budget of 0 gives up at the first deadline', () => {
    spec.given(asGiven(phaseOneStarted())).when(expire({ retryBudget: 0 })).thenTypes(Array(7).fill('AgentResultRecorded'));
  });

  it('a phase that finished meanwhile, or a screening that ended, is left alone', () => {
    const all = ['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment', 'osint', 'public_company'];
    const answered = all.reduce((events, agent) => decideAll(events, result(agent)), phaseOneStarted());
    spec.given(asGiven(answered)).when(expire()).thenNothing();
    const phaseDone = decideAll(answered, { type: 'CompletePhase', data: { screeningId: '501', phase: '1' }, metadata: meta() });
    spec.given(asGiven(phaseDone)).when(expire()).thenNothing();
    const failed = decideAll(phaseOneStarted(), { type: 'FailScreening', data: { screeningId: '501', reason: 'x' }, metadata: meta() });
    spec.given(asGiven(failed)).when(expire()).thenNothing();
  });

  it('a phase started before deadlines existed is overdue whenever the supervisor says so', () => {
    spec.given(asGiven(decideAll(requested(), start('1')))).when(expire()).thenTypes(['PhaseRetried']);
  });

  it('refuses a phase that has not started and a bad budget or retry deadline', () => {
    spec.given(asGiven(requested())).when(expire()).thenThrows(Conflict);
    spec.given(asGiven(phaseOneStarted())).when(expire({ retryBudget: -1 })).thenThrows(ValidationFailed);
    spec.given(asGiven(phaseOneStarted())).when(expire({ retryDeadline: LATE })).thenThrows(ValidationFailed);
  });

  it('replays a stream with a retried phase to the same state', () => {
    const given = decideAll(decideAll(phaseOneStarted(), expire()), result('pep'));
    const state = foldEvents(screeningDecider, given);
    assert.ok(state.status === 'running');
    assert.deepEqual(state.phases['1'], { status: 'running', startedAt: NOW, retries: 1, deadline: RETRY_DEADLINE });
  });
});

describe('screening: dispositions', () => {
  const dispose = (hitId: string, disposition: 'true_match' | 'false_positive', riskScore: number, riskLevel: 'low' | 'medium' | 'high') =>
    ({
      type: 'DispositionHit',
      data: { screeningId: '501', hitId, disposition, reason: 'different DOB', analyst: 'ann@acme.test', riskScore, riskLevel },
      metadata: meta(),
    }) as const;

  it('records the analyst decision and the recomputed risk', () => {
    const { stateAfter } = spec
      .given(asGiven(completedHistory()))
      .when(dispose('h2', 'false_positive', 15, 'low'))
      .then([
        {
          type: 'HitDispositioned',
          data: {
            ...ids,
            hitId: 'h2',
            entityId: 'opensanctions_peps:Q1',
            disposition: 'false_positive',
            reason: 'different DOB',
            analyst: 'ann@acme.test',
            entityRecordHash: 'rec-b',
            dispositionedAt: NOW,
          },
        },
        {
          type: 'RiskRecomputed',
          data: {
            ...ids,
            previousRiskScore: 30,
            previousRiskLevel: 'medium',
            riskScore: 15,
            riskLevel: 'low',
            countingHitIds: ['h1'],
            cause: 'disposition',
            recomputedAt: NOW,
          },
        },
      ]);
    assert.deepEqual(hitsCountingTowardRisk(stateAfter).map((h) => h.hitId), ['h1']);
  });

  it('is idempotent, rejects unknown hits and screenings that are not completed', () => {
    const history = completedHistory();
    const first = screeningDecider.decide(dispose('h2', 'false_positive', 15, 'low'), foldEvents(screeningDecider, history));
    spec.given(asGiven([...history, ...first])).when(dispose('h2', 'false_positive', 15, 'low')).thenNothing();
    spec.given(asGiven([...history, ...first])).when(dispose('h2', 'true_match', 30, 'medium')).thenTypes(['HitDispositioned', 'RiskRecomputed']);
    spec.given(asGiven(history)).when(dispose('nope', 'true_match', 30, 'medium')).thenThrows(NotFound);
    spec.given(asGiven(finishedPipeline())).when(dispose('h1', 'true_match', 30, 'medium')).thenThrows(IllegalTransition);
    spec
      .given(asGiven(history))
      .when({ ...dispose('h1', 'true_match', 30, 'medium'), data: { ...dispose('h1', 'true_match', 30, 'medium').data, reason: '' } })
      .thenThrows(ValidationFailed);
  });

  it('given a completed case, when a hit is decided with the summary as the hits will stand, then the risk recomputation carries that summary', () => {
    const summary = 'Rosneft was screened against 9 sources. 2 matches (strong name match 1, dismissed 1): ROSNEFT on OFAC SDN (97, strong name match).';
    const command = dispose('h2', 'false_positive', 15, 'low');
    const { events } = spec.given(asGiven(completedHistory())).when({ ...command, data: { ...command.data, summary } }).thenTypes(['HitDispositioned', 'RiskRecomputed']);
    assert.equal((events[1]!.data as { summary?: string }).summary, summary);
  });

  it('given a completed case, when the summary sent with a decision is empty or oversized, then refused', () => {
    const command = dispose('h2', 'false_positive', 15, 'low');
    for (const summary of ['', '   ', 'x'.repeat(10_001), 42]) {
      spec.given(asGiven(completedHistory())).when({ ...command, data: { ...command.data, summary } } as never).thenThrows(ValidationFailed);
    }
  });
});

describe('screening: one decision on several hits (bulk)', () => {
  const bulk = (hitIds: string[], disposition: 'true_match' | 'false_positive' | 'needs_more_information', riskScore: number, riskLevel: 'low' | 'medium' | 'high', reason = 'not the bank onboarded') =>
    ({
      type: 'DispositionHits',
      data: { screeningId: '501', hitIds, disposition, reason, analyst: 'user:u7', riskScore, riskLevel },
      metadata: meta(),
    }) as const;
  const decided = (hitId: string, entityId: string, entityRecordHash: string, extra: Record<string, unknown> = {}) => ({
    type: 'HitDispositioned' as const,
    data: { ...ids, hitId, entityId, disposition: 'false_positive' as const, ...extra, reason: 'not the bank onboarded', analyst: 'user:u7', entityRecordHash, dispositionedAt: NOW },
  });

  it('given two open hits, when both are decided false positive with one comment, then one decision each with that comment and one risk recomputation', () => {
    const { stateAfter } = spec
      .given(asGiven(completedHistory()))
      .when(bulk(['h1', 'h2'], 'false_positive', 0, 'low'))
      .then([
        decided('h1', 'ofac_sdn:123', 'rec-a'),
        decided('h2', 'opensanctions_peps:Q1', 'rec-b'),
        {
          type: 'RiskRecomputed',
          data: { ...ids, previousRiskScore: 30, previousRiskLevel: 'medium', riskScore: 0, riskLevel: 'low', countingHitIds: [], cause: 'disposition', recomputedAt: NOW },
        },
      ]);
    assert.deepEqual(hitsCountingTowardRisk(stateAfter), []);
  });

  it('given one hit already a false positive, when both are decided false positive, then only the other is recorded', () => {
    const history = completedHistory();
    const first = screeningDecider.decide(bulk(['h2'], 'false_positive', 15, 'low'), foldEvents(screeningDecider, history));
    spec
      .given(asGiven([...history, ...first]))
      .when(bulk(['h1', 'h2'], 'false_positive', 0, 'low'))
      .then([
        decided('h1', 'ofac_sdn:123', 'rec-a'),
        { type: 'RiskRecomputed', data: { ...ids, previousRiskScore: 15, previousRiskLevel: 'low', riskScore: 0, riskLevel: 'low', countingHitIds: [], cause: 'disposition', recomputedAt: NOW } },
      ]);
    spec.given(asGiven([...history, ...first])).when(bulk(['h2'], 'false_positive', 15, 'low')).thenNothing();
  });

  it('given two open hits, when both are decided with the summary as they will stand, then the one risk recomputation carries it', () => {
    const summary = 'Rosneft was screened against 9 sources. 2 matches (dismissed 2): none stands after the analysts\' decisions.';
    const command = bulk(['h1', 'h2'], 'false_positive', 0, 'low');
    const { events } = spec.given(asGiven(completedHistory())).when({ ...command, data: { ...command.data, summary } }).thenTypes(['HitDispositioned', 'HitDispositioned', 'RiskRecomputed']);
    assert.equal((events[2]!.data as { summary?: string }).summary, summary);
  });

  it('given a case, when one of the hits is unknown, then nothing is decided', () => {
    spec.given(asGiven(completedHistory())).when(bulk(['h1', 'nope'], 'false_positive', 15, 'low')).thenThrows(NotFound);
  });

  it('given a case, when no hit, a hit twice, too many hits or no comment, then refused', () => {
    const history = completedHistory();
    spec.given(asGiven(history)).when(bulk([], 'false_positive', 15, 'low')).thenThrows(ValidationFailed);
    spec.given(asGiven(history)).when(bulk(['h1', 'h1'], 'false_positive', 15, 'low')).thenThrows(ValidationFailed);
    spec.given(asGiven(history)).when(bulk(Array.from({ length: 101 }, (_, i) => `h${i}`), 'false_positive', 15, 'low')).thenThrows(ValidationFailed);
    spec.given(asGiven(history)).when(bulk(['h1'], 'false_positive', 15, 'low', '')).thenThrows(ValidationFailed);
  });

  it('given a screening still running, when a bulk decision comes, then it is an illegal transition', () => {
    spec.given(asGiven(finishedPipeline())).when(bulk(['h1'], 'true_match', 30, 'medium')).thenThrows(IllegalTransition);
  });
});

describe('screening: needs more information', () => {
  const dispose = (hitId: string, disposition: 'true_match' | 'false_positive' | 'needs_more_information', riskScore: number, riskLevel: 'low' | 'medium' | 'high', reason = 'ask the client for a passport copy') =>
    ({
      type: 'DispositionHit',
      data: { screeningId: '501', hitId, disposition, reason, analyst: 'user:u7', riskScore, riskLevel },
      metadata: meta(),
    }) as const;

  it('given an open hit, when marked needs_more_information, then it is recorded with the comment and the hit still counts toward risk', () => {
    const { stateAfter } = spec
      .given(asGiven(completedHistory()))
      .when(dispose('h2', 'needs_more_information', 30, 'medium'))
      .then([
        {
          type: 'HitDispositioned',
          data: {
            ...ids,
            hitId: 'h2',
            entityId: 'opensanctions_peps:Q1',
            disposition: 'needs_more_information',
            reason: 'ask the client for a passport copy',
            analyst: 'user:u7',
            entityRecordHash: 'rec-b',
            dispositionedAt: NOW,
          },
        },
        {
          type: 'RiskRecomputed',
          data: { ...ids, previousRiskScore: 30, previousRiskLevel: 'medium', riskScore: 30, riskLevel: 'medium', countingHitIds: ['h1', 'h2'], cause: 'disposition', recomputedAt: NOW },
        },
      ]);
    assert.deepEqual(hitsCountingTowardRisk(stateAfter).map((h) => h.hitId), ['h1', 'h2']);
    assert.equal(stateAfter.status === 'completed' && stateAfter.hits.h2!.status, 'needs_more_information');
  });

  it('given a hit waiting for information, when decided true match, then the previous disposition is needs_more_information', () => {
    const history = completedHistory();
    const asked = screeningDecider.decide(dispose('h2', 'needs_more_information', 30, 'medium'), foldEvents(screeningDecider, history));
    const { events } = spec.given(asGiven([...history, ...asked])).when(dispose('h2', 'true_match', 45, 'high', 'passport matches')).thenTypes(['HitDispositioned', 'RiskRecomputed']);
    const decided = events[0] as Extract<ScreeningEvent, { type: 'HitDispositioned' }>;
    assert.equal(decided.data.disposition, 'true_match');
    assert.equal(decided.data.previousDisposition, 'needs_more_information');
    spec.given(asGiven([...history, ...asked])).when(dispose('h2', 'false_positive', 15, 'low', 'other DOB')).thenTypes(['HitDispositioned', 'RiskRecomputed']);
  });

  it('given a hit waiting for information, when asked again, then nothing; without a comment it is refused; an unknown decision is refused', () => {
    const history = completedHistory();
    const asked = screeningDecider.decide(dispose('h2', 'needs_more_information', 30, 'medium'), foldEvents(screeningDecider, history));
    spec.given(asGiven([...history, ...asked])).when(dispose('h2', 'needs_more_information', 30, 'medium')).thenNothing();
    spec.given(asGiven(history)).when(dispose('h2', 'needs_more_information', 30, 'medium', '   ')).thenThrows(ValidationFailed);
    spec
      .given(asGiven(history))
      .when({ ...dispose('h2', 'true_match', 30, 'medium'), data: { ...dispose('h2', 'true_match', 30, 'medium').data, disposition: 'maybe' as never } })
      .thenThrows(ValidationFailed);
  });

  it('given a monitoring change of a hit waiting for information, then it stays waiting (only a false positive is re-opened)', () => {
    const history = completedHistory();
    const withMonitoring = [...history, ...screeningDecider.decide({ type: 'EnrollInMonitoring', data: { screeningId: '501' }, metadata: meta() }, foldEvents(screeningDecider, history))];
    const asked = screeningDecider.decide(dispose('h2', 'needs_more_information', 30, 'medium'), foldEvents(screeningDecider, withMonitoring));
    const { stateAfter } = spec
      .given(asGiven([...withMonitoring, ...asked]))
      .when({
        type: 'RecordMonitoringAlert',
        data: { screeningId: '501', alertId: 'a9', kind: 'changed_hit', entityId: 'opensanctions_peps:Q1', diff: { x: 1 }, listVersion: 'peps@2', entityRecordHash: 'rec-b2' },
        metadata: meta(),
      })
      .thenTypes(['MonitoringAlertRaised']);
    assert.equal(stateAfter.status === 'completed' && stateAfter.hits.h2!.status, 'needs_more_information');
  });
});

describe('screening: case assignment', () => {
  const assign = (assigneeUserId: string, assignedBy = 'u1') => ({ type: 'AssignCase', data: { screeningId: '501', assigneeUserId, assignedBy }, metadata: meta() }) as const;
  const unassign = (unassignedBy = 'u1') => ({ type: 'UnassignCase', data: { screeningId: '501', unassignedBy }, metadata: meta() }) as const;

  it('given a completed screening, when assigned, then CaseAssigned with who and when, and the state holds the assignee', () => {
    const { stateAfter } = spec
      .given(asGiven(completedHistory()))
      .when(assign('u7'))
      .then([{ type: 'CaseAssigned', data: { ...ids, assigneeUserId: 'u7', assignedBy: 'u1', assignedAt: NOW } }]);
    assert.equal(stateAfter.status === 'completed' && stateAfter.assigneeUserId, 'u7');
  });

  it('given an assigned case, when reassigned, then the previous assignee is recorded; assigning the same user again records nothing', () => {
    const history = completedHistory();
    const first = screeningDecider.decide(assign('u7'), foldEvents(screeningDecider, history));
    spec.given(asGiven([...history, ...first])).when(assign('u7', 'u9')).thenNothing();
    spec
      .given(asGiven([...history, ...first]))
      .when(assign('u8', 'u9'))
      .then([{ type: 'CaseAssigned', data: { ...ids, assigneeUserId: 'u8', previousAssigneeUserId: 'u7', assignedBy: 'u9', assignedAt: NOW } }]);
  });

  it('given an assigned case, when unassigned, then nobody holds it; unassigning an unassigned case records nothing', () => {
    const history = completedHistory();
    const first = screeningDecider.decide(assign('u7'), foldEvents(screeningDecider, history));
    const { stateAfter } = spec
      .given(asGiven([...history, ...first]))
      .when(unassign())
      .then([{ type: 'CaseUnassigned', data: { ...ids, previousAssigneeUserId: 'u7', unassignedBy: 'u1', unassignedAt: NOW } }]);
    assert.equal(stateAfter.status === 'completed' && stateAfter.assigneeUserId, undefined);
    spec.given(asGiven(history)).when(unassign()).thenNothing();
  });

  it('a running screening cannot be assigned; an empty assignee is refused', () => {
    spec.given(asGiven(finishedPipeline())).when(assign('u7')).thenThrows(IllegalTransition);
    spec.given(asGiven(completedHistory())).when(assign('')).thenThrows(ValidationFailed);
  });
});

describe('screening: monitoring', () => {
  const enrol = { type: 'EnrollInMonitoring' as const, data: { screeningId: '501' } };
  const alert = (over: Partial<RecordMonitoringAlert['data']>): RecordMonitoringAlert => ({
    type: 'RecordMonitoringAlert',
    data: { screeningId: '501', alertId: 'a1', kind: 'changed_hit', entityId: 'opensanctions_peps:Q1', diff: {}, listVersion: 'peps@2', entityRecordHash: 'rec-b2', ...over },
    metadata: meta(),
  });
  const enrolled = () => {
    const h = completedHistory();
    return [...h, ...screeningDecider.decide({ ...enrol, metadata: meta() }, foldEvents(screeningDecider, h))];
  };
  const clearedH2 = () => {
    const h = enrolled();
    return [
      ...h,
      ...screeningDecider.decide(
        { type: 'DispositionHit', data: { screeningId: '501', hitId: 'h2', disposition: 'false_positive', reason: 'other person', analyst: 'ann', riskScore: 15, riskLevel: 'low' }, metadata: meta() },
        foldEvents(screeningDecider, h),
      ),
    ];
  };

  it('enrols only completed screenings, once; unenrols once', () => {
    spec.given(asGiven(finishedPipeline())).when({ ...enrol, metadata: meta() }).thenThrows(IllegalTransition);
    spec.given(asGiven(completedHistory())).when({ ...enrol, metadata: meta() }).then([
      { type: 'MonitoringEnrolled', data: { ...ids, subject: { query: 'Rosneft', entityType: 'individual' }, enrolledAt: NOW } },
    ]);
    spec.given(asGiven(enrolled())).when({ ...enrol, metadata: meta() }).thenNothing();
    const { events } = spec.given(asGiven(enrolled())).when({ type: 'UnenrollFromMonitoring', data: { screeningId: '501' }, metadata: meta() }).thenTypes(['MonitoringUnenrolled']);
    spec.given(asGiven([...enrolled(), ...events])).when(alert({})).thenThrows(IllegalTransition, (e) => e.state === 'not_monitored');
  });

  it('a cleared false positive does not alert again while its record is unchanged', () => {
    spec.given(asGiven(clearedH2())).when(alert({ kind: 'new_hit', entityRecordHash: 'rec-b' })).thenNothing();
    spec.given(asGiven(clearedH2())).when(alert({ kind: 'changed_hit', entityRecordHash: 'rec-b' })).thenNothing();
    spec.given(asGiven(clearedH2())).when(alert({ kind: 'removed_hit', entityRecordHash: undefined })).thenNothing();
  });

  it('a changed record re-opens a cleared false positive with the diff', () => {
    const diff = { birthDates: { before: [], after: ['1961-01-01'] } };
    const { stateAfter } = spec
      .given(asGiven(clearedH2()))
      .when(alert({ diff, risk: { riskScore: 30, riskLevel: 'medium' } }))
      .then([
        { type: 'HitReopened', data: { ...ids, hitId: 'h2', entityId: 'opensanctions_peps:Q1', previousDisposition: 'false_positive', diff, reopenedAt: NOW } },
        {
          type: 'MonitoringAlertRaised',
          data: {
            ...ids,
            alertId: 'a1',
            kind: 'changed_hit',
            hitId: 'h2',
            entityId: 'opensanctions_peps:Q1',
            category: 'pep',
            source: 'opensanctions_peps',
            matchedName: 'Rosneft',
            score: 0.81,
            diff,
            listVersion: 'peps@2',
            entityRecordHash: 'rec-b2',
            raisedAt: NOW,
          },
        },
        {
          type: 'RiskRecomputed',
          data: { ...ids, previousRiskScore: 15, previousRiskLevel: 'low', riskScore: 30, riskLevel: 'medium', countingHitIds: ['h1', 'h2'], cause: 'monitoring_alert', recomputedAt: NOW },
        },
      ]);
    assert.equal(stateAfter.status !== 'none' && stateAfter.hits['h2']?.status, 'open');
  });

  it('new hits are added, removals of open hits alert once, alert ids are idempotent', () => {
    const newHit = alert({
      alertId: 'a2',
      kind: 'new_hit',
      entityId: 'ofac_sdn:999',
      entityRecordHash: 'rec-z',
      hit: { hitId: 'h3', category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT TRADING', score: 0.9 },
    });
    const { events, stateAfter } = spec.given(asGiven(enrolled())).when(newHit).thenTypes(['MonitoringAlertRaised']);
    assert.equal(stateAfter.status !== 'none' && stateAfter.hits['h3']?.status, 'open');
    spec.given(asGiven([...enrolled(), ...events])).when(newHit).thenNothing();
    spec.given(asGiven(enrolled())).when(alert({ alertId: 'a3', kind: 'new_hit', entityId: 'ofac_sdn:998', entityRecordHash: 'r' })).thenThrows(ValidationFailed);

    const removal = alert({ alertId: 'a4', kind: 'removed_hit', entityId: 'ofac_sdn:123', entityRecordHash: undefined });
    const removed = spec.given(asGiven(enrolled())).when(removal).thenTypes(['MonitoringAlertRaised']);
    assert.equal(removed.stateAfter.status !== 'none' && removed.stateAfter.hits['h1']?.status, 'removed');
    spec.given(asGiven([...enrolled(), ...removed.events])).when({ ...removal, data: { ...removal.data, alertId: 'a5' } }).thenNothing();
  });

  it('an unchanged record of an open hit raises nothing', () => {
    spec.given(asGiven(enrolled())).when(alert({ entityRecordHash: 'rec-b' })).thenNothing();
  });

  it('given a completed screening, when an alert leaves score and level as they were but changes the summary, then the re-score is recorded with the summary (the S1/S3 list reads it)', () => {
    const another = (alertId: string, entityId: string, hitId: string, summary?: string) =>
      alert({
        alertId,
        kind: 'new_hit',
        entityId,
        entityRecordHash: `rec-${hitId}`,
        hit: { hitId, category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT', score: 0.85 },
        risk: { riskScore: 30, riskLevel: 'medium', ...(summary !== undefined ? { summary } : {}) },
      });
    const two = 'Rosneft was screened against 9 sources. 3 matches (name match 3): ROSNEFT on OFAC SDN (85, name match).';
    const { events, stateAfter } = spec.given(asGiven(enrolled())).when(another('a8', 'ofac_sdn:997', 'h8', two)).thenTypes(['MonitoringAlertRaised', 'RiskRecomputed']);
    const rescore = events[1]!.data as { riskScore: number; previousRiskScore: number; summary?: string };
    assert.deepEqual([rescore.previousRiskScore, rescore.riskScore, rescore.summary], [30, 30, two]);
    assert.equal(stateAfter.status !== 'none' && stateAfter.summary, two);
    // the same summary again, or a re-score without one: nothing moved, only the alert
    spec.given(asGiven([...enrolled(), ...events])).when(another('a9', 'ofac_sdn:996', 'h9', two)).thenTypes(['MonitoringAlertRaised']);
    spec.given(asGiven(enrolled())).when(another('a9', 'ofac_sdn:996', 'h9')).thenTypes(['MonitoringAlertRaised']);
    spec.given(asGiven(enrolled())).when(another('a9', 'ofac_sdn:996', 'h9', 'One sanctions hit, one PEP hit.')).thenTypes(['MonitoringAlertRaised']);
  });

  describe("the machine's assessment of the alert's hit, made on the subject's facts (issue 27)", () => {
    const newHit = (identity: RecordMonitoringAlert['data']['identity']) =>
      alert({
        alertId: 'a6',
        kind: 'new_hit',
        entityId: 'ofac_sdn:999',
        entityRecordHash: 'rec-z',
        hit: { hitId: 'h3', category: 'sanctions', source: 'ofac_sdn', matchedName: 'ROSNEFT TRADING', score: 0.96 },
        identity,
      });
    const byDob = { basis: 'date_of_birth' as const, detail: 'date of birth 1970-01-01 equals listed 01 Jan 1970' };

    it('given an enrolled screening, when a new hit is confirmed by the date of birth, then the alert records the assessment and its confirmation', () => {
      const identity = { assessment: 'identity_corroborated' as const, confirmation: byDob, note: `identity corroborated: ${byDob.detail}` };
      const { events } = spec.given(asGiven(enrolled())).when(newHit(identity)).thenTypes(['MonitoringAlertRaised']);
      assert.deepEqual((events[0]!.data as { identity?: unknown }).identity, identity);
    });

    it('given an enrolled screening, when a new hit is contradicted by the date of birth, then the alert records it without a confirmation', () => {
      const identity = { assessment: 'identity_contradicted' as const, note: 'identity contradicted: date of birth 1980-05-05 is outside listed 1970' };
      const { events } = spec.given(asGiven(enrolled())).when(newHit(identity)).thenTypes(['MonitoringAlertRaised']);
      assert.deepEqual((events[0]!.data as { identity?: unknown }).identity, identity);
    });

    it('given an enrolled screening, when an alert carries no assessment (an outside source), then the event carries none', () => {
      const { events } = spec.given(asGiven(enrolled())).when(newHit(undefined)).thenTypes(['MonitoringAlertRaised']);
      assert.equal('identity' in events[0]!.data, false);
    });

    it('when the assessment is not one of the four, confirms without a confirmation, carries one without confirming, confirms as an analyst, or has no note, then nothing is recorded', () => {
      const refused = (identity: unknown, field: string) =>
        spec.given(asGiven(enrolled())).when(newHit(identity as never)).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === field));
      refused({ assessment: 'confirmed', note: 'x' }, 'identity.assessment');
      refused({ assessment: 'identity_corroborated', note: 'x' }, 'identity.confirmation');
      refused({ assessment: 'strong_name_match', confirmation: byDob, note: 'x' }, 'identity.confirmation');
      refused({ assessment: 'identity_corroborated', confirmation: { basis: 'analyst', detail: 'marked a true match' }, note: 'x' }, 'identity.confirmation');
      refused({ assessment: 'identity_corroborated', confirmation: { basis: 'date_of_birth', detail: '' }, note: 'x' }, 'identity.confirmation');
      refused({ assessment: 'name_match', note: '' }, 'identity.note');
      refused({ assessment: 'name_match', note: 'x'.repeat(2001) }, 'identity.note');
    });

    it('when a removal carries an assessment, then it is refused: a removed entity has nothing to assess', () => {
      spec
        .given(asGiven(enrolled()))
        .when(alert({ alertId: 'a7', kind: 'removed_hit', entityId: 'ofac_sdn:123', entityRecordHash: undefined, identity: { assessment: 'name_match', note: 'x' } }))
        .thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'identity'));
    });
  });
});
