/**
 * The crash window of an idempotent create, for real: the command appends, then the step that records
 * the answer fails (a PostgreSQL trigger refuses exactly that UPDATE of the key's record, as a process
 * dying there would leave it: a reservation with its lease, no answer). The lease then passes (the
 * injected clock) and the client retries with the same key and body. Before the key was bound to the
 * resource, that retry ran the command again; now it must find the resource the first attempt created
 * and answer it: one resource, the same id, no new caller event, one usage count, and one webhook at a
 * real HTTPS receiver that verifies the HMAC signature.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../../src/config/config';
import { startService, type RunningService } from '../../../src/bootstrap/service';
import { createLogger } from '../../../src/shared/logger';
import type { Clock } from '../../../src/shared/clock';
import { accountHelpers } from '../../support/service';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { testIndexCacheEnv } from '../../support/index-cache';
import { startHttpsReceiver, type HttpsReceiver } from '../../support/https-receiver';
import { rawRequest, type RawAnswer } from '../../support/raw-http';
import { enrolOnEverySurface } from '../../support/surface-enrolment';

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
/** The service's lease: max(60 s, 2 × SCREENING_WAIT_MS) with the default wait. */
const LEASE_MS = 60_000;

let db: TestDatabase;
let service: RunningService;
let url: string;
const receivers: Record<'s1' | 's2' | 's3', HttpsReceiver> = {} as never;
let helpers: ReturnType<typeof accountHelpers>;
let s1Key: string;
let s2Key: string;
let s3Key: string;
let portalToken: string;

async function callerEvents(): Promise<number> {
  return (await service.store.readAll()).filter((e) => e.metadata.actor?.surface !== 'system').length;
}

/** The next answer recorded for this key fails, as if the process died between the append and the record. */
async function crashBeforeRecording(key: string): Promise<void> {
  await db.pool.query('INSERT INTO test_crash_keys (idempotency_key) VALUES ($1)', [key]);
}

async function recordingWorksAgain(key: string): Promise<void> {
  await db.pool.query('DELETE FROM test_crash_keys WHERE idempotency_key = $1', [key]);
}

async function reservation(key: string): Promise<{ response_status: number | null; bound: Record<string, string> } | undefined> {
  const { rows } = await db.pool.query('SELECT response_status, bound FROM idempotency_keys WHERE idempotency_key = $1', [key]);
  return rows[0];
}

async function usageToday(): Promise<number> {
  const usage = await rawRequest(url, 'GET', '/api/v1/usage', { headers: { 'x-api-key': s3Key } });
  assert.equal(usage.status, 200, usage.text);
  return (usage.body.data.keys as { today: { total: number } }[]).reduce((sum, k) => sum + k.today.total, 0);
}

async function deliveriesOnce(receiver: HttpsReceiver, event: string, matches: (json: any) => boolean): Promise<void> {
  const of = () => receiver.requests.filter((r) => r.signatureValid && r.json?.event === event && matches(r.json));
  const deadline = Date.now() + 20_000;
  while (of().length === 0) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${event}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 750));
  assert.equal(of().length, 1, `one ${event} delivery`);
}

interface CrashCase {
  name: string;
  path: string;
  headers: () => Promise<Record<string, string>>;
  body: unknown;
  /** The created resource's id(s) in an answer. */
  idOf(body: any): unknown;
  after?(first: RawAnswer, retried: RawAnswer): Promise<void>;
}

const subject = (last: string) => ({ first_name: 'Margaret', last_name: last, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true } });

const cases: CrashCase[] = [
  {
    name: 'S1 CDD screening',
    path: '/api/v1/screening/cdd',
    headers: async () => ({ authorization: `Bearer ${s1Key}` }),
    body: { query: 'Octavia Pemberton-Crash' },
    idOf: (b) => b.screening.id,
    after: async (first) => deliveriesOnce(receivers.s1, 'cdd.completed', (j) => j.screening_id === first.body.screening.id),
  },
  {
    name: 'S3 CDD screening (usage counted once)',
    path: '/api/v1/screening/cdd',
    headers: async () => ({ 'x-api-key': s3Key }),
    body: { query: 'Octavia Pemberton-Crash' },
    idOf: (b) => b.data.id,
    after: async (first) => deliveriesOnce(receivers.s3, 'screening.completed', (j) => j.screening_id === first.body.data.id),
  },
  {
    name: 'S1 person check',
    path: '/api/v1/person-checks',
    headers: async () => ({ authorization: `Bearer ${s1Key}` }),
    body: { full_name: 'Theodora Crashfeather', purpose: 'employment', fcra_consent: true },
    idOf: (b) => b.person_check.id,
    after: async (first) => deliveriesOnce(receivers.s1, 'person_check.completed', (j) => j.person_check_id === first.body.person_check.id),
  },
  {
    name: 'S2 subject check',
    path: '/api/v1/compliance/subject-checks',
    headers: async () => ({ authorization: `Bearer ${s2Key}` }),
    body: subject('Crashwood'),
    idOf: (b) => b.subject_check_id,
    after: async (first) => deliveriesOnce(receivers.s2, 'subject_check.processing', (j) => j.subject_check_id === first.body.subject_check_id),
  },
  {
    name: 'S2 subject-check batch',
    path: '/api/v1/compliance/subject-checks/batch',
    headers: async () => ({ authorization: `Bearer ${s2Key}` }),
    body: { subjects: [subject('Abercrash'), { first_name: '' }, subject('Bellcrash')] },
    idOf: (b) => ({ batch: b.batch_id, checks: b.results.map((r: any) => r.subject_check_id ?? r.status) }),
  },
  {
    name: 'portal screening',
    path: '/api/portal/screenings',
    headers: async () => ({ authorization: `Bearer ${portalToken}` }),
    body: { kind: 'cdd', query: 'Octavia Portal-Crash' },
    idOf: (b) => b.data.id,
  },
  {
    name: 'S2 webhook endpoint (the same signing secret again)',
    path: '/api/v1/compliance/webhooks',
    headers: async () => {
      const account = await helpers.createAccount('enterprise');
      return { authorization: `Bearer ${(await helpers.createKey(account.accountId, 's2')).key}` };
    },
    body: { url: 'https://127.0.0.1:9/hooks/crash' },
    idOf: (b) => ({ id: b.id, secret: b.signing_secret }),
  },
];

before(async () => {
  db = await createTestDatabase();
  for (const surface of ['s1', 's2', 's3'] as const) receivers[surface] = await startHttpsReceiver({ surface, secret: 'set-below' });
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LISTS_DIR: 'test/fixtures/lists',
    ...testIndexCacheEnv(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SECRETS_KEY: 'idempotency-crash-test-secrets-key-0123456789',
  };
  const config = loadConfig(env);
  service = await startService({
    config,
    logger: createLogger({ level: config.LOG_LEVEL }),
    http: true,
    agents: 'all',
    projections: true,
    clock,
    webhookCa: [receivers.s1.ca, receivers.s2.ca, receivers.s3.ca],
  });
  url = service.url!;
  // The fault: recording the answer (the reservation's UPDATE that sets response_status) fails for the
  // keys the test names, after the command has run, exactly where a crash would stop it.
  await db.pool.query(`
    CREATE TABLE test_crash_keys (idempotency_key text PRIMARY KEY);
    CREATE FUNCTION test_crash_before_recording() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.response_status IS NOT NULL AND EXISTS (SELECT 1 FROM test_crash_keys WHERE idempotency_key = NEW.idempotency_key) THEN
        RAISE EXCEPTION 'injected crash before the answer is recorded';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_crash_before_recording BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION test_crash_before_recording();`);
  const enrolled = await enrolOnEverySurface(service, receivers);
  ({ helpers, s1Key, s2Key, s3Key, portalToken } = enrolled);
});
after(async () => {
  await service?.stop();
  for (const r of Object.values(receivers)) await r?.close();
  await db?.drop();
});

describe('a crash between the append and the recorded answer, then a retry after the lease', () => {
  for (const c of cases) {
    it(`${c.name}: one resource, answered again`, async () => {
      const key = `crash-${randomUUID()}`;
      const headers = { ...(await c.headers()), 'idempotency-key': key };
      await crashBeforeRecording(key);
      const usageBefore = await usageToday();
      const beforeFirst = await callerEvents();
      const first = await rawRequest(url, 'POST', c.path, { headers, json: c.body });
      assert.ok(first.status >= 200 && first.status < 300, first.text);
      const created = (await callerEvents()) - beforeFirst;
      assert.ok(created > 0, 'the first attempt created its resource');
      const left = await reservation(key);
      assert.equal(left?.response_status, null, 'the answer was not recorded: the key is left reserved, as after a crash');
      assert.notDeepEqual(left?.bound, {}, 'the ids were bound before the append');

      await recordingWorksAgain(key);
      offsetMs += LEASE_MS + 1_000;
      const beforeRetry = await callerEvents();
      const retried = await rawRequest(url, 'POST', c.path, { headers, json: c.body });
      assert.equal(retried.status, first.status, retried.text);
      assert.deepEqual(c.idOf(retried.body), c.idOf(first.body), 'the retry answers the resource the first attempt created');
      assert.equal(await callerEvents(), beforeRetry, 'the retry appended nothing');
      assert.equal((await reservation(key))?.response_status, first.status, 'the retry recorded the answer');
      const replayed = await rawRequest(url, 'POST', c.path, { headers, json: c.body });
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.deepEqual(c.idOf(replayed.body), c.idOf(first.body));
      if (c.name.startsWith('S3')) assert.equal((await usageToday()) - usageBefore, 1, 'one screening billed');
      await c.after?.(first, retried);
    });
  }

  it('S3 API key: 409 in the envelope, the one key stays the only one (its secret is not stored)', async () => {
    const key = `crash-${randomUUID()}`;
    const headers = { 'x-api-key': s3Key, 'idempotency-key': key };
    await crashBeforeRecording(key);
    const first = await rawRequest(url, 'POST', '/api/v1/keys', { headers, json: { name: 'crash key' } });
    assert.equal(first.status, 201, first.text);
    await recordingWorksAgain(key);
    offsetMs += LEASE_MS + 1_000;
    const beforeRetry = await callerEvents();
    const retried = await rawRequest(url, 'POST', '/api/v1/keys', { headers, json: { name: 'crash key' } });
    assert.equal(retried.status, 409, retried.text);
    assert.match(retried.body.error, /revoke key/);
    assert.equal(await callerEvents(), beforeRetry, 'no second key');
    const list = await rawRequest(url, 'GET', '/api/v1/keys', { headers: { 'x-api-key': s3Key } });
    assert.equal(list.status, 200, list.text);
    assert.equal(JSON.stringify(list.body).split('"crash key"').length - 1, 1, 'one key named "crash key"');
  });
});
