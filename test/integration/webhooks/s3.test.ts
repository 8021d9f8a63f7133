import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { s3Payload } from '../../../src/webhooks/payloads';
import { getEndpoint, listDeliveries, reenable } from '../../../src/webhooks/outbox';
import type { DeliveryFinished, EndpointDisabled } from '../../../src/webhooks/dispatcher';
import { ACCOUNT, attemptsOf, deliveryIdOf, gaps, outboxRow, setupHarness, type Harness } from './harness';

const completed = () =>
  s3Payload('screening.completed', {
    screening_id: randomUUID(),
    screening_type: 'EDD',
    risk_score: 72,
    risk_level: 'critical',
    sow_screening_id: null,
    completed_at: '2026-05-04T10:00:00.000Z',
  });

describe('S3 webhooks over real HTTPS', () => {
  let h: Harness;
  before(async () => {
    h = await setupHarness('s3');
  });
  after(async () => {
    await h.close();
  });
  beforeEach(async () => {
    h.receiver.respondWith({ status: 200 });
    h.receiver.requests.length = 0;
    await reenable(h.db.pool, h.endpoint.id, { now: h.clock.now() });
  });

  it('delivers screening.completed signed over the raw body', async () => {
    const message = completed();
    await h.enqueue(message);
    await h.dispatcher().runDue();
    const req = h.receiver.requests[0]!;
    assert.equal(req.signatureValid, true, req.failure);
    assert.equal(req.rawBody.toString('utf8'), message.body);
    assert.equal(req.headers['x-service-event'], 'screening.completed');
    assert.deepEqual(Object.keys(req.json!), ['event', 'screening_id', 'screening_type', 'risk_score', 'risk_level', 'sow_screening_id', 'completed_at']);
  });

  it('makes 3 attempts with exponential backoff (30 s, 2 min) and counts one failed delivery', async () => {
    h.receiver.respondWith({ status: 502 });
    const id = deliveryIdOf(await h.enqueue(completed()));
    const finished: DeliveryFinished[] = [];
    const d = h.dispatcher({ onDeliveryFinished: (f) => void finished.push(f) });
    await d.runDue();
    h.clock.advance(29_999);
    assert.equal((await d.runDue()).attempts, 0);
    h.clock.advance(1);
    await d.runDue();
    h.clock.advance(120_000);
    await d.runDue();
    h.clock.advance(3600_000);
    assert.equal((await d.runDue()).attempts, 0);
    const attempts = await attemptsOf(h.db, id);
    assert.deepEqual(gaps(attempts), [30_000, 120_000]);
    assert.equal((await outboxRow(h.db, id)).status, 'failed');
    assert.equal((await getEndpoint(h.db.pool, h.endpoint.id))?.consecutiveFailures, 1);
    // Reported once per delivery, not per attempt.
    assert.deepEqual(finished, [
      { deliveryId: id, endpointId: h.endpoint.id, accountId: ACCOUNT, surface: 's3', event: 'screening.completed', outcome: 'failed', attempts: 3, statusCode: 502, reason: 'HTTP 502' },
    ]);
  });

  it('retries a timeout and a refused connection on the same backoff, then delivers', async () => {
    h.receiver.queue('hang');
    const id = deliveryIdOf(await h.enqueue(completed()));
    const d = h.dispatcher();
    await d.runDue();
    await h.receiver.stopListening();
    h.clock.advance(30_000);
    await d.runDue();
    await h.receiver.resume();
    h.clock.advance(120_000);
    await d.runDue();
    const attempts = await attemptsOf(h.db, id);
    assert.match(attempts[0]!.error ?? '', /no complete response/);
    assert.match(attempts[1]!.error ?? '', /ECONNREFUSED/);
    assert.equal(attempts[2]!.status_code, 200);
    assert.deepEqual(gaps(attempts), [30_000, 120_000]);
    assert.equal((await outboxRow(h.db, id)).status, 'succeeded');
    assert.equal((await getEndpoint(h.db.pool, h.endpoint.id))?.consecutiveFailures, 0);
  });

  it('auto-disables the endpoint after 10 consecutive failed deliveries and reports it once', async () => {
    h.receiver.respondWith({ status: 500 });
    const disabledEvents: EndpointDisabled[] = [];
    const d = h.dispatcher({ onEndpointDisabled: (e) => void disabledEvents.push(e) });
    const reports = [];
    for (let i = 0; i < 10; i++) {
      await h.enqueue(completed());
      // Each delivery: attempt, +30 s, +2 min.
      reports.push(await d.runDue());
      h.clock.advance(30_000);
      reports.push(await d.runDue());
      h.clock.advance(120_000);
      reports.push(await d.runDue());
    }
    assert.equal(h.receiver.requests.length, 30);
    const disabled = reports.flatMap((r) => r.disabledEndpoints);
    assert.equal(disabled.length, 1, 'disabled exactly once, on the 10th failed delivery');
    assert.equal(reports.at(-1)!.disabledEndpoints.length, 1);
    assert.deepEqual(disabledEvents, disabled);
    assert.equal(disabled[0]!.endpointId, h.endpoint.id);
    assert.equal(disabled[0]!.accountId, ACCOUNT);
    assert.equal(disabled[0]!.consecutiveFailures, 10);
    const endpoint = await getEndpoint(h.db.pool, h.endpoint.id);
    assert.equal(endpoint?.enabled, false);
    assert.equal(endpoint?.disabledAt, h.clock.now().toISOString());

    // While disabled nothing is sent; new events are recorded as dropped.
    h.receiver.respondWith({ status: 200 });
    const whileDisabled = await h.enqueue(completed());
    assert.equal(whileDisabled.status, 'dropped');
    await d.runDue();
    assert.equal(h.receiver.requests.length, 30);
    const dropped = await listDeliveries(h.db.pool, { accountId: ACCOUNT, surface: 's3', status: 'dropped' });
    assert.equal(dropped[0]?.lastError, 'endpoint_disabled');

    // The owner re-enables it (another account cannot): deliveries resume and the counter restarts.
    assert.equal(await reenable(h.db.pool, h.endpoint.id, { now: h.clock.now(), accountId: '2' }), null);
    const back = await reenable(h.db.pool, h.endpoint.id, { now: h.clock.now(), accountId: ACCOUNT });
    assert.equal(back?.enabled, true);
    assert.equal(back?.consecutiveFailures, 0);
    await h.enqueue(completed());
    assert.equal((await d.runDue()).succeeded, 1);
  });

  it('a success in between resets the consecutive-failure count', async () => {
    h.receiver.respondWith({ status: 404 }); // terminal: one attempt per delivery
    const d = h.dispatcher();
    for (let i = 0; i < 9; i++) {
      await h.enqueue(completed());
      await d.runDue();
    }
    assert.equal((await getEndpoint(h.db.pool, h.endpoint.id))?.consecutiveFailures, 9);
    h.receiver.queue({ status: 200 });
    await h.enqueue(completed());
    await d.runDue();
    assert.equal((await getEndpoint(h.db.pool, h.endpoint.id))?.consecutiveFailures, 0);
    const reports = [];
    for (let i = 0; i < 9; i++) {
      await h.enqueue(completed());
      reports.push(await d.runDue());
    }
    assert.equal(reports.flatMap((r) => r.disabledEndpoints).length, 0);
    assert.equal((await getEndpoint(h.db.pool, h.endpoint.id))?.enabled, true);
  });
});
