/**
 * The S1 rate limit counted with the key lookup (PgKeyService.authenticate with `count`): one
 * statement, the same decisions as the limit service, and no count for a key that is refused.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../../src/shared/clock';
import { startTestService, type TestService } from '../../../support/service';

const limit = { bucketPrefix: 's1:key:', limit: 3, windowSeconds: 60 };

describe('rate limit counted with the key lookup', () => {
  let svc: TestService;
  const clock = new ManualClock(new Date('2026-11-22T10:00:30Z'));
  before(async () => {
    svc = await startTestService({ clock, agents: 'none' });
  });
  after(async () => {
    await svc?.stop();
  });
  const countOf = async (keyId: string) => {
    const { rows } = await svc.service.pool.query<{ count: number }>('SELECT count FROM limit_counters WHERE bucket = $1', [`s1:key:${keyId}`]);
    return rows.reduce((sum, r) => sum + r.count, 0);
  };
  const statements = () => {
    const texts: string[] = [];
    const pool = svc.service.pool as unknown as { query: (...args: unknown[]) => unknown };
    const original = pool.query;
    pool.query = function (this: unknown, ...args: unknown[]) {
      texts.push(String(args[0]));
      return original.apply(this, args);
    };
    return { texts, restore: () => void (pool.query = original) };
  };

  it('counts in the lookup itself, allows up to the limit, then refuses without moving the count', async () => {
    const { accountId } = await svc.createAccount('enterprise');
    const key = await svc.createKey(accountId, 's1');
    const { keys } = svc.service.services;
    const spy = statements();
    const first = await keys.authenticate('s1', key.key, limit);
    spy.restore();
    assert.ok(first.ok);
    assert.deepEqual(first.counted && { allowed: first.counted.allowed, remaining: first.counted.remaining }, { allowed: true, remaining: 2 });
    const touching = spy.texts.filter((t) => t.includes('key_hash') || t.includes('INSERT INTO limit_counters'));
    assert.equal(touching.length, 1, 'the key lookup and the count are one statement');
    assert.ok(touching[0]!.includes('key_hash') && touching[0]!.includes('INSERT INTO limit_counters'));
    for (const remaining of [1, 0]) {
      const next = await keys.authenticate('s1', key.key, limit);
      assert.ok(next.ok && next.counted?.allowed && next.counted.remaining === remaining);
    }
    const refused = await keys.authenticate('s1', key.key, limit);
    assert.ok(refused.ok && refused.counted && !refused.counted.allowed);
    assert.equal(refused.counted.retryAfterSeconds, 30);
    assert.equal(await countOf(key.id), 3, 'a refused request leaves the count at the limit');
    clock.advance(60_000);
    const nextWindow = await keys.authenticate('s1', key.key, limit);
    assert.ok(nextWindow.ok && nextWindow.counted?.allowed && nextWindow.counted.remaining === 2);
    assert.equal(await countOf(key.id), 1, 'the expired window was dropped when the new one opened');
  });

  it('does not count for a revoked key, an expired key, or a key of another surface', async () => {
    const { accountId } = await svc.createAccount('enterprise');
    const { keys } = svc.service.services;
    const revoked = await svc.createKey(accountId, 's1');
    await keys.revoke({ accountId, plan: 'enterprise', roles: ['owner'], surface: 'portal' }, revoked.id, {
      actor: { surface: 'system' },
      correlationId: randomUUID(),
      commandId: randomUUID(),
    });
    const refusedRevoked = await keys.authenticate('s1', revoked.key, limit);
    assert.deepEqual(refusedRevoked, { ok: false, reason: 'revoked' });
    assert.equal(await countOf(revoked.id), 0);

    const s3Key = await svc.createKey(accountId, 's3');
    const wrongSurface = await keys.authenticate('s1', s3Key.key, limit);
    assert.equal(wrongSurface.ok, false);
    assert.equal(await countOf(s3Key.id), 0);

    const unknown = await keys.authenticate('s1', `svc_${'x'.repeat(43)}`, limit);
    assert.deepEqual(unknown, { ok: false, reason: 'unknown' });
  });
});
