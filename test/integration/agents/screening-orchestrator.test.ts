/**
 * The screening process manager on its own (real PostgreSQL event store, in-process bus): what the
 * API tests cannot set up, i.e. two orchestrator instances racing on one screening (a consumer-group
 * rebalance) and redelivered results. Each instance keeps the history of screenings in flight
 * between steps; these tests prove that stale copy never writes a wrong or duplicate event.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../src/app/command-handler';
import { ScreeningOrchestrator } from '../../../src/agents/orchestrator/screening-orchestrator';
import { screeningDecider, streamName } from '../../../src/commands/screening';
import { AvroRegistry, type AgentResult } from '../../../src/infrastructure/bus/avro';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { verifyHashChain } from '../../../src/infrastructure/eventstore/hashChain';
import type { EventStore } from '../../../src/infrastructure/eventstore/port';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { systemClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

const logger = createLogger({ level: 'silent' });
const registry = AvroRegistry.load();
let db: TestDatabase;
let store: PostgresEventStore;
let bus: InProcessBus;
let nextId = 1;

function orchestrator(eventStore: EventStore = store): ScreeningOrchestrator {
  return new ScreeningOrchestrator({
    store: eventStore,
    bus,
    registry,
    clock: systemClock,
    logger,
    // Two sources answer over the bus; every other one is recorded as not served, here.
    remoteAgents: new Set(['sanctions', 'pep']),
    finalisation: { countryRisk: () => [], analyse: async () => ({ markdown: 'rules', generatedBy: 'rules' }) },
    agentLabels: {},
    engineVersions: () => ({ listVersions: [], matcherVersion: 'test' }),
    agentTimeoutMs: 1000,
  });
}

function result(agent: string): AgentResult {
  const now = new Date().toISOString();
  return { taskId: randomUUID(), agent, phase: '1', queried: true, error: null, result: '{"hits":[]}', startedAt: now, finishedAt: now };
}

async function requestScreening(): Promise<string> {
  const id = String(nextId++);
  await handleCommand(store, screeningDecider, streamName(id), {
    type: 'RequestScreening',
    data: { screeningId: id, uuid: randomUUID(), kind: 'cdd', surface: 's1', accountId: '7', plan: 'enterprise', subject: { query: 'Margaret Thistlewood', entityType: 'individual' } },
    metadata: { now: new Date().toISOString(), actor: { surface: 's1', accountId: '7' }, commandId: `request-${id}` },
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
});
