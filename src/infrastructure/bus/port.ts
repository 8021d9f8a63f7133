/**
 * The message bus port: Kafka (kafkajs) in scaled mode, in-process in the embedded default.
 * Values are already-encoded bytes (Avro, see ./avro); headers carry the schema fingerprint.
 */
export interface BusMessage {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/**
 * A message whose bytes are produced when `value` is first read, then kept. The in-process bus
 * passes it on as it is, so a message that no consumer reads is never encoded (in the embedded
 * mode, most relayed events: the orchestrator reads the screening topic by its type header and
 * decodes only ScreeningRequested). Kafka reads `value` as it sends: the same bytes go out.
 */
export class DeferredBusMessage implements BusMessage {
  private bytes: Buffer | undefined;

  constructor(
    readonly key: string,
    readonly headers: Record<string, string>,
    private readonly produce: () => Buffer,
  ) {}

  get value(): Buffer {
    this.bytes ??= this.produce();
    return this.bytes;
  }
}

export interface ConsumedMessage extends BusMessage {
  topic: string;
  partition: number;
  /** Kafka offset as a decimal string (in-process adapter: a per-topic counter). */
  offset: string;
}

export interface SubscribeOptions {
  /** Consumer group: each message is handled by one member of the group. */
  groupId: string;
  topics: string[];
  /** Where a group with no committed offset starts. */
  fromBeginning?: boolean;
  /**
   * Groups this one replaces: a partition of their topics that this group has no committed offset for
   * starts where that group had committed, if it had (Kafka; the in-process bus keeps no offsets across
   * restarts, so it has nothing to carry over). Messages past that offset that the old group also read
   * are read again: handlers are idempotent.
   */
  offsetsOf?: { groupId: string; topics: string[] }[];
  /**
   * Bounded redelivery (src/infrastructure/bus/dead-letter.ts): after `maxAttempts` non-transient
   * handler failures of one message (default: the bus's, 5) it goes to `deadLetterTopic`
   * (default svc.deadletter) and its offset is committed. `maxAttempts: Infinity` never gives up.
   */
  retry?: { maxAttempts?: number; deadLetterTopic?: string };
}

/**
 * Called once per message; the offset is committed only after it resolves.
 * Throwing stops the consumer for that partition and the message is redelivered after a backoff,
 * until the subscription's retry policy dead-letters it (transient connection errors never count
 * towards that): never swallow errors.
 */
export type MessageHandler = (message: ConsumedMessage) => Promise<void>;

/**
 * Called with consecutive messages of one partition (at least one, at most the subscription's
 * `maxBatch`); their offsets are committed only after it resolves. If it throws for a batch of
 * several, the adapter delivers those messages again one per call, with the usual retry and
 * dead-letter policy per message: a poison message ends up alone, and only it is dead-lettered.
 */
export type BatchHandler = (messages: ConsumedMessage[]) => Promise<void>;

export interface BatchSubscribeOptions extends SubscribeOptions {
  /** Most messages per handler call (default 100). */
  maxBatch?: number;
}

export interface BusConsumer {
  stop(): Promise<void>;
}

export interface MessageBus {
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<BusConsumer>;
  /**
   * Like subscribe, but hands over whatever a partition has ready, so a consumer can do one write
   * for several messages (the screening orchestrator records a phase's agent results together).
   */
  subscribeInBatches(options: BatchSubscribeOptions, handler: BatchHandler): Promise<BusConsumer>;
  close(): Promise<void>;
}
