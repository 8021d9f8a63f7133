/**
 * The PostgreSQL event store (the default adapter).
 *
 * Global order without skipped events, while appends stay concurrent (so their commits share fsyncs):
 * - every append holds a SHARED transaction-level advisory lock (the "append fence") from before it
 *   draws global positions until its transaction ends, plus an exclusive per-stream lock;
 * - a reader first passes the fence: it takes the same lock EXCLUSIVELY, which waits until every
 *   append that already drew positions has committed or rolled back (and holds back new ones for that
 *   instant), reads max(global_position) as its horizon, and releases. Every position at or below the
 *   horizon is then settled for good, so `global_position > checkpoint AND <= horizon` never skips an
 *   event that commits later. Rolled-back appends leave gaps in the numbering, never holes that fill.
 * Concurrent fence requests are coalesced (each caller still gets a fence that started after its call).
 * Consequence: do not call readAll/subscriptions while holding an open appendInTransaction transaction
 * on another connection: the fence would wait for it.
 *
 * Idempotency: a batch whose event ids all exist already in this stream is a no-op (written: false,
 * no revision check, so a retry after a lost reply succeeds); a batch where only some exist, or where
 * they exist in another stream, is rejected whole with DuplicateEventIdsError.
 */
import pg from 'pg';
import type { Event, RecordedEvent } from '../../../shared/events';
import { silentLogger, type InfraLogger } from '../../postgres/log';
import { DuplicateEventIdsError, InvalidEventBatchError } from '../errors';
import { chainEvents, GENESIS_HASH } from '../hashChain';
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
import { PgAllSubscription } from './subscription';

/** Advisory lock namespaces (two-int keys): the append fence, and one lock per stream (hashtext). */
export const APPEND_FENCE_NS = 727_100;
export const STREAM_LOCK_NS = 727_101;
export const EVENTS_CHANNEL = 'svc_events_appended';

type Queryable = Pick<pg.PoolClient, 'query'>;

interface EventRow {
  global_position: string;
  stream_name: string;
  stream_position: string;
  event_type: string;
  data: Record<string, unknown>;
  metadata: Event['metadata'];
  recorded_at: Date;
}

export interface PostgresEventStoreOptions {
  pool: pg.Pool;
  /** Connection string for the dedicated LISTEN connection (default: the pool's own settings). */
  listenConnectionString?: string;
  /** Subscription poll interval when no NOTIFY arrives (ms, default 1000). */
  pollIntervalMs?: number;
  /** Events fetched per subscription read (default 500). */
  batchSize?: number;
  /** Minimum spacing between read fences (ms, default 25): bounds how often readers pause appends. */
  minFenceIntervalMs?: number;
  logger?: InfraLogger;
}

export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly logger: InfraLogger;
  private readonly subscriptions = new Set<PgAllSubscription>();
  private listener: pg.Client | undefined;
  private listenerStarting: Promise<void> | undefined;
  private fenceRunning: Promise<bigint> | undefined;
  private fenceQueued: Promise<bigint> | undefined;
  private lastFenceStart = 0;
  private closed = false;

  constructor(private readonly options: PostgresEventStoreOptions) {
    this.pool = options.pool;
    this.logger = options.logger ?? silentLogger;
  }

  async appendToStream(
    streamName: string,
    events: Event[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const result = await this.appendInTransaction(client, streamName, events, options);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        // The same id committed by a concurrent append to another stream: run again to answer
        // exactly as if it had been there first (idempotent no-op or DuplicateEventIdsError).
        if (err instanceof ConcurrentEventIdError && attempt === 1) continue;
        throw err;
      } finally {
        client.release();
      }
    }
  }

  /**
   * Appends inside a transaction the caller opened on `client` (BEGIN … COMMIT/ROLLBACK is theirs),
   * so events can commit atomically with other rows. Readers' fences wait for that transaction to
   * end: keep it short.
   */
  async appendInTransaction(
    client: Queryable,
    streamName: string,
    events: Event[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    const ids = validateBatch(events);
    // Fence first (shared, before any position is drawn), then this stream (revision + hash chain).
    await client.query('SELECT pg_advisory_xact_lock_shared($1::int, 0), pg_advisory_xact_lock($2::int, hashtext($3))', [
      APPEND_FENCE_NS,
      STREAM_LOCK_NS,
      streamName,
    ]);

    const stream = await client.query<{ stream_position: string; last_hash: string; last_global_position: string }>(
      'SELECT stream_position, last_hash, last_global_position FROM streams WHERE stream_name = $1',
      [streamName],
    );
    const current = stream.rows[0];
    const currentRevision = current ? BigInt(current.stream_position) : undefined;

    if (ids.length > 0) {
      const existing = await client.query<{ event_id: string; stream_name: string; global_position: string }>(
        'SELECT event_id, stream_name, global_position FROM events WHERE event_id = ANY($1::text[])',
        [ids],
      );
      if (existing.rowCount) {
        const existingIds = existing.rows.map((r) => r.event_id);
        if (existing.rows.some((r) => r.stream_name !== streamName)) {
          throw new DuplicateEventIdsError(streamName, existingIds, 'event ids already exist in another stream');
        }
        if (existing.rows.length !== ids.length) {
          throw new DuplicateEventIdsError(streamName, existingIds, 'some event ids of this batch already exist, others do not: nothing written');
        }
        return {
          nextExpectedRevision: currentRevision!,
          lastGlobalPosition: existing.rows.reduce((max, r) => (BigInt(r.global_position) > max ? BigInt(r.global_position) : max), 0n),
          written: false,
        };
      }
    }

    checkExpectedRevision(streamName, expected, currentRevision);
    if (events.length === 0) {
      return {
        nextExpectedRevision: currentRevision ?? -1n,
        lastGlobalPosition: current ? BigInt(current.last_global_position) : 0n,
        written: false,
      };
    }

    const chained = chainEvents(events, current?.last_hash ?? GENESIS_HASH);
    const firstPosition = currentRevision === undefined ? 0n : currentRevision + 1n;
    const inserted = await insertEvents(() => client.query<{ global_position: string }>(
      `INSERT INTO events (stream_name, stream_position, event_id, event_type, data, metadata)
       SELECT $1, e.stream_position, e.event_id, e.event_type, e.data, e.metadata
         FROM unnest($2::bigint[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[])
              WITH ORDINALITY AS e(stream_position, event_id, event_type, data, metadata, ord)
        ORDER BY e.ord
       RETURNING global_position`,
      [
        streamName,
        chained.map((_, i) => String(firstPosition + BigInt(i))),
        chained.map((e) => e.metadata.eventId),
        chained.map((e) => e.type),
        chained.map((e) => JSON.stringify(e.data)),
        chained.map((e) => JSON.stringify(e.metadata)),
      ],
    ), streamName, ids);
    const lastGlobalPosition = inserted.rows.reduce((max, r) => (BigInt(r.global_position) > max ? BigInt(r.global_position) : max), 0n);
    const lastRevision = firstPosition + BigInt(chained.length - 1);
    await client.query(
      `INSERT INTO streams (stream_name, stream_position, last_hash, last_global_position) VALUES ($1, $2, $3, $4)
       ON CONFLICT (stream_name) DO UPDATE
         SET stream_position = EXCLUDED.stream_position, last_hash = EXCLUDED.last_hash, last_global_position = EXCLUDED.last_global_position`,
      [streamName, String(lastRevision), chained[chained.length - 1]!.metadata.hash, String(lastGlobalPosition)],
    );
    // Delivered at commit only; subscribers treat it as a wake-up, never as data.
    await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, String(lastGlobalPosition)]);
    return { nextExpectedRevision: lastRevision, lastGlobalPosition, written: true };
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT global_position, stream_name, stream_position, event_type, data, metadata, recorded_at
         FROM events WHERE stream_name = $1 AND stream_position >= $2
        ORDER BY stream_position LIMIT $3`,
      [streamName, String(options.fromRevision ?? 0n), options.maxCount ?? null],
    );
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0n;
    const horizon = await this.fence();
    if (horizon <= after) return [];
    const { rows } = await this.pool.query<EventRow>(
      `SELECT global_position, stream_name, stream_position, event_type, data, metadata, recorded_at
         FROM events WHERE global_position > $1 AND global_position <= $2
        ORDER BY global_position LIMIT $3`,
      [String(after), String(horizon), options.maxCount ?? null],
    );
    return rows.map(toRecorded);
  }

  /**
   * A read horizon every position at or below which is settled (committed or never will be).
   * Coalesced: callers arriving while a fence runs share the next one, which starts after it.
   */
  fence(): Promise<bigint> {
    if (!this.fenceRunning) {
      const running = this.spacedFence().finally(() => {
        if (this.fenceRunning === running) this.fenceRunning = undefined;
      });
      this.fenceRunning = running;
      return running;
    }
    this.fenceQueued ??= this.fenceRunning
      .catch(() => undefined)
      .then(() => {
        this.fenceQueued = undefined;
        return this.fence();
      });
    return this.fenceQueued;
  }

  /**
   * Fences at most every minFenceIntervalMs: each one holds new appends back for a moment, so under a
   * steady write load with live subscribers, one fence per few ms covers many commits.
   */
  private async spacedFence(): Promise<bigint> {
    const wait = this.lastFenceStart + (this.options.minFenceIntervalMs ?? 25) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.lastFenceStart = Date.now();
    return this.runFence();
  }

  private async runFence(): Promise<bigint> {
    const client = await this.pool.connect();
    try {
      // One round trip; the max() runs in a statement whose snapshot is taken after the lock is held.
      const results = (await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(${APPEND_FENCE_NS}, 0); SELECT coalesce(max(global_position), 0)::text AS horizon FROM events; COMMIT;`,
      )) as unknown as pg.QueryResult<{ horizon: string }>[];
      return BigInt(results[2]!.rows[0]!.horizon);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** Highest committed global position (0 when empty): the head used for caughtUp() and lag. */
  async headPosition(): Promise<bigint> {
    const { rows } = await this.pool.query<{ head: string | null }>('SELECT max(global_position) AS head FROM events');
    return rows[0]?.head ? BigInt(rows[0].head) : 0n;
  }

  subscribeToAll(handler: EventHandler, options: SubscribeToAllOptions = {}): Subscription {
    if (this.closed) throw new Error('PostgresEventStore is closed');
    const subscription = new PgAllSubscription({
      handler,
      after: options.after ?? 0n,
      pollIntervalMs: options.pollIntervalMs ?? this.options.pollIntervalMs ?? 1000,
      batchSize: this.options.batchSize ?? 500,
      read: (after, maxCount) => this.readAll({ after, maxCount }),
      head: () => this.headPosition(),
      onError: options.onError,
      logger: this.logger,
      onStopped: (s) => this.subscriptions.delete(s),
    });
    this.subscriptions.add(subscription);
    void this.ensureListener();
    subscription.start();
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.end().catch(() => undefined);
  }

  /** One LISTEN connection per store wakes every subscription; polling covers its absence. */
  private ensureListener(): Promise<void> {
    if (this.listener || this.closed) return Promise.resolve();
    this.listenerStarting ??= (async () => {
      const client = new pg.Client(
        this.options.listenConnectionString
          ? { connectionString: this.options.listenConnectionString }
          : (this.pool as unknown as { options: pg.ClientConfig }).options,
      );
      client.on('notification', () => {
        for (const s of this.subscriptions) s.wake();
      });
      client.on('error', (err) => {
        this.logger.warn({ err: { message: err.message } }, 'event store LISTEN connection lost; polling until it is back');
        if (this.listener === client) this.listener = undefined;
        client.end().catch(() => undefined);
        if (!this.closed && this.subscriptions.size > 0) setTimeout(() => void this.ensureListener(), 1000).unref();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${EVENTS_CHANNEL}`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.listener = client;
        for (const s of this.subscriptions) s.wake(); // anything appended while we connected
      } catch (err) {
        this.logger.warn({ err: { message: (err as Error).message } }, 'event store LISTEN unavailable; subscriptions poll');
        await client.end().catch(() => undefined);
      }
    })().finally(() => {
      this.listenerStarting = undefined;
    });
    return this.listenerStarting;
  }
}

/** An event id of this batch was committed meanwhile by a concurrent append (to another stream). */
class ConcurrentEventIdError extends DuplicateEventIdsError {}

async function insertEvents<T>(insert: () => Promise<T>, streamName: string, ids: string[]): Promise<T> {
  try {
    return await insert();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'events_event_id_unique') {
      throw new ConcurrentEventIdError(streamName, ids, 'an event id of this batch was appended concurrently');
    }
    throw err;
  }
}

function validateBatch(events: Event[]): string[] {
  const ids = events.map((e, i) => {
    const id = e.metadata?.eventId;
    if (typeof id !== 'string' || id.length === 0) throw new InvalidEventBatchError(`event #${i} (${e.type}) has no metadata.eventId`);
    return id;
  });
  if (new Set(ids).size !== ids.length) throw new InvalidEventBatchError('the same eventId appears twice in one batch');
  return ids;
}

export function checkExpectedRevision(streamName: string, expected: ExpectedRevision, current: bigint | undefined): void {
  const actual = current ?? 'no_stream';
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === undefined) ||
    (expected === 'stream_exists' && current !== undefined) ||
    (typeof expected === 'bigint' && current === expected);
  if (!ok) throw new StreamRevisionConflictError(streamName, expected, actual);
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    streamName: row.stream_name,
    streamPosition: BigInt(row.stream_position),
    globalPosition: BigInt(row.global_position),
    recordedAt: row.recorded_at.toISOString(),
  };
}
