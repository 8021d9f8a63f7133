import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { s2Payload } from '../../../src/webhooks/payloads';
import { deliveryCursor, enqueueTestDelivery, getDelivery, listDeliveries, retryDeliveryNow } from '../../../src/webhooks/outbox';
import { ACCOUNT, attemptsOf, deliveryIdOf, gaps, outboxRow, setupHarness, type Harness } from './harness';

let nextCheckId = 100;
const processing = () =>
  s2Payload('subject_check.processing', {
    subject_check_id: ++nextCheckId,
    account_id: Number(ACCOUNT),
    status: 'running',
    processing_at: '2026-05-04T10:00:00.000Z',
  });

describe('S2 webhooks over real HTTPS', () => {
  let h: Harness;
  before(async () => {
    h = await setupHarness('s2');
  });
  after(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.receiver.respondWith({ status: 200 });
    h.receiver.requests.length = 0;
  });

  it('sends exactly the S2 headers and the raw body signed with the signing secret', async () => {
    const message = processing();
    await h.enqueue(message);
    await h.dispatcher().runDue();
    const req = h.receiver.requests[0]!;
    assert.equal(req.signatureValid, true, req.failure);
    assert.equal(req.rawBody.toString('utf8'), message.body);
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['user-agent'], 'Service-Webhooks/1.0');
    assert.match(String(req.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    const serviceHeaders = Object.keys(req.headers).filter((k) => k.startsWith('x-'));
    assert.deepEqual(serviceHeaders, ['x-service-signature'], 'no timestamp or delivery-id header');
    assert.equal(req.json!.event, 'subject_check.processing');
  });

  for (const status of [500, 503, 408, 429]) {
    it(`retries ${status} immediately, +1 s, +5 s and then gives up`, async () => {
      h.receiver.respondWith({ status });
      const id = deliveryIdOf(await h.enqueue(processing()));
      const d = h.dispatcher();
      await d.runDue();
      h.clock.advance(999);
      assert.equal((await d.runDue()).attempts, 0);
      h.clock.advance(1);
      await d.runDue();
      h.clock.advance(4_999);
      assert.equal((await d.runDue()).attempts, 0);
      h.clock.advance(1);
      await d.runDue();
      h.clock.advance(3600_000);
      assert.equal((await d.runDue()).attempts, 0, 'at most 3 attempts');
      const attempts = await attemptsOf(h.db, id);
      assert.deepEqual(attempts.map((a) => a.status_code), [status, status, status]);
      assert.deepEqual(gaps(attempts), [1_000, 5_000]);
      assert.equal((await outboxRow(h.db, id)).status, 'failed');
    });
  }

  for (const status of [400, 401, 404, 410, 422]) {
    it(`treats ${status} as terminal after one attempt`, async () => {
      h.receiver.respondWith({ status });
      const id = deliveryIdOf(await h.enqueue(processing()));
      const d = h.dispatcher();
      await d.runDue();
      h.clock.advance(60_000);
      await d.runDue();
      const attempts = await attemptsOf(h.db, id);
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]!.outcome, 'terminal');
      assert.equal((await outboxRow(h.db, id)).status, 'failed');
    });
  }

  it('retries a timeout and a refused connection, succeeding on the third attempt', async () => {
    h.receiver.queue('hang');
    const id = deliveryIdOf(await h.enqueue(processing()));
    const d = h.dispatcher();
    await d.runDue();
    await h.receiver.stopListening();
    h.clock.advance(1_000);
    await d.runDue();
    await h.receiver.resume();
    h.clock.advance(5_000);
    await d.runDue();
    const attempts = await attemptsOf(h.db, id);
    assert.match(attempts[0]!.error ?? '', /no complete response/);
    assert.match(attempts[1]!.error ?? '', /ECONNREFUSED/);
    assert.equal(attempts[2]!.status_code, 200);
    assert.deepEqual(gaps(attempts), [1_000, 5_000]);
    assert.equal((await outboxRow(h.db, id)).status, 'succeeded');
  });

  it('retry-now on a past delivery sends subject_check.retry with previous_delivery_id and attempt_number', async () => {
    h.receiver.respondWith({ status: 500 });
    const original = processing();
    const firstId = deliveryIdOf(await h.enqueue(original));
    const d = h.dispatcher();
    await d.runDue();
    assert.deepEqual(await retryDeliveryNow(h.db.pool, { accountId: ACCOUNT, deliveryId: firstId, now: h.clock.now() }), {
      status: 'in_progress',
    });
    h.clock.advance(1_000);
    await d.runDue();
    h.clock.advance(5_000);
    await d.runDue();
    h.receiver.respondWith({ status: 200 });
    h.receiver.requests.length = 0;

    const retry = await retryDeliveryNow(h.db.pool, { accountId: ACCOUNT, deliveryId: firstId, now: h.clock.now() });
    assert.equal(retry.status, 'enqueued');
    if (retry.status !== 'enqueued') return;
    assert.equal(retry.attemptNumber, 4);
    await d.runDue();
    const req = h.receiver.requests[0]!;
    assert.equal(req.signatureValid, true);
    assert.deepEqual(req.json, {
      event: 'subject_check.retry',
      subject_check_id: JSON.parse(original.body).subject_check_id,
      retried_at: h.clock.now().toISOString(),
      previous_delivery_id: firstId,
      attempt_number: 4,
    });
    // Retrying the retry counts the whole chain: 3 + 1 attempts so far.
    const again = await retryDeliveryNow(h.db.pool, { accountId: ACCOUNT, deliveryId: retry.deliveryId, now: h.clock.now() });
    assert.equal(again.status === 'enqueued' && again.attemptNumber, 5);
    // Other accounts and unknown ids are not found; webhook.test has no subject check to retry.
    assert.deepEqual(await retryDeliveryNow(h.db.pool, { accountId: '2', deliveryId: firstId, now: h.clock.now() }), { status: 'not_found' });
    assert.deepEqual(await retryDeliveryNow(h.db.pool, { accountId: ACCOUNT, deliveryId: 'nope', now: h.clock.now() }), { status: 'not_found' });
    const test = deliveryIdOf(await enqueueTestDelivery(h.db.pool, { accountId: ACCOUNT, now: h.clock.now() }));
    await d.runDue();
    assert.equal((await retryDeliveryNow(h.db.pool, { accountId: ACCOUNT, deliveryId: test, now: h.clock.now() })).status, 'not_retryable');
  });

  it('sends webhook.test with a string-only subject and no subject_check_id', async () => {
    const result = await enqueueTestDelivery(h.db.pool, {
      accountId: ACCOUNT,
      now: h.clock.now(),
      subject: { id: 'test_1', name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
    });
    await h.dispatcher().runDue();
    const req = h.receiver.requests[0]!;
    assert.equal(req.signatureValid, true);
    assert.deepEqual(req.json, {
      event: 'webhook.test',
      delivered_at: h.clock.now().toISOString(),
      subject: { id: 'test_1', name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
    });
    const logged = await getDelivery(h.db.pool, { accountId: ACCOUNT, deliveryId: deliveryIdOf(result) });
    assert.equal(logged?.status, 'succeeded');
  });

  it('the delivery log lists attempts with status and the exact payload, newest first, filtered', async () => {
    h.receiver.queue({ status: 503 });
    const message = processing();
    const id = deliveryIdOf(await h.enqueue(message));
    const d = h.dispatcher();
    await d.runDue();
    h.clock.advance(1_000);
    await d.runDue();
    const [entry] = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's2', subjectRef: String(nextCheckId) });
    assert.equal(entry?.deliveryId, id);
    assert.equal(entry?.body, message.body);
    assert.equal(entry?.status, 'succeeded');
    assert.deepEqual(entry?.attempts.map((a) => [a.attemptNumber, a.statusCode, a.outcome]), [
      [1, 503, 'retryable'],
      [2, 200, 'succeeded'],
    ]);
    const page = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's2', limit: 2 });
    assert.equal(page.length, 2);
    assert.ok(page[0]!.createdAt >= page[1]!.createdAt);
    const failed = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's2', status: 'failed', limit: 100 });
    assert.ok(failed.length > 0 && failed.every((f) => f.status === 'failed'));

    // Paging with the cursor visits every delivery exactly once, even when many share created_at.
    const all = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's2', limit: 100 });
    const paged: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const pageItems = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's2', limit: 3, cursor });
      if (pageItems.length === 0) break;
      paged.push(...pageItems.map((d) => d.deliveryId));
      cursor = deliveryCursor(pageItems.at(-1)!);
    }
    assert.deepEqual(paged, all.map((d) => d.deliveryId));
    await assert.rejects(listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's2', cursor: 'garbage' }), RangeError);
  });

  it('two dispatchers running at once deliver every row exactly once', async () => {
    const bodies = new Set<string>();
    for (let i = 0; i < 16; i++) {
      const m = processing();
      bodies.add(m.body);
      await h.enqueue(m);
    }
    const [a, b] = await Promise.all([h.dispatcher({ batchSize: 3 }).runDue(), h.dispatcher({ batchSize: 3 }).runDue()]);
    assert.equal(a.attempts + b.attempts, 16);
    assert.equal(h.receiver.requests.length, 16);
    assert.deepEqual(new Set(h.receiver.requests.map((r) => r.rawBody.toString('utf8'))), bodies);
  });

  it('picks up a delivery whose dispatcher died mid-attempt once its lease expires', async () => {
    const id = deliveryIdOf(await h.enqueue(processing()));
    // Simulate a crash right after claiming: the row is leased and an attempt is in flight.
    await h.db.pool.query(
      `UPDATE webhook_outbox SET status = 'delivering', attempt_count = 1, locked_until = $2 WHERE delivery_id = $1`,
      [id, new Date(h.clock.now().getTime() + 40_000)],
    );
    await h.db.pool.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, outcome) VALUES ($1, 1, $2, 'in_flight')`,
      [id, h.clock.now()],
    );
    const d = h.dispatcher();
    assert.equal((await d.runDue()).attempts, 0, 'lease still held');
    h.clock.advance(40_000);
    assert.equal((await d.runDue()).succeeded, 1);
    const attempts = await attemptsOf(h.db, id);
    assert.deepEqual(attempts.map((a) => a.outcome), ['interrupted', 'succeeded']);
  });

  it('re-checks the address at delivery time and connects only to the vetted IP', async () => {
    // The URL's host now resolves to loopback: a dispatcher without allowPrivate refuses to connect.
    const id = deliveryIdOf(await h.enqueue(processing()));
    const strict = h.dispatcher({ allowPrivate: false });
    await strict.runDue();
    assert.equal(h.receiver.requests.length, 0);
    const attempts = await attemptsOf(h.db, id);
    assert.match(attempts[0]!.error ?? '', /forbidden_address/);
    assert.equal((await outboxRow(h.db, id)).status, 'failed');

    // A name only our injected resolver knows reaches the receiver: the socket used the pinned answer.
    const url = h.receiver.url.replace('127.0.0.1', 'webhooks.test');
    await h.db.pool.query(`UPDATE webhook_endpoints SET url = $1 WHERE id = $2`, [url, h.endpoint.id]);
    try {
      await h.enqueue(processing());
      const pinned = h.dispatcher({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
      assert.equal((await pinned.runDue()).succeeded, 1);
      assert.equal(h.receiver.requests[0]!.headers.host, `webhooks.test:${h.receiver.port}`);
      // A resolver answering with a private address at delivery time (rebinding) is refused.
      const rebound = deliveryIdOf(await h.enqueue(processing()));
      await h.dispatcher({ allowPrivate: false, resolver: async () => [{ address: '10.0.0.7', family: 4 }] }).runDue();
      assert.match((await attemptsOf(h.db, rebound))[0]!.error ?? '', /forbidden_address/);
      assert.equal(h.receiver.requests.length, 1);
    } finally {
      await h.db.pool.query(`UPDATE webhook_endpoints SET url = $1 WHERE id = $2`, [h.receiver.url, h.endpoint.id]);
    }
  });
});
