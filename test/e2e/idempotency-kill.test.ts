/**
 * Every create route of every surface, twice under the same Idempotency-Key, across a kill -9 between
 * the append and the answer (issue 29). The embedded service runs as a child process (its own process
 * group, with its PostgreSQL, test/support/crash-round.ts). A trigger makes the statement that records
 * a create's answer (the key's record getting its response) sleep, for the keys the test names: the
 * command has appended, the answer is not recorded and not sent. Once every request of a wave sleeps
 * there, the whole group is SIGKILLed (node and PostgreSQL at once, as in a power loss) and restarted
 * on the same DATA_DIR. After the reservation's lease (IDEMPOTENCY_LEASE_MS, short here) the client
 * retries with the same key and body: the store must hold exactly one resource per request (the
 * batch: one per valid subject), the retry must answer that resource (API keys: 409 naming the key,
 * whose secret only the lost answer held), and a third send replays the recorded answer. A streamed
 * body (an import, a batch) retried with another file of the same length is refused (422) first.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { IDEMPOTENT_CREATE_ROUTES } from '../../src/api/http/idempotency';
import { startChild, type Ready } from '../support/crash-round';
import { CREATE_ROUTES, idsInAnswer, urlWithTag, type CreateRoute } from '../support/create-routes';
import { rawRequest, type RawAnswer } from '../support/raw-http';
import type { SurfaceCredentials } from '../support/surface-credentials';

const LEASE_MS = 2_000;
/** Requests held in the crash window at once (each holds a database connection of the service's 20). */
const WAVE = 7;
const ENV = {
  IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
  SCREENING_WAIT_MS: '500',
  LISTS_DIR: 'test/fixtures/lists',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  SECRETS_KEY: 'idempotency-kill-test-secrets-key-0123456789',
  TEST_SURFACES: String(CREATE_ROUTES.filter((r) => r.name === 'S2 webhook endpoint').length * 2),
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-idem-kill-'));
fs.chmodSync(dataDir, 0o755); // the unprivileged postgres OS user must reach the data dir inside
let child: ChildProcess | undefined;
let ready: Ready;
let creds: SurfaceCredentials;
let spareKeys: string[];

async function boot(): Promise<void> {
  const started = startChild(dataDir, ENV);
  child = started.child;
  ready = await started.ready;
  creds = ready.surfaces!;
}

function kill(): Promise<void> {
  const proc = child!;
  child = undefined;
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    process.kill(-proc.pid!, 'SIGKILL');
  });
}

async function withDb<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: ready.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** Requests that reached the crash window (their answer's record sleeps in the trigger). */
const sleeping = () => withDb(async (db) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'PgSleep'`)).rows[0]!.n);

interface Attempt {
  route: CreateRoute;
  key: string;
  tag: string;
  headers: Record<string, string>;
}

/** `bodyTag`: another file of the same length under the same URL and key (the import's content fingerprint). */
function send(a: Attempt, bodyTag = a.tag): Promise<RawAnswer> {
  const body = a.route.body(bodyTag);
  const headers = { ...a.headers, 'idempotency-key': a.key };
  const url = urlWithTag(a.route, creds, a.tag);
  if (a.route.contentType) return rawRequest(ready.url, 'POST', url, { headers: { ...headers, 'content-type': a.route.contentType }, body: body as string });
  return rawRequest(ready.url, 'POST', url, { headers, json: body });
}

before(async () => {
  await boot();
  spareKeys = [...creds.spareS2Keys];
  await withDb((db) =>
    db.query(`
      CREATE TABLE test_crash_keys (idempotency_key text PRIMARY KEY);
      CREATE FUNCTION test_crash_window() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.response_status IS NOT NULL AND OLD.response_status IS NULL
           AND EXISTS (SELECT 1 FROM test_crash_keys WHERE idempotency_key = NEW.idempotency_key) THEN
          PERFORM pg_sleep(600);
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_crash_window BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION test_crash_window();`),
  );
});
after(async () => {
  if (child) await kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 between the append and the answer, then a retry with the same Idempotency-Key', () => {
  it('the table covers every create route that takes the header', () => {
    assert.deepEqual([...new Set(CREATE_ROUTES.map((r) => r.path))].sort(), [...IDEMPOTENT_CREATE_ROUTES].sort());
  });

  for (let from = 0; from < CREATE_ROUTES.length; from += WAVE) {
    const wave = CREATE_ROUTES.slice(from, from + WAVE);
    it(`${wave.map((r) => r.name).join(', ')}: one resource each, answered again`, async () => {
      const attempts: Attempt[] = wave.map((route) => ({ route, key: `kill-${randomUUID()}`, tag: `kill-${randomUUID().slice(0, 8)}`, headers: route.headers(creds, () => spareKeys.shift()!) }));
      await withDb((db) => db.query('INSERT INTO test_crash_keys SELECT unnest($1::text[])', [attempts.map((a) => a.key)]));
      const answers = attempts.map((a) => send(a).then((answer) => ({ answer }), (error: Error) => ({ error })));
      // Every request of the wave in the window: appended, its answer not recorded, nothing sent.
      const deadline = Date.now() + 120_000;
      const settled = new Set<number>();
      answers.forEach((p, i) => void p.then(() => settled.add(i)));
      while ((await sleeping()) < attempts.length) {
        if (settled.size > 0) {
          const early = await answers[[...settled][0]!]!;
          assert.fail(`${attempts[[...settled][0]!]!.route.name} answered before the kill: ${JSON.stringify(early)}`);
        }
        if (Date.now() > deadline) assert.fail(`only ${await sleeping()} of ${attempts.length} requests reached the crash window`);
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const a of attempts) assert.equal((await a.route.created(await dbPool(), a.tag)).length, a.route.perCall, `${a.route.name}: created before the kill`);
      await kill();
      for (const outcome of await Promise.all(answers)) assert.ok('error' in outcome, 'no answer reached the client');

      await boot();
      await withDb((db) => db.query('DELETE FROM test_crash_keys'));
      await new Promise((r) => setTimeout(r, LEASE_MS + 200));
      for (const a of attempts) {
        if (a.route.contentType) {
          // Issue 30: a streamed body is fingerprinted by its content, not its length, across the crash too.
          const other = await send(a, `${a.tag.slice(0, -1)}${a.tag.endsWith('0') ? '1' : '0'}`);
          assert.equal(other.status, 422, `${a.route.name}: another file of the same length under the key: ${other.text}`);
          assert.match(other.text, /different/);
        }
        const retried = await send(a);
        const created = await a.route.created(await dbPool(), a.tag);
        assert.equal(created.length, a.route.perCall, `${a.route.name}: one resource per request after the retry (${retried.text})`);
        if (a.route.afterCrash === 'conflict') {
          assert.equal(retried.status, 409, `${a.route.name}: ${retried.text}`);
          assert.ok(retried.text.includes(created[0]!), `${a.route.name}: the 409 names the key to revoke: ${retried.text}`);
          continue;
        }
        assert.ok(retried.status >= 200 && retried.status < 300, `${a.route.name}: ${retried.text}`);
        const named = idsInAnswer(retried.body);
        for (const id of created) assert.ok(id.split(' ').some((part) => named.has(part)), `${a.route.name}: the retry answers ${id}: ${retried.text}`);
        const replayed = await send(a);
        assert.equal(replayed.headers['idempotent-replayed'], 'true', `${a.route.name}: ${replayed.text}`);
        assert.deepEqual(replayed.body, retried.body);
        assert.equal((await a.route.created(await dbPool(), a.tag)).length, a.route.perCall);
      }
    });
  }
});

/** A pool on the current boot's database (the URL changes with each boot: the embedded port is free-picked). */
let pool: { url: string; pool: pg.Pool } | undefined;
async function dbPool(): Promise<pg.Pool> {
  if (pool?.url !== ready.databaseUrl) {
    const old = pool?.pool;
    pool = { url: ready.databaseUrl, pool: new pg.Pool({ connectionString: ready.databaseUrl, max: 2 }) };
    pool.pool.on('error', () => undefined);
    if (old) await old.end().catch(() => undefined);
  }
  return pool.pool;
}
after(async () => {
  await pool?.pool.end().catch(() => undefined);
});
