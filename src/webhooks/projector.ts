/**
 * Over 500 lines on purpose: one case per event that yields a callback, for the three surfaces; the
 * payload builders are in payloads.ts, what stays here is which event enqueues what.
 *
 * The webhook projector: an async projection (own checkpoint, see src/projections/runner.ts) that
 * turns domain events into outbox rows in the same transaction as its checkpoint, so a webhook is
 * enqueued exactly when its fact is projected: no dual writes, and nothing on the request path.
 *
 * - Endpoint events (S1 key webhooks, S2/S3 webhook endpoints) maintain `webhook_endpoints`.
 * - Lifecycle events become the surface's payloads (docs/webhooks.md).
 * - Facts needed later (who requested a screening, with which key, what was searched) are kept in
 *   the projector's own schema.
 *
 * Every enqueue carries `dedupKey = <eventId>:<surface>:<webhook event>`, so replaying history (a
 * rebuild, a redelivery) never sends a webhook twice.
 */
import type pg from 'pg';
import { createHash } from 'node:crypto';
import type { RecordedEvent } from '../shared/events';
import { quoteIdent, type Projection } from '../projections/projection';
import type { ApiKeyEvent } from '../commands/api-keys';
import type { PersonCheckEvent } from '../commands/person-check';
import type { ScreeningEvent } from '../commands/screening';
import type { SubjectCheckEvent } from '../commands/subject-check';
import { alertAssessmentView } from '../commands/subject-check/assessment';
import type { WebhookEndpointEvent } from '../commands/webhook-endpoint';
import {
  disableEndpoint,
  enqueueTo,
  findEndpoint,
  findEndpointsOfAccounts,
  reenable,
  upsertEndpoint,
  type EndpointRef,
  type EndpointView,
  type Queryable,
} from './outbox';
import {
  s1MonitoringAlert,
  s1PersonCheckCompleted,
  s1ScreeningCompleted,
  s2Payload,
  s3Payload,
  type WebhookMessage,
} from './payloads';

export const webhookProjectorHandles = [
  'ApiKeyCreated',
  'ApiKeyWebhookConfigured',
  'ApiKeyRevoked',
  'WebhookEndpointRegistered',
  'WebhookEndpointUpdated',
  'WebhookEndpointDisabled',
  'WebhookEndpointReenabled',
  'ScreeningRequested',
  'ScreeningCompleted',
  'MonitoringAlertRaised',
  'PersonCheckRequested',
  'PersonCheckCompleted',
  'SubjectCheckStarted',
  'SubjectCheckReviewRequired',
  'SubjectCheckEscalated',
  'SubjectCheckCompleted',
  'SubjectCheckFailed',
  'SubjectCheckMonitoringAlertRaised',
] as const;

type Handled = Extract<
  ApiKeyEvent | WebhookEndpointEvent | ScreeningEvent | PersonCheckEvent | SubjectCheckEvent,
  { type: (typeof webhookProjectorHandles)[number] }
>;

export interface WebhookProjectorOptions {
  logger?: { error(obj: object, msg: string): void };
}

/** ISO 8601 UTC with milliseconds, whatever precision the event carried. */
const isoMs = (value: string) => new Date(value).toISOString();
/** Match scores in events are in [0,1] (matcher) or 0-100; payloads use integer 0-100. */
const score100 = (score: number) => Math.max(0, Math.min(100, Math.round(score <= 1 ? score * 100 : score)));

interface ScreeningFacts {
  account_id: string;
  key_id: string | null;
  surface: string;
  kind: string;
  uuid: string;
  query: string;
  requested_at: Date;
}

/**
 * What applying an event reads besides the event: per event from the database (apply), or from
 * what applyBatch fetched for the whole batch in one query each.
 */
interface Lookups {
  screeningFacts(screeningId: string): Promise<ScreeningFacts | undefined>;
  endpoint(ref: EndpointRef): Promise<EndpointView | null>;
}

/** Events after which an endpoint lookup may answer differently. */
const endpointEvents: ReadonlySet<string> = new Set<(typeof webhookProjectorHandles)[number]>([
  'ApiKeyCreated',
  'ApiKeyWebhookConfigured',
  'ApiKeyRevoked',
  'WebhookEndpointRegistered',
  'WebhookEndpointUpdated',
  'WebhookEndpointDisabled',
  'WebhookEndpointReenabled',
]);

/** (surface, account, key) of a lookup or of a found endpoint ('' / null: no key, as stored). */
const endpointKey = (ref: EndpointRef | EndpointView) => JSON.stringify([ref.surface, ref.accountId, ref.keyId ?? '']);

/**
 * A delivery's id, derived from its dedup key (the event it is about, the surface and the webhook
 * event): a rebuild of the projector writes the same row under the same id, and a receiver that
 * deduplicates on the id sees one delivery however often history is replayed. A UUID (v8: custom).
 */
export function deliveryIdOf(dedupKey: string): string {
  const hex = createHash('sha256').update(`svc-webhook-delivery:${dedupKey}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * When the fact happened, as the event records it: the time written on outbox rows (due at once)
 * and on endpoint rows. Never the clock: rebuilding the projector from the same events must give
 * the same rows.
 */
const recordedTime = (event: RecordedEvent) => new Date(event.metadata.occurredAt);

export function createWebhookProjector(options: WebhookProjectorOptions = {}): Projection {
  const logger = options.logger ?? { error() {} };

  /**
   * Builds and enqueues one webhook. A payload that fails its schema (a malformed event) is logged
   * and skipped rather than stalling every later webhook behind it.
   */
  async function send(
    db: Queryable,
    lookups: Lookups,
    event: RecordedEvent,
    build: () => WebhookMessage,
    accountId: string,
    keyId?: string,
  ) {
    let message: WebhookMessage;
    try {
      message = build();
    } catch (err) {
      logger.error({ eventId: event.metadata.eventId, type: event.type, err: (err as Error).message }, 'webhook payload rejected; not sent');
      return;
    }
    const endpoint = await lookups.endpoint({ accountId, surface: message.surface, keyId });
    const dedupKey = `${event.metadata.eventId}:${message.surface}:${message.event}`;
    await enqueueTo(db, endpoint, { accountId, keyId, message, now: recordedTime(event), dedupKey, deliveryId: deliveryIdOf(dedupKey), traceparent: event.metadata.traceparent });
  }

  /** The facts of several screenings in one query (facts never change once written). */
  async function screeningFactsOf(db: Queryable, schema: string, screeningIds: string[]): Promise<Map<string, ScreeningFacts>> {
    if (screeningIds.length === 0) return new Map();
    const { rows } = await db.query<ScreeningFacts & { screening_id: string }>(
      `SELECT screening_id, account_id, key_id, surface, kind, uuid, query, requested_at
         FROM ${quoteIdent(schema)}.screenings WHERE screening_id = ANY($1::text[])`,
      [screeningIds],
    );
    return new Map(rows.map(({ screening_id, ...facts }) => [screening_id, facts]));
  }

  /** An S1 key's webhook endpoint (one per key). */
  function upsertKeyWebhook(
    client: pg.PoolClient,
    key: { accountId: string; keyId: string; webhook: { url: string; secretCiphertext: string } },
    now: Date,
  ): Promise<unknown> {
    return upsertEndpoint(client, {
      accountId: key.accountId,
      surface: 's1',
      keyId: key.keyId,
      url: key.webhook.url,
      secretCiphertext: key.webhook.secretCiphertext,
      now,
    });
  }

  /** One event, as apply() defines it, reading facts and endpoints through `lookups`. */
  async function applyEvent(client: pg.PoolClient, recorded: RecordedEvent, schema: string, lookups: Lookups): Promise<void> {
    const event = recorded as unknown as Handled & RecordedEvent;
    const s = quoteIdent(schema);
    const now = recordedTime(recorded);
    switch (event.type) {
      // ---------------------------------------------------------------- endpoints
      case 'ApiKeyCreated':
        if (event.data.surface === 's1' && event.data.webhook) await upsertKeyWebhook(client, { ...event.data, webhook: event.data.webhook }, now);
        return;
      case 'ApiKeyWebhookConfigured':
        await upsertKeyWebhook(client, event.data, now);
        return;
      case 'ApiKeyRevoked':
        // A revoked key's webhook stops: later deliveries for it are logged as dropped.
        await disableEndpoint(client, { accountId: event.data.accountId, surface: 's1', keyId: event.data.keyId }, now);
        return;
      case 'WebhookEndpointRegistered':
      case 'WebhookEndpointUpdated':
        await upsertEndpoint(client, {
          accountId: event.data.accountId,
          surface: event.data.surface,
          url: event.data.url,
          secretCiphertext: event.data.secretCiphertext,
          now,
        });
        return;
      case 'WebhookEndpointDisabled':
        await disableEndpoint(client, { accountId: event.data.accountId, surface: event.data.surface }, now);
        return;
      case 'WebhookEndpointReenabled': {
        const { rows } = await client.query<{ id: string }>(
          `SELECT id FROM webhook_endpoints WHERE surface = $1 AND account_id = $2 AND key_id = ''`,
          [event.data.surface, event.data.accountId],
        );
        if (rows[0]) await reenable(client, rows[0].id, { now, accountId: event.data.accountId });
        return;
      }

      // ---------------------------------------------------------------- screenings (S1, S3)
      case 'ScreeningRequested':
        await insertScreeningFacts(client, schema, [event]);
        return;
      case 'ScreeningCompleted': {
        const d = event.data;
        const facts = await lookups.screeningFacts(d.screeningId);
        if (d.surface === 's1' && d.kind !== 'sow') {
          if (!facts?.key_id) return; // no key, no S1 webhook configuration to send to
          const s1Event = `${d.kind}.completed` as const;
          await send(
            client,
            lookups,
            event,
            () => s1ScreeningCompleted({
              event: s1Event,
              screening: {
                id: Number(d.screeningId),
                search_query: facts.query,
                risk_level: d.riskLevel,
                risk_score: Math.round(d.riskScore),
                status: 'completed',
                created_at: facts.requested_at.toISOString(),
              },
              timestamp: isoMs(d.completedAt),
            }),
            d.accountId,
            facts.key_id,
          );
        } else if (d.surface === 's3') {
          await send(
            client,
            lookups,
            event,
            () => s3Payload('screening.completed', {
              screening_id: d.uuid,
              screening_type: d.kind === 'ma' ? 'MA' : (d.kind.toUpperCase() as 'CDD' | 'EDD' | 'SOW'),
              risk_score: d.riskScore,
              risk_level: d.riskLevel,
              // The SOW screening's own uuid for SOW screenings (its SVC-…-SOW id is in the API), else null.
              sow_screening_id: d.kind === 'sow' ? d.uuid : null,
              completed_at: isoMs(d.completedAt),
            }),
            d.accountId,
          );
        }
        return;
      }
      case 'MonitoringAlertRaised': {
        const d = event.data;
        const facts = await lookups.screeningFacts(d.screeningId);
        if (!facts) return;
        const alert = {
          entity_id: d.entityId,
          list: d.source,
          matched_name: d.matchedName,
          score: score100(d.score),
          detected_at: isoMs(d.raisedAt),
        };
        if (facts.surface === 's1' && facts.key_id) {
          await send(
            client,
            lookups,
            event,
            () => s1MonitoringAlert({ screeningId: Number(d.screeningId), alert: { kind: d.kind, ...alert }, timestamp: isoMs(d.raisedAt) }),
            d.accountId,
            facts.key_id,
          );
        } else if (facts.surface === 's3') {
          await send(client, lookups, event, () => s3Payload('monitoring.alert', { screening_id: facts.uuid, alert_kind: d.kind, ...alert }), d.accountId);
        }
        return;
      }

      // ---------------------------------------------------------------- person checks (S1)
      case 'PersonCheckRequested':
        await insertPersonCheckFacts(client, schema, [event]);
        return;
      case 'PersonCheckCompleted': {
        const d = event.data;
        if (d.surface !== 's1') return;
        const { rows } = await client.query<{ key_id: string | null; full_name: string; requested_at: Date }>(
          `SELECT key_id, full_name, requested_at FROM ${s}.person_checks WHERE person_check_id = $1`,
          [d.personCheckId],
        );
        const facts = rows[0];
        if (!facts?.key_id) return;
        await send(
          client,
          lookups,
          event,
          () => s1PersonCheckCompleted({
            personCheck: {
              id: d.personCheckId,
              full_name: facts.full_name,
              result: d.result,
              confidence: d.confidence,
              status: 'completed',
              created_at: facts.requested_at.toISOString(),
            },
            timestamp: isoMs(d.completedAt),
          }),
          d.accountId,
          facts.key_id,
        );
        return;
      }

      // ---------------------------------------------------------------- subject checks (S2)
      case 'SubjectCheckStarted':
      case 'SubjectCheckReviewRequired':
      case 'SubjectCheckEscalated':
      case 'SubjectCheckCompleted':
      case 'SubjectCheckFailed':
        await send(client, lookups, event, () => subjectCheckMessage(event), event.data.accountId);
        return;
      case 'SubjectCheckMonitoringAlertRaised': {
        // Flat like the other S2 callbacks, signed over the raw body with the account's secret.
        const d = event.data;
        await send(
          client,
          lookups,
          event,
          () =>
            s2Payload('subject_check.monitoring_alert', {
              subject_check_id: Number(d.subjectCheckId),
              account_id: Number(d.accountId),
              alert_id: d.alertId,
              alert_kind: d.kind,
              entity_id: d.entityId,
              list: d.source,
              matched_name: d.matchedName,
              score: score100(d.score),
              detected_at: isoMs(d.raisedAt),
              ...s2AlertAssessment(d),
            }),
          d.accountId,
        );
        return;
      }
      default:
        return assertUnhandled(event);
    }
  }

  return {
    name: 'webhooks',
    version: 1,
    handles: webhookProjectorHandles,
    sharedTables: WEBHOOK_PROJECTOR_TABLES,

    async setup(client: pg.PoolClient, schema: string) {
      const s = quoteIdent(schema);
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.screenings (
        screening_id text PRIMARY KEY, account_id text NOT NULL, key_id text NULL, surface text NOT NULL,
        kind text NOT NULL, uuid text NOT NULL, query text NOT NULL, requested_at timestamptz NOT NULL)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.person_checks (
        person_check_id text PRIMARY KEY, account_id text NOT NULL, key_id text NULL, surface text NOT NULL,
        full_name text NOT NULL, requested_at timestamptz NOT NULL)`);
    },

    async apply(client: pg.PoolClient, recorded: RecordedEvent, schema: string) {
      await applyEvent(client, recorded, schema, {
        screeningFacts: async (screeningId) => (await screeningFactsOf(client, schema, [screeningId])).get(screeningId),
        endpoint: (ref) => findEndpoint(client, ref),
      });
    },

    /**
     * The facts of the batch's requests first, in one statement per table (a request is its stream's
     * first event, so nothing earlier in the batch reads its facts); then one query for the facts the
     * batch's screening events refer to, and one for the endpoints its sends can need; then every
     * other event in order, as apply() would, served from those. Endpoints are fetched once only when
     * no event of the batch changes one; otherwise each send looks its endpoint up as apply() does.
     */
    async applyBatch(client: pg.PoolClient, recorded: RecordedEvent[], schema: string) {
      const events = recorded as unknown as (Handled & RecordedEvent)[];
      await insertScreeningFacts(client, schema, events.filter((e): e is ScreeningRequestedEvent => e.type === 'ScreeningRequested'));
      await insertPersonCheckFacts(client, schema, events.filter((e): e is PersonCheckRequestedEvent => e.type === 'PersonCheckRequested'));
      const rest = events.filter((e) => e.type !== 'ScreeningRequested' && e.type !== 'PersonCheckRequested');
      if (rest.length === 0) return;

      const referred = new Set<string>();
      for (const e of rest) if (e.type === 'ScreeningCompleted' || e.type === 'MonitoringAlertRaised') referred.add(e.data.screeningId);
      const facts = await screeningFactsOf(client, schema, [...referred]);

      let endpoint = (ref: EndpointRef) => findEndpoint(client, ref);
      if (!rest.some((e) => endpointEvents.has(e.type))) {
        // Every send goes to an endpoint of its event's account.
        const accounts = new Set(rest.map((e) => e.data.accountId));
        const endpoints = new Map((await findEndpointsOfAccounts(client, [...accounts])).map((found) => [endpointKey(found), found]));
        endpoint = async (ref) => (accounts.has(ref.accountId) ? (endpoints.get(endpointKey(ref)) ?? null) : findEndpoint(client, ref));
      }

      const lookups: Lookups = { screeningFacts: async (screeningId) => facts.get(screeningId), endpoint };
      for (const event of rest) await applyEvent(client, event, schema, lookups);
    },
  };
}

/**
 * What the projector alone writes in the shared webhook tables, as it writes it: the dispatcher
 * changes a delivery's status, attempts and times, and an endpoint's failure streak and enabled flag,
 * so those are left out; endpoints are named by surface, account and key (their serial ids depend on
 * insertion order), and manual retries and test sends (no dedup key) are not the projector's.
 */
const WEBHOOK_PROJECTOR_TABLES = [
  {
    table: 'webhook_endpoints',
    rows: (schema: string) => `SELECT surface, account_id, key_id, url, secret_ciphertext, created_at FROM ${quoteIdent(schema)}.webhook_endpoints`,
  },
  {
    table: 'webhook_outbox',
    rows: (schema: string) =>
      `SELECT o.delivery_id, e.surface AS endpoint_surface, e.account_id AS endpoint_account, e.key_id AS endpoint_key, o.account_id, o.surface,
              o.event_type, encode(o.body, 'escape') AS body, o.dedup_key, o.subject_ref, o.max_attempts, o.created_at
         FROM ${quoteIdent(schema)}.webhook_outbox o JOIN ${quoteIdent(schema)}.webhook_endpoints e ON e.id = o.endpoint_id
        WHERE o.dedup_key IS NOT NULL`,
  },
] as const;

type ScreeningRequestedEvent = Extract<Handled, { type: 'ScreeningRequested' }> & RecordedEvent;
type PersonCheckRequestedEvent = Extract<Handled, { type: 'PersonCheckRequested' }> & RecordedEvent;

/**
 * Who requested each screening, with which key, what was searched: one statement for any number of
 * requests (column arrays, unnested in order). A request applied again keeps the first facts.
 */
async function insertScreeningFacts(db: Queryable, schema: string, events: ScreeningRequestedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO ${quoteIdent(schema)}.screenings (screening_id, account_id, key_id, surface, kind, uuid, query, requested_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
     ON CONFLICT (screening_id) DO NOTHING`,
    [
      events.map((e) => e.data.screeningId),
      events.map((e) => e.data.accountId),
      events.map((e) => e.metadata.actor?.keyId ?? null),
      events.map((e) => e.data.surface),
      events.map((e) => e.data.kind),
      events.map((e) => e.data.uuid),
      events.map((e) => e.data.subject.query),
      events.map((e) => e.data.requestedAt),
    ],
  );
}

/** The same for S1 person checks. */
async function insertPersonCheckFacts(db: Queryable, schema: string, events: PersonCheckRequestedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO ${quoteIdent(schema)}.person_checks (person_check_id, account_id, key_id, surface, full_name, requested_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
     ON CONFLICT (person_check_id) DO NOTHING`,
    [
      events.map((e) => e.data.personCheckId),
      events.map((e) => e.data.accountId),
      events.map((e) => e.metadata.actor?.keyId ?? null),
      events.map((e) => e.data.surface),
      events.map((e) => e.data.fullName),
      events.map((e) => e.data.requestedAt),
    ],
  );
}

function assertUnhandled(event: never): void {
  throw new Error(`webhook projector received an event it does not handle: ${(event as { type: string }).type}`);
}

type SubjectCheckLifecycle = Extract<
  SubjectCheckEvent,
  { type: 'SubjectCheckStarted' | 'SubjectCheckReviewRequired' | 'SubjectCheckEscalated' | 'SubjectCheckCompleted' | 'SubjectCheckFailed' }
>;

/** The S2 callback for one lifecycle event (field names are the event's, snake_cased). */
export function subjectCheckMessage(event: SubjectCheckLifecycle): WebhookMessage {
  const ids = { subject_check_id: Number(event.data.subjectCheckId), account_id: Number(event.data.accountId) };
  switch (event.type) {
    case 'SubjectCheckStarted':
      return s2Payload('subject_check.processing', { ...ids, status: 'running', processing_at: event.data.processingAt });
    case 'SubjectCheckReviewRequired': {
      const d = event.data;
      return s2Payload('subject_check.review_required', {
        ...ids,
        status: 'needs_review',
        overall_result: d.overallResult,
        confidence_level: d.confidenceLevel,
        findings_count: d.findingsCount,
        red_flag_count: d.redFlagCount,
        warning_count: d.warningCount,
        sources_searched: d.sourcesSearched,
        sources_total: d.sourcesTotal,
        review_reason: d.reviewReason,
        review_required_at: d.reviewRequiredAt,
      });
    }
    case 'SubjectCheckEscalated': {
      const d = event.data;
      return s2Payload('subject_check.escalated', {
        ...ids,
        status: 'escalated',
        investigation_id: d.investigationId,
        triggering_tiers: d.triggeringTiers,
        tier_scores: d.tierScores,
        requested_scope: d.requestedScope,
        priority: d.priority,
        escalated_at: d.escalatedAt,
        ...(d.investigationCreatedAt ? { investigation_created_at: d.investigationCreatedAt } : {}),
        ...(d.slaDueAt ? { sla_due_at: d.slaDueAt } : {}),
      });
    }
    case 'SubjectCheckCompleted': {
      const d = event.data;
      return s2Payload('subject_check.completed', {
        ...ids,
        status: 'completed',
        overall_result: d.overallResult,
        confidence_level: d.confidenceLevel,
        findings_count: d.findingsCount,
        completed_at: d.completedAt,
      });
    }
    case 'SubjectCheckFailed':
      return s2Payload('subject_check.failed', { ...ids, status: 'failed', error_message: event.data.errorMessage, failed_at: event.data.failedAt });
  }
}

/** What an S2 monitoring alert says about identity: its level and strength, and the assessment in words. */
function s2AlertAssessment(d: Extract<SubjectCheckEvent, { type: 'SubjectCheckMonitoringAlertRaised' }>['data']) {
  const view = alertAssessmentView(d);
  return { risk_level: view.risk_level, match_strength: view.match_strength, ...(view.identity_note ? { identity_note: view.identity_note } : {}) };
}
