/**
 * Domain events in the PostgreSQL event store → webhook projector (projection runner, own
 * checkpoint) → outbox → dispatcher → real HTTPS receivers that verify every signature.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ApiKeyCreated } from '../../../src/commands/api-keys';
import type { MonitoringAlertRaised, ScreeningCompleted, ScreeningRequested } from '../../../src/commands/screening';
import type { SubjectCheckEscalated, SubjectCheckStarted } from '../../../src/commands/subject-check';
import type { WebhookEndpointDisabled, WebhookEndpointReenabled, WebhookEndpointRegistered } from '../../../src/commands/webhook-endpoint';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { ProjectionRunner } from '../../../src/projections/runner';
import { ManualClock } from '../../../src/shared/clock';
import type { Actor, Event } from '../../../src/shared/events';
import { createWebhookDispatcher } from '../../../src/webhooks/dispatcher';
import { findEndpoint } from '../../../src/webhooks/outbox';
import { createWebhookProjector } from '../../../src/webhooks/projector';
import { createSecretBox } from '../../../src/webhooks/secrets';
import { generateSigningSecret } from '../../../src/webhooks/signing';
import { startHttpsReceiver, type HttpsReceiver } from '../../support/https-receiver';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

const box = createSecretBox('cd'.repeat(32));
const at = '2026-06-01T08:00:00.000Z';

function meta(actor: Actor) {
  return { eventId: randomUUID(), occurredAt: at, actor };
}

describe('webhook projector: events to verified deliveries', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let runner: ProjectionRunner;
  const clock = new ManualClock(at);
  const secrets = { s1: generateSigningSecret(), s2: generateSigningSecret(), s3: generateSigningSecret() };
  const receivers = {} as Record<'s1' | 's2' | 's3', HttpsReceiver>;

  before(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 20 });
    for (const surface of ['s1', 's2', 's3'] as const) {
      receivers[surface] = await startHttpsReceiver({ surface, secret: secrets[surface], nowSeconds: () => Math.floor(clock.now().getTime() / 1000) });
    }
    runner = new ProjectionRunner({ pool: db.pool, store, projections: [createWebhookProjector()], pollIntervalMs: 20 });
    await runner.start();
  });
  after(async () => {
    await runner.stop();
    await store.close();
    await Promise.all(Object.values(receivers).map((r) => r.close()));
    await db.drop();
  });

  async function append(stream: string, ...events: Event[]) {
    await store.appendToStream(stream, events);
  }

  it('delivers S1, S2 and S3 webhooks for the lifecycle events, signed per surface', async () => {
    const s1Actor: Actor = { surface: 's1', accountId: '11', keyId: '5' };
    await append('account-keys-11', {
      type: 'ApiKeyCreated',
      data: {
        accountId: '11', keyId: '5', surface: 's1', name: 'prod', keyHash: 'a'.repeat(64), prefix: 'svc_abcd',
        webhook: { url: receivers.s1.url, secretCiphertext: box.seal(secrets.s1) }, createdAt: at,
      },
      metadata: meta(s1Actor),
    } satisfies ApiKeyCreated);
    for (const surface of ['s2', 's3'] as const) {
      await append(`webhook-endpoint-${surface}-11`, {
        type: 'WebhookEndpointRegistered',
        data: { accountId: '11', surface, endpointId: surface === 's2' ? '1' : '2', url: receivers[surface].url, secretCiphertext: box.seal(secrets[surface]), registeredAt: at },
        metadata: meta({ surface, accountId: '11' }),
      } satisfies WebhookEndpointRegistered);
    }

    // S1 CDD screening, then a monitoring alert on it.
    const s1Uuid = randomUUID();
    await append(
      'screening-501',
      {
        type: 'ScreeningRequested',
        data: {
          screeningId: '501', accountId: '11', uuid: s1Uuid, kind: 'cdd', surface: 's1', plan: 'enterprise',
          subject: { query: 'Acme Trading Ltd', entityType: 'company' }, monitor: true, pipeline: [], requestedAt: '2026-06-01T07:59:58.5Z',
        },
        metadata: meta(s1Actor),
      } satisfies ScreeningRequested,
      {
        type: 'ScreeningCompleted',
        data: {
          screeningId: '501', accountId: '11', uuid: s1Uuid, kind: 'cdd', surface: 's1', riskScore: 27, riskLevel: 'medium',
          counts: { sanctionsHits: 1, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
          hits: [], listVersions: [], matcherVersion: 'test', completedAt: '2026-06-01T08:00:00Z',
        },
        metadata: meta(s1Actor),
      } satisfies ScreeningCompleted,
      {
        type: 'MonitoringAlertRaised',
        data: {
          screeningId: '501', accountId: '11', alertId: 'al-1', kind: 'new_hit', hitId: 'h-9', entityId: 'ofac_sdn:36421', category: 'sanctions',
          source: 'ofac_sdn', matchedName: 'ACME TRADING LIMITED', score: 0.96, diff: {}, listVersion: 'v2', raisedAt: '2026-06-02T02:00:00.000Z',
        },
        metadata: meta({ surface: 'system' }),
      } satisfies MonitoringAlertRaised,
    );

    // S3 SOW screening.
    const sowUuid = randomUUID();
    const s3Actor: Actor = { surface: 's3', accountId: '11', keyId: '8' };
    await append(
      'screening-502',
      {
        type: 'ScreeningRequested',
        data: {
          screeningId: '502', accountId: '11', uuid: sowUuid, kind: 'sow', surface: 's3', plan: 'enterprise',
          subject: { query: 'Jane Roe', entityType: 'individual' }, monitor: false, pipeline: [], requestedAt: at,
        },
        metadata: meta(s3Actor),
      } satisfies ScreeningRequested,
      {
        type: 'ScreeningCompleted',
        data: {
          screeningId: '502', accountId: '11', uuid: sowUuid, kind: 'sow', surface: 's3', riskScore: 48.5, riskLevel: 'high',
          counts: { sanctionsHits: 0, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
          hits: [], listVersions: [], matcherVersion: 'test', sowScreeningId: 'SVC-ab12cd34-SOW', completedAt: at,
        },
        metadata: meta(s3Actor),
      } satisfies ScreeningCompleted,
    );

    // S2 subject check: processing then escalated.
    const s2Actor: Actor = { surface: 's2', accountId: '11', keyId: '9' };
    await append(
      'subject-check-77',
      {
        type: 'SubjectCheckStarted',
        data: {
          subjectCheckId: '77', accountId: '11', status: 'running', firstName: 'John', lastName: 'Doe', locations: [{ country: 'GB' }],
          purpose: 'employment', consent: { certified: true, certifiedAt: at }, processingAt: at,
        },
        metadata: meta(s2Actor),
      } satisfies SubjectCheckStarted,
      {
        type: 'SubjectCheckEscalated',
        data: {
          subjectCheckId: '77', accountId: '11', status: 'escalated', investigationId: 'INV-77', triggeringTiers: ['sanctions'],
          tierScores: { sanctions: 92, pep: 10 }, requestedScope: 'full', priority: 'critical', escalatedAt: at,
          investigationCreatedAt: at, slaDueAt: '2026-06-01T12:00:00.000Z',
        },
        metadata: meta(s2Actor),
      } satisfies SubjectCheckEscalated,
    );

    await runner.caughtUp();
    const dispatcher = createWebhookDispatcher({ pool: db.pool, clock, secrets: box, allowPrivate: true, ca: [receivers.s1.ca, receivers.s2.ca, receivers.s3.ca] });
    const report = await dispatcher.runDue();
    const log = await db.pool.query(`SELECT surface, event_type, status, last_error, attempt_count FROM webhook_outbox`);
    assert.equal(report.succeeded, 5, JSON.stringify(log.rows));

    for (const r of Object.values(receivers)) assert.ok(r.requests.every((q) => q.signatureValid), 'every signature verifies');
    const s1 = receivers.s1.requests.map((q) => q.json!);
    assert.deepEqual(s1.map((b) => b.event).sort(), ['cdd.completed', 'monitoring.alert']);
    const cdd = s1.find((b) => b.event === 'cdd.completed')!;
    assert.deepEqual(
      { ...cdd, signature: undefined },
      {
        event: 'cdd.completed',
        screening_id: 501,
        screening: { id: 501, search_query: 'Acme Trading Ltd', risk_level: 'medium', risk_score: 27, status: 'completed', created_at: '2026-06-01T07:59:58.500Z' },
        timestamp: '2026-06-01T08:00:00.000Z',
        signature: undefined,
      },
    );
    const alert = s1.find((b) => b.event === 'monitoring.alert')!;
    assert.deepEqual(alert.alert, { kind: 'new_hit', entity_id: 'ofac_sdn:36421', list: 'ofac_sdn', matched_name: 'ACME TRADING LIMITED', score: 96, detected_at: '2026-06-02T02:00:00.000Z' });

    assert.deepEqual(receivers.s3.requests.map((q) => q.json), [
      { event: 'screening.completed', screening_id: sowUuid, screening_type: 'SOW', risk_score: 48.5, risk_level: 'high', sow_screening_id: sowUuid, completed_at: at },
    ]);
    const s2 = receivers.s2.requests.map((q) => q.json!);
    assert.deepEqual(s2.map((b) => b.event).sort(), ['subject_check.escalated', 'subject_check.processing']);
    assert.deepEqual(s2.find((b) => b.event === 'subject_check.escalated'), {
      event: 'subject_check.escalated', subject_check_id: 77, account_id: 11, status: 'escalated', investigation_id: 'INV-77',
      triggering_tiers: ['sanctions'], tier_scores: { sanctions: 92, pep: 10 }, requested_scope: 'full', priority: 'critical',
      escalated_at: at, investigation_created_at: at, sla_due_at: '2026-06-01T12:00:00.000Z',
    });
  });

  it('never enqueues twice when an event is applied again (replay or rebuild)', async () => {
    const before = (await db.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox`)).rows[0].n as number;
    const projector = createWebhookProjector();
    const events = await store.readAll();
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      for (const e of events) if ((projector.handles as readonly string[]).includes(e.type)) await projector.apply(client, e, 'proj_webhooks');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const afterCount = (await db.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox`)).rows[0].n as number;
    assert.equal(afterCount, before);
    assert.ok(before >= 5);
  });

  it('applies endpoint disable and re-enable events', async () => {
    const ids = { accountId: '11', surface: 's3' as const, endpointId: '2' };
    await append('webhook-endpoint-s3-11', {
      type: 'WebhookEndpointDisabled',
      data: { ...ids, reason: 'consecutive_failures', consecutiveFailures: 10, lastDeliveryId: randomUUID(), disabledAt: at },
      metadata: meta({ surface: 'system' }),
    } satisfies WebhookEndpointDisabled);
    await runner.caughtUp();
    assert.equal((await findEndpoint(db.pool, { accountId: '11', surface: 's3' }))?.enabled, false);
    await append('webhook-endpoint-s3-11', {
      type: 'WebhookEndpointReenabled',
      data: { ...ids, reenabledAt: at },
      metadata: meta({ surface: 'portal', accountId: '11' }),
    } satisfies WebhookEndpointReenabled);
    await runner.caughtUp();
    assert.equal((await findEndpoint(db.pool, { accountId: '11', surface: 's3' }))?.enabled, true);
  });
});
