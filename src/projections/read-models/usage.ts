import type pg from 'pg';
import type { ScreeningEvent } from '../../commands/screening';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/**
 * API usage per key (S3 GET /api/v1/usage), projected from the event history: every
 * ScreeningRequested carries the key that asked in its metadata (actor.keyId), the endpoint follows
 * from the kind, and the day is the event's own UTC date (occurredAt), so a rebuild gives the same
 * counts. Each event is counted once (usage_counted holds the ids already counted).
 */
export const usageProjection: Projection = {
  name: 'usage',
  version: 1,
  handles: ['ScreeningRequested'],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.usage_daily (
        account_id bigint NOT NULL,
        key_id bigint NOT NULL,
        day date NOT NULL,
        surface text NOT NULL,
        endpoint text NOT NULL,
        screening_type text NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key_id, day, surface, endpoint, screening_type)
      );
      CREATE INDEX IF NOT EXISTS usage_daily_account ON ${s}.usage_daily (account_id, day);
      CREATE TABLE IF NOT EXISTS ${s}.usage_counted (event_id text PRIMARY KEY);`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const event = recorded as unknown as ScreeningEvent & RecordedEvent;
    if (event.type !== 'ScreeningRequested') return;
    const keyId = event.metadata.actor?.keyId;
    if (!keyId || !/^[1-9][0-9]{0,18}$/.test(keyId)) return; // portal and system requests use no key
    const s = quoteIdent(schema);
    const d = event.data;
    // One statement: the count moves only if the event id was not counted before.
    await client.query(
      `WITH counted AS (INSERT INTO ${s}.usage_counted (event_id) VALUES ($7) ON CONFLICT DO NOTHING RETURNING 1)
       INSERT INTO ${s}.usage_daily AS u (account_id, key_id, day, surface, endpoint, screening_type, count)
       SELECT $1::bigint, $2::bigint, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4::text, $5::text, $6::text, 1 FROM counted
       ON CONFLICT (key_id, day, surface, endpoint, screening_type) DO UPDATE SET count = u.count + 1`,
      [d.accountId, keyId, event.metadata.occurredAt, d.surface, `POST /api/v1/screening/${d.kind}`, d.kind === 'ma' ? 'MA' : d.kind.toUpperCase(), event.metadata.eventId],
    );
  },
};
