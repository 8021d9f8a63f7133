/**
 * The S3 screening.completed webhook end to end on the whole wired service: registered in the portal,
 * produced by the webhook projector from ScreeningCompleted, delivered by the dispatcher to a real
 * HTTPS receiver (signature verified there, independently), 3 attempts with backoff, auto-disabled
 * after 10 consecutive failed deliveries (an event the portal shows), re-enabled by the owner.
 * Time: a ManualClock drives the retry schedule; the dispatcher loop runs on real time.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/config';
import { startService, type RunningService } from '../../src/bootstrap/service';
import { createLogger } from '../../src/shared/logger';
import { ManualClock } from '../../src/shared/clock';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { testIndexCacheEnv } from '../support/index-cache';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { call } from '../integration/api/s3/helpers';

let db: TestDatabase;
let service: RunningService;
let receiver: HttpsReceiver;
let url: string;
let key: string;
let token: string;
let accountId: string;
const clock = new ManualClock(new Date());

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver({ surface: 's3', secret: 'not-yet-registered' });
  const env = { NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true', ...testIndexCacheEnv() };
  const config = loadConfig(env);
  service = await startService({ config, logger: createLogger({ level: config.LOG_LEVEL }), http: true, agents: 'all', projections: true, clock, webhookCa: receiver.ca });
  url = service.url!;
  const system = () => ({ actor: { surface: 'system' as const }, correlationId: randomUUID(), commandId: randomUUID() });
  const email = `owner-${randomUUID()}@example.test`;
  const created = await service.services.accounts.create({ name: 'Webhook Co', email, password: 'correct horse battery', plan: 'enterprise' }, system());
  accountId = created.accountId;
  const signIn = await call(url, 'POST', '/api/session', { body: { email, password: 'correct horse battery' } });
  token = signIn.body.data.token;
  const k = await call(url, 'POST', '/api/portal/keys', { headers: { authorization: `Bearer ${token}` }, body: { surface: 's3', name: 'webhooks' } });
  assert.equal(k.status, 201, JSON.stringify(k.body));
  key = k.body.data.plaintext;
});
after(async () => {
  await service?.stop();
  await receiver?.close();
  await db?.drop();
});

const portal = (method: string, path: string, body?: unknown) => call(url, method, path, { headers: { authorization: `Bearer ${token}` }, ...(body !== undefined ? { body } : {}) });
const screen = async (query: string) => {
  const answer = await call(url, 'POST', '/api/v1/screening/cdd', { key, body: { query } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data;
};

describe('S3 screening.completed webhook', () => {
  it('refuses a non-HTTPS or malformed endpoint URL', async () => {
    for (const bad of ['http://127.0.0.1/hook', 'not a url', '']) {
      const answer = await portal('PUT', '/api/webhook-endpoint', { url: bad });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
    }
    assert.equal((await portal('GET', '/api/webhook-endpoint')).status, 404);
  });

  it('delivers exactly the part-6 payload, signed over the raw body', async () => {
    const registered = await portal('PUT', '/api/webhook-endpoint', { url: receiver.url });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    assert.match(registered.body.data.signing_secret, /^whsec_/);
    receiver.setSecret(registered.body.data.signing_secret);
    const s = await screen('Margaret Thistlewood');
    await until('the delivery', () => receiver.requests.length >= 1);
    const req = receiver.requests[0]!;
    assert.equal(req.signatureValid, true, req.failure);
    assert.match(String(req.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.deepEqual(Object.keys(req.json!), ['event', 'screening_id', 'screening_type', 'risk_score', 'risk_level', 'sow_screening_id', 'completed_at']);
    assert.deepEqual({ ...req.json, completed_at: undefined }, { event: 'screening.completed', screening_id: s.id, screening_type: 'CDD', risk_score: s.risk_score, risk_level: s.risk_level, sow_screening_id: null, completed_at: undefined });
  });

  it('auto-disables the endpoint after 10 consecutive failed deliveries (3 attempts each) and the owner re-enables it', async () => {
    receiver.respondWith({ status: 500 });
    const before = receiver.requests.length;
    for (let i = 0; i < 10; i++) await screen(`Failing Delivery ${i}`);
    await until('10 first attempts', () => receiver.requests.length >= before + 10);
    clock.advance(30_000);
    await until('10 second attempts', () => receiver.requests.length >= before + 20);
    clock.advance(120_000);
    await until('10 third attempts', () => receiver.requests.length >= before + 30);
    // The dispatcher stops sending at once; the aggregate records the streak and the disable event right after.
    await until('the auto-disable event', async () => (await portal('GET', '/api/webhook-endpoint')).body.data?.disable_history.length === 1);
    const state = (await portal('GET', '/api/webhook-endpoint')).body.data;
    assert.equal(state.enabled, false);
    assert.ok(state.disabled_at);
    assert.equal(state.disable_history.length, 1);
    assert.equal(state.disable_history[0].consecutive_failures, 10);
    assert.equal(state.disable_history[0].reason, 'consecutive_failures');
    const stream = await service.store.readStream(`webhook-endpoint-s3-${accountId}`);
    assert.equal(stream.filter((e) => e.type === 'WebhookDeliveryFailed').length, 10);
    assert.equal(stream.filter((e) => e.type === 'WebhookEndpointDisabled').length, 1);
    assert.equal(receiver.requests.length, before + 30, 'no fourth attempt');

    // While disabled nothing is sent.
    receiver.respondWith({ status: 200 });
    await screen('While Disabled');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(receiver.requests.length, before + 30);

    const reenabled = await portal('POST', '/api/webhook-endpoint/reenable');
    assert.equal(reenabled.status, 200, JSON.stringify(reenabled.body));
    assert.equal(reenabled.body.data.enabled, true);
    assert.equal(reenabled.body.data.consecutive_failures, 0);
    const s = await screen('After Reenable');
    await until('delivery after re-enable', () => receiver.requests.some((r) => r.json?.screening_id === s.id));
    assert.equal(receiver.requests.at(-1)!.signatureValid, true);
  });
});
