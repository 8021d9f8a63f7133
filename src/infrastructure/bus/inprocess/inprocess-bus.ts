/**
 * In-process message bus (embedded default): Kafka's consumer-group semantics without a broker.
 *
 * - A topic has a fixed number of partitions; a message goes to partition hash(key), so
 *   messages with one key keep their order.
 * - Each consumer group has its own committed position per partition and one delivery loop per
 *   partition; a partition is owned by one member of the group at a time, so each message is
 *   handled by one member of each group.
 * - The position advances only after the handler resolves. A handler that throws is logged and
 *   the same message is redelivered after a backoff; later messages of that partition wait, until
 *   the subscription's retry policy gives up: the message is published to the dead-letter topic
 *   and the position moves past it (../dead-letter.ts); with a `deadLetterSink` (embedded default:
 *   the dead_letters table) it is recorded there instead.
 * - Committed positions live as long as the bus: a consumer that stops and subscribes again in
 *   the same group resumes after the last handled message. (Nothing survives the process: in
 *   embedded mode durability comes from the event store and the relay's checkpoint.)
 * - Offsets are a per-topic counter (decimal string), increasing within every partition.
 */
import { randomUUID } from 'node:crypto';
import {
  DeferredBusMessage,
  type BatchHandler,
  type BatchSubscribeOptions,
  type BusConsumer,
  type BusMessage,
  type ConsumedMessage,
  type MessageBus,
  type MessageHandler,
  type SubscribeOptions,
} from '../port';
import { systemClock, type Clock } from '../../../shared/clock';
import { defaultRedeliveryBackoff, describeError, type BusLogger, type RedeliveryBackoff } from '../logger';
import {
  FailureTracker,
  resolveRetryPolicy,
  sendToDeadLetter,
  type DeadLetterCounter,
  type DeadLetterSink,
  type RetryPolicy,
} from '../dead-letter';
import { partitionForKey } from '../partitioner';

export interface InProcessBusOptions {
  logger: BusLogger;
  /** The time a dead letter records (default the system clock). */
  clock?: Clock;
  /** Partitions of a topic created on first use (default 4). */
  defaultPartitions?: number;
  /** Per-topic partition counts, for topics that need more or fewer. */
  topicPartitions?: Record<string, number>;
  redeliveryBackoff?: RedeliveryBackoff;
  /** Default retry policy of every subscription (attempts before dead-lettering, DLQ topic). */
  retry?: Partial<RetryPolicy>;
  /** Counts dead letters (GET /metrics). */
  deadLetters?: DeadLetterCounter;
  /**
   * Records dead letters instead of publishing them to the in-memory dead-letter topic (which is
   * lost on restart and invisible to other processes). The composition root passes the
   * dead_letters table in the embedded default. A failing record keeps the message uncommitted.
   */
  deadLetterSink?: DeadLetterSink;
  /**
   * Messages every group has consumed are dropped once more than this many pile up in a
   * partition (default 1000), so an embedded process does not grow without bound.
   */
  retainConsumed?: number;
}

interface StoredMessage {
  key: string;
  /** As published: a DeferredBusMessage is encoded only if a consumer reads its value. */
  message: BusMessage;
  headers: Record<string, string>;
  offset: bigint;
}

/** What a consumer gets: the value is read from the published message only when asked for. */
class InProcessConsumedMessage implements ConsumedMessage {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: string,
    readonly key: string,
    readonly headers: Record<string, string>,
    private readonly published: BusMessage,
  ) {}

  get value(): Buffer {
    return this.published.value;
  }
}

/** A promise that is replaced every time it fires: "something changed, look again". */
class Signal {
  private resolveCurrent!: () => void;
  private current = this.fresh();
  private fresh(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.resolveCurrent = resolve;
    });
  }
  wait(): Promise<void> {
    return this.current;
  }
  notify(): void {
    const resolve = this.resolveCurrent;
    this.current = this.fresh();
    resolve();
  }
}

class Partition {
  /** Messages still retained; `log[i]` has absolute index `trimmed + i`. */
  log: StoredMessage[] = [];
  trimmed = 0;
  get end(): number {
    return this.trimmed + this.log.length;
  }
  at(index: number): StoredMessage | undefined {
    return this.log[index - this.trimmed];
  }
}

class Topic {
  readonly partitions: Partition[];
  readonly published = new Signal();
  nextOffset = 0n;
  constructor(
    readonly name: string,
    partitionCount: number,
  ) {
    this.partitions = Array.from({ length: partitionCount }, () => new Partition());
  }
}

interface Member {
  id: string;
  topics: Set<string>;
  handler: BatchHandler;
  /** Most messages per handler call (1 for subscribe). */
  maxBatch: number;
  policy: RetryPolicy;
  stopped: boolean;
  inFlight: Set<Promise<void>>;
}

class Group {
  readonly members: Member[] = [];
  /** `${topic}\0${partition}` → absolute index of the next message to deliver. */
  readonly committed = new Map<string, number>();
  /** Delivery loops currently running, same keys. */
  readonly loops = new Set<string>();
  readonly membership = new Signal();
  constructor(readonly id: string) {}

  /** Owner of a partition: the members subscribed to the topic share its partitions round-robin. */
  owner(topic: string, partition: number): Member | undefined {
    const eligible = this.members.filter((m) => !m.stopped && m.topics.has(topic));
    if (eligible.length === 0) return undefined;
    return eligible[partition % eligible.length];
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const slot = (topic: string, partition: number) => `${topic}\0${partition}`;

export class InProcessBus implements MessageBus {
  private readonly topics = new Map<string, Topic>();
  private readonly groups = new Map<string, Group>();
  private readonly logger: BusLogger;
  private readonly backoff: RedeliveryBackoff;
  private readonly defaultPartitions: number;
  private readonly retainConsumed: number;
  private closed = false;

  constructor(private readonly options: InProcessBusOptions) {
    this.logger = options.logger;
    this.backoff = options.redeliveryBackoff ?? defaultRedeliveryBackoff;
    this.defaultPartitions = options.defaultPartitions ?? 4;
    this.retainConsumed = options.retainConsumed ?? 1000;
  }

  async publish(topicName: string, messages: BusMessage[]): Promise<void> {
    if (this.closed) throw new Error('InProcessBus is closed');
    const topic = this.topic(topicName);
    for (const message of messages) {
      if (typeof message.key !== 'string') throw new TypeError(`message key must be a string (topic ${topicName})`);
      if (!(message instanceof DeferredBusMessage) && !Buffer.isBuffer(message.value)) {
        throw new TypeError(`message value must be a Buffer (topic ${topicName})`);
      }
    }
    for (const message of messages) {
      const partition = topic.partitions[partitionForKey(message.key, topic.partitions.length)]!;
      partition.log.push({
        key: message.key,
        message,
        headers: { ...message.headers },
        offset: topic.nextOffset++,
      });
    }
    topic.published.notify();
  }

  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<BusConsumer> {
    return this.join(options, 1, (messages) => handler(messages[0]!));
  }

  subscribeInBatches(options: BatchSubscribeOptions, handler: BatchHandler): Promise<BusConsumer> {
    const maxBatch = options.maxBatch ?? 100;
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`maxBatch must be a positive integer (got ${maxBatch})`);
    return this.join(options, maxBatch, handler);
  }

  private async join(options: SubscribeOptions, maxBatch: number, handler: BatchHandler): Promise<BusConsumer> {
    if (this.closed) throw new Error('InProcessBus is closed');
    if (options.topics.length === 0) throw new Error('subscribe needs at least one topic');
    const policy = resolveRetryPolicy(this.options.retry, options.retry);
    let group = this.groups.get(options.groupId);
    if (!group) {
      group = new Group(options.groupId);
      this.groups.set(options.groupId, group);
    }
    const member: Member = {
      id: randomUUID(),
      topics: new Set(options.topics),
      handler,
      maxBatch,
      policy,
      stopped: false,
      inFlight: new Set(),
    };
    for (const topicName of member.topics) {
      const topic = this.topic(topicName);
      topic.partitions.forEach((partition, index) => {
        // A group with no committed position starts at the beginning or at the current end.
        const key = slot(topicName, index);
        if (!group.committed.has(key)) group.committed.set(key, options.fromBeginning ? partition.trimmed : partition.end);
      });
    }
    group.members.push(member);
    group.membership.notify();
    for (const topicName of member.topics) {
      const topic = this.topics.get(topicName)!;
      topic.partitions.forEach((_, index) => this.ensureLoop(group, topic, index));
    }
    this.logger.debug({ groupId: group.id, topics: options.topics, memberId: member.id }, 'in-process consumer joined');

    let stopping: Promise<void> | undefined;
    return {
      stop: () => {
        stopping ??= this.leave(group, member);
        return stopping;
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const leaving: Promise<void>[] = [];
    for (const group of this.groups.values()) {
      for (const member of [...group.members]) leaving.push(this.leave(group, member));
    }
    await Promise.all(leaving);
    for (const topic of this.topics.values()) topic.published.notify();
  }

  private async leave(group: Group, member: Member): Promise<void> {
    if (!member.stopped) {
      member.stopped = true;
      const index = group.members.indexOf(member);
      if (index >= 0) group.members.splice(index, 1);
      group.membership.notify();
    }
    // Handlers already running finish (and commit) before stop resolves.
    await Promise.allSettled([...member.inFlight]);
  }

  private topic(name: string): Topic {
    let topic = this.topics.get(name);
    if (!topic) {
      const partitions = this.options.topicPartitions?.[name] ?? this.defaultPartitions;
      if (!Number.isInteger(partitions) || partitions < 1) throw new Error(`invalid partition count for ${name}`);
      topic = new Topic(name, partitions);
      this.topics.set(name, topic);
    }
    return topic;
  }

  private ensureLoop(group: Group, topic: Topic, partitionIndex: number): void {
    const key = slot(topic.name, partitionIndex);
    if (group.loops.has(key)) return;
    group.loops.add(key);
    this.deliveryLoop(group, topic, partitionIndex).catch((error: unknown) => {
      group.loops.delete(key);
      this.logger.error({ err: describeError(error), groupId: group.id, topic: topic.name }, 'in-process delivery loop crashed');
    });
  }

  /** Delivers one partition to one group, message after message, until no member wants it. */
  private async deliveryLoop(group: Group, topic: Topic, partitionIndex: number): Promise<void> {
    const key = slot(topic.name, partitionIndex);
    const partition = topic.partitions[partitionIndex]!;
    const failures = new FailureTracker(this.backoff);
    // After a batch of several failed, its messages go one per call up to here (per-message retry and dead letters).
    let singlyUntil = 0;
    for (;;) {
      const owner = this.closed ? undefined : group.owner(topic.name, partitionIndex);
      if (!owner) {
        // Deregister synchronously so a subscribe in the same tick starts a fresh loop.
        group.loops.delete(key);
        return;
      }
      const position = group.committed.get(key)!;
      const limit = position < singlyUntil ? 1 : owner.maxBatch;
      const messages: ConsumedMessage[] = [];
      for (let stored = partition.at(position); stored && messages.length < limit; stored = partition.at(position + messages.length)) {
        messages.push(new InProcessConsumedMessage(topic.name, partitionIndex, stored.offset.toString(), stored.key, { ...stored.headers }, stored.message));
      }
      if (messages.length === 0) {
        await Promise.race([topic.published.wait(), group.membership.wait()]);
        // A batch consumer woken by the first of several messages published in this turn of the event
        // loop (the agents of a phase answering together) takes them all in one batch: the rest are
        // published a few promise steps later, before the next macrotask.
        if (owner.maxBatch > 1) await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      const message = messages[0]!;
      const attempt = (async () => {
        await owner.handler(messages);
        // Commit only after the handler resolved, and before stop() of its member resolves.
        group.committed.set(key, position + messages.length);
      })();
      owner.inFlight.add(attempt);
      try {
        await attempt;
        failures.reset();
        this.trim(topic, partitionIndex);
      } catch (error) {
        if (messages.length > 1) {
          this.logger.warn(
            { err: describeError(error), groupId: group.id, topic: topic.name, partition: partitionIndex, offset: message.offset, messages: messages.length },
            'batch handler failed; its messages are redelivered one at a time',
          );
          singlyUntil = position + messages.length;
          continue;
        }
        const decision = failures.failed(error, owner.policy);
        if (decision.action === 'dead-letter') {
          const deadLettered = this.deadLetter(group, owner, message, decision.attempts, error, key, position);
          owner.inFlight.add(deadLettered);
          try {
            await deadLettered;
            failures.reset();
          } catch (publishError) {
            this.logger.error(
              { err: describeError(publishError), groupId: group.id, topic: topic.name, partition: partitionIndex, offset: message.offset },
              'dead letter could not be published; the message stays uncommitted and is redelivered',
            );
            await sleep(this.backoff.maxMs);
          } finally {
            owner.inFlight.delete(deadLettered);
          }
          continue;
        }
        this.logger.error(
          {
            err: describeError(error),
            groupId: group.id,
            topic: topic.name,
            partition: partitionIndex,
            offset: message.offset,
            key: message.key,
            attempt: decision.attempts,
            transient: decision.transient,
            retryInMs: decision.delayMs,
          },
          'message handler failed; the message will be redelivered',
        );
        await sleep(decision.delayMs);
      } finally {
        owner.inFlight.delete(attempt);
      }
    }
  }

  /** Publishes the message to the owner's dead-letter topic, then commits past it. */
  private async deadLetter(
    group: Group,
    owner: Member,
    message: ConsumedMessage,
    attempts: number,
    error: unknown,
    key: string,
    position: number,
  ): Promise<void> {
    const sink = this.options.deadLetterSink;
    const publish = sink
      ? async (_topic: string, letters: BusMessage[]) => {
          for (const letter of letters) await sink.record(letter);
        }
      : (topic: string, letters: BusMessage[]) => this.publish(topic, letters);
    await sendToDeadLetter(publish, message, {
      groupId: group.id,
      attempts,
      error,
      policy: owner.policy,
      logger: this.logger,
      clock: this.options.clock ?? systemClock,
      ...(this.options.deadLetters ? { counter: this.options.deadLetters } : {}),
    });
    group.committed.set(key, position + 1);
  }

  /** Drops messages every group subscribed to the topic has consumed, beyond the retention slack. */
  private trim(topic: Topic, partitionIndex: number): void {
    const partition = topic.partitions[partitionIndex]!;
    if (partition.log.length <= this.retainConsumed * 2) return;
    const key = slot(topic.name, partitionIndex);
    let lowest = partition.end;
    for (const group of this.groups.values()) {
      const position = group.committed.get(key);
      if (position !== undefined && position < lowest) lowest = position;
    }
    const dropUntil = lowest - this.retainConsumed;
    if (dropUntil > partition.trimmed) {
      partition.log.splice(0, dropUntil - partition.trimmed);
      partition.trimmed = dropUntil;
    }
  }
}
