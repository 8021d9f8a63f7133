/**
 * The screening process manager. It reacts to ScreeningRequested (relayed from the event store)
 * and to agent results (from `svc.agents.results`), records each result in the screening's
 * stream, and moves the pipeline on (pure step function: nextStep in src/commands/screening).
 *
 * - Agents served by workers get an AgentTask on their topic; local steps (phase 5 finalisation,
 *   computed from the screening's own events) run here.
 * - Decisions taken together are appended together, with the expected revision: a concurrent
 *   writer makes the append fail and the whole step is re-decided on fresh state.
 * - At-least-once safe: command ids are derived from the screening and step, so a redelivered
 *   message appends nothing new, and a dispatched task that is redelivered is recorded once.
 */
import { randomUUID } from 'node:crypto';
import {
  type ScreeningCommand,
  type ScreeningEvent,
  type ScreeningState,
  screeningDecider,
  nextStep,
  streamName as screeningStream,
} from '../../commands/screening';
import { riskLevelForScore, type RiskLevel } from '../../commands/plans';
import { NotFound } from '../../commands/errors';
import type { CommandMetadata } from '../../commands/decider';
import { AGENT_RESULT, AGENT_TASK, EVENT_ENVELOPE, fromEventEnvelope, type AgentResult, type AgentTask, type AvroRegistry, type EventEnvelope } from '../../infrastructure/bus/avro';
import type { BusConsumer, ConsumedMessage, MessageBus } from '../../infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic, eventTopicForStream } from '../../infrastructure/bus/topics';
import { EVENT_TYPE_HEADER } from '../../infrastructure/relay/relay';
import { DuplicateEventIdsError } from '../../infrastructure/eventstore/errors';
import { StreamRevisionConflictError, type EventStore } from '../../infrastructure/eventstore/port';
import type { Clock } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import type { Logger } from '../../shared/logger';
import { buildScreeningReport, allHits, type ReportContext } from '../../projections/screening-report';
import type { ListVersionRef, PipelinePhase } from '../../commands/screening';
import { finalisers, type FinalisationContext } from '../finalisation/finalisers';
import { runAgent, type Agent, type AgentSubject } from '../runtime/agent';
import { internalListsOfResult } from '../lists/internal-lists';

export interface ScreeningOrchestratorOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  clock: Clock;
  logger: Logger;
  /** Agents answered by workers over the bus (those this deployment can query). */
  remoteAgents: ReadonlySet<string>;
  /** Agents run here: finalisers, and sources this deployment cannot query (they answer at once). */
  localAgents?: ReadonlyMap<string, Agent>;
  finalisation: FinalisationContext;
  agentLabels: Record<string, string>;
  /** The list versions and matcher version in service, recorded in ScreeningCompleted. */
  engineVersions: () => { listVersions: ListVersionRef[]; matcherVersion: string };
  agentTimeoutMs: number;
  /** How long a phase may run (recorded in PhaseStarted as its deadline); see src/agents/orchestrator/supervisor.ts. */
  phaseDeadlineMs: number;
  /** Re-dispatches of an overdue phase before its missing agents are recorded as not queried. */
  retryBudget: number;
}

/** What the supervisor found (and did) for one screening. */
export type SupervisionOutcome = 'on_time' | 'retried' | 'gave_up' | 'resumed' | 'ended';

const SCREENING_EVENTS_TOPIC = eventTopicForStream('screening-0');

/** What a consumed message means to the orchestrator. */
type OrchestratorInput = { kind: 'requested'; envelope: EventEnvelope } | { kind: 'result'; result: AgentResult };

type LocalOutcome = { queried: boolean; error?: string; result: Record<string, unknown> };

/** Screenings in flight whose history this orchestrator keeps between steps. */
const HISTORY_CACHE_SIZE = 2_000;

export class ScreeningOrchestrator {
  private consumer: BusConsumer | undefined;
  /**
   * The history of screenings in flight as of our last append, so each agent result does not re-read
   * the stream. Only a guess: every append carries the expected revision, so a stream another writer
   * moved makes it fail, and the step is re-decided from a fresh read.
   */
  private readonly histories = new Map<string, RecordedEvent[]>();

  constructor(private readonly options: ScreeningOrchestratorOptions) {}

  async start(): Promise<void> {
    // In batches: the agents of a phase answer at about the same time, and their results for one
    // screening are then recorded in one append (one transaction) instead of one each.
    this.consumer = await this.options.bus.subscribeInBatches(
      { groupId: 'svc-screening-orchestrator', topics: [SCREENING_EVENTS_TOPIC, AGENT_RESULTS_TOPIC], fromBeginning: true, maxBatch: 64 },
      (messages) => this.onMessages(messages),
    );
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
  }

  private subjectOf(stream: string, state: ScreeningState): AgentSubject {
    if (state.status === 'none') throw new NotFound('screening', stream);
    return {
      workflow: stream,
      accountId: state.accountId,
      name: state.subject.query,
      entityType: state.subject.entityType,
      ...(state.subject.entityTypeDefaulted ? { entityTypeDefaulted: true } : {}),
      ...(state.subject.jurisdiction ? { jurisdiction: state.subject.jurisdiction } : {}),
      ...(state.subject.dateOfBirth ? { birthDate: state.subject.dateOfBirth } : {}),
      ...(state.subject.nationality ? { nationality: state.subject.nationality } : {}),
      ...(state.subject.identifiers?.length ? { identifiers: state.subject.identifiers } : {}),
      ...(state.subject.address ? { address: state.subject.address } : {}),
    };
  }

  /**
   * One partition's ready messages. Each screening's messages are taken in order (a run of agent
   * results is recorded in one step); different screenings are advanced concurrently. Any failure
   * fails the batch, which the bus then redelivers message by message: steps are idempotent.
   */
  private async onMessages(messages: ConsumedMessage[]): Promise<void> {
    const byScreening = new Map<string, OrchestratorInput[]>();
    for (const message of messages) {
      const input = this.decodeInput(message);
      if (!input) continue;
      const stream = input.kind === 'requested' ? input.envelope.streamName : message.key;
      const list = byScreening.get(stream) ?? [];
      list.push(input);
      byScreening.set(stream, list);
    }
    const outcomes = await Promise.allSettled(
      [...byScreening].map(async ([stream, inputs]) => {
        const screeningId = stream.slice('screening-'.length);
        for (let i = 0; i < inputs.length; ) {
          const input = inputs[i]!;
          if (input.kind === 'requested') {
            this.onRequested(input.envelope);
            await this.advance(screeningId, { results: [], dispatch: true });
            i++;
            continue;
          }
          const results: AgentResult[] = [];
          for (let next = inputs[i]; next?.kind === 'result'; next = inputs[++i]) results.push(next.result);
          await this.advance(screeningId, { results, dispatch: false });
        }
      }),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private decodeInput(message: ConsumedMessage): OrchestratorInput | undefined {
    if (message.topic === AGENT_RESULTS_TOPIC) {
      if (!message.key.startsWith('screening-')) return undefined; // results of other workflows (person/subject checks)
      return { kind: 'result', result: this.options.registry.decode<AgentResult>(AGENT_RESULT, message) };
    }
    // Every screening event passes here; only ScreeningRequested matters, so the relay's type header
    // spares decoding the rest (a message without the header is decoded and checked).
    const typeHeader = message.headers[EVENT_TYPE_HEADER];
    if (typeHeader !== undefined && typeHeader !== 'ScreeningRequested') return undefined;
    const envelope = this.options.registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
    // ScreeningRequested starts the pipeline; a redelivered one re-dispatches what is still pending.
    return envelope.type === 'ScreeningRequested' ? { kind: 'requested', envelope } : undefined;
  }

  private onRequested(envelope: EventEnvelope): void {
    // The first event of its stream is the whole history so far: no read needed. (A stream that
    // moved on meanwhile makes the append's expected revision fail, and the step re-reads it.)
    if (envelope.streamPosition === 0n && !this.histories.has(envelope.streamName)) {
      this.remember(envelope.streamName, [fromEventEnvelope(envelope)]);
    }
  }

  private remember(stream: string, history: RecordedEvent[]): void {
    this.histories.set(stream, history);
    if (this.histories.size > HISTORY_CACHE_SIZE) this.histories.delete(this.histories.keys().next().value!);
  }

  /** A source answered in this process: a local agent (one this deployment cannot query), or none at all. */
  private async runLocal(agent: string, stream: string, state: ScreeningState): Promise<LocalOutcome> {
    const localAgent = this.options.localAgents?.get(agent);
    if (!localAgent) return { queried: false, error: `no agent serves ${agent} in this deployment`, result: {} };
    const timed = await runAgent(localAgent, this.subjectOf(stream, state), { timeoutMs: this.options.agentTimeoutMs, now: () => this.options.clock.now() });
    return timed.outcome.queried
      ? { queried: true, result: { hits: timed.outcome.hits, ...(timed.outcome.registry ? { registry: timed.outcome.registry } : {}), ...(timed.outcome.data ?? {}) } }
      : { queried: false, error: timed.outcome.error, result: {} };
  }

  /**
   * The supervisor's step for one running screening, decided from its stream (never from this
   * process's memory): a phase past its deadline is expired (re-dispatched within the retry budget,
   * else its missing agents are recorded as not queried); a screening stalled between steps for a
   * whole deadline (its ScreeningRequested or last result was lost with the in-process bus) is
   * moved on. Safe to run anywhere, any number of times: appends carry the expected revision.
   */
  async supervise(screeningId: string): Promise<SupervisionOutcome> {
    this.histories.delete(screeningStream(screeningId));
    return this.advance(screeningId, { results: [], dispatch: false, supervise: true });
  }

  /** The deadline a phase must meet: recorded in PhaseStarted/PhaseRetried, or start + the configured time for older streams. */
  private phaseDeadline(phase: { deadline?: string; startedAt?: string } | undefined, fallbackFrom: string): number {
    if (phase?.deadline) return Date.parse(phase.deadline);
    return Date.parse(phase?.startedAt ?? fallbackFrom) + this.options.phaseDeadlineMs;
  }

  /** Moves one screening as far as it can go without waiting for a remote agent. */
  async advance(screeningId: string, input: { results: AgentResult[]; dispatch: boolean; supervise?: boolean }): Promise<SupervisionOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.advanceOnce(screeningId, input);
      } catch (error) {
        this.histories.delete(screeningStream(screeningId));
        // A stale view (another instance moved the stream, or wrote part of what we decided): re-decide.
        if ((error instanceof StreamRevisionConflictError || error instanceof DuplicateEventIdsError) && attempt < 5) continue;
        if (error instanceof NotFound) {
          this.options.logger.warn({ screeningId }, 'agent result for an unknown screening ignored');
          return 'ended';
        }
        throw error;
      }
    }
  }

  private async advanceOnce(screeningId: string, input: { results: AgentResult[]; dispatch: boolean; supervise?: boolean }): Promise<SupervisionOutcome> {
    const stream = screeningStream(screeningId);
    const recorded = this.histories.get(stream) ?? (await this.options.store.readStream(stream));
    let state: ScreeningState = screeningDecider.initialState();
    for (const e of recorded) state = screeningDecider.evolve(state, e as unknown as ScreeningEvent);
    if (state.status === 'none') throw new NotFound('screening', screeningId);
    const history: RecordedEvent[] = [...recorded];
    const pending: ScreeningEvent[] = [];
    const nowIso = this.options.clock.now().toISOString();
    let dispatch = input.dispatch;
    let outcome: SupervisionOutcome = 'on_time';

    const apply = (command: ScreeningCommand) => {
      const events = screeningDecider.decide(command, state);
      for (const event of events) {
        state = screeningDecider.evolve(state, event);
        pending.push(event);
        history.push({ ...event, streamName: stream, streamPosition: BigInt(history.length), globalPosition: 0n, recordedAt: nowIso });
      }
    };
    const meta = (step: string): CommandMetadata => ({
      now: nowIso,
      actor: { surface: 'system' },
      commandId: `${stream}:${step}`,
      correlationId: recorded[0]?.metadata.correlationId ?? stream,
    });

    for (const r of input.results) {
      apply({
        type: 'RecordAgentResult',
        data: {
          screeningId,
          phase: r.phase as never,
          agent: r.agent,
          queried: r.queried,
          ...(r.error !== null ? { error: r.error } : {}),
          result: JSON.parse(r.result) as Record<string, unknown>,
          startedAt: r.startedAt,
          finishedAt: r.finishedAt,
        },
        metadata: meta(`result:${r.phase}:${r.agent}`),
      });
    }

    const recordLocal = (phase: PipelinePhase, agent: string, outcome: LocalOutcome, startedAt: string) =>
      apply({
        type: 'RecordAgentResult',
        data: {
          screeningId,
          phase,
          agent,
          queried: outcome.queried,
          ...(outcome.queried ? {} : { error: outcome.error ?? 'not queried' }),
          result: outcome.result,
          startedAt,
          finishedAt: this.options.clock.now().toISOString(),
        },
        metadata: meta(`result:${phase}:${agent}`),
      });

    if (input.supervise) {
      if (state.status !== 'running') return 'ended';
      const step = nextStep(state);
      const now = this.options.clock.now().getTime();
      if (step.action === 'dispatch') {
        const phase = state.phases[step.phase];
        if (now < this.phaseDeadline(phase, nowIso)) return 'on_time';
        const before = pending.length;
        apply({
          type: 'ExpirePhase',
          data: {
            screeningId,
            phase: step.phase,
            retryBudget: this.options.retryBudget,
            retryDeadline: new Date(now + this.options.phaseDeadlineMs).toISOString(),
          },
          metadata: meta(`expire:${step.phase}:${phase?.retries ?? 0}`),
        });
        outcome = pending.slice(before).some((e) => e.type === 'PhaseRetried') ? 'retried' : 'gave_up';
        this.options.logger.warn({ screeningId, phase: step.phase, outcome, agents: step.agents }, 'screening phase overdue');
      } else {
        // Between steps (nothing awaited): stalled only if nothing happened for a whole deadline.
        const last = recorded[recorded.length - 1];
        if (!last || now < Date.parse(last.recordedAt) + this.options.phaseDeadlineMs) return 'on_time';
        outcome = 'resumed';
        this.options.logger.warn({ screeningId, step: step.action }, 'stalled screening resumed');
      }
      dispatch = true;
    }

    const tasks: AgentTask[] = [];
    const reportContext: ReportContext = { agentLabels: this.options.agentLabels, matcherVersion: this.options.engineVersions().matcherVersion };
    for (let guard = 0; guard < 200; guard++) {
      const step = nextStep(state);
      if (step.action === 'none') break;
      if (step.action === 'start_phase') {
        // Sources this deployment cannot query answer at once: ask them now, so that their
        // "not queried" is recorded in PhaseStarted instead of one event each. When no agent of
        // the phase can be queried, the decider records the phase as skipped (PhaseSkipped, already
        // completed): the next step is then the next phase, with no CompletePhase.
        const plan = state.status === 'running' ? state.pipeline.find((p) => p.phase === step.phase) : undefined;
        const answeredHere: { agent: string; outcome: LocalOutcome; startedAt: string }[] = [];
        if (plan?.mode === 'parallel') {
          for (const agent of plan.agents) {
            if (this.options.remoteAgents.has(agent) || finalisers[agent] !== undefined) continue;
            const startedAt = this.options.clock.now().toISOString();
            answeredHere.push({ agent, outcome: await this.runLocal(agent, stream, state), startedAt });
          }
        }
        const notQueried = answeredHere.filter((a) => !a.outcome.queried).map((a) => ({ agent: a.agent, error: a.outcome.error ?? 'not queried' }));
        apply({
          type: 'StartPhase',
          data: {
            screeningId,
            phase: step.phase,
            ...(notQueried.length ? { notQueried } : {}),
            deadline: new Date(this.options.clock.now().getTime() + this.options.phaseDeadlineMs).toISOString(),
          },
          metadata: meta(`start:${step.phase}`),
        });
        for (const { agent, outcome, startedAt } of answeredHere.filter((a) => a.outcome.queried)) {
          recordLocal(step.phase, agent, outcome, startedAt);
        }
        dispatch = true;
        continue;
      }
      if (step.action === 'complete_phase') {
        apply({ type: 'CompletePhase', data: { screeningId, phase: step.phase }, metadata: meta(`complete:${step.phase}`) });
        continue;
      }
      if (step.action === 'complete_screening') {
        const report = buildScreeningReport(history, reportContext)!;
        const riskPayload = history
          .filter((e) => e.type === 'AgentResultRecorded' && (e.data as { agent?: string }).agent === 'risk_score')
          .map((e) => ((e.data as { result: { assessment?: { riskScore: number; riskLevel: RiskLevel } } }).result.assessment))[0];
        // Score and level both come from the scorer (src/reports/risk-score.ts), never re-derived here.
        const riskScore = riskPayload?.riskScore ?? 0;
        const riskLevel = riskPayload?.riskLevel ?? riskLevelForScore(riskScore);
        const hits = allHits(report);
        const versions = this.options.engineVersions();
        // The account's internal-list versions the sanctions agent screened against (issue 21).
        const internalVersions = history
          .filter((e) => e.type === 'AgentResultRecorded' && (e.data as { agent?: string }).agent === 'sanctions')
          .flatMap((e) => internalListsOfResult((e.data as { result?: Record<string, unknown> }).result))
          .map((v): ListVersionRef => ({ id: v.versionId, source: 'internal_list', contentHash: v.contentHash, loadedAt: v.loadedAt }));
        apply({
          type: 'CompleteScreening',
          data: {
            screeningId,
            riskScore,
            riskLevel,
            counts: {
              sanctionsHits: report.hits.sanctions.length,
              pepHits: report.hits.pep.length,
              adverseMediaHits: report.hits.adverse_media.length,
              offshoreLeaksHits: report.hits.offshore_leaks.length,
              debarmentHits: report.hits.debarment.length,
            },
            hits: hits.map((h) => ({
              hitId: h.hitId,
              entityId: h.entityId,
              category: h.category,
              source: h.source,
              matchedName: h.matchedName,
              score: h.score,
              entityRecordHash: h.entityRecordHash ?? `external:${h.entityId}`,
            })),
            ...(report.verdict.summary ? { summary: report.verdict.summary } : {}),
            ...(report.analysis ? { analysis: report.analysis.markdown } : {}),
            listVersions: [...versions.listVersions, ...internalVersions],
            matcherVersion: versions.matcherVersion,
          },
          metadata: meta('complete'),
        });
        break;
      }
      // dispatch: run local steps now; send remote ones to their workers.
      const local = step.agents.filter((agent) => !this.options.remoteAgents.has(agent) || finalisers[agent] !== undefined);
      if (local.length > 0) {
        for (const agent of local) {
          const started = this.options.clock.now().toISOString();
          const finaliser = finalisers[agent];
          const outcome: LocalOutcome = finaliser
            ? await finaliser(buildScreeningReport(history, reportContext)!, this.options.finalisation).catch((error: unknown) => ({
                queried: false,
                error: error instanceof Error ? error.message : String(error),
                result: {},
              }))
            : await this.runLocal(agent, stream, state);
          recordLocal(step.phase, agent, outcome, started);
        }
        continue;
      }
      if (dispatch) {
        const subject = this.subjectOf(stream, state);
        const deadline = new Date(this.options.clock.now().getTime() + this.options.agentTimeoutMs).toISOString();
        for (const agent of step.agents) {
          tasks.push({
            taskId: randomUUID(),
            screeningId: stream,
            subjectKind: 'screening',
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

    if (pending.length > 0) {
      const expectedRevision = recorded.length === 0 ? ('no_stream' as const) : recorded[recorded.length - 1]!.streamPosition;
      const appended = await this.options.store.appendToStream(stream, pending, { expectedRevision });
      // Nothing written (a redelivered step) or nothing left to do: the next step reads the stream.
      this.histories.delete(stream);
      if (appended.written && state.status !== 'completed' && state.status !== 'failed') this.remember(stream, history);
    }
    // Published only after the decisions are stored: a crash in between is repaired by redelivery.
    // All at once, so the agents of a phase start (and answer) together and their results can be
    // recorded in one step.
    await Promise.all(
      tasks.map((task) =>
        this.options.bus.publish(agentTaskTopic(task.agent), [
          this.options.registry.message(AGENT_TASK, stream, task, { 'x-message-id': task.taskId, 'x-correlation-id': task.correlationId }),
        ]),
      ),
    );
    return outcome;
  }
}
