import type pg from 'pg';
import type { ScreeningEvent } from '../../commands/screening';
import type { RecordedEvent } from '../../shared/events';
import { columnsOf, firstPerKey } from '../batching';
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
    await countRequests(client, schema, [recorded]);
  },
  /** Every counted request of a batch in one statement (apply() is the same with one). */
  async applyBatch(client, events, schema) {
    await countRequests(client, schema, events);
  },
};

/**
 * The counted requests among `events` in one statement: the ids not counted before, summed per usage
 * row (a row may appear only once in an upsert). An event id twice in the list counts once, as
 * usage_counted makes it on a replay. A new row takes the account of its first request.
 */
async function countRequests(client: pg.PoolClient, schema: string, events: readonly RecordedEvent[]): Promise<void> {
  const counted = events.map(countedValues).filter((values) => values !== undefined);
  const rows = firstPerKey(counted, ([eventId]) => eventId);
  if (rows.length === 0) return;
  const s = quoteIdent(schema);
  await client.query(
    `WITH requested AS (
       SELECT r.event_id, r.account_id, r.key_id, (r.occurred_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.endpoint, r.screening_type, r.n
         FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
           AS r(event_id, account_id, key_id, occurred_at, surface, endpoint, screening_type, n)),
     counted AS (INSERT INTO ${s}.usage_counted (event_id) SELECT event_id FROM requested ON CONFLICT DO NOTHING RETURNING event_id)
     INSERT INTO ${s}.usage_daily AS u (account_id, key_id, day, surface, endpoint, screening_type, count)
     SELECT (array_agg(r.account_id ORDER BY r.n))[1], r.key_id, r.day, r.surface, r.endpoint, r.screening_type, count(*)
       FROM requested r JOIN counted USING (event_id)
      GROUP BY r.key_id, r.day, r.surface, r.endpoint, r.screening_type
     ON CONFLICT (key_id, day, surface, endpoint, screening_type) DO UPDATE SET count = u.count + EXCLUDED.count`,
    columnsOf(rows, 7),
  );
}

/**
 * The values a request is counted with (event id, account, key, when, surface, endpoint, type), or
 * undefined when it is not counted: portal and system requests use no key.
 */
function countedValues(recorded: RecordedEvent): [string, ...unknown[]] | undefined {
  const event = recorded as unknown as ScreeningEvent & RecordedEvent;
  if (event.type !== 'ScreeningRequested') return undefined;
  const keyId = event.metadata.actor?.keyId;
  if (!keyId || !/^[1-9][0-9]{0,18}$/.test(keyId)) return undefined;
  const d = event.data;
  return [event.metadata.eventId, d.accountId, keyId, event.metadata.occurredAt, d.surface, `POST /api/v1/screening/${d.kind}`,
    d.kind === 'ma' ? 'MA' : d.kind.toUpperCase()];
}
