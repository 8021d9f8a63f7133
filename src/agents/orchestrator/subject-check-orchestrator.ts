/**
 * The subject-check process manager (S2). It reacts to SubjectCheckStarted (relayed from the event
 * store to `svc.events.subject`) by sending one AgentTask per source to the same agent workers the
 * screenings use (sanctions, pep, adverse_media, offshore_leaks, debarment), records each result the
 * workers publish on `svc.agents.results` (keyed by the check's stream) in the check's stream, and,
 * once every source has answered, concludes the check with the coverage and tier scores derived from
 * the findings (src/app/subject-checks/assessment.ts); the decider applies the conclusion rule.
 *
 * - At-least-once safe: command ids derive from the stream and the step, so a redelivered message
 *   appends nothing new; a redelivered SubjectCheckStarted re-sends only the tasks still unanswered.
 * - A source that has not answered by its deadline (agent timeout + grace) is recorded as not searched
 *   ("no answer"), and the check is concluded on the sources that did answer (deadlines are timers of
 *   this process: after a restart, a redelivered SubjectCheckStarted sets them again).
 * - An internal error while recording or concluding (a malformed result, a decision the decider
 *   refuses) fails the check with an error_message that names no internals; errors of the store
 *   itself propagate so the bus redelivers the message.
 */
import { randomUUID } from 'node:crypto';
import { assess, SUBJECT_CHECK_SOURCES, type AgentResultInput } from '../../commands/subject-check/assessment';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import {
  investigationIdFor,
  streamName as subjectCheckStream,
  subjectCheckDecider,
  type SubjectCheckAgentResultRecorded,
  type SubjectCheckCommand,
  type SubjectCheckStarted,
} from '../../commands/subject-check';
import { DomainError, NotFound } from '../../commands/errors';
import { AGENT_RESULT, AGENT_TASK, EVENT_ENVELOPE, type AgentResult, type AgentTask, type AvroRegistry, type EventEnvelope } from '../../infrastructure/bus/avro';
import type { BusConsumer, ConsumedMessage, MessageBus } from '../../infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic, eventTopicForStream } from '../../infrastructure/bus/topics';
import { StreamRevisionConflictError, type EventStore } from '../../infrastructure/eventstore/port';
import type { Clock } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import type { Logger } from '../../shared/logger';
import type { AgentSubject } from '../runtime/agent';

export interface SubjectCheckOrchestratorOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  clock: Clock;
  logger: Logger;
  agentTimeoutMs: number;
  /**
   * How long after a source's own timeout its answer may still arrive before the check is concluded
   * without it (default 5 s). The workers time out themselves; this covers a worker lost after taking
   * the task, so that no check stays running for ever.
   */
  answerGraceMs?: number;
}

const STREAM_PREFIX = 'subject-check-';
const SUBJECT_CHECK_EVENTS_TOPIC = eventTopicForStream(`${STREAM_PREFIX}0`);
const PHASE = 'subject_check';
/** What an integrator reads in error_message: no internals. */
export const INTERNAL_FAILURE_MESSAGE = 'Internal error while processing the source results; the check could not be completed.';

export class SubjectCheckOrchestrator {
  private consumer: BusConsumer | undefined;
  private readonly deadlines = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: SubjectCheckOrchestratorOptions) {}

  async start(): Promise<void> {
    this.consumer = await this.options.bus.subscribe(
      { groupId: 'svc-subject-check-orchestrator', topics: [SUBJECT_CHECK_EVENTS_TOPIC, AGENT_RESULTS_TOPIC], fromBeginning: true },
      (message) => this.onMessage(message),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.deadlines.values()) clearTimeout(timer);
    this.deadlines.clear();
    await this.consumer?.stop();
  }

  /** Concludes the check without the sources that have not answered by the deadline. */
  private armDeadline(id: string): void {
    if (this.stopped || this.deadlines.has(id)) return;
    const timer = setTimeout(() => {
      this.deadlines.delete(id);
      this.guarded(id, () => this.expire(id)).catch((error: unknown) => {
        this.options.logger.error({ subjectCheckId: id, err: error }, 'subject check deadline could not be applied');
      });
    }, this.options.agentTimeoutMs + (this.options.answerGraceMs ?? 5_000));
    timer.unref();
    this.deadlines.set(id, timer);
  }

  /**
   * The supervisor's step (src/agents/orchestrator/supervisor.ts), for checks whose deadline timer
   * was lost with the process that armed it: a check still running once its sources' time (agent
   * timeout + grace, counted from SubjectCheckStarted) has passed is concluded without the sources
   * that did not answer, exactly as the timer would have.
   */
  async supervise(id: string): Promise<'on_time' | 'ended' | 'gave_up'> {
    const { state, events } = await loadAggregate(this.options.store, subjectCheckDecider, subjectCheckStream(id));
    if (state.status !== 'running') return 'ended';
    const deadline = Date.parse(events[0]?.recordedAt ?? '') + this.options.agentTimeoutMs + (this.options.answerGraceMs ?? 5_000);
    if (this.options.clock.now().getTime() < deadline) return 'on_time';
    this.options.logger.warn({ subjectCheckId: id }, 'overdue subject check concluded without the sources that did not answer');
    await this.guarded(id, () => this.expire(id));
    return 'gave_up';
  }

  private async expire(id: string): Promise<void> {
    const stream = subjectCheckStream(id);
    const { state } = await loadAggregate(this.options.store, subjectCheckDecider, stream);
    if (state.status !== 'running') return;
    const now = this.options.clock.now().toISOString();
    const waitedMs = this.options.agentTimeoutMs + (this.options.answerGraceMs ?? 5_000);
    for (const source of SUBJECT_CHECK_SOURCES) {
      if (state.agents.includes(source.agent)) continue;
      await handleCommand(this.options.store, subjectCheckDecider, stream, {
        type: 'RecordAgentResult',
        data: { subjectCheckId: id, agent: source.agent, tier: source.tier, queried: false, error: `no answer within ${waitedMs} ms`, result: {}, startedAt: now, finishedAt: now },
        metadata: this.meta(stream, `result:${source.agent}`),
      });
    }
    await this.conclude(id);
  }

  private async onMessage(message: ConsumedMessage): Promise<void> {
    if (message.topic === AGENT_RESULTS_TOPIC) {
      if (!message.key.startsWith(STREAM_PREFIX)) return; // results of other workflows
      const id = message.key.slice(STREAM_PREFIX.length);
      let result: AgentResult;
      try {
        result = this.options.registry.decode<AgentResult>(AGENT_RESULT, message);
      } catch (error) {
        await this.fail(id, error);
        return;
      }
      await this.guarded(id, () => this.record(id, result));
      return;
    }
    const envelope = this.options.registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
    if (envelope.type === 'SubjectCheckStarted' && envelope.streamName.startsWith(STREAM_PREFIX)) {
      const id = envelope.streamName.slice(STREAM_PREFIX.length);
      await this.guarded(id, () => this.dispatch(id, envelope.correlationId ?? envelope.streamName));
    }
  }

  /** Retries revision conflicts; ignores unknown checks; fails the check on any other non-store error. */
  private async guarded(id: string, step: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await step();
        return;
      } catch (error) {
        if (error instanceof StreamRevisionConflictError && attempt < 5) continue;
        if (error instanceof NotFound) {
          this.options.logger.warn({ subjectCheckId: id }, 'message for an unknown subject check ignored');
          return;
        }
        if (isProcessingError(error)) {
          await this.fail(id, error);
          return;
        }
        throw error;
      }
    }
  }

  private async fail(id: string, cause: unknown): Promise<void> {
    this.options.logger.error({ subjectCheckId: id, err: cause }, 'subject check failed: internal error');
    const stream = subjectCheckStream(id);
    const { state } = await loadAggregate(this.options.store, subjectCheckDecider, stream);
    if (state.status !== 'running') return;
    await handleCommand(this.options.store, subjectCheckDecider, stream, {
      type: 'FailSubjectCheck',
      data: { subjectCheckId: id, errorMessage: INTERNAL_FAILURE_MESSAGE },
      metadata: this.meta(stream, 'fail'),
    });
  }

  private meta(stream: string, step: string, correlationId?: string) {
    return { now: this.options.clock.now().toISOString(), actor: { surface: 'system' as const }, commandId: `${stream}:${step}`, correlationId: correlationId ?? stream };
  }

  /** Sends a task to every source that has not answered yet (all of them the first time). */
  private async dispatch(id: string, correlationId: string): Promise<void> {
    const stream = subjectCheckStream(id);
    const { state, events } = await loadAggregate(this.options.store, subjectCheckDecider, stream);
    if (state.status === 'none') throw new NotFound('subject check', id);
    if (state.status !== 'running') return;
    const started = events[0] as unknown as SubjectCheckStarted & RecordedEvent;
    const d = started.data;
    const subject: AgentSubject = {
      workflow: stream,
      accountId: d.accountId,
      name: [d.firstName, d.middleName, d.lastName].filter((part) => part !== undefined && part !== '').join(' '),
      entityType: 'individual',
      ...(d.locations[0]?.country ? { jurisdiction: d.locations[0].country } : {}),
      ...(d.dateOfBirth ? { birthDate: d.dateOfBirth } : {}),
      locations: d.locations.map((l) => l.country),
    };
    const deadline = new Date(this.options.clock.now().getTime() + this.options.agentTimeoutMs).toISOString();
    this.armDeadline(id);
    for (const source of SUBJECT_CHECK_SOURCES) {
      if (state.agents.includes(source.agent)) continue;
      const task: AgentTask = {
        taskId: randomUUID(),
        screeningId: stream,
        subjectKind: 'subject_check',
        agent: source.agent,
        phase: PHASE,
        input: JSON.stringify(subject),
        deadline,
        correlationId,
      };
      await this.options.bus.publish(agentTaskTopic(source.agent), [this.options.registry.message(AGENT_TASK, stream, task)]);
    }
  }

  /** Records one source's result; concludes the check when it was the last one. */
  private async record(id: string, r: AgentResult): Promise<void> {
    const stream = subjectCheckStream(id);
    const source = SUBJECT_CHECK_SOURCES.find((s) => s.agent === r.agent);
    if (!source) {
      this.options.logger.warn({ subjectCheckId: id, agent: r.agent }, 'result of an agent a subject check does not use ignored');
      return;
    }
    const recorded = await handleCommand(this.options.store, subjectCheckDecider, stream, {
      type: 'RecordAgentResult',
      data: {
        subjectCheckId: id,
        agent: r.agent,
        tier: source.tier,
        queried: r.queried,
        ...(r.error !== null ? { error: r.error } : {}),
        result: parseResult(r.result),
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
      },
      metadata: this.meta(stream, `result:${r.agent}`),
    });
    if (recorded.state.status !== 'running') return;
    if (!SUBJECT_CHECK_SOURCES.every((s) => recorded.state.status !== 'none' && recorded.state.agents.includes(s.agent))) return;
    await this.conclude(id);
    this.clearDeadline(id);
  }

  private clearDeadline(id: string): void {
    const timer = this.deadlines.get(id);
    if (timer) clearTimeout(timer);
    this.deadlines.delete(id);
  }

  private async conclude(id: string): Promise<void> {
    const stream = subjectCheckStream(id);
    const { state, events } = await loadAggregate(this.options.store, subjectCheckDecider, stream);
    if (state.status !== 'running') return;
    const results: AgentResultInput[] = events
      .filter((e) => e.type === 'SubjectCheckAgentResultRecorded')
      .map((e) => (e as unknown as SubjectCheckAgentResultRecorded).data);
    const assessment = assess(results, SUBJECT_CHECK_SOURCES.length);
    const command: SubjectCheckCommand = {
      type: 'ConcludeSubjectCheck',
      data: {
        subjectCheckId: id,
        overallResult: assessment.overallResult,
        confidenceLevel: assessment.confidenceLevel,
        findingsCount: assessment.findingsCount,
        redFlagCount: assessment.redFlagCount,
        warningCount: assessment.warningCount,
        sourcesSearched: assessment.sourcesSearched,
        sourcesTotal: assessment.sourcesTotal,
        tierScores: assessment.tierScores,
        bestHitAmbiguous: assessment.bestHitAmbiguous,
        investigationId: investigationIdFor(id),
      },
      metadata: this.meta(stream, 'conclude', events[0]?.metadata.correlationId),
    };
    await handleCommand(this.options.store, subjectCheckDecider, stream, command);
  }
}

function parseResult(json: string): Record<string, unknown> {
  const parsed = JSON.parse(json) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('agent result is not a JSON object');
  return parsed as Record<string, unknown>;
}

/** Errors of the check's own processing (bad data, refused decisions), as opposed to store or bus outages. */
function isProcessingError(error: unknown): boolean {
  return error instanceof DomainError || error instanceof SyntaxError || error instanceof TypeError || (error instanceof Error && error.name === 'MalformedAgentResult');
}
