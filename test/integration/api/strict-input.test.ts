/**
 * Strict input at the edge, on every surface, through the whole service over real HTTP (exact bytes
 * and header lines via node:http): bodies that are not valid UTF-8, duplicate JSON keys, two
 * Authorization or X-API-Key headers, control characters in names and bodies over the limit are each
 * refused in the surface's own envelope, and nothing is written (no event, no idempotency record).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../support/service';
import { rawRequest, type RawAnswer } from '../../support/raw-http';

let svc: TestService;
let s1Key: string;
let s2Key: string;
let s3Key: string;
let portalToken: string;
let sessionCookie: string;

type Surface = 's1' | 's2' | 's2_session' | 's3' | 'portal';

interface Route {
  surface: Surface;
  path: string;
  auth(): Record<string, string>;
  /** A valid body whose name field is `name`, as raw JSON text. */
  bodyWithName(name: string): string;
}

const routes: Route[] = [
  { surface: 's1', path: '/api/v1/screening/cdd', auth: () => ({ authorization: `Bearer ${s1Key}` }), bodyWithName: (n) => `{"query":"${n}"}` },
  { surface: 's1', path: '/api/v1/person-checks', auth: () => ({ authorization: `Bearer ${s1Key}` }), bodyWithName: (n) => `{"full_name":"${n}","purpose":"employment","fcra_consent":true}` },
  { surface: 's3', path: '/api/v1/screening/cdd', auth: () => ({ 'x-api-key': s3Key }), bodyWithName: (n) => `{"query":"${n}"}` },
  { surface: 's3', path: '/api/v1/keys', auth: () => ({ 'x-api-key': s3Key }), bodyWithName: (n) => `{"name":"${n}"}` },
  {
    surface: 's2',
    path: '/api/v1/compliance/subject-checks',
    auth: () => ({ authorization: `Bearer ${s2Key}` }),
    bodyWithName: (n) => `{"first_name":"${n}","last_name":"Smith","locations":[{"country":"GB","city":"Leeds"}],"purpose":"employment","consent":{"certified":true}}`,
  },
  { surface: 's2_session', path: '/api/account/api-keys', auth: () => ({ cookie: `auth_token=${sessionCookie}` }), bodyWithName: (n) => `{"name":"${n}"}` },
  { surface: 'portal', path: '/api/portal/screenings', auth: () => ({ authorization: `Bearer ${portalToken}` }), bodyWithName: (n) => `{"kind":"cdd","query":"${n}"}` },
  {
    surface: 'portal',
    path: '/api/person-checks',
    auth: () => ({ authorization: `Bearer ${portalToken}` }),
    bodyWithName: (n) => `{"first_name":"${n}","last_name":"Smith","purpose":"employment","fcra_consent":true}`,
  },
];

/** Everything a refused request must not have written. */
async function written(): Promise<string> {
  const events = (await svc.service.store.readAll()).filter((e) => e.metadata.actor?.surface !== 'system').length;
  const { rows } = await svc.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys');
  return JSON.stringify({ events, idempotency: rows[0]!.n });
}

/** The surface's own refusal envelope for `status`. */
export function assertRefusal(surface: Surface, answer: RawAnswer, status: number, message?: RegExp): void {
  assert.equal(answer.status, status, `${surface}: ${answer.text}`);
  const text = (() => {
    switch (surface) {
      case 's1':
        assert.equal(answer.body.success, false);
        assert.equal(answer.body.code, status === 413 ? 'payload_too_large' : status === 422 ? 'validation_failed' : 'invalid_request');
        return answer.body.message as string;
      case 's2':
        assert.equal(answer.body.error.code, status === 413 ? 'payload_too_large' : 'invalid_payload');
        return `${answer.body.error.message} ${(answer.body.error.errors ?? []).join(' ')}`;
      case 's2_session':
        assert.equal(answer.body.success, false);
        return answer.body.message as string;
      case 's3':
      case 'portal':
        assert.equal(typeof answer.body.error, 'string');
        assert.ok('details' in answer.body, 'S3 400/413 carry details');
        return `${answer.body.error} ${JSON.stringify(answer.body.details)}`;
    }
  })();
  if (message) assert.match(text, message, `${surface}: ${answer.text}`);
}

before(async () => {
  svc = await startTestService({ env: { LISTS_DIR: 'test/fixtures/lists' }, agents: 'none' });
  const account = await svc.createAccount('enterprise');
  s1Key = (await svc.createKey(account.accountId, 's1')).key;
  s2Key = (await svc.createKey(account.accountId, 's2')).key;
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  portalToken = (await rawRequest(svc.url, 'POST', '/api/session', { json: { email: account.email, password: account.password } })).body.data.token;
  const session = await rawRequest(svc.url, 'POST', '/api/account/session', { json: { email: account.email, password: account.password } });
  sessionCookie = /auth_token=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
});
after(async () => {
  await svc?.stop();
});

for (const route of routes) {
  describe(`strict input on ${route.surface} POST ${route.path}`, () => {
    const post = (body: Buffer | string, headers: Record<string, string | string[]> = route.auth()) => rawRequest(svc.url, 'POST', route.path, { headers, body });

    it('refuses a body that is not valid UTF-8 (the bytes of the issue: Jo\\xff\\xfehn Smith)', async () => {
      const before = await written();
      const valid = Buffer.from(route.bodyWithName('JoXXhn'), 'utf8');
      const at = valid.indexOf('XX');
      const invalid = Buffer.concat([valid.subarray(0, at), Buffer.from([0xff, 0xfe]), valid.subarray(at + 2)]);
      assertRefusal(route.surface, await post(invalid, { ...route.auth(), 'idempotency-key': 'k-utf8' }), 400, /not valid UTF-8/);
      // An overlong encoding and a lone surrogate encoded in UTF-8 bytes are not UTF-8 either.
      for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
        assertRefusal(route.surface, await post(Buffer.concat([valid.subarray(0, at), Buffer.from(bytes), valid.subarray(at + 2)])), 400, /not valid UTF-8/);
      }
      assert.equal(await written(), before);
    });

    it('refuses a JSON object that names a key twice', async () => {
      const before = await written();
      const body = route.bodyWithName('Margaret');
      const nameKey = /^\{"([a-z_]+)"/.exec(body)![1]!;
      // The name key twice: as written, and spelled with a \u escape (the same key once unescaped).
      const escapedKey = `\\u00${nameKey.charCodeAt(0).toString(16)}${nameKey.slice(1)}`;
      for (const key of [nameKey, escapedKey]) {
        assertRefusal(route.surface, await post(`{"${key}":"Benign Name",${body.slice(1)}`, { ...route.auth(), 'idempotency-key': 'k-dup' }), 400, /twice/);
      }
      assert.equal(await written(), before);
    });

    it('refuses two Authorization headers and two X-API-Key headers', async () => {
      const before = await written();
      const own = route.auth();
      const body = route.bodyWithName('Margaret');
      if (own.authorization) {
        assertRefusal(route.surface, await post(body, { ...own, authorization: [own.authorization, own.authorization] }), 400, /Authorization header once/);
        assertRefusal(route.surface, await post(body, { ...own, authorization: [own.authorization, 'Bearer svc_someone_elses_key_0000000'] }), 400, /Authorization header once/);
      }
      if (own['x-api-key']) {
        assertRefusal(route.surface, await post(body, { ...own, 'x-api-key': [own['x-api-key'], own['x-api-key']] }), 400, /X-API-Key header once/);
      }
      if (own.cookie) {
        // The session surface reads a cookie; a second Authorization header beside it is refused the same way.
        assertRefusal(route.surface, await post(body, { ...own, authorization: ['Bearer a', 'Bearer b'] }), 400, /Authorization header once/);
      }
      assert.equal(await written(), before);
    });

    it('refuses control characters in names', async () => {
      const before = await written();
      for (const control of ['\\u0000', '\\u0007', '\\u001b', '\\u0085', '\\n']) {
        const answer = await post(route.bodyWithName(`Jo${control}hn`));
        // S1 says 422 for a well-typed value that breaks a rule; the other surfaces say 400.
        assertRefusal(route.surface, answer, route.surface === 's1' ? 422 : 400);
      }
      assert.equal(await written(), before);
    });

    it('refuses a body over the documented 256 KB limit with 413', async () => {
      const before = await written();
      const huge = route.bodyWithName('Margaret').replace(/}$/, `,"padding":"${'a'.repeat(300 * 1024)}"}`);
      assertRefusal(route.surface, await post(huge, { ...route.auth(), 'idempotency-key': 'k-huge' }), 413);
      assert.equal(await written(), before);
    });
  });
}
