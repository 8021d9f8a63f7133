/**
 * The workflows of a process (screening, person check, subject check) as one reader of their
 * aggregates' event topics and the agents' results: each message is handed to each runner that reads
 * its topic (a runner ignores the results of other workflows), so the results topic is polled and
 * decoded once, not once per workflow. A worker process reads these topics on its one consumer
 * (../worker-consumer.ts); before that they had a group of their own, `svc-workflows`.
 */
import type { ConsumedMessage } from '../../infrastructure/bus/port';
import type { TopicReader } from '../worker-consumer';

export const WORKFLOWS_GROUP = 'svc-workflows';

/** What the reader needs of a WorkflowRunner. */
export interface WorkflowMessageHandler {
  topics(): string[];
  handleMessages(messages: ConsumedMessage[]): Promise<void>;
}

export function workflowReader(runners: readonly WorkflowMessageHandler[]): TopicReader {
  const readers = runners.map((runner) => ({ runner, topics: new Set(runner.topics()) }));
  return {
    topics: [...new Set(readers.flatMap((r) => [...r.topics]))],
    formerGroup: WORKFLOWS_GROUP,
    async handleMessages(messages) {
      // A batch is one partition of one topic: the runners that read it take it at once.
      const outcomes = await Promise.allSettled(
        readers.filter((r) => r.topics.has(messages[0]!.topic)).map((r) => r.runner.handleMessages(messages)),
      );
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
