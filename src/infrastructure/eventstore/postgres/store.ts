/**
 * Over 500 lines on purpose: the append, the ordered read fence and the subscriptions share one
 * connection discipline and one set of invariants (no skipped events); split, each half would need the other's.
 *
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
 * The fence and the read are one round trip (es_read_settled, migration 083); live subscriptions
 * share one such read through the tail (coalesced: each caller still gets a fence begun after its call).
 * Consequence: do not call readAll/subscriptions while holding an open appendInTransaction transaction
 * on another connection: the fence would wait for it.
 *
 * One round trip per append: es_append (migration 082) takes both locks, checks the head the client
 * chained its hashes from (a per-process cache of stream heads, verified there, never trusted), writes
 * and notifies; the batch's data and metadata go as one JSON array each (its overload, migration 085).
 * Appends asked for in the same turn of the event loop share one statement (es_append_many, migration
 * 086; see flushAppends). A stale guess costs a second round trip; a hot stream falls back to reading
 * the head under the lock.
 *
 * Idempotency: a batch whose event ids all exist already in this stream is a no-op (written: false,
 * no revision check, so a retry after a lost reply succeeds); a batch where only some exist, or where
 * they exist in another stream, is rejected whole with DuplicateEventIdsError.
 */
import pg from 'pg';
import type { Event, RecordedEvent } from '../../../shared/events';
import { systemTimer, type Timer } from '../../../shared/clock';
import { freezeIf } from '../../../shared/freeze';
import { silentLogger, type InfraLogger } from '../../postgres/log';
import { DuplicateEventIdsError, InvalidEventBatchError } from '../errors';
import { canonicalJson, chainEvents, GENESIS_HASH } from '../hashChain';
import {
  StreamRevisionConflictError,
  type AppendResult,
  type EventBatchHandler,
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

/** A validated batch for one stream, its data serialised once. */
interface PreparedAppend {
  streamName: string;
  events: Event[];
  ids: string[];
  expected: ExpectedRevision;
  /** canonicalJson of each event's data: the text hashed is the text stored. */
  dataJson: string[];
  dataArray: string;
}

interface QueuedAppend {
  prepared: PreparedAppend;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** Last position and hash of a stream, as this process last saw them (a guess es_append verifies). */
interface StreamHead {
  revision: bigint;
  hash: string;
}
const HEAD_CACHE_SIZE = 10_000;
/** Latest settled events kept for live subscriptions, and the most one tail read fetches. */
const TAIL_CAPACITY = 2_000;
const TAIL_READ_LIMIT = 500;

interface AppendRow {
  outcome: 'written' | 'existing' | 'head_moved' | 'id_conflict';
  stream_position: string | null;
  last_hash: string | null;
  last_global_position: string | null;
  existing_ids: string[] | null;
  existing_streams: string[] | null;
}

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
  /**
   * Appends asked for at the same time share one statement and commit (default true); false sends
   * each on its own, as appendInTransaction always does.
   */
  batchAppends?: boolean;
  /** Minimum spacing between read fences (ms, default 25; the service's default is 1): bounds how often readers pause appends. */
  minFenceIntervalMs?: number;
  logger?: InfraLogger;
  /** Elapsed time between fences (default the monotonic system timer). */
  timer?: Timer;
  /**
   * Deep-freeze every event read (default true; FREEZE_EVENTS): the tail hands the same objects to
   * every subscriber, so a reader that mutated one would change what the others see (src/shared/freeze.ts).
   */
  freezeEvents?: boolean;
}

export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly logger: InfraLogger;
  private readonly timer: Timer;
  private readonly subscriptions = new Set<PgAllSubscription>();
  private listener: pg.Client | undefined;
  private listenerStarting: Promise<void> | undefined;
  private lastFenceStart = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** Recently seen stream heads, least recently used first (Map keeps insertion order). */
  private readonly heads = new Map<string, StreamHead>();
  /** Every committed event with from < global_position <= to, in order (see readForSubscription). */
  private tail: { from: bigint; to: bigint; events: RecordedEvent[] } | undefined;
  /** NOTIFYs received (and LISTEN reconnections): each may announce a commit the tail has not read. */
  private notifications = 0;
  /**
   * The notification count when the last fence that reached its horizon began, and when: while no
   * NOTIFY arrives after it, the tail holds every committed event (see readForSubscription).
   */
  private tailSettled: { notifications: number; at: number } | undefined;
  private tailRunning: Promise<void> | undefined;
  private tailQueued: Promise<void> | undefined;
  /** Appends waiting for the next flush (see appendTogether). */
  private readonly appendQueue: QueuedAppend[] = [];
  private appendFlushScheduled = false;

  constructor(private readonly options: PostgresEventStoreOptions) {
    this.pool = options.pool;
    this.logger = options.logger ?? silentLogger;
    this.timer = options.timer ?? systemTimer;
  }

  async appendToStream(
    streamName: string,
    events: Event[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        // One statement in autocommit: es_append takes the locks and commits with its own transaction.
        // Appends asked for at the same time share that statement (es_append_many, see flushAppends).
        if (events.length > 0 && this.options.batchAppends !== false) return await this.appendTogether(this.prepare(streamName, events, options));
        return await this.appendVia(this.pool, streamName, events, options);
      } catch (err) {
        // The same id committed by a concurrent append to another stream: run again to answer
        // exactly as if it had been there first (idempotent no-op or DuplicateEventIdsError).
        if (err instanceof ConcurrentEventIdError && attempt === 1) continue;
        throw err;
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
    return this.appendVia(client, streamName, events, options);
  }

  /**
   * The append itself: chain the hashes from the head we believe current, let es_append (migration
   * 082) check that belief under the locks and write, in one round trip. A wrong belief (stale cache,
   * another writer) costs one more round trip; the expected revision is checked against the real head.
   */
  private async appendVia(
    client: Queryable,
    streamName: string,
    events: Event[],
    options: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult> {
    const prepared = this.prepare(streamName, events, options);
    return this.appendPrepared(client, prepared, this.assumedHead(streamName, prepared.expected), 1);
  }

  /** Validates a batch and serialises its data once (canonical JSON: the text hashed is the text stored). */
  private prepare(streamName: string, events: Event[], options: { expectedRevision?: ExpectedRevision }): PreparedAppend {
    const ids = validateBatch(events);
    // The batch travels as one JSON array (migration 085), not as jsonb[], whose array literal would
    // escape every quote of every event again.
    const dataJson = events.map((e) => canonicalJson(e.data));
    return { streamName, events, ids, expected: options.expectedRevision ?? 'any', dataJson, dataArray: '[' + dataJson.join(',') + ']' };
  }

  private async appendPrepared(client: Queryable, prepared: PreparedAppend, assumedHead: StreamHead | undefined, firstRound: number): Promise<AppendResult> {
    let assumed = assumedHead;
    for (let round = firstRound; ; round++) {
      const chained = chainEvents(prepared.events, assumed?.hash ?? GENESIS_HASH, prepared.dataJson);
      const { rows } = await insertEvents(
        () =>
          client.query<AppendRow>('SELECT * FROM es_append($1, $2, $3, $4::text[], $5::text[], $6::jsonb, $7::jsonb, $8)', [
            prepared.streamName,
            assumed ? String(assumed.revision) : null,
            assumed?.hash ?? null,
            prepared.ids,
            chained.map((e) => e.type),
            prepared.dataArray,
            JSON.stringify(chained.map((e) => e.metadata)),
            chained.length > 0 ? chained[chained.length - 1]!.metadata.hash : null,
          ]),
        prepared.streamName,
        prepared.ids,
      );
      const settled = this.settle(prepared, rows[0]!, round);
      if (settled.kind === 'done') return settled.result;
      // Only 'any' and 'stream_exists' can meet a moving head twice (writers racing on one stream):
      // then hold the stream lock while reading the head, so the next round cannot lose.
      if (settled.kind === 'hold') return this.appendHoldingLock(client, prepared.streamName, prepared.events, prepared.expected);
      assumed = settled.assumed;
    }
  }

  /** What es_append's answer means for the caller: a result, another round from the real head, or the locked path. */
  private settle(
    prepared: PreparedAppend,
    row: AppendRow,
    round: number,
  ): { kind: 'done'; result: AppendResult } | { kind: 'again'; assumed: StreamHead | undefined } | { kind: 'hold' } {
    const { streamName, ids, events, expected } = prepared;
    const actual = row.stream_position === null ? undefined : { revision: BigInt(row.stream_position), hash: row.last_hash! };
    if (row.outcome === 'existing') {
      const existingIds = row.existing_ids ?? [];
      if ((row.existing_streams ?? []).some((s) => s !== streamName)) {
        throw new DuplicateEventIdsError(streamName, existingIds, 'event ids already exist in another stream');
      }
      if (existingIds.length !== ids.length) {
        throw new DuplicateEventIdsError(streamName, existingIds, 'some event ids of this batch already exist, others do not: nothing written');
      }
      return { kind: 'done', result: { nextExpectedRevision: actual!.revision, lastGlobalPosition: BigInt(row.last_global_position!), written: false } };
    }
    if (row.outcome === 'head_moved') {
      this.rememberHead(streamName, actual);
      checkExpectedRevision(streamName, expected, actual?.revision);
      if (events.length === 0) {
        return { kind: 'done', result: { nextExpectedRevision: actual?.revision ?? -1n, lastGlobalPosition: actual ? BigInt(row.last_global_position!) : 0n, written: false } };
      }
      return round >= 2 ? { kind: 'hold' } : { kind: 'again', assumed: actual };
    }
    if (events.length === 0) {
      return { kind: 'done', result: { nextExpectedRevision: actual?.revision ?? -1n, lastGlobalPosition: actual ? BigInt(row.last_global_position!) : 0n, written: false } };
    }
    this.rememberHead(streamName, actual);
    return { kind: 'done', result: { nextExpectedRevision: actual!.revision, lastGlobalPosition: BigInt(row.last_global_position!), written: true } };
  }

  /**
   * Queues an append for the next flush: the appends callers ask for at the same time (one turn of
   * the event loop: concurrent HTTP requests, the orchestrator's batch of screenings) go to the
   * database together, one round trip and one commit for all.
   */
  private appendTogether(prepared: PreparedAppend): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.appendQueue.push({ prepared, resolve, reject });
      if (!this.appendFlushScheduled) {
        this.appendFlushScheduled = true;
        setImmediate(() => this.flushAppends());
      }
    });
  }

  private flushAppends(): void {
    this.appendFlushScheduled = false;
    const queued = this.appendQueue.splice(0);
    // One append per stream per statement: a second one chains from the first's new head, so it
    // waits for the next flush after the first has settled.
    const now: QueuedAppend[] = [];
    const later: QueuedAppend[] = [];
    const streams = new Set<string>();
    for (const item of queued) {
      if (streams.has(item.prepared.streamName)) later.push(item);
      else {
        streams.add(item.prepared.streamName);
        now.push(item);
      }
    }
    const sent = now.length === 1 ? this.appendOne(now[0]!) : this.appendMany(now);
    if (later.length > 0) {
      void sent.finally(() => {
        this.appendQueue.unshift(...later);
        if (!this.appendFlushScheduled) {
          this.appendFlushScheduled = true;
          setImmediate(() => this.flushAppends());
        }
      });
    }
  }

  private appendOne(item: QueuedAppend): Promise<void> {
    const { prepared } = item;
    return this.appendPrepared(this.pool, prepared, this.assumedHead(prepared.streamName, prepared.expected), 1).then(item.resolve, item.reject);
  }

  /**
   * Several streams in one es_append_many (migration 086), in stream-name order so concurrent
   * batches take the stream locks in one order. Each answer is settled as es_append's would be; an
   * append that must go another round (a head that moved) or whose id was committed meanwhile by
   * another stream continues alone.
   */
  private async appendMany(items: QueuedAppend[]): Promise<void> {
    const sorted = [...items].sort((a, b) => (a.prepared.streamName < b.prepared.streamName ? -1 : 1));
    const assumed = sorted.map((item) => this.assumedHead(item.prepared.streamName, item.prepared.expected));
    const chained = sorted.map((item, i) => chainEvents(item.prepared.events, assumed[i]?.hash ?? GENESIS_HASH, item.prepared.dataJson));
    let rows: (AppendRow & { idx: number })[];
    try {
      ({ rows } = await this.pool.query<AppendRow & { idx: number }>(
        'SELECT * FROM es_append_many($1::text[], $2::bigint[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::jsonb, $9::jsonb)',
        [
          sorted.map((item) => item.prepared.streamName),
          assumed.map((head) => (head ? String(head.revision) : null)),
          assumed.map((head) => head?.hash ?? null),
          sorted.map((item) => item.prepared.events.length),
          chained.map((events) => events[events.length - 1]!.metadata.hash),
          sorted.flatMap((item) => item.prepared.ids),
          chained.flatMap((events) => events.map((e) => e.type)),
          '[' + sorted.map((item) => item.prepared.dataJson.join(',')).join(',') + ']',
          JSON.stringify(chained.flatMap((events) => events.map((e) => e.metadata))),
        ],
      ));
    } catch (err) {
      for (const item of sorted) item.reject(err);
      return;
    }
    await Promise.all(
      sorted.map(async (item, i) => {
        try {
          const row = rows.find((r) => r.idx === i + 1);
          if (!row) throw new Error(`es_append_many gave no answer for ${item.prepared.streamName}`);
          if (row.outcome === 'id_conflict') {
            throw new ConcurrentEventIdError(item.prepared.streamName, item.prepared.ids, 'an event id of this batch was appended concurrently');
          }
          const settled = this.settle(item.prepared, row, 1);
          if (settled.kind === 'done') item.resolve(settled.result);
          else if (settled.kind === 'again') item.resolve(await this.appendPrepared(this.pool, item.prepared, settled.assumed, 2));
          else item.resolve(await this.appendHoldingLock(this.pool, item.prepared.streamName, item.prepared.events, item.prepared.expected));
        } catch (err) {
          item.reject(err);
        }
      }),
    );
  }

  /** The old way, for hot streams: locks, head and es_append in one transaction, which cannot lose. */
  private async appendHoldingLock(client: Queryable, streamName: string, events: Event[], expected: ExpectedRevision): Promise<AppendResult> {
    const inCallersTransaction = client !== this.pool;
    const connection = inCallersTransaction ? client : await this.pool.connect();
    try {
      if (!inCallersTransaction) await connection.query('BEGIN');
      // Same order as es_append (fence, then stream), so a reader's fence cannot deadlock with us.
      await connection.query('SELECT pg_advisory_xact_lock_shared($1::int, 0), pg_advisory_xact_lock($2::int, hashtext($3))', [
        APPEND_FENCE_NS,
        STREAM_LOCK_NS,
        streamName,
      ]);
      const { rows } = await connection.query<{ stream_position: string; last_hash: string }>(
        'SELECT stream_position, last_hash FROM streams WHERE stream_name = $1',
        [streamName],
      );
      const head = rows[0] ? { revision: BigInt(rows[0].stream_position), hash: rows[0].last_hash } : undefined;
      checkExpectedRevision(streamName, expected, head?.revision);
      this.rememberHead(streamName, head);
      const result = await this.appendVia(connection, streamName, events, { expectedRevision: head?.revision ?? 'no_stream' });
      if (!inCallersTransaction) await connection.query('COMMIT');
      return result;
    } catch (err) {
      if (!inCallersTransaction) await connection.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      if (!inCallersTransaction) (connection as pg.PoolClient).release();
    }
  }

  /**
   * The head to chain from on the first try. It must satisfy the expected revision, since es_append
   * writes whenever the real head equals it: when the cache cannot vouch for that, an impossible head
   * makes the server answer with the real one first. An empty batch always asks for the real head.
   */
  private assumedHead(streamName: string, expected: ExpectedRevision): StreamHead | undefined {
    const unknown: StreamHead = { revision: -1n, hash: '' };
    const cached = this.heads.get(streamName);
    if (expected === 'no_stream') return undefined;
    if (typeof expected === 'bigint') return cached?.revision === expected ? cached : { revision: expected, hash: '' };
    if (expected === 'stream_exists') return cached ?? unknown;
    return cached; // 'any': a stream we have not seen is most likely new
  }

  private rememberHead(streamName: string, head: StreamHead | undefined): void {
    this.heads.delete(streamName);
    if (!head) return;
    this.heads.set(streamName, head);
    if (this.heads.size > HEAD_CACHE_SIZE) this.heads.delete(this.heads.keys().next().value!);
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.atLeastThrough !== undefined && options.fromRevision === undefined && options.maxCount === undefined) {
      const recent = this.streamFromTail(streamName, options.atLeastThrough);
      if (recent) return recent;
    }
    const { rows } = await this.pool.query<EventRow>(
      `SELECT global_position, stream_name, stream_position, event_type, data, metadata, recorded_at
         FROM events WHERE stream_name = $1 AND stream_position >= $2
        ORDER BY stream_position LIMIT $3`,
      [streamName, String(options.fromRevision ?? 0n), options.maxCount ?? null],
    );
    const recorded = rows.map((row) => this.recorded(row));
    // The last event read is the likely head: the next append to this stream chains from it.
    const last = recorded[recorded.length - 1];
    if (last && options.maxCount === undefined && typeof last.metadata.hash === 'string') {
      this.rememberHead(streamName, { revision: last.streamPosition, hash: last.metadata.hash });
    }
    return recorded;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return (await this.readSettled(options.after ?? 0n, options.maxCount ?? null)).events;
  }

  /**
   * Events after `after` up to a settled horizon (every position at or below it is committed or
   * never will be), and that horizon: the read fence and the read in one round trip (es_read_settled,
   * migration 083). Fences are spaced at least minFenceIntervalMs apart: each one holds new appends
   * back for a moment, so under a steady write load one fence covers many commits.
   */
  private async readSettled(after: bigint, maxCount: number | null): Promise<{ horizon: bigint; events: RecordedEvent[] }> {
    const wait = this.lastFenceStart + (this.options.minFenceIntervalMs ?? 25) - this.timer.nowMs();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.lastFenceStart = this.timer.nowMs();
    const { rows } = await this.pool.query<EventRow & { horizon: string }>('SELECT * FROM es_read_settled($1, $2)', [String(after), maxCount]);
    return { horizon: BigInt(rows[0]!.horizon), events: rows.slice(1).map((row) => this.recorded(row)) };
  }

  /** An event as read, frozen unless FREEZE_EVENTS is off. */
  private recorded(row: EventRow): RecordedEvent {
    return freezeIf(this.options.freezeEvents ?? true, toRecorded(row));
  }

  /** Highest committed global position (0 when empty): the head used for caughtUp() and lag. */
  async headPosition(): Promise<bigint> {
    const { rows } = await this.pool.query<{ head: string | null }>('SELECT max(global_position) AS head FROM events');
    return rows[0]?.head ? BigInt(rows[0].head) : 0n;
  }

  subscribeToAll(handler: EventHandler, options: SubscribeToAllOptions = {}): Subscription {
    return this.subscribe({ handler }, options);
  }

  subscribeToAllInBatches(handler: EventBatchHandler, options: SubscribeToAllOptions = {}): Subscription {
    return this.subscribe({ batchHandler: handler }, options);
  }

  private subscribe(handlers: { handler?: EventHandler; batchHandler?: EventBatchHandler }, options: SubscribeToAllOptions): Subscription {
    if (this.closed) throw new Error('PostgresEventStore is closed');
    const subscription = new PgAllSubscription({
      ...handlers,
      after: options.after ?? 0n,
      pollIntervalMs: options.pollIntervalMs ?? this.options.pollIntervalMs ?? 1000,
      batchSize: this.options.batchSize ?? 500,
      read: (after, maxCount) => this.readForSubscription(after, maxCount),
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

  /**
   * Live subscriptions (relay, read models, completion notifier…) all want the same newest events:
   * they share one fence and one read through the tail, a window of the latest settled events.
   * A subscription behind the window (catching up) reads on its own.
   */
  private async readForSubscription(after: bigint, maxCount: number): Promise<RecordedEvent[]> {
    const tail = this.tail;
    if (tail && after < tail.from) return this.readAll({ after, maxCount });
    // A caller at the end of the tail, with no NOTIFY since the last complete fence began, would read
    // nothing new: every commit notifies (es_append), so answer "nothing" without a round trip, and
    // let the NOTIFY wake it. Without a LISTEN connection, or after a poll interval, read anyway.
    if (tail && after === tail.to && this.nothingNotifiedSinceFence()) return [];
    if (!tail || after >= tail.to) await this.extendTail(after);
    return this.sliceTail(after, maxCount) ?? this.readAll({ after, maxCount });
  }

  /**
   * The whole stream as of the tail's end, when the tail holds it: the tail has every committed event
   * after `from`, so if the stream's first event is in it, so is every later one through `to`.
   * (A stream that began before the window, or a tail short of `through`, is read from the table.)
   */
  private streamFromTail(streamName: string, through: bigint): RecordedEvent[] | undefined {
    const tail = this.tail;
    if (!tail || tail.to < through) return undefined;
    const events = tail.events.filter((event) => event.streamName === streamName);
    if (events.length === 0 || events.some((event, i) => event.streamPosition !== BigInt(i))) return undefined;
    return events;
  }

  private nothingNotifiedSinceFence(): boolean {
    const settled = this.tailSettled;
    return (
      this.listener !== undefined &&
      settled !== undefined &&
      settled.notifications === this.notifications &&
      this.timer.nowMs() - settled.at < (this.options.pollIntervalMs ?? 1000)
    );
  }

  private sliceTail(after: bigint, maxCount: number): RecordedEvent[] | undefined {
    const tail = this.tail;
    if (!tail || after < tail.from) return undefined;
    let start = 0;
    while (start < tail.events.length && tail.events[start]!.globalPosition <= after) start++;
    return tail.events.slice(start, start + maxCount);
  }

  /** One fence and one read for every caller arriving meanwhile; each gets a fence begun after its call. */
  private extendTail(after: bigint): Promise<void> {
    const run = async () => {
      let tail = this.tail;
      // Start (or restart) the window at a caller ahead of it; one behind it reads on its own.
      if (!tail || after > tail.to) tail = { from: after, to: after, events: [] };
      // Counted before the fence begins: a NOTIFY arriving after this may be for a commit it misses.
      const notifications = this.notifications;
      const fencedAt = this.timer.nowMs();
      const { horizon, events: fetched } = await this.readSettled(tail.to, TAIL_READ_LIMIT);
      // A full read stops short of the horizon: only what it returned is known to be complete.
      const full = fetched.length === TAIL_READ_LIMIT;
      this.tailSettled = full ? undefined : { notifications, at: fencedAt };
      if (horizon > tail.to) {
        const to = full ? fetched[fetched.length - 1]!.globalPosition : horizon;
        const events = tail.events.concat(fetched);
        const drop = Math.max(0, events.length - TAIL_CAPACITY);
        tail = { from: drop > 0 ? events[drop - 1]!.globalPosition : tail.from, to, events: events.slice(drop) };
      }
      this.tail = tail;
    };
    if (!this.tailRunning) {
      const running = run().finally(() => {
        if (this.tailRunning === running) this.tailRunning = undefined;
      });
      this.tailRunning = running;
      return running;
    }
    this.tailQueued ??= this.tailRunning
      .catch(() => undefined)
      .then(() => {
        this.tailQueued = undefined;
        return this.extendTail(after);
      });
    return this.tailQueued;
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
        this.notifications++;
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
        this.notifications++;
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
    // data NOT NULL refused it when the batch went as jsonb[]; a JSON array has no SQL NULL to send.
    if (e.data === undefined) throw new InvalidEventBatchError(`event #${i} (${e.type}) has no data`);
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
