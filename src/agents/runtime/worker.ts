/**
 * Agent workers: each agent is a Kafka consumer group on its own task topic
 * (`svc.agents.tasks.<agent>`), so `svc worker --agents sanctions,pep` scales them across machines.
 * A worker runs the agent under its timeout and publishes the outcome to `svc.agents.results`,
 * keyed by the workflow stream so one workflow's results stay in order.
 * Agents only read; running one twice is harmless, and the process manager records the first result.
 */
import { AGENT_RESULT, AGENT_TASK, type AgentResult, type AgentTask, type AvroRegistry } from '../../infrastructure/bus/avro';
import type { BusConsumer, MessageBus } from '../../infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic } from '../../infrastructure/bus/topics';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { Telemetry } from '../../infrastructure/telemetry/telemetry';
import { type Agent, type AgentSubject, runAgent } from './agent';

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
  // All groups join at once: on Kafka each join is a rebalance that waits for the group's members,
  // so joining one after the other would make a worker's start-up that wait times the agent count.
  const started = await Promise.allSettled(options.agents.map((agent) => startOne(agent)));
  const consumers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(consumers.map((c) => c.stop().catch(() => undefined)));
    throw failed.reason;
  }
  return {
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
    },
  };

  function startOne(agent: Agent): Promise<BusConsumer> {
    return options.bus.subscribe(
      { groupId: `svc-agent-${agent.name}`, topics: [agentTaskTopic(agent.name)], fromBeginning: true },
      (message) =>
        telemetry.traced('consume', `consume ${message.topic}`, telemetry.received(message.headers, { 'messaging.destination.name': message.topic }), async () => {
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
          await options.bus.publish(AGENT_RESULTS_TOPIC, [
            options.registry.message(AGENT_RESULT, task.screeningId, result, { 'x-correlation-id': task.correlationId, 'x-message-id': `${task.taskId}:result`, ...telemetry.messageHeaders() }),
          ]);
          options.logger.debug({ agent: agent.name, workflow: task.screeningId, queried: outcome.queried, ms: timed.durationMs }, 'agent finished');
        }),
    );
  }
}
