/**
 * Events are facts, named in the past tense, shaped `{type, data, metadata}` as a
 * discriminated union on `type` (the Emmett convention). Timestamps are supplied by
 * the caller: deciders never read the clock.
 */

export type Surface = 's1' | 's2' | 's3' | 'portal' | 'system';

export interface Actor {
  /** Tenant account id (numeric accounts are stored as strings to stay stable across stores). */
  accountId?: string;
  /** Id of the API key that authenticated the request, never the key itself. */
  keyId?: string;
  /** User id for session/JWT actors (analysts, auditors). */
  userId?: string;
  surface: Surface;
}

export interface EventMetadata {
  /** Unique id of this event: appending an id that already exists is a no-op. */
  eventId: string;
  /** Id of the command or event that caused this one. */
  causationId?: string;
  /** Id shared by everything one request or workflow produced. */
  correlationId?: string;
  /**
   * W3C trace context of the span that appended the event (only when tracing is on): the relay, the
   * read models and the webhooks continue that trace (src/infrastructure/telemetry).
   */
  traceparent?: string;
  actor?: Actor;
  /** When the fact happened, ISO 8601 UTC, supplied by the command handler's clock. */
  occurredAt: string;
  /**
   * The events of a create sent with an Idempotency-Key record it here, in the same append as the
   * resource they create: their ids derive from the key (a second create under it is refused by the
   * store's unique event ids) and this names the key and the request (docs/idempotency-and-strict-input.md).
   */
  idempotency?: EventIdempotency;
  /** Hash of the previous event in the same stream (hash chain, filled by the store). */
  previousHash?: string;
  /** Hash of this event (type, data, metadata without `hash`), filled by the store. */
  hash?: string;
}

/** What a create's events record of the Idempotency-Key it was sent with. */
export interface EventIdempotency {
  /** SHA-256 (hex) of the key's scope (surface, account, credential) and the key: never the key itself. */
  key: string;
  /** The request's fingerprint: SHA-256 of its method, path and canonical body (of a streamed body: its type, length and query). */
  request: string;
}

export interface Event<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

/** An event as read back from the store, with its positions. */
export type RecordedEvent<E extends Event = Event> = E & {
  streamName: string;
  /** 0-based position inside its stream. */
  streamPosition: bigint;
  /** Position in the global, gap-free-for-readers order of all events. */
  globalPosition: bigint;
  /** When the store committed it (informational; business time is metadata.occurredAt). */
  recordedAt: string;
};

/** An event before the store has stamped positions on it; metadata may be completed by the command handler. */
export type NewEvent<E extends Event = Event> = E;

/** Exhaustiveness guard for `switch` over discriminated unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
