/** The S1 HTTP suite on the in-memory test doubles (test/support/fake-services.ts). */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createHttpApp } from '../../../../src/api/http/app';
import { createS1Router, defaultS1MonthlyQuota } from '../../../../src/api/s1/router';
import { createLogger } from '../../../../src/shared/logger';
import { call } from './harness';
import { makeFakeS1Services } from '../../../support/fake-services';
import { s1ApiSuite } from './suite';

s1ApiSuite('test doubles', makeFakeS1Services);

describe('S1 router mounted without the pre-body gate', () => {
  it('still authenticates, counts once per request, and leaves other surfaces to their routers', async () => {
    const services = await makeFakeS1Services();
    const account = await services.createAccount('enterprise');
    const app = createHttpApp({
      logger: createLogger({ level: 'silent' }),
      health: { live: () => true, ready: async () => ({ ready: true, checks: {} }) },
      routers: [
        createS1Router({
          keys: services.keys,
          limits: services.limits,
          screenings: services.screenings,
          clock: services.clock,
          config: { screeningWaitMs: 1000, monthlyQuota: defaultS1MonthlyQuota },
        }),
      ],
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const anonymous = await call(base, 'POST', '/api/v1/screening/cdd', { body: { query: 'Acme' } });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.json.code, 'invalid_api_key');
      const first = await call(base, 'POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'Acme' } });
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('x-ratelimit-remaining'), '59');
      const second = await call(base, 'GET', '/api/v1/screenings', { key: account.key });
      assert.equal(second.headers.get('x-ratelimit-remaining'), '58');
      // An S2 credential on an /api/v1 path is not S1's: no S1 authentication, the S2 envelope answers.
      const s2 = await call(base, 'GET', '/api/v1/screenings', { key: 'svca_' + 'a'.repeat(30) });
      assert.equal(s2.status, 404);
      assert.equal(s2.json.error.code, 'not_found');
      assert.equal(s2.headers.get('x-ratelimit-limit'), null);
      // Unknown S1 path with a valid key: S1 envelope, still rate-limited.
      const unknown = await call(base, 'GET', '/api/v1/nothing-here', { key: account.key });
      assert.equal(unknown.status, 404);
      assert.deepEqual([unknown.json.success, unknown.json.code], [false, 'not_found']);
      assert.equal(unknown.headers.get('x-ratelimit-remaining'), '57');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
