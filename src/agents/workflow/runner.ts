/**
 * The one workflow engine: runs any WorkflowDefinition (definition.ts) — screenings, person checks
 * and subject checks — from the bus, the supervisor and the service.
 *
 * - A step of a run: the load–decide–append loop of every command (`handleStep` in
 *   src/commands/command-handler.ts), where the decision asks the one progression rule
 *   (src/commands/workflow.ts) what comes next, again and again: start a phase, run the agents that
 *   answer here, complete a phase or the run, or dispatch agents to workers and wait. Decisions taken
 *   together are appended together with the expected revision; a concurrent writer makes the append
 *   fail and the whole step is decided again on fresh state.
 * - At-least-once safe: command ids derive from the stream and the step, so a redelivered message
 *   appends nothing new, a redelivered start re-dispatches only what is still pending, and an answer
 *   recorded twice is recorded once (the deciders keep the first).
 * - Tasks are published only after the decisions are stored: a crash in between is repaired by
 *   redelivery or by the supervisor.
 */
import { randomUUID } from 'node:crypto';
import { handleStep } from '../../commands/command-handler';
import type { Command, CommandMetadata } from '../../commands/decider';
import { NotFound } from '../../commands/errors';
import { nextWorkflowStep } from '../../commands/workflow';
import { AGENT_RESULT, AGENT_TASK, EVENT_ENVELOPE, fromEventEnvelope, type AgentResult, type AgentTask, type EventEnvelope } from '../../infrastructure/bus/avro';
import type { BusConsumer, ConsumedMessage } from '../../infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic, eventTopicForStream } from '../../infrastructure/bus/topics';
import { DuplicateEventIdsError } from '../../infrastructure/eventstore/errors';
import { StreamRevisionConflictError } from '../../infrastructure/eventstore/port';
import { EVENT_TYPE_HEADER } from '../../infrastructure/relay/relay';
import type { Event, RecordedEvent } from '../../shared/events';
import type { SupervisionResult } from '../orchestrator/supervisor';
import { Telemetry } from '../../infrastructure/telemetry/telemetry';
import { answerOf, UndecodableAnswer } from './answers';
import type { AgentAnswer, Decision, LocalOutcome, PhaseDeclaration, RunContext, StepInput, WorkflowDefinition, WorkflowRunnerOptions } from './definition';

export type { StepInput, WorkflowRunnerOptions };


/** An agent asked here as its phase starts, and what it answered. */
type AnsweredHere = { agent: string; local: LocalOutcome; startedAt: string };

type DecodedInput = { kind: 'start'; envelope: EventEnvelope } | { kind: 'answer'; answer: AgentAnswer } | { kind: 'bad_answer'; error: unknown };
type Input = ({ kind: 'start'; envelope: EventEnvelope } | { kind: 'answer'; answer: AgentAnswer } | { kind: 'bad_answer'; error: unknown }) & {
  /** The message's trace context (its header) and how long it waited on the bus. */
  traceparent: string | undefined;
  busWaitMs: number | undefined;
  topic: string;
};

/** Runs in flight whose history this runner keeps between steps. */
const HISTORY_CACHE_SIZE = 2_000;

export class WorkflowRunner<C extends Command, E extends Event, S> {
  private consumer: BusConsumer | undefined;
  /**
   * The history of runs in flight as of our last append, so each answer does not re-read the
   * stream. Only a guess: every append carries the expected revision, so a stream another writer
   * moved makes it fail, and the step is decided again from a fresh read.
   */
  private readonly histories = new Map<string, RecordedEvent[]>();
  /** Runs this process is driving now (resume): the stall policy leaves them alone. */
  private readonly inFlight = new Map<string, Promise<SupervisionResult>>();
  /** overall_deadline: the timers of runs this process dispatched. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  private readonly telemetry: Telemetry;

  constructor(
    readonly definition: WorkflowDefinition<C, E, S>,
    private readonly options: WorkflowRunnerOptions,
  ) {
    this.telemetry = options.telemetry ?? Telemetry.off(options.clock);
  }

  /** The topics this workflow reads: its aggregate's events, and the agents' results if workers answer it. */
  topics(): string[] {
    const def = this.definition;
    return [eventTopicForStream(`${def.streamPrefix}0`), ...(def.consumer.answersFromWorkers ? [AGENT_RESULTS_TOPIC] : [])];
  }

  /**
   * Consumes this workflow's topics in a group of its own. A service runs its workflows on one shared
   * consumer instead (startWorkflowConsumer in ./consumer.ts), which hands messages to handleMessages.
   */
  async start(): Promise<void> {
    const def = this.definition;
    const subscription = { groupId: def.consumer.groupId, topics: this.topics(), fromBeginning: true };
    this.consumer =
      def.consumer.maxBatch !== undefined
        ? await this.options.bus.subscribeInBatches({ ...subscription, maxBatch: def.consumer.maxBatch }, (messages) => this.handleMessages(messages))
        : await this.options.bus.subscribe(subscription, (message) => this.handleMessages([message]));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.consumer?.stop();
    await Promise.allSettled(this.inFlight.values());
  }

  private streamOf(id: string): string {
    return `${this.definition.streamPrefix}${id}`;
  }

  // ---- the bus ----

  /**
   * Ready messages of one partition. Each run's messages are taken in order (a run of answers is
   * recorded in one step); different runs move concurrently. Any failure fails the batch, which the
   * bus then redelivers message by message: steps are idempotent. Messages of other workflows (their
   * results on the shared topic) are ignored.
   */
  async handleMessages(messages: ConsumedMessage[]): Promise<void> {
    const byRun = new Map<string, Input[]>();
    for (const message of messages) {
      const decoded = this.decode(message);
      if (!decoded) continue;
      const list = byRun.get(decoded.id) ?? [];
      const { parent, attributes } = this.telemetry.received(message.headers);
      const busWaitMs = attributes?.['svc.bus_wait_ms'];
      list.push({ ...decoded.input, traceparent: parent, busWaitMs: typeof busWaitMs === 'number' ? busWaitMs : undefined, topic: message.topic });
      byRun.set(decoded.id, list);
    }
    // One consume span per run: a child of its first message, linked to the others' traces.
    const outcomes = await Promise.allSettled(
      [...byRun].map(([id, inputs]) =>
        this.telemetry.traced(
          'consume',
          `consume ${inputs[0]!.topic}`,
          {
            parent: inputs[0]!.traceparent,
            links: inputs.slice(1).map((i) => i.traceparent),
            attributes: { 'svc.workflow': this.streamOf(id), 'svc.messages': inputs.length, ...(inputs[0]!.busWaitMs !== undefined ? { 'svc.bus_wait_ms': inputs[0]!.busWaitMs } : {}) },
          },
          () => this.onRunMessages(id, inputs),
        ),
      ),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** One run's messages of a batch, in order: a start, answers (recorded together), an undecodable answer. */
  private async onRunMessages(id: string, inputs: Input[]): Promise<void> {
    for (let i = 0; i < inputs.length; ) {
      const input = inputs[i]!;
      if (input.kind === 'start') {
        this.onStarted(input.envelope);
        await this.resume(id);
        i++;
        continue;
      }
      if (input.kind === 'bad_answer') {
        await this.failOrThrow(id, input.error);
        i++;
        continue;
      }
      const answers: AgentAnswer[] = [];
      for (let next = inputs[i]; next?.kind === 'answer'; next = inputs[++i]) answers.push(next.answer);
      await this.advance(id, { answers, dispatch: false });
    }
  }

  private decode(message: ConsumedMessage): { id: string; input: DecodedInput } | undefined {
    const prefix = this.definition.streamPrefix;
    if (message.topic === AGENT_RESULTS_TOPIC) {
      if (!message.key.startsWith(prefix)) return undefined; // answers for other workflows
      const id = message.key.slice(prefix.length);
      try {
        return { id, input: { kind: 'answer', answer: answerOf(this.options.registry.decode<AgentResult>(AGENT_RESULT, message)) } };
      } catch (error) {
        return { id, input: { kind: 'bad_answer', error: new UndecodableAnswer(error) } };
      }
    }
    // Every event of the aggregate passes here; only the start matters, so the relay's type header
    // spares decoding the rest (a message without the header is decoded and checked).
    const typeHeader = message.headers[EVENT_TYPE_HEADER];
    if (typeHeader !== undefined && typeHeader !== this.definition.startedBy) return undefined;
    const envelope = this.options.registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
    if (envelope.type !== this.definition.startedBy || !envelope.streamName.startsWith(prefix)) return undefined;
    return { id: envelope.streamName.slice(prefix.length), input: { kind: 'start', envelope } };
  }

  private onStarted(envelope: EventEnvelope): void {
    // The first event of its stream is the whole history so far: no read needed. (A stream that
    // moved on meanwhile makes the append's expected revision fail, and the step re-reads it.)
    if (envelope.streamPosition === 0n && !this.histories.has(envelope.streamName)) this.remember(envelope.streamName, [fromEventEnvelope(envelope)]);
  }

  private remember(stream: string, history: RecordedEvent[]): void {
    this.histories.set(stream, history);
    if (this.histories.size > HISTORY_CACHE_SIZE) this.histories.delete(this.histories.keys().next().value!);
  }

  // ---- driving a run ----

  /** Starts or resumes a run and drives it as far as it goes here; a second call while it runs joins the first. */
  resume(id: string): Promise<SupervisionResult> {
    const running = this.inFlight.get(id);
    if (running) return running;
    const run = this.advance(id, { answers: [], dispatch: true }).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, run);
    return run;
  }

  /** Moves one run as far as it can go without waiting for a worker. */
  async advance(id: string, input: StepInput): Promise<SupervisionResult> {
    const stream = this.streamOf(id);
    try {
      let outcome: SupervisionResult = 'on_time';
      for (let first = true; ; first = false) {
        const step = await this.step(id, stream, first ? input : { answers: [], dispatch: true });
        if (first) outcome = step.outcome;
        if (!step.more) return outcome;
      }
    } catch (error) {
      this.histories.delete(stream);
      if (error instanceof NotFound) {
        this.options.logger.warn({ kind: this.definition.kind, id }, 'message for an unknown run ignored');
        return 'ended';
      }
      await this.failOrThrow(id, error);
      return 'ended';
    }
  }

  /** Records the failure the definition gives for this error, or rethrows it (the bus redelivers). */
  private async failOrThrow(id: string, error: unknown): Promise<void> {
    const reason = this.definition.failureReason(error);
    const fail = this.definition.commands.fail;
    if (reason === undefined || !fail) throw error;
    this.options.logger.error({ err: error, kind: this.definition.kind, id }, 'run failed: internal error');
    const stream = this.streamOf(id);
    this.histories.delete(stream);
    this.clearTimer(id);
    await handleStep(this.options.store, this.definition.decider, stream, (state, recorded) => {
      if (this.definition.progress(state).status !== 'running') return [];
      const decision = fail(id, reason);
      return this.definition.decider.decide(this.stampDecision(stream, decision, recorded), state);
    });
  }

  private stampDecision(stream: string, decision: Decision<C>, recorded: readonly RecordedEvent[]): C {
    const metadata: CommandMetadata = {
      now: this.options.clock.now().toISOString(),
      actor: { surface: 'system' },
      commandId: `${stream}:${decision.step}`,
      correlationId: recorded[0]?.metadata.correlationId ?? stream,
    };
    return { ...decision.command, metadata } as C;
  }

  /**
   * One load–decide–append. `more`: decisions were appended before the run reached a wait (a
   * workflow that appends each phase), so the caller takes the next step.
   */
  private async step(id: string, stream: string, input: StepInput): Promise<{ outcome: SupervisionResult; more: boolean }> {
    const def = this.definition;
    let outcome: SupervisionResult = 'on_time';
    let tasks: AgentTask[] = [];
    let more = false;
    let history: RecordedEvent[] = [];
    let finalState: S | undefined;
    const handled = await handleStep(
      this.options.store,
      def.decider,
      stream,
      async (initial, recorded) => {
        ({ outcome, tasks, more, history, state: finalState } = await this.decideStep(id, stream, initial, recorded, input));
        return history.slice(recorded.length) as unknown as E[];
      },
      {
        ...(this.histories.has(stream) ? { history: this.histories.get(stream)! } : {}),
        maxAttempts: 5,
        retryOn: (error) => error instanceof StreamRevisionConflictError || error instanceof DuplicateEventIdsError,
      },
    );
    if (handled.events.length > 0) {
      // Nothing written (a repeated step) or nothing left to do: the next step reads the stream.
      this.histories.delete(stream);
      const running = finalState !== undefined && def.progress(finalState).status === 'running';
      if (handled.written && running) this.remember(stream, history);
      if (!running) this.clearTimer(id);
    }
    if (tasks.length > 0) this.armTimer(id);
    // All at once, so the agents of a phase start (and answer) together and their answers can be
    // recorded in one step.
    await Promise.all(
      tasks.map((task) =>
        this.options.bus.publish(agentTaskTopic(task.agent), [
          this.options.registry.message(AGENT_TASK, stream, task, { 'x-message-id': task.taskId, 'x-correlation-id': task.correlationId, ...this.telemetry.messageHeaders() }),
        ]),
      ),
    );
    return { outcome, more: more && handled.events.length > 0 };
  }

  /** The decisions of one step, on the state folded from `recorded` (pure but for the agents run here). */
  private async decideStep(
    id: string,
    stream: string,
    initial: S,
    recorded: RecordedEvent[],
    input: StepInput,
  ): Promise<{ outcome: SupervisionResult; tasks: AgentTask[]; more: boolean; history: RecordedEvent[]; state: S }> {
    const def = this.definition;
    let state = initial;
    const history: RecordedEvent[] = [...recorded];
    const tasks: AgentTask[] = [];
    const done = (outcome: SupervisionResult, more = false) => ({ outcome, tasks, more, history, state });
    const progress = def.progress(state);
    if (progress.status === 'none') throw new NotFound(def.kind.replace('_', ' '), id);
    const memo = new Map<string, unknown>();
    const run = (): RunContext<S> => ({ id, stream, state, history, memo });
    const apply = (decision: Decision<C> | undefined) => {
      if (!decision) return [];
      const events = def.decider.decide(this.stampDecision(stream, decision, recorded), state);
      const nowIso = this.options.clock.now().toISOString();
      for (const event of events) {
        state = def.decider.evolve(state, event);
        history.push({ ...event, streamName: stream, streamPosition: BigInt(history.length), globalPosition: 0n, recordedAt: nowIso });
      }
      return events;
    };
    const answerOf = (phase: string, agent: string, local: LocalOutcome, startedAt: string): AgentAnswer => ({
      phase,
      agent,
      queried: local.queried,
      ...(local.queried ? {} : { error: local.error || 'not queried' }),
      result: local.result,
      startedAt,
      finishedAt: this.options.clock.now().toISOString(),
    });
    const record = (phase: string, agent: string, local: LocalOutcome, startedAt: string) => apply(def.commands.recordResult(id, answerOf(phase, agent, local, startedAt)));
    const runHere = async (phase: string, agent: string, answersBefore?: readonly AgentAnswer[]): Promise<{ local: LocalOutcome; startedAt: string }> => {
      const startedAt = this.options.clock.now().toISOString();
      const timeout = this.declared(phase).agentTimeoutMs;
      // A throw here is the run's own failure (see failureReason); agents report theirs as not queried.
      const context = { ...run(), ...(timeout !== undefined ? { agentTimeoutMs: timeout } : {}), ...(answersBefore ? { answersBefore } : {}) };
      return { local: await def.runHere(phase, agent, context), startedAt };
    };
    const tracedHere = (phase: string, agent: string, answersBefore?: readonly AgentAnswer[]) =>
      this.telemetry.traced('agent', `agent ${agent}`, { attributes: { 'svc.agent': agent, 'svc.workflow': stream } }, () => runHere(phase, agent, answersBefore));

    for (const answer of input.answers) {
      const decision = def.commands.recordResult(id, answer);
      if (!decision) this.options.logger.warn({ kind: def.kind, id, agent: answer.agent }, 'answer of an agent this workflow does not use ignored');
      apply(decision);
    }

    let dispatch = input.dispatch;
    let outcome: SupervisionResult = 'on_time';
    if (input.supervise || input.expire) {
      const supervised = this.superviseStep(id, recorded, input.expire === true, () => state, apply, record);
      if (!supervised.act) return done(supervised.result);
      outcome = supervised.result;
      dispatch = true;
    }

    // Agents answered here in a parallel phase answer at once: they are asked as the phase starts, so
    // that a source this deployment cannot query is recorded with the start instead of one event each.
    // (When no agent of the phase can be queried, the decider records the phase as skipped.) Agents
    // this run may not query (a quota used up) are recorded the same way, with their reason. Each
    // phase's are asked once per step: a phase looked at ahead (below) keeps them for its own start.
    const askedAtStart = new Map<string, AnsweredHere[]>();
    const answersAtStart = async (phase: string, agents: readonly string[], mode: string): Promise<AnsweredHere[]> => {
      const asked = askedAtStart.get(phase);
      if (asked) return asked;
      const answeredHere: AnsweredHere[] = [];
      if (mode === 'parallel') {
        const withheld = new Map(((await def.withheld?.(phase, agents, run())) ?? []).map((w) => [w.agent, w.error]));
        for (const agent of agents) {
          const reason = withheld.get(agent);
          if (reason !== undefined) answeredHere.push({ agent, local: { queried: false, error: reason, result: {} }, startedAt: this.options.clock.now().toISOString() });
          else if (this.placementOf(phase, agent) === 'here') answeredHere.push({ agent, ...(await runHere(phase, agent)) });
        }
      }
      askedAtStart.set(phase, answeredHere);
      return answeredHere;
    };
    const notQueriedOf = (answeredHere: AnsweredHere[]) => answeredHere.filter((a) => !a.local.queried).map((a) => ({ agent: a.agent, error: a.local.error || 'not queried' }));

    for (let guard = 0; guard < 200; guard++) {
      const view = def.progress(state);
      if (view.status !== 'running') break;
      const step = nextWorkflowStep(view.phases);
      if (step.action === 'start_phase' && this.declared(step.phase).recordedWhole && def.commands.completePhase) {
        // Run here from start to end in this step: one completion carries every answer.
        const answers: AgentAnswer[] = [];
        for (const agent of step.agents) {
          const { local, startedAt } = await tracedHere(step.phase, agent, answers);
          answers.push(answerOf(step.phase, agent, local, startedAt));
        }
        apply(def.commands.completePhase(id, step.phase, answers));
        if (def.appendEachPhase) return done(outcome, true);
        continue;
      }
      if (step.action === 'start_phase') {
        const notQueried = notQueriedOf(await answersAtStart(step.phase, step.agents, step.mode));
        // A skipped phase takes the skipped phases right after it into its one event (skipsTogether).
        const thenSkipped: { phase: string; notQueried: { agent: string; error: string }[] }[] = [];
        if (def.skipsTogether && notQueried.length > 0 && notQueried.length === step.agents.length) {
          for (const next of view.phases.slice(view.phases.findIndex((p) => p.phase === step.phase) + 1)) {
            if (next.status !== 'not_started' || next.mode !== 'parallel' || next.agents.length === 0) break;
            const skipped = notQueriedOf(await answersAtStart(next.phase, next.agents, next.mode));
            if (skipped.length !== next.agents.length) break;
            thenSkipped.push({ phase: next.phase, notQueried: skipped });
          }
        }
        const deadline = new Date(this.options.clock.now().getTime() + this.phaseDeadlineMs()).toISOString();
        apply(def.commands.startPhase?.(id, step.phase, notQueried, deadline, thenSkipped));
        for (const a of askedAtStart.get(step.phase)!.filter((x) => x.local.queried)) record(step.phase, a.agent, a.local, a.startedAt);
        dispatch = true;
        continue;
      }
      if (step.action === 'complete_phase') {
        apply(def.commands.completePhase?.(id, step.phase));
        continue;
      }
      if (step.action === 'complete') {
        apply(def.commands.complete(run()));
        break;
      }
      // dispatch: run the agents that answer here now; send the others to their workers.
      const here = step.agents.filter((agent) => this.placementOf(step.phase, agent) === 'here');
      if (here.length > 0) {
        const answered = await Promise.all(here.map(async (agent) => ({ agent, ...(await tracedHere(step.phase, agent)) })));
        for (const a of answered) record(step.phase, a.agent, a.local, a.startedAt);
        if (def.appendEachPhase) return done(outcome, true);
        continue;
      }
      if (dispatch) {
        const { subjectKind, subject } = def.taskSubject(run());
        const deadline = new Date(this.options.clock.now().getTime() + this.options.agentTimeoutMs).toISOString();
        for (const agent of step.agents) {
          tasks.push({
            taskId: randomUUID(),
            screeningId: stream,
            subjectKind,
            agent,
            phase: step.phase,
            input: JSON.stringify(subject),
            deadline,
            correlationId: recorded[0]?.metadata.correlationId ?? stream,
          });
        }
      }
      break;
    }
    return done(outcome);
  }

  private declared(phase: string): PhaseDeclaration {
    const declared = this.definition.phases.find((p) => p.phase === phase);
    if (!declared) throw new Error(`${this.definition.kind}: phase ${phase} is not declared`);
    return declared;
  }

  /** Where an agent of a phase runs: as its phase declares, or, when served by workers only where configured, as the definition places it. */
  private placementOf(phase: string, agent: string): 'workers' | 'here' {
    const runsOn = this.declared(phase).runsOn;
    if (runsOn !== 'workers_when_served') return runsOn;
    return this.definition.placement?.(phase, agent) ?? 'workers';
  }

  // ---- supervision ----

  private phaseDeadlineMs(): number {
    const s = this.definition.supervision;
    return s.policy === 'phase_deadline' ? s.deadlineMs : s.afterMs;
  }

  /**
   * The supervisor's look at one running item (src/agents/orchestrator/supervisor.ts), decided from
   * its stream (never from this process's memory). Safe to run anywhere, any number of times:
   * appends carry the expected revision.
   */
  async supervise(id: string): Promise<SupervisionResult> {
    const policy = this.definition.supervision.policy;
    if (policy === 'stall' && this.inFlight.has(id)) return 'on_time';
    this.histories.delete(this.streamOf(id));
    if (policy !== 'stall') return this.advance(id, { answers: [], dispatch: false, supervise: true });
    // stall: resume in the background (each agent runs under its own timeout, so the resumed run ends).
    const { state, events } = await this.load(id);
    if (this.definition.progress(state).status !== 'running') return 'ended';
    const last = events[events.length - 1];
    if (this.options.clock.now().getTime() < Date.parse(last?.recordedAt ?? '') + this.definition.supervision.afterMs) return 'on_time';
    this.options.logger.warn({ kind: this.definition.kind, id, events: events.length }, 'stalled run resumed');
    void this.resume(id).catch((error: unknown) => this.options.logger.error({ err: error, id }, 'resumed run failed'));
    return 'resumed';
  }

  private async load(id: string): Promise<{ state: S; events: RecordedEvent[] }> {
    const events = await this.options.store.readStream(this.streamOf(id));
    let state = this.definition.decider.initialState();
    for (const event of events) state = this.definition.decider.evolve(state, event as unknown as E);
    return { state, events };
  }

  /** Within a step: whether the item is overdue and was acted on, and the supervisor's verdict. */
  private superviseStep(
    id: string,
    recorded: RecordedEvent[],
    expire: boolean,
    state: () => S,
    apply: (decision: Decision<C> | undefined) => { type: string }[],
    record: (phase: string, agent: string, local: LocalOutcome, startedAt: string) => unknown,
  ): { act: boolean; result: SupervisionResult } {
    const def = this.definition;
    const policy = def.supervision;
    const view = def.progress(state());
    if (view.status !== 'running') return { act: false, result: 'ended' };
    const now = this.options.clock.now().getTime();
    const step = nextWorkflowStep(view.phases);
    if (policy.policy === 'overall_deadline') {
      if (!expire && now < Date.parse(recorded[0]?.recordedAt ?? '') + policy.afterMs) return { act: false, result: 'on_time' };
      this.options.logger.warn({ kind: def.kind, id }, 'overdue run concluded without the agents that did not answer');
      this.giveUp(record, step, policy.afterMs);
      return { act: true, result: 'gave_up' };
    }
    if (policy.policy === 'stall') return { act: false, result: 'on_time' }; // decided in supervise()
    if (step.action === 'dispatch') {
      const nowIso = new Date(now).toISOString();
      if (now < (def.phaseDeadline?.(state(), step.phase, nowIso) ?? Infinity)) return { act: false, result: 'on_time' };
      const run: RunContext<S> = { id, stream: this.streamOf(id), state: state(), history: recorded, memo: new Map() };
      const events = apply(def.commands.expirePhase?.(run, step.phase, new Date(now + policy.deadlineMs).toISOString()));
      const result = events.some((e) => e.type === policy.retriedBy) ? 'retried' : 'gave_up';
      this.options.logger.warn({ kind: def.kind, id, phase: step.phase, outcome: result, agents: step.agents }, 'phase overdue');
      return { act: true, result };
    }
    // Between steps (nothing awaited): stalled only if nothing happened for a whole deadline.
    const last = recorded[recorded.length - 1];
    if (!last || now < Date.parse(last.recordedAt) + policy.deadlineMs) return { act: false, result: 'on_time' };
    this.options.logger.warn({ kind: def.kind, id, step: step.action }, 'stalled run resumed');
    return { act: true, result: 'resumed' };
  }

  /** overall_deadline: the agents still awaited are recorded as not queried ("no answer within …"). */
  private giveUp(
    record: (phase: string, agent: string, local: LocalOutcome, startedAt: string) => unknown,
    step: ReturnType<typeof nextWorkflowStep>,
    waitedMs: number,
  ): void {
    if (step.action !== 'dispatch') return;
    const now = this.options.clock.now().toISOString();
    for (const agent of step.pending) record(step.phase, agent, { queried: false, error: `no answer within ${waitedMs} ms`, result: {} }, now);
  }

  /** overall_deadline: concludes the run without the agents that have not answered, should this process still be up. */
  private armTimer(id: string): void {
    const policy = this.definition.supervision;
    if (policy.policy !== 'overall_deadline' || this.stopped || this.timers.has(id)) return;
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.advance(id, { answers: [], dispatch: false, expire: true }).catch((error: unknown) => this.options.logger.error({ id, err: error }, 'deadline could not be applied'));
    }, policy.afterMs);
    timer.unref();
    this.timers.set(id, timer);
  }

  private clearTimer(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }
}
