/**
 * S2 keys and sessions over real HTTP: sign-in and the auth_token cookie, the session-authenticated
 * key endpoints, in-place rotation, the zero-downtime recipe, key expiry and session expiry (driven
 * by a ManualClock injected into the whole service).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../../src/shared/clock';
import { DEV_JWT_SECRET, JwtSessionService } from '../../../../src/app/sessions/session-service';
import { startTestService, type TestService } from '../../../support/service';
import { call, subject, writes } from './support';

const clock = new ManualClock(new Date());
let svc: TestService;
let owner: { accountId: string; email: string; password: string };
let other: { accountId: string; email: string; password: string };
let cookie: string;

const CHECKS = '/api/v1/compliance/subject-checks';
const withCookie = (value: string | undefined): Record<string, string> => (value === undefined ? {} : { cookie: `auth_token=${value}` });
const account = (method: string, path: string, token: string | undefined, body?: unknown) =>
  call(svc.url, method, `/api/account${path}`, { headers: withCookie(token), ...(body !== undefined ? { body } : {}) });
const listChecks = (bearer: string) => call(svc.url, 'GET', CHECKS, { bearer });

async function signIn(email: string, password: string) {
  const res = await call(svc.url, 'POST', '/api/account/session', { body: { email, password } });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const token = /auth_token=([^;]+)/.exec(setCookie)?.[1];
  return { res, setCookie, token };
}

before(async () => {
  svc = await startTestService({ env: { LISTS_DIR: 'test/fixtures/lists' }, agents: 'none', clock });
  owner = await svc.createAccount('enterprise');
  other = await svc.createAccount('enterprise');
  const signed = await signIn(owner.email, owner.password);
  cookie = signed.token!;
});
after(async () => {
  await svc?.stop();
});

describe('sign-in and the session cookie', () => {
  it('sets auth_token as an HttpOnly, Secure, SameSite=Lax JWT cookie', async () => {
    const { res, setCookie, token } = await signIn(owner.email.toUpperCase(), owner.password);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.account_id, Number(owner.accountId));
    assert.ok(Date.parse(res.body.expires_at) > clock.now().getTime());
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /Secure/i);
    assert.match(setCookie, /SameSite=Lax/i);
    assert.match(setCookie, /Path=\/api\/account/);
    assert.equal(token!.split('.').length, 3, 'a JWT');
    const header = JSON.parse(Buffer.from(token!.split('.')[0]!, 'base64url').toString());
    assert.equal(header.alg, 'HS256');
  });

  it('refuses a wrong password or unknown e-mail with one message, and bad input with 400', async () => {
    for (const [email, password] of [[owner.email, 'wrong-password'], ['nobody@example.test', owner.password]]) {
      const { res, setCookie } = await signIn(email!, password!);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { success: false, message: 'Invalid email or password' });
      assert.equal(setCookie, '');
    }
    for (const body of [{}, { email: 'a@b.c' }, { email: 5, password: 'x' }, 'text']) {
      const res = await call(svc.url, 'POST', '/api/account/session', { body });
      assert.equal(res.status, 400);
      assert.equal(res.body.success, false);
      assert.equal(typeof res.body.message, 'string');
    }
  });

  it('locks an e-mail address after 10 failed attempts in 15 minutes, even for the right password', async () => {
    const victim = await svc.createAccount('enterprise');
    for (let i = 0; i < 10; i++) assert.equal((await signIn(victim.email, 'guess')).res.status, 401);
    const locked = await signIn(victim.email, victim.password);
    assert.equal(locked.res.status, 429);
    assert.equal(locked.res.body.success, false);
    assert.ok(Number(locked.res.headers.get('retry-after')) >= 1);
    clock.advance(15 * 60_000);
    assert.equal((await signIn(victim.email, victim.password)).res.status, 200);
  });

  it('401 Authentication required without a valid session, whatever else is sent', async () => {
    const forged = await new JwtSessionService({ pool: svc.db.pool, clock, secret: 'another-secret-another-secret-another-secret', audience: 's2_session', lifetimeSeconds: 3600 }).issue({
      accountId: owner.accountId,
      userId: 'x',
      roles: ['owner'],
    });
    const portal = await new JwtSessionService({ pool: svc.db.pool, clock, secret: DEV_JWT_SECRET, audience: 'portal', lifetimeSeconds: 3600 }).issue({
      accountId: owner.accountId,
      userId: 'x',
      roles: ['owner'],
    });
    const s2Key = (await svc.createKey(owner.accountId, 's2')).key;
    for (const [what, token, headers] of [
      ['no cookie', undefined, {}],
      ['garbage', 'not-a-jwt', {}],
      ['another secret', forged.token, {}],
      ['another audience (portal)', portal.token, {}],
      ['a bearer key instead', undefined, { authorization: `Bearer ${s2Key}` }],
    ] as const) {
      for (const [method, path] of [['GET', '/api-keys'], ['POST', '/api-keys'], ['DELETE', '/api-keys/1']]) {
        const res = await call(svc.url, method!, `/api/account${path}`, { headers: { ...withCookie(token), ...(headers as Record<string, string>) }, ...(method === 'POST' ? { body: { name: 'x' } } : {}) });
        assert.equal(res.status, 401, `${what} ${method} ${path}`);
        assert.deepEqual(res.body, { success: false, message: 'Authentication required' });
      }
    }
  });
});

describe('session-authenticated key endpoints', () => {
  it('creates a key (plaintext once), lists it without the plaintext, and revokes it', async () => {
    const created = await account('POST', '/api-keys', cookie, { name: 'production' });
    assert.equal(created.status, 201, created.text);
    const k = created.body;
    assert.deepEqual(Object.keys(k).sort(), ['created_at', 'expires_at', 'id', 'key', 'name', 'success', 'token_prefix']);
    assert.match(k.key, /^svca_[A-Za-z0-9_-]{20,}$/);
    assert.match(k.token_prefix, /^svca_.{4}$/);
    assert.equal(k.token_prefix, k.key.slice(0, 9));
    assert.equal((await listChecks(k.key)).status, 200, 'the new key works');

    const listed = await account('GET', '/api-keys', cookie);
    assert.equal(listed.status, 200);
    const row = listed.body.keys.find((x: any) => x.id === k.id);
    assert.deepEqual(Object.keys(row).sort(), ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'revoked_at', 'token_prefix']);
    assert.equal(row.revoked_at, null);
    assert.ok(row.last_used_at, 'last use recorded');
    assert.ok(!listed.text.includes(k.key), 'plaintext never listed');
    assert.ok(!listed.text.includes(k.key.slice(9)), 'nor any part beyond the prefix');

    const revoked = await account('DELETE', `/api-keys/${k.id}`, cookie);
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.body.revoked_at);
    const refused = await listChecks(k.key);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'invalid_key');
  });

  it('400 for an invalid name or key id, 404 for another account\'s or a missing key; nothing written', async () => {
    const foreignKey = await svc.createKey(other.accountId, 's2');
    const s1Key = await svc.createKey(owner.accountId, 's1');
    const before = await writes(svc);
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }, { name: 'a\u0000b' }, { name: 'ok', extra: 1 }, { name: 'ok', expires_at: 'tomorrow' }]) {
      const res = await account('POST', '/api-keys', cookie, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.success, false);
      assert.match(res.body.message, /name|extra|expires_at/);
    }
    const past = await account('POST', '/api-keys', cookie, { name: 'late', expires_at: new Date(clock.now().getTime() - 1000).toISOString() });
    assert.equal(past.status, 400);
    for (const id of ['abc', '0', '-3', '1.5', '9'.repeat(40)]) {
      const res = await account('DELETE', `/api-keys/${id}`, cookie);
      assert.equal(res.status, 400, id);
      assert.match(res.body.message, /Invalid key id/);
    }
    for (const id of [foreignKey.id, s1Key.id, '999999']) {
      const res = await account('DELETE', `/api-keys/${id}`, cookie);
      assert.equal(res.status, 404, id);
      assert.deepEqual(res.body, { success: false, message: 'API key not found' });
    }
    assert.deepEqual(await writes(svc), before);
    assert.equal((await listChecks(foreignKey.key)).status, 200, 'the other account\'s key still works');
    const mine = await account('GET', '/api-keys', cookie);
    assert.ok(!mine.body.keys.some((x: any) => String(x.id) === foreignKey.id), 'another account\'s keys are not listed');
  });

  it('a key with an expiry answers 401 key_expired once it has passed', async () => {
    const created = await account('POST', '/api-keys', cookie, { name: 'short-lived', expires_at: new Date(clock.now().getTime() + 3600_000).toISOString() });
    assert.equal(created.status, 201, created.text);
    assert.equal((await listChecks(created.body.key)).status, 200);
    clock.advance(3600_000 + 1000);
    const expired = await listChecks(created.body.key);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, 'key_expired');
    cookie = (await signIn(owner.email, owner.password)).token!; // the old session may be near its end
  });
});

describe('rotation', () => {
  it('keeps the key row, returns the new token once, and the old token stops working at once', async () => {
    const created = await account('POST', '/api-keys', cookie, { name: 'to-rotate' });
    const old = created.body.key;
    const rotated = await call(svc.url, 'POST', '/api/v1/compliance/api-keys/rotate', { bearer: old });
    assert.equal(rotated.status, 201, rotated.text);
    assert.deepEqual(Object.keys(rotated.body).sort(), ['account_id', 'created_at', 'id', 'key', 'success', 'token_prefix']);
    assert.equal(rotated.body.id, created.body.id, 'same key row');
    assert.equal(rotated.body.account_id, Number(owner.accountId));
    assert.notEqual(rotated.body.key, old);
    assert.equal(rotated.body.token_prefix, rotated.body.key.slice(0, 9));
    const refused = await listChecks(old);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'invalid_key');
    assert.equal((await listChecks(rotated.body.key)).status, 200);
    const again = await call(svc.url, 'POST', '/api/v1/compliance/api-keys/rotate', { bearer: old });
    assert.equal(again.status, 401, 'a replaced token cannot rotate');
    const listed = await account('GET', '/api-keys', cookie);
    assert.equal(listed.body.keys.find((x: any) => x.id === created.body.id).token_prefix, rotated.body.token_prefix);
  });

  it('zero-downtime recipe: mint a second key, switch, revoke the first: no request fails in between', async () => {
    const first = (await account('POST', '/api-keys', cookie, { name: 'blue' })).body;
    const statuses: number[] = [];
    statuses.push((await listChecks(first.key)).status);
    const second = (await account('POST', '/api-keys', cookie, { name: 'green' })).body;
    statuses.push((await listChecks(first.key)).status, (await listChecks(second.key)).status);
    // Clients switched to the second key; now the first is revoked.
    statuses.push((await listChecks(second.key)).status);
    assert.equal((await account('DELETE', `/api-keys/${first.id}`, cookie)).status, 200);
    statuses.push((await listChecks(second.key)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    assert.equal((await listChecks(first.key)).body.error.code, 'invalid_key');
    assert.equal((await call(svc.url, 'POST', `${CHECKS}/sandbox`, { bearer: second.key, body: subject('Smith') })).status, 200);
  });
});

describe('session lifetime and sign-out', () => {
  it('a session ends after 12 hours', async () => {
    const { token } = await signIn(owner.email, owner.password);
    assert.equal((await account('GET', '/api-keys', token)).status, 200);
    clock.advance(12 * 3600_000 + 1000);
    const expired = await account('GET', '/api-keys', token);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.message, 'Authentication required');
  });

  it('sign-out clears the cookie and ends that session at once; other sessions go on', async () => {
    const a = (await signIn(owner.email, owner.password)).token!;
    const b = (await signIn(owner.email, owner.password)).token!;
    const out = await call(svc.url, 'DELETE', '/api/account/session', { headers: withCookie(a) });
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { success: true });
    assert.match(out.headers.get('set-cookie') ?? '', /auth_token=;.*Expires=Thu, 01 Jan 1970/i);
    assert.equal((await account('GET', '/api-keys', a)).status, 401, 'the signed-out token is refused even though it has not expired');
    assert.equal((await account('GET', '/api-keys', b)).status, 200);
    assert.equal((await call(svc.url, 'DELETE', '/api/account/session', {})).status, 200, 'signing out without a session is harmless');
  });
});
