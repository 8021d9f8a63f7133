import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay } from '../../../src/shared/backoff';
import { S1_POLICY, S3_POLICY } from '../../../src/webhooks/policy';

test('exponential: doubles from the first delay and stops at the cap', () => {
  const bus = { initialMs: 100, maxMs: 5_000 };
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(bus, n)), [100, 200, 400, 800, 1600, 3200, 5000]);
  // The downloader's: no cap, 1 s then doubling.
  assert.deepEqual([1, 2, 3].map((n) => backoffDelay({ initialMs: 1000 }, n)), [1000, 2000, 4000]);
  assert.equal(backoffDelay({ initialMs: 10, factor: 3 }, 3), 90);
});

test('schedule: the n-th delay before retry n, the last one repeating, capped', () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay({ scheduleMs: S1_POLICY.delaysMs }, n)), [30_000, 300_000, 1_800_000, 1_800_000]);
  assert.deepEqual([1, 2].map((n) => backoffDelay({ scheduleMs: S3_POLICY.delaysMs }, n)), [30_000, 120_000]);
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay({ scheduleMs: [1_500, 3_000, 6_000, 12_000], maxMs: 8_000 }, n)), [1_500, 3_000, 6_000, 8_000]);
  assert.equal(backoffDelay({ scheduleMs: [] }, 1), 0);
});
