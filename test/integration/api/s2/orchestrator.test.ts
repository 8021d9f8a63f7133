/**
 * The subject-check process manager on its own (real PostgreSQL event store, in-process bus), for
 * what the API tests cannot reach quickly: answer deadlines. Plus the measuring rules of
 * src/app/subject-checks/assessment.ts, table-driven.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { handleCommand } from '../../../../src/commands/command-handler';
import { assess, findingsOf, MalformedAgentResult } from '../../../../src/commands/subject-check/assessment';
import { SubjectCheckOrchestrator } from '../../../../src/agents/orchestrator/subject-check-orchestrator';
import { streamName, subjectCheckDecider } from '../../../../src/commands/subject-check';
import { AGENT_RESULT, AGENT_TASK, AvroRegistry, EVENT_ENVELOPE, toEventEnvelope, type AgentResult, type AgentTask } from '../../../../src/infrastructure/bus/avro';
import { InProcessBus } from '../../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { AGENT_RESULTS_TOPIC, agentTaskTopic, eventTopicForStream } from '../../../../src/infrastructure/bus/topics';
import { PostgresEventStore } from '../../../../src/infrastructure/eventstore/postgres/store';
import { systemClock } from '../../../../src/shared/clock';
import { createLogger } from '../../../../src/shared/logger';
import { createTestDatabase, type TestDatabase } from '../../../support/postgres';
import { waitFor } from './support';

const logger = createLogger({ level: 'silent' });
let db: TestDatabase;
let store: PostgresEventStore;
let bus: InProcessBus;
let orchestrator: SubjectCheckOrchestrator;
const registry = AvroRegistry.load();
let nextId = 1;

before(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 200, logger });
  bus = new InProcessBus({ logger });
  orchestrator = new SubjectCheckOrchestrator({ store, bus, registry, clock: systemClock, logger, agentTimeoutMs: 200, answerGraceMs: 100 });
  await orchestrator.start();
  // Only the sanctions "worker" answers; every other source stays silent.
  await bus.subscribe({ groupId: 'test-sanctions', topics: [agentTaskTopic('sanctions')], fromBeginning: true }, async (message) => {
    const task = registry.decode<AgentTask>(AGENT_TASK, message);
    const now = new Date().toISOString();
    const result: AgentResult = { taskId: task.taskId, agent: 'sanctions', phase: task.phase, queried: true, error: null, result: '{"hits":[]}', startedAt: now, finishedAt: now };
    await bus.publish(AGENT_RESULTS_TOPIC, [registry.message(AGENT_RESULT, task.screeningId, result)]);
  });
});
after(async () => {
  await orchestrator?.stop();
  await bus?.close();
  await store?.close();
  await db?.drop();
});

async function startCheck(): Promise<string> {
  const id = String(nextId++);
  const stream = streamName(id);
  await handleCommand(store, subjectCheckDecider, stream, {
    type: 'StartSubjectCheck',
    data: { subjectCheckId: id, accountId: '7', firstName: 'Margaret', lastName: 'Thistlewood', locations: [{ country: 'GB' }], purpose: 'employment', consent: { certified: true } },
    metadata: { now: new Date().toISOString(), actor: { surface: 's2', accountId: '7' }, commandId: `start-${id}` },
  });
  // What the relay does: the stored event onto its category topic.
  const [started] = await store.readStream(stream);
  await bus.publish(eventTopicForStream(stream), [registry.message(EVENT_ENVELOPE, stream, toEventEnvelope(started!))]);
  return stream;
}

describe('answer deadlines', () => {
  it('a check whose deadline timer died with its process is concluded by the supervisor, from the store', async () => {
    // Started, but never relayed to a process manager (the relay had passed it when the process died):
    // no task was sent and no timer armed anywhere.
    const id = String(nextId++);
    const stream = streamName(id);
    await handleCommand(store, subjectCheckDecider, stream, {
      type: 'StartSubjectCheck',
      data: { subjectCheckId: id, accountId: '7', firstName: 'Ada', lastName: 'Overdue', locations: [{ country: 'GB' }], purpose: 'employment', consent: { certified: true } },
      metadata: { now: new Date().toISOString(), actor: { surface: 's2', accountId: '7' }, commandId: `start-${id}` },
    });
    const restarted = new SubjectCheckOrchestrator({ store, bus, registry, clock: systemClock, logger, agentTimeoutMs: 200, answerGraceMs: 100 });
    assert.equal(await restarted.supervise(id), 'on_time', 'before agent timeout + grace: left alone');
    assert.equal((await store.readStream(stream)).length, 1);
    await new Promise((r) => setTimeout(r, 350));
    assert.equal(await restarted.supervise(id), 'gave_up');
    const events = await store.readStream(stream);
    const results = events.filter((e) => e.type === 'SubjectCheckAgentResultRecorded').map((e) => e.data as { agent: string; queried: boolean; error?: string });
    assert.equal(results.length, 5);
    assert.ok(results.every((r) => !r.queried && /no answer within 300 ms/.test(r.error ?? '')), 'every source recorded as not searched, with the reason');
    assert.ok(events.some((e) => e.type === 'SubjectCheckReviewRequired'), 'concluded (needs review: no source coverage)');
    assert.equal(await restarted.supervise(id), 'ended', 'a concluded check is left alone');
  });

  it('a check whose sources never answer is concluded on the ones that did, the others recorded as not searched', async () => {
    const stream = await startCheck();
    const events = await waitFor('the check to be concluded', async () => {
      const all = await store.readStream(stream);
      return all.some((e) => e.type === 'SubjectCheckReviewRequired') ? all : undefined;
    }, 5_000);
    const results = events.filter((e) => e.type === 'SubjectCheckAgentResultRecorded').map((e) => e.data as { agent: string; queried: boolean; error?: string });
    assert.deepEqual(results.map((r) => r.agent).sort(), ['adverse_media', 'debarment', 'offshore_leaks', 'pep', 'sanctions']);
    assert.ok(results.filter((r) => r.agent !== 'sanctions').every((r) => !r.queried && /no answer within 300 ms/.test(r.error ?? '')));
    const review = events.find((e) => e.type === 'SubjectCheckReviewRequired')!.data as { reviewReason: string; sourcesSearched: number; sourcesTotal: number };
    assert.deepEqual([review.reviewReason, review.sourcesSearched, review.sourcesTotal], ['insufficient_source_coverage', 1, 5]);
  });

  it('a late answer after the deadline changes nothing', async () => {
    const stream = await startCheck();
    await waitFor('conclusion', async () => ((await store.readStream(stream)).some((e) => e.type === 'SubjectCheckReviewRequired') ? true : undefined), 5_000);
    const before = (await store.readStream(stream)).length;
    const now = new Date().toISOString();
    await bus.publish(AGENT_RESULTS_TOPIC, [
      registry.message(AGENT_RESULT, stream, { taskId: 'late', agent: 'pep', phase: 'subject_check', queried: true, error: null, result: '{"hits":[]}', startedAt: now, finishedAt: now } satisfies AgentResult),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await store.readStream(stream)).length, before);
  });
});

describe('assessment rules', () => {
  const hit = (score: number, entityId = 'e1', source = 'ofac_sdn') => ({ source, entityId, entityName: 'NAME', matchedName: 'NAME', score });
  /** A hit whose identity the list agent corroborated (src/reports/confirmation.ts): confirmed, not by its score. */
  const confirmedHit = (score: number, entityId = 'e1', source = 'ofac_sdn') => ({
    ...hit(score, entityId, source),
    assessment: 'identity_corroborated',
    confirmation: { basis: 'date_of_birth', detail: 'date of birth 1960-01-01 equals listed 01 Jan 1960' },
  });
  const searched = (agent: string, hits: object[] = []) => ({ agent, queried: true, result: { hits } });
  const missing = (agent: string) => ({ agent, queried: false, error: 'not configured', result: {} });

  const cases: [string, ReturnType<typeof searched | typeof missing>[], Partial<ReturnType<typeof assess>>][] = [
    ['all five searched, no hit', ['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment'].map((a) => searched(a)), { overallResult: 'clean', confidenceLevel: 'high', bestHitAmbiguous: false, sourcesSearched: 5, riskLevel: 'low' }],
    // Fail closed (issue 27 §4): without the sanctions lists the check is neither clean nor low, whatever the coverage.
    ['four of five searched, the sanctions lists not (an error): not clean, high', [missing('sanctions'), ...['pep', 'adverse_media', 'offshore_leaks', 'debarment'].map((a) => searched(a))], { overallResult: 'inconclusive', riskLevel: 'high', riskScore: 45 }],
    ['four of five searched, the sanctions lists never answered (the deadline): not clean, high', ['pep', 'adverse_media', 'offshore_leaks', 'debarment'].map((a) => searched(a)), { overallResult: 'inconclusive', riskLevel: 'high', riskScore: 45 }],
    ['the offshore leaks not searched (a quota, issue 33) is coverage, not a failure: clean, low', [missing('offshore_leaks'), ...['sanctions', 'pep', 'adverse_media', 'debarment'].map((a) => searched(a))], { overallResult: 'clean', riskLevel: 'low' }],
    ['three of five searched, no hit', [searched('sanctions'), searched('offshore_leaks'), searched('debarment'), missing('pep'), missing('adverse_media')], { overallResult: 'clean', confidenceLevel: 'medium' }],
    ['two of five searched, no hit: not clean', [searched('sanctions'), searched('debarment'), missing('pep'), missing('adverse_media'), missing('offshore_leaks')], { overallResult: 'inconclusive', confidenceLevel: 'low' }],
    ['a confirmed sanctions hit is a red flag', [searched('sanctions', [confirmedHit(0.97)]), searched('offshore_leaks'), searched('debarment'), missing('pep'), missing('adverse_media')], { overallResult: 'adverse_found', redFlagCount: 1, warningCount: 0, tierScores: { sanctions: 97, offshore_leaks: 0, debarment: 0 }, bestHitAmbiguous: false }],
    ['a potential hit is a warning and ambiguous', [searched('sanctions', [hit(0.86)]), searched('offshore_leaks'), searched('debarment')], { overallResult: 'inconclusive', redFlagCount: 0, warningCount: 1, bestHitAmbiguous: true }],
    ['two entities within 0.02 are ambiguous', [searched('sanctions', [hit(0.97, 'a'), hit(0.96, 'b')]), searched('offshore_leaks'), searched('debarment')], { bestHitAmbiguous: true, findingsCount: 2 }],
    ['a sanctions name match alone (0.97, nothing corroborates it) is a warning', [searched('sanctions', [hit(0.97)]), searched('offshore_leaks'), searched('debarment')], { overallResult: 'inconclusive', redFlagCount: 0, warningCount: 1, riskLevel: 'high' }],
    ['two entities 0.05 apart are not', [searched('sanctions', [confirmedHit(0.99, 'a'), hit(0.94, 'b')]), searched('offshore_leaks'), searched('debarment')], { bestHitAmbiguous: false }],
    ['a confirmed offshore-leaks hit is only a warning', [searched('offshore_leaks', [hit(0.99, 'x', 'icij_offshore')]), searched('sanctions'), searched('debarment')], { redFlagCount: 0, warningCount: 1, overallResult: 'inconclusive' }],
  ];
  for (const [name, results, expected] of cases) {
    it(name, () => {
      const got = assess(results, 5);
      for (const [field, value] of Object.entries(expected)) assert.deepEqual(got[field as keyof typeof got], value, field);
    });
  }

  it('a result that is not what an agent produces is refused, so the check fails instead of passing as clean', () => {
    for (const result of [{}, { hits: 'none' }, { hits: [null] }, { hits: [{ ...hit(0.9), score: 7 }] }, { hits: [{ ...hit(0.9), entityName: 3 }] }]) {
      assert.throws(() => findingsOf({ agent: 'sanctions', queried: true, result }), MalformedAgentResult, JSON.stringify(result));
    }
    assert.deepEqual(findingsOf({ agent: 'pep', queried: false, error: 'down', result: {} }), []);
  });
});
