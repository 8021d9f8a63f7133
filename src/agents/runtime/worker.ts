/**
 * Agent workers: the agents a process runs share one consumer group, `svc-agents`, over their task
 * topics (`svc.agents.tasks.<agent>`), so `svc worker --agents sanctions,pep` scales them across
 * machines (the group's assigner gives each topic's partitions to the members subscribed to it). A
 * worker takes the tasks a partition has ready, runs each agent under its timeout, publishes the
 * outcomes to `svc.agents.results` in one produce request, keyed by the workflow stream so one
 * workflow's results stay in order, and only then commits the batch's offsets.
 * Agents only read; running one twice is harmless, and the process manager records the first result.
 */
import { AGENT_RESULT, AGENT_TASK, type AgentResult, type AgentTask, type AvroRegistry } from '../../infrastructure/bus/avro';
import type { BusMessage, ConsumedMessage, MessageBus } from '../../infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic } from '../../infrastructure/bus/topics';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { Telemetry } from '../../infrastructure/telemetry/telemetry';
import { type Agent, type AgentSubject, runAgent } from './agent';

/** The consumer group of every agent worker. */
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

export async function startAgentWorkers(options: AgentWorkerOptions): Promise<{ stop(): Promise<void> }> {
  const telemetry = options.telemetry ?? Telemetry.off(options.clock);
  const byTopic = new Map(options.agents.map((agent) => [agentTaskTopic(agent.name), agent]));
  if (byTopic.size === 0) return { stop: async () => {} };

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

  // One group for all agents: a process polls one consumer however many agents it runs (it polled one
  // per agent, ~30 for `--agents all`, whether or not they had work).
  const consumer = await options.bus.subscribeInBatches(
    { groupId: AGENTS_GROUP, topics: [...byTopic.keys()], fromBeginning: true, maxBatch: MAX_TASK_BATCH },
    async (messages) => {
      // Agents waiting on an outside source overlap; the results go out together, then the offsets.
      const results = await Promise.all(messages.map(runTask));
      await options.bus.publish(AGENT_RESULTS_TOPIC, results);
    },
  );
  return { stop: () => consumer.stop() };
}
