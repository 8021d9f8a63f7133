/**
 * The webhook dispatcher: claims due outbox rows (`FOR UPDATE SKIP LOCKED`, so several dispatcher
 * processes share the work), makes one attempt per claimed row with the surface's headers and
 * signature, records the attempt, and schedules the next attempt or finishes the delivery.
 *
 * Time comes only from the injected Clock: `runDue()` delivers what is due at `clock.now()`, so tests
 * move a ManualClock instead of sleeping. Retries are rows, so they survive a restart; a row whose
 * dispatcher died mid-attempt becomes claimable again when its lease expires.
 */
import { backoffDelay } from '../shared/backoff';
import { withTransaction } from '../infrastructure/postgres/pool';
import type pg from 'pg';
import type { Clock } from '../shared/clock';
import { DEFAULT_POLICIES, USER_AGENT, type AttemptResult, type AttemptVerdict, type DeliveryPolicy } from './policy';
import type { WebhookSurface } from './payloads';
import type { SecretBox } from './secrets';
import { signRawBody, signS1 } from './signing';
import { postWebhook } from './transport';
import { dropQueued } from './outbox';
import type { Resolver } from './url-guard';
import type { Telemetry } from '../infrastructure/telemetry/telemetry';

export interface DispatcherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const silent: DispatcherLogger = { info() {}, warn() {}, error() {} };

export interface EndpointDisabled {
  endpointId: string;
  accountId: string;
  surface: WebhookSurface;
  consecutiveFailures: number;
  disabledAt: string;
}

/** A delivery reached its end (the app may feed RecordDeliverySuccess/RecordDeliveryFailure from it). */
export interface DeliveryFinished {
  deliveryId: string;
  endpointId: string;
  accountId: string;
  surface: WebhookSurface;
  event: string;
  outcome: 'succeeded' | 'failed';
  attempts: number;
  statusCode?: number;
  /** Why it failed: the last status code or transport error. */
  reason?: string;
}

export interface DispatcherOptions {
  pool: pg.Pool;
  clock: Clock;
  secrets: SecretBox;
  /** Allow loopback/private targets (local testing only). */
  allowPrivate?: boolean;
  resolver?: Resolver;
  /** Extra trusted CA certificates for HTTPS receivers (never disable verification instead). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Per-surface policy overrides (tests shorten `timeoutMs`). */
  policies?: Partial<Record<WebhookSurface, Partial<DeliveryPolicy>>>;
  /** Rows claimed per round (default 20) and attempts in flight at once (default 8). */
  batchSize?: number;
  concurrency?: number;
  /** How long a claim is held beyond the request timeout before another dispatcher may take it over. */
  leaseGraceMs?: number;
  logger?: DispatcherLogger;
  /** Called after an endpoint was auto-disabled, e.g. to append WebhookEndpointDisabled. */
  onEndpointDisabled?: (event: EndpointDisabled) => void | Promise<void>;
  /** Called once per delivery when it succeeds or is given up (not per attempt). */
  onDeliveryFinished?: (event: DeliveryFinished) => void | Promise<void>;
  /** The webhook_delivery hop: a span per attempt in the trace of the event that enqueued it. */
  telemetry?: Telemetry;
}

export interface RunDueReport {
  attempts: number;
  succeeded: number;
  retryScheduled: number;
  /** Deliveries given up (terminal answer or attempts exhausted). */
  gaveUp: number;
  disabledEndpoints: EndpointDisabled[];
}

export interface WebhookDispatcher {
  /** Delivers every row due at clock.now(), including the retries that become due. Resolves when done. */
  runDue(): Promise<RunDueReport>;
  /** Production loop: runDue every `intervalMs` of real time until stop(). */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

interface ClaimedRow {
  delivery_id: string;
  endpoint_id: string;
  account_id: string;
  surface: WebhookSurface;
  event_type: string;
  body: Buffer;
  attempt_count: number;
  max_attempts: number;
  url: string;
  secret_ciphertext: string;
  traceparent: string | null;
}

export function createWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { pool, clock, secrets } = options;
  const logger = options.logger ?? silent;
  const batchSize = options.batchSize ?? 20;
  const concurrency = options.concurrency ?? 8;
  const leaseGraceMs = options.leaseGraceMs ?? 30_000;
  const policies: Record<WebhookSurface, DeliveryPolicy> = {
    s1: { ...DEFAULT_POLICIES.s1, ...options.policies?.s1 },
    s2: { ...DEFAULT_POLICIES.s2, ...options.policies?.s2 },
    s3: { ...DEFAULT_POLICIES.s3, ...options.policies?.s3 },
  };
  const longestTimeout = Math.max(...Object.values(policies).map((p) => p.timeoutMs));

  const transaction = <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, fn);


  /** Claims due rows, counts the attempt and opens its log row, all in one short transaction. */
  async function claim(now: Date): Promise<ClaimedRow[]> {
    return transaction(async (client) => {
      // A lease that expired on its final attempt cannot be retried: close it as given up.
      await client.query(
        `WITH stale AS (
           UPDATE webhook_outbox SET status = CASE WHEN surface = 's1' THEN 'dropped' ELSE 'failed' END,
                  last_error = 'interrupted during final attempt', locked_until = NULL, next_attempt_at = NULL,
                  finished_at = $1, updated_at = $1
            WHERE status = 'delivering' AND locked_until <= $1 AND attempt_count >= max_attempts
            RETURNING delivery_id)
         UPDATE webhook_attempts SET outcome = 'interrupted', finished_at = $1
          WHERE outcome = 'in_flight' AND delivery_id IN (SELECT delivery_id FROM stale)`,
        [now],
      );
      const { rows } = await client.query<ClaimedRow>(
        `WITH due AS (
           SELECT o.delivery_id FROM webhook_outbox o
             JOIN webhook_endpoints e ON e.id = o.endpoint_id AND e.enabled
            WHERE (o.status = 'pending' AND o.next_attempt_at <= $1)
               OR (o.status = 'delivering' AND o.locked_until <= $1 AND o.attempt_count < o.max_attempts)
            ORDER BY o.next_attempt_at NULLS FIRST, o.created_at
            LIMIT $2
            FOR UPDATE OF o SKIP LOCKED)
         UPDATE webhook_outbox o
            SET status = 'delivering', attempt_count = o.attempt_count + 1, locked_until = $3, updated_at = $1
           FROM due, webhook_endpoints e
          WHERE o.delivery_id = due.delivery_id AND e.id = o.endpoint_id
         RETURNING o.delivery_id, o.endpoint_id, o.account_id, o.surface, o.event_type, o.body, o.attempt_count,
                   o.max_attempts, e.url, e.secret_ciphertext, o.traceparent`,
        [now, batchSize, new Date(now.getTime() + longestTimeout + leaseGraceMs)],
      );
      if (rows.length > 0) {
        const ids = rows.map((r) => r.delivery_id);
        await client.query(
          `UPDATE webhook_attempts SET outcome = 'interrupted', finished_at = $2
            WHERE delivery_id = ANY($1::uuid[]) AND outcome = 'in_flight'`,
          [ids, now],
        );
        await client.query(
          `INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, outcome)
           SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::text[])`,
          [ids, rows.map((r) => r.attempt_count), rows.map(() => now), rows.map(() => 'in_flight')],
        );
      }
      return rows;
    });
  }

  function buildRequest(row: ClaimedRow, secret: string, attemptAt: Date): { headers: Record<string, string>; body: Buffer } {
    const stored = row.body.toString('utf8');
    const base = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
    switch (row.surface) {
      case 's1': {
        const timestamp = Math.floor(attemptAt.getTime() / 1000);
        const signed = signS1(secret, stored, timestamp);
        return {
          headers: {
            ...base,
            'X-Service-Event': row.event_type,
            'X-Service-Signature': signed.signature,
            'X-Service-Timestamp': String(timestamp),
            'X-Service-Delivery': row.delivery_id,
          },
          body: Buffer.from(signed.body, 'utf8'),
        };
      }
      case 's2':
        // Exactly the spec's three headers: no timestamp, no delivery id.
        return { headers: { ...base, 'X-Service-Signature': signRawBody(secret, row.body) }, body: row.body };
      case 's3':
        return {
          headers: {
            ...base,
            'X-Service-Event': row.event_type,
            'X-Service-Signature': signRawBody(secret, row.body),
            'X-Service-Delivery': row.delivery_id,
          },
          body: row.body,
        };
    }
  }

  async function attempt(row: ClaimedRow, now: Date): Promise<{ verdict: AttemptVerdict; result: AttemptResult; headers: Record<string, string>; durationMs: number }> {
    const policy = policies[row.surface];
    let secret: string;
    try {
      secret = secrets.open(row.secret_ciphertext);
    } catch {
      const result: AttemptResult = { kind: 'blocked', error: 'signing secret cannot be decrypted with the configured key' };
      return { verdict: 'terminal', result, headers: {}, durationMs: 0 };
    }
    const request = buildRequest(row, secret, now);
    const outcome = await postWebhook({
      url: row.url,
      headers: request.headers,
      body: request.body,
      timeoutMs: policy.timeoutMs,
      allowPrivate: options.allowPrivate ?? false,
      resolver: options.resolver,
      ca: options.ca,
    });
    const { durationMs, ...result } = outcome;
    return { verdict: policy.classify(result), result, headers: request.headers, durationMs };
  }

  /** Records the attempt and moves the delivery on; returns an endpoint that got auto-disabled, if any. */
  async function record(
    row: ClaimedRow,
    attemptAt: Date,
    done: Awaited<ReturnType<typeof attempt>>,
  ): Promise<{ next: 'succeeded' | 'retry' | 'gave_up' | 'superseded'; disabled?: EndpointDisabled }> {
    const policy = policies[row.surface];
    const finishedAt = clock.now();
    const statusCode = done.result.kind === 'response' ? done.result.statusCode : null;
    const error = done.result.kind === 'response' ? null : done.result.error;
    const snippet = done.result.kind === 'response' ? done.result.snippet : null;
    const canRetry = done.verdict === 'retryable' && row.attempt_count < row.max_attempts;
    const next = done.verdict === 'succeeded' ? 'succeeded' : canRetry ? 'retry' : 'gave_up';
    const delay = backoffDelay({ scheduleMs: policy.delaysMs }, row.attempt_count);

    return transaction(async (client) => {
      await client.query(
        `UPDATE webhook_attempts SET finished_at = $3, duration_ms = $4, status_code = $5, error = $6, outcome = $7,
                request_headers = $8, response_snippet = $9
          WHERE delivery_id = $1 AND attempt_number = $2 AND outcome = 'in_flight'`,
        [
          row.delivery_id,
          row.attempt_count,
          finishedAt,
          done.durationMs,
          statusCode,
          error,
          done.verdict,
          JSON.stringify(done.headers),
          snippet,
        ],
      );
      const status = next === 'succeeded' ? 'succeeded' : next === 'retry' ? 'pending' : policy.givenUpStatus;
      const updated = await client.query(
        `UPDATE webhook_outbox
            SET status = $3, next_attempt_at = $4, locked_until = NULL, last_status_code = $5, last_error = $6,
                updated_at = $7, finished_at = $8
          WHERE delivery_id = $1 AND attempt_count = $2 AND status = 'delivering'`,
        [
          row.delivery_id,
          row.attempt_count,
          status,
          next === 'retry' ? new Date(attemptAt.getTime() + delay) : null,
          statusCode,
          error,
          finishedAt,
          next === 'retry' ? null : finishedAt,
        ],
      );
      // Another dispatcher took the row over after our lease expired: its outcome wins.
      if (updated.rowCount === 0) return { next: 'superseded' as const };
      if (next === 'retry') return { next };
      if (next === 'succeeded') {
        await client.query(`UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = $1`, [row.endpoint_id]);
        return { next };
      }
      const { rows } = await client.query<{ consecutive_failures: number; enabled: boolean }>(
        `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, updated_at = $2
          WHERE id = $1 RETURNING consecutive_failures, enabled`,
        [row.endpoint_id, finishedAt],
      );
      const failures = rows[0]?.consecutive_failures ?? 0;
      if (policy.autoDisableAfter !== undefined && rows[0]?.enabled && failures >= policy.autoDisableAfter) {
        await client.query(`UPDATE webhook_endpoints SET enabled = false, disabled_at = $2 WHERE id = $1`, [row.endpoint_id, finishedAt]);
        // Queued deliveries to a disabled endpoint are dropped (visible in the log), not held for later.
        await dropQueued(client, String(row.endpoint_id), finishedAt);
        return {
          next,
          disabled: {
            endpointId: String(row.endpoint_id),
            accountId: row.account_id,
            surface: row.surface,
            consecutiveFailures: failures,
            disabledAt: finishedAt.toISOString(),
          },
        };
      }
      return { next };
    });
  }

  async function deliver(row: ClaimedRow, now: Date, report: RunDueReport): Promise<void> {
    const { telemetry } = options;
    if (!telemetry) return deliverOnce(row, now, report);
    const attributes = { 'svc.webhook_event': row.event_type, 'svc.surface': row.surface, 'svc.attempt': row.attempt_count };
    return telemetry.traced('webhook_delivery', `webhook ${row.event_type}`, { ...(row.traceparent ? { parent: row.traceparent } : {}), attributes }, () => deliverOnce(row, now, report));
  }

  async function deliverOnce(row: ClaimedRow, now: Date, report: RunDueReport): Promise<void> {
    const done = await attempt(row, now);
    const recorded = await record(row, now, done);
    report.attempts++;
    if (recorded.next === 'succeeded') report.succeeded++;
    else if (recorded.next === 'retry') report.retryScheduled++;
    else if (recorded.next === 'gave_up') report.gaveUp++;
    const logFields = {
      deliveryId: row.delivery_id,
      surface: row.surface,
      event: row.event_type,
      attempt: row.attempt_count,
      statusCode: done.result.kind === 'response' ? done.result.statusCode : undefined,
      error: done.result.kind === 'response' ? undefined : done.result.error,
      next: recorded.next,
    };
    if (recorded.next === 'succeeded') logger.info(logFields, 'webhook delivered');
    else logger.warn(logFields, 'webhook attempt failed');
    if ((recorded.next === 'succeeded' || recorded.next === 'gave_up') && options.onDeliveryFinished) {
      const statusCode = done.result.kind === 'response' ? done.result.statusCode : undefined;
      const finished: DeliveryFinished = {
        deliveryId: row.delivery_id,
        endpointId: String(row.endpoint_id),
        accountId: row.account_id,
        surface: row.surface,
        event: row.event_type,
        outcome: recorded.next === 'succeeded' ? 'succeeded' : 'failed',
        attempts: row.attempt_count,
        ...(statusCode !== undefined ? { statusCode } : {}),
        ...(recorded.next === 'gave_up' ? { reason: done.result.kind === 'response' ? `HTTP ${statusCode}` : done.result.error } : {}),
      };
      try {
        await options.onDeliveryFinished(finished);
      } catch (err) {
        logger.error({ err: (err as Error).message, deliveryId: row.delivery_id }, 'onDeliveryFinished failed');
      }
    }
    if (recorded.disabled) {
      report.disabledEndpoints.push(recorded.disabled);
      logger.warn({ ...recorded.disabled }, 'webhook endpoint auto-disabled');
      try {
        await options.onEndpointDisabled?.(recorded.disabled);
      } catch (err) {
        logger.error({ err: (err as Error).message, endpointId: recorded.disabled.endpointId }, 'onEndpointDisabled failed');
      }
    }
  }

  async function runDue(): Promise<RunDueReport> {
    const report: RunDueReport = { attempts: 0, succeeded: 0, retryScheduled: 0, gaveUp: 0, disabledEndpoints: [] };
    // Each round claims what is due now; a retry is always scheduled strictly later, so rounds end.
    for (let round = 0; round < 10_000; round++) {
      const now = clock.now();
      const claimed = await claim(now);
      if (claimed.length === 0) break;
      let index = 0;
      const workers = Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
        while (index < claimed.length) {
          const row = claimed[index++]!;
          await deliver(row, now, report);
        }
      });
      await Promise.all(workers);
    }
    return report;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  return {
    runDue,
    start(intervalMs = 250) {
      if (!stopped) return;
      stopped = false;
      const tick = () => {
        running = runDue()
          .catch((err: Error) => logger.error({ err: err.message }, 'webhook dispatcher round failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, intervalMs);
          });
      };
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
