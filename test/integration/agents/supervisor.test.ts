/**
 * Recovery of in-flight work (issue 19): agent tasks lost on the bus (as the in-process bus loses
 * them in a crash) leave a screening's phase waiting for answers that never come. The supervisor,
 * driven by the screenings read model and the screening's stream, re-dispatches the phase once it
 * is past the deadline recorded in PhaseStarted, and once the retry budget is spent records the
 * agents that still did not answer as not queried with an error, so the screening completes with
 * the data gap shown. Real PostgreSQL event store and read model, real in-process bus and worker.
 */
import { Registry } from 'prom-client';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../src/commands/command-handler';
import { ScreeningOrchestrator } from '../../../src/agents/orchestrator/screening-orchestrator';
import { EventSourcedOffshoreLeakChecks } from '../../../src/app/usage/offshore-leak-checks';
import { WorkSupervisor } from '../../../src/agents/orchestrator/supervisor';
import { startAgentWorkers } from '../../../src/agents/runtime/worker';
import type { Agent } from '../../../src/agents/runtime/agent';
import { screeningDecider, streamName } from '../../../src/commands/screening';
import { AvroRegistry, AGENT_TASK, type AgentTask } from '../../../src/infrastructure/bus/avro';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import type { MessageBus } from '../../../src/infrastructure/bus/port';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { ProjectionRunner } from '../../../src/projections/runner';
import { projectionSchema } from '../../../src/projections/projection';
import { screeningsProjection } from '../../../src/projections/read-models/screenings';
import { runningWorkQueries } from '../../../src/projections/read-models/running-work';
import { buildScreeningReport } from '../../../src/projections/screening-report';
import { verifyHashChain } from '../../../src/infrastructure/eventstore/hashChain';
import { systemClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';
import type { RecordedEvent } from '../../../src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

const logger = createLogger({ level: 'silent' });
const registry = AvroRegistry.load();
const PHASE_DEADLINE_MS = 400;
let db: TestDatabase;
let store: PostgresEventStore;
let inner: InProcessBus;
let runner: ProjectionRunner;
/** Task attempts the bus lost, and those it delivered, by agent. */
const dropped: AgentTask[] = [];
const delivered: AgentTask[] = [];
let dropAll = true;

/** The in-process bus, except that agent tasks vanish while dropAll is set (a crash between publish and consume). */
function lossyBus(): MessageBus {
  return Object.assign(Object.create(inner) as InProcessBus, {
    publish: async (topic: string, messages: Parameters<MessageBus['publish']>[1]) => {
      if (topic.startsWith('svc.agents.tasks.')) {
        const tasks = messages.map((m) => registry.decode<AgentTask>(AGENT_TASK, { ...m, topic, partition: 0, offset: '0' } as never));
        if (dropAll) {
          dropped.push(...tasks);
          return;
        }
        delivered.push(...tasks);
      }
      return inner.publish(topic, messages);
    },
  });
}

/** Sanctions answers at once; pep never answers in time (its worker is gone). */
const sanctions: Agent = { name: 'sanctions', label: 'Sanctions', run: async () => ({ queried: true, hits: [] }) };

before(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 100, logger });
  inner = new InProcessBus({ logger });
  runner = new ProjectionRunner({ pool: db.pool, store, projections: [screeningsProjection], logger, pollIntervalMs: 100 });
  await runner.start();
});
after(async () => {
  await runner?.stop();
  await inner?.close();
  await store?.close();
  await db?.drop();
});

async function requestScreening(id: string): Promise<void> {
  await handleCommand(store, screeningDecider, streamName(id), {
    type: 'RequestScreening',
    data: { screeningId: id, uuid: randomUUID(), kind: 'cdd', surface: 's1', accountId: '7', plan: 'enterprise', subject: { query: 'Margaret Thistlewood', entityType: 'individual' } },
    metadata: { now: new Date().toISOString(), actor: { surface: 's1', accountId: '7' }, commandId: `request-${id}` },
  });
}

const byType = (events: RecordedEvent[], type: string) => events.filter((e) => e.type === type);

describe('supervisor: a screening whose agent tasks were lost', () => {
  it('is re-dispatched past its deadline, then completes with the missing agent recorded as not queried', async () => {
    const bus = lossyBus();
    const orchestrator = new ScreeningOrchestrator({
      store,
      bus,
      registry,
      clock: systemClock,
      logger,
      remoteAgents: new Set(['sanctions', 'pep']),
      finalisation: { countryRisk: () => [], analyse: async () => ({ markdown: 'rules', generatedBy: 'rules' }) },
      agentLabels: {},
      engineVersions: () => ({ listVersions: [], matcherVersion: 'test' }),
      agentTimeoutMs: 100,
      phaseDeadlineMs: PHASE_DEADLINE_MS,
      retryBudget: 1,
      offshoreLeakChecks: new EventSourcedOffshoreLeakChecks({ store, clock: systemClock }),
    });
    await orchestrator.start();
    const workers = await startAgentWorkers({ bus, registry, agents: [sanctions], timeoutMs: 100, clock: systemClock, logger });
    const supervisor = new WorkSupervisor({
      clock: systemClock,
      logger,
      intervalMs: 60_000, // passes are driven by the test
      work: [{ kind: 'screening', candidates: runningWorkQueries(db.pool).screenings, minAgeMs: PHASE_DEADLINE_MS, supervise: (id) => orchestrator.supervise(id) }],
    });
    try {
      const id = '9001';
      await requestScreening(id);
      await orchestrator.advance(id, { results: [], dispatch: true }); // phase 1 starts; its tasks are lost
      await runner.applied();
      const started = byType(await store.readStream(streamName(id)), 'PhaseStarted')[0]!;
      const deadline = (started.data as { deadline?: string }).deadline;
      assert.ok(deadline, 'PhaseStarted records the deadline');
      assert.ok(Math.abs(Date.parse(deadline) - Date.parse(started.recordedAt) - PHASE_DEADLINE_MS) < 200);
      assert.deepEqual(dropped.map((t) => t.agent).sort(), ['pep', 'sanctions']);

      // Before the deadline: nothing to do, nothing overdue.
      assert.deepEqual(await supervisor.pass(), { screening: 0, person_check: 0, subject_check: 0 });
      assert.equal(byType(await store.readStream(streamName(id)), 'PhaseRetried').length, 0);

      // Past it: the phase is re-dispatched (the bus delivers again; only sanctions has a worker).
      dropAll = false;
      await new Promise((r) => setTimeout(r, Date.parse(deadline) - Date.now() + 20));
      assert.equal((await supervisor.pass()).screening, 1);
      const retried = byType(await store.readStream(streamName(id)), 'PhaseRetried');
      assert.equal(retried.length, 1);
      assert.equal((retried[0]!.data as { attempt: number }).attempt, 2);
      assert.deepEqual(delivered.map((t) => t.agent).sort(), ['pep', 'sanctions']);
      assert.ok(delivered.every((t) => !dropped.some((d) => d.taskId === t.taskId)), 'a re-dispatched task has a new task id');
      // Sanctions answers the new task; pep does not.
      for (let i = 0; i < 50 && !byType(await store.readStream(streamName(id)), 'AgentResultRecorded').some((e) => e.data.agent === 'sanctions'); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const retryDeadline = (retried[0]!.data as { deadline: string }).deadline;
      // A pass before the retry's deadline changes nothing.
      assert.equal((await supervisor.pass()).screening, 0);

      // Past the retry's deadline, the budget (1) is spent: pep is recorded as not queried and the screening completes.
      await new Promise((r) => setTimeout(r, Date.parse(retryDeadline) - Date.now() + 20));
      assert.equal((await supervisor.pass()).screening, 1);
      const events = await store.readStream(streamName(id));
      const pep = byType(events, 'AgentResultRecorded').filter((e) => e.data.agent === 'pep');
      assert.equal(pep.length, 1);
      assert.equal(pep[0]!.data.queried, false);
      assert.match(String(pep[0]!.data.error), /no answer before the phase deadline .* \(dispatched 2 times\)/);
      const sanctionsResult = byType(events, 'AgentResultRecorded').filter((e) => e.data.agent === 'sanctions');
      assert.equal(sanctionsResult.length, 1);
      assert.equal(sanctionsResult[0]!.data.queried, true);
      assert.equal(byType(events, 'ScreeningCompleted').length, 1);
      assert.equal(verifyHashChain(events).ok, true);
      // The report shows the gap: pep listed among the sources not queried, with the error.
      const report = buildScreeningReport(events, { agentLabels: {}, matcherVersion: 'test' })!;
      assert.ok(JSON.stringify(report).includes('no answer before the phase deadline'), 'the report carries the data gap');

      // The read model shows it completed, and the next pass finds nothing running.
      await runner.applied();
      assert.deepEqual(await supervisor.pass(), { screening: 0, person_check: 0, subject_check: 0 });
      const row = await db.pool.query(`SELECT status FROM ${projectionSchema('screenings')}.screenings WHERE screening_id = $1`, [id]);
      assert.equal(row.rows[0]?.status, 'completed');
      // What GET /metrics shows of the supervisor.
      const registry = new Registry();
      supervisor.registerMetrics(registry);
      const metrics = await registry.metrics();
      assert.match(metrics, /svc_supervisor_actions_total\{kind="screening",action="retried"\} 1/);
      assert.match(metrics, /svc_supervisor_actions_total\{kind="screening",action="gave_up"\} 1/);
    } finally {
      await supervisor.stop();
      await workers.stop();
      await orchestrator.stop();
    }
  });
});
