import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { s1PersonCheckCompleted, s1ScreeningCompleted } from '../../../src/webhooks/payloads';
import { getDelivery, listDeliveries } from '../../../src/webhooks/outbox';
import { ACCOUNT, attemptsOf, deliveryIdOf, gaps, outboxRow, setupHarness, type Harness } from './harness';

const screening = {
  id: 42,
  search_query: 'Acme Holdings',
  risk_level: 'medium' as const,
  risk_score: 30,
  status: 'completed' as const,
  created_at: '2026-05-04T09:59:59.000Z',
};
const cdd = () => s1ScreeningCompleted({ event: 'cdd.completed', screening, timestamp: '2026-05-04T10:00:00.000Z' });

describe('S1 webhooks over real HTTPS', () => {
  let h: Harness;
  before(async () => {
    h = await setupHarness('s1');
  });
  after(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.receiver.respondWith({ status: 200 });
    h.receiver.requests.length = 0;
  });

  it('delivers cdd.completed with the S1 headers and a signature the receiver verifies', async () => {
    const id = deliveryIdOf(await h.enqueue(cdd()));
    const report = await h.dispatcher().runDue();
    assert.equal(report.succeeded, 1);
    assert.equal(h.receiver.requests.length, 1);
    const req = h.receiver.requests[0]!;
    assert.equal(req.signatureValid, true, req.failure);
    assert.equal(req.headers['x-service-event'], 'cdd.completed');
    assert.equal(req.headers['x-service-timestamp'], String(Math.floor(h.clock.now().getTime() / 1000)));
    assert.match(String(req.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-service-delivery'], id);
    assert.equal(req.json!.signature, req.headers['x-service-signature']);
    assert.equal(req.json!.screening_id, 42);
    assert.deepEqual(req.json!.screening, screening);
    assert.equal((await outboxRow(h.db, id)).status, 'succeeded');
  });

  it('delivers person_check.completed, verified the same way', async () => {
    await h.enqueue(
      s1PersonCheckCompleted({
        personCheck: { id: 'SVC-00ff00ff-P', full_name: 'Jane Roe', result: 'adverse_found', confidence: 'medium', status: 'completed', created_at: '2026-05-04T09:00:00.000Z' },
        timestamp: '2026-05-04T10:00:00.000Z',
      }),
    );
    await h.dispatcher().runDue();
    const req = h.receiver.requests[0]!;
    assert.equal(req.signatureValid, true);
    assert.equal(req.json!.person_check_id, 'SVC-00ff00ff-P');
  });

  it('retries a 500 after 30 s, 5 min and 30 min, re-signing each attempt, then drops it', async () => {
    h.receiver.respondWith({ status: 500 });
    const id = deliveryIdOf(await h.enqueue(cdd()));
    const dispatcher = h.dispatcher();
    assert.equal((await dispatcher.runDue()).attempts, 1);
    h.clock.advance(29_999);
    assert.equal((await dispatcher.runDue()).attempts, 0, 'not due before 30 s');
    h.clock.advance(1);
    assert.equal((await dispatcher.runDue()).attempts, 1);
    h.clock.advance(5 * 60_000);
    assert.equal((await dispatcher.runDue()).attempts, 1);
    h.clock.advance(30 * 60_000 - 1);
    assert.equal((await dispatcher.runDue()).attempts, 0);
    h.clock.advance(1);
    const last = await dispatcher.runDue();
    assert.equal(last.gaveUp, 1);
    h.clock.advance(24 * 3600_000);
    assert.equal((await dispatcher.runDue()).attempts, 0, 'nothing after the event is dropped');

    const attempts = await attemptsOf(h.db, id);
    assert.deepEqual(attempts.map((a) => a.status_code), [500, 500, 500, 500]);
    assert.deepEqual(gaps(attempts), [30_000, 300_000, 1_800_000]);
    const row = await outboxRow(h.db, id);
    assert.equal(row.status, 'dropped');
    assert.equal(row.attempt_count, 4);
    // Each attempt carried its own timestamp and a valid signature over it.
    assert.equal(h.receiver.requests.length, 4);
    assert.ok(h.receiver.requests.every((r) => r.signatureValid));
    assert.equal(new Set(h.receiver.requests.map((r) => r.headers['x-service-timestamp'])).size, 4);
  });

  it('treats a timeout as a failure and retries it', async () => {
    h.receiver.respondWith('hang');
    const id = deliveryIdOf(await h.enqueue(cdd()));
    const dispatcher = h.dispatcher();
    await dispatcher.runDue();
    h.receiver.respondWith({ status: 204 });
    h.clock.advance(30_000);
    await dispatcher.runDue();
    const attempts = await attemptsOf(h.db, id);
    assert.equal(attempts.length, 2);
    assert.match(attempts[0]!.error ?? '', /no complete response within/);
    assert.equal(attempts[0]!.outcome, 'retryable');
    assert.equal(attempts[1]!.status_code, 204);
    assert.equal((await outboxRow(h.db, id)).status, 'succeeded');
  });

  it('retries after connection refused, and the retry survives a dispatcher restart', async () => {
    await h.receiver.stopListening();
    const id = deliveryIdOf(await h.enqueue(cdd()));
    await h.dispatcher().runDue(); // first instance, then "restart"
    await h.receiver.resume();
    const restarted = h.dispatcher();
    assert.equal((await restarted.runDue()).attempts, 0);
    h.clock.advance(30_000);
    assert.equal((await restarted.runDue()).succeeded, 1);
    const attempts = await attemptsOf(h.db, id);
    assert.match(attempts[0]!.error ?? '', /ECONNREFUSED/);
    assert.equal(attempts[1]!.status_code, 200);
    assert.deepEqual(gaps(attempts), [30_000]);
  });

  it('a receiver rejects a delivery replayed outside the 5-minute window', async () => {
    await h.enqueue(cdd());
    await h.dispatcher().runDue();
    const original = h.receiver.requests[0]!;
    assert.equal(original.signatureValid, true);
    h.clock.advance(5 * 60_000 + 1000);
    const replay = await fetchLike(h, original.rawBody, original.headers);
    assert.equal(replay, 400);
    assert.equal(h.receiver.requests[1]!.failure, 'stale_timestamp');
  });

  it('enqueues once per dedup key and isolates the delivery log by account', async () => {
    const first = await h.enqueue(cdd(), { dedupKey: 'evt-1:cdd.completed' });
    const second = await h.enqueue(cdd(), { dedupKey: 'evt-1:cdd.completed' });
    assert.equal(first.status, 'enqueued');
    assert.equal(second.status, 'duplicate');
    assert.equal((await h.enqueue(cdd(), { accountId: '999' })).status, 'no_endpoint');
    const id = deliveryIdOf(first);
    await h.dispatcher().runDue();
    const mine = await getDelivery(h.db.pool, { accountId: ACCOUNT, deliveryId: id });
    assert.equal(mine?.status, 'succeeded');
    assert.equal(mine?.body, cdd().body);
    assert.equal(mine?.attempts.length, 1);
    assert.equal(mine?.attempts[0]!.requestHeaders['X-Service-Event'], 'cdd.completed');
    assert.equal(await getDelivery(h.db.pool, { accountId: '2', deliveryId: id }), null);
    assert.deepEqual(await listDeliveries(h.db.pool, { accountId: '2', surface: 's1' }), []);
    const listed = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's1', status: 'dropped' });
    assert.ok(listed.length >= 1 && listed.every((d) => d.status === 'dropped'));
  });
});

/** Re-sends captured bytes and headers to the receiver (an attacker replaying a delivery). */
async function fetchLike(h: Harness, body: Buffer, headers: Record<string, string | string[] | undefined>): Promise<number> {
  const https = await import('node:https');
  return new Promise((resolve, reject) => {
    const req = https.request(
      h.receiver.url,
      {
        method: 'POST',
        ca: h.receiver.ca,
        headers: {
          'content-type': 'application/json',
          'x-service-signature': String(headers['x-service-signature']),
          'x-service-timestamp': String(headers['x-service-timestamp']),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
