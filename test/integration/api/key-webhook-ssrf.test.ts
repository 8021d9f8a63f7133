import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../../src/api/http/errors';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;
before(async () => {
  svc = await startTestService({ agents: 'none', env: { LISTS_ONLY: 'fatf' } });
});
after(async () => svc?.stop());

test('an S1 key webhook URL on a private, loopback or metadata address, or over http, is refused and no key is created', async () => {
  const account = await svc.createAccount('enterprise');
  for (const url of ['https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'https://10.0.0.8/x', 'http://example.com/hook', 'https://[::1]/x']) {
    await assert.rejects(svc.createKey(account.accountId, 's1', { webhookUrl: url }), (error: unknown) => {
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.kind, 'validation');
      assert.match(error.message, /^webhook_url: /);
      return true;
    });
  }
  const keys = await svc.service.services.keys.list(account.accountId, 's1');
  assert.equal(keys.length, 0, 'nothing was written');
  // Sanity: the same call with no webhook works.
  const ok = await svc.service.services.keys.create(
    { accountId: account.accountId, plan: 'enterprise', roles: ['owner'], surface: 'portal' },
    { surface: 's1', name: 'plain' },
    { actor: { surface: 'system' }, correlationId: randomUUID(), commandId: randomUUID() },
  );
  assert.match(ok.plaintext, /^svc_/);
});
