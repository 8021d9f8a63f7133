/**
 * Idempotent consumers. Kafka (and the in-process bus) deliver at least once; a handler wrapped
 * in processOnce runs its writes and records (consumer group, message id) in ONE PostgreSQL
 * transaction, so a redelivered message is skipped and changes nothing.
 *
 * The inbox row is inserted first: a concurrent second delivery of the same message (e.g. during a
 * rebalance) blocks on the primary key until the first transaction ends, then sees the row and
 * skips; if the first rolled back, the second one does the work.
 */
import type pg from 'pg';
import type { ConsumedMessage, MessageHandler } from '../bus/port';

/** Header carrying a producer-chosen message id (the relay sets it to the event id). */
export const MESSAGE_ID_HEADER = 'x-message-id';

export interface ProcessOnceResult {
  /** False when the message had already been processed by this group and fn was not run. */
  processed: boolean;
}

export async function processOnce(
  pool: pg.Pool,
  consumerGroup: string,
  messageId: string,
  fn: (client: pg.PoolClient) => Promise<void>,
): Promise<ProcessOnceResult> {
  if (!consumerGroup || !messageId) throw new Error('processOnce needs a consumer group and a message id');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query(
      'INSERT INTO inbox (consumer_group, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [consumerGroup, messageId],
    );
    if (inserted.rowCount === 0) {
      await client.query('ROLLBACK');
      return { processed: false };
    }
    await fn(client);
    await client.query('COMMIT');
    return { processed: true };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The id a message is deduplicated on: the producer's x-message-id header (event id, task id),
 * else its Kafka coordinates (unique per delivery source, but a re-published copy gets new ones).
 */
export function messageIdOf(message: ConsumedMessage): string {
  return message.headers[MESSAGE_ID_HEADER] || `${message.topic}/${message.partition}/${message.offset}`;
}

/** A bus handler that runs fn at most once per message id for this group, inside the inbox transaction. */
export function idempotentHandler(
  pool: pg.Pool,
  consumerGroup: string,
  fn: (message: ConsumedMessage, client: pg.PoolClient) => Promise<void>,
  idOf: (message: ConsumedMessage) => string = messageIdOf,
): MessageHandler {
  return async (message) => {
    await processOnce(pool, consumerGroup, idOf(message), (client) => fn(message, client));
  };
}

/** Deletes inbox rows older than the given time (keep them longer than any redelivery window). */
export async function purgeInbox(pool: pg.Pool, olderThan: Date): Promise<number> {
  const result = await pool.query('DELETE FROM inbox WHERE processed_at < $1', [olderThan]);
  return result.rowCount ?? 0;
}
