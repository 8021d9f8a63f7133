/**
 * Shared set-up for the webhook integration tests: a fresh migrated database, a ManualClock, a real
 * HTTPS receiver trusted through the `ca` option, an endpoint registered for account "1", and a
 * dispatcher factory (each call is a new instance, as after a restart).
 */
import pg from 'pg';
import { ManualClock } from '../../../src/shared/clock';
import { createWebhookDispatcher, type DispatcherOptions, type WebhookDispatcher } from '../../../src/webhooks/dispatcher';
import { enqueue, upsertEndpoint, type EndpointView, type EnqueueResult } from '../../../src/webhooks/outbox';
import type { WebhookMessage, WebhookSurface } from '../../../src/webhooks/payloads';
import { createSecretBox } from '../../../src/webhooks/secrets';
import { generateSigningSecret } from '../../../src/webhooks/signing';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { startHttpsReceiver, type HttpsReceiver } from '../../support/https-receiver';

export const ACCOUNT = '1';
export const S1_KEY = '17';

export interface Harness {
  db: TestDatabase;
  clock: ManualClock;
  receiver: HttpsReceiver;
  endpoint: EndpointView;
  secret: string;
  /** A new dispatcher instance (short request timeout so "hang" tests stay fast). */
  dispatcher(overrides?: Partial<DispatcherOptions>): WebhookDispatcher;
  /** Enqueues in its own transaction, as the webhook projector does. */
  enqueue(message: WebhookMessage, extra?: { dedupKey?: string; accountId?: string }): Promise<EnqueueResult>;
  close(): Promise<void>;
}

export const TEST_TIMEOUT_MS = 400;

export async function setupHarness(surface: WebhookSurface): Promise<Harness> {
  const db = await createTestDatabase();
  const clock = new ManualClock('2026-05-04T10:00:00.000Z');
  const secret = generateSigningSecret();
  const receiver = await startHttpsReceiver({ surface, secret, nowSeconds: () => Math.floor(clock.now().getTime() / 1000) });
  const box = createSecretBox('ab'.repeat(32));
  const endpoint = await upsertEndpoint(db.pool, {
    accountId: ACCOUNT,
    surface,
    keyId: surface === 's1' ? S1_KEY : undefined,
    url: receiver.url,
    secretCiphertext: box.seal(secret),
    now: clock.now(),
  });
  const extraPools: pg.Pool[] = [];
  return {
    db,
    clock,
    receiver,
    endpoint,
    secret,
    dispatcher(overrides = {}) {
      // A separate pool per instance, like a separate process.
      const pool = new pg.Pool({ connectionString: db.url, max: 4 });
      // Teardown drops the database WITH (FORCE): a client still connected then is terminated by
      // the server, which is expected here and must not surface as an uncaught exception.
      pool.on('error', () => undefined);
      extraPools.push(pool);
      const shortTimeouts = { timeoutMs: TEST_TIMEOUT_MS };
      return createWebhookDispatcher({
        pool,
        clock,
        secrets: box,
        allowPrivate: true,
        ca: receiver.ca,
        policies: { s1: shortTimeouts, s2: shortTimeouts, s3: shortTimeouts },
        ...overrides,
      });
    },
    async enqueue(message, extra = {}) {
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN');
        const result = await enqueue(client, {
          accountId: extra.accountId ?? ACCOUNT,
          keyId: surface === 's1' ? S1_KEY : undefined,
          message,
          now: clock.now(),
          dedupKey: extra.dedupKey,
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await receiver.close();
      await Promise.all(extraPools.map((p) => p.end()));
      await db.drop();
    },
  };
}

/** Attempt rows of one delivery, oldest first. */
export async function attemptsOf(db: TestDatabase, deliveryId: string) {
  const { rows } = await db.pool.query<{
    attempt_number: number;
    started_at: Date;
    status_code: number | null;
    error: string | null;
    outcome: string;
  }>(
    `SELECT attempt_number, started_at, status_code, error, outcome FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_number`,
    [deliveryId],
  );
  return rows;
}

export async function outboxRow(db: TestDatabase, deliveryId: string) {
  const { rows } = await db.pool.query<{ status: string; attempt_count: number; next_attempt_at: Date | null; last_error: string | null }>(
    `SELECT status, attempt_count, next_attempt_at, last_error FROM webhook_outbox WHERE delivery_id = $1`,
    [deliveryId],
  );
  return rows[0]!;
}

/** Gaps between consecutive attempt start times, in ms. */
export function gaps(attempts: Array<{ started_at: Date }>): number[] {
  return attempts.slice(1).map((a, i) => a.started_at.getTime() - attempts[i]!.started_at.getTime());
}

export function deliveryIdOf(result: EnqueueResult): string {
  if (result.status !== 'enqueued') throw new Error(`expected enqueued, got ${result.status}`);
  return result.deliveryId;
}
