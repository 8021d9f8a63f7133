/**
 * Bounded redelivery and dead letters, shared by the bus adapters.
 *
 * A handler that throws gets its message again after a backoff. Failures that are not transient
 * infrastructure errors count as attempts; after `maxAttempts` of them the message is published,
 * byte for byte, to the dead-letter topic (default `svc.deadletter`) with headers naming where it
 * came from and why, and its offset is committed, so the partition moves on.
 *
 * Transient errors (PostgreSQL or another dependency unreachable: connection refused/reset, admin
 * shutdown, too many connections, see isTransient) never count: while the database is down every
 * message would fail, and dead-lettering them all would only move the outage into the DLQ. Those
 * messages are retried (with the capped backoff) until the dependency is back, as before.
 *
 * `svc deadletters list|replay` (src/cli/deadletters.ts) inspects the topic and republishes a dead
 * letter to its original topic; docs/operations.md describes the procedure.
 *
 * In the embedded default the in-process bus is given a DeadLetterSink instead (the dead_letters
 * table, ./dead-letter-table.ts): an in-memory topic would be lost on restart and unreadable from
 * another process.
 */
import { Counter, type Registry } from 'prom-client';
import { isTransient } from '../eventstore/postgres/subscription';
import { backoffDelay, describeError, type BusLogger, type RedeliveryBackoff } from './logger';
import type { BusMessage, ConsumedMessage } from './port';
import type { Clock } from '../../shared/clock';

/** One topic for every consumer group's dead letters; headers say where each came from. */
export const DEAD_LETTER_TOPIC = 'svc.deadletter';
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Headers a dead letter carries besides the original message's own (which it keeps). */
export const DLQ_HEADERS = {
  topic: 'x-dlq-original-topic',
  partition: 'x-dlq-original-partition',
  offset: 'x-dlq-original-offset',
  key: 'x-dlq-original-key',
  group: 'x-dlq-consumer-group',
  attempts: 'x-dlq-attempts',
  error: 'x-dlq-error',
  errorName: 'x-dlq-error-name',
  at: 'x-dlq-dead-lettered-at',
} as const;

/** Header a replayed message carries (how many times it was replayed from the DLQ). */
export const DLQ_REPLAY_HEADER = 'x-dlq-replayed';

/**
 * Where a bus records dead letters instead of publishing them to its dead-letter topic (embedded
 * default: the dead_letters table). `record` gets the dead letter exactly as it would have been
 * published (deadLetterMessage); it must throw if it did not store it durably.
 */
export interface DeadLetterSink {
  record(letter: BusMessage): Promise<void>;
}

/**
 * The message a replay republishes to the original topic: the dead letter's key, value and headers
 * without the x-dlq-* ones, with x-dlq-replayed counting the replays (the inbox dedupes on x-message-id).
 */
export function replayedMessage(letter: BusMessage): BusMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(letter.headers)) {
    if (!name.startsWith('x-dlq-')) headers[name] = value;
  }
  headers[DLQ_REPLAY_HEADER] = String(Number(letter.headers[DLQ_REPLAY_HEADER] ?? 0) + 1);
  return { key: letter.headers[DLQ_HEADERS.key] ?? letter.key, value: letter.value, headers };
}

/** Error messages are cut to this length in the header (a stack trace or a huge payload echo has no place there). */
const MAX_ERROR_LENGTH = 1_000;

export interface RetryPolicy {
  /**
   * Non-transient failures of one message before it is dead-lettered (default 5).
   * `Infinity` never dead-letters: the partition waits until the handler succeeds.
   */
  maxAttempts: number;
  /** Where dead letters go (default svc.deadletter). */
  deadLetterTopic: string;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: DEFAULT_MAX_ATTEMPTS, deadLetterTopic: DEAD_LETTER_TOPIC };

export function resolveRetryPolicy(busDefault: Partial<RetryPolicy> | undefined, subscription: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...busDefault, ...subscription };
  if (!(policy.maxAttempts >= 1)) throw new Error(`retry maxAttempts must be >= 1 (got ${policy.maxAttempts})`);
  if (!policy.deadLetterTopic) throw new Error('deadLetterTopic is empty');
  return policy;
}

/** What to do after a handler failure. */
export type FailureDecision =
  | { action: 'retry'; delayMs: number; attempts: number; transient: boolean }
  | { action: 'dead-letter'; attempts: number };

/**
 * Tracks the failures of the message a partition is working on. `attempts` counts only
 * non-transient failures; the backoff grows with every failure, transient or not.
 */
export class FailureTracker {
  attempts = 0;
  private failures = 0;
  constructor(private readonly backoff: RedeliveryBackoff) {}

  failed(error: unknown, policy: RetryPolicy): FailureDecision {
    this.failures++;
    const transient = isTransient(error);
    if (!transient) this.attempts++;
    if (!transient && this.attempts >= policy.maxAttempts) return { action: 'dead-letter', attempts: this.attempts };
    return { action: 'retry', delayMs: backoffDelay(this.backoff, this.failures), attempts: this.attempts, transient };
  }

  /** The message was handled or dead-lettered: the next one starts afresh. */
  reset(): void {
    this.attempts = 0;
    this.failures = 0;
  }
}

/** The dead letter for a message: its key, value and headers unchanged, plus the DLQ headers. */
export function deadLetterMessage(
  message: ConsumedMessage,
  context: { groupId: string; attempts: number; error: unknown; at: Date },
): BusMessage {
  const err = describeError(context.error);
  return {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [DLQ_HEADERS.topic]: message.topic,
      [DLQ_HEADERS.partition]: String(message.partition),
      [DLQ_HEADERS.offset]: message.offset,
      [DLQ_HEADERS.key]: message.key,
      [DLQ_HEADERS.group]: context.groupId,
      [DLQ_HEADERS.attempts]: String(context.attempts),
      [DLQ_HEADERS.error]: err.message.slice(0, MAX_ERROR_LENGTH),
      ...(err.name ? { [DLQ_HEADERS.errorName]: err.name } : {}),
      [DLQ_HEADERS.at]: context.at.toISOString(),
    },
  };
}

export interface DeadLetterInfo {
  groupId: string;
  topic: string;
  partition: number;
  offset: string;
  key: string;
  attempts: number;
  deadLetterTopic: string;
}

/** Counts dead letters per (group, topic) for GET /metrics. */
export class DeadLetterCounter {
  private readonly counts = new Map<string, { group: string; topic: string; count: number }>();

  record(info: Pick<DeadLetterInfo, 'groupId' | 'topic'>): void {
    const key = `${info.groupId}\0${info.topic}`;
    const entry = this.counts.get(key) ?? { group: info.groupId, topic: info.topic, count: 0 };
    entry.count++;
    this.counts.set(key, entry);
  }

  total(filter: { group?: string; topic?: string } = {}): number {
    let sum = 0;
    for (const e of this.counts.values()) {
      if ((filter.group === undefined || e.group === filter.group) && (filter.topic === undefined || e.topic === filter.topic)) sum += e.count;
    }
    return sum;
  }

  /** Registers svc_bus_dead_letters_total (one sample per group and topic, read at each scrape). */
  registerMetrics(registry: Registry): void {
    const counts = this.counts;
    new Counter({
      name: 'svc_bus_dead_letters_total',
      help: 'Messages a consumer group gave up on and published to the dead-letter topic.',
      labelNames: ['group', 'topic'],
      registers: [registry],
      collect() {
        this.reset();
        for (const e of [...counts.values()].sort((a, b) => a.group.localeCompare(b.group) || a.topic.localeCompare(b.topic))) this.inc({ group: e.group, topic: e.topic }, e.count);
      },
    });
  }
}

/**
 * Publishes a dead letter, logs it at error level and counts it. Throws if the publish failed:
 * the caller must then keep the message uncommitted and retry.
 */
export async function sendToDeadLetter(
  publish: (topic: string, messages: BusMessage[]) => Promise<void>,
  message: ConsumedMessage,
  context: { groupId: string; attempts: number; error: unknown; policy: RetryPolicy; logger: BusLogger; counter?: DeadLetterCounter; clock: Clock },
): Promise<void> {
  const letter = deadLetterMessage(message, { groupId: context.groupId, attempts: context.attempts, error: context.error, at: context.clock.now() });
  await publish(context.policy.deadLetterTopic, [letter]);
  context.counter?.record({ groupId: context.groupId, topic: message.topic });
  // No value and no headers beyond the coordinates: they may carry personal data.
  context.logger.error(
    {
      err: { name: describeError(context.error).name, message: letter.headers[DLQ_HEADERS.error] },
      groupId: context.groupId,
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
      key: message.key,
      attempts: context.attempts,
      deadLetterTopic: context.policy.deadLetterTopic,
    },
    'message dead-lettered after repeated handler failures; the partition moves on',
  );
}
