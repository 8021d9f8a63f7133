/**
 * A worker process reads everything it handles on one consumer, group `svc-worker`: the task topics of
 * the agents it runs and the workflows' topics (their aggregates' events, the agents' results).
 *
 * Why one: each consumer is a fetch loop, and a fetch costs the worker CPU whether or not it brings
 * anything (docs/scaling.md): two consumers per process paid it twice. And a screening's hops inside a
 * worker no longer wait for a fetch: the aligned assigner gives one member partition p of every topic,
 * so the tasks a workflow step publishes, and the results its agents publish, are on partitions this
 * consumer owns, already written when it fetches next. With two consumers each hop waited for the other
 * consumer's pending fetch (on librdkafka's mock broker, which holds an empty fetch for its whole wait,
 * up to KAFKA_FETCH_MAX_WAIT_MS per hop).
 *
 * The cost: the consumer fetches again only once every batch of a fetch is handled, so a workflow step
 * waits behind the agents' tasks of the same fetch. The list agents take milliseconds; agents that ask
 * outside services belong in a deployment of their own that runs no workflows (`svc worker --no-workflows`,
 * docker-compose.yml), where they wait only behind each other, as before.
 *
 * Upgrading from two groups: a partition this group has no committed offset for starts where the
 * group that read its topic before (`svc-agents`, `svc-workflows`) had committed (SubscribeOptions.offsetsOf).
 */
import type { BusConsumer, ConsumedMessage, MessageBus } from '../infrastructure/bus/port';

export const WORKER_GROUP = 'svc-worker';

/** Most messages of one partition handed over at once. */
const MAX_BATCH = 64;

/** Topics a part of the worker reads, and what it does with a batch of one partition of one of them. */
export interface TopicReader {
  readonly topics: readonly string[];
  /** The consumer group that read these topics before `svc-worker` (where a new deployment's offsets start). */
  readonly formerGroup: string;
  handleMessages(messages: ConsumedMessage[]): Promise<void>;
}

export function startWorkerConsumer(bus: MessageBus, readers: readonly TopicReader[]): Promise<BusConsumer> {
  const byTopic = new Map<string, TopicReader>();
  for (const reader of readers) {
    for (const topic of reader.topics) {
      if (byTopic.has(topic)) throw new Error(`topic ${topic} has two readers in one worker`);
      byTopic.set(topic, reader);
    }
  }
  if (byTopic.size === 0) return Promise.resolve({ stop: async () => {} });
  return bus.subscribeInBatches(
    {
      groupId: WORKER_GROUP,
      topics: [...byTopic.keys()],
      fromBeginning: true,
      maxBatch: MAX_BATCH,
      offsetsOf: readers.filter((r) => r.topics.length > 0).map((r) => ({ groupId: r.formerGroup, topics: [...r.topics] })),
    },
    // A batch is one partition of one topic.
    (messages) => byTopic.get(messages[0]!.topic)!.handleMessages(messages),
  );
}
