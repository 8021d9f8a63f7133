/**
 * The EventStoreDB/KurrentDB adapter (scaled mode, ESDB_URL), @eventstore/db-client v6, behind the
 * same port and contract suite as the PostgreSQL store.
 *
 * - globalPosition is the $all commit position; checkpoints are exclusive (events after it).
 * - Expected revisions are checked against the stream's last event (read first, as the hash chain
 *   needs its hash anyway) and the append is sent with that exact revision, so a racing writer
 *   surfaces as WrongExpectedVersion: a StreamRevisionConflictError for explicit revisions, a retry
 *   for 'any'/'stream_exists' (so the chain never forks).
 * - Event ids: ESDB needs UUIDs; other ids are mapped to a stable UUID (SHA-256 based) and the
 *   original stays in metadata.eventId. A batch whose ids all exist in the stream's recent history
 *   (last IDEMPOTENCY_WINDOW events) is a no-op, like PostgreSQL; unlike PostgreSQL, ids reused in
 *   another stream are not detected.
 * - System events ($-prefixed types or streams) are never returned.
 */
import { createHash } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { Event, EventMetadata, RecordedEvent } from '../../../shared/events';
import { silentLogger, type InfraLogger } from '../../postgres/log';
import { freezeIf } from '../../../shared/freeze';
import { DuplicateEventIdsError, InvalidEventBatchError } from '../errors';
import { chainEvents, GENESIS_HASH } from '../hashChain';
import { checkExpectedRevision } from '../postgres/store';
import { CatchUpWaiters } from '../catch-up';
import {
  StreamRevisionConflictError,
  type AppendResult,
  type EventHandler,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SubscribeToAllOptions,
  type Subscription,
} from '../port';

const IDEMPOTENCY_WINDOW = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EsdbEventStoreOptions {
  /** e.g. esdb://localhost:2113?tls=false */
  connectionString?: string;
  client?: EventStoreDBClient;
  logger?: InfraLogger;
  /** Deep-freeze every event read (default true; FREEZE_EVENTS), as the PostgreSQL store does. */
  freezeEvents?: boolean;
}

export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly ownsClient: boolean;
  private readonly logger: InfraLogger;
  private readonly subscriptions = new Set<EsdbAllSubscription>();
  private readonly freeze: boolean;

  constructor(options: EsdbEventStoreOptions) {
    this.freeze = options.freezeEvents ?? true;
    if (options.client) {
      this.client = options.client;
      this.ownsClient = false;
    } else if (options.connectionString) {
      this.client = EventStoreDBClient.connectionString(options.connectionString);
      this.ownsClient = true;
    } else throw new Error('EsdbEventStore needs a connectionString or a client');
    this.logger = options.logger ?? silentLogger;
  }

  async appendToStream(
    streamName: string,
    events: Event[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    const ids = events.map((e, i) => {
      const id = e.metadata?.eventId;
      if (typeof id !== 'string' || id.length === 0) throw new InvalidEventBatchError(`event #${i} (${e.type}) has no metadata.eventId`);
      return id;
    });
    if (new Set(ids).size !== ids.length) throw new InvalidEventBatchError('the same eventId appears twice in one batch');

    for (let attempt = 1; ; attempt++) {
      const recent = await this.readRecent(streamName, IDEMPOTENCY_WINDOW);
      const last = recent[0];
      const currentRevision = last?.streamPosition;
      if (ids.length > 0) {
        const found = recent.filter((e) => ids.includes(e.metadata.eventId));
        if (found.length === ids.length) {
          return {
            nextExpectedRevision: currentRevision!,
            lastGlobalPosition: found.reduce((max, e) => (e.globalPosition > max ? e.globalPosition : max), 0n),
            written: false,
          };
        }
        if (found.length > 0) {
          throw new DuplicateEventIdsError(streamName, found.map((e) => e.metadata.eventId), 'some event ids of this batch already exist, others do not: nothing written');
        }
      }
      checkExpectedRevision(streamName, expected, currentRevision);
      if (events.length === 0) {
        return { nextExpectedRevision: currentRevision ?? -1n, lastGlobalPosition: last?.globalPosition ?? 0n, written: false };
      }
      const chained = chainEvents(events, last?.metadata.hash ?? GENESIS_HASH);
      try {
        const result = await this.client.appendToStream(
          streamName,
          chained.map((e) =>
            jsonEvent({
              id: toUuid(e.metadata.eventId),
              type: e.type,
              data: e.data as Record<string, unknown>,
              metadata: e.metadata as unknown as Record<string, unknown>,
            }),
          ),
          { expectedRevision: currentRevision ?? NO_STREAM },
        );
        return {
          nextExpectedRevision: result.nextExpectedRevision,
          lastGlobalPosition: result.position?.commit ?? 0n,
          written: true,
        };
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        const actual = typeof err.actualVersion === 'bigint' ? err.actualVersion : 'no_stream';
        // Someone appended between our read and our write.
        if (typeof expected === 'bigint' || expected === 'no_stream') throw new StreamRevisionConflictError(streamName, expected, actual);
        if (attempt >= 5) throw new StreamRevisionConflictError(streamName, expected, actual);
        this.logger.debug({ streamName, attempt }, 'ESDB append raced another writer; retrying to keep the hash chain linear');
      }
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.collect(streamName, {
      direction: FORWARDS,
      fromRevision: options.fromRevision ?? START,
      ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
    });
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
    let from: ReadPosition = options.after !== undefined && options.after > 0n ? position(options.after) : START;
    let after = options.after ?? -1n;
    const page = 1000;
    while (out.length < wanted) {
      let read = 0;
      for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: page })) {
        read++;
        const commit = resolved.event?.position?.commit;
        if (commit !== undefined && commit > after) after = commit;
        const event = toRecorded(resolved, this.freeze);
        if (!event || event.globalPosition <= (options.after ?? -1n)) continue;
        out.push(event);
        if (out.length >= wanted) break;
      }
      if (read < page) break;
      from = position(after);
    }
    return out;
  }

  /** Commit position of the last non-system event in $all (0 when none). */
  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 200 })) {
      const event = toRecorded(resolved, false);
      if (event) return event.globalPosition;
    }
    return 0n;
  }

  subscribeToAll(handler: EventHandler, options: SubscribeToAllOptions = {}): Subscription {
    const subscription = new EsdbAllSubscription(this.client, handler, options, () => this.headPosition(), this.logger, this.freeze, (s) =>
      this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.ownsClient) await this.client.dispose();
  }

  private readRecent(streamName: string, count: number): Promise<RecordedEvent[]> {
    return this.collect(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: count });
  }

  /** A stream's events as read with these options (a stream that does not exist has none). */
  private async collect(streamName: string, read: Parameters<EventStoreDBClient['readStream']>[1]): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, read)) {
        const event = toRecorded(resolved, this.freeze);
        if (event) out.push(event);
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw err;
    }
    return out;
  }
}

class EsdbAllSubscription implements Subscription {
  private readonly stream: AllStreamSubscription;
  private readonly loop: Promise<void>;
  private position: bigint;
  private failure: Error | undefined;
  private stopped = false;
  private readonly waiters = new CatchUpWaiters(() => ({ failure: this.failure, stopped: this.stopped, position: this.position }));

  constructor(
    client: EventStoreDBClient,
    private readonly handler: EventHandler,
    private readonly options: SubscribeToAllOptions,
    private readonly head: () => Promise<bigint>,
    private readonly logger: InfraLogger,
    private readonly freeze: boolean,
    private readonly onStopped: (s: EsdbAllSubscription) => void,
  ) {
    this.position = options.after ?? 0n;
    this.stream = client.subscribeToAll({
      fromPosition: options.after !== undefined && options.after > 0n ? position(options.after) : START,
      filter: excludeSystemEvents(),
    });
    this.loop = this.run();
  }

  caughtUp(through?: bigint): Promise<void> {
    return this.waiters.until(through, () => this.head());
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.waiters.rejectAll(new Error('subscription stopped before catching up'));
      await this.stream.unsubscribe().catch(() => undefined);
    }
    await this.loop;
  }

  private async run(): Promise<void> {
    try {
      for await (const resolved of this.stream) {
        if (this.stopped) break;
        const event = toRecorded(resolved, this.freeze);
        if (!event || event.globalPosition <= this.position) continue;
        await this.handler(event);
        this.position = event.globalPosition;
        this.waiters.passed(this.position);
      }
    } catch (err) {
      if (!this.stopped) {
        const error = err instanceof Error ? err : new Error(String(err));
        this.failure = error;
        this.stopped = true;
        this.waiters.rejectAll(error);
        await this.stream.unsubscribe().catch(() => undefined);
        this.logger.error({ err: { message: error.message } }, 'ESDB subscription failed and stopped');
        this.options.onError?.(error);
      }
    } finally {
      this.onStopped(this);
    }
  }
}

function position(commit: bigint): Position {
  return { commit, prepare: commit };
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent, freeze: boolean): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || !event.isJson) return undefined;
  if (event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
  const metadata = (event.metadata ?? {}) as unknown as EventMetadata;
  return freezeIf(freeze, {
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: { ...metadata, eventId: metadata.eventId ?? event.id },
    streamName: event.streamId,
    streamPosition: event.revision,
    globalPosition: event.position?.commit ?? resolved.commitPosition ?? 0n,
    recordedAt: event.created.toISOString(),
  });
}

/** ESDB event ids must be UUIDs: keep UUIDs, map anything else to a stable name-based UUID. */
export function toUuid(eventId: string): string {
  if (UUID.test(eventId)) return eventId.toLowerCase();
  const hex = createHash('sha256').update(`svc-event-id:${eventId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
