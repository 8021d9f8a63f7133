/**
 * The S3 portal and the payment-provider webhook end to end: portal JWT sign-in (bearer or cookie
 * `token`), S3 key management from the portal (/api/portal/keys), sign-out; Stripe-signed
 * checkout.session.completed activating the plan, recording the payment and e-mailing a receipt to a real local SMTP server;
 * the same event twice changing nothing; signature, tolerance and "no secret" refusals.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import pino from 'pino';
import { startTestService, type TestService } from '../support/service';
import { call } from '../integration/api/s3/helpers';
import { stripeSignatureHeader } from '../../src/app/payments/stripe-signature';
import { createHttpApp } from '../../src/api/http/app';
import { createPortalRouter } from '../../src/api/portal/router';
import { systemClock } from '../../src/shared/clock';

const SECRET = `whsec_${randomUUID().replace(/-/g, '')}`;
interface Mail {
  to: string[];
  raw: string;
}
const inbox: Mail[] = [];
/** Recipients the SMTP server refuses (a mailbox outage). */
const refused = new Set<string>();
let smtp: SMTPServer;
let svc: TestService;

before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address)) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  svc = await startTestService({ env: { PAYMENT_WEBHOOK_SECRET: SECRET, SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
after(async () => {
  await svc?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

function checkoutEvent(accountId: string, plan: string, id = `evt_${randomUUID().replace(/-/g, '')}`) {
  return {
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `cs_test_${randomUUID().replace(/-/g, '')}`,
        object: 'checkout.session',
        client_reference_id: accountId,
        customer_details: { email: 'billing@example.test' },
        amount_total: 49900,
        currency: 'usd',
        payment_status: 'paid',
        metadata: { plan },
      },
    },
  };
}

async function deliver(raw: string, header?: string) {
  const res = await fetch(`${svc.url}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header !== undefined ? { 'stripe-signature': header } : {}) },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('payment-provider webhook (Stripe)', () => {
  it('activates the plan, records the payment and e-mails a receipt; the same event again changes nothing', async () => {
    const account = await svc.createAccount('starter');
    const raw = JSON.stringify(checkoutEvent(account.accountId, 'enterprise'));
    const now = Math.floor(Date.now() / 1000);
    const first = await deliver(raw, stripeSignatureHeader(SECRET, now, raw));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, { received: true, handled: true, plan_changed: true, payment_created: true, receipt: 'sent' });
    assert.equal((await svc.service.services.accounts.get(account.accountId))?.plan, 'enterprise');
    const mails = inbox.filter((m) => m.to.includes('billing@example.test'));
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.raw, /Subject: Receipt: enterprise plan activated/);
    assert.match(mails[0]!.raw, /499\.00 USD/);

    const again = await deliver(raw, stripeSignatureHeader(SECRET, now + 5, raw));
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { received: true, handled: true, plan_changed: false, payment_created: false, receipt: 'already_sent' });
    assert.equal(inbox.filter((m) => m.to.includes('billing@example.test')).length, 1);
    const payments = await svc.db.pool.query('SELECT plan, amount_total, receipt_sent_at FROM payments WHERE account_id = $1', [account.accountId]);
    assert.equal(payments.rowCount, 1);
    assert.equal(payments.rows[0].plan, 'enterprise');
    const events = await svc.service.store.readStream(`account-${account.accountId}`);
    assert.equal(events.filter((e) => e.type === 'PlanChanged').length, 1);
  });

  it('answers 500 when the receipt cannot be sent; the provider retry sends it without a second plan change or payment', async () => {
    const account = await svc.createAccount('essentials');
    const event = checkoutEvent(account.accountId, 'professional');
    event.data.object.customer_details.email = 'outage@example.test';
    const raw = JSON.stringify(event);
    refused.add('outage@example.test');
    const failed = await deliver(raw, stripeSignatureHeader(SECRET, Math.floor(Date.now() / 1000), raw));
    assert.equal(failed.status, 500);
    assert.equal(failed.body.received, false);
    assert.equal((await svc.service.services.accounts.get(account.accountId))?.plan, 'professional', 'the plan is active already');
    const row = await svc.db.pool.query('SELECT receipt_sent_at, receipt_error FROM payments WHERE account_id = $1', [account.accountId]);
    assert.equal(row.rows[0].receipt_sent_at, null);
    assert.match(row.rows[0].receipt_error, /mailbox unavailable|550/);

    refused.delete('outage@example.test');
    const retried = await deliver(raw, stripeSignatureHeader(SECRET, Math.floor(Date.now() / 1000), raw));
    assert.deepEqual(retried.body, { received: true, handled: true, plan_changed: false, payment_created: false, receipt: 'sent' });
    assert.equal(inbox.filter((m) => m.to.includes('outage@example.test')).length, 1);
    assert.equal((await svc.db.pool.query('SELECT 1 FROM payments WHERE account_id = $1', [account.accountId])).rowCount, 1);
    const events = await svc.service.store.readStream(`account-${account.accountId}`);
    assert.equal(events.filter((e) => e.type === 'PlanChanged').length, 1);
  });

  it('refuses a missing, wrong or stale signature with received: false and changes nothing', async () => {
    const account = await svc.createAccount('starter');
    const raw = JSON.stringify(checkoutEvent(account.accountId, 'professional'));
    // Read at each delivery: on a loaded machine a second can pass between two of them, which once
    // brought a timestamp 301 s ahead back inside the 300 s tolerance (the future one keeps 10 s of slack).
    const now = () => Math.floor(Date.now() / 1000);
    const cases = [
      await deliver(raw),
      await deliver(raw, 'garbage'),
      await deliver(raw, stripeSignatureHeader('whsec_wrong', now(), raw)),
      await deliver(raw, stripeSignatureHeader(SECRET, now() - 301, raw)),
      await deliver(raw, stripeSignatureHeader(SECRET, now() + 310, raw)),
      // Signed over other bytes: re-serialising the JSON breaks the signature.
      await deliver(raw, stripeSignatureHeader(SECRET, now(), JSON.stringify(JSON.parse(raw), null, 1))),
    ];
    for (const c of cases) {
      assert.equal(c.status, 400);
      assert.equal(c.body.received, false);
    }
    assert.match(cases[3]!.body.error, /timestamp_outside_tolerance/);
    assert.equal((await svc.service.services.accounts.get(account.accountId))?.plan, 'starter');
    assert.equal((await svc.db.pool.query('SELECT 1 FROM payments WHERE account_id = $1', [account.accountId])).rowCount, 0);
  });

  it('accepts unhandled event types without acting, and refuses everything when no secret is configured', async () => {
    const raw = JSON.stringify({ id: 'evt_other', type: 'invoice.created', data: { object: {} } });
    const ok = await deliver(raw, stripeSignatureHeader(SECRET, Math.floor(Date.now() / 1000), raw));
    assert.deepEqual(ok.body, { received: true, handled: false, reason: 'event type invoice.created is not handled' });

    const unused = () => {
      throw new Error('must not be called');
    };
    const app = createHttpApp({
      logger: pino({ level: 'silent' }),
      health: { live: () => true, ready: async () => ({ ready: true, checks: {} }) },
      routers: [
        createPortalRouter({
          accounts: unused as never,
          limits: unused as never,
          sessions: unused as never,
          webhooks: unused as never,
          payments: { handleEvent: unused } as never,
          clock: systemClock,
          logger: pino({ level: 'silent' }),
          paymentWebhookSecret: undefined,
        }),
      ],
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const res = await fetch(`http://127.0.0.1:${port}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignatureHeader(SECRET, Math.floor(Date.now() / 1000), raw) }, body: raw });
      assert.equal(res.status, 400);
      const body = (await res.json()) as any;
      assert.equal(body.received, false);
      assert.match(body.error, /not configured/);
    } finally {
      server.close();
    }
  });
});

describe('portal (JWT)', () => {
  it('signs in (bearer or cookie `token`, 7 days), manages S3 keys, signs out', async () => {
    const account = await svc.createAccount('professional');
    s3StatusOnly(await call(svc.url, 'POST', '/api/session', { body: { email: account.email, password: 'wrong' } }), 401);
    for (const body of [{}, { email: account.email }, { email: 42, password: 'x' }, { email: 'not-an-email', password: 'x' }, { email: account.email, password: 'x'.repeat(1001) }, { email: account.email, password: 'x', admin: true }]) {
      s3StatusOnly(await call(svc.url, 'POST', '/api/session', { body }), 400);
    }
    const signIn = await fetch(`${svc.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: account.email, password: account.password }) });
    assert.equal(signIn.status, 200);
    const session = ((await signIn.json()) as any).data;
    const cookie = signIn.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^token=[^;]+;.*HttpOnly/i);
    const lifetime = Date.parse(session.expires_at) - Date.now();
    assert.ok(Math.abs(lifetime - 7 * 86_400_000) < 60_000, `lifetime ${lifetime}`);

    // Keys are managed at /api/portal/keys (every surface; here S3, created for the signed-in user).
    const bearer = { authorization: `Bearer ${session.token}` };
    s3StatusOnly(await call(svc.url, 'GET', '/api/portal/keys'), 401);
    s3StatusOnly(await call(svc.url, 'GET', '/api/portal/keys', { headers: { authorization: 'Bearer not.a.jwt' } }), 401);
    const created = await call(svc.url, 'POST', '/api/portal/keys', { headers: bearer, body: { surface: 's3', name: 'from portal' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const plaintext: string = created.body.data.plaintext;
    const keyId: string = created.body.data.key.id;
    assert.match(plaintext, /^svcc_live_[0-9a-f]{40}$/);
    for (const body of [{ surface: 's3', name: '' }, { surface: 's3', name: '   ' }, { surface: 's3', name: 'x'.repeat(101) }, { name: 'no surface' }, { surface: 's3', name: 'k', admin: true }]) {
      s3StatusOnly(await call(svc.url, 'POST', '/api/portal/keys', { headers: bearer, body }), 400);
    }
    s3StatusOnly(await call(svc.url, 'POST', '/api/portal/keys', { headers: bearer, raw: '{"surface":' }), 400);
    for (const id of ['abc', '0', '-1', '1'.repeat(20)]) s3StatusOnly(await call(svc.url, 'DELETE', `/api/portal/keys/${id}`, { headers: bearer }), 400);
    // The key works on the X-API-Key surface; the cookie works on the portal.
    assert.equal((await call(svc.url, 'GET', '/api/v1/keys', { key: plaintext })).status, 200);
    const viaCookie = await call(svc.url, 'GET', '/api/portal/keys', { headers: { cookie: `token=${encodeURIComponent(session.token)}` } });
    assert.equal(viaCookie.status, 200);
    assert.ok(viaCookie.body.data.keys.s3.some((k: any) => k.id === keyId && k.revoked_at === null));
    assert.ok(!JSON.stringify(viaCookie.body).includes(plaintext), 'the list never holds the plaintext');
    // Another account's key is not found; own key is revoked.
    const other = await svc.createAccount('professional');
    const otherKey = await svc.createKey(other.accountId, 's3', { userId: other.userId });
    s3StatusOnly(await call(svc.url, 'DELETE', `/api/portal/keys/${otherKey.id}`, { headers: bearer }), 404);
    assert.equal((await call(svc.url, 'DELETE', `/api/portal/keys/${keyId}`, { headers: bearer })).status, 200);
    assert.equal((await call(svc.url, 'GET', '/api/v1/keys', { key: plaintext })).status, 401);
    assert.equal((await call(svc.url, 'GET', '/api/v1/keys', { key: otherKey.key })).status, 200, 'the other account\'s key still works');
    // The old duplicate S3-only routes (/api/keys) are gone: the portal's 404 envelope.
    for (const [method, path] of [['GET', '/api/keys'], ['POST', '/api/keys'], ['DELETE', `/api/keys/${keyId}`]] as const) {
      s3StatusOnly(await call(svc.url, method, path, { headers: bearer, ...(method === 'POST' ? { body: { name: 'old route' } } : {}) }), 404);
    }

    const out = await call(svc.url, 'DELETE', '/api/session', { headers: { authorization: `Bearer ${session.token}` } });
    assert.equal(out.status, 200);
    s3StatusOnly(await call(svc.url, 'GET', '/api/portal/keys', { headers: bearer }), 401);
  });
});

function s3StatusOnly(answer: { status: number; body: any }, status: number) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (status === 400) assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error']);
  else assert.deepEqual(Object.keys(answer.body), ['error']);
}
