/** PgLimitService on a real PostgreSQL: exact under concurrency across instances, denials do not consume. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { limitWindowAt, PgLimitService } from '../../../../src/app/limits';
import { ManualClock } from '../../../../src/shared/clock';
import { createTestDatabase, type TestDatabase } from '../../../support/postgres';

describe('limitWindowAt', () => {
  it('aligns epoch windows and UTC calendar months', () => {
    const at = new Date('2026-01-31T23:59:59.500Z');
    assert.deepEqual(limitWindowAt(at, 60), { start: new Date('2026-01-31T23:59:00Z'), end: new Date('2026-02-01T00:00:00Z') });
    assert.deepEqual(limitWindowAt(at, 3600), { start: new Date('2026-01-31T23:00:00Z'), end: new Date('2026-02-01T00:00:00Z') });
    assert.deepEqual(limitWindowAt(at, 1, { align: 'utc_month' }), { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2026-02-01T00:00:00Z') });
    assert.deepEqual(limitWindowAt(new Date('2026-12-15T00:00:00Z'), 1, { align: 'utc_month' }), {
      start: new Date('2026-12-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
    });
    assert.throws(() => limitWindowAt(at, 0), RangeError);
  });
});

describe('PgLimitService (real PostgreSQL)', () => {
  let db: TestDatabase;
  let secondPool: pg.Pool;

  before(async () => {
    db = await createTestDatabase();
    // A second pool stands for a second API instance on the same database.
    secondPool = new pg.Pool({ connectionString: db.url, max: 10 });
  });
  after(async () => {
    await secondPool?.end();
    await db?.drop();
  });

  const countIn = async (bucket: string) =>
    (await db.pool.query<{ count: number }>('SELECT count FROM limit_counters WHERE bucket = $1', [bucket])).rows.map((r) => r.count);

  it('100 concurrent consumes from two instances against a limit of 60 allow exactly 60', async () => {
    const clock = new ManualClock('2026-03-10T12:00:10.000Z');
    const instanceA = new PgLimitService(db.pool, clock);
    const instanceB = new PgLimitService(secondPool, clock);
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? instanceA : instanceB).consume('s1:key:concurrent', 60, 60)),
    );
    const allowed = decisions.filter((d) => d.allowed);
    assert.equal(allowed.length, 60);
    // Every allowed call saw a distinct count: remaining 59 … 0, each exactly once.
    assert.deepEqual(allowed.map((d) => d.remaining).sort((a, b) => a - b), Array.from({ length: 60 }, (_, i) => i));
    for (const denied of decisions.filter((d) => !d.allowed)) {
      assert.equal(denied.remaining, 0);
      assert.equal(denied.retryAfterSeconds, 50);
      assert.equal(denied.resetAt, Date.parse('2026-03-10T12:01:00Z') / 1000);
    }
    assert.deepEqual(await countIn('s1:key:concurrent'), [60], 'denied requests did not consume');
  });

  it('a denied request does not consume; the next window starts afresh and the expired one is purged', async () => {
    const clock = new ManualClock('2026-03-10T12:00:59.000Z');
    const limits = new PgLimitService(db.pool, clock);
    const bucket = 's1:key:windows';
    for (let i = 0; i < 3; i++) assert.equal((await limits.consume(bucket, 3, 60)).allowed, true);
    const denied = await limits.consume(bucket, 3, 60);
    assert.deepEqual(denied, { allowed: false, limit: 3, remaining: 0, resetAt: Date.parse('2026-03-10T12:01:00Z') / 1000, retryAfterSeconds: 1 });
    assert.deepEqual(await countIn(bucket), [3]);
    clock.advance(1000);
    const fresh = await limits.consume(bucket, 3, 60);
    assert.deepEqual(fresh, { allowed: true, limit: 3, remaining: 2, resetAt: Date.parse('2026-03-10T12:02:00Z') / 1000 });
    assert.deepEqual(await countIn(bucket), [1], 'the expired window was purged when the new one opened');
  });

  it('peek reads without consuming', async () => {
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const limits = new PgLimitService(db.pool, clock);
    const bucket = 's2:peek';
    assert.deepEqual(await limits.peek(bucket, 2, 3600), { allowed: true, limit: 2, remaining: 2, resetAt: Date.parse('2026-03-10T13:00:00Z') / 1000 });
    assert.deepEqual(await countIn(bucket), [], 'peek wrote nothing');
    await limits.consume(bucket, 2, 3600);
    await limits.consume(bucket, 2, 3600);
    for (let i = 0; i < 3; i++) {
      const peeked = await limits.peek(bucket, 2, 3600);
      assert.equal(peeked.allowed, false);
      assert.equal(peeked.remaining, 0);
    }
    assert.deepEqual(await countIn(bucket), [2]);
  });

  it('monthly windows follow the UTC calendar month', async () => {
    const clock = new ManualClock('2026-01-31T23:59:59.000Z');
    const limits = new PgLimitService(db.pool, clock);
    const bucket = 's1:quota:7';
    assert.equal((await limits.consume(bucket, 1, 0, { align: 'utc_month' })).allowed, true);
    const denied = await limits.consume(bucket, 1, 0, { align: 'utc_month' });
    assert.equal(denied.allowed, false);
    assert.equal(denied.retryAfterSeconds, 1);
    clock.set('2026-02-01T00:00:00.000Z');
    const february = await limits.consume(bucket, 1, 0, { align: 'utc_month' });
    assert.equal(february.allowed, true);
    assert.equal(february.resetAt, Date.parse('2026-03-01T00:00:00Z') / 1000);
  });

  it('a limit of 0 allows nothing and writes nothing', async () => {
    const limits = new PgLimitService(db.pool, new ManualClock('2026-03-10T12:00:00.000Z'));
    const decision = await limits.consume('s1:quota:none', 0, 60);
    assert.equal(decision.allowed, false);
    assert.deepEqual(await countIn('s1:quota:none'), []);
  });

  it('purgeExpired removes only windows that have ended', async () => {
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const limits = new PgLimitService(db.pool, clock);
    await limits.consume('purge:a', 5, 60);
    await limits.consume('purge:b', 5, 3600);
    clock.advance(120_000);
    const removed = await limits.purgeExpired();
    assert.ok(removed >= 1);
    assert.deepEqual(await countIn('purge:a'), []);
    assert.deepEqual(await countIn('purge:b'), [1]);
  });
});
