/**
 * The webhook outbox in PostgreSQL: endpoints, enqueueing inside the caller's transaction (the
 * webhook projector writes its outbox rows and its checkpoint together: no dual writes), manual
 * retry and test deliveries, and the delivery log read by the portal/API.
 *
 * Every function takes a `Queryable` (a pool or a client inside a transaction) and explicit
 * timestamps from the caller's clock.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { DEFAULT_POLICIES } from './policy';
import { s2Payload, type WebhookMessage, type WebhookSurface } from './payloads';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'dropped';

// ------------------------------------------------------------------ endpoints

export interface EndpointRef {
  accountId: string;
  surface: WebhookSurface;
  /** S1 only: the API key the webhook was configured with. */
  keyId?: string;
}

export interface EndpointView {
  id: string;
  accountId: string;
  surface: WebhookSurface;
  keyId: string | null;
  url: string;
  enabled: boolean;
  consecutiveFailures: number;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface EndpointRow {
  id: string;
  account_id: string;
  surface: WebhookSurface;
  key_id: string;
  url: string;
  enabled: boolean;
  consecutive_failures: number;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = 'id, account_id, surface, key_id, url, enabled, consecutive_failures, disabled_at, created_at, updated_at';

function toEndpointView(row: EndpointRow): EndpointView {
  return {
    id: String(row.id),
    accountId: row.account_id,
    surface: row.surface,
    keyId: row.key_id === '' ? null : row.key_id,
    url: row.url,
    enabled: row.enabled,
    consecutiveFailures: row.consecutive_failures,
    disabledAt: row.disabled_at ? row.disabled_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Registers or replaces the endpoint of (surface, account, key). The URL must already have passed
 * `checkWebhookUrl`; the secret arrives sealed (SecretBox). Replacing an endpoint re-enables it and
 * resets its failure count: a new URL or secret is a fresh start.
 */
export async function upsertEndpoint(
  db: Queryable,
  input: EndpointRef & { url: string; secretCiphertext: string; now: Date },
): Promise<EndpointView> {
  const { rows } = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (account_id, surface, key_id, url, secret_ciphertext, enabled, consecutive_failures, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, true, 0, $6, $6)
     ON CONFLICT (surface, account_id, key_id) DO UPDATE
       SET url = EXCLUDED.url, secret_ciphertext = EXCLUDED.secret_ciphertext, enabled = true,
           consecutive_failures = 0, disabled_at = NULL, updated_at = EXCLUDED.updated_at
     RETURNING ${ENDPOINT_COLUMNS}`,
    [input.accountId, input.surface, input.keyId ?? '', input.url, input.secretCiphertext, input.now],
  );
  return toEndpointView(rows[0]!);
}

export async function findEndpoint(db: Queryable, ref: EndpointRef): Promise<EndpointView | null> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE surface = $1 AND account_id = $2 AND key_id = $3`,
    [ref.surface, ref.accountId, ref.keyId ?? ''],
  );
  return rows[0] ? toEndpointView(rows[0]) : null;
}

/**
 * Every endpoint of these accounts, all surfaces and keys, in one query: a caller enqueueing many
 * deliveries (the webhook projector's batches) looks them up here instead of once per delivery.
 */
export async function findEndpointsOfAccounts(db: Queryable, accountIds: readonly string[]): Promise<EndpointView[]> {
  if (accountIds.length === 0) return [];
  // Naming every surface lets the (surface, account_id, key_id) unique index serve the lookup.
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE surface = ANY('{s1,s2,s3}'::text[]) AND account_id = ANY($1::text[])`,
    [accountIds],
  );
  return rows.map(toEndpointView);
}

/** Every endpoint of one account (the portal's webhooks page), by surface and key. */
export async function listEndpoints(db: Queryable, accountId: string): Promise<EndpointView[]> {
  const { rows } = await db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY surface, key_id`, [accountId]);
  return rows.map(toEndpointView);
}

export async function getEndpoint(db: Queryable, endpointId: string, accountId?: string): Promise<EndpointView | null> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)`,
    [endpointId, accountId ?? null],
  );
  return rows[0] ? toEndpointView(rows[0]) : null;
}

/**
 * Re-enables an auto-disabled endpoint (the owner's action). With `accountId`, only that account's
 * endpoint is touched (tenant isolation); returns null when there is no such endpoint.
 */
export async function reenable(
  db: Queryable,
  endpointId: string,
  options: { now: Date; accountId?: string },
): Promise<EndpointView | null> {
  const { rows } = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET enabled = true, consecutive_failures = 0, disabled_at = NULL, updated_at = $3
      WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)
      RETURNING ${ENDPOINT_COLUMNS}`,
    [endpointId, options.accountId ?? null, options.now],
  );
  return rows[0] ? toEndpointView(rows[0]) : null;
}

/**
 * Disables an endpoint (auto-disable, a revoked S1 key, a WebhookEndpointDisabled event) and drops
 * its queued deliveries, which stay visible in the log as `dropped` / `endpoint_disabled`.
 * Returns the number of deliveries dropped, or null when there is no such endpoint.
 */
export async function disableEndpoint(db: Queryable, ref: EndpointRef, now: Date): Promise<number | null> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE webhook_endpoints SET enabled = false, disabled_at = COALESCE(disabled_at, $4), updated_at = $4
      WHERE surface = $1 AND account_id = $2 AND key_id = $3 RETURNING id`,
    [ref.surface, ref.accountId, ref.keyId ?? '', now],
  );
  if (!rows[0]) return null;
  return dropQueued(db, rows[0].id, now);
}

/** Marks the endpoint's pending deliveries as dropped (in-flight attempts finish normally). */
export async function dropQueued(db: Queryable, endpointId: string, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE webhook_outbox SET status = 'dropped', last_error = 'endpoint_disabled', next_attempt_at = NULL,
            finished_at = $2, updated_at = $2
      WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId, now],
  );
  return rowCount ?? 0;
}

// ------------------------------------------------------------------ enqueue

export interface EnqueueInput extends Omit<EndpointRef, 'surface'> {
  message: WebhookMessage;
  now: Date;
  /** Producer idempotency key, e.g. `${sourceEventId}:${event}`: a second enqueue with it does nothing. */
  dedupKey?: string;
  deliveryId?: string;
  /** The delivery this one re-sends (manual retry). */
  retryOf?: string;
  /** W3C trace context of the event that enqueued it (the delivery span continues that trace). */
  traceparent?: string | undefined;
}

export type EnqueueResult =
  | { status: 'enqueued'; deliveryId: string; endpointId: string }
  | { status: 'duplicate' }
  | { status: 'no_endpoint' }
  | { status: 'dropped'; deliveryId: string; endpointId: string; reason: 'endpoint_disabled' };

function subjectRefOf(body: string): string | null {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const ref = parsed.subject_check_id ?? parsed.screening_id ?? parsed.person_check_id;
  return ref === undefined || ref === null ? null : String(ref);
}

/**
 * Adds a delivery to the outbox, due immediately, in the caller's transaction. Accounts without an
 * endpoint for the surface get nothing; a disabled endpoint gets a `dropped` row so the owner can
 * see in the log what was not sent.
 */
export async function enqueue(db: Queryable, input: EnqueueInput): Promise<EnqueueResult> {
  const endpoint = await findEndpoint(db, { accountId: input.accountId, surface: input.message.surface, keyId: input.keyId });
  return enqueueTo(db, endpoint, input);
}

/**
 * enqueue() for a caller that has already looked up the endpoint of (message.surface, accountId,
 * keyId) in this transaction, null when there is none (findEndpointsOfAccounts for a batch).
 */
export async function enqueueTo(db: Queryable, endpoint: EndpointView | null, input: EnqueueInput): Promise<EnqueueResult> {
  const surface = input.message.surface;
  if (!endpoint) return { status: 'no_endpoint' };
  const deliveryId = input.deliveryId ?? randomUUID();
  const dropped = !endpoint.enabled;
  const { rowCount } = await db.query(
    `INSERT INTO webhook_outbox (delivery_id, endpoint_id, account_id, surface, event_type, body, dedup_key, subject_ref,
                                 status, attempt_count, max_attempts, next_attempt_at, last_error, retry_of,
                                 created_at, updated_at, finished_at, traceparent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $12, $13, $14, $14, $15, $16)
     ON CONFLICT (dedup_key) DO NOTHING`,
    [
      deliveryId,
      endpoint.id,
      input.accountId,
      surface,
      input.message.event,
      Buffer.from(input.message.body, 'utf8'),
      input.dedupKey ?? null,
      subjectRefOf(input.message.body),
      dropped ? 'dropped' : 'pending',
      DEFAULT_POLICIES[surface].maxAttempts,
      dropped ? null : input.now,
      dropped ? 'endpoint_disabled' : null,
      input.retryOf ?? null,
      input.now,
      dropped ? input.now : null,
      input.traceparent ?? null,
    ],
  );
  if (rowCount === 0) return { status: 'duplicate' };
  return dropped
    ? { status: 'dropped', deliveryId, endpointId: endpoint.id, reason: 'endpoint_disabled' }
    : { status: 'enqueued', deliveryId, endpointId: endpoint.id };
}

// ------------------------------------------------------------------ S2 operator actions

export type RetryNowResult =
  | { status: 'enqueued'; deliveryId: string; attemptNumber: number }
  | { status: 'not_found' }
  | { status: 'in_progress' }
  | { status: 'not_retryable'; reason: string }
  | { status: 'no_endpoint' };

/**
 * "Retry now" on a past S2 delivery: enqueues a `subject_check.retry` about the same subject check.
 * `attempt_number` = attempts already made for that notification (the original delivery and every
 * earlier manual retry of it, transitively) + 1.
 */
export async function retryDeliveryNow(
  db: Queryable,
  input: { accountId: string; deliveryId: string; now: Date; newDeliveryId?: string },
): Promise<RetryNowResult> {
  if (!UUID_PATTERN.test(input.deliveryId)) return { status: 'not_found' };
  const { rows } = await db.query<{ status: DeliveryStatus; body: Buffer; chain_attempts: number }>(
    `WITH RECURSIVE chain AS (
       SELECT delivery_id, retry_of, attempt_count FROM webhook_outbox
        WHERE delivery_id = $1 AND account_id = $2 AND surface = 's2'
       UNION ALL
       SELECT o.delivery_id, o.retry_of, o.attempt_count FROM webhook_outbox o JOIN chain c ON o.delivery_id = c.retry_of
     )
     SELECT d.status, d.body, (SELECT COALESCE(SUM(attempt_count), 0)::int FROM chain) AS chain_attempts
       FROM webhook_outbox d WHERE d.delivery_id = $1 AND d.account_id = $2 AND d.surface = 's2'`,
    [input.deliveryId, input.accountId],
  );
  const previous = rows[0];
  if (!previous) return { status: 'not_found' };
  if (previous.status === 'pending' || previous.status === 'delivering') return { status: 'in_progress' };
  const body = JSON.parse(previous.body.toString('utf8')) as { subject_check_id?: number };
  if (typeof body.subject_check_id !== 'number') {
    return { status: 'not_retryable', reason: 'only deliveries about a subject check can be retried' };
  }
  const attemptNumber = previous.chain_attempts + 1;
  const message = s2Payload('subject_check.retry', {
    subject_check_id: body.subject_check_id,
    retried_at: input.now.toISOString(),
    previous_delivery_id: input.deliveryId,
    attempt_number: attemptNumber,
  });
  const result = await enqueue(db, {
    accountId: input.accountId,
    message,
    now: input.now,
    deliveryId: input.newDeliveryId,
    retryOf: input.deliveryId,
  });
  if (result.status === 'enqueued') return { status: 'enqueued', deliveryId: result.deliveryId, attemptNumber };
  if (result.status === 'dropped') return { status: 'not_retryable', reason: 'endpoint disabled' };
  return { status: 'no_endpoint' };
}

/** Operator test delivery (`webhook.test`) to the account's S2 endpoint. */
export async function enqueueTestDelivery(
  db: Queryable,
  input: { accountId: string; now: Date; subject?: { id: string; name: string; first_name: string; last_name: string } },
): Promise<EnqueueResult> {
  const subject = input.subject ?? { id: `test_${randomUUID()}`, name: 'Test Subject', first_name: 'Test', last_name: 'Subject' };
  return enqueue(db, {
    accountId: input.accountId,
    message: s2Payload('webhook.test', { delivered_at: input.now.toISOString(), subject }),
    now: input.now,
  });
}

// ------------------------------------------------------------------ delivery log

export interface AttemptView {
  attemptNumber: number;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  statusCode: number | null;
  error: string | null;
  outcome: 'in_flight' | 'succeeded' | 'retryable' | 'terminal' | 'interrupted';
  requestHeaders: Record<string, string>;
}

export interface DeliveryView {
  deliveryId: string;
  endpointId: string;
  surface: WebhookSurface;
  event: string;
  status: DeliveryStatus;
  attemptCount: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  retryOf: string | null;
  subjectRef: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Exact stored body (S1: unsigned; each attempt's signature is in its X-Service-Signature header). */
  body: string;
  payload: unknown;
  attempts: AttemptView[];
}

interface DeliveryRow {
  delivery_id: string;
  endpoint_id: string;
  surface: WebhookSurface;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  max_attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  retry_of: string | null;
  subject_ref: string | null;
  created_at: Date;
  finished_at: Date | null;
  body: Buffer;
  attempts: Array<{
    attempt_number: number;
    started_at: string;
    finished_at: string | null;
    duration_ms: number | null;
    status_code: number | null;
    error: string | null;
    outcome: AttemptView['outcome'];
    request_headers: Record<string, string>;
  }>;
}

function toDeliveryView(row: DeliveryRow): DeliveryView {
  const body = row.body.toString('utf8');
  const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    deliveryId: row.delivery_id,
    endpointId: String(row.endpoint_id),
    surface: row.surface,
    event: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    maxAttempts: row.max_attempts,
    nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    retryOf: row.retry_of,
    subjectRef: row.subject_ref,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
    body,
    payload: JSON.parse(body),
    attempts: row.attempts.map((a) => ({
      attemptNumber: a.attempt_number,
      startedAt: iso(a.started_at)!,
      finishedAt: iso(a.finished_at),
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      outcome: a.outcome,
      requestHeaders: a.request_headers,
    })),
  };
}

const DELIVERY_SELECT = `
  SELECT o.delivery_id, o.endpoint_id, o.surface, o.event_type, o.status, o.attempt_count, o.max_attempts,
         o.next_attempt_at, o.last_status_code, o.last_error, o.retry_of, o.subject_ref, o.created_at, o.finished_at, o.body,
         COALESCE((SELECT json_agg(json_build_object(
                     'attempt_number', a.attempt_number, 'started_at', a.started_at, 'finished_at', a.finished_at,
                     'duration_ms', a.duration_ms, 'status_code', a.status_code, 'error', a.error,
                     'outcome', a.outcome, 'request_headers', a.request_headers) ORDER BY a.attempt_number)
                   FROM webhook_attempts a WHERE a.delivery_id = o.delivery_id), '[]'::json) AS attempts
    FROM webhook_outbox o`;

export interface ListDeliveriesQuery {
  accountId: string;
  surface: WebhookSurface;
  status?: DeliveryStatus;
  event?: string;
  /** subject_check_id / screening id / person_check id. */
  subjectRef?: string;
  /** Page size, 1-100 (default 20). */
  limit?: number;
  /** Opaque keyset cursor from `deliveryCursor(lastItemOfPreviousPage)`: the page after it. */
  cursor?: string;
}

/** Cursor for the page that follows this delivery (newest-first order). */
export function deliveryCursor(delivery: Pick<DeliveryView, 'createdAt' | 'deliveryId'>): string {
  return Buffer.from(`${delivery.createdAt}|${delivery.deliveryId}`, 'utf8').toString('base64url');
}

function parseCursor(cursor: string | undefined): { createdAt: string; deliveryId: string } | null {
  if (!cursor) return null;
  const [createdAt, deliveryId] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !deliveryId || Number.isNaN(Date.parse(createdAt)) || !UUID_PATTERN.test(deliveryId)) {
    throw new RangeError('invalid delivery cursor');
  }
  return { createdAt, deliveryId };
}

/**
 * The account's deliveries on one surface, newest first, each with every attempt and the exact
 * payload. Throws RangeError for a malformed cursor (the API answers 400).
 */
export async function listDeliveries(db: Queryable, query: ListDeliveriesQuery): Promise<DeliveryView[]> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? 20), 1), 100);
  const after = parseCursor(query.cursor);
  const { rows } = await db.query<DeliveryRow>(
    `${DELIVERY_SELECT}
      WHERE o.account_id = $1 AND o.surface = $2
        AND ($3::text IS NULL OR o.status = $3)
        AND ($4::text IS NULL OR o.event_type = $4)
        AND ($5::text IS NULL OR o.subject_ref = $5)
        AND ($6::timestamptz IS NULL OR (o.created_at, o.delivery_id) < ($6::timestamptz, $7::uuid))
      ORDER BY o.created_at DESC, o.delivery_id DESC
      LIMIT $8`,
    [
      query.accountId,
      query.surface,
      query.status ?? null,
      query.event ?? null,
      query.subjectRef ?? null,
      after?.createdAt ?? null,
      after?.deliveryId ?? null,
      limit,
    ],
  );
  return rows.map(toDeliveryView);
}

/** One delivery of the account (null for unknown ids and other accounts' deliveries). */
export async function getDelivery(db: Queryable, input: { accountId: string; deliveryId: string }): Promise<DeliveryView | null> {
  if (!UUID_PATTERN.test(input.deliveryId)) return null;
  const { rows } = await db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE o.delivery_id = $1 AND o.account_id = $2`, [
    input.deliveryId,
    input.accountId,
  ]);
  return rows[0] ? toDeliveryView(rows[0]) : null;
}
