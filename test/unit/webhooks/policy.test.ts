import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { S1_POLICY, S2_POLICY, S3_POLICY, type AttemptResult } from '../../../src/webhooks/policy';

const response = (statusCode: number): AttemptResult => ({ kind: 'response', statusCode, snippet: '' });
const timeout: AttemptResult = { kind: 'timeout', error: 'no complete response within 10000 ms' };
const refused: AttemptResult = { kind: 'transport', error: 'ECONNREFUSED' };
const blocked: AttemptResult = { kind: 'blocked', error: 'forbidden_address' };

describe('delivery policies', () => {
  it('S1: 4 attempts, 30 s / 5 min / 30 min, every non-2xx and timeout retried, then dropped', () => {
    assert.equal(S1_POLICY.maxAttempts, 4);
    assert.deepEqual(S1_POLICY.delaysMs, [30_000, 300_000, 1_800_000]);
    assert.equal(S1_POLICY.givenUpStatus, 'dropped');
    for (const code of [200, 201, 204, 299]) assert.equal(S1_POLICY.classify(response(code)), 'succeeded');
    for (const code of [100, 301, 400, 404, 408, 429, 500, 503]) assert.equal(S1_POLICY.classify(response(code)), 'retryable', String(code));
    assert.equal(S1_POLICY.classify(timeout), 'retryable');
    assert.equal(S1_POLICY.classify(refused), 'retryable');
    assert.equal(S1_POLICY.classify(blocked), 'terminal');
  });

  it('S2: 3 attempts (0, +1 s, +5 s), 10 s timeout, only transport/5xx/408/429 retried', () => {
    assert.equal(S2_POLICY.maxAttempts, 3);
    assert.deepEqual(S2_POLICY.delaysMs, [1_000, 5_000]);
    assert.equal(S2_POLICY.timeoutMs, 10_000);
    for (const code of [500, 502, 503, 504, 599, 408, 429]) assert.equal(S2_POLICY.classify(response(code)), 'retryable', String(code));
    for (const code of [400, 401, 403, 404, 409, 410, 413, 422, 451]) assert.equal(S2_POLICY.classify(response(code)), 'terminal', String(code));
    for (const code of [101, 302, 307]) assert.equal(S2_POLICY.classify(response(code)), 'terminal', String(code));
    assert.equal(S2_POLICY.classify(response(202)), 'succeeded');
    assert.equal(S2_POLICY.classify(timeout), 'retryable');
    assert.equal(S2_POLICY.classify(refused), 'retryable');
    assert.equal(S2_POLICY.classify(blocked), 'terminal');
  });

  it('S3: 3 attempts with exponential backoff and auto-disable after 10 failed deliveries', () => {
    assert.equal(S3_POLICY.maxAttempts, 3);
    assert.equal(S3_POLICY.delaysMs.length, 2);
    assert.equal(S3_POLICY.delaysMs[1]! / S3_POLICY.delaysMs[0]!, 4);
    assert.equal(S3_POLICY.autoDisableAfter, 10);
    assert.equal(S1_POLICY.autoDisableAfter, undefined);
    assert.equal(S2_POLICY.autoDisableAfter, undefined);
  });
});
