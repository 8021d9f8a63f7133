/**
 * Dead letters in PostgreSQL (table dead_letters, migration 084): the embedded default's
 * DeadLetterSink, what `svc deadletters list|replay` reads there, and the replayer the serving
 * process runs.
 *
 * Replay is a request because the in-process bus lives inside the serving process: the CLI (another
 * process) sets replay_requested_at; the DeadLetterReplayer of the serving process polls for open
 * requests and, one row per transaction (SELECT … FOR UPDATE SKIP LOCKED), republishes the message to
 * its original topic (replayedMessage: no x-dlq-* headers, x-dlq-replayed incremented), then clears
 * the request, sets replayed_at and increments replay_count. If the process dies between the
 * publish and the commit, the row is republished on the next poll; consumers skip the duplicate
 * through their inbox (same x-message-id).
 */
import type pg from 'pg';
import { systemClock, type Clock } from '../../shared/clock';
import { describeError, type BusLogger } from './logger';
import { DLQ_HEADERS, replayedMessage, type DeadLetterSink } from './dead-letter';
import type { BusMessage, MessageBus } from './port';

/** Where a dead letter came from and how often it was tried: the table's and the topic's. */
export interface DeadLetterOrigin {
  originalTopic: string;
  originalPartition: number;
  originalOffset: string;
  key: string;
  group: string;
  attempts: number;
}

export interface StoredDeadLetter extends DeadLetterOrigin {
  /** Row id (decimal string): what `svc deadletters replay` takes in the embedded default. */
  id: string;
  errorName: string | null;
  error: string;
  /** The dead letter's headers: the original message's own plus the x-dlq-* ones. */
  headers: Record<string, string>;
  value: Buffer;
  deadLetteredAt: Date;
  replayRequestedAt: Date | null;
  replayedAt: Date | null;
  replayCount: number;
}

export interface DeadLetterTableFilter {
  group?: string;
  topic?: string;
}

interface Row {
  id: string;
  original_topic: string;
  original_partition: number;
  original_offset: string;
  original_key: string;
  consumer_group: string;
  attempts: number;
  error_name: string | null;
  error_message: string;
  headers: Record<string, string>;
  value: Buffer;
  dead_lettered_at: Date;
  replay_requested_at: Date | null;
  replayed_at: Date | null;
  replay_count: number;
}

const COLUMNS = `id::text AS id, original_topic, original_partition, original_offset, original_key, consumer_group, attempts,
  error_name, error_message, headers, value, dead_lettered_at, replay_requested_at, replayed_at, replay_count`;

function fromRow(row: Row): StoredDeadLetter {
  return {
    id: row.id,
    originalTopic: row.original_topic,
    originalPartition: row.original_partition,
    originalOffset: row.original_offset,
    key: row.original_key,
    group: row.consumer_group,
    attempts: row.attempts,
    errorName: row.error_name,
    error: row.error_message,
    headers: row.headers,
    value: row.value,
    deadLetteredAt: row.dead_lettered_at,
    replayRequestedAt: row.replay_requested_at,
    replayedAt: row.replayed_at,
    replayCount: row.replay_count,
  };
}

/** `$n` conditions for the optional group/topic filter. */
function where(filter: DeadLetterTableFilter, params: unknown[]): string[] {
  const conditions: string[] = [];
  if (filter.group !== undefined) {
    params.push(filter.group);
    conditions.push(`consumer_group = $${params.length}`);
  }
  if (filter.topic !== undefined) {
    params.push(filter.topic);
    conditions.push(`original_topic = $${params.length}`);
  }
  return conditions;
}

export class PgDeadLetterTable implements DeadLetterSink {
  constructor(
    private readonly pool: pg.Pool,
    /** Stamps a letter that arrives without a valid x-dlq-at header (the bus always sets one). */
    private readonly clock: Clock = systemClock,
  ) {}

  /** Stores a dead letter as the bus built it (deadLetterMessage): its columns come from the x-dlq-* headers. */
  async record(letter: BusMessage): Promise<void> {
    const h = letter.headers;
    const topic = h[DLQ_HEADERS.topic];
    if (!topic) throw new Error(`a dead letter needs the ${DLQ_HEADERS.topic} header`);
    const stamped = h[DLQ_HEADERS.at] ? new Date(h[DLQ_HEADERS.at]) : undefined;
    const at = stamped && !Number.isNaN(stamped.getTime()) ? stamped : this.clock.now();
    await this.pool.query(
      `INSERT INTO dead_letters (original_topic, original_partition, original_offset, original_key, consumer_group, attempts,
         error_name, error_message, headers, value, dead_lettered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        topic,
        Number(h[DLQ_HEADERS.partition] ?? -1),
        h[DLQ_HEADERS.offset] ?? '',
        h[DLQ_HEADERS.key] ?? letter.key,
        h[DLQ_HEADERS.group] ?? '',
        Number(h[DLQ_HEADERS.attempts] ?? 0),
        h[DLQ_HEADERS.errorName] ?? null,
        h[DLQ_HEADERS.error] ?? '',
        JSON.stringify(h),
        letter.value,
        at,
      ],
    );
  }

  /** Dead letters matching the filter, oldest first. */
  async list(filter: DeadLetterTableFilter = {}): Promise<StoredDeadLetter[]> {
    const params: unknown[] = [];
    const conditions = where(filter, params);
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM dead_letters ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY dead_lettered_at, id`,
      params,
    );
    return rows.map(fromRow);
  }

  /**
   * Asks the serving process to republish these rows (ids as list gives them). Throws, requesting
   * nothing, if one of them does not exist. Returns the rows in the order given.
   */
  async requestReplay(ids: string[], at: Date): Promise<StoredDeadLetter[]> {
    for (const id of ids) if (!/^\d{1,18}$/.test(id)) throw new Error(`not a dead-letter id (a row number from \`svc deadletters list\`): ${id}`);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Row>(
        `UPDATE dead_letters SET replay_requested_at = $2 WHERE id = ANY($1::bigint[]) RETURNING ${COLUMNS}`,
        [ids, at],
      );
      const byId = new Map(rows.map((r) => [r.id, fromRow(r)]));
      const missing = ids.filter((id) => !byId.has(String(BigInt(id))));
      if (missing.length > 0) {
        await client.query('ROLLBACK');
        throw new Error(`no such dead letter: ${missing.join(', ')}`);
      }
      await client.query('COMMIT');
      return ids.map((id) => byId.get(String(BigInt(id)))!);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** Requests a replay of every matching dead letter that was never replayed. */
  async requestReplayAll(filter: DeadLetterTableFilter, at: Date): Promise<StoredDeadLetter[]> {
    const params: unknown[] = [at];
    const conditions = ['replayed_at IS NULL', ...where(filter, params)];
    const { rows } = await this.pool.query<Row>(
      `UPDATE dead_letters SET replay_requested_at = $1 WHERE ${conditions.join(' AND ')} RETURNING ${COLUMNS}`,
      params,
    );
    return rows.map(fromRow).sort((a, b) => a.deadLetteredAt.getTime() - b.deadLetteredAt.getTime() || Number(a.id) - Number(b.id));
  }

  /**
   * Republishes every row with an open replay request, one transaction per row, and returns how
   * many. A failed publish rolls its row back (the request stays open) and is thrown.
   */
  async replayRequested(publish: (topic: string, message: BusMessage) => Promise<void>): Promise<StoredDeadLetter[]> {
    const replayed: StoredDeadLetter[] = [];
    for (;;) {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<Row>(
          `SELECT ${COLUMNS} FROM dead_letters WHERE replay_requested_at IS NOT NULL
           ORDER BY replay_requested_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        );
        const row = rows[0];
        if (!row) {
          await client.query('COMMIT');
          return replayed;
        }
        const letter = fromRow(row);
        await publish(letter.originalTopic, replayedMessage({ key: letter.key, value: letter.value, headers: letter.headers }));
        await client.query(
          `UPDATE dead_letters SET replay_requested_at = NULL, replayed_at = now(), replay_count = replay_count + 1 WHERE id = $1`,
          [letter.id],
        );
        await client.query('COMMIT');
        replayed.push(letter);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    }
  }
}

export interface DeadLetterReplayerOptions {
  table: PgDeadLetterTable;
  bus: MessageBus;
  logger: BusLogger;
  /** How often open replay requests are looked for (default 2000 ms). */
  pollMs?: number;
}

/** Polls the dead_letters table for replay requests and republishes them on this process's bus. */
export class DeadLetterReplayer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: DeadLetterReplayerOptions) {}

  start(): void {
    this.schedule();
  }

  /** One poll: republishes every open request. */
  async pollOnce(): Promise<number> {
    const replayed = await this.options.table.replayRequested((topic, message) => this.options.bus.publish(topic, [message]));
    for (const l of replayed) {
      this.options.logger.info(
        { id: l.id, topic: l.originalTopic, key: l.key, groupId: l.group, replay: l.replayCount + 1 },
        'dead letter replayed to its original topic',
      );
    }
    return replayed.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pollOnce()
        .then(
          () => undefined,
          (error: unknown) => this.options.logger.error({ err: describeError(error) }, 'dead-letter replay poll failed; retrying at the next poll'),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.options.pollMs ?? 2_000);
    this.timer.unref();
  }
}
