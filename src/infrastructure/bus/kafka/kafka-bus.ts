/**
 * kafkajs adapter (scaled mode).
 *
 * Consumers run with `autoCommit: false` and commit a message's offset only after its handler
 * resolved; the commits of batches that finish in the same turn of the event loop share one
 * OffsetCommit request (a worker sent ~5.6 per screening, one per batch, each a socket write). A handler that throws is logged and retried on the same message with a growing
 * backoff, heartbeating in between so the member keeps its partitions; if the group rebalances
 * meanwhile, the uncommitted message goes to the partition's next owner. After the subscription's
 * retry policy is exhausted (non-transient failures only, ../dead-letter.ts) the message is
 * published to the dead-letter topic and then committed. Either way a message is never lost:
 * delivery is at-least-once, and handlers make it effectively once through the inbox
 * (src/infrastructure/inbox).
 *
 * Publishes asked for in the same turn of the event loop go out together, in one produce request
 * (a workflow step's agent tasks, the results of a batch of tasks, concurrent handlers'): with one
 * request in flight per connection, one request each would queue behind one another.
 *
 * Consumers fetch with a bounded wait (fetchMaxWaitMs): a real broker answers a fetch as soon as data
 * arrives, so the bound only spaces the fetches of an idle topic; librdkafka's mock broker holds an
 * empty fetch for the whole wait even when data arrives meanwhile (tests give it a short one).
 * Partitions are assigned by alignedAssigner (./aligned-assigner.ts), and up to
 * partitionsConsumedConcurrently of a member's partitions are handled at once.
 *
 * The producer is deliberately neither idempotent nor transactional: librdkafka's mock cluster
 * (our test broker) reports controller id 0, which breaks kafkajs's idempotent producer, and
 * Kafka transactions would not give us exactly-once across PostgreSQL anyway. Ordering per key
 * is kept by hashing the key to a partition (Java-compatible murmur2) and allowing a single
 * in-flight request per broker connection, so a retried batch cannot overtake the next one.
 *
 * A group that replaces older ones (SubscribeOptions.offsetsOf: a worker's svc-worker replacing svc-agents and
 * svc-workflows) reads their committed offsets once at start, through an admin client, and seeks each partition
 * it has never committed to the old group's offset as it is assigned, until it commits that partition itself.
 *
 * Topics are not created through the admin API (the mock rejects CreateTopics): a real cluster
 * provisions them or allows auto-creation (docker-compose does), the mock creates them at start.
 */
import {
  Kafka,
  PartitionAssigners,
  Partitioners,
  logLevel as KafkaLogLevel,
  type Consumer,
  type ConsumerConfig,
  type IHeaders,
  type KafkaConfig,
  type LogEntry,
  type Message,
  type Producer,
} from 'kafkajs';
import { alignedAssigner } from './aligned-assigner';
import type { BatchHandler, BatchSubscribeOptions, BusConsumer, BusMessage, ConsumedMessage, MessageBus, MessageHandler, SubscribeOptions } from '../port';
import { systemClock, type Clock } from '../../../shared/clock';
import { defaultRedeliveryBackoff, describeError, type BusLogger, type RedeliveryBackoff } from '../logger';
import {
  FailureTracker,
  resolveRetryPolicy,
  sendToDeadLetter,
  type DeadLetterCounter,
  type RetryPolicy,
} from '../dead-letter';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  logger: BusLogger;
  /** The time a dead letter records (default the system clock). */
  clock?: Clock;
  /** Consumer tuning (session/heartbeat/rebalance timeouts, etc.); groupId comes from subscribe. */
  consumer?: Omit<ConsumerConfig, 'groupId'>;
  /** Partitions of one consumer processed in parallel (order within a partition is kept). Default 1. */
  partitionsConsumedConcurrently?: number;
  /** Longest time a broker may hold a fetch that finds no message (ms, default kafkajs's 5000). */
  fetchMaxWaitMs?: number;
  redeliveryBackoff?: RedeliveryBackoff;
  /** Default retry policy of every subscription (attempts before dead-lettering, DLQ topic). */
  retry?: Partial<RetryPolicy>;
  /** Counts dead letters (GET /metrics). */
  deadLetters?: DeadLetterCounter;
  /** How long subscribe() waits for the first group join before failing (ms, default 60 000). */
  joinTimeoutMs?: number;
  /** Extra kafkajs client settings (ssl, sasl, connectionTimeout...). */
  client?: Omit<KafkaConfig, 'brokers' | 'clientId' | 'logCreator' | 'logLevel'>;
}

const partitionKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/** Kafka's message key and headers may be absent or binary; the port speaks strings. */
function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    if (raw === undefined) continue;
    const last = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (last === undefined) continue;
    result[name] = Buffer.isBuffer(last) ? last.toString('utf8') : String(last);
  }
  return result;
}


export class KafkaBus implements MessageBus {
  private readonly kafka: Kafka;
  private readonly logger: BusLogger;
  private readonly backoff: RedeliveryBackoff;
  private producer: Producer | undefined;
  private producerConnecting: Promise<Producer> | undefined;
  private readonly consumers = new Set<BusConsumer>();
  private closed = false;
  /** Publishes waiting for the next produce request (see sendOutgoing). */
  private outgoing: { topic: string; messages: Message[]; resolve(): void; reject(error: unknown): void }[] = [];
  private sendScheduled = false;

  constructor(private readonly options: KafkaBusOptions) {
    if (options.brokers.length === 0) throw new Error('KafkaBus needs at least one broker');
    this.logger = options.logger;
    this.backoff = options.redeliveryBackoff ?? defaultRedeliveryBackoff;
    const logger = this.logger;
    this.kafka = new Kafka({
      ...options.client,
      clientId: options.clientId ?? 'compliance-screening-service',
      brokers: options.brokers,
      logLevel: KafkaLogLevel.WARN,
      // kafkajs's own logs go through our logger (structured, no console noise).
      logCreator: () => (entry: LogEntry) => {
        const { message, ...extra } = entry.log;
        const fields = { kafkajs: entry.namespace, ...extra };
        if (entry.level === KafkaLogLevel.ERROR) logger.error(fields, message);
        else if (entry.level === KafkaLogLevel.WARN) logger.warn(fields, message);
        else if (entry.level === KafkaLogLevel.INFO) logger.info(fields, message);
        else logger.debug(fields, message);
      },
    });
  }

  private async connectedProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    this.producerConnecting ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: false,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: true,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect();
      this.producer = producer;
      return producer;
    })();
    try {
      return await this.producerConnecting;
    } catch (error) {
      this.producerConnecting = undefined;
      throw error;
    }
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (this.closed) throw new Error('KafkaBus is closed');
    if (messages.length === 0) return;
    const outgoing = messages.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } }));
    return new Promise<void>((resolve, reject) => {
      this.outgoing.push({ topic, messages: outgoing, resolve, reject });
      if (this.sendScheduled) return;
      this.sendScheduled = true;
      setImmediate(() => void this.sendOutgoing());
    });
  }

  /** Everything published since the last request, in one produce request (order kept per topic and key). */
  private async sendOutgoing(): Promise<void> {
    this.sendScheduled = false;
    const sending = this.outgoing;
    this.outgoing = [];
    try {
      const producer = await this.connectedProducer();
      const byTopic = new Map<string, Message[]>();
      for (const { topic, messages } of sending) {
        const list = byTopic.get(topic);
        if (list) list.push(...messages);
        else byTopic.set(topic, [...messages]);
      }
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
      for (const publish of sending) publish.resolve();
    } catch (error) {
      for (const publish of sending) publish.reject(error);
    }
  }

  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<BusConsumer> {
    return this.consume(options, undefined, (messages) => handler(messages[0]!));
  }

  /** eachBatch: a fetched batch goes to the handler in chunks of at most maxBatch messages. */
  subscribeInBatches(options: BatchSubscribeOptions, handler: BatchHandler): Promise<BusConsumer> {
    const maxBatch = options.maxBatch ?? 100;
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`maxBatch must be a positive integer (got ${maxBatch})`);
    return this.consume(options, maxBatch, handler);
  }

  /** maxBatch undefined: eachMessage, one message per handler call. */
  private async consume(options: SubscribeOptions, maxBatch: number | undefined, handler: BatchHandler): Promise<BusConsumer> {
    if (this.closed) throw new Error('KafkaBus is closed');
    const policy = resolveRetryPolicy(this.options.retry, options.retry);
    const consumer: Consumer = this.kafka.consumer({
      allowAutoTopicCreation: true,
      // Round robin second: a group whose older members know only it (a rolling upgrade) still forms.
      partitionAssigners: [alignedAssigner, PartitionAssigners.roundRobin],
      ...(this.options.fetchMaxWaitMs !== undefined ? { maxWaitTimeInMs: this.options.fetchMaxWaitMs } : {}),
      ...this.options.consumer,
      groupId: options.groupId,
    });
    let stopping = false;
    const sleepers = new Set<() => void>();
    // Where the partitions this group has never committed start, if a group it replaces had (offsetsOf).
    const inherited = options.offsetsOf?.length ? await this.inheritedOffsets(options.groupId, options.offsetsOf) : new Map<string, string>();

    await consumer.connect();
    try {
      await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? false });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }

    // A consumer that keeps crashing before its first join fails subscribe() at the join timeout.
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`consumer group ${options.groupId} did not join within ${this.options.joinTimeoutMs ?? 60_000} ms`)),
        this.options.joinTimeoutMs ?? 60_000,
      );
      const off = consumer.on(consumer.events.GROUP_JOIN, () => {
        clearTimeout(timer);
        off();
        resolve();
      });
    });
    joined.catch(() => undefined);
    // kafkajs restarts a consumer only after a retriable error; after any other it disconnects for
    // good, and this process would go on without that group's partitions (the mock broker answers a
    // SyncGroup that reaches a group already rebalanced with INVALID_REQUEST, for one). We start it
    // again with a growing delay, until it runs or the bus stops: its partitions come back to us at
    // the next rebalance, and what it had not committed is redelivered.
    let restartDelayMs = 0;
    let restartTimer: NodeJS.Timeout | undefined;
    const restartAfterCrash = () => {
      restartDelayMs = Math.min(Math.max(restartDelayMs * 2, 500), 30_000);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (stopping) return;
        void consumer
          .connect()
          .then(() => startRunning())
          .catch((error: unknown) => {
            this.logger.error({ err: describeError(error), groupId: options.groupId }, 'kafka consumer could not be started again; retrying');
            if (!stopping) restartAfterCrash();
          });
      }, restartDelayMs);
      restartTimer.unref?.();
    };
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      restartDelayMs = 0;
      // Applied before the first fetch of the new assignment; an entry lasts until this process commits
      // its partition (a partition that moves away and back before that is sought again: a re-read, no loss).
      for (const [topic, partitions] of Object.entries(event.payload.memberAssignment)) {
        for (const partition of partitions) {
          const offset = inherited.get(partitionKey(topic, partition));
          if (offset !== undefined) consumer.seek({ topic, partition, offset });
        }
      }
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.logger.error(
        { err: describeError(event.payload.error), groupId: options.groupId, restart: event.payload.restart },
        'kafka consumer crashed',
      );
      if (event.payload.restart || stopping) return;
      this.logger.warn({ groupId: options.groupId, inMs: Math.min(Math.max(restartDelayMs * 2, 500), 30_000) }, 'kafka consumer stopped after a non-retriable error; starting it again');
      restartAfterCrash();
    });

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          sleepers.delete(done);
          resolve();
        }
        sleepers.add(done);
      });

    /**
     * Hands one message to the handler until it succeeds or is dead-lettered (true), heartbeating
     * between attempts; false if the consumer is stopping (the message stays uncommitted).
     */
    const deliverOne = async (consumed: ConsumedMessage, heartbeat: () => Promise<void>): Promise<boolean> => {
      const failures = new FailureTracker(this.backoff);
      for (;;) {
        if (stopping) return false; // not committed: the next owner gets it again
        try {
          await handler([consumed]);
          return true;
        } catch (error) {
          const decision = failures.failed(error, policy);
          let delayMs: number;
          if (decision.action === 'dead-letter') {
            try {
              await sendToDeadLetter((t, m) => this.publish(t, m), consumed, {
                groupId: options.groupId,
                attempts: decision.attempts,
                error,
                policy,
                logger: this.logger,
                clock: this.options.clock ?? systemClock,
                ...(this.options.deadLetters ? { counter: this.options.deadLetters } : {}),
              });
              return true; // committed by the caller: the partition moves on
            } catch (publishError) {
              delayMs = this.backoff.maxMs;
              this.logger.error(
                { err: describeError(publishError), groupId: options.groupId, topic: consumed.topic, partition: consumed.partition, offset: consumed.offset },
                'dead letter could not be published; the message stays uncommitted and is redelivered',
              );
            }
          } else {
            delayMs = decision.delayMs;
            this.logger.error(
              {
                err: describeError(error),
                groupId: options.groupId,
                topic: consumed.topic,
                partition: consumed.partition,
                offset: consumed.offset,
                key: consumed.key,
                attempt: decision.attempts,
                transient: decision.transient,
                retryInMs: delayMs,
              },
              'message handler failed; the message will be redelivered',
            );
          }
          await sleep(delayMs);
          if (stopping) return false;
          // Keep the membership alive; throws (uncommitted) if the group is rebalancing.
          await heartbeat();
        }
      }
    };
    const toConsumed = (topic: string, partition: number, message: { offset: string; key: Buffer | null; value: Buffer | null; headers?: IHeaders }): ConsumedMessage => ({
      topic,
      partition,
      offset: message.offset,
      key: message.key ? message.key.toString('utf8') : '',
      value: message.value ?? Buffer.alloc(0),
      headers: headersToStrings(message.headers),
    });
    // Offsets to commit, gathered over one turn of the event loop into one OffsetCommit request: the
    // batches of a fetch that finish together (a workflow's tasks, answered at once) commit together.
    // Each batch still waits for its own commit before it returns, as with one request each.
    let commits: { topic: string; partition: number; next: bigint; resolve(): void; reject(error: unknown): void }[] = [];
    const sendCommits = () => {
      const sending = commits;
      commits = [];
      const latest = new Map<string, { topic: string; partition: number; next: bigint }>();
      for (const c of sending) {
        const key = partitionKey(c.topic, c.partition);
        const known = latest.get(key);
        if (!known || known.next < c.next) latest.set(key, c);
      }
      consumer.commitOffsets([...latest.values()].map(({ topic, partition, next }) => ({ topic, partition, offset: next.toString() }))).then(
        () => {
          for (const key of latest.keys()) inherited.delete(key);
          sending.forEach((c) => c.resolve());
        },
        (error: unknown) => sending.forEach((c) => c.reject(error)),
      );
    };
    const commitAfter = (topic: string, partition: number, offset: string) =>
      new Promise<void>((resolve, reject) => {
        commits.push({ topic, partition, next: BigInt(offset) + 1n, resolve, reject });
        if (commits.length === 1) setImmediate(sendCommits);
      });

    const startRunning = async (): Promise<void> => {
    if (maxBatch === undefined) {
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
        eachMessage: async ({ topic, partition, message, heartbeat }) => {
          if (!(await deliverOne(toConsumed(topic, partition, message), heartbeat))) return;
          await commitAfter(topic, partition, message.offset);
        },
      });
    } else {
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          const messages = batch.messages.map((m) => toConsumed(batch.topic, batch.partition, m));
          for (let i = 0; i < messages.length; ) {
            if (stopping || !isRunning() || isStale()) return;
            const chunk = messages.slice(i, i + maxBatch);
            let handled = false;
            // A single message goes straight to deliverOne, so its failures are counted and logged there.
            if (chunk.length > 1) {
              try {
                await handler(chunk);
                handled = true;
              } catch (error) {
                this.logger.warn(
                  { err: describeError(error), groupId: options.groupId, topic: batch.topic, partition: batch.partition, offset: chunk[0]!.offset, messages: chunk.length },
                  'batch handler failed; its messages are redelivered one at a time',
                );
              }
            }
            if (handled) {
              const last = chunk[chunk.length - 1]!;
              resolveOffset(last.offset);
              await commitAfter(batch.topic, batch.partition, last.offset);
            } else {
              // One message per call, with the per-message retry and dead-letter policy; stopping leaves the rest uncommitted.
              for (const message of chunk) {
                if (!(await deliverOne(message, heartbeat))) return;
                resolveOffset(message.offset);
                await commitAfter(batch.topic, batch.partition, message.offset);
              }
            }
            i += chunk.length;
            await heartbeat();
          }
        },
      });
    }
    };
    await startRunning();
    try {
      await joined;
    } catch (error) {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }

    let stopped: Promise<void> | undefined;
    const busConsumer: BusConsumer = {
      stop: () => {
        stopped ??= (async () => {
          stopping = true;
          if (restartTimer) clearTimeout(restartTimer);
          for (const wake of [...sleepers]) wake();
          // Waits for the in-flight handler (and its commit), then leaves the group.
          await consumer.disconnect();
          this.consumers.delete(busConsumer);
        })();
        return stopped;
      },
    };
    this.consumers.add(busConsumer);
    return busConsumer;
  }

  /**
   * The committed offsets of the groups `groupId` replaces, for the partitions `groupId` has none for
   * (keyed by partitionKey). Read once as the consumer starts, through a short-lived admin client.
   */
  private async inheritedOffsets(groupId: string, formerGroups: { groupId: string; topics: string[] }[]): Promise<Map<string, string>> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const committed = async (group: string, topics: string[]) => {
        const offsets = new Map<string, string>();
        for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group, topics })) {
          for (const { partition, offset } of partitions) if (BigInt(offset) >= 0n) offsets.set(partitionKey(topic, partition), offset);
        }
        return offsets;
      };
      const own = await committed(groupId, [...new Set(formerGroups.flatMap((g) => g.topics))]);
      const inherited = new Map<string, string>();
      for (const former of formerGroups) {
        for (const [key, offset] of await committed(former.groupId, former.topics)) if (!own.has(key)) inherited.set(key, offset);
      }
      if (inherited.size > 0) this.logger.info({ groupId, partitions: inherited.size, from: formerGroups.map((g) => g.groupId) }, 'consumer group starts where the groups it replaces had committed');
      return inherited;
    } finally {
      await admin.disconnect();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((c) => c.stop()));
    if (this.producerConnecting) {
      const producer = await this.producerConnecting.catch(() => undefined);
      await producer?.disconnect();
    }
  }
}

