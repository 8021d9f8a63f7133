/**
 * Agent workers: the agents a process runs share one consumer group, `svc-agents`, over their task
 * topics (`svc.agents.tasks.<agent>`), so `svc worker --agents sanctions,pep` scales them across
 * machines (the group's assigner gives each topic's partitions to the members subscribed to it). A
 * worker takes the tasks a partition has ready, runs each agent under its timeout, publishes the
 * outcomes to `svc.agents.results` in one produce request, keyed by the workflow stream so one
 * workflow's results stay in order, and only then commits the batch's offsets.
 * Agents only read; running one twice is harmless, and the process manager records the first result.
 *
 * The tasks of one phase of a workflow arrive together on several task topics, so in several batches
 * handled at once. A batch's results wait until no other task of the same workflows is still running
 * in this process, then go out with theirs in one call (WorkflowAnswers): the process manager then records the
 * phase's answers in one step (one append) instead of one step per batch. It cannot move on before the
 * last answer anyway, and the consumer fetches again only once every batch of the fetch is handled, so
 * holding the quick answers delays nothing; each task still runs under its own timeout.
 */
import { AGENT_RESULT, AGENT_TASK, type AgentResult, type AgentTask, type AvroRegistry } from '../../infrastructure/bus/avro';
import type { BusMessage, ConsumedMessage, MessageBus } from '../../infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic } from '../../infrastructure/bus/topics';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { Telemetry } from '../../infrastructure/telemetry/telemetry';
import { type Agent, type AgentSubject, runAgent } from './agent';
import type { TopicReader } from '../worker-consumer';

/** The consumer group agent workers had before a worker read everything on one consumer (svc-worker). */
export const AGENTS_GROUP = 'svc-agents';

/** Most tasks of one partition handed over at once. */
const MAX_TASK_BATCH = 64;

export interface AgentWorkerOptions {
  bus: MessageBus;
  registry: AvroRegistry;
  agents: Agent[];
  timeoutMs: number;
  clock: Clock;
  logger: Logger;
  /** The consume and agent hops (default: histograms only). */
  telemetry?: Telemetry;
}

/**
 * The answers of the tasks running in this process, gathered per workflow stream: a batch hands in its
 * answers for a workflow with `finished`, and the batch that finishes that workflow's last task here
 * publishes them all in one call (after one turn of the event loop, in which the other batches of a
 * fetch start), which resolves every batch that handed some in. Only a grouping: a task that starts
 * later (a batch beyond the consumer's concurrency) answers in a later call.
 */
export class WorkflowAnswers {
  private readonly running = new Map<string, number>();
  private readonly pending = new Map<string, { answers: BusMessage[]; waiters: { resolve(): void; reject(error: unknown): void }[] }>();

  constructor(private readonly publish: (answers: BusMessage[]) => Promise<void>) {}

  started(workflows: readonly string[]): void {
    for (const w of workflows) this.running.set(w, (this.running.get(w) ?? 0) + 1);
  }

  /** A batch's answers for one workflow (none if its task failed): resolves once they are published. */
  finished(workflow: string, answers: BusMessage[]): Promise<void> {
    const left = (this.running.get(workflow) ?? 1) - 1;
    if (left > 0) this.running.set(workflow, left);
    else this.running.delete(workflow);
    const pending = this.pending.get(workflow) ?? { answers: [], waiters: [] };
    this.pending.set(workflow, pending);
    pending.answers.push(...answers);
    const published = new Promise<void>((resolve, reject) => pending.waiters.push({ resolve, reject }));
    if (left <= 0) void this.publishWhenIdle(workflow);
    return published;
  }

  private async publishWhenIdle(workflow: string): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.running.has(workflow)) return; // a task of it started meanwhile: its batch publishes
    const pending = this.pending.get(workflow);
    if (!pending) return; // published by another batch's turn
    this.pending.delete(workflow);
    try {
      if (pending.answers.length > 0) await this.publish(pending.answers);
      for (const waiter of pending.waiters) waiter.resolve();
    } catch (error) {
      for (const waiter of pending.waiters) waiter.reject(error);
    }
  }
}

/** A worker's agents as a reader of their task topics (./worker-consumer.ts runs it on the process's one consumer). */
export function agentTaskReader(options: AgentWorkerOptions): TopicReader {
  const telemetry = options.telemetry ?? Telemetry.off(options.clock);
  const byTopic = new Map(options.agents.map((agent) => [agentTaskTopic(agent.name), agent]));

  /** One task: the agent's run in its own span (a child of the task's trace), and the result message. */
  const runTask = (message: ConsumedMessage): Promise<BusMessage> => {
    const agent = byTopic.get(message.topic)!;
    return telemetry.traced('consume', `consume ${message.topic}`, telemetry.received(message.headers, { 'messaging.destination.name': message.topic }), async () => {
      const task = options.registry.decode<AgentTask>(AGENT_TASK, message);
      const subject = JSON.parse(task.input) as AgentSubject;
      const timed = await telemetry.traced('agent', `agent ${agent.name}`, { attributes: { 'svc.agent': agent.name, 'svc.workflow': task.screeningId } }, () =>
        runAgent(agent, subject, { timeoutMs: options.timeoutMs, now: () => options.clock.now() }),
      );
      const { outcome } = timed;
      const result: AgentResult = {
        taskId: task.taskId,
        agent: task.agent,
        phase: task.phase,
        queried: outcome.queried,
        error: outcome.queried ? null : outcome.error,
        result: JSON.stringify(
          outcome.queried
            ? { hits: outcome.hits, ...(outcome.registry ? { registry: outcome.registry } : {}), ...(outcome.data ?? {}), durationMs: timed.durationMs }
            : { durationMs: timed.durationMs },
        ),
        startedAt: timed.startedAt,
        finishedAt: timed.finishedAt,
      };
      options.logger.debug({ agent: agent.name, workflow: task.screeningId, queried: outcome.queried, ms: timed.durationMs }, 'agent finished');
      return options.registry.message(AGENT_RESULT, task.screeningId, result, { 'x-correlation-id': task.correlationId, 'x-message-id': `${task.taskId}:result`, ...telemetry.messageHeaders() });
    });
  };

  const answers = new WorkflowAnswers((results) => options.bus.publish(AGENT_RESULTS_TOPIC, results));
  return {
    topics: [...byTopic.keys()],
    formerGroup: AGENTS_GROUP,
    async handleMessages(messages) {
      // Agents waiting on an outside source overlap; the results go out (with those of the same
      // workflows' tasks in other batches, see WorkflowAnswers), then the offsets. A task's key is its workflow's stream.
      const workflows = [...new Set(messages.map((m) => m.key))];
      answers.started(workflows);
      let results: BusMessage[];
      try {
        results = await Promise.all(messages.map(runTask));
      } catch (error) {
        // Redelivered: it hands in nothing, so the other batches of its workflows do not wait for it.
        for (const workflow of workflows) answers.finished(workflow, []).catch(() => undefined);
        throw error;
      }
      await Promise.all(workflows.map((workflow) => answers.finished(workflow, results.filter((_, i) => messages[i]!.key === workflow))));
    },
  };
}

/**
 * The agents alone on a consumer of their own, group `svc-agents` (tests and tools that run agents
 * without process managers; a worker process reads its task topics on its one consumer instead).
 */
export async function startAgentWorkers(options: AgentWorkerOptions): Promise<{ stop(): Promise<void> }> {
  const reader = agentTaskReader(options);
  if (reader.topics.length === 0) return { stop: async () => {} };
  const consumer = await options.bus.subscribeInBatches(
    { groupId: AGENTS_GROUP, topics: [...reader.topics], fromBeginning: true, maxBatch: MAX_TASK_BATCH },
    (messages) => reader.handleMessages(messages),
  );
  return { stop: () => consumer.stop() };
}
