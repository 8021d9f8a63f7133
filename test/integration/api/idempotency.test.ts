/**
 * Idempotency-Key on every create route, through the whole service (real PostgreSQL, real HTTP, the
 * in-process pipeline on the fixture lists, real HTTPS webhook receivers whose certificates the service's
 * dispatcher trusts). For each route: a retried create gives one resource and the first answer again;
 * the key with another body is refused in the surface's envelope; concurrent duplicates make one
 * resource; 24 h later (the injected clock) the key is forgotten. Where the resource sends a webhook,
 * each resource's webhook arrives once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config/config';
import { startService, type RunningService } from '../../../src/bootstrap/service';
import { createLogger } from '../../../src/shared/logger';
import type { Clock } from '../../../src/shared/clock';
import { IDEMPOTENT_CREATE_ROUTES } from '../../../src/api/http/idempotency';
import { accountHelpers } from '../../support/service';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { testIndexCacheEnv } from '../../support/index-cache';
import { startHttpsReceiver, type HttpsReceiver } from '../../support/https-receiver';
import { rawRequest, type RawAnswer } from '../../support/raw-http';
import { enrolOnEverySurface } from '../../support/surface-enrolment';

/** Real time plus an offset the test moves (everything in the service reads this clock). */
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

let db: TestDatabase;
let service: RunningService;
let url: string;
const receivers: Record<'s1' | 's2' | 's3', HttpsReceiver> = {} as never;
let helpers: ReturnType<typeof accountHelpers>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'idempotency-'));
let s1Key: string;
let s2Key: string;
let s3Key: string;
let portalToken: string;
/** The lists the import cases import into (created in before()). */
const importLists = { s3: '', portal: '' };
let sessionCookie: string;
let owner: { email: string; password: string };

async function signInS2(): Promise<string> {
  const session = await rawRequest(url, 'POST', '/api/account/session', { json: { email: owner.email, password: owner.password } });
  assert.equal(session.status, 200, session.text);
  return /auth_token=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
}

type Surface = 's1' | 's2' | 's2_session' | 's3' | 'portal';

interface CreateCase {
  name: string;
  surface: Surface;
  path: string;
  /** Credentials for one test (some cases need a fresh account each time). */
  auth(): Promise<Record<string, string>>;
  body: unknown;
  other: unknown;
  /** A body sent as is with this Content-Type (a batch upload), instead of JSON. */
  contentType?: string;
  /** The URL to post to when `path` is a template (`/api/v1/watchlists/{id}/imports`). */
  url?: () => string;
  /** What one creation adds to (default: the events appended on behalf of callers). */
  created?: () => Promise<number>;
  /** The created resource's id in the answer, and the webhook that each resource sends once. */
  webhook?: { receiver: 's1' | 's2' | 's3'; event: string; idOfAnswer(body: any): unknown; idOfDelivery(json: any): unknown };
}

const today = new Date().toISOString().slice(0, 10);
const sow = {
  query: 'Jane Marlowe',
  jurisdiction: 'GB',
  declared_source_of_wealth: 'Salary as a surgeon',
  wealth_sources: [{ type: 'employment', description: 'Consultant surgeon salary', amount: 600_000, currency: 'GBP', evidence: [{ type: 'payslip', issuer: 'St Example Hospital Trust', issued_on: today }] }],
};
const subject = (last: string) => ({ first_name: 'Margaret', last_name: last, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true } });

const cases: CreateCase[] = [
  {
    name: 'S1 CDD',
    surface: 's1',
    path: '/api/v1/screening/cdd',
    auth: async () => ({ authorization: `Bearer ${s1Key}` }),
    body: { query: 'Margaret Thistlewood' },
    other: { query: 'Margaret Thistlewood', entity_type: 'company' },
    webhook: { receiver: 's1', event: 'cdd.completed', idOfAnswer: (b) => b.screening.id, idOfDelivery: (j) => j.screening_id },
  },
  { name: 'S1 EDD', surface: 's1', path: '/api/v1/screening/edd', auth: async () => ({ authorization: `Bearer ${s1Key}` }), body: { query: 'Ada Quill' }, other: { query: 'Ada Quil' } },
  { name: 'S1 M&A', surface: 's1', path: '/api/v1/screening/ma', auth: async () => ({ authorization: `Bearer ${s1Key}` }), body: { target_name: 'Acme Widgets Ltd' }, other: { target_name: 'Acme Gadgets Ltd' } },
  {
    name: 'S1 person check',
    surface: 's1',
    path: '/api/v1/person-checks',
    auth: async () => ({ authorization: `Bearer ${s1Key}` }),
    body: { full_name: 'Theodora Quillfeather', purpose: 'employment', fcra_consent: true },
    other: { full_name: 'Theodora Quillfeathers', purpose: 'employment', fcra_consent: true },
    webhook: { receiver: 's1', event: 'person_check.completed', idOfAnswer: (b) => b.person_check.id, idOfDelivery: (j) => j.person_check_id },
  },
  {
    name: 'S3 CDD',
    surface: 's3',
    path: '/api/v1/screening/cdd',
    auth: async () => ({ 'x-api-key': s3Key }),
    body: { query: 'Margaret Thistlewood' },
    other: { query: 'Margaret Thistlewood', jurisdiction: 'GB' },
    webhook: { receiver: 's3', event: 'screening.completed', idOfAnswer: (b) => b.data.id, idOfDelivery: (j) => j.screening_id },
  },
  { name: 'S3 EDD', surface: 's3', path: '/api/v1/screening/edd', auth: async () => ({ 'x-api-key': s3Key }), body: { query: 'Ada Quill' }, other: { query: 'Ada Quills' } },
  { name: 'S3 M&A', surface: 's3', path: '/api/v1/screening/ma', auth: async () => ({ 'x-api-key': s3Key }), body: { query: 'Acme Widgets Ltd' }, other: { query: 'Acme Gadgets Ltd' } },
  { name: 'S3 SOW', surface: 's3', path: '/api/v1/screening/sow', auth: async () => ({ 'x-api-key': s3Key }), body: sow, other: { ...sow, jurisdiction: 'FR' } },
  { name: 'S3 API key', surface: 's3', path: '/api/v1/keys', auth: async () => ({ 'x-api-key': s3Key }), body: { name: 'ci key' }, other: { name: 'another key' } },
  {
    name: 'S2 subject check',
    surface: 's2',
    path: '/api/v1/compliance/subject-checks',
    auth: async () => ({ authorization: `Bearer ${s2Key}` }),
    body: subject('Thistlewood'),
    other: subject('Thistlewoods'),
    webhook: { receiver: 's2', event: 'subject_check.processing', idOfAnswer: (b) => b.subject_check_id, idOfDelivery: (j) => j.subject_check_id },
  },
  {
    name: 'S2 batch',
    surface: 's2',
    path: '/api/v1/compliance/subject-checks/batch',
    auth: async () => ({ authorization: `Bearer ${s2Key}` }),
    body: { subjects: [subject('Abernathy'), subject('Bellweather')] },
    other: { subjects: [subject('Abernathy')] },
  },
  {
    name: 'S2 webhook endpoint',
    surface: 's2',
    path: '/api/v1/compliance/webhooks',
    // One endpoint per account: a fresh account for every test, so each first request creates one.
    auth: async () => {
      const account = await helpers.createAccount('enterprise');
      return { authorization: `Bearer ${(await helpers.createKey(account.accountId, 's2')).key}` };
    },
    body: { url: 'https://127.0.0.1:9/hooks/a' },
    other: { url: 'https://127.0.0.1:9/hooks/b' },
  },
  { name: 'S2 account API key (session)', surface: 's2_session', path: '/api/account/api-keys', auth: async () => ({ cookie: `auth_token=${sessionCookie}` }), body: { name: 'ci' }, other: { name: 'ci 2' } },
  { name: 'portal screening', surface: 'portal', path: '/api/portal/screenings', auth: async () => ({ authorization: `Bearer ${portalToken}` }), body: { kind: 'cdd', query: 'Margaret Thistlewood' }, other: { kind: 'cdd', query: 'Margaret Thistlewoods' } },
  {
    name: 'portal person check',
    surface: 'portal',
    path: '/api/person-checks',
    auth: async () => ({ authorization: `Bearer ${portalToken}` }),
    body: { first_name: 'Theodora', last_name: 'Quillfeather', purpose: 'employment', fcra_consent: true },
    other: { first_name: 'Theodora', last_name: 'Quillfeathers', purpose: 'employment', fcra_consent: true },
  },
  {
    name: 'S3 batch job',
    surface: 's3',
    path: '/api/v1/batches',
    auth: async () => ({ 'x-api-key': s3Key }),
    contentType: 'text/csv',
    body: 'name,country\nMargaret Thistlewood,GB\n',
    other: 'name,country\nMargaret Thistlewood,FR\nAda Quill,GB\n',
    created: async () => (await service.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM batch_jobs')).rows[0]!.n,
  },
  { name: 'S3 watchlist', surface: 's3', path: '/api/v1/watchlists', auth: async () => ({ 'x-api-key': s3Key }), body: { name: 'Exits', severity: 'block', owner: 'fincrime' }, other: { name: 'Exits 2', severity: 'block', owner: 'fincrime' } },
  {
    name: 'portal watchlist',
    surface: 'portal',
    path: '/api/portal/watchlists',
    auth: async () => ({ authorization: `Bearer ${portalToken}` }),
    body: { name: 'Letters', severity: 'note', owner: 'mlro' },
    other: { name: 'Letters 2', severity: 'note', owner: 'mlro' },
  },
  {
    // The file is streamed: the key's request hash sees its type and length, the SHA-256 of the body
    // is computed as it streams and stored with the answer, and the route binds it with the import
    // options to the key. `other` is another file of the same type and the same length: 422, not a
    // replay. One creation = one recorded import (ListImported).
    name: 'S3 watchlist import',
    surface: 's3',
    path: '/api/v1/watchlists/{id}/imports',
    url: () => `/api/v1/watchlists/${importLists.s3}/imports?file_name=exits.csv`,
    auth: async () => ({ 'x-api-key': s3Key }),
    contentType: 'text/csv',
    body: 'full_name,date_of_birth\nMargaret Thistlewood,1971-04-03\n',
    other: 'full_name,date_of_birth\nMargaret Thistlewood,1971-04-04\n',
    created: () => importsInto(importLists.s3),
  },
  {
    name: 'portal watchlist import',
    surface: 'portal',
    path: '/api/portal/watchlists/{id}/imports',
    url: () => `/api/portal/watchlists/${importLists.portal}/imports`,
    auth: async () => ({ authorization: `Bearer ${portalToken}` }),
    contentType: 'application/x-ndjson',
    body: '{"full_name":"Ada Quill","date_of_birth":"1980-02-01"}\n',
    other: '{"full_name":"Ada Quill","date_of_birth":"1980-02-02"}\n',
    created: () => importsInto(importLists.portal),
  },
  {
    // Without entry_id the service draws the entry's id: bound to the key, so a retry adds nothing.
    name: 'S3 watchlist entry',
    surface: 's3',
    path: '/api/v1/watchlists/{id}/entries',
    url: () => `/api/v1/watchlists/${importLists.s3}/entries`,
    auth: async () => ({ 'x-api-key': s3Key }),
    body: { primary_name: 'Octavia Entrywright' },
    other: { primary_name: 'Octavia Entrywrights' },
    created: () => entriesIn(importLists.s3),
  },
  {
    name: 'portal watchlist entry',
    surface: 'portal',
    path: '/api/portal/watchlists/{id}/entries',
    url: () => `/api/portal/watchlists/${importLists.portal}/entries`,
    auth: async () => ({ authorization: `Bearer ${portalToken}` }),
    body: { primary_name: 'Octavia Entrywright', nationalities: ['GB'] },
    other: { primary_name: 'Octavia Entrywright', nationalities: ['FR'] },
    created: () => entriesIn(importLists.portal),
  },
  { name: 'portal API key', surface: 'portal', path: '/api/portal/keys', auth: async () => ({ authorization: `Bearer ${portalToken}` }), body: { surface: 's1', name: 'ci' }, other: { surface: 's1', name: 'ci 2' } },
];

/** Imports recorded on a list (ListImported events). */
async function importsInto(listId: string): Promise<number> {
  return (await service.store.readStream(`watchlist-${listId}`)).filter((e) => e.type === 'ListImported').length;
}

/** Entries added one by one to a list (EntryAdded events). */
async function entriesIn(listId: string): Promise<number> {
  return (await service.store.readStream(`watchlist-${listId}`)).filter((e) => e.type === 'EntryAdded').length;
}

/** Events appended on behalf of callers (the pipeline's own, actor system, keep arriving and are left out). */
async function callerEvents(): Promise<number> {
  return (await service.store.readAll()).filter((e) => e.metadata.actor?.surface !== 'system').length;
}

function post(c: CreateCase, headers: Record<string, string>, key: string, body: unknown): Promise<RawAnswer> {
  const target = c.url?.() ?? c.path;
  if (c.contentType) return rawRequest(url, 'POST', target, { headers: { ...headers, 'idempotency-key': key, 'content-type': c.contentType }, body: body as string });
  return rawRequest(url, 'POST', target, { headers: { ...headers, 'idempotency-key': key }, json: body });
}

/** The refusal in the surface's own envelope, with the stable code where the envelope has codes. */
function assertEnvelope(surface: Surface, answer: RawAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.text);
  switch (surface) {
    case 's1':
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.code, code);
      assert.equal(typeof answer.body.message, 'string');
      return;
    case 's2':
      assert.equal(answer.body.error.code, code);
      assert.equal(typeof answer.body.error.message, 'string');
      return;
    case 's2_session':
      assert.equal(answer.body.success, false);
      assert.equal(typeof answer.body.message, 'string');
      return;
    case 's3':
    case 'portal':
      assert.equal(typeof answer.body.error, 'string');
      return;
  }
}

const isCreated = (status: number) => status >= 200 && status < 300;

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
    SECRETS_KEY: 'idempotency-test-secrets-key-0123456789abcdef',
    // Batch uploads are stored under DATA_DIR/batches.
    DATA_DIR: dataDir,
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
  const enrolled = await enrolOnEverySurface(service, receivers);
  ({ helpers, s1Key, s2Key, s3Key, portalToken } = enrolled);
  const s3List = await rawRequest(url, 'POST', '/api/v1/watchlists', { headers: { 'x-api-key': s3Key }, json: { name: 'Import target', severity: 'review', owner: 'fincrime' } });
  assert.equal(s3List.status, 201, s3List.text);
  importLists.s3 = s3List.body.data.id;
  const portalList = await rawRequest(url, 'POST', '/api/portal/watchlists', { headers: { authorization: `Bearer ${portalToken}` }, json: { name: 'Portal import target', severity: 'note', owner: 'mlro' } });
  assert.equal(portalList.status, 201, portalList.text);
  importLists.portal = portalList.body.data.id;
  owner = enrolled.account;
  sessionCookie = await signInS2();
});
after(async () => {
  await service?.stop();
  for (const r of Object.values(receivers)) await r?.close();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('coverage', () => {
  it('covers every route that mounts the middleware', () => {
    assert.deepEqual([...new Set(cases.map((c) => c.path))].sort(), [...IDEMPOTENT_CREATE_ROUTES].sort());
  });
});

for (const c of cases) {
  describe(`Idempotency-Key on ${c.name} (POST ${c.path})`, () => {
    const key = `idem-${randomUUID()}`;
    let headers: Record<string, string>;
    let first: RawAnswer;
    let oneCreation = 0;
    const createdIds: unknown[] = [];

    it('a retried create gives one resource and the first answer again', async () => {
      headers = await c.auth();
      const count = c.created ?? callerEvents;
      const before = await count();
      first = await post(c, headers, key, c.body);
      assert.ok(isCreated(first.status), first.text);
      oneCreation = (await count()) - before;
      assert.ok(oneCreation > 0, 'the first request created something');
      const retried = await post(c, headers, key, c.body);
      assert.equal(retried.status, first.status);
      assert.deepEqual(retried.body, first.body);
      assert.equal(retried.headers['idempotent-replayed'], 'true');
      assert.equal(await count(), before + oneCreation, 'the retry created nothing');
      if (c.webhook) createdIds.push(c.webhook.idOfAnswer(first.body));
    });

    it('the same key with another body is refused in the envelope, nothing written', async () => {
      const count = c.created ?? callerEvents;
      const before = await count();
      assertEnvelope(c.surface, await post(c, headers, key, c.other), 422, 'idempotency_key_reused');
      assert.equal(await count(), before);
    });

    it('concurrent duplicates create one resource', async () => {
      const concurrentKey = `idem-${randomUUID()}`;
      const own = c.name === 'S2 webhook endpoint' ? await c.auth() : headers;
      const count = c.created ?? callerEvents;
      const before = await count();
      const answers = await Promise.all([0, 1, 2].map(() => post(c, own, concurrentKey, c.body)));
      const succeeded = answers.filter((a) => isCreated(a.status));
      assert.ok(succeeded.length >= 1, answers.map((a) => a.text).join('\n'));
      for (const a of answers) {
        if (isCreated(a.status)) assert.deepEqual(a.body, succeeded[0]!.body);
        else assertEnvelope(c.surface, a, 409, 'idempotency_key_in_progress');
      }
      assert.equal((await count()) - before, oneCreation, 'one creation for three requests');
      if (c.webhook) createdIds.push(c.webhook.idOfAnswer(succeeded[0]!.body));
    });

    if (c.webhook) {
      const hook = c.webhook;
      it(`each resource's ${hook.event} webhook arrives once`, async () => {
        const receiver = receivers[hook.receiver];
        const deliveriesOf = (id: unknown) => receiver.requests.filter((r) => r.signatureValid && r.json?.event === hook.event && hook.idOfDelivery(r.json) === id);
        const deadline = Date.now() + 20_000;
        while (!createdIds.every((id) => deliveriesOf(id).length > 0)) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${hook.event} of ${createdIds.join(', ')}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        // A duplicate would be another resource (another id) with its own webhook, or the same one twice.
        await new Promise((r) => setTimeout(r, 500));
        for (const id of createdIds) assert.equal(deliveriesOf(id).length, 1, `one ${hook.event} for ${String(id)}`);
      });
    }
  });
}

describe('24 hours later the keys are forgotten (injected clock)', () => {
  it('the same key and body create a new resource on every route', async () => {
    // Not the webhook endpoint: registering the same URL again is an update, not a creation.
    const expiring = cases.filter((c) => c.name !== 'S2 webhook endpoint');
    const keys = new Map<CreateCase, { key: string; headers: Record<string, string>; first: RawAnswer }>();
    for (const c of expiring) {
      const headers = await c.auth();
      const key = `idem-expiry-${randomUUID()}`;
      keys.set(c, { key, headers, first: await post(c, headers, key, c.body) });
    }
    offsetMs += 24 * 3600_000 - 60_000;
    const c0 = expiring[0]!;
    const stillKnown = await post(c0, keys.get(c0)!.headers, keys.get(c0)!.key, c0.body);
    assert.equal(stillKnown.headers['idempotent-replayed'], 'true', 'a minute before 24 h the answer is replayed');
    offsetMs += 61_000;
    // The S2 session may have expired by now: sign in again; the key belongs to the user, not the session.
    for (const c of expiring) {
      const { key, first } = keys.get(c)!;
      assert.ok(isCreated(first.status), `${c.name}: ${first.text}`);
      const headers = c.surface === 's2_session' ? { cookie: `auth_token=${await signInS2()}` } : keys.get(c)!.headers;
      const count = c.created ?? callerEvents;
      const before = await count();
      const again = await post(c, headers, key, c.body);
      assert.ok(isCreated(again.status), `${c.name}: ${again.text}`);
      assert.equal(again.headers['idempotent-replayed'], undefined, c.name);
      assert.ok((await count()) > before, `${c.name}: created again`);
    }
  });
});
