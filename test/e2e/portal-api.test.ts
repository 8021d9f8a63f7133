/**
 * The portal's console API (/api/portal/*) over real HTTP on the whole wired service, without a
 * browser: authentication, tenant isolation, validation, the progress stream's content and
 * reconnection, key caps, webhooks of each surface (secret once, test delivery, re-enable), and
 * the static front-end being served.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';
import { buildPortal } from '../support/browser';
import { disableEndpoint } from '../../src/webhooks/outbox';
import { checkSchema, operationFor } from '../support/openapi-conformance';
import { EventSourcedOffshoreLeakChecks } from '../../src/app/usage/offshore-leak-checks';
import { systemClock } from '../../src/shared/clock';

let svc: TestService;
let owner: { accountId: string; token: string };
let other: { accountId: string; token: string };
/** Every /api/portal answer the tests below receive, checked against the served OpenAPI document at the end. */
const answers: { method: string; path: string; status: number; contentType: string; body: unknown }[] = [];
/** Screening ids of the month's earlier offshore-leak checks (set up through the quota aggregate). */
let usedBy = 8_000_000;

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${svc.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function call(token: string | undefined, method: string, path: string, body?: unknown) {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as Record<string, any>) : {};
  if (path.startsWith('/api/portal/')) answers.push({ method, path: path.split('?')[0]!, status: res.status, contentType: res.headers.get('content-type') ?? '', body: parsed });
  return { status: res.status, headers: res.headers, body: parsed };
}

before(async () => {
  buildPortal();
  svc = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const a = await svc.createAccount('professional');
  const b = await svc.createAccount('enterprise');
  owner = { accountId: a.accountId, token: await signIn(a.email, a.password) };
  other = { accountId: b.accountId, token: await signIn(b.email, b.password) };
});
after(async () => {
  await svc?.stop();
});

test('the portal page is served by the service itself', async () => {
  const res = await fetch(`${svc.url}/`);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<title>Compliance screening portal<\/title>/);
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(script, 'the built bundle is referenced');
  const js = await fetch(`${svc.url}${script}`);
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type') ?? '', /javascript/);
});

test('every console route needs a portal session; a bad or API-key bearer gets 401 in the portal shape', async () => {
  for (const [method, path] of [
    ['GET', '/api/portal/overview'],
    ['GET', '/api/portal/keys'],
    ['GET', '/api/portal/webhooks'],
    ['GET', '/api/portal/screenings'],
    ['POST', '/api/portal/screenings'],
    ['GET', '/api/portal/subject-checks'],
    ['GET', '/api/portal/subject-checks/1'],
  ] as const) {
    const none = await call(undefined, method, path, method === 'POST' ? { query: 'x' } : undefined);
    assert.equal(none.status, 401, `${method} ${path}`);
    assert.equal(none.body.error, 'Authentication required');
    const forged = await call('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl', method, path);
    assert.equal(forged.status, 401);
  }
});

test('session status: 200 with signed_in false without a session (no 401 for the page to log), true with a bearer or the cookie; a parameter is a 400', async () => {
  const none = await call(undefined, 'GET', '/api/portal/session');
  assert.equal(none.status, 200);
  assert.deepEqual(none.body.data, { signed_in: false });
  assert.deepEqual((await call('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl', 'GET', '/api/portal/session')).body.data, { signed_in: false }, 'a forged token is no session');
  assert.deepEqual((await call(owner.token, 'GET', '/api/portal/session')).body.data, { signed_in: true });
  const byCookie = await fetch(`${svc.url}/api/portal/session`, { headers: { cookie: `token=${owner.token}` } });
  assert.deepEqual(((await byCookie.json()) as { data: unknown }).data, { signed_in: true });
  const withQuery = await call(owner.token, 'GET', '/api/portal/session?who=me');
  assert.equal(withQuery.status, 400);
  assert.equal(typeof withQuery.body.error, 'string');
});

test('overview: plan, quotas and rate limits of the signed-in account', async () => {
  const res = await call(owner.token, 'GET', '/api/portal/overview');
  assert.equal(res.status, 200);
  const o = res.body.data;
  assert.equal(o.account.id, owner.accountId);
  assert.equal(o.account.plan, 'professional');
  assert.deepEqual(
    o.quotas.map((q: any) => [q.quota, q.surface, q.limit, q.used, q.warning]),
    [
      ['s1_screenings', 's1', 250, 0, null],
      ['s3_requests', 's3', 250, 0, null],
    ],
    'no offshore-leak checks of their own on Professional',
  );
  assert.equal(o.rate_limits[0].limit, 60);
  assert.equal(o.keys.s1.cap, 10);
  assert.equal(o.keys.s3.cap, 5);
  assert.equal(typeof res.body.meta.request_id, 'string');
});

test('keys: created per surface with the right prefix, listed masked, revoked; other accounts cannot touch them', async () => {
  const created = await call(owner.token, 'POST', '/api/portal/keys', { surface: 's3', name: 'warehouse' });
  assert.equal(created.status, 201);
  assert.match(created.body.data.plaintext, /^svcc_live_[0-9a-f]{40}$/);
  const id = created.body.data.key.id;
  const listed = await call(owner.token, 'GET', '/api/portal/keys');
  const s3 = listed.body.data.keys.s3.find((k: any) => k.id === id);
  assert.equal(s3.name, 'warehouse');
  assert.ok(!JSON.stringify(listed.body).includes(created.body.data.plaintext), 'the list never holds the plaintext');

  const stolen = await call(other.token, 'DELETE', `/api/portal/keys/${id}`);
  assert.equal(stolen.status, 404, 'another account cannot revoke it');
  assert.equal((await call(other.token, 'GET', '/api/portal/keys')).body.data.keys.s3.length, 0);

  const bad = await call(owner.token, 'POST', '/api/portal/keys', { surface: 's4', name: '' });
  assert.equal(bad.status, 400);
  const hookOnS2 = await call(owner.token, 'POST', '/api/portal/keys', { surface: 's2', name: 'x', webhook_url: 'https://example.com/h' });
  assert.equal(hookOnS2.status, 400);
  assert.match(hookOnS2.body.error, /only S1 keys carry a webhook/);

  const revoked = await call(owner.token, 'DELETE', `/api/portal/keys/${id}`);
  assert.equal(revoked.status, 200);
  assert.ok(revoked.body.data.key.revoked_at);
  const use = await fetch(`${svc.url}/api/v1/keys`, { headers: { 'x-api-key': created.body.data.plaintext } });
  assert.equal(use.status, 401);
});

test('keys: the S3 cap of 5 active keys per user is enforced from the portal, also under concurrent requests', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await call(other.token, 'POST', '/api/portal/keys', { surface: 's3', name: `k${i}` });
    assert.equal(r.status, 201);
    ids.push(r.body.data.key.id);
  }
  const sixth = await call(other.token, 'POST', '/api/portal/keys', { surface: 's3', name: 'k5' });
  assert.equal(sixth.status, 400);
  assert.deepEqual(Object.keys(sixth.body).sort(), ['details', 'error']);
  for (const id of ids) assert.equal((await call(other.token, 'DELETE', `/api/portal/keys/${id}`)).status, 200);

  // Concurrent creations cannot overshoot the cap: exactly 5 of 8 succeed, the rest are refused as over it.
  const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => call(other.token, 'POST', '/api/portal/keys', { surface: 's3', name: `race${i}` })));
  assert.deepEqual(racing.map((r) => r.status).sort(), [201, 201, 201, 201, 201, 400, 400, 400], JSON.stringify(racing.map((r) => r.body)));
  const active = (await call(other.token, 'GET', '/api/portal/keys')).body.data.keys.s3.filter((k: any) => k.revoked_at === null);
  assert.equal(active.length, 5);
  for (const k of active) assert.equal((await call(other.token, 'DELETE', `/api/portal/keys/${k.id}`)).status, 200);
});

test('screenings: created from the portal, streamed phase by phase, listed with filters, private to the account', async () => {
  const created = await call(owner.token, 'POST', '/api/portal/screenings', { query: 'Kim Jong Un', entity_type: 'individual', jurisdiction: 'KP' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.screening.id;
  assert.equal(created.body.data.screening.surface, 'portal');

  const stream = await fetch(`${svc.url}/api/portal/screenings/${id}/progress`, { headers: { authorization: `Bearer ${owner.token}` } });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await stream.text();
  const events = [...text.matchAll(/id: (\d+)\nevent: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({ id: Number(m[1]), event: m[2]!, data: JSON.parse(m[3]!) }));
  assert.equal(events[0]!.event, 'requested');
  const planned = events[0]!.data.phases.map((p: any) => p.phase);
  const started = events.filter((e) => e.event === 'phase_started').map((e) => e.data.phase);
  const completedPhases = events.filter((e) => e.event === 'phase_completed').map((e) => e.data.phase);
  assert.deepEqual(started, planned, 'every planned phase starts, in order');
  assert.deepEqual(completedPhases, planned, 'and completes');
  const sanctions = events.find((e) => e.event === 'agent_finished' && e.data.agent === 'sanctions');
  assert.equal(sanctions?.data.queried, true);
  const done = events.find((e) => e.event === 'completed');
  assert.ok(done && done.data.counts.sanctions >= 1, 'the OFAC listing is counted');
  assert.ok(text.trimEnd().endsWith('event: end\ndata: {}'), 'the stream says it is over');
  // Every planned agent is reported finished once, including the sources this deployment cannot query
  // (recorded in PhaseStarted itself, so several messages share that event's id).
  const plannedAgents = events[0]!.data.phases.flatMap((p: any) => p.agents.map((a: any) => `${p.phase}:${a.agent}`)).sort();
  const finishedAgents = events.filter((e) => e.event === 'agent_finished').map((e) => `${e.data.phase}:${e.data.agent}`).sort();
  assert.deepEqual(finishedAgents, plannedAgents);
  const ids = events.map((e) => e.id);
  const lastId = ids[ids.length - 1]!;
  assert.deepEqual([...new Set(ids)], Array.from({ length: lastId + 1 }, (_, i) => i), 'ids are the stream positions, in order, none missing');

  // Reconnecting with Last-Event-ID resumes after it.
  const resumed = await fetch(`${svc.url}/api/portal/screenings/${id}/progress`, { headers: { authorization: `Bearer ${owner.token}`, 'last-event-id': String(lastId - 1) } });
  const resumedIds = [...(await resumed.text()).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  assert.deepEqual(resumedIds, [lastId]);

  const detail = await call(owner.token, 'GET', `/api/portal/screenings/${id}`);
  assert.equal(detail.status, 200);
  // One hit per real-world entity: the OFAC SDN row may be one of several lists of the hit.
  const hit = detail.body.data.screening.hits.find((h: any) => /OFAC SDN/.test(h.list) || (h.sources ?? []).some((s: any) => s.list === 'ofac_sdn'));
  assert.ok(hit, 'a hit on the OFAC SDN list');
  assert.match(hit.entity_name, /KIM, Jong Un/);
  assert.ok(hit.explanation.length > 0);
  assert.equal(detail.body.data.dispositions_enabled, true);

  const pdf = await fetch(`${svc.url}/api/portal/screenings/${id}/report.pdf`, { headers: { authorization: `Bearer ${owner.token}` } });
  assert.equal(pdf.status, 200);
  assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');

  // Tenant isolation: the other account sees none of it.
  assert.equal((await call(other.token, 'GET', `/api/portal/screenings/${id}`)).status, 404);
  assert.equal((await fetch(`${svc.url}/api/portal/screenings/${id}/progress`, { headers: { authorization: `Bearer ${other.token}` } })).status, 404);
  assert.equal((await call(other.token, 'GET', '/api/portal/screenings')).body.meta.pagination.total, 0);

  // Filters.
  const byName = await call(owner.token, 'GET', '/api/portal/screenings?q=jong&type=CDD');
  assert.equal(byName.body.meta.pagination.total, 1);
  const wrongRisk = await call(owner.token, 'GET', `/api/portal/screenings?q=jong&risk_level=${done.data.risk_level === 'low' ? 'critical' : 'low'}`);
  assert.equal(wrongRisk.body.meta.pagination.total, 0);
  const badFilter = await call(owner.token, 'GET', '/api/portal/screenings?risk_level=extreme');
  assert.equal(badFilter.status, 400);

  // Dispositions: a reason is required, then the hit carries the decision.
  const noReason = await call(owner.token, 'POST', `/api/portal/screenings/${id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, { status: 'false_positive', reason: '' });
  assert.equal(noReason.status, 400);
  const decided = await call(owner.token, 'POST', `/api/portal/screenings/${id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, { status: 'true_match', reason: 'Same DOB and nationality' });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  const after = decided.body.data.screening.hits.find((h: any) => h.hit_id === hit.hit_id);
  assert.equal(after.disposition.status, 'true_match');
  assert.equal(after.disposition.reason, 'Same DOB and nationality');

  // The case view in words: the explanation without raw scores, adjustments in points, real identifiers only.
  assert.doesNotMatch(after.why, /score \d|name \d/);
  for (const q of after.qualifiers) assert.equal(typeof q.words, 'string');
  for (const i of after.identifiers ?? []) assert.notEqual(i.type, 'other');

  // The PDF in the reader's zone; a zone that is not one is refused.
  const zoned = await fetch(`${svc.url}/api/portal/screenings/${id}/report.pdf?time_zone=Europe%2FLondon`, { headers: { authorization: `Bearer ${owner.token}` } });
  assert.equal(zoned.status, 200);
  await zoned.arrayBuffer();
  for (const zone of ['Mars%2FOlympus', '%3Cscript%3E', 'x'.repeat(65)]) {
    const refused = await call(owner.token, 'GET', `/api/portal/screenings/${id}/report.pdf?time_zone=${zone}`);
    assert.equal(refused.status, 400, zone);
    assert.ok(refused.body.details?.time_zone, JSON.stringify(refused.body));
  }
  assert.equal((await call(owner.token, 'GET', `/api/portal/screenings/${id}/report.pdf?colour=red`)).status, 400);
});

test('one decision with one comment on several hits: all recorded, each with the comment and the analyst; bad input refused with nothing written', async () => {
  const c = await svc.createAccount('enterprise');
  const token = await signIn(c.email, c.password);
  const started = await call(token, 'POST', '/api/portal/screenings', { query: 'Sberbank', entity_type: 'company' });
  assert.equal(started.status, 201);
  const id = started.body.data.screening.id;
  let screening: any;
  for (let i = 0; i < 100; i++) {
    screening = (await call(token, 'GET', `/api/portal/screenings/${id}`)).body.data.screening;
    if (screening.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(screening.hits.length >= 3, `hits: ${screening.hits.length}`);
  const [a, b, c3] = screening.hits.map((h: any) => h.hit_id);
  const path = `/api/portal/screenings/${id}/dispositions`;
  const undecided = () => call(token, 'GET', `/api/portal/screenings/${id}`).then((r) => r.body.data.screening.hits.filter((h: any) => !h.disposition).length);
  const before = await undecided();

  // Bad input: missing, malformed, oversized, hostile; another screening's hit. Nothing is written.
  const bad: [string, unknown][] = [
    ['no body', undefined],
    ['no hit', { hit_ids: [], status: 'false_positive', reason: 'x' }],
    ['a hit twice', { hit_ids: [a, a], status: 'false_positive', reason: 'x' }],
    ['no comment', { hit_ids: [a], status: 'false_positive', reason: '  ' }],
    ['no decision', { hit_ids: [a], reason: 'x' }],
    ['unknown decision', { hit_ids: [a], status: 'maybe', reason: 'x' }],
    ['too many hits', { hit_ids: Array.from({ length: 101 }, (_, i) => `sanctions:x:${i}`), status: 'false_positive', reason: 'x' }],
    ['comment too long', { hit_ids: [a], status: 'false_positive', reason: 'x'.repeat(2001) }],
    ['unknown field', { hit_ids: [a], status: 'false_positive', reason: 'x', analyst: 'someone-else' }],
    ['not a list', { hit_ids: a, status: 'false_positive', reason: 'x' }],
    ['a hit of no such case', { hit_ids: [a, "sanctions:ofac_sdn:1'; DROP TABLE hits;--"], status: 'false_positive', reason: 'x' }],
  ];
  for (const [what, body] of bad) {
    const res = await call(token, 'POST', path, body);
    assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(typeof res.body.error, 'string', what);
    assert.ok(res.body.details && Object.keys(res.body.details).length > 0, `${what}: details by field`);
  }
  assert.ok(!JSON.stringify((await call(token, 'POST', path, bad[10]![1])).body).includes('DROP TABLE'), 'a refused id is not echoed back');
  assert.equal(await undecided(), before, 'nothing was decided by a refused request');
  assert.equal((await call(other.token, 'POST', path, { hit_ids: [a], status: 'false_positive', reason: 'x' })).status, 404, 'another account\'s case');
  assert.equal((await call(undefined, 'POST', path, { hit_ids: [a], status: 'false_positive', reason: 'x' })).status, 401);
  assert.equal((await call(token, 'POST', `/api/portal/screenings/abc/dispositions`, { hit_ids: [a], status: 'false_positive', reason: 'x' })).status, 400);

  // One decision, one comment, three hits.
  const decided = await call(token, 'POST', path, { hit_ids: [a, b, c3], status: 'false_positive', reason: 'Not the bank onboarded' });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  const hits = decided.body.data.screening.hits.filter((h: any) => [a, b, c3].includes(h.hit_id));
  assert.equal(hits.length, 3);
  for (const h of hits) {
    assert.equal(h.disposition.status, 'false_positive');
    assert.equal(h.disposition.reason, 'Not the bank onboarded');
    assert.equal(h.disposition.analyst_name, c.email);
  }
  const steps = decided.body.data.screening.case_history.filter((e: any) => e.kind === 'disposition');
  assert.equal(steps.length, 3, 'one decision per hit');
  // The same again records nothing more.
  const again = await call(token, 'POST', path, { hit_ids: [a, b], status: 'false_positive', reason: 'Not the bank onboarded' });
  assert.equal(again.body.data.screening.case_history.filter((e: any) => e.kind === 'disposition').length, 3);
});

test('screenings: the list is paginated, newest first', async () => {
  const names = ['Pagination Alpha', 'Pagination Beta', 'Pagination Gamma'];
  for (const query of names) assert.equal((await call(other.token, 'POST', '/api/portal/screenings', { query })).status, 201);
  const first = await call(other.token, 'GET', '/api/portal/screenings?q=pagination&limit=2');
  assert.deepEqual(first.body.meta.pagination, { page: 1, limit: 2, total: 3, pages: 2 });
  assert.deepEqual(first.body.data.screenings.map((s: any) => s.search_query), ['Pagination Gamma', 'Pagination Beta']);
  const second = await call(other.token, 'GET', '/api/portal/screenings?q=pagination&limit=2&page=2');
  assert.deepEqual(second.body.data.screenings.map((s: any) => s.search_query), ['Pagination Alpha']);
});

test('a Starter account has no API access: no keys from the portal', async () => {
  const starter = await svc.createAccount('starter');
  const token = await signIn(starter.email, starter.password);
  for (const surface of ['s1', 's2', 's3']) {
    const res = await call(token, 'POST', '/api/portal/keys', { surface, name: 'k' });
    assert.equal(res.status, 403, surface);
  }
});

test('screenings: plan rules apply (M&A needs Enterprise), and input is validated', async () => {
  const ma = await call(owner.token, 'POST', '/api/portal/screenings', { kind: 'ma', query: 'Acme Holdings', entity_type: 'company' });
  assert.equal(ma.status, 403);
  const short = await call(owner.token, 'POST', '/api/portal/screenings', { query: 'K' });
  assert.equal(short.status, 400);
  assert.match(short.body.error, /query/);
  const wrongField = await call(owner.token, 'POST', '/api/portal/screenings', { kind: 'edd', query: 'Jane Roe', declared: { deal_type: 'merger' } });
  assert.equal(wrongField.status, 400);
  assert.match(wrongField.body.error, /declared\.deal_type: is not a EDD field/);
  const cddWithDeclared = await call(owner.token, 'POST', '/api/portal/screenings', { query: 'Jane Roe', declared: { source_of_wealth: 'salary' } });
  assert.equal(cddWithDeclared.status, 400);
  for (const query of ['LLC', '?!...', 'Ltd.']) {
    const junk = await call(owner.token, 'POST', '/api/portal/screenings', { query });
    assert.equal(junk.status, 400, query);
    assert.match(junk.body.error, /query: (must contain letters|names only a legal form)/);
  }
});

test('an EDD screening from the portal carries the customer\'s declarations into its analysis', async () => {
  const edd = await call(owner.token, 'POST', '/api/portal/screenings', {
    kind: 'edd',
    query: 'Jane Roe',
    declared: { source_of_wealth: 'Sale of a family bakery in 2019', source_of_funds: 'Savings account at a UK bank' },
  });
  assert.equal(edd.status, 201, JSON.stringify(edd.body));
  const id = edd.body.data.screening.id;
  await (await fetch(`${svc.url}/api/portal/screenings/${id}/progress`, { headers: { authorization: `Bearer ${owner.token}` } })).text();
  const detail = await call(owner.token, 'GET', `/api/portal/screenings/${id}`);
  assert.equal(detail.body.data.screening.kind, 'edd');
  assert.equal(detail.body.data.screening.status, 'completed');
  assert.match(detail.body.data.screening.edd_analysis ?? '', /bakery/i, 'the declared source of wealth reaches the analysis');
});

test('webhooks: S1 per key, S2 and S3 per account; secret once, test delivery in the log with the exact body, re-enable', async () => {
  const key = await call(owner.token, 'POST', '/api/portal/keys', { surface: 's1', name: 'hooked', webhook_url: 'https://127.0.0.1:9/s1' });
  assert.equal(key.status, 201, JSON.stringify(key.body));
  assert.ok(key.body.data.webhook_signing_secret, 'the S1 webhook secret is shown at creation');
  const keyId = key.body.data.key.id;

  const s1 = await call(owner.token, 'PUT', `/api/portal/webhooks/s1/${keyId}`, { url: 'https://127.0.0.1:9/s1-new' });
  assert.equal(s1.status, 200, JSON.stringify(s1.body));
  assert.ok(s1.body.data.signing_secret);
  const s2 = await call(owner.token, 'PUT', '/api/portal/webhooks/s2', { url: 'https://127.0.0.1:9/s2' });
  assert.equal(s2.status, 201, JSON.stringify(s2.body));
  const s3 = await call(owner.token, 'PUT', '/api/portal/webhooks/s3', { url: 'https://127.0.0.1:9/s3' });
  assert.equal(s3.status, 201, JSON.stringify(s3.body));
  assert.notEqual(s2.body.data.signing_secret, s3.body.data.signing_secret);
  const ssrf = await call(owner.token, 'PUT', '/api/portal/webhooks/s2', { url: 'https://169.254.169.254/latest' });
  assert.equal(ssrf.status, 400, 'the SSRF guard refuses metadata addresses');

  const list = await call(owner.token, 'GET', '/api/portal/webhooks');
  const bySurface = Object.fromEntries(list.body.data.endpoints.map((e: any) => [e.surface, e]));
  assert.equal(bySurface.s1.url, 'https://127.0.0.1:9/s1-new');
  assert.equal(bySurface.s1.key_id, keyId);
  assert.equal(bySurface.s2.url, 'https://127.0.0.1:9/s2');
  assert.ok(!JSON.stringify(list.body).includes(s2.body.data.signing_secret), 'secrets are never listed');
  assert.equal((await call(other.token, 'GET', '/api/portal/webhooks')).body.data.endpoints.length, 0);

  for (const path of [`/api/portal/webhooks/s1/${keyId}/test`, '/api/portal/webhooks/s2/test', '/api/portal/webhooks/s3/test']) {
    const sent = await call(owner.token, 'POST', path);
    assert.equal(sent.status, 202, `${path}: ${JSON.stringify(sent.body)}`);
    assert.equal(sent.body.data.status, 'enqueued');
    const surface = path.split('/')[4]!;
    const log = await call(owner.token, 'GET', `/api/portal/webhooks/deliveries?surface=${surface}`);
    const delivery = log.body.data.deliveries.find((d: any) => d.deliveryId === sent.body.data.delivery_id);
    assert.ok(delivery, `${surface} delivery listed`);
    assert.equal(delivery.event, 'webhook.test');
    assert.equal(JSON.parse(delivery.body).event, 'webhook.test', 'the exact stored body');
    const one = await call(owner.token, 'GET', `/api/portal/webhooks/deliveries/${delivery.deliveryId}`);
    assert.equal(one.body.data.body, delivery.body);
    assert.equal((await call(other.token, 'GET', `/api/portal/webhooks/deliveries/${delivery.deliveryId}`)).status, 404);
  }
  assert.equal((await call(owner.token, 'GET', '/api/portal/webhooks/deliveries?cursor=nonsense')).status, 400);

  // An auto-disabled S2 endpoint: a test delivery is dropped (visible), re-enable turns it back on.
  await disableEndpoint(svc.service.pool, { accountId: owner.accountId, surface: 's2' }, new Date());
  const dropped = await call(owner.token, 'POST', '/api/portal/webhooks/s2/test');
  assert.equal(dropped.body.data.status, 'dropped');
  const reenabled = await call(owner.token, 'POST', '/api/portal/webhooks/s2/reenable');
  assert.equal(reenabled.status, 200);
  assert.equal(reenabled.body.data.enabled, true);
  assert.equal((await call(owner.token, 'POST', '/api/portal/webhooks/s2/test')).body.data.status, 'enqueued');
  assert.equal((await call(other.token, 'POST', '/api/portal/webhooks/s2/reenable')).status, 404);
});

test('S2 subject checks: started with an svca_ key, listed and read in the portal (name and birth year only), private to the account', async () => {
  const key = await call(owner.token, 'POST', '/api/portal/keys', { surface: 's2', name: 'subject checks' });
  assert.equal(key.status, 201, JSON.stringify(key.body));
  const started = await fetch(`${svc.url}/api/v1/compliance/subject-checks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.body.data.plaintext}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Jong Un',
      last_name: 'Kim',
      date_of_birth: '1984-01-08',
      locations: [{ country: 'KP', city: 'Pyongyang' }],
      purpose: 'customer_due_diligence',
      consent: { certified: true },
      monitor: true,
    }),
  });
  assert.equal(started.status, 201);
  const id = ((await started.json()) as { subject_check_id: number }).subject_check_id;

  const listed = await call(owner.token, 'GET', '/api/portal/subject-checks?q=jong%20un');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.deepEqual(listed.body.meta.pagination, { page: 1, limit: 20, total: 1, pages: 1 });
  const row = listed.body.data.subject_checks[0];
  assert.equal(row.id, id);
  assert.equal(row.name, 'Jong Un Kim');
  assert.equal(row.year_of_birth, '1984');
  assert.deepEqual(row.countries, ['KP']);
  assert.equal((await call(owner.token, 'GET', '/api/portal/subject-checks?q=nobody')).body.meta.pagination.total, 0);
  assert.equal((await call(owner.token, 'GET', '/api/portal/subject-checks?status=failed&q=jong')).body.meta.pagination.total, 0);

  // Read until the pipeline has concluded (it runs asynchronously).
  let detail = await call(owner.token, 'GET', `/api/portal/subject-checks/${id}`);
  for (let i = 0; i < 120 && detail.body.data?.subject_check.status === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    detail = await call(owner.token, 'GET', `/api/portal/subject-checks/${id}`);
  }
  assert.equal(detail.status, 200, JSON.stringify(detail.body));
  const check = detail.body.data.subject_check;
  assert.notEqual(check.status, 'running', 'the check concluded');
  assert.ok(check.sources.length > 0, 'the sources are listed');
  assert.equal(check.sources_searched, check.sources.filter((x: any) => x.queried).length);
  assert.ok(check.summary.startsWith({ needs_review: 'Needs review', escalated: 'Escalated', completed: 'Completed', failed: 'Failed' }[check.status as string]!), check.summary);
  assert.match(check.summary, /sources searched/);
  assert.ok('tier_scores' in check);
  assert.equal(check.monitoring, check.status !== 'failed', 'enrolled in monitoring once concluded');
  for (const body of [listed.body, detail.body]) {
    const text = JSON.stringify(body);
    assert.ok(!text.includes('1984-01-08'), 'never the full date of birth');
    assert.ok(!text.includes('customer_due_diligence') && !text.includes('Pyongyang'), 'nor the purpose or the city');
    assert.ok(!text.includes('"account_id"') && !text.includes('"batch_id"'), 'nor the account or batch id');
  }

  // Another account sees none of it.
  assert.equal((await call(other.token, 'GET', `/api/portal/subject-checks/${id}`)).status, 404);
  assert.equal((await call(other.token, 'GET', '/api/portal/subject-checks')).body.meta.pagination.total, 0);
  assert.equal((await call(owner.token, 'GET', '/api/portal/subject-checks/999999999')).status, 404);

  // Bad input.
  for (const query of ['limit=101', 'limit=0', 'page=0', 'status=done', 'batch_id=x', `q=${'x'.repeat(301)}`]) {
    const bad = await call(owner.token, 'GET', `/api/portal/subject-checks?${query}`);
    assert.equal(bad.status, 400, query);
    assert.deepEqual(Object.keys(bad.body).sort(), ['details', 'error'], query);
  }
  for (const bad of ['abc', '0', '-1', '1234567890123456']) assert.equal((await call(owner.token, 'GET', `/api/portal/subject-checks/${bad}`)).status, 400, bad);
});

test('work queue: screenings with undecided hits, most severe first, filtered, private to the account; a decided case leaves it', async () => {
  const c = await svc.createAccount('enterprise');
  const analyst = { accountId: c.accountId, token: await signIn(c.email, c.password) };
  const ids: Record<string, number> = {};
  for (const query of ['Kim Jong Un', 'Vladimir Putin', 'Eleanor Whitfield-Crane']) {
    const started = await call(analyst.token, 'POST', '/api/portal/screenings', { query });
    assert.equal(started.status, 201);
    ids[query] = started.body.data.screening.id;
  }
  for (const id of Object.values(ids)) {
    for (let i = 0; i < 100; i++) {
      const got = await call(analyst.token, 'GET', `/api/portal/screenings/${id}`);
      if (got.body.data.screening.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const queue = await call(analyst.token, 'GET', '/api/portal/queue');
  assert.equal(queue.status, 200);
  const names = queue.body.data.items.map((i: any) => i.search_query);
  assert.deepEqual([...names].sort(), ['Kim Jong Un', 'Vladimir Putin'], 'the clean screening has nothing to decide');
  const rank = ['critical', 'high', 'medium', 'low'];
  const ranks = queue.body.data.items.map((i: any) => rank.indexOf(i.risk_level));
  assert.deepEqual(ranks, [...ranks].sort((x: number, y: number) => x - y), 'most severe first');
  const counts = queue.body.data.counts;
  assert.equal(counts.critical + counts.high + counts.medium + counts.low, 2);
  for (const item of queue.body.data.items) {
    assert.ok(item.open_hits >= 1);
    assert.ok(item.lists.length >= 1);
    assert.equal(item.surface, 'portal');
  }
  assert.deepEqual(queue.body.meta.pagination, { page: 1, limit: 25, total: 2, pages: 1 });

  // Filters: level, surface, list; other accounts see none of it.
  const kim = queue.body.data.items.find((i: any) => i.search_query === 'Kim Jong Un');
  const byLevel = await call(analyst.token, 'GET', `/api/portal/queue?level=${kim.risk_level}`);
  assert.ok(byLevel.body.data.items.every((i: any) => i.risk_level === kim.risk_level));
  assert.ok(byLevel.body.data.items.some((i: any) => i.search_query === 'Kim Jong Un'));
  assert.equal((await call(analyst.token, 'GET', '/api/portal/queue?surface=s1')).body.data.items.length, 0);
  // Kim Jong Un is one entity on the OFAC SDN and the CSL: listed under both, by name, found by either.
  assert.deepEqual(
    kim.lists.filter((l: any) => ['ofac_sdn', 'us_csl'].includes(l.id)).map((l: any) => l.name).sort(),
    ['OFAC SDN list', 'US Consolidated Screening List'],
  );
  for (const list of ['ofac_sdn', 'us_csl']) {
    const byList = await call(analyst.token, 'GET', `/api/portal/queue?list=${list}`);
    assert.ok(byList.body.data.items.some((i: any) => i.search_query === 'Kim Jong Un'), `found by ${list}`);
    assert.ok(byList.body.data.items.every((i: any) => i.lists.some((l: any) => l.id === list)), list);
  }
  assert.ok(queue.body.data.lists.every((l: any) => typeof l.id === 'string' && typeof l.name === 'string' && l.name !== l.id), 'the filter offers names');
  const foreign = await call(other.token, 'GET', '/api/portal/queue');
  assert.equal(foreign.status, 200);
  assert.ok(!foreign.body.data.items.some((i: any) => Object.values(ids).includes(i.screening_id)), 'tenant isolation');

  // Bad input: the portal's 400 with details; no session: 401.
  for (const bad of ['level=extreme', 'surface=s2', 'list=..%2Fetc', 'limit=0', 'page=abc', 'colour=red', `list=${'x'.repeat(41)}`, 'list=internal_list:not-a-uuid', "list=ofac_sdn'--"]) {
    const res = await call(analyst.token, 'GET', `/api/portal/queue?${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal(typeof res.body.error, 'string', bad);
  }
  assert.equal((await call(undefined, 'GET', '/api/portal/queue')).status, 401);

  // Every hit of Kim Jong Un decided: the case leaves the queue; Putin's stays.
  const detail = await call(analyst.token, 'GET', `/api/portal/screenings/${ids['Kim Jong Un']}`);
  for (const hit of detail.body.data.screening.hits) {
    const decided = await call(analyst.token, 'POST', `/api/portal/screenings/${ids['Kim Jong Un']}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, {
      status: 'false_positive',
      reason: 'Different person',
    });
    assert.equal(decided.status, 200);
    const mine = decided.body.data.screening.hits.find((h: any) => h.hit_id === hit.hit_id);
    assert.equal(mine.disposition.analyst_name, c.email, 'the case view names the analyst by e-mail');
    assert.match(mine.disposition.analyst, /^user:u\d+$/, 'the stable identity stays in the record');
  }
  const afterQueue = await call(analyst.token, 'GET', '/api/portal/queue');
  assert.deepEqual(afterQueue.body.data.items.map((i: any) => i.search_query), ['Vladimir Putin']);
});

test('screenings: date of birth, nationality and identifiers reach the matcher and the case; bad ones are refused per field', async () => {
  const waitDone = async (id: number) => {
    for (let i = 0; i < 100; i++) {
      const got = await call(owner.token, 'GET', `/api/portal/screenings/${id}`);
      if (got.body.data.screening.status !== 'running') return got.body.data.screening;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('screening did not complete');
  };
  const qualifierKinds = (screening: any) => new Set(screening.hits.flatMap((h: any) => h.qualifiers.map((q: any) => q.kind)));
  const agreeing = await call(owner.token, 'POST', '/api/portal/screenings', {
    query: 'Vladimir Putin',
    date_of_birth: '1952-10-07',
    nationality: 'ru',
    identifiers: [{ type: 'passport', value: '123 456' }],
  });
  assert.equal(agreeing.status, 201, JSON.stringify(agreeing.body));
  const same = await waitDone(agreeing.body.data.screening.id);
  assert.deepEqual(same.subject, { date_of_birth: '1952-10-07', nationality: 'RU', identifiers: [{ type: 'passport', value: '123 456', words: 'Passport 123 456' }], phone: null, email: null });
  const conflicting = await call(owner.token, 'POST', '/api/portal/screenings', { query: 'Vladimir Putin', date_of_birth: '1991-01-01' });
  const other = await waitDone(conflicting.body.data.screening.id);
  const best = (s: any) => Math.max(0, ...s.hits.filter((h: any) => h.category === 'sanctions').map((h: any) => h.score));
  assert.ok(best(same) > best(other), `the matching date of birth scores higher (${best(same)}) than a conflicting one (${best(other)})`);
  assert.ok([...qualifierKinds(same)].some((k) => String(k).includes('dob') || String(k).includes('birth')), `a date-of-birth qualifier explains the score: ${[...qualifierKinds(same)]}`);

  // Refused at the edge, field by field, and nothing is written.
  const before = (await call(owner.token, 'GET', '/api/portal/screenings')).body.meta.pagination.total;
  for (const [body, fieldName] of [
    [{ query: 'Jane Doe', date_of_birth: '31/02/1960' }, 'date_of_birth'],
    [{ query: 'Jane Doe', date_of_birth: '1960-02-31' }, 'date_of_birth'],
    [{ query: 'Jane Doe', date_of_birth: '2999-01-01' }, 'date_of_birth'],
    [{ query: 'Jane Doe', nationality: 'Narnia' }, 'nationality'],
    [{ query: 'Jane Doe', identifiers: [{ type: 'passport', value: '<b>1</b>' }] }, 'identifiers.0.value'],
    [{ query: 'Jane Doe', identifiers: [{ type: 'dna', value: '1' }] }, 'identifiers.0.type'],
  ] as const) {
    const res = await call(owner.token, 'POST', '/api/portal/screenings', body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.ok(Array.isArray(res.body.details?.[fieldName]) || Object.keys(res.body.details ?? {}).includes(fieldName), `${fieldName}: ${JSON.stringify(res.body)}`);
  }
  assert.equal((await call(owner.token, 'GET', '/api/portal/screenings')).body.meta.pagination.total, before);
});

test('sources: each list with its publication date and age, each outside source with what enables it', async () => {
  const res = await call(owner.token, 'GET', '/api/portal/sources');
  assert.equal(res.status, 200);
  const sdn = res.body.data.lists.find((l: any) => l.list === 'ofac_sdn');
  assert.ok(sdn, 'the OFAC SDN list is in service');
  assert.match(sdn.published_at, /^\d{4}-\d{2}-\d{2}/);
  assert.equal(sdn.age_days, Math.floor((Date.now() - Date.parse(sdn.published_at)) / 86_400_000));
  assert.equal(sdn.max_age_days, 7);
  assert.equal(sdn.stale, sdn.age_days > 7, 'older than its maximum: stale');
  assert.ok(sdn.entity_count > 1000);
  const registries = res.body.data.sources.find((x: any) => x.agent === 'company_registries');
  assert.equal(registries.configured, false);
  assert.match(registries.enable_with, /OPENCORPORATES_API_TOKEN/);
  const osint = res.body.data.sources.find((x: any) => x.agent === 'osint');
  assert.deepEqual([osint.configured, osint.enable_with], [false, null], 'no adapter in this release: nothing to set');
  assert.equal(res.body.data.sources.find((x: any) => x.agent === 'sanctions').configured, true);
  assert.equal((await call(undefined, 'GET', '/api/portal/sources')).status, 401);
});

test('needs more information: the hit stays undecided (risk unchanged, still in the queue, marked and filterable), then a decision closes it; the history names each step by e-mail', async () => {
  const c = await svc.createAccount('enterprise');
  const analyst = { accountId: c.accountId, token: await signIn(c.email, c.password) };
  const started = await call(analyst.token, 'POST', '/api/portal/screenings', { query: 'Kim Jong Un', entity_type: 'individual' });
  const id = started.body.data.screening.id;
  let screening: any;
  for (let i = 0; i < 100; i++) {
    screening = (await call(analyst.token, 'GET', `/api/portal/screenings/${id}`)).body.data.screening;
    if (screening.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const hit = screening.hits[0];
  const levelBefore = screening.risk_level;
  const path = `/api/portal/screenings/${id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`;

  // A comment is mandatory, an unknown status is refused in the portal's 400 shape; nothing is written.
  for (const bad of [{ status: 'needs_more_information', reason: '  ' }, { status: 'maybe', reason: 'x' }, { status: 'needs_more_information' }]) {
    const res = await call(analyst.token, 'POST', path, bad);
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(typeof res.body.error, 'string');
  }
  const asked = await call(analyst.token, 'POST', path, { status: 'needs_more_information', reason: 'Ask the client for a passport copy' });
  assert.equal(asked.status, 200);
  const waiting = asked.body.data.screening;
  assert.equal(waiting.hits.find((h: any) => h.hit_id === hit.hit_id).disposition.status, 'needs_more_information');
  assert.equal(waiting.risk_level, levelBefore, 'asking for information does not lower the risk');
  const askedEntry = waiting.case_history.find((e: any) => e.kind === 'disposition');
  assert.deepEqual([askedEntry.decision, askedEntry.by, askedEntry.reason], ['needs_more_information', c.email, 'Ask the client for a passport copy']);

  const queue = await call(analyst.token, 'GET', '/api/portal/queue');
  const item = queue.body.data.items.find((i: any) => i.screening_id === id);
  assert.ok(item, 'the case stays in the queue');
  assert.equal(item.needs_more_information_hits, 1);
  assert.equal(item.open_hits, screening.hits.length);
  assert.deepEqual((await call(analyst.token, 'GET', '/api/portal/queue?needs_more_information=true')).body.data.items.map((i: any) => i.screening_id), [id]);
  assert.equal((await call(analyst.token, 'GET', '/api/portal/queue?needs_more_information=maybe')).status, 400);

  // Then decided: the history has both steps in order, each by e-mail.
  const decided = await call(analyst.token, 'POST', path, { status: 'false_positive', reason: 'Passport differs' });
  assert.equal(decided.status, 200);
  const steps = decided.body.data.screening.case_history.filter((e: any) => e.kind === 'disposition');
  assert.deepEqual(
    steps.map((e: any) => [e.decision, e.previous ?? null, e.by]),
    [
      ['needs_more_information', null, c.email],
      ['false_positive', 'needs_more_information', c.email],
    ],
  );
  assert.ok(!JSON.stringify(decided.body.data.screening.case_history).match(/"user:u\d+"/), 'no internal id in the history');
});

test('assignment: a case goes to a user of the same account (by e-mail), the queue shows and filters by assignee; another account\'s user is refused', async () => {
  const c = await svc.createAccount('enterprise');
  const ownerToken = await signIn(c.email, c.password);
  const colleague = await svc.addUser(c.accountId, 'analyst');
  const stranger = await svc.createAccount('enterprise');
  const ids: number[] = [];
  for (const query of ['Kim Jong Un', 'Vladimir Putin']) ids.push((await call(ownerToken, 'POST', '/api/portal/screenings', { query })).body.data.screening.id);
  for (const id of ids) {
    for (let i = 0; i < 100; i++) {
      if ((await call(ownerToken, 'GET', `/api/portal/screenings/${id}`)).body.data.screening.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const people = await call(ownerToken, 'GET', '/api/portal/assignees');
  assert.equal(people.status, 200);
  assert.deepEqual(people.body.data.assignees.map((u: any) => u.email).sort(), [c.email, colleague.email].sort(), 'only the account\'s users');
  assert.ok(!JSON.stringify(people.body).includes(colleague.userId), 'never an internal id');

  // Another account's user, an unknown e-mail, a malformed one: 400 on the field, nothing written.
  for (const assignee of [stranger.email, 'nobody@example.test', 'not-an-email']) {
    const res = await call(ownerToken, 'PUT', `/api/portal/screenings/${ids[0]}/assignee`, { assignee });
    assert.equal(res.status, 400, assignee);
    assert.ok(JSON.stringify(res.body.details ?? res.body).includes('assignee'), assignee);
  }
  // Another account cannot assign this account's case (404: it does not exist for them).
  const strangerToken = await signIn(stranger.email, stranger.password);
  assert.equal((await call(strangerToken, 'PUT', `/api/portal/screenings/${ids[0]}/assignee`, { assignee: stranger.email })).status, 404);

  const mine = await call(ownerToken, 'PUT', `/api/portal/screenings/${ids[0]}/assignee`, { assignee: c.email });
  assert.equal(mine.status, 200);
  assert.deepEqual(mine.body.data.screening.assignee, { email: c.email, me: true });
  const theirs = await call(ownerToken, 'PUT', `/api/portal/screenings/${ids[1]}/assignee`, { assignee: colleague.email.toUpperCase() });
  assert.deepEqual(theirs.body.data.screening.assignee, { email: colleague.email, me: false });

  const queue = (await call(ownerToken, 'GET', '/api/portal/queue')).body.data;
  assert.deepEqual(Object.fromEntries(queue.items.map((i: any) => [i.screening_id, i.assignee?.email])), { [ids[0]!]: c.email, [ids[1]!]: colleague.email });
  assert.deepEqual((await call(ownerToken, 'GET', '/api/portal/queue?assignee=me')).body.data.items.map((i: any) => i.screening_id), [ids[0]]);
  assert.deepEqual((await call(ownerToken, 'GET', `/api/portal/queue?assignee=${encodeURIComponent(colleague.email)}`)).body.data.items.map((i: any) => i.screening_id), [ids[1]]);
  assert.deepEqual((await call(ownerToken, 'GET', '/api/portal/queue?assignee=unassigned')).body.data.items, []);
  // The colleague sees the same case as theirs.
  const colleagueToken = await signIn(colleague.email, colleague.password);
  assert.deepEqual((await call(colleagueToken, 'GET', '/api/portal/queue?assignee=me')).body.data.items.map((i: any) => i.screening_id), [ids[1]]);

  // Reassigned, then unassigned: the history says who did what, by e-mail.
  await call(colleagueToken, 'PUT', `/api/portal/screenings/${ids[1]}/assignee`, { assignee: c.email });
  const cleared = await call(ownerToken, 'PUT', `/api/portal/screenings/${ids[1]}/assignee`, { assignee: null });
  assert.equal(cleared.body.data.screening.assignee, null);
  const history = cleared.body.data.screening.case_history.filter((e: any) => e.kind === 'assigned' || e.kind === 'unassigned');
  assert.deepEqual(
    history.map((e: any) => [e.kind, e.assignee ?? null, e.previous_assignee ?? null, e.by]),
    [
      ['assigned', colleague.email, null, c.email],
      ['assigned', c.email, colleague.email, colleague.email],
      ['unassigned', null, c.email, c.email],
    ],
  );
  assert.deepEqual((await call(ownerToken, 'GET', '/api/portal/queue?assignee=unassigned')).body.data.items.map((i: any) => i.screening_id), [ids[1]]);
  assert.equal((await call(ownerToken, 'GET', '/api/portal/queue?assignee=someone')).status, 400);
});

test('overview: an Enterprise account sees its offshore-leak checks, and a warning at 80 % and at 100 % of each quota', async () => {
  const account = await svc.createAccount('enterprise');
  const token = await signIn(account.email, account.password);
  const s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const month = new Date().toISOString().slice(0, 7);
  const quotasNow = async () => Object.fromEntries(((await call(token, 'GET', '/api/portal/overview')).body.data.quotas as any[]).map((q) => [q.quota, q]));

  // One real S3 screening uses one check (and one request).
  const screened = await fetch(`${svc.url}/api/v1/screening/cdd`, { method: 'POST', headers: { 'x-api-key': s3Key, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'Margaret Thistlewood' }) });
  assert.equal(screened.status, 201);
  let q = await quotasNow();
  assert.deepEqual([q.s3_offshore_leak_checks.limit, q.s3_offshore_leak_checks.used, q.s3_offshore_leak_checks.warning], [100, 1, null]);
  assert.equal(q.s3_offshore_leak_checks.name, 'Enterprise API offshore-leak checks');
  assert.deepEqual([q.s3_requests.limit, q.s3_requests.used, q.s3_requests.warning], [1000, 1, null]);
  assert.equal(q.s1_screenings.limit, null, 'unlimited on Enterprise: never a warning');

  // 79 more checks used by the month's screenings (the quota aggregate's real command): 80 %.
  const checks = new EventSourcedOffshoreLeakChecks({ store: svc.service.store, clock: systemClock });
  const use = async (count: number) => {
    for (let i = 0; i < count; i++) await checks.use({ accountId: account.accountId, month, screeningId: String(usedBy++), limit: 100 });
  };
  await use(79);
  q = await quotasNow();
  assert.equal(q.s3_offshore_leak_checks.warning.level, 'approaching');
  assert.match(q.s3_offshore_leak_checks.warning.message, /^Enterprise API offshore-leak checks: 80 of 100 used \(80 %\)\. Once they are used up, Enterprise API screenings still run every other source, but offshore leaks are not searched/);
  await use(20);
  q = await quotasNow();
  assert.equal(q.s3_offshore_leak_checks.used, 100);
  assert.equal(q.s3_offshore_leak_checks.warning.level, 'reached');
  assert.match(q.s3_offshore_leak_checks.warning.message, /all 100 used\. Until the quota resets on \d{4}-\d{2}-01, Enterprise API screenings still run every other source, but offshore leaks are not searched/);

  // The request quota: 800 of 1,000 warns, 1,000 says requests are refused.
  const setRequests = (count: number) =>
    svc.db.pool.query(`UPDATE limit_counters SET count = $2 WHERE bucket = $1`, [`s3:requests:${account.accountId}:${month}`, count]);
  await setRequests(800);
  q = await quotasNow();
  assert.equal(q.s3_requests.warning.level, 'approaching');
  assert.match(q.s3_requests.warning.message, /800 of 1000 used \(80 %\)/);
  await setRequests(1000);
  q = await quotasNow();
  assert.equal(q.s3_requests.warning.level, 'reached');
  assert.match(q.s3_requests.warning.message, /requests are refused \(429\)/);
});

test('every console answer above is documented in the served OpenAPI document: route, status and body shape', async () => {
  const document = (await (await fetch(`${svc.url}/api/v1/openapi.json`)).json()) as Record<string, any>;
  assert.ok(answers.length >= 60, `answers recorded: ${answers.length}`);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const answer of answers) {
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    const found = operationFor(document, answer.method, answer.path);
    if (!found) {
      problems.push(`${where}: route not documented`);
      continue;
    }
    seen.add(`${answer.method} ${found.template}`);
    const response = found.operation.responses[String(answer.status)];
    if (!response) {
      problems.push(`${where}: status not documented for ${found.template}`);
      continue;
    }
    assert.match(answer.contentType, /application\/json/, where);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) problems.push(`${where}: no JSON body documented`);
    else problems.push(...checkSchema(document, schema, answer.body).map((p) => `${where}: ${p}`));
  }
  assert.deepEqual(problems, []);
  // The non-JSON answers: the progress stream and the PDF have the documented media types.
  const started = answers.find((a) => a.method === 'POST' && a.path === '/api/portal/screenings' && a.status === 201)!.body as any;
  for (const [path, media] of [[`/api/portal/screenings/${started.data.screening.id}/progress`, 'text/event-stream'], [`/api/portal/screenings/${started.data.screening.id}/report.pdf`, 'application/pdf']] as const) {
    const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${owner.token}` } });
    assert.equal(res.status, 200, path);
    assert.ok((res.headers.get('content-type') ?? '').startsWith(media), `${path}: ${res.headers.get('content-type')}`);
    await res.arrayBuffer();
    assert.ok(operationFor(document, 'GET', path)!.operation.responses['200'].content[media], `${path}: ${media} documented`);
  }
  // The tests above reach most of the console; the rest is covered by the route-for-route test in
  // test/integration/api/s3/openapi.test.ts.
  assert.ok(seen.size >= 14, `documented operations exercised: ${[...seen].sort().join(', ')}`);
});
