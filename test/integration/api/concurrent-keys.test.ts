import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService } from '../../support/service';

test('16 concurrent key creations on one account all succeed, each once, and the limit of 10 S1 keys holds', async () => {
  const svc = await startTestService({ agents: 'none', env: { LISTS_ONLY: 'fatf' } });
  try {
    const account = await svc.createAccount('enterprise');
    const s3 = await Promise.allSettled(Array.from({ length: 4 }, () => svc.createKey(account.accountId, 's3')));
    const s2 = await Promise.allSettled(Array.from({ length: 12 }, () => svc.createKey(account.accountId, 's2')));
    assert.equal(s3.filter((r) => r.status === 'fulfilled').length, 4);
    assert.equal(s2.filter((r) => r.status === 'fulfilled').length, 12);
    const s1 = await Promise.allSettled(Array.from({ length: 14 }, () => svc.createKey(account.accountId, 's1')));
    const created = s1.filter((r) => r.status === 'fulfilled');
    const refused = s1.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    assert.equal(created.length, 10, 'exactly the S1 limit');
    for (const r of refused) assert.equal((r.reason as { code?: string }).code, 'limit_exceeded');
    assert.equal((await svc.service.services.keys.list(account.accountId, 's1')).length, 10);
    assert.equal((await svc.service.services.keys.list(account.accountId, 's2')).length, 12);
  } finally {
    await svc.stop();
  }
});
