/**
 * The S3 enterprise API over real HTTP on the whole wired service: envelope and headers, key
 * management, screenings (CDD, M&A, get, JSON report, list), plans, quotas under concurrency, usage,
 * bad input, tenant isolation and the failed-authentication window (last: it blocks this address).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { call, envelopeData, s3Error } from './helpers';
import { sowCases } from './sow-cases';

let svc: TestService;
let key: string;
let accountId: string;
let otherKey: string;
let cddId: string;

async function setCounter(bucketPrefix: string, account: string, count: number) {
  const month = new Date().toISOString().slice(0, 7);
  const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));
  await svc.db.pool.query(
    `INSERT INTO limit_counters (bucket, window_start, window_end, count) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bucket, window_start) DO UPDATE SET count = EXCLUDED.count`,
    [`${bucketPrefix}:${account}:${month}`, start, end, count],
  );
}

before(async () => {
  svc = await startTestService();
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  key = (await svc.createKey(accountId, 's3', { userId: account.userId })).key;
  const other = await svc.createAccount('enterprise');
  otherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
});
after(async () => {
  await svc?.stop();
});

describe('S3 keys', () => {
  it('creates a key shown once, lists it masked, revokes it; the revoked key gets 401', async () => {
    const created = envelopeData(await call(svc.url, 'POST', '/api/v1/keys', { key, body: { name: 'ci runner' } }), 201);
    assert.match(created.key, /^svcc_live_[0-9a-f]{40}$/);
    assert.equal(created.name, 'ci runner');
    assert.equal(created.key_prefix, created.key.slice(0, 14));
    const listed = envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key }), 200);
    const mine = listed.find((k: any) => k.id === created.id);
    assert.deepEqual(Object.keys(mine).sort(), ['created_at', 'id', 'key_prefix', 'last_used_at', 'name']);
    assert.ok(!JSON.stringify(listed).includes(created.key), 'the full key is never listed');
    // The new key works, then stops working once revoked.
    envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key: created.key }), 200);
    const revoked = envelopeData(await call(svc.url, 'DELETE', `/api/v1/keys/${created.id}`, { key }), 200);
    assert.ok(revoked.revoked_at);
    s3Error(await call(svc.url, 'GET', '/api/v1/keys', { key: created.key }), 401);
    const after = envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key }), 200);
    assert.ok(!after.some((k: any) => k.id === created.id), 'revoked keys are not listed');
  });

  it('allows at most 5 active keys per user, also when creations race', async () => {
    const account = await svc.createAccount('professional');
    const first = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
    const raced = await Promise.all(Array.from({ length: 8 }, (_, i) => call(svc.url, 'POST', '/api/v1/keys', { key: first, body: { name: `race ${i}` } })));
    const created = raced.filter((a) => a.status === 201).length;
    assert.ok(created >= 1 && created <= 4, `created ${created}`);
    for (const refused of raced.filter((a) => a.status !== 201)) assert.ok([400, 409].includes(refused.status), JSON.stringify(refused.body));
    for (let i = 1 + created; i < 5; i++) envelopeData(await call(svc.url, 'POST', '/api/v1/keys', { key: first, body: { name: `k${i}` } }), 201);
    const sixth = await call(svc.url, 'POST', '/api/v1/keys', { key: first, body: { name: 'k6' } });
    s3Error(sixth, 400);
    assert.match(sixth.body.error, /5 active/);
    assert.equal(envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key: first }), 200).length, 5);
  });

  it('refuses bad key input in the S3 shape and writes nothing', async () => {
    const before = envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key }), 200).length;
    for (const body of [{}, { name: 42 }, { name: '' }, { name: 'x'.repeat(101) }, { name: 'bad\u0000name' }, { name: 'ok', extra: true }, []]) {
      const answer = await call(svc.url, 'POST', '/api/v1/keys', { key, body });
      s3Error(answer, 400);
    }
    s3Error(await call(svc.url, 'POST', '/api/v1/keys', { key, raw: '{"name": ' }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/keys', { key, raw: JSON.stringify({ name: 'x'.repeat(300_000) }) }), 413);
    s3Error(await call(svc.url, 'DELETE', '/api/v1/keys/abc', { key }), 400);
    assert.equal(envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key }), 200).length, before);
  });

  it("cannot revoke another tenant's key (404) and leaves it working", async () => {
    const theirs = envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key: otherKey }), 200)[0];
    s3Error(await call(svc.url, 'DELETE', `/api/v1/keys/${theirs.id}`, { key }), 404);
    envelopeData(await call(svc.url, 'GET', '/api/v1/keys', { key: otherKey }), 200);
  });
});

describe('S3 screenings', () => {
  it('runs a CDD screening and answers in the envelope with the uuid id', async () => {
    const data = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/cdd', { key, body: { query: 'Vladimir Putin', entity_type: 'individual', jurisdiction: 'RU' } }), 201);
    assert.match(data.id, /^[0-9a-f-]{36}$/);
    assert.equal(typeof data.screening_number, 'number');
    assert.equal(data.screening_type, 'CDD');
    assert.equal(data.status, 'completed');
    assert.ok(data.sanctions_hits >= 1);
    cddId = data.id;
    const detail = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${cddId}`, { key }), 200);
    assert.equal(detail.id, cddId);
    assert.match(detail.hits.sanctions[0].entity_name, /PUTIN/i);
    const report = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${cddId}/report`, { key }), 200);
    assert.equal(report.screening.uuid, cddId);
    assert.equal(report.sections.length, 13);
  });

  it('one hit per real-world entity, with its DOB and every list row; a missing entity_type hides nothing', async () => {
    // an account of its own: the usage figures of the shared key are asserted further down
    const own = await svc.createAccount('enterprise');
    const key = (await svc.createKey(own.accountId, 's3', { userId: own.userId })).key;
    const putin = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/cdd', { key, body: { query: 'Vladimir Putin', entity_type: 'individual' } }), 201);
    const putinDetail = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${putin.id}`, { key }), 200);
    const putinHits = putinDetail.hits.sanctions.filter((h: { entity_name: string }) => /putin/i.test(h.entity_name));
    assert.equal(putinHits.length, 1, JSON.stringify(putinDetail.hits.sanctions.map((h: { entity_id: string }) => h.entity_id)));
    assert.ok(putinHits[0].date_of_birth.includes('1952-10-07'));
    assert.ok(putinHits[0].sources.length >= 1 && putinHits[0].sources.every((s: { list_published_at: string | null }) => s.list_published_at));

    const sber = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/cdd', { key, body: { query: 'Sberbank', entity_type: 'company' } }), 201);
    // Each separately designated Sberbank entity once (the 2024 SDN and the UK list name many subsidiaries), never one per list row.
    assert.ok(sber.sanctions_hits >= 1 && sber.sanctions_hits <= 25, `Sberbank counts entities, not list rows: ${sber.sanctions_hits}`);
    const sberDetail = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${sber.id}`, { key }), 200);
    assert.equal(sberDetail.hits.sanctions.length, sber.sanctions_hits);
    const report = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${sber.id}/report`, { key }), 200);
    const section = report.sections.find((x: { key: string }) => x.key === 'sanctions');
    assert.equal(section.content.count, sber.sanctions_hits, 'the JSON report counts the same entities');
    assert.ok(section.content.hits.some((h: { sources?: unknown[] }) => (h.sources ?? []).length >= 4), 'the bank carries all its list rows');

    // "Banco Nacional de Cuba": no type, as a company, and (marked) as an individual, a sanctions hit every time
    for (const [body, mismatch] of [[{}, false], [{ entity_type: 'company' }, false], [{ entity_type: 'individual' }, true]] as const) {
      const data = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/cdd', { key, body: { query: 'Banco Nacional de Cuba', ...body } }), 201);
      assert.ok(data.sanctions_hits >= 1, JSON.stringify(body));
      const detail = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${data.id}`, { key }), 200);
      const bank = detail.hits.sanctions.find((h: { entity_name: string }) => h.entity_name === 'BANCO NACIONAL DE CUBA');
      assert.ok(bank && bank.match_strength === 'confirmed', JSON.stringify(body));
      assert.equal(Boolean(bank.type_mismatch), mismatch, JSON.stringify(body));
    }
  });

  it("answers 404 for another tenant's screening and 400 for a malformed id", async () => {
    s3Error(await call(svc.url, 'GET', `/api/v1/screening/${cddId}`, { key: otherKey }), 404);
    s3Error(await call(svc.url, 'GET', `/api/v1/screening/${cddId}/report`, { key: otherKey }), 404);
    s3Error(await call(svc.url, 'GET', '/api/v1/screening/42', { key }), 400);
    s3Error(await call(svc.url, 'GET', "/api/v1/screening/'%20OR%201=1--", { key }), 400);
  });

  it('M&A defaults entity_type to company; other plans get 403', async () => {
    const data = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/ma', { key, body: { query: 'Thistlewood Holdings', jurisdiction: 'GB' } }), 201);
    assert.equal(data.screening_type, 'MA');
    assert.equal(data.entity_type, 'company');
    assert.equal(typeof data.ma_analysis, 'string');
    const pro = await svc.createAccount('professional');
    const proKey = (await svc.createKey(pro.accountId, 's3', { userId: pro.userId })).key;
    s3Error(await call(svc.url, 'POST', '/api/v1/screening/ma', { key: proKey, body: { query: 'Thistlewood Holdings' } }), 403);
  });

  it('refuses bad screening input (missing, wrong type, oversized, hostile) and appends nothing', async () => {
    const before = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?limit=100', { key }), 200).pagination.total;
    for (const body of [{}, { query: 7 }, { query: 'a' }, { query: 'x'.repeat(201) }, { query: 'Robert\u0007Tables' }, { query: 'Ok Name', entity_type: 'alien' }, { query: 'Ok Name', hack: 1 }]) {
      const answer = await call(svc.url, 'POST', '/api/v1/screening/cdd', { key, body });
      s3Error(answer, 400);
      assert.ok(Array.isArray(answer.body.details) || typeof answer.body.details === 'object');
    }
    s3Error(await call(svc.url, 'POST', '/api/v1/screening/ma', { key, body: { target_name: 'Old S1 Field' } }), 400);
    // names that name nobody: only punctuation, only a legal form or a title
    for (const [path, query] of [['cdd', '...!?'], ['cdd', 'LLC'], ['edd', 'Ltd.'], ['ma', 'S.A.'], ['ma', 'Co. Ltd'], ['cdd', 'Mr.']] as const) {
      const answer = await call(svc.url, 'POST', `/api/v1/screening/${path}`, { key, body: { query } });
      s3Error(answer, 400);
      assert.match(JSON.stringify(answer.body), /query: (must contain letters|names only a legal form)/, `${path} ${query}`);
    }
    const afterTotal = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?limit=100', { key }), 200).pagination.total;
    assert.equal(afterTotal, before);
  });

  it('accepts a legacy svc_ key of the account; the S1 API finds the same screening by its number', async () => {
    const legacy = await svc.createKey(accountId, 's1');
    const listed = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?type=cdd', { key: legacy.key }), 200);
    const mine = listed.screenings.find((s: any) => s.id === cddId);
    assert.ok(mine);
    const s1 = await fetch(`${svc.url}/api/v1/screening/${mine.screening_number}`, { headers: { authorization: `Bearer ${legacy.key}` } });
    assert.equal(s1.status, 200);
    const body = (await s1.json()) as any;
    assert.equal(body.success, true);
    assert.equal(body.screening.id, mine.screening_number);
    assert.equal(body.screening.search_query, mine.query);
  });

  it('lists own screenings with pagination and a type filter', async () => {
    const all = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?page=1&limit=1', { key }), 200);
    assert.equal(all.screenings.length, 1);
    assert.ok(all.pagination.total >= 2);
    assert.equal(all.pagination.pages, all.pagination.total);
    const cdd = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?type=CDD', { key }), 200);
    assert.ok(cdd.screenings.every((s: any) => s.screening_type === 'CDD'));
    assert.ok(cdd.screenings.some((s: any) => s.id === cddId));
    const theirs = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings', { key: otherKey }), 200);
    assert.ok(!theirs.screenings.some((s: any) => s.id === cddId));
    s3Error(await call(svc.url, 'GET', '/api/v1/screenings?limit=101', { key }), 400);
    s3Error(await call(svc.url, 'GET', '/api/v1/screenings?type=XYZ', { key }), 400);
  });

  it('reports per-key usage today and this month from the event history', async () => {
    const usage = envelopeData(await call(svc.url, 'GET', '/api/v1/usage', { key }), 200);
    const mine = usage.keys.find((k: any) => k.today.total > 0);
    assert.ok(mine, JSON.stringify(usage));
    assert.equal(mine.today.by_endpoint['POST /api/v1/screening/cdd'], 1, JSON.stringify(usage));
    assert.equal(mine.today.by_screening_type.MA, 1);
    assert.equal(mine.month.total, mine.today.total);
    assert.equal(usage.plan, 'enterprise');
    assert.equal(usage.quota.requests.limit, 1000);
    assert.equal(usage.quota.requests.remaining, usage.quota.requests.limit - usage.quota.requests.used);
    assert.equal(usage.quota.offshore_leak_checks.used, 2, 'the CDD and the M&A screening each used one offshore-leak check');
  });
});

describe('S3 plans and quotas', () => {
  it('Starter has no API access (403)', async () => {
    const starter = await svc.createAccount('starter');
    const starterKey = (await svc.createKey(starter.accountId, 's3', { userId: starter.userId })).key;
    s3Error(await call(svc.url, 'GET', '/api/v1/keys', { key: starterKey }), 403);
  });

  it('counts the monthly request quota exactly under concurrency, then answers 429 {message}', async () => {
    const pro = await svc.createAccount('professional');
    const proKey = (await svc.createKey(pro.accountId, 's3', { userId: pro.userId })).key;
    const first = await call(svc.url, 'GET', '/api/v1/keys', { key: proKey });
    assert.equal(first.headers.get('ratelimit-limit'), '250');
    assert.equal(first.headers.get('ratelimit-remaining'), '249');
    await setCounter('s3:requests', pro.accountId, 240);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(svc.url, 'GET', '/api/v1/keys', { key: proKey })));
    assert.equal(answers.filter((a) => a.status === 200).length, 10);
    for (const refused of answers.filter((a) => a.status !== 200)) s3Error(refused, 429);
    const { rows } = await svc.db.pool.query(`SELECT count FROM limit_counters WHERE bucket LIKE $1`, [`s3:requests:${pro.accountId}:%`]);
    assert.equal(rows[0].count, 250);
  });

  // The offshore-leak checks (100 a month on Enterprise) limit that search, not screenings: offshore-leak-quota.test.ts.
});

sowCases(() => svc);

describe('S3 authentication', () => {
  it('401 for a missing or unknown key, then 429 once 10 failures from one address fall in 15 minutes', async () => {
    await svc.db.pool.query(`DELETE FROM limit_counters WHERE bucket LIKE 's3:authfail:%'`);
    s3Error(await call(svc.url, 'GET', '/api/v1/keys'), 401);
    s3Error(await call(svc.url, 'GET', '/api/v1/keys', { key: 'svcc_live_' + '0'.repeat(40) }), 401);
    s3Error(await call(svc.url, 'GET', '/api/v1/keys', { key: 'not a key' }), 401);
    for (let i = 0; i < 7; i++) s3Error(await call(svc.url, 'GET', '/api/v1/usage', { key: `svcc_live_${'a'.repeat(39)}${i}` }), 401);
    s3Error(await call(svc.url, 'GET', '/api/v1/keys', { key: 'svcc_live_' + 'f'.repeat(40) }), 429);
    // While the window is full even a valid key from this address waits.
    s3Error(await call(svc.url, 'GET', '/api/v1/keys', { key }), 429);
  });
});
