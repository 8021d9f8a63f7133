/** Small HTTP helpers for the S3 tests (real HTTP against startTestService). */
import assert from 'node:assert/strict';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts the S3 success envelope and headers; returns `data`. */
export function envelopeData(answer: Answer, status: number): any {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body).sort(), ['data', 'meta']);
  assert.match(answer.body.meta.request_id, UUID);
  assert.equal(answer.headers.get('x-request-id'), answer.body.meta.request_id);
  assert.ok(!Number.isNaN(Date.parse(answer.body.meta.timestamp)));
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) assert.match(answer.headers.get(h) ?? '', /^\d+$/, h);
  return answer.body.data;
}

/** Asserts an S3 error shape: 400 {error, details}, 429 {message}, others {error}. */
export function s3Error(answer: Answer, status: number): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (status === 429) assert.deepEqual(Object.keys(answer.body), ['message']);
  else if (status === 400 || status === 413) assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error']);
  else assert.deepEqual(Object.keys(answer.body), ['error']);
}
