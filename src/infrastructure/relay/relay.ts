/**
 * The event relay: the only path from the event store to Kafka (no dual writes: the API only
 * appends to the store). It follows subscribeToAll from its own checkpoint (relay_checkpoints),
 * publishes each event as an Avro EventEnvelope to `svc.events.<stream category>` keyed by the
 * stream name, and advances the checkpoint only after the publish succeeded. After a crash it
 * republishes from the checkpoint: delivery is at-least-once and consumers deduplicate on the
 * `x-message-id` header (= event id) through the inbox.
 *
 * Events are published in small batches: the subscription hands events over one by one, a
 * flusher publishes what has accumulated (one publish per topic, order kept) and then moves the
 * checkpoint, written at most every checkpointEveryMs (and on stop and catch-up). A publish that
 * fails is retried with backoff, never skipped.
 *
 * Only one relay of a given name publishes at a time: it holds a PostgreSQL session advisory
 * lock, and other instances (scaled mode runs several API processes) stand by until it is free.
 */
import type pg from 'pg';
import type { RecordedEvent } from '../../shared/events';
import { systemTimer, type Timer } from '../../shared/clock';
import type { EventStore, Subscription, SubscribeToAllOptions } from '../eventstore/port';
import { AvroRegistry } from '../bus/avro/registry';
import { EVENT_ENVELOPE } from '../bus/avro/messages';
import { toTypedEventEnvelope } from '../bus/avro/event-data';
import { backoffDelay, describeError, type BusLogger, type RedeliveryBackoff } from '../bus/logger';
import type { BusMessage, MessageBus } from '../bus/port';
import { eventTopicForStream } from '../bus/topics';
import { MESSAGE_ID_HEADER } from '../inbox/inbox';
import { PUBLISHED_AT_HEADER, TRACEPARENT, type HopSpan, type Telemetry } from '../telemetry/telemetry';

export const EVENT_TYPE_HEADER = 'x-event-type';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

export interface EventRelayOptions {
  store: EventStore;
  bus: MessageBus;
  pool: pg.Pool;
  registry: AvroRegistry;
  logger: BusLogger;
  /** Checkpoint and lock name (default 'kafka'). */
  name?: string;
  /** Topic of an event (default: svc.events.<category of its stream>). */
  topicFor?: (event: RecordedEvent) => string;
  /**
   * The checkpoint is written at most this often (ms, default 100) and when the relay stops or
   * catches up: a crash republishes at most that much, which the consumers' inboxes absorb.
   */
  checkpointEveryMs?: number;
  /** Most events published in one flush (default 500). */
  maxBatch?: number;
  /** Poll interval passed to the store's subscription (ms). */
  pollIntervalMs?: number;
  retryBackoff?: RedeliveryBackoff;
  /** How often a standby instance retries the leader lock (ms, default 2000). */
  standbyRetryMs?: number;
  /** Elapsed time of a catch-up wait and between checkpoints (default the monotonic system timer). */
  timer?: Timer;
  /** The relay_publish hop: a span per traced event (child of its append), the wait and duration histograms. */
  telemetry?: Telemetry;
}

class RelayStopped extends Error {}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function readRelayCheckpoint(pool: pg.Pool | pg.PoolClient, name: string): Promise<bigint> {
  const { rows } = await pool.query<{ position: string }>('SELECT position FROM relay_checkpoints WHERE relay_name = $1', [name]);
  return rows[0] ? BigInt(rows[0].position) : 0n;
}

/**
 * Envelope message for one event: key = stream name, id/type/correlation headers next to the schema
 * ones, and the data also in Avro with its typed schema when it has one. Data that does not fit
 * its typed schema goes out without it (onTypedDataError is told) rather than blocking the topic.
 * The envelope is built and encoded when the bytes are first read (Kafka: as it sends; in-process:
 * only if a consumer reads the value), so a typed-schema mismatch is reported then.
 */
export function relayMessage(
  registry: AvroRegistry,
  event: RecordedEvent,
  onTypedDataError?: (error: Error, event: RecordedEvent) => void,
  trace?: { traceparent?: string | undefined; publishedAt?: number },
): BusMessage {
  const headers: Record<string, string> = { [MESSAGE_ID_HEADER]: event.metadata.eventId, [EVENT_TYPE_HEADER]: event.type };
  if (event.metadata.correlationId) headers[CORRELATION_ID_HEADER] = event.metadata.correlationId;
  const traceparent = trace?.traceparent ?? event.metadata.traceparent;
  if (traceparent) headers[TRACEPARENT] = traceparent;
  if (trace?.publishedAt !== undefined) headers[PUBLISHED_AT_HEADER] = String(trace.publishedAt);
  // Encoded when first read: in the embedded mode most relayed events are never read as bytes.
  return registry.deferredMessage(EVENT_ENVELOPE, event.streamName, () => toTypedEventEnvelope(registry, event, onTypedDataError), headers);
}

export class EventRelay {
  private readonly name: string;
  private readonly maxBatch: number;
  private readonly backoff: RedeliveryBackoff;
  private readonly topicFor: (event: RecordedEvent) => string;
  private running = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private lockClient: pg.PoolClient | undefined;
  private subscription: Subscription | undefined;
  private subscriptionFailed: ((error: Error) => void) | undefined;
  private buffer: RecordedEvent[] = [];
  private flushing: Promise<void> | undefined;
  private published = 0n;
  /** Last position written to relay_checkpoints, and when (see checkpointEveryMs). */
  private checkpointed = 0n;
  private lastCheckpointAt = Number.NEGATIVE_INFINITY;
  private readonly timer: Timer;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private leader = false;
  /** True while a leadership term is following the store; publishing gives up once it ends. */
  private active = false;
  private wakeStandby: (() => void) | undefined;

  constructor(private readonly options: EventRelayOptions) {
    this.name = options.name ?? 'kafka';
    this.timer = options.timer ?? systemTimer;
    this.maxBatch = options.maxBatch ?? 500;
    this.backoff = options.retryBackoff ?? { initialMs: 200, maxMs: 10_000 };
    this.topicFor = options.topicFor ?? ((event) => eventTopicForStream(event.streamName));
  }

  /** Global position of the last event published by this instance (its checkpoint follows within checkpointEveryMs). */
  get position(): bigint {
    return this.published;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** Starts following the store in the background (as leader, or standing by for the lock). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.loop = this.supervise();
  }

  /** Resolves once everything committed to the store before this call has been published. */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const deadline = this.timer.nowMs() + timeoutMs;
    for (;;) {
      const subscription = this.subscription;
      if (subscription) {
        try {
          await subscription.caughtUp();
          await this.drain();
          await this.flushCheckpoint();
          return;
        } catch (error) {
          if (this.stopping) throw error;
        }
      }
      if (this.timer.nowMs() > deadline) throw new Error(`relay ${this.name} did not catch up within ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.wakeStandby?.();
    await this.subscription?.stop().catch(() => undefined);
    await this.loop;
    this.running = false;
  }

  /** Leader election, subscription, restart after failures: until stop(). */
  private async supervise(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        if (!(await this.acquireLock())) {
          await this.standby();
          continue;
        }
        await this.follow();
        failures = 0;
      } catch (error) {
        if (this.stopping) break;
        failures++;
        const delayMs = backoffDelay(this.backoff, failures);
        this.options.logger.error({ err: describeError(error), relay: this.name, retryInMs: delayMs }, 'event relay failed; restarting from its checkpoint');
        await sleep(delayMs);
      } finally {
        await this.releaseLock();
      }
    }
  }

  private async standby(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.options.standbyRetryMs ?? 2_000);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeStandby = undefined;
        resolve();
      }
      this.wakeStandby = done;
    });
  }

  private async acquireLock(): Promise<boolean> {
    const client = await this.options.pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext('svc.relay'), hashtext($1)) AS locked", [this.name]);
      if (!rows[0]?.locked) {
        client.release();
        return false;
      }
    } catch (error) {
      client.release();
      throw error;
    }
    this.lockClient = client;
    this.leader = true;
    // Losing the lock's connection means another instance may take over: stop publishing.
    client.on('error', (error) => this.subscriptionFailed?.(error));
    return true;
  }

  private async releaseLock(): Promise<void> {
    const client = this.lockClient;
    this.lockClient = undefined;
    this.leader = false;
    if (!client) return;
    try {
      await client.query("SELECT pg_advisory_unlock(hashtext('svc.relay'), hashtext($1))", [this.name]);
      client.release();
    } catch {
      client.release(true); // broken connection: the server dropped the lock with it
    }
  }

  /** One leadership term: subscribe from the checkpoint and publish until stopped or failed. */
  private async follow(): Promise<void> {
    this.published = await readRelayCheckpoint(this.options.pool, this.name);
    this.checkpointed = this.published;
    this.buffer = [];
    this.options.logger.info({ relay: this.name, after: String(this.published) }, 'event relay following the store');
    const failed = new Promise<never>((_, reject) => {
      this.subscriptionFailed = reject;
    });
    failed.catch(() => undefined);
    const subscribeOptions: SubscribeToAllOptions & { onError?: (error: Error) => void } = {
      after: this.published,
      ...(this.options.pollIntervalMs ? { pollIntervalMs: this.options.pollIntervalMs } : {}),
      onError: (error) => this.subscriptionFailed?.(error),
    };
    this.active = true;
    this.subscription = this.options.store.subscribeToAll((event) => this.accept(event), subscribeOptions);
    try {
      await Promise.race([failed, this.untilStopping()]);
    } finally {
      this.active = false;
      const subscription = this.subscription;
      this.subscription = undefined;
      this.subscriptionFailed = undefined;
      await subscription.stop().catch(() => undefined);
      // Publish what was accepted before the stop, if the bus still takes it, and record how far.
      await this.drain().catch(() => undefined);
      await this.flushCheckpoint().catch(() => undefined);
    }
  }

  private untilStopping(): Promise<void> {
    return new Promise<void>((resolve) => {
      const check = () => (this.stopping ? resolve() : setTimeout(check, 50).unref());
      check();
    });
  }

  /** Subscription handler: buffer the event; wait for the flusher when the buffer is full. */
  private async accept(event: RecordedEvent): Promise<void> {
    if (this.stopping || !this.active) throw new RelayStopped('relay stopping');
    this.buffer.push(event);
    const flush = this.scheduleFlush();
    // Backpressure only when the buffer is full; otherwise failures surface through drain/the next accept.
    if (this.buffer.length >= this.maxBatch) await flush;
    else flush.catch(() => undefined);
  }

  private scheduleFlush(): Promise<void> {
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.flushAll())
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.flushing || this.buffer.length > 0) {
      await (this.flushing ?? this.scheduleFlush());
    }
  }

  private async flushAll(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.slice(0, this.maxBatch);
      await this.publishWithRetry(batch);
      this.buffer.splice(0, batch.length);
    }
  }

  private async publishWithRetry(batch: RecordedEvent[]): Promise<void> {
    const telemetry = this.options.telemetry;
    const timed = telemetry?.stopwatch('relay_publish');
    // One span per traced event (child of the append that recorded it), ended when its batch is out.
    const spans: HopSpan[] = [];
    const publishedAt = telemetry?.nowEpochMs();
    const byTopic = new Map<string, BusMessage[]>();
    for (const event of batch) {
      const topic = this.topicFor(event);
      const messages = byTopic.get(topic) ?? [];
      let traceparent = event.metadata.traceparent;
      if (telemetry) {
        const waitedMs = telemetry.waited('relay', Date.parse(event.recordedAt));
        if (traceparent !== undefined && telemetry.enabled) {
          const attributes = { 'messaging.destination.name': topic, 'svc.event_type': event.type, 'svc.batch': batch.length, ...(waitedMs !== undefined ? { 'svc.relay_wait_ms': waitedMs } : {}) };
          const span = telemetry.start('relay_publish', `publish ${topic}`, { parent: traceparent, observe: false, attributes });
          spans.push(span);
          traceparent = span.traceparent;
        }
      }
      messages.push(relayMessage(this.options.registry, event, this.typedDataError, { traceparent, ...(publishedAt !== undefined ? { publishedAt } : {}) }));
      byTopic.set(topic, messages);
    }
    try {
      await this.publishBatch(batch, byTopic);
    } catch (error) {
      for (const span of spans) span.end(error);
      throw error;
    }
    for (const span of spans) span.end();
    timed?.();
  }

  private async publishBatch(batch: RecordedEvent[], byTopic: Map<string, BusMessage[]>): Promise<void> {
    const last = batch[batch.length - 1]!.globalPosition;
    // Topics whose publish failed are retried; the ones that succeeded are not sent again.
    const pending = new Map(byTopic);
    for (let failures = 0; ; ) {
      try {
        const topics = [...pending];
        const outcomes = await Promise.allSettled(topics.map(([topic, messages]) => this.options.bus.publish(topic, messages)));
        outcomes.forEach((outcome, i) => {
          if (outcome.status === 'fulfilled') pending.delete(topics[i]![0]);
        });
        const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        if (failed) throw failed.reason;
        this.published = last;
        await this.checkpointSoon();
        return;
      } catch (error) {
        failures++;
        const delayMs = backoffDelay(this.backoff, failures);
        this.options.logger.error(
          { err: describeError(error), relay: this.name, events: batch.length, upTo: String(last), attempt: failures, retryInMs: delayMs },
          'event relay could not publish; retrying',
        );
        if (this.stopping || !this.active) {
          throw new RelayStopped('relay stopped with unpublished events (they are republished from the checkpoint)');
        }
        await sleep(delayMs);
      }
    }
  }

  /** A bug (data and typed schema disagree), logged loudly; the event is still published. */
  private readonly typedDataError = (error: Error, event: RecordedEvent): void => {
    this.options.logger.error(
      { err: describeError(error), relay: this.name, eventId: event.metadata.eventId, eventType: event.type, streamName: event.streamName },
      'event data does not match its typed Avro schema; published without dataAvro',
    );
  };

  /** Writes the checkpoint now if the last write is old enough, else once the interval has passed. */
  private async checkpointSoon(): Promise<void> {
    const every = this.options.checkpointEveryMs ?? 100;
    const due = this.lastCheckpointAt + every - this.timer.nowMs();
    if (due <= 0) return this.writeCheckpoint(this.published);
    this.checkpointTimer ??= setTimeout(() => {
      this.checkpointTimer = undefined;
      this.writeCheckpoint(this.published).catch((error: unknown) => this.subscriptionFailed?.(error as Error));
    }, due);
  }

  /** The checkpoint as far as published (stop, caught up, leadership ending). */
  private async flushCheckpoint(): Promise<void> {
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    if (this.published > this.checkpointed && this.lockClient) await this.writeCheckpoint(this.published);
  }

  private async writeCheckpoint(position: bigint): Promise<void> {
    if (position <= this.checkpointed) return;
    this.lastCheckpointAt = this.timer.nowMs();
    // Through the lock's session: if that connection is gone, so is our leadership.
    const client = this.lockClient;
    if (!client) throw new RelayStopped('relay lost its leader lock');
    await client.query(
      `INSERT INTO relay_checkpoints (relay_name, position, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (relay_name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()
       WHERE relay_checkpoints.position < EXCLUDED.position`,
      [this.name, position.toString()],
    );
    if (position > this.checkpointed) this.checkpointed = position;
  }
}
