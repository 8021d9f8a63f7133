/**
 * Person checks end to end over real HTTP on the whole wired service (OFAC SDN list only, to keep
 * the list load short): validation and FCRA consent, the seven phases, corroboration, honest
 * coverage, tenant isolation, masking, the list and the person_check.completed webhook.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let key: string;
let otherKey: string;
let owner: { email: string; password: string };

before(async () => {
  svc = await startTestService({ env: { LISTS_ONLY: 'ofac_sdn', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const account = await svc.createAccount('enterprise');
  owner = account;
  key = (await svc.createKey(account.accountId, 's1', { webhookUrl: 'https://127.0.0.1:9/hooks/person-checks' })).key;
  const other = await svc.createAccount('enterprise');
  otherKey = (await svc.createKey(other.accountId, 's1')).key;
});
after(async () => {
  await svc?.stop();
});

async function call(method: string, path: string, body?: unknown, bearer = key) {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

async function personCheckEventCount(): Promise<number> {
  const { rows } = await svc.service.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM events WHERE stream_name LIKE 'person-check-%'`);
  return Number(rows[0]!.n);
}

const valid = { full_name: 'Theodora Quillfeather', purpose: 'employment', fcra_consent: true };

test('refused input gets a clear S1 error and writes no event', async () => {
  const before = await personCheckEventCount();
  const cases: [unknown, number, RegExp][] = [
    [{ ...valid, fcra_consent: false }, 422, /fcra_consent: must be true/],
    [{ ...valid, fcra_consent: 'true' }, 400, /fcra_consent/],
    [{ full_name: 'Jane Roe', fcra_consent: true }, 400, /purpose: is required/],
    [{ ...valid, purpose: 'curiosity' }, 422, /purpose/],
    [{ ...valid, date_of_birth: '1980-02-30' }, 422, /date_of_birth: must be a real calendar date/],
    [{ ...valid, date_of_birth: '2999-01-01' }, 422, /date_of_birth: must not be in the future/],
    [{ ...valid, date_of_birth: '12/05/1980' }, 422, /date_of_birth/],
    [{ ...valid, full_name: '<script>alert(1)</script>' }, 422, /full_name: must contain only letters/],
    [{ ...valid, full_name: "Robert'); DROP TABLE events;--" }, 422, /full_name/],
    [{ ...valid, full_name: 'Jane\u0000Roe' }, 422, /control characters/],
    [{ ...valid, full_name: 'x'.repeat(500) }, 422, /full_name/],
    [{ ...valid, full_name: 'LLC' }, 422, /full_name: names only a legal form/],
    [{ ...valid, full_name: 'Mr. Ltd.' }, 422, /full_name: names only a legal form/],
    [{ ...valid, full_name: '' }, 422, /full_name/],
    [{ ...valid, locations: ['Narnia'] }, 422, /locations\.0: must be a US state/],
    [{ ...valid, associated_domain: 'http://evil.example/x' }, 422, /associated_domain: must be a hostname/],
    [{ ...valid, admin: true }, 400, /Unrecognized key|admin/],
    ['{"full_name":', 400, /not valid JSON/],
  ];
  for (const [body, status, message] of cases) {
    const res = await call('POST', '/api/v1/person-checks', body);
    assert.equal(res.status, status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
    assert.equal(res.body.success, false);
    assert.equal(res.body.code, status === 400 ? 'invalid_request' : 'validation_failed');
    assert.match(res.body.message, message);
  }
  assert.equal(await personCheckEventCount(), before, 'no refused request wrote an event');
});

test('a sanctioned person found with name and date of birth is a red flag; the result is adverse, confidence honest about coverage', async () => {
  const res = await call('POST', '/api/v1/person-checks', { full_name: 'Ramzan Kadyrov', purpose: 'business_due_diligence', fcra_consent: true, date_of_birth: '1976-10-05', locations: ['Russia'] });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const pc = res.body.person_check;
  assert.match(pc.id, /^SVC-[0-9a-f]{8}-P$/);
  assert.equal(pc.status, 'completed');
  assert.equal(pc.result, 'adverse_found');
  assert.equal(pc.confidence, 'medium', 'most sources are not searched in this deployment');
  assert.ok(pc.red_flag_count >= 1);
  const flag = pc.findings.find((f: any) => f.severity === 'red_flag');
  assert.equal(flag.category, 'sanctions');
  assert.equal(flag.corroboration, 'name_dob');
  assert.match(flag.source.entity_id, /^ofac_sdn:/);
  assert.equal(flag.source.name, 'OFAC SDN List');
  assert.ok(Date.parse(flag.source.retrieved_at) > 0);
  assert.equal(flag.source.entity_id, 'ofac_sdn:23343');
  assert.match(flag.matched_name, /KADYROV/i);
  assert.match(flag.why, /date of birth 1976-\*\*-\*\* equals listed 05 Oct 1976/);
  assert.doesNotMatch(JSON.stringify(pc), /1976-10-05/, 'the date of birth is shown as its year only');
  assert.equal(pc.red_flag_count, pc.findings.filter((f: any) => f.severity === 'red_flag').length);
  assert.equal(pc.sources_total, 14, 'phases 2-6 without whois (no associated_domain)');
  assert.equal(pc.sources_checked, 2);
  const courts = pc.sources.find((s: any) => s.source === 'federal_courts');
  assert.equal(courts.searched, false);
  assert.match(courts.error, /not configured/);
  const lists = pc.sources.find((s: any) => s.source === 'pep_sanctions');
  assert.equal(lists.searched, true);
  assert.match(lists.notes[0], /PEP lists not loaded/, 'a part of a source that was not loaded is said so');
  assert.equal(pc.consent.fcra_consent, true);
  assert.equal(pc.consent.permissible_purpose, 'business_due_diligence');
  assert.equal(pc.subject.date_of_birth, '1976-**-**');
  assert.ok(pc.verdict_reasons.length >= 2);

  const got = await call('GET', `/api/v1/person-checks/${pc.id}`);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body.person_check.findings, pc.findings);
  assert.equal((await call('GET', `/api/v1/person-checks/${pc.id}`, undefined, otherKey)).status, 404, "another account's id is 404");
  assert.equal((await call('GET', '/api/v1/person-checks/SVC-00000000-P')).status, 404);
  assert.equal((await call('GET', '/api/v1/person-checks/42')).status, 400);
});

test('a listed person is found under a nickname (Sasha → Aleksandr/Alyaksandr)', async () => {
  const res = await call('POST', '/api/v1/person-checks', { full_name: 'Sasha Lukashenko', purpose: 'employment', fcra_consent: true, date_of_birth: '1954-08-30' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const finding = res.body.person_check.findings.find((f: any) => f.source.entity_id === 'ofac_sdn:9760');
  assert.ok(finding, JSON.stringify(res.body.person_check.findings));
  assert.equal(finding.severity, 'red_flag');
  assert.equal(finding.corroboration, 'name_dob');
  assert.match(finding.why, /variant of the given name "Sasha"/);
});

test('a same-name person with a different date of birth is name-only and not a red flag; nothing adverse is never "clean" at this coverage', async () => {
  const res = await call('POST', '/api/v1/person-checks', { full_name: 'Ramzan Kadyrov', purpose: 'employment', fcra_consent: true, date_of_birth: '1988-03-03' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const pc = res.body.person_check;
  assert.ok(pc.findings.length >= 1);
  for (const f of pc.findings) {
    assert.equal(f.corroboration, 'name_only');
    assert.notEqual(f.severity, 'red_flag');
  }
  assert.equal(pc.red_flag_count, 0);
  assert.equal(pc.result, 'inconclusive');
  assert.equal(pc.confidence, 'low');
});

test('identifiers are stored and shown masked; the list has the S1 envelope with a result filter', async () => {
  const res = await call('POST', '/api/v1/person-checks', { ...valid, identifiers: [{ type: 'ssn', value: '123-45-6789' }], locations: ['CA', 'Canada'] });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const pc = res.body.person_check;
  assert.deepEqual(pc.subject.identifiers, [{ type: 'ssn', value: '*****6789' }]);
  assert.equal(pc.result, 'inconclusive');
  assert.equal(pc.findings.length, 0);
  const courts = pc.sources.find((s: any) => s.source === 'state_court_portals');
  assert.equal(courts.searched, false);
  assert.equal(courts.links[0].label, 'California state courts');
  const { rows } = await svc.service.pool.query(`SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%12345%' OR data::text LIKE '%123-45%'`);
  assert.equal(rows[0].n, 0, 'the full identifier never reaches the store');

  await svc.service.runner!.caughtUp();
  const list = await call('GET', '/api/v1/person-checks?limit=2');
  assert.equal(list.status, 200);
  assert.equal(list.body.success, true);
  assert.equal(list.body.person_checks.length, 2);
  assert.deepEqual(Object.keys(list.body.pagination).sort(), ['limit', 'page', 'pages', 'total']);
  assert.ok(list.body.pagination.total >= 4);
  const adverse = await call('GET', '/api/v1/person-checks?result=adverse_found&limit=100');
  assert.ok(adverse.body.person_checks.length >= 2);
  assert.ok(adverse.body.person_checks.every((p: any) => p.result === 'adverse_found'));
  assert.equal((await call('GET', '/api/v1/person-checks?limit=101')).status, 422);
  assert.equal((await call('GET', '/api/v1/person-checks?result=bad')).status, 422);
  const others = await call('GET', '/api/v1/person-checks', undefined, otherKey);
  assert.equal(others.body.pagination.total, 0, 'no other account sees these checks');
});

test('completion enqueues the signed person_check.completed webhook for the key that asked', async () => {
  await svc.service.runner!.caughtUp();
  const { rows } = await svc.service.pool.query<{ body: string }>(
    `SELECT convert_from(body, 'UTF8') AS body FROM webhook_outbox WHERE event_type = 'person_check.completed'`,
  );
  assert.ok(rows.length >= 4, `outbox rows: ${rows.length}`);
  const payload = JSON.parse(rows[0]!.body);
  assert.equal(payload.event, 'person_check.completed');
  assert.match(payload.person_check_id, /^SVC-[0-9a-f]{8}-P$/);
  assert.equal(payload.person_check.status, 'completed');
});

test('the OpenAPI document describes the person-check endpoints', async () => {
  const doc = (await (await fetch(`${svc.url}/api/v1/openapi.json`)).json()) as any;
  assert.ok(doc.paths['/api/v1/person-checks'].post);
  assert.ok(doc.paths['/api/v1/person-checks/{id}'].get);
  assert.ok(doc.paths['/api/person-checks/{id}/pdf'].get);
  assert.ok(doc.components.schemas.S1PersonCheckRequest.required.includes('fcra_consent'));
});

test('the portal form runs on the wired service with the portal session, and its PDF downloads', async () => {
  const signIn = await fetch(`${svc.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner.email, password: owner.password }) });
  assert.equal(signIn.status, 200);
  const signedIn = (await signIn.json()) as any;
  const token = (signedIn.data?.token ?? signedIn.token) as string;
  assert.equal(token.split('.').length, 3, 'a JWT');
  const portal = (method: string, path: string, body?: unknown) =>
    fetch(`${svc.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const created = await portal('POST', '/api/person-checks', { first_name: 'Bill', last_name: 'Quillfeather', locations: ['TX'], purpose: 'employment', fcra_consent: true });
  assert.equal(created.status, 201, await created.clone().text());
  const pc = ((await created.json()) as any).person_check;
  assert.equal(pc.confidence_level, 'low');
  const viaS1 = await call('GET', `/api/v1/person-checks/${pc.id}`);
  assert.equal(viaS1.status, 200, 'one engine and one stream type: the S1 key of the same account reads it');
  const pdf = await portal('GET', `/api/person-checks/${pc.id}/pdf`);
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
  assert.equal((await fetch(`${svc.url}/api/person-checks`)).status, 401);
});
