/**
 * The screening process manager on its own (real PostgreSQL event store, in-process bus): what the
 * API tests cannot set up, i.e. two orchestrator instances racing on one screening (a consumer-group
 * rebalance) and redelivered results. Each instance keeps the history of screenings in flight
 * between steps; these tests prove that stale copy never writes a wrong or duplicate event.
 * And what a CDD screening's stream holds for the phases none of whose sources can be queried here,
 * and how it fails closed (issue 27 §4): a risk-score step that throws, a sanctions phase that expires
 * unanswered or a sanctions source that answers "not searched" never complete low.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../src/commands/command-handler';
import { ScreeningOrchestrator, type ScreeningOrchestratorOptions } from '../../../src/agents/orchestrator/screening-orchestrator';
import { EventSourcedOffshoreLeakChecks } from '../../../src/app/usage/offshore-leak-checks';
import { buildScreeningReport, riskFactsOf } from '../../../src/projections/screening-report';
import type { Agent } from '../../../src/agents/runtime/agent';
import { nextStep, type PhaseCompleted, type PhaseSkipped, screeningDecider, type ScreeningCompleted, type ScreeningRequested, skippedPhases, streamName } from '../../../src/commands/screening';
import { AvroRegistry, type AgentResult } from '../../../src/infrastructure/bus/avro';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { verifyHashChain } from '../../../src/infrastructure/eventstore/hashChain';
import type { EventStore } from '../../../src/infrastructure/eventstore/port';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { systemClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { offshoreLeakQuotaDecider, streamName as offshoreQuotaStream } from '../../../src/commands/offshore-leak-quota';
import { loadAggregate } from '../../../src/commands/command-handler';

const logger = createLogger({ level: 'silent' });
const registry = AvroRegistry.load();
let db: TestDatabase;
let store: PostgresEventStore;
let bus: InProcessBus;
let nextId = 1;

function orchestrator(
  eventStore: EventStore = store,
  localAgents?: ReadonlyMap<string, Agent>,
  overrides: Partial<Pick<ScreeningOrchestratorOptions, 'finalisation' | 'phaseDeadlineMs' | 'retryBudget'>> = {},
): ScreeningOrchestrator {
  return new ScreeningOrchestrator({
    store: eventStore,
    bus,
    registry,
    clock: systemClock,
    logger,
    // Two sources answer over the bus; every other one is recorded as not served, here.
    remoteAgents: new Set(['sanctions', 'pep']),
    ...(localAgents ? { localAgents } : {}),
    finalisation: { countryRisk: () => [], analyse: async () => ({ markdown: 'rules', generatedBy: 'rules' }) },
    agentLabels: {},
    engineVersions: () => ({ listVersions: [], matcherVersion: 'test' }),
    agentTimeoutMs: 1000,
    phaseDeadlineMs: 60_000,
    retryBudget: 1,
    offshoreLeakChecks: new EventSourcedOffshoreLeakChecks({ store: eventStore, clock: systemClock }),
    ...overrides,
  });
}

function result(agent: string, notSearched?: string): AgentResult {
  const now = new Date().toISOString();
  return { taskId: randomUUID(), agent, phase: '1', queried: !notSearched, error: notSearched ?? null, result: notSearched ? '{}' : '{"hits":[]}', startedAt: now, finishedAt: now };
}

/** The completion and the report of a screening's stream. */
async function outcome(id: string): Promise<{ completed: { riskScore: number; riskLevel: string }; report: ReturnType<typeof buildScreeningReport> & object }> {
  const events = await store.readStream(streamName(id));
  const completed = events.filter((e) => e.type === 'ScreeningCompleted');
  assert.equal(completed.length, 1, 'the screening completed once');
  return { completed: completed[0]!.data as { riskScore: number; riskLevel: string }, report: buildScreeningReport(events, { agentLabels: {} })! };
}

async function requestScreening(on: { surface?: 's1' | 's3'; accountId?: string; requestedAt?: string } = {}): Promise<string> {
  const id = String(nextId++);
  const { surface = 's1', accountId = '7' } = on;
  await handleCommand(store, screeningDecider, streamName(id), {
    type: 'RequestScreening',
    data: { screeningId: id, uuid: randomUUID(), kind: 'cdd', surface, accountId, plan: 'enterprise', subject: { query: 'Margaret Thistlewood', entityType: 'individual' } },
    metadata: { now: on.requestedAt ?? new Date().toISOString(), actor: { surface, accountId }, commandId: `request-${id}` },
  });
  return id;
}

before(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 200, logger });
  bus = new InProcessBus({ logger });
});
after(async () => {
  await bus?.close();
  await store?.close();
  await db?.drop();
});

describe('screening orchestrator', () => {
  it('an instance whose cached history another instance made stale re-reads, and the screening completes once', async () => {
    const id = await requestScreening();
    const a = orchestrator();
    const b = orchestrator();
    await a.advance(id, { results: [], dispatch: true }); // phase 1 started; A now caches the history
    await b.advance(id, { results: [result('sanctions')], dispatch: false }); // another instance records one answer
    await a.advance(id, { results: [result('pep')], dispatch: false }); // A's copy is stale: conflict, re-read, record
    await a.advance(id, { results: [result('sanctions')], dispatch: false }); // a redelivered answer changes nothing
    await b.advance(id, { results: [result('pep')], dispatch: false });

    const events = await store.readStream(streamName(id));
    const recorded = events.filter((e) => e.type === 'AgentResultRecorded').map((e) => `${e.data.phase}:${e.data.agent}`);
    assert.equal(new Set(recorded).size, recorded.length, 'each agent result recorded once');
    assert.ok(recorded.includes('1:sanctions') && recorded.includes('1:pep'));
    assert.equal(events.filter((e) => e.type === 'ScreeningCompleted').length, 1);
    assert.equal(events[events.length - 1]!.type, 'ScreeningCompleted');
    assert.equal(verifyHashChain(events).ok, true);
  });

  it('several results of one screening handed over together are recorded in one append, after a redelivered one', async () => {
    const id = await requestScreening();
    let appends = 0;
    const counting = Object.assign(Object.create(store) as PostgresEventStore, {
      appendToStream: (...args: Parameters<PostgresEventStore['appendToStream']>) => {
        appends++;
        return store.appendToStream(...args);
      },
    });
    const a = orchestrator(counting);
    await a.advance(id, { results: [], dispatch: true });
    const before = (await store.readStream(streamName(id))).length;
    appends = 0;
    // A batch: one answer twice (a redelivery) and the other answer; the phase then completes.
    await a.advance(id, { results: [result('sanctions'), result('sanctions'), result('pep')], dispatch: false });
    const events = await store.readStream(streamName(id));
    const added = events.slice(before);
    assert.deepEqual(
      added.filter((e) => e.type === 'AgentResultRecorded').map((e) => e.data.agent).slice(0, 2),
      ['sanctions', 'pep'],
      'each answer once, in order',
    );
    assert.equal(appends, 1, 'the answers, the end of the phase and the rest of the pipeline in one append');
    assert.equal(events.filter((e) => e.type === 'ScreeningCompleted').length, 1);
    assert.equal(verifyHashChain(events).ok, true);
  });

  it('results arriving together for many screenings are each recorded once, from the cache', async () => {
    const a = orchestrator();
    const ids = await Promise.all(Array.from({ length: 6 }, () => requestScreening()));
    for (const id of ids) await a.advance(id, { results: [], dispatch: true });
    await Promise.all(ids.flatMap((id) => [a.advance(id, { results: [result('sanctions')], dispatch: false })]));
    for (const id of ids) await a.advance(id, { results: [result('pep')], dispatch: false });
    for (const id of ids) {
      const events = await store.readStream(streamName(id));
      assert.equal(events.filter((e) => e.type === 'ScreeningCompleted').length, 1, `screening ${id} completed once`);
      assert.equal(verifyHashChain(events).ok, true);
    }
  });

  it('a CDD screening records the run of phases none of whose sources can be queried as one PhaseSkipped, and its report lists them all', async () => {
    const id = await requestScreening();
    const a = orchestrator();
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: [result('sanctions'), result('pep')], dispatch: false });

    const events = await store.readStream(streamName(id));
    const phaseOf = (e: { data: unknown }) => (e.data as { phase: string }).phase;
    assert.deepEqual(
      events.filter((e) => e.type.startsWith('Phase')).map((e) => `${e.type} ${phaseOf(e)}`),
      [
        'PhaseStarted 1',
        'PhaseCompleted 1',
        'PhaseSkipped 1b',
        'PhaseCompleted 5',
      ],
      'phase 1 (two sources answer over the bus) starts and completes; 1b to 4 are one event; 5 (finalisation, run here) is one event',
    );
    // The finalisation recorded whole: its six results in PhaseCompleted, in plan order, no AgentResultRecorded of its own.
    const finalised = events.find((e) => e.type === 'PhaseCompleted' && e.data.phase === '5')!.data as PhaseCompleted['data'];
    const finalisers = ['country_risk', 'risk_score', 'merged_adverse_media', 'data_gaps', 'summary', 'verification'];
    assert.deepEqual(finalised.results?.map((r) => r.agent), finalisers);
    assert.deepEqual(finalised.agentsQueried, finalisers.slice(1), 'country risk is not queried without the FATF table');
    assert.equal(finalised.results?.[0]?.error, 'FATF lists not loaded');
    assert.equal(events.filter((e) => e.type === 'AgentResultRecorded' && e.data.phase === '5').length, 0);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ScreeningRequested', 'PhaseStarted', 'AgentResultRecorded', 'AgentResultRecorded', 'PhaseCompleted', 'PhaseSkipped', 'PhaseCompleted', 'ScreeningCompleted'],
    );
    const skipped = events.find((e) => e.type === 'PhaseSkipped')!.data as PhaseSkipped['data'];
    assert.deepEqual(skippedPhases(skipped).map((p) => `${p.phase}: ${p.notQueried.map((n) => n.agent).join(' ')}`), [
      '1b: company_registries market_data',
      '2: browser_verification',
      '3: litigation bankruptcy consumer_complaints esg adverse_media_engine',
      '4: arbitration web_archive beneficial_ownership',
    ]);
    assert.equal(events.filter((e) => e.type === 'ScreeningCompleted').length, 1);
    assert.equal(verifyHashChain(events).ok, true);

    // The report still lists every agent this deployment could not query, with its reason.
    const report = buildScreeningReport(events, { agentLabels: { arbitration: 'Arbitration awards' } })!;
    const pipeline = (events[0] as unknown as ScreeningRequested).data.pipeline;
    const unqueryable = pipeline.filter((p) => p.phase !== '5').flatMap((p) => p.agents.filter((agent) => agent !== 'sanctions' && agent !== 'pep').map((agent) => ({ phase: p.phase, agent })));
    assert.equal(unqueryable.length, 5 + 2 + 1 + 5 + 3);
    for (const { phase, agent } of unqueryable) {
      const entry = report.agents.find((e) => e.phase === phase && e.agent === agent);
      assert.ok(entry, `${phase}/${agent} is in the report`);
      assert.equal(entry.queried, false);
      assert.equal(entry.error, `no agent serves ${agent} in this deployment`);
      const source = agent === 'arbitration' ? 'Arbitration awards' : agent;
      assert.deepEqual(report.sourcesNotSearched.filter((s) => s.source === source), [{ source, reason: `no agent serves ${agent} in this deployment` }]);
    }
    assert.equal(report.agents.filter((e) => e.phase !== '5').length, unqueryable.length + 2, 'each agent once');
  });

  it('a screening whose phase 5 a version before v2 started goes on one answer at a time, and gets the report and verdict the finalisation recorded whole gives', async () => {
    const hit = { hitId: 'h-1', category: 'pep', source: 'opensanctions_peps', entityId: 'Q1', entityName: 'Margaret Thistlewood', matchedName: 'Margaret Thistlewood', score: 0.93, status: 'name_match', explanation: { summary: 'exact name', qualifiers: [] }, programs: [] };
    const answered = [result('sanctions'), { ...result('pep'), result: JSON.stringify({ hits: [hit] }) }];
    const id = await requestScreening();
    const a = orchestrator();
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: answered, dispatch: false });
    const whole = await store.readStream(streamName(id));
    // The same history up to phase 5, in another stream, and phase 5 started there as an older version did.
    const other = String(nextId++);
    const prefix = whole.slice(0, whole.findIndex((e) => e.type === 'PhaseCompleted' && e.data.phase === '5'));
    await store.appendToStream(
      streamName(other),
      prefix.map(({ type, data, metadata }, i) => ({
        type,
        data: { ...data, screeningId: other },
        metadata: { eventId: `copy-${other}-${i}`, occurredAt: metadata.occurredAt, ...(metadata.correlationId ? { correlationId: metadata.correlationId } : {}) },
      })),
    );
    const now = new Date().toISOString();
    await handleCommand(store, screeningDecider, streamName(other), {
      type: 'StartPhase',
      data: { screeningId: other, phase: '5', deadline: new Date(Date.now() + 60_000).toISOString() },
      metadata: { now, actor: { surface: 'system' }, commandId: `start-5-${other}` },
    });
    await orchestrator().advance(other, { results: [], dispatch: true });
    const perAgent = await store.readStream(streamName(other));
    assert.deepEqual(
      perAgent.slice(prefix.length).map((e) => (e.type === 'AgentResultRecorded' ? e.data.agent : e.type)),
      ['PhaseStarted', 'country_risk', 'risk_score', 'merged_adverse_media', 'data_gaps', 'summary', 'verification', 'PhaseCompleted', 'ScreeningCompleted'],
    );
    assert.equal((perAgent.find((e) => e.type === 'PhaseCompleted' && e.data.phase === '5')!.data as PhaseCompleted['data']).results, undefined);
    assert.equal(verifyHashChain(perAgent).ok, true);
    // Everything but the stored events themselves (the audit trail), the ids and the times is the same.
    const comparable = (events: typeof whole) => {
      const { id: _id, uuid: _uuid, completedAt: _at, audit: _audit, agents, ...rest } = buildScreeningReport(events, { agentLabels: { osint: 'OSINT' } })!;
      return { ...rest, agents: agents.map(({ startedAt: _s, durationMs: _d, ...agent }) => agent) };
    };
    const report = comparable(whole);
    assert.deepEqual(comparable(perAgent), report);
    assert.equal(report.hits.pep.length, 1);
    assert.ok(report.verdict.breakdown.length > 0 && report.dataGaps.length > 0 && report.verdict.summary, 'the finalisers results are in both');
    const verdict = (events: typeof whole) => {
      const { riskScore, riskLevel, summary, hits, counts } = events.find((e) => e.type === 'ScreeningCompleted')!.data as ScreeningCompleted['data'];
      return { riskScore, riskLevel, summary, hits, counts };
    };
    assert.deepEqual(verdict(perAgent), verdict(whole));
    assert.deepEqual(riskFactsOf(perAgent), riskFactsOf(whole));
    assert.ok(riskFactsOf(whole), 'the risk facts are read from PhaseCompleted v2 too');
  });

  it('a phase with one source answered here (a local agent) starts and completes as before, and ends the run of skipped phases before it', async () => {
    let litigationRuns = 0;
    const litigation: Agent = {
      name: 'litigation',
      label: 'Litigation',
      run: async () => {
        litigationRuns++;
        return { queried: true, hits: [] };
      },
    };
    const id = await requestScreening();
    const a = orchestrator(store, new Map([['litigation', litigation]]));
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: [result('sanctions'), result('pep')], dispatch: false });

    const events = await store.readStream(streamName(id));
    const phase3 = events.filter((e) => (e.data as { phase?: string }).phase === '3');
    assert.deepEqual(
      phase3.map((e) => (e.type === 'AgentResultRecorded' ? `${e.type} ${e.data.agent as string}` : e.type)),
      ['PhaseStarted', 'AgentResultRecorded litigation', 'PhaseCompleted'],
    );
    assert.deepEqual(
      (phase3[0]!.data as { notQueried: { agent: string }[] }).notQueried.map((n) => n.agent),
      ['bankruptcy', 'consumer_complaints', 'esg', 'adverse_media_engine'],
    );
    assert.deepEqual(phase3[2]!.data.agentsQueried, ['litigation']);
    assert.deepEqual(
      events.filter((e) => e.type === 'PhaseSkipped').map((e) => skippedPhases(e.data as PhaseSkipped['data']).map((p) => p.phase)),
      [['1b', '2'], ['4']],
      'phases 1b and 2 are skipped in one event, 4 in one of its own',
    );
    // Asked once as the run of skipped phases was looked at, and that answer recorded: not run again for its start.
    assert.equal(litigationRuns, 1);
  });
});

describe('screening orchestrator: the verdict fails closed (issue 27 §4; S1, S3 and portal complete at least high with a flag)', () => {
  it('given both list sources answered with no hit, when the pipeline ends, then the screening is low: the control case', async () => {
    const id = await requestScreening();
    const a = orchestrator();
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: [result('sanctions'), result('pep')], dispatch: false });
    const { completed, report } = await outcome(id);
    assert.deepEqual([completed.riskScore, completed.riskLevel], [0, 'low']);
    assert.deepEqual(report.verdict.flags, []);
  });

  it('given the sources answered, when the risk-score step throws, then the screening completes high, flagged risk_not_scored, and says why', async () => {
    const id = await requestScreening();
    const broken = {
      countryRisk: () => {
        throw new Error('FATF table unreadable');
      },
      analyse: async () => ({ markdown: 'rules', generatedBy: 'rules' as const }),
    };
    const a = orchestrator(store, undefined, { finalisation: broken });
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: [result('sanctions'), result('pep')], dispatch: false });
    const { completed, report } = await outcome(id);
    assert.deepEqual([completed.riskScore, completed.riskLevel], [45, 'high'], 'never low 0 after an internal failure');
    assert.deepEqual([report.verdict.riskScore, report.verdict.riskLevel], [45, 'high']);
    assert.deepEqual(report.verdict.flags, ['risk_not_scored']);
    assert.match(report.verdict.reason ?? '', /^High \(45\): the risk score could not be computed \(FATF table unreadable\), so the screening fails closed/);
  });

  it('given the sanctions source never answers, when its phase expires with the retry budget spent, then the screening completes high, flagged sanctions_not_searched', async () => {
    const id = await requestScreening();
    const a = orchestrator(store, undefined, { phaseDeadlineMs: 100, retryBudget: 0 });
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: [result('pep')], dispatch: false });
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(await a.supervise(id), 'gave_up');
    const { completed, report } = await outcome(id);
    assert.deepEqual([completed.riskScore, completed.riskLevel], [45, 'high']);
    assert.ok((report.verdict.flags ?? []).includes('sanctions_not_searched'), String(report.verdict.flags));
    assert.equal(report.agents.find((e) => e.agent === 'sanctions')?.queried, false);
    assert.match(report.verdict.reason ?? '', /sanctions/i);
  });

  it('given every source answered and phase 5 reached the risk-score step, when the phase expires before that step answered (its process died), then the screening completes high, flagged risk_not_scored', async () => {
    const id = await requestScreening();
    // Phases 0-4 answered, phase 5 started and its country-risk step answered by an instance that then
    // died before the risk-score step did: the phase's deadline is past.
    for (let guard = 0; guard < 100; guard++) {
      const { state } = await loadAggregate(store, screeningDecider, streamName(id));
      const step = nextStep(state);
      const meta = { now: new Date().toISOString(), actor: { surface: 'system' as const }, commandId: `drive-${id}-${guard}` };
      if (step.action === 'start_phase') {
        // phase 5 started two seconds ago with a one-second deadline
        const started = step.phase === '5' ? { ...meta, now: new Date(Date.now() - 2000).toISOString() } : meta;
        const deadline = new Date(Date.parse(started.now) + (step.phase === '5' ? 1000 : 60_000)).toISOString();
        await handleCommand(store, screeningDecider, streamName(id), { type: 'StartPhase', data: { screeningId: id, phase: step.phase, deadline }, metadata: started });
      } else if (step.action === 'dispatch') {
        if (step.phase === '5' && step.agents[0] === 'risk_score') break;
        for (const agent of step.phase === '5' ? step.agents : step.pending) {
          const at = new Date().toISOString();
          await handleCommand(store, screeningDecider, streamName(id), {
            type: 'RecordAgentResult',
            data: { screeningId: id, phase: step.phase, agent, queried: true, result: { hits: [] }, startedAt: at, finishedAt: at },
            metadata: { ...meta, commandId: `${meta.commandId}-${agent}` },
          });
        }
      } else if (step.action === 'complete_phase') {
        await handleCommand(store, screeningDecider, streamName(id), { type: 'CompletePhase', data: { screeningId: id, phase: step.phase }, metadata: meta });
      } else assert.fail(`unexpected step ${step.action}`);
    }
    const a = orchestrator(store, undefined, { phaseDeadlineMs: 100, retryBudget: 0 });
    assert.equal(await a.supervise(id), 'gave_up');
    const { completed, report } = await outcome(id);
    assert.deepEqual([completed.riskScore, completed.riskLevel], [45, 'high'], 'never low 0 when the scorer gave no answer');
    assert.ok((report.verdict.flags ?? []).includes('risk_not_scored'), String(report.verdict.flags));
    assert.equal(report.agents.find((e) => e.agent === 'risk_score')?.queried, false);
  });

  it('given the sanctions source answers "not searched" (a stale list under the refuse policy), when the pipeline ends, then the screening completes high, flagged sanctions_not_searched', async () => {
    const id = await requestScreening();
    const a = orchestrator();
    await a.advance(id, { results: [], dispatch: true });
    await a.advance(id, { results: [result('sanctions', 'OFAC SDN List is 400 days old: refused by LISTS_STALE_POLICY'), result('pep')], dispatch: false });
    const { completed, report } = await outcome(id);
    assert.deepEqual([completed.riskScore, completed.riskLevel], [45, 'high']);
    assert.deepEqual(report.verdict.flags, ['sanctions_not_searched']);
    assert.match(report.verdict.reason ?? '', /400 days old/);
  });
});

describe('screening orchestrator: the monthly offshore-leak checks (issue 33)', () => {
  const november = '2026-11-20T10:00:00.000Z';
  let nextAccount = 500;
  const checks = () => new EventSourcedOffshoreLeakChecks({ store, clock: systemClock });
  /** How the screening's phase 1 recorded its offshore-leak agent: the reason it was not queried. */
  async function offshoreAnswer(id: string): Promise<string | undefined> {
    const started = (await store.readStream(streamName(id))).find((e) => e.type === 'PhaseStarted' && e.data.phase === '1');
    assert.ok(started, `screening ${id}: phase 1 started`);
    return (started.data as { notQueried?: { agent: string; error: string }[] }).notQueried?.find((n) => n.agent === 'offshore_leaks')?.error;
  }
  const usedIn = async (accountId: string, month: string) => (await loadAggregate(store, offshoreLeakQuotaDecider, offshoreQuotaStream(accountId, month))).state;
  /** The month's first `count` checks, used through the real command path by earlier screenings. */
  let earlier = 900_000;
  async function usedUpTo(accountId: string, month: string, count: number) {
    for (let i = 0; i < count; i++) assert.deepEqual(await checks().use({ accountId, month, screeningId: String(earlier++), limit: 100 }), { used: true });
  }
  // Here no agent serves offshore_leaks, so a screening that used its check records "no agent serves
  // offshore_leaks" and one refused by the quota records the quota's reason instead.
  const served = 'no agent serves offshore_leaks in this deployment';

  it('an S3 screening uses one check as phase 1 starts; the start decided again by another instance uses none more', async () => {
    const accountId = String(nextAccount++);
    const id = await requestScreening({ surface: 's3', accountId, requestedAt: november });
    const [a, b] = [orchestrator(), orchestrator()];
    // Two instances start the same screening at once (a rebalance, a redelivered ScreeningRequested), then again.
    await Promise.all([a.advance(id, { results: [], dispatch: true }), b.advance(id, { results: [], dispatch: true })]);
    await a.advance(id, { results: [], dispatch: true });
    const quota = await usedIn(accountId, '2026-11');
    assert.equal(quota.used, 1);
    assert.deepEqual(quota.byScreening, { [id]: 1 });
    assert.equal(await offshoreAnswer(id), served);
    await a.advance(id, { results: [result('sanctions'), result('pep')], dispatch: false });
    assert.equal((await store.readStream(streamName(id))).filter((e) => e.type === 'ScreeningCompleted').length, 1);
  });

  it('two screenings starting at once with 99 used: exactly one uses the 100th, the other runs without the offshore-leak search', async () => {
    const accountId = String(nextAccount++);
    await usedUpTo(accountId, '2026-11', 99);
    const ids = [await requestScreening({ surface: 's3', accountId, requestedAt: november }), await requestScreening({ surface: 's3', accountId, requestedAt: november })];
    const [a, b] = [orchestrator(), orchestrator()];
    await Promise.all([a.advance(ids[0]!, { results: [], dispatch: true }), b.advance(ids[1]!, { results: [], dispatch: true })]);
    const answers = await Promise.all(ids.map(offshoreAnswer));
    const reason = 'monthly offshore-leak quota used: 100 of 100, resets 2026-12-01';
    assert.deepEqual([...answers].sort(), [reason, served].sort(), JSON.stringify(answers));
    const quota = await usedIn(accountId, '2026-11');
    assert.equal(quota.used, 100);
    const winner = ids[answers.indexOf(served)]!;
    assert.equal(quota.byScreening[winner], 100);

    // The refused one still runs every other source and completes; the report names the gap and why.
    const refused = ids[answers.indexOf(reason)]!;
    for (const orch of [a, b]) await orch.advance(refused, { results: [], dispatch: true }); // decided again: nothing more used
    await a.advance(refused, { results: [result('sanctions'), result('pep')], dispatch: false });
    const events = await store.readStream(streamName(refused));
    assert.equal(events.filter((e) => e.type === 'ScreeningCompleted').length, 1);
    const report = buildScreeningReport(events, { agentLabels: {} })!;
    assert.deepEqual(report.sourcesNotSearched.filter((x) => x.source === 'offshore_leaks'), [{ source: 'offshore_leaks', reason }]);
    assert.ok(report.dataGaps.some((g) => g.code === 'not_searched:offshore_leaks' && g.description.includes(reason)), JSON.stringify(report.dataGaps));
    assert.equal((await usedIn(accountId, '2026-11')).used, 100);
  });

  it('20 screenings using a check at once with 90 used: exactly 10 get one, each once, numbered 91-100', async () => {
    const accountId = String(nextAccount++);
    await usedUpTo(accountId, '2026-11', 90);
    const screeningIds = Array.from({ length: 20 }, () => String(earlier++));
    // Each screening asks twice at once (its start decided by two instances).
    const outcomes = await Promise.all([...screeningIds, ...screeningIds].map((screeningId) => checks().use({ accountId, month: '2026-11', screeningId, limit: 100 })));
    const quota = await usedIn(accountId, '2026-11');
    assert.equal(quota.used, 100);
    const winners = screeningIds.filter((id) => quota.byScreening[id] !== undefined);
    assert.equal(winners.length, 10);
    assert.deepEqual(winners.map((id) => quota.byScreening[id]).sort((x, y) => x! - y!), Array.from({ length: 10 }, (_, i) => 91 + i));
    for (const [i, outcome] of outcomes.entries()) {
      const id = screeningIds[i % 20]!;
      if (winners.includes(id)) assert.deepEqual(outcome, { used: true }, id);
      else assert.deepEqual(outcome, { used: false, reason: 'monthly offshore-leak quota used: 100 of 100, resets 2026-12-01' }, id);
    }
    assert.equal((await store.readStream(offshoreQuotaStream(accountId, '2026-11'))).length, 100, 'one event per check');
  });

  it("counts a screening in the month it was requested in, and only S3 screenings", async () => {
    const accountId = String(nextAccount++);
    await usedUpTo(accountId, '2026-11', 100);
    const december = await requestScreening({ surface: 's3', accountId, requestedAt: '2026-12-01T00:00:01.000Z' });
    const s1 = await requestScreening({ surface: 's1', accountId, requestedAt: november });
    const a = orchestrator();
    for (const id of [december, s1]) await a.advance(id, { results: [], dispatch: true });
    assert.equal(await offshoreAnswer(december), served, "December's checks are not November's");
    assert.equal((await usedIn(accountId, '2026-12')).used, 1);
    assert.equal(await offshoreAnswer(s1), served, 'an S1 screening uses no S3 check');
    assert.equal((await usedIn(accountId, '2026-11')).used, 100);
  });
});
