/**
 * The workflow runner on its own (src/agents/workflow/runner.ts), given/when/then: a toy workflow
 * (its own small decider) declares its phases, and the tests look at what the runner appends to an
 * in-memory store (with the expected-revision and idempotent-append rules of the real one) and what
 * it publishes to workers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Command, type Decider, stamp } from '../../../src/commands/decider';
import { Conflict, NotFound } from '../../../src/commands/errors';
import type { WorkflowDefinition, SupervisionPolicy, LocalOutcome, RunContext } from '../../../src/agents/workflow/definition';
import { WorkflowRunner } from '../../../src/agents/workflow/runner';
import { DuplicateEventIdsError } from '../../../src/infrastructure/eventstore/errors';
import { StreamRevisionConflictError, type AppendResult, type EventStore, type ExpectedRevision } from '../../../src/infrastructure/eventstore/port';
import type { AgentTask } from '../../../src/infrastructure/bus/avro';
import type { Event, RecordedEvent } from '../../../src/shared/events';
import { createLogger } from '../../../src/shared/logger';

// ---- a toy workflow: a job with phases ----
type Phase = { phase: string; agents: string[]; mode: 'parallel' | 'sequential' };
type JobEvent =
  | Event<'JobRequested', { jobId: string; phases: Phase[] }>
  | Event<'JobPhaseStarted', { phase: string; deadline: string; notQueried: { agent: string; error: string }[] }>
  | Event<'JobPhaseRetried', { phase: string; deadline: string }>
  | Event<'JobResultRecorded', { phase: string; agent: string; queried: boolean; result: Record<string, unknown> }>
  | Event<'JobCompleted', { answers: number }>
  | Event<'JobFailed', { reason: string }>;
type JobCommand =
  | Command<'RecordResult', { jobId: string; phase: string; agent: string; queried: boolean; result: Record<string, unknown> }>
  | Command<'StartPhase', { jobId: string; phase: string; deadline: string; notQueried: { agent: string; error: string }[] }>
  | Command<'ExpirePhase', { jobId: string; phase: string; deadline: string }>
  | Command<'CompleteJob', { jobId: string }>
  | Command<'FailJob', { jobId: string; reason: string }>;
type JobState =
  | { status: 'none' }
  | { status: 'running' | 'completed' | 'failed'; phases: Phase[]; started: Record<string, string>; recorded: Record<string, boolean> };

const key = (phase: string, agent: string) => `${phase}/${agent}`;
const jobDecider: Decider<JobCommand, JobEvent, JobState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    if (state.status === 'none') throw new NotFound('job', 'unknown');
    if (state.status !== 'running') return [];
    switch (command.type) {
      case 'RecordResult': {
        const d = command.data;
        if (state.recorded[key(d.phase, d.agent)] !== undefined) return [];
        if (d.agent === 'refused') throw new Conflict('refused answer');
        return stamp<JobEvent>(command, [{ type: 'JobResultRecorded', data: { phase: d.phase, agent: d.agent, queried: d.queried, result: d.result } }]);
      }
      case 'StartPhase':
        return stamp<JobEvent>(command, [{ type: 'JobPhaseStarted', data: { phase: command.data.phase, deadline: command.data.deadline, notQueried: command.data.notQueried } }]);
      case 'ExpirePhase':
        return stamp<JobEvent>(command, [{ type: 'JobPhaseRetried', data: { phase: command.data.phase, deadline: command.data.deadline } }]);
      case 'CompleteJob':
        return stamp<JobEvent>(command, [{ type: 'JobCompleted', data: { answers: Object.values(state.recorded).filter(Boolean).length } }]);
      case 'FailJob':
        return stamp<JobEvent>(command, [{ type: 'JobFailed', data: { reason: command.data.reason } }]);
      default: {
        const never: never = command;
        return never;
      }
    }
  },
  evolve(state, event) {
    if (event.type === 'JobRequested') return { status: 'running', phases: event.data.phases, started: {}, recorded: {} };
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'JobPhaseStarted':
      case 'JobPhaseRetried':
        return {
          ...state,
          started: { ...state.started, [event.data.phase]: event.data.deadline },
          recorded: { ...state.recorded, ...Object.fromEntries(('notQueried' in event.data ? event.data.notQueried : []).map((n) => [key(event.data.phase, n.agent), false])) },
        };
      case 'JobResultRecorded':
        return { ...state, recorded: { ...state.recorded, [key(event.data.phase, event.data.agent)]: event.data.queried } };
      case 'JobCompleted':
        return { ...state, status: 'completed' };
      case 'JobFailed':
        return { ...state, status: 'failed' };
      default: {
        const never: never = event;
        return never;
      }
    }
  },
};

// ---- an in-memory store with the real one's append rules ----
class MemoryStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  appends = 0;
  private global = 0n;
  async readStream(stream: string): Promise<RecordedEvent[]> {
    return [...(this.streams.get(stream) ?? [])];
  }
  async appendToStream(stream: string, events: Event[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    const existing = this.streams.get(stream) ?? [];
    const ids = new Set(existing.map((e) => e.metadata.eventId));
    const known = events.filter((e) => ids.has(e.metadata.eventId));
    if (known.length === events.length) return { nextExpectedRevision: BigInt(existing.length - 1), lastGlobalPosition: this.global, written: false };
    const actual = existing.length === 0 ? ('no_stream' as const) : BigInt(existing.length - 1);
    if (options.expectedRevision !== undefined && options.expectedRevision !== 'any' && options.expectedRevision !== actual) {
      throw new StreamRevisionConflictError(stream, options.expectedRevision, actual);
    }
    if (known.length > 0) throw new DuplicateEventIdsError(stream, known.map((e) => e.metadata.eventId), 'some ids exist');
    this.appends++;
    const recorded = events.map((e, i) => ({ ...e, streamName: stream, streamPosition: BigInt(existing.length + i), globalPosition: ++this.global, recordedAt: new Date(clockMs).toISOString() }));
    this.streams.set(stream, [...existing, ...recorded]);
    return { nextExpectedRevision: BigInt(existing.length + events.length - 1), lastGlobalPosition: this.global, written: true };
  }
  types(stream: string): string[] {
    return (this.streams.get(stream) ?? []).map((e) => (e.type === 'JobResultRecorded' ? `${e.type}:${(e.data as { agent: string }).agent}` : e.type));
  }
}

let clockMs = Date.parse('2026-03-01T10:00:00.000Z');
const clock = { now: () => new Date(clockMs) };

interface ToyOptions {
  phases: Phase[];
  workers?: string[];
  startsPhases?: boolean;
  appendEachPhase?: boolean;
  supervision?: SupervisionPolicy;
  runHere?: (phase: string, agent: string, run: RunContext<JobState>) => Promise<LocalOutcome>;
  withheld?: WorkflowDefinition<JobCommand, JobEvent, JobState>['withheld'];
  recordFailures?: boolean;
}

function toy(options: ToyOptions): WorkflowDefinition<JobCommand, JobEvent, JobState> {
  const workers = new Set(options.workers ?? []);
  return {
    kind: 'screening',
    streamPrefix: 'job-',
    decider: jobDecider,
    phases: options.phases.map((p) => ({ phase: p.phase, mode: p.mode, runsOn: 'workers_when_served', emits: 'JobResultRecorded', completedBy: 'its last answer', agentTimeoutMs: 500 })),
    startedBy: 'JobRequested',
    consumer: { groupId: 'toy', answersFromWorkers: true },
    supervision: options.supervision ?? { policy: 'overall_deadline', afterMs: 60_000 },
    appendEachPhase: options.appendEachPhase ?? false,
    progress(state) {
      if (state.status === 'none') return { status: 'none', phases: [] };
      if (state.status !== 'running') return { status: 'ended', phases: [] };
      return {
        status: 'running',
        phases: state.phases.map((p) => {
          const answered = (agent: string) => state.recorded[key(p.phase, agent)] !== undefined;
          const status = options.startsPhases && state.started[p.phase] === undefined ? 'not_started' : p.agents.every(answered) ? 'completed' : 'running';
          return { phase: p.phase, agents: p.agents, mode: p.mode, status, answered };
        }),
      };
    },
    placement: (_phase, agent) => (workers.has(agent) ? 'workers' : 'here'),
    runHere: options.runHere ?? (async (phase, agent) => ({ queried: true, result: { phase, agent } })),
    ...(options.withheld ? { withheld: options.withheld } : {}),
    taskSubject: (run) => ({ subjectKind: 'screening', subject: { workflow: run.stream, name: 'Toy', entityType: 'individual' } }),
    commands: {
      recordResult: (jobId, a) =>
        a.agent === 'stranger' ? undefined : { step: `result:${a.phase}:${a.agent}`, command: { type: 'RecordResult', data: { jobId, phase: a.phase, agent: a.agent, queried: a.queried, result: a.result } } },
      ...(options.startsPhases
        ? { startPhase: (jobId: string, phase: string, notQueried: { agent: string; error: string }[], deadline: string) => ({ step: `start:${phase}`, command: { type: 'StartPhase' as const, data: { jobId, phase, deadline, notQueried } } }) }
        : {}),
      expirePhase: (run, phase, deadline) => ({ step: `expire:${phase}`, command: { type: 'ExpirePhase', data: { jobId: run.id, phase, deadline } } }),
      complete: (run) => ({ step: 'complete', command: { type: 'CompleteJob', data: { jobId: run.id } } }),
      fail: (jobId, reason) => ({ step: 'fail', command: { type: 'FailJob', data: { jobId, reason } } }),
    },
    phaseDeadline: (state, phase) => (state.status === 'none' ? Infinity : Date.parse(state.started[phase] ?? '')),
    failureReason: (error) => (options.recordFailures && error instanceof Error ? `failed: ${error.message}` : undefined),
  };
}

function setup(options: ToyOptions) {
  const store = new MemoryStore();
  const published: AgentTask[] = [];
  const bus = { publish: async (_topic: string, messages: { value: AgentTask }[]) => void published.push(...messages.map((m) => m.value)) };
  const registry = { message: (_schema: unknown, _key: string, value: AgentTask) => ({ value }) };
  const runner = new WorkflowRunner(toy(options), {
    store: store as unknown as EventStore,
    bus: bus as never,
    registry: registry as never,
    clock,
    logger: createLogger({ level: 'silent' }),
    agentTimeoutMs: 1_000,
  });
  return { store, published, runner };
}

async function given(store: MemoryStore, id: string, phases: Phase[]): Promise<void> {
  await store.appendToStream(`job-${id}`, [{ type: 'JobRequested', data: { jobId: id, phases }, metadata: { eventId: `req-${id}`, occurredAt: clock.now().toISOString(), correlationId: `corr-${id}` } }]);
}

const answer = (phase: string, agent: string, queried = true) => ({ phase, agent, queried, result: { from: agent }, startedAt: clock.now().toISOString(), finishedAt: clock.now().toISOString() });

const twoPhases: Phase[] = [
  { phase: 'search', agents: ['a', 'b'], mode: 'parallel' },
  { phase: 'finish', agents: ['x', 'y'], mode: 'sequential' },
];

describe('workflow runner', () => {
  it('given a new run whose first phase runs on workers, when it starts, then the start is recorded and one task per agent is published', async () => {
    const { store, published, runner } = setup({ phases: twoPhases, workers: ['a', 'b'], startsPhases: true });
    await given(store, '1', twoPhases);
    await runner.resume('1');
    assert.deepEqual(store.types('job-1'), ['JobRequested', 'JobPhaseStarted']);
    assert.deepEqual(published.map((t) => [t.agent, t.phase, t.screeningId, t.correlationId]), [
      ['a', 'search', 'job-1', 'corr-1'],
      ['b', 'search', 'job-1', 'corr-1'],
    ]);
  });

  it('given the phase started, when both answers arrive together, then they, the phases run here (one after the other) and the completion are one append', async () => {
    const ran: string[] = [];
    const { store, runner } = setup({ phases: twoPhases, workers: ['a', 'b'], runHere: async (_p, agent) => (ran.push(agent), { queried: true, result: {} }) });
    await given(store, '2', twoPhases);
    await runner.resume('2');
    const before = store.appends;
    await runner.advance('2', { answers: [answer('search', 'a'), answer('search', 'b')], dispatch: false });
    assert.equal(store.appends, before + 1);
    assert.deepEqual(ran, ['x', 'y']);
    assert.deepEqual(store.types('job-2'), ['JobRequested', 'JobResultRecorded:a', 'JobResultRecorded:b', 'JobResultRecorded:x', 'JobResultRecorded:y', 'JobCompleted']);
    assert.equal((store.streams.get('job-2')!.at(-1)!.data as { answers: number }).answers, 4);
  });

  it('given an answer already recorded, when it is redelivered, then nothing is appended and no task is sent again', async () => {
    const { store, published, runner } = setup({ phases: twoPhases, workers: ['a', 'b'] });
    await given(store, '3', twoPhases);
    await runner.resume('3');
    await runner.advance('3', { answers: [answer('search', 'a')], dispatch: false });
    const [appends, events, tasks] = [store.appends, store.types('job-3').length, published.length];
    await runner.advance('3', { answers: [answer('search', 'a', false)], dispatch: false });
    assert.deepEqual([store.appends, store.types('job-3').length, published.length], [appends, events, tasks]);
  });

  it('given another writer moved the stream after this runner cached it, when an answer arrives, then the step is decided again on the fresh stream', async () => {
    const phases: Phase[] = [{ phase: 'search', agents: ['a', 'b', 'c'], mode: 'parallel' }, twoPhases[1]!];
    const workers = ['a', 'b', 'c', 'x', 'y'];
    const { store, runner } = setup({ phases, workers });
    await given(store, '4', phases);
    await runner.advance('4', { answers: [answer('search', 'a')], dispatch: false }); // appended: this runner now caches the stream
    const second = new WorkflowRunner(toy({ phases, workers }), { store: store as unknown as EventStore, bus: {} as never, registry: {} as never, clock, logger: createLogger({ level: 'silent' }), agentTimeoutMs: 1_000 });
    await second.advance('4', { answers: [answer('search', 'b')], dispatch: false });
    await runner.advance('4', { answers: [answer('search', 'c')], dispatch: false }); // stale cache: conflict, re-read, decide again
    assert.deepEqual(store.types('job-4'), ['JobRequested', 'JobResultRecorded:a', 'JobResultRecorded:b', 'JobResultRecorded:c']);
  });

  it('given appendEachPhase, when a run goes through phases run here, then each phase is appended as it ends', async () => {
    const phases: Phase[] = [
      { phase: 'one', agents: ['p', 'q'], mode: 'parallel' },
      { phase: 'two', agents: ['r'], mode: 'parallel' },
    ];
    const { store, runner } = setup({ phases, appendEachPhase: true });
    await given(store, '5', phases);
    const before = store.appends;
    await runner.resume('5');
    assert.equal(store.appends - before, 3, 'phase one, phase two, the completion');
    assert.deepEqual(store.types('job-5'), ['JobRequested', 'JobResultRecorded:p', 'JobResultRecorded:q', 'JobResultRecorded:r', 'JobCompleted']);
  });

  it('given a phase whose agents cannot be queried here, when it starts, then they are recorded with the start and the run moves on', async () => {
    const phases: Phase[] = [{ phase: 'search', agents: ['a', 'local'], mode: 'parallel' }];
    const { store, published, runner } = setup({ phases, workers: ['a'], startsPhases: true, runHere: async () => ({ queried: false, error: 'no agent serves local', result: {} }) });
    await given(store, '6', phases);
    await runner.resume('6');
    const started = store.streams.get('job-6')!.find((e) => e.type === 'JobPhaseStarted')!;
    assert.deepEqual((started.data as { notQueried: unknown[] }).notQueried, [{ agent: 'local', error: 'no agent serves local' }]);
    assert.deepEqual(published.map((t) => t.agent), ['a'], 'only the pending worker agent is dispatched');
  });

  it('given an agent the run may not query (a quota used up), when its phase starts, then it is recorded with the reason and neither run here nor dispatched', async () => {
    const phases: Phase[] = [{ phase: 'search', agents: ['a', 'leaks', 'local'], mode: 'parallel' }];
    const ran: string[] = [];
    const asked: string[][] = [];
    const { store, published, runner } = setup({
      phases,
      workers: ['a', 'leaks'],
      startsPhases: true,
      runHere: async (_p, agent) => (ran.push(agent), { queried: false, error: `no agent serves ${agent}`, result: {} }),
      withheld: async (_phase, agents) => (asked.push([...agents]), [{ agent: 'leaks', error: 'monthly quota used: 100 of 100' }]),
    });
    await given(store, '6b', phases);
    await runner.resume('6b');
    const started = store.streams.get('job-6b')!.find((e) => e.type === 'JobPhaseStarted')!;
    assert.deepEqual((started.data as { notQueried: unknown[] }).notQueried, [
      { agent: 'leaks', error: 'monthly quota used: 100 of 100' },
      { agent: 'local', error: 'no agent serves local' },
    ]);
    assert.deepEqual(asked, [['a', 'leaks', 'local']], 'asked once, as the phase starts');
    assert.deepEqual(ran, ['local']);
    assert.deepEqual(published.map((t) => t.agent), ['a'], 'the withheld agent is not dispatched');
  });

  it('given the phases as declared, when an agent runs here, then it gets its phase\'s timeout; a phase the definition does not declare is refused', async () => {
    const timeouts: (number | undefined)[] = [];
    const phases: Phase[] = [{ phase: 'one', agents: ['p'], mode: 'parallel' }];
    const { store, runner } = setup({ phases, runHere: async (_p, _a, run) => (timeouts.push(run.agentTimeoutMs), { queried: true, result: {} }) });
    await given(store, '14', phases);
    await runner.resume('14');
    assert.deepEqual(timeouts, [500]);

    const undeclared = setup({ phases });
    await given(undeclared.store, '15', [{ phase: 'unknown', agents: ['p'], mode: 'parallel' }]);
    await assert.rejects(undeclared.runner.resume('15'), /phase unknown is not declared/);
  });

  it('given the overall deadline policy, when supervised before and after the deadline, then on_time, then the missing agents are recorded as not answered and the run completes', async () => {
    const { store, runner } = setup({ phases: twoPhases, workers: ['a', 'b'], supervision: { policy: 'overall_deadline', afterMs: 5_000 } });
    await given(store, '7', twoPhases);
    await runner.resume('7');
    await runner.advance('7', { answers: [answer('search', 'a')], dispatch: false });
    assert.equal(await runner.supervise('7'), 'on_time');
    clockMs += 5_001;
    assert.equal(await runner.supervise('7'), 'gave_up');
    const missing = store.streams.get('job-7')!.find((e) => e.type === 'JobResultRecorded' && (e.data as { agent: string }).agent === 'b')!;
    assert.equal((missing.data as { queried: boolean }).queried, false);
    assert.equal(store.types('job-7').at(-1), 'JobCompleted');
    assert.equal(await runner.supervise('7'), 'ended');
    await runner.stop();
  });

  it('given the phase deadline policy, when a phase is past its recorded deadline, then it is expired (retried) and re-dispatched', async () => {
    const phases: Phase[] = [{ phase: 'search', agents: ['a'], mode: 'parallel' }];
    const { store, published, runner } = setup({ phases, workers: ['a'], startsPhases: true, supervision: { policy: 'phase_deadline', deadlineMs: 10_000, retryBudget: 1, retriedBy: 'JobPhaseRetried' } });
    await given(store, '8', phases);
    await runner.resume('8');
    assert.equal(await runner.supervise('8'), 'on_time');
    clockMs += 10_001;
    assert.equal(await runner.supervise('8'), 'retried');
    assert.equal(store.types('job-8').at(-1), 'JobPhaseRetried');
    assert.equal(published.length, 2, 'the pending agent is dispatched again');
  });

  it('given the stall policy, when the run is in flight here it is left alone, and once its stream is quiet for the deadline it is resumed', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const phases: Phase[] = [{ phase: 'one', agents: ['slow'], mode: 'parallel' }];
    const { store, runner } = setup({ phases, supervision: { policy: 'stall', afterMs: 1_000 }, runHere: async () => (await gate, { queried: true, result: {} }) });
    await given(store, '9', phases);
    const running = runner.resume('9');
    clockMs += 2_000;
    assert.equal(await runner.supervise('9'), 'on_time', 'in flight in this process');
    release();
    await running;
    assert.equal(await runner.supervise('9'), 'ended');

    const restarted = setup({ phases, supervision: { policy: 'stall', afterMs: 1_000 } });
    await given(restarted.store, '10', phases);
    assert.equal(await restarted.runner.supervise('10'), 'on_time', 'not quiet for long enough');
    clockMs += 1_001;
    assert.equal(await restarted.runner.supervise('10'), 'resumed');
    await restarted.runner.stop(); // waits for the resumed run
    assert.equal(restarted.store.types('job-10').at(-1), 'JobCompleted');
  });

  it('given a step that throws, when the definition records failures, then the run is failed; otherwise the error reaches the caller', async () => {
    const phases: Phase[] = [{ phase: 'one', agents: ['a'], mode: 'parallel' }];
    const failing = setup({ phases, workers: ['a'], recordFailures: true });
    await given(failing.store, '11', phases);
    await failing.runner.advance('11', { answers: [answer('one', 'refused')], dispatch: false });
    assert.deepEqual(failing.store.types('job-11'), ['JobRequested', 'JobFailed']);
    assert.equal((failing.store.streams.get('job-11')![1]!.data as { reason: string }).reason, 'failed: refused answer');

    const throwing = setup({ phases, workers: ['a'] });
    await given(throwing.store, '12', phases);
    await assert.rejects(throwing.runner.advance('12', { answers: [answer('one', 'refused')], dispatch: false }), /refused answer/);
    assert.deepEqual(throwing.store.types('job-12'), ['JobRequested']);
  });

  it('given an answer for an unknown run, or from an agent the workflow does not use, when it arrives, then nothing is appended', async () => {
    const { store, runner } = setup({ phases: twoPhases, workers: ['a', 'b'] });
    assert.equal(await runner.advance('404', { answers: [answer('search', 'a')], dispatch: false }), 'ended');
    assert.equal(store.streams.has('job-404'), false);
    await given(store, '13', twoPhases);
    const before = store.appends;
    await runner.advance('13', { answers: [answer('search', 'stranger')], dispatch: false });
    assert.equal(store.appends, before);
  });
});
