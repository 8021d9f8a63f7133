/**
 * The PostgreSQL event store (the default adapter).
 *
 * Global order: appends take one transaction-level advisory lock before drawing positions and hold it
 * until commit, so positions are handed out in commit order. A reader that sees position N therefore
 * already sees every committed position below N: plain `global_position > checkpoint` reads never skip
 * a committed event. Rolled-back appends leave gaps in the numbering that are never filled later.
 * (Measured cost: appends are serialised, see bench/eventstore.ts.)
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

/** Arbitrary constant shared by every appender: the append serialisation lock. */
export const APPEND_LOCK_KEY = 727_100_002;
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
  logger?: InfraLogger;
}

export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly logger: InfraLogger;
  private readonly subscriptions = new Set<PgAllSubscription>();
  private listener: pg.Client | undefined;
  private listenerStarting: Promise<void> | undefined;
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
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await this.appendInTransaction(client, streamName, events, options);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Appends inside a transaction the caller opened on `client` (BEGIN … COMMIT/ROLLBACK is theirs),
   * so events can commit atomically with other rows. Holds the append lock until that transaction
   * ends: keep it short.
   */
  async appendInTransaction(
    client: Queryable,
    streamName: string,
    events: Event[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    const ids = validateBatch(events);
    await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);

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
    const inserted = await client.query<{ global_position: string }>(
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
    );
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
    return this.readAllWith(this.pool, options);
  }

  /** readAll on a given client/pool (e.g. inside a caller's transaction). */
  async readAllWith(queryable: Pick<pg.Pool, 'query'> | Queryable, options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await queryable.query<EventRow>(
      `SELECT global_position, stream_name, stream_position, event_type, data, metadata, recorded_at
         FROM events WHERE global_position > $1
        ORDER BY global_position LIMIT $2`,
      [String(options.after ?? 0n), options.maxCount ?? null],
    );
    return rows.map(toRecorded);
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
