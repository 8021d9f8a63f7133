import type { Event, RecordedEvent } from '../../shared/events';

/**
 * Expected revision for optimistic concurrency:
 * - a bigint: the stream's last position must be exactly this (0-based),
 * - 'no_stream': the stream must not exist yet,
 * - 'stream_exists': the stream must exist,
 * - 'any': no check.
 */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  /** Position of the last event now in the stream (pass it as the next expected revision). */
  nextExpectedRevision: bigint;
  /** Global position of the last appended event (or of the existing one, for an idempotent re-append). */
  lastGlobalPosition: bigint;
  /** False when every event id already existed and nothing was written. */
  written: boolean;
}

export interface ReadStreamOptions {
  fromRevision?: bigint;
  maxCount?: number;
  /**
   * The caller knows the stream reached this global position (it saw the event) and wants the stream
   * as of then or later: an adapter holding recent events in memory (the PostgreSQL store's tail) may
   * answer from them without a read. Any answer through at least this position is correct.
   */
  atLeastThrough?: bigint;
}

export interface ReadAllOptions {
  /** Exclusive: return events with globalPosition > after. Omit to start at the beginning. */
  after?: bigint;
  maxCount?: number;
}

export interface SubscribeToAllOptions {
  /** Exclusive checkpoint: deliver events with globalPosition > after. */
  after?: bigint;
  /** Poll interval for adapters without push (ms). */
  pollIntervalMs?: number;
  /**
   * Called once if the handler throws (or the store fails): the subscription then stops delivering,
   * and pending/future caughtUp() calls reject with that error. Resubscribe from your checkpoint.
   */
  onError?: (error: Error) => void;
}

export type EventHandler = (event: RecordedEvent) => Promise<void>;
/** Receives events in read batches (global order, never empty); the checkpoint moves past a batch once it resolves. */
export type EventBatchHandler = (events: RecordedEvent[]) => Promise<void>;

export interface Subscription {
  /** Stops delivering; resolves once the in-flight handler call has finished. */
  stop(): Promise<void>;
  /**
   * Resolves when the subscription has delivered everything committed before this call; with
   * `through`, once it has delivered that global position (no query for the store's head).
   */
  caughtUp(through?: bigint): Promise<void>;
}

/** The one port every event store adapter implements (PostgreSQL default, EventStoreDB/KurrentDB). */
export interface EventStore {
  appendToStream(
    streamName: string,
    events: Event[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Events of one stream in order; an empty array if the stream does not exist. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of all streams in global order. Never returns an event before an earlier committed one. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Delivers every committed event after the checkpoint exactly once, in global order, then follows live. */
  subscribeToAll(handler: EventHandler, options?: SubscribeToAllOptions): Subscription;
  /**
   * Same delivery guarantees as subscribeToAll, a read batch at a time, so a consumer can apply a
   * batch in one transaction. Optional: use subscribeInBatches() to fall back to one-event batches.
   */
  subscribeToAllInBatches?(handler: EventBatchHandler, options?: SubscribeToAllOptions): Subscription;
  close(): Promise<void>;
}

/** A stale expected revision: mapped to HTTP 409 (or 412 with If-Match) in one place, the error mapper. */
export class StreamRevisionConflictError extends Error {
  override readonly name = 'StreamRevisionConflictError';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/** Batch delivery where the adapter offers it, else one-event batches over subscribeToAll. */
export function subscribeInBatches(store: EventStore, handler: EventBatchHandler, options?: SubscribeToAllOptions): Subscription {
  if (store.subscribeToAllInBatches) return store.subscribeToAllInBatches(handler, options);
  return store.subscribeToAll((event) => handler([event]), options);
}
