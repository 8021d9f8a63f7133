/**
 * List age on every result, by the injected clock: the UN list (dateGenerated 2026-02-27, stated in
 * the file) is fresh on 2026-03-01 and 33 days old on 2026-04-01. Warn mode answers with a warning on
 * the result, the JSON report and /readyz (degraded, still 200); refuse mode answers 503 lists_stale
 * in each surface's envelope and writes nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/shared/clock';
import { startTestService, type TestService } from '../../support/service';
import { subject, writes } from '../api/s2/support';

const clock = new ManualClock('2026-03-01T12:00:00.000Z');
let warn: TestService;
let refuse: TestService;
const keys = { warn: '', refuseS1: '', refuseS2: '', refuseS3: '' };

before(async () => {
  // Only the UN list: small, and dated inside the file (dateGenerated).
  warn = await startTestService({ clock, env: { LISTS_ONLY: 'un_sc' } });
  const a = await warn.createAccount('enterprise');
  keys.warn = (await warn.createKey(a.accountId, 's1')).key;
  refuse = await startTestService({ clock, env: { LISTS_ONLY: 'un_sc', LISTS_STALE_POLICY: 'refuse' } });
  const b = await refuse.createAccount('enterprise');
  keys.refuseS1 = (await refuse.createKey(b.accountId, 's1')).key;
  keys.refuseS2 = (await refuse.createKey(b.accountId, 's2')).key;
  keys.refuseS3 = (await refuse.createKey(b.accountId, 's3')).key;
});
after(async () => {
  await warn?.stop();
  await refuse?.stop();
});

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const UN_NAME = 'Kim Jong Un';

test('fresh list: the result records its publication date and age, with no warning; /readyz is ready', async () => {
  clock.set('2026-03-01T12:00:00.000Z');
  const created = await call(warn.url, 'POST', '/api/v1/screening/cdd', { authorization: `Bearer ${keys.warn}` }, { query: UN_NAME, entity_type: 'individual' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.deepEqual(created.body.screening.list_warnings, []);
  const detail = await call(warn.url, 'GET', `/api/v1/screening/${created.body.screening.id}`, { authorization: `Bearer ${keys.warn}` });
  const un = detail.body.screening.list_versions.find((v: any) => v.list === 'un_sc');
  assert.equal(un.published_at, '2026-02-27');
  assert.equal(un.published_at_source, 'file');
  assert.equal(un.age_days, 2);
  assert.equal(un.max_age_days, 7);
  assert.equal(un.stale, false);
  const ready = await call(warn.url, 'GET', '/readyz', {});
  assert.equal(ready.status, 200);
  assert.equal(ready.body.status, 'ready');
  assert.equal(ready.body.lists.find((l: any) => l.list === 'un_sc').age_days, 2);
});

test('clock set ahead: the list is 33 days old, every result and the report warn, /readyz and /lists say degraded', async () => {
  clock.set('2026-04-01T12:00:00.000Z');
  const warning = 'UN Security Council consolidated list is 33 days old: update the lists before relying on this result';
  const created = await call(warn.url, 'POST', '/api/v1/screening/cdd', { authorization: `Bearer ${keys.warn}` }, { query: UN_NAME, entity_type: 'individual' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.screening.status, 'completed');
  assert.deepEqual(created.body.screening.list_warnings, [warning]);
  const id = created.body.screening.id;
  const detail = await call(warn.url, 'GET', `/api/v1/screening/${id}`, { authorization: `Bearer ${keys.warn}` });
  assert.deepEqual(detail.body.screening.list_warnings, [warning]);
  const un = detail.body.screening.list_versions.find((v: any) => v.list === 'un_sc');
  assert.equal(un.age_days, 33);
  assert.equal(un.stale, true);

  // The event records the versions with their dates and ages (audit: what the answer rested on).
  const completed = (await warn.service.store.readStream(`screening-${id}`)).find((e) => e.type === 'ScreeningCompleted')!;
  const recorded = (completed.data as { listVersions: any[] }).listVersions.find((v) => v.source === 'un_sc');
  assert.equal(recorded.publishedAt, '2026-02-27');
  assert.equal(recorded.ageDays, 33);
  assert.equal(recorded.maxAgeDays, 7);
  assert.equal(recorded.stale, true);
  assert.match(recorded.loadedAt, /^\d{4}-\d{2}-\d{2}T/);

  // The JSON report (S3) carries the warning on its cover and the age in its audit trail.
  const account = await warn.createAccount('enterprise');
  const s3 = (await warn.createKey(account.accountId, 's3')).key;
  const s3created = await call(warn.url, 'POST', '/api/v1/screening/cdd', { 'x-api-key': s3 }, { query: UN_NAME, entity_type: 'individual' });
  assert.equal(s3created.status, 201, JSON.stringify(s3created.body));
  assert.deepEqual(s3created.body.data.list_warnings, [warning]);
  const report = await call(warn.url, 'GET', `/api/v1/screening/${s3created.body.data.id}/report`, { 'x-api-key': s3 });
  assert.equal(report.status, 200, JSON.stringify(report.body));
  const section = (key: string) => report.body.data.sections.find((s: any) => s.key === key).content;
  assert.deepEqual(report.body.data.list_warnings, [warning]);
  assert.deepEqual(section('cover').list_warnings, [warning]);
  const audited = section('audit').list_versions.find((v: any) => v.source === 'un_sc');
  assert.equal(audited.age_days, 33);
  assert.equal(audited.stale, true);

  // Person checks (S1) and subject checks (S2) show the lists in service with their ages and the warning.
  const person = await call(warn.url, 'POST', '/api/v1/person-checks', { authorization: `Bearer ${keys.warn}` }, { full_name: 'Ramzan Kadyrov', purpose: 'employment', fcra_consent: true });
  assert.ok([201, 202].includes(person.status), JSON.stringify(person.body));
  const personRead = await call(warn.url, 'GET', `/api/v1/person-checks/${person.body.person_check.id}`, { authorization: `Bearer ${keys.warn}` });
  assert.deepEqual(personRead.body.person_check.list_warnings, [warning]);
  assert.deepEqual(personRead.body.person_check.lists_in_service.map((l: any) => [l.list, l.age_days, l.stale]), [['un_sc', 33, true]]);
  const s2key = (await warn.createKey(account.accountId, 's2')).key;
  const check = await call(warn.url, 'POST', '/api/v1/compliance/subject-checks', { authorization: `Bearer ${s2key}` }, subject('Petrov'));
  assert.equal(check.status, 201, JSON.stringify(check.body));
  const checkRead = await call(warn.url, 'GET', `/api/v1/compliance/subject-checks/${check.body.subject_check_id}`, { authorization: `Bearer ${s2key}` });
  assert.equal(checkRead.status, 200, JSON.stringify(checkRead.body));
  assert.deepEqual(checkRead.body.subject_check.list_warnings, [warning]);
  assert.equal(checkRead.body.subject_check.lists_in_service[0].age_days, 33);

  const ready = await call(warn.url, 'GET', '/readyz', {});
  assert.equal(ready.status, 200, 'degraded still serves');
  assert.equal(ready.body.status, 'degraded');
  assert.deepEqual(ready.body.degraded, [warning]);
  const lists = await call(warn.url, 'GET', '/lists', {});
  assert.equal(lists.status, 200);
  assert.equal(lists.body.stale_policy, 'warn');
  assert.deepEqual(
    lists.body.lists.map((l: any) => [l.list, l.published_at, l.age_days, l.max_age_days, l.stale]),
    [['un_sc', '2026-02-27', 33, 7, true]],
  );
});

test('refuse mode with a stale list: 503 lists_stale on S1, S2, S3 and person checks, nothing written', async () => {
  clock.set('2026-04-01T12:00:00.000Z');
  const before = await writes(refuse);
  const s1 = await call(refuse.url, 'POST', '/api/v1/screening/cdd', { authorization: `Bearer ${keys.refuseS1}` }, { query: UN_NAME, entity_type: 'individual' });
  assert.equal(s1.status, 503);
  assert.equal(s1.body.success, false);
  assert.equal(s1.body.code, 'lists_stale');
  assert.match(s1.body.message, /UN Security Council consolidated list is 33 days old/);
  const s3 = await call(refuse.url, 'POST', '/api/v1/screening/cdd', { 'x-api-key': keys.refuseS3 }, { query: UN_NAME, entity_type: 'individual' });
  assert.equal(s3.status, 503);
  assert.match(s3.body.error, /33 days old/);
  const s2 = await call(refuse.url, 'POST', '/api/v1/compliance/subject-checks', { authorization: `Bearer ${keys.refuseS2}` }, subject('Petrov'));
  assert.equal(s2.status, 503, JSON.stringify(s2.body));
  assert.equal(s2.body.error.code, 'lists_stale');
  const person = await call(refuse.url, 'POST', '/api/v1/person-checks', { authorization: `Bearer ${keys.refuseS1}` }, { full_name: 'Ramzan Kadyrov', purpose: 'employment', fcra_consent: true });
  assert.equal(person.status, 503, JSON.stringify(person.body));
  assert.equal(person.body.code, 'lists_stale');
  const after = await writes(refuse);
  assert.equal(after.events, before.events, 'no event appended');
  const started = (await refuse.service.store.readAll()).filter((e) => /^(ScreeningRequested|PersonCheckRequested|SubjectCheckStarted)$/.test(e.type));
  assert.deepEqual(started.map((e) => e.type), [], 'no screening, person check or subject check started');

  // Back within the maximum age, the same request is served.
  clock.set('2026-03-02T12:00:00.000Z');
  const again = await call(refuse.url, 'POST', '/api/v1/screening/cdd', { authorization: `Bearer ${keys.refuseS1}` }, { query: UN_NAME, entity_type: 'individual' });
  assert.equal(again.status, 201, JSON.stringify(again.body));
  assert.deepEqual(again.body.screening.list_warnings, []);
});
