/**
 * The Idempotency-Key middleware and its PostgreSQL store on their own: a real express app (createHttpApp,
 * the same error handler and envelopes as the service), a real test database, a create route whose
 * handler is held open by the test so "still in progress", "crashed mid-request" and "24 h later" are
 * each reached on purpose. The per-surface behaviour through the whole service is in idempotency.test.ts.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import express from 'express';
import { createHttpApp, handle } from '../../../src/api/http/app';
import { ctxOf } from '../../../src/api/http/context';
import { createIdempotency } from '../../../src/api/http/idempotency';
import { PgIdempotencyStore } from '../../../src/app/idempotency/idempotency-store';
import { ManualClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { rawRequest } from '../../support/raw-http';

let db: TestDatabase;
let server: Server;
let base: string;
const clock = new ManualClock('2026-03-01T12:00:00.000Z');
/** Resources the route created, in order. */
const created: Array<{ name: string; account: string }> = [];
/** When set, the create handler waits for it before answering. */
let gate: Promise<void> | undefined;
let failNext = false;
const LEASE_MS = 60_000;

before(async () => {
  db = await createTestDatabase();
  const idempotent = createIdempotency({ store: new PgIdempotencyStore(db.pool), clock, leaseMs: LEASE_MS, waitMs: 2_000 });
  const router = express.Router();
  // A stand-in gate: the account and key come from headers, as a surface's gate would fill them.
  router.use((req, res, next) => {
    const account = req.headers['x-test-account'];
    if (typeof account === 'string') ctxOf(res).auth = { accountId: account, plan: 'enterprise', keyId: String(req.headers['x-test-key'] ?? 'k1'), roles: ['owner'], surface: 's1' };
    next();
  });
  router.post(
    '/api/v1/things',
    idempotent(),
    handle(async (req, res) => {
      if (gate) await gate;
      if (failNext) {
        failNext = false;
        throw new Error('boom');
      }
      const body = req.body as { name?: unknown };
      if (typeof body.name !== 'string') {
        res.status(422).json({ success: false, code: 'validation_failed', message: 'name is required' });
        return;
      }
      created.push({ name: body.name, account: ctxOf(res).auth!.accountId });
      res.setHeader('Location', `/api/v1/things/${created.length}`);
      res.status(201).json({ success: true, id: created.length, name: body.name });
    }),
  );
  const app = createHttpApp({ logger: createLogger({ level: 'silent' }), health: { live: () => true, ready: async () => ({ ready: true, checks: {} }) }, routers: [router] });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.drop();
});
beforeEach(() => {
  gate = undefined;
  failNext = false;
});

const post = (key: string | string[] | undefined, body: unknown, account = 'acct-1', keyId = 'k1') =>
  rawRequest(base, 'POST', '/api/v1/things', {
    headers: { 'x-test-account': account, 'x-test-key': keyId, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    json: body,
  });

describe('Idempotency-Key middleware', () => {
  it('replays the first answer (status, body, Location) and creates once', async () => {
    const before = created.length;
    const first = await post('key-replay-1', { name: 'alpha' });
    const second = await post('key-replay-1', { name: 'alpha' });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.location, first.headers.location);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(created.length, before + 1);
  });

  it('treats key order and whitespace as the same request', async () => {
    const before = created.length;
    const first = await rawRequest(base, 'POST', '/api/v1/things', { headers: { 'x-test-account': 'acct-1', 'idempotency-key': 'key-canon' }, body: '{"name":"beta","x":1}' });
    const second = await rawRequest(base, 'POST', '/api/v1/things', { headers: { 'x-test-account': 'acct-1', 'idempotency-key': 'key-canon' }, body: '{ "x": 1,  "name": "beta" }' });
    assert.equal(first.status, 201);
    assert.deepEqual(second.body, first.body);
    assert.equal(created.length, before + 1);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused in the envelope, nothing created', async () => {
    await post('key-mismatch', { name: 'gamma' });
    const before = created.length;
    const other = await post('key-mismatch', { name: 'delta' });
    assert.equal(other.status, 422);
    assert.equal(other.body.success, false);
    assert.equal(other.body.code, 'idempotency_key_reused');
    assert.match(other.body.message, /different request/);
    assert.equal(created.length, before);
  });

  it('scopes keys per account and per credential', async () => {
    const before = created.length;
    const a = await post('key-scope', { name: 'eps' }, 'acct-1', 'k1');
    const b = await post('key-scope', { name: 'eps' }, 'acct-2', 'k9');
    const c = await post('key-scope', { name: 'eps' }, 'acct-1', 'k2');
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(c.status, 201);
    assert.notEqual(a.body.id, b.body.id);
    assert.notEqual(a.body.id, c.body.id);
    assert.equal(created.length, before + 3);
  });

  it('refuses malformed keys and a key sent twice (400), creating nothing', async () => {
    const before = created.length;
    for (const bad of ['', 'a'.repeat(256), 'has space', 'tab\tkey', 'é-key']) {
      const answer = await rawRequest(base, 'POST', '/api/v1/things', {
        headers: { 'x-test-account': 'acct-1', 'idempotency-key': Buffer.from(bad, 'latin1').toString('latin1') },
        json: { name: 'zeta' },
      }).catch((err: Error) => ({ status: -1, body: { message: err.message } }));
      // node refuses to send some of these header values at all; those never reach the service.
      if (answer.status === -1) continue;
      assert.equal(answer.status, 400, JSON.stringify([bad, answer.body]));
      assert.equal(answer.body.code, 'invalid_request');
    }
    const twice = await post(['key-twice', 'key-twice'], { name: 'zeta' });
    assert.equal(twice.status, 400);
    assert.match(twice.body.message, /Idempotency-Key header once/);
    assert.equal((await post('a'.repeat(255), { name: 'eta' })).status, 201, '255 characters are allowed');
    assert.equal(created.length, before + 1);
  });

  it('does not store a refusal or a failure: the key can be used again', async () => {
    const refused = await post('key-refused', { nope: true });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'validation_failed');
    const fixed = await post('key-refused', { name: 'theta' });
    assert.equal(fixed.status, 201, 'a corrected request with the key runs');
    failNext = true;
    const failed = await post('key-failed', { name: 'iota' });
    assert.equal(failed.status, 500);
    const retried = await post('key-failed', { name: 'iota' });
    assert.equal(retried.status, 201);
  });

  it('lets a concurrent duplicate wait for the first answer and replay it', async () => {
    const before = created.length;
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const first = post('key-concurrent', { name: 'kappa' });
    await new Promise((r) => setTimeout(r, 50));
    const second = post('key-concurrent', { name: 'kappa' });
    setTimeout(() => release(), 100);
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.status, 201);
    assert.deepEqual(b.body, a.body);
    assert.equal(b.headers['idempotent-replayed'], 'true');
    assert.equal(created.length, before + 1);
  });

  it('answers 409 idempotency_key_in_progress with Retry-After when the first request outlasts the wait', async () => {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const before = created.length;
    const first = post('key-slow', { name: 'lambda' });
    await new Promise((r) => setTimeout(r, 50));
    const second = await post('key-slow', { name: 'lambda' });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'idempotency_key_in_progress');
    assert.ok(Number(second.headers['retry-after']) >= 1);
    release();
    assert.equal((await first).status, 201);
    assert.equal(created.length, before + 1);
  });

  it('takes over a reservation whose lease passed (the process crashed mid-request)', async () => {
    // A reservation as a crashed process leaves it: never completed.
    const store = new PgIdempotencyStore(db.pool);
    const orphan = await store.begin({ scope: 's1:acct-1:key:k1', key: 'key-crashed', requestHash: 'unused', now: clock.now(), leaseMs: LEASE_MS });
    assert.equal(orphan.kind, 'started');
    await db.pool.query(`UPDATE idempotency_keys SET request_hash = $1 WHERE idempotency_key = 'key-crashed'`, [await hashOfThingsRequest({ name: 'mu' })]);
    const before = created.length;
    const blocked = await post('key-crashed', { name: 'mu' });
    assert.equal(blocked.status, 409, 'within the lease the key is still held');
    clock.advance(LEASE_MS);
    const taken = await post('key-crashed', { name: 'mu' });
    assert.equal(taken.status, 201);
    assert.equal(created.length, before + 1);
    assert.deepEqual((await post('key-crashed', { name: 'mu' })).body, taken.body);
  });

  it('binds ids to the key: kept when a lease is taken over, kept when a bound request fails, fresh after 24 h', async () => {
    const store = new PgIdempotencyStore(db.pool);
    const scope = 's1:acct-bind:key:k1';
    let draws = 0;
    const draw = async (count: number) => Array.from({ length: count }, () => `id-${++draws}`);
    const first = await store.begin({ scope, key: 'key-bind', requestHash: 'h1', now: clock.now(), leaseMs: LEASE_MS });
    assert.equal(first.kind, 'started');
    assert.deepEqual(await store.bind({ scope, key: 'key-bind', names: ['a', 'b'], draw }), ['id-1', 'id-2']);
    assert.deepEqual(await store.bind({ scope, key: 'key-bind', names: ['b', 'c'], draw }), ['id-2', 'id-3'], 'bound names keep their ids; only c is drawn');
    // The process dies here; after the lease the same request takes the key over with the same binding.
    clock.advance(LEASE_MS);
    const retry = await store.begin({ scope, key: 'key-bind', requestHash: 'h1', now: clock.now(), leaseMs: LEASE_MS });
    assert.equal(retry.kind, 'started');
    assert.equal(retry.kind === 'started' && first.kind === 'started' && retry.bindingId === first.bindingId, true, 'same binding after the take-over');
    assert.deepEqual(await store.bind({ scope, key: 'key-bind', names: ['a', 'b', 'c'], draw }), ['id-1', 'id-2', 'id-3']);
    assert.equal(draws, 3, 'nothing drawn again');
    // A failure after binding ends the lease instead of forgetting the key (the command may have appended).
    await store.release({ scope, key: 'key-bind', ownerToken: retry.kind === 'started' ? retry.ownerToken : '', now: clock.now() });
    assert.equal((await store.begin({ scope, key: 'key-bind', requestHash: 'h2', now: clock.now(), leaseMs: LEASE_MS })).kind, 'mismatch', 'the key stays tied to its request');
    const third = await store.begin({ scope, key: 'key-bind', requestHash: 'h1', now: clock.now(), leaseMs: LEASE_MS });
    assert.equal(third.kind, 'started', 'the same request takes it over at once');
    assert.deepEqual(await store.bind({ scope, key: 'key-bind', names: ['a'], draw }), ['id-1']);
    // Nothing bound: a failed request forgets its key (the client may correct the body).
    const unbound = await store.begin({ scope, key: 'key-unbound', requestHash: 'h1', now: clock.now(), leaseMs: LEASE_MS });
    await store.release({ scope, key: 'key-unbound', ownerToken: unbound.kind === 'started' ? unbound.ownerToken : '', now: clock.now() });
    assert.equal((await store.begin({ scope, key: 'key-unbound', requestHash: 'h2', now: clock.now(), leaseMs: LEASE_MS })).kind, 'started');
    // 24 h later the key is a new request: a new binding, nothing bound.
    clock.advance(24 * 3600_000);
    const later = await store.begin({ scope, key: 'key-bind', requestHash: 'h1', now: clock.now(), leaseMs: LEASE_MS });
    assert.equal(later.kind === 'started' && first.kind === 'started' && later.bindingId !== first.bindingId, true, 'a new binding');
    assert.deepEqual(await store.bind({ scope, key: 'key-bind', names: ['a'], draw }), ['id-4']);
  });

  it('forgets a key after 24 hours: the same request then creates again', async () => {
    const first = await post('key-expiry', { name: 'nu' });
    clock.advance(24 * 3600_000 - 1);
    assert.deepEqual((await post('key-expiry', { name: 'nu' })).body, first.body, 'still replayed just before 24 h');
    clock.advance(1);
    const before = created.length;
    const again = await post('key-expiry', { name: 'nu' });
    assert.equal(again.status, 201);
    assert.notEqual(again.body.id, first.body.id);
    assert.equal(again.headers['idempotent-replayed'], undefined);
    assert.equal(created.length, before + 1);
    assert.equal(await new PgIdempotencyStore(db.pool).sweep(new Date(clock.now().getTime() + 24 * 3600_000)) > 0, true, 'the sweep deletes expired records');
  });
});

/** The hash the middleware computes for POST /api/v1/things with this body (recomputed independently). */
async function hashOfThingsRequest(body: Record<string, unknown>): Promise<string> {
  const { createHash } = await import('node:crypto');
  const sorted = `{${Object.keys(body)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(body[k])}`)
    .join(',')}}`;
  return createHash('sha256').update(`POST /api/v1/things\n${sorted}`).digest('hex');
}
