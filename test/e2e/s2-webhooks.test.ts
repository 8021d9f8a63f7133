/**
 * S2 end to end: the whole service on the bundled real lists (real sanctions worker; the other
 * sources answered by scripted workers, see test/integration/api/s2/support.ts), an integrator's
 * webhook registered through the API, and a real HTTPS receiver (self-signed certificate trusted
 * through the dispatcher's `ca`) that verifies every signature over the raw bytes in constant time.
 *
 * The service's own dispatcher loop is stopped and replaced by one driven by a ManualClock, so the
 * retry spacing (immediately, +1 s, +5 s) is checked without sleeping.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/shared/clock';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/dispatcher';
import { createSecretBox } from '../../src/webhooks/secrets';
import { startTestService, type TestService } from '../support/service';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { call, settled, startScriptedAgents, subject, waitFor, writes } from '../integration/api/s2/support';

const SECRETS_KEY = 'e2e-secrets-key-0123456789abcdef0123456789';
const CHECKS = '/api/v1/compliance/subject-checks';
const WEBHOOKS = '/api/v1/compliance/webhooks';

let svc: TestService;
let key: string;
let otherKey: string;
let receiver: HttpsReceiver;
let dispatcher: WebhookDispatcher;
let scripted: Awaited<ReturnType<typeof startScriptedAgents>>;
const dispatchClock = new ManualClock(new Date());

const post = (path: string, body?: unknown, bearer = key) => call(svc.url, 'POST', path, { bearer, ...(body !== undefined ? { body } : {}) });
const get = (path: string, bearer = key) => call(svc.url, 'GET', path, { bearer });

/** The deliveries of one check as the delivery log shows them, once `events` are all queued. */
async function queued(subjectCheckId: number, events: string[]): Promise<any[]> {
  return waitFor(`deliveries ${events.join(', ')} of check ${subjectCheckId}`, async () => {
    const log = await get(`${WEBHOOKS}/deliveries?subject_check_id=${subjectCheckId}&limit=100`);
    const found = log.body.deliveries as any[];
    return events.every((e) => found.some((d) => d.event === e)) ? found : undefined;
  });
}

/** Delivers everything due now (the dispatcher's clock catches up with real time first). */
async function deliverDue(): Promise<void> {
  if (dispatchClock.now().getTime() < Date.now()) dispatchClock.set(Date.now());
  await dispatcher.runDue();
}

function receivedFor(event: string, subjectCheckId?: number) {
  return receiver.requests.filter((r) => r.json?.event === event && (subjectCheckId === undefined || r.json?.subject_check_id === subjectCheckId));
}

before(async () => {
  svc = await startTestService({ env: { SECRETS_KEY, WEBHOOK_ALLOW_PRIVATE: 'true' }, agents: ['sanctions'] });
  await svc.service.dispatcher!.stop();
  scripted = await startScriptedAgents(svc.service.bus);
  const account = await svc.createAccount('enterprise');
  key = (await svc.createKey(account.accountId, 's2')).key;
  otherKey = (await svc.createKey((await svc.createAccount('enterprise')).accountId, 's2')).key;
  receiver = await startHttpsReceiver({ surface: 's2', secret: 'not-yet-registered' });
  dispatcher = createWebhookDispatcher({
    pool: svc.service.pool,
    clock: dispatchClock,
    secrets: createSecretBox(SECRETS_KEY),
    allowPrivate: true,
    ca: receiver.ca,
    policies: { s2: { timeoutMs: 1500 } },
  });
});
after(async () => {
  await scripted?.stop();
  await receiver?.close();
  await svc?.stop();
});

describe('registration', () => {
  it('refuses what is not an HTTPS URL to a public address, writing nothing', async () => {
    const before = await writes(svc);
    for (const url of [
      'http://hooks.example.com/x',
      'ftp://hooks.example.com/x',
      'not a url',
      'https://user:secret@hooks.example.com/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:169.254.169.254]/x',
      'https://0.0.0.0/x',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const res = await post(WEBHOOKS, { url });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.code, 'invalid_payload', url);
      assert.match(res.body.error.errors[0], /^url: /);
    }
    for (const body of [{}, { url: 42 }, { url: 'https://a.example', extra: true }]) {
      assert.equal((await post(WEBHOOKS, body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await get(WEBHOOKS)).status, 404, 'nothing registered');
    assert.deepEqual(await writes(svc), before);
  });

  it('registers (201) then updates (200) the one URL of the account, with a new signing secret each time', async () => {
    const first = await post(WEBHOOKS, { url: `${receiver.url}?v=1` });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(Object.keys(first.body).sort(), ['created_at', 'id', 'signing_secret', 'success', 'url']);
    assert.equal(typeof first.body.id, 'number');
    const second = await post(WEBHOOKS, { url: receiver.url });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.id, first.body.id, 'same registration');
    assert.equal(second.body.created_at, first.body.created_at);
    assert.notEqual(second.body.signing_secret, first.body.signing_secret);
    receiver.setSecret(second.body.signing_secret);
    const current = await get(WEBHOOKS);
    assert.equal(current.body.webhook.url, receiver.url);
    assert.ok(!current.text.includes(second.body.signing_secret), 'the secret is shown only once');
  });
});

describe('lifecycle callbacks', () => {
  const required: Record<string, string[]> = {
    'subject_check.processing': ['account_id', 'event', 'processing_at', 'status', 'subject_check_id'],
    'subject_check.completed': ['account_id', 'completed_at', 'confidence_level', 'event', 'findings_count', 'overall_result', 'status', 'subject_check_id'],
    'subject_check.review_required': [
      'account_id', 'confidence_level', 'event', 'findings_count', 'overall_result', 'red_flag_count', 'review_reason', 'review_required_at',
      'sources_searched', 'sources_total', 'status', 'subject_check_id', 'warning_count',
    ],
    'subject_check.escalated': [
      'account_id', 'escalated_at', 'event', 'investigation_created_at', 'investigation_id', 'priority', 'requested_scope', 'sla_due_at', 'status',
      'subject_check_id', 'tier_scores', 'triggering_tiers',
    ],
    'subject_check.failed': ['account_id', 'error_message', 'event', 'failed_at', 'status', 'subject_check_id'],
  };
  const ids: Record<string, number> = {};

  it('the creation answer never waits for delivery, even when the receiver hangs', async () => {
    receiver.respondWith('hang');
    const started = Date.now();
    const res = await post(CHECKS, subject('Thistlewood'));
    assert.equal(res.status, 201);
    assert.ok(Date.now() - started < 2000);
    ids.completed = res.body.subject_check_id;
    receiver.respondWith({ status: 200 });
  });

  it('every state is announced with exactly its required fields, signed over the raw body', async () => {
    ids.review = (await post(CHECKS, subject('Sparse'))).body.subject_check_id;
    ids.escalated = (await post(CHECKS, { ...subject('Putin'), first_name: 'Vladimir', locations: [{ country: 'RU' }] })).body.subject_check_id;
    ids.failed = (await post(CHECKS, subject('Broken'))).body.subject_check_id;
    const expected: [number, string, string][] = [
      [ids.completed!, 'subject_check.completed', 'completed'],
      [ids.review!, 'subject_check.review_required', 'needs_review'],
      [ids.escalated!, 'subject_check.escalated', 'escalated'],
      [ids.failed!, 'subject_check.failed', 'failed'],
    ];
    for (const [id, event, status] of expected) {
      await settled(svc.url, key, id, status);
      await queued(id, ['subject_check.processing', event]);
    }
    await deliverDue();
    for (const [id, event] of expected) {
      for (const name of ['subject_check.processing', event]) {
        const got = receivedFor(name, id);
        assert.equal(got.length, 1, `${name} for ${id}`);
        const req = got[0]!;
        assert.equal(req.signatureValid, true, req.failure);
        assert.deepEqual(Object.keys(req.json!).sort(), required[name], name);
        assert.equal(req.json!.account_id, Number((await get(`${CHECKS}/${id}`)).body.subject_check.account_id));
        assert.equal(req.headers['content-type'], 'application/json');
        assert.equal(req.headers['user-agent'], 'Service-Webhooks/1.0');
        assert.match(String(req.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
        assert.deepEqual(Object.keys(req.headers).filter((h) => h.startsWith('x-')), ['x-service-signature'], 'no timestamp header');
      }
    }
    const escalated = receivedFor('subject_check.escalated', ids.escalated)[0]!.json!;
    assert.ok((escalated.triggering_tiers as string[]).includes('sanctions'), 'real OFAC/UN listing of the subject');
    assert.equal(escalated.investigation_id, `INV-${ids.escalated}`);
    assert.equal(receivedFor('subject_check.review_required', ids.review)[0]!.json!.review_reason, 'insufficient_source_coverage');
    assert.equal(receivedFor('subject_check.processing', ids.completed)[0]!.json!.status, 'running');
    assert.doesNotMatch(String(receivedFor('subject_check.failed', ids.failed)[0]!.json!.error_message), /JSON|at \w+ \(/);
  });

  it('a reviewer decision announces the new state too', async () => {
    const resolved = await post(`${CHECKS}/${ids.review}/review-resolution`, { outcome: 'clear', note: 'Checked by hand' });
    assert.equal(resolved.status, 200);
    await queued(ids.review!, ['subject_check.completed']);
    await deliverDue();
    const completed = receivedFor('subject_check.completed', ids.review)[0]!;
    assert.equal(completed.json!.overall_result, 'clean');
    assert.equal(completed.signatureValid, true);
  });

  it('checks created by the batch endpoint emit the same callbacks', async () => {
    const batch = await post(`${CHECKS}/batch`, { subjects: [subject('Thistlewood'), subject('Ambiguous')] });
    assert.equal(batch.status, 201);
    const [a, b] = batch.body.results.map((r: any) => r.subject_check_id) as [number, number];
    await queued(a, ['subject_check.processing', 'subject_check.completed']);
    await queued(b, ['subject_check.processing', 'subject_check.review_required']);
    await deliverDue();
    assert.equal(receivedFor('subject_check.completed', a).length, 1);
    assert.equal(receivedFor('subject_check.review_required', b)[0]!.json!.review_reason, 'ambiguous_match');
  });
});

describe('operator actions and the delivery log', () => {
  it('webhook.test carries a string-only subject and no subject_check_id', async () => {
    const res = await post(`${WEBHOOKS}/test`);
    assert.equal(res.status, 202, res.text);
    await deliverDue();
    const got = receiver.requests.filter((r) => r.json?.event === 'webhook.test');
    assert.equal(got.length, 1);
    const body = got[0]!.json!;
    assert.deepEqual(Object.keys(body).sort(), ['delivered_at', 'event', 'subject']);
    assert.deepEqual(Object.keys(body.subject as object).sort(), ['first_name', 'id', 'last_name', 'name']);
    assert.ok(Object.values(body.subject as object).every((v) => typeof v === 'string'));
    assert.equal(got[0]!.signatureValid, true);
    const log = await get(`${WEBHOOKS}/deliveries/${res.body.delivery_id}`);
    assert.equal(log.body.delivery.status, 'succeeded');
  });

  it('retry-now sends subject_check.retry with previous_delivery_id and attempt_number, no account_id or status', async () => {
    const checkId = (await post(CHECKS, subject('Thistlewood'))).body.subject_check_id;
    const deliveries = await queued(checkId, ['subject_check.completed']);
    await deliverDue();
    const original = deliveries.find((d) => d.event === 'subject_check.completed');
    const retry = await post(`${WEBHOOKS}/deliveries/${original.delivery_id}/retry`);
    assert.equal(retry.status, 202, retry.text);
    assert.equal(retry.body.attempt_number, 2);
    assert.equal(retry.body.previous_delivery_id, original.delivery_id);
    await deliverDue();
    const got = receivedFor('subject_check.retry', checkId);
    assert.equal(got.length, 1);
    assert.deepEqual(Object.keys(got[0]!.json!).sort(), ['attempt_number', 'event', 'previous_delivery_id', 'retried_at', 'subject_check_id']);
    assert.equal(got[0]!.json!.previous_delivery_id, original.delivery_id);
    assert.equal(got[0]!.json!.attempt_number, 2);
    assert.equal(got[0]!.signatureValid, true);
    // Retrying the retry counts every attempt made for this notification.
    const again = await post(`${WEBHOOKS}/deliveries/${retry.body.delivery_id}/retry`);
    assert.equal(again.body.attempt_number, 3);
  });

  it('retries 5xx at +1 s and +5 s (3 attempts in all), stops at once on other 4xx, and logs every attempt', async () => {
    receiver.respondWith({ status: 503 });
    const flaky = (await post(CHECKS, subject('Pending'))).body.subject_check_id;
    const [processing] = (await queued(flaky, ['subject_check.processing'])).filter((d) => d.event === 'subject_check.processing');
    await deliverDue();
    dispatchClock.advance(999);
    assert.equal((await dispatcher.runDue()).attempts, 0, 'not before 1 s');
    dispatchClock.advance(1);
    await dispatcher.runDue();
    dispatchClock.advance(4_999);
    assert.equal((await dispatcher.runDue()).attempts, 0, 'not before 5 s more');
    dispatchClock.advance(1);
    await dispatcher.runDue();
    dispatchClock.advance(3_600_000);
    assert.equal((await dispatcher.runDue()).attempts, 0, 'at most 3 attempts');
    const logged = (await get(`${WEBHOOKS}/deliveries/${processing.delivery_id}`)).body.delivery;
    assert.equal(logged.status, 'failed');
    assert.deepEqual(logged.attempts.map((a: any) => a.status_code), [503, 503, 503]);
    const starts = logged.attempts.map((a: any) => Date.parse(a.started_at));
    assert.deepEqual([starts[1] - starts[0], starts[2] - starts[1]], [1000, 5000]);

    receiver.respondWith({ status: 410 });
    const gone = (await post(CHECKS, subject('Pending'))).body.subject_check_id;
    const [terminal] = (await queued(gone, ['subject_check.processing'])).filter((d) => d.event === 'subject_check.processing');
    await deliverDue();
    dispatchClock.advance(10_000);
    await dispatcher.runDue();
    const once = (await get(`${WEBHOOKS}/deliveries/${terminal.delivery_id}`)).body.delivery;
    assert.equal(once.status, 'failed');
    assert.equal(once.attempts.length, 1);
    receiver.respondWith({ status: 200 });
  });

  it('the delivery log is paginated, filtered and own-account only; bad ids and cursors get 400', async () => {
    const page = await get(`${WEBHOOKS}/deliveries?limit=3`);
    assert.equal(page.status, 200);
    assert.equal(page.body.deliveries.length, 3);
    assert.ok(page.body.next_cursor);
    const next = await get(`${WEBHOOKS}/deliveries?limit=3&cursor=${page.body.next_cursor}`);
    const seen = new Set(page.body.deliveries.map((d: any) => d.delivery_id));
    assert.ok(next.body.deliveries.every((d: any) => !seen.has(d.delivery_id)));
    const failed = await get(`${WEBHOOKS}/deliveries?status=failed`);
    assert.ok(failed.body.deliveries.length >= 2 && failed.body.deliveries.every((d: any) => d.status === 'failed'));
    const tests = await get(`${WEBHOOKS}/deliveries?event=webhook.test`);
    assert.equal(tests.body.deliveries.length, 1);
    const anyId = page.body.deliveries[0].delivery_id;
    assert.equal((await get(`${WEBHOOKS}/deliveries`, otherKey)).body.deliveries.length, 0);
    assert.equal((await get(`${WEBHOOKS}/deliveries/${anyId}`, otherKey)).status, 404);
    assert.equal((await post(`${WEBHOOKS}/deliveries/${anyId}/retry`, undefined, otherKey)).status, 404);
    assert.equal((await post(`${WEBHOOKS}/test`, undefined, otherKey)).status, 404, 'no webhook registered there');
    for (const bad of ['not-a-uuid', '1', "1'%20OR%201=1"]) assert.equal((await get(`${WEBHOOKS}/deliveries/${bad}`)).status, 400, bad);
    for (const bad of ['cursor=zzz', 'limit=500', 'status=lost', 'subject_check_id=abc']) {
      const res = await get(`${WEBHOOKS}/deliveries?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'invalid_payload');
    }
  });
});
