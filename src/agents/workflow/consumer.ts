/**
 * The workflows of a process (screening, person check, subject check) on one consumer, group
 * `svc-workflows`: their aggregates' event topics and the agents' results, read once and handed to
 * each runner that reads the topic (a runner ignores the results of other workflows). One consumer
 * instead of one per workflow: each polled the results topic and decoded every result for itself.
 */
import type { BusConsumer, ConsumedMessage, MessageBus } from '../../infrastructure/bus/port';

export const WORKFLOWS_GROUP = 'svc-workflows';

/** What the consumer needs of a WorkflowRunner. */
export interface WorkflowMessageHandler {
  topics(): string[];
  handleMessages(messages: ConsumedMessage[]): Promise<void>;
}

export function startWorkflowConsumer(bus: MessageBus, runners: readonly WorkflowMessageHandler[], maxBatch = 64): Promise<BusConsumer> {
  const readers = runners.map((runner) => ({ runner, topics: new Set(runner.topics()) }));
  const topics = [...new Set(readers.flatMap((r) => [...r.topics]))];
  return bus.subscribeInBatches({ groupId: WORKFLOWS_GROUP, topics, fromBeginning: true, maxBatch }, async (messages) => {
    // A batch is one partition of one topic: the runners that read it take it at once.
    const outcomes = await Promise.allSettled(
      readers.filter((r) => r.topics.has(messages[0]!.topic)).map((r) => r.runner.handleMessages(messages)),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  });
}
