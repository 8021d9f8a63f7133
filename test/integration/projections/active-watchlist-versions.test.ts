/**
 * The per-account answer "which watchlists are active, at which versions" kept in memory
 * (src/app/watchlists/active-versions.ts), on the whole wired service over real HTTP: it answers
 * like the read model, asks PostgreSQL again only after a change of that account reached the read
 * models, and is current as soon as a change's HTTP answer is back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { startTestService, type TestService } from '../../support/service';
import { call, envelopeData } from '../api/s3/helpers';
import { CachedActiveWatchlistVersions } from '../../../src/app/watchlists/active-versions';
import type { RecordedEvent } from '../../../src/shared/events';

let svc: TestService;
let account: string;
let key: string;
let otherKey: string;

before(async () => {
  svc = await startTestService({ agents: 'none' });
  account = (await svc.createAccount('enterprise')).accountId;
  const owner = await svc.createAccount('enterprise');
  key = (await svc.createKey(account, 's3')).key;
  otherKey = (await svc.createKey(owner.accountId, 's3')).key;
});
after(async () => {
  await svc?.stop();
});

/** The service's pool, counting the statements asked through it. */
function countingPool(): { pool: Pick<pg.Pool, 'query'>; queries: () => number } {
  let n = 0;
  const real = svc.service.pool;
  return {
    pool: { query: ((...args: Parameters<pg.Pool['query']>) => (n++, (real.query as (...a: unknown[]) => unknown)(...args))) as pg.Pool['query'] },
    queries: () => n,
  };
}

const newList = async (apiKey: string, name: string) =>
  envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key: apiKey, body: { name, purpose: 'exits', severity: 'block', owner: 'fincrime@acme.test' } }), 201);

describe('active watchlist versions kept per account', () => {
  it('answers from memory until a change of that account is applied; current right after the change is answered', async () => {
    const counted = countingPool();
    const versions = new CachedActiveWatchlistVersions({ pool: counted.pool });
    versions.follow(svc.service.runner!);
    assert.deepEqual(await versions.activeVersions(account), []);
    const list = await newList(key, 'Exits');
    // The creation's answer came after the read models applied it: the empty answer is not served again.
    assert.deepEqual(await versions.activeVersions(account), [{ id: list.id, version: 1 }]);
    const asked = counted.queries();
    assert.deepEqual(await versions.activeVersions(account), [{ id: list.id, version: 1 }]);
    assert.equal(counted.queries(), asked, 'the second answer comes from memory');

    // Another account's list changes nothing here.
    await newList(otherKey, 'Theirs');
    assert.deepEqual(await versions.activeVersions(account), [{ id: list.id, version: 1 }]);
    assert.equal(counted.queries(), asked);

    envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${list.id}`, { key, body: { name: 'Exited customers' } }), 200);
    assert.deepEqual(await versions.activeVersions(account), [{ id: list.id, version: 2 }]);
    assert.equal(counted.queries(), asked + 1);
    const second = await newList(key, 'Letters');
    envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/archive`, { key, body: { reason: 'superseded' } }), 200);
    assert.deepEqual(await versions.activeVersions(account), [{ id: second.id, version: 1 }]);
  });

  it('an answer read before a change the runner has reported is not kept', async () => {
    const counted = countingPool();
    const versions = new CachedActiveWatchlistVersions({ pool: counted.pool });
    versions.follow({ onBatchHandled: () => undefined });
    const first = await versions.activeVersions(account);
    // The runner reports a change of this account past every checkpoint: what the read model holds is older.
    const change = { type: 'WatchlistChanged', streamName: `watchlist-${first[0]!.id}`, streamPosition: 9n, globalPosition: 1n << 60n, recordedAt: '', data: { watchlistId: first[0]!.id, accountId: account }, metadata: {} };
    versions.observe([change as unknown as RecordedEvent]);
    const asked = counted.queries();
    await versions.activeVersions(account);
    await versions.activeVersions(account);
    assert.equal(counted.queries(), asked + 2, 'asked every time until the read model has the change');
  });

  it('without a projection runner to follow, every call asks the read model', async () => {
    const counted = countingPool();
    const versions = new CachedActiveWatchlistVersions({ pool: counted.pool });
    const a = await versions.activeVersions(account);
    const b = await versions.activeVersions(account);
    assert.deepEqual(a, b);
    assert.equal(counted.queries(), 2);
  });
});
