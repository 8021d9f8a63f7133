import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { httpJson, HttpSourceError } from '../../../../src/agents/sources/http';
import { ManualClock } from '../../../../src/shared/clock';
import { FakeServer, json, recordingSleep } from './fake-server';

const server = new FakeServer();
let base = '';
before(async () => {
  base = await server.start();
});
after(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

async function rejection(p: Promise<unknown>): Promise<HttpSourceError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof HttpSourceError, `expected HttpSourceError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('httpJson', () => {
  it('GETs and parses JSON, sending the headers', async () => {
    server.handler = (_req, res) => json(res, 200, { ok: 1 });
    const body = await httpJson<{ ok: number }>(`${base}/x`, { headers: { 'x-key': 'k' } });
    assert.deepEqual(body, { ok: 1 });
    assert.equal(server.requests[0]!.headers['x-key'], 'k');
    assert.equal(server.requests[0]!.method, 'GET');
  });

  it('POSTs a JSON body', async () => {
    server.handler = (req, res) => json(res, 200, { echo: JSON.parse(req.body) });
    const body = await httpJson<{ echo: unknown }>(`${base}/x`, { method: 'POST', body: { a: [1] } });
    assert.deepEqual(body.echo, { a: [1] });
    assert.equal(server.requests[0]!.headers['content-type'], 'application/json');
  });

  it('retries 5xx with the default 1.5 s, 3 s, 6 s backoff and succeeds', async () => {
    let n = 0;
    server.handler = (_req, res) => (++n < 3 ? json(res, 502, { err: n }) : json(res, 200, { n }));
    const { sleep, delays } = recordingSleep();
    assert.deepEqual(await httpJson(`${base}/x`, { sleep }), { n: 3 });
    assert.deepEqual(delays, [1500, 3000]);
    assert.equal(server.requests.length, 3);
  });

  it('gives up after 3 retries (4 attempts) and says so', async () => {
    server.handler = (_req, res) => json(res, 503, {});
    const { sleep, delays } = recordingSleep();
    const err = await rejection(httpJson(`${base}/x`, { sleep }));
    assert.equal(err.status, 503);
    assert.equal(err.attempts, 4);
    assert.match(err.message, /HTTP 503 .* after 4 attempts/);
    assert.deepEqual(delays, [1500, 3000, 6000]);
  });

  it('retries 403 and 429, honouring Retry-After up to the 8 s cap', async () => {
    let n = 0;
    server.handler = (_req, res) => {
      n += 1;
      if (n === 1) return json(res, 403, {});
      if (n === 2) return json(res, 429, {}, { 'retry-after': '20' });
      return json(res, 200, { n });
    };
    const { sleep, delays } = recordingSleep();
    assert.deepEqual(await httpJson(`${base}/x`, { sleep }), { n: 3 });
    assert.deepEqual(delays, [1500, 8000]);
  });

  it('reads a Retry-After HTTP date against the injected clock', async () => {
    let n = 0;
    server.handler = (_req, res) => (++n === 1 ? json(res, 429, {}, { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }) : json(res, 200, { n }));
    const { sleep, delays } = recordingSleep();
    assert.deepEqual(await httpJson(`${base}/x`, { sleep, clock: new ManualClock('2026-01-01T00:00:00.000Z') }), { n: 2 });
    assert.deepEqual(delays, [5000]);
  });

  it('names the host it called in the error (not the path or query)', async () => {
    server.handler = (_req, res) => json(res, 404, {});
    const err = await rejection(httpJson(`${base}/x?api_key=secret`, { retries: 0 }));
    assert.equal(err.message, `HTTP 404 from ${new URL(base).host}`);
  });

  it('caps every delay at 8 s', async () => {
    server.handler = (_req, res) => json(res, 500, {});
    const { sleep, delays } = recordingSleep();
    await rejection(httpJson(`${base}/x`, { sleep, backoff: [20_000], retries: 2 }));
    assert.deepEqual(delays, [8000, 8000]);
  });

  it('does not retry other 4xx', async () => {
    server.handler = (_req, res) => json(res, 404, {});
    const { sleep, delays } = recordingSleep();
    const err = await rejection(httpJson(`${base}/x`, { sleep }));
    assert.equal(err.status, 404);
    assert.equal(err.retryable, false);
    assert.deepEqual(delays, []);
    assert.equal(server.requests.length, 1);
  });

  it('returns null for an accepted "nothing here" status', async () => {
    server.handler = (_req, res) => json(res, 404, { errors: [] });
    assert.equal(await httpJson(`${base}/x`, { acceptStatuses: [404] }), null);
  });

  it('times out each attempt and retries a timeout', async () => {
    server.handler = () => {}; // never answers
    const { sleep, delays } = recordingSleep();
    const err = await rejection(httpJson(`${base}/slow`, { sleep, timeoutMs: 80, retries: 1 }));
    assert.equal(err.kind, 'timeout');
    assert.equal(err.attempts, 2);
    assert.deepEqual(delays, [1500]);
  });

  it('retries a connection reset', async () => {
    let n = 0;
    server.handler = (req, res) => {
      n += 1;
      if (n === 1) {
        res.socket?.resetAndDestroy();
        return;
      }
      json(res, 200, { n });
    };
    const { sleep, delays } = recordingSleep();
    assert.deepEqual(await httpJson(`${base}/x`, { sleep }), { n: 2 });
    assert.deepEqual(delays, [1500]);
  });

  it('does not retry a refused connection', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { sleep, delays } = recordingSleep();
    const err = await rejection(httpJson(`http://127.0.0.1:${port}/x`, { sleep }));
    assert.equal(err.kind, 'network');
    assert.match(err.message, /ECONNREFUSED/);
    assert.deepEqual(delays, []);
  });

  it('fails at once on invalid JSON', async () => {
    server.handler = (_req, res) => json(res, 200, '{not json');
    const { sleep, delays } = recordingSleep();
    const err = await rejection(httpJson(`${base}/x`, { sleep }));
    assert.equal(err.kind, 'invalid_json');
    assert.deepEqual(delays, []);
  });

  it('stops when the caller aborts', async () => {
    server.handler = () => {};
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('agent timeout')), 50);
    const err = await rejection(httpJson(`${base}/x`, { signal: controller.signal, timeoutMs: 5000 }));
    assert.equal(err.kind, 'aborted');
    assert.match(err.message, /agent timeout/);
  });
});
