/**
 * A database outage is not an internal error: every surface answers 503 with Retry-After in its own
 * envelope (the client may retry), whatever layer the connection failure surfaced through.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Response } from 'express';
import { ApiError, sendError } from '../../../src/api/http/errors';
import { toApiError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../../src/api/http/error-mapping';
import type { ApiSurface } from '../../../src/api/http/surfaces';

function capture(surface: ApiSurface, error: ApiError) {
  const headers: Record<string, string> = {};
  let status = 0;
  let body: unknown;
  const res = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    status(code: number) {
      status = code;
      return res;
    },
    json(value: unknown) {
      body = value;
      return res;
    },
  } as unknown as Response;
  sendError(res, surface, error, 'req-1');
  return { status, headers, body };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const adminShutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
const terminated = new Error('Connection terminated unexpectedly');

describe('a database outage maps to 503', () => {
  for (const [name, error] of [
    ['a refused connection', refused],
    ['an admin shutdown (SQLSTATE 57P01)', adminShutdown],
    ['a connection cut mid-query', terminated],
    ['a refused connection wrapped as the cause of another error', new Error('append failed', { cause: refused })],
  ] as const) {
    it(`${name} becomes "unavailable" with a Retry-After`, () => {
      const mapped = toApiError(error);
      assert.equal(mapped.kind, 'unavailable');
      assert.equal(mapped.details?.retryAfterSeconds, UNAVAILABLE_RETRY_AFTER_SECONDS);
    });
  }

  it('other errors stay internal, and constraint violations are not outages', () => {
    assert.equal(toApiError(new Error('boom')).kind, 'internal');
    assert.equal(toApiError(Object.assign(new Error('duplicate key'), { code: '23505' })).kind, 'internal');
  });

  it('renders 503 + Retry-After in each surface envelope', () => {
    const error = toApiError(refused);
    const s1 = capture('s1', error);
    assert.equal(s1.status, 503);
    assert.equal(s1.headers['retry-after'], String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    assert.deepEqual(s1.body, { success: false, message: error.message, code: 'service_unavailable' });

    const s2 = capture('s2', error);
    assert.equal(s2.status, 503);
    assert.equal(s2.headers['retry-after'], String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    assert.deepEqual(s2.body, { error: { code: 'service_unavailable', message: error.message } });

    for (const surface of ['s3', 'portal'] as const) {
      const s3 = capture(surface, error);
      assert.equal(s3.status, 503);
      assert.equal(s3.headers['retry-after'], String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      assert.deepEqual(s3.body, { error: error.message });
    }
    const session = capture('s2_session', error);
    assert.equal(session.status, 503);
    assert.deepEqual(session.body, { success: false, message: error.message });
  });
});
