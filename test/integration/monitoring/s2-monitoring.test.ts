/**
 * Ongoing monitoring on S2 (`svca_` bearer) over real HTTP on the whole wired service: subject checks
 * of names on a copy of the bundled OFAC SDN list run through the real agent pipeline, are enrolled
 * (the `monitor` flag and the endpoint), then a list update (one record changed, one removed, one
 * added) is reloaded through the service's reloadLists hook. The alerts are events on the checks'
 * streams and S2 `subject_check.monitoring_alert` callbacks, delivered to a real HTTPS receiver that verifies each
 * signature over the raw bytes. Bad input on the new endpoints leaves no event behind.
 */
import { SHARED_DATA_DIR } from '../../support/shared-data';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { editSdnCsv } from '../../support/sdn-file';
import { startTestService, type TestService } from '../../support/service';
import { startHttpsReceiver, type HttpsReceiver } from '../../support/https-receiver';
import { call, settled, waitFor, writes } from '../api/s2/support';
import { ManualClock } from '../../../src/shared/clock';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../../src/webhooks/dispatcher';
import { createSecretBox } from '../../../src/webhooks/secrets';
import { handleStep } from '../../../src/commands/command-handler';
import { streamName as subjectCheckStream, subjectCheckDecider } from '../../../src/commands/subject-check';
import { computeDelta } from '../../../src/screening/delta';

const SECRETS_KEY = 's2-monitoring-secrets-key-0123456789abcdef0123';
const CHECKS = '/api/v1/compliance/subject-checks';

let svc: TestService;
let listsDir: string;
let key: string;
let otherKey: string;
let accountId: string;
let receiver: HttpsReceiver;
let dispatcher: WebhookDispatcher;
const dispatchClock = new ManualClock(new Date());

const post = (p: string, body?: unknown, bearer = key) => call(svc.url, 'POST', p, { bearer, ...(body !== undefined ? { body } : {}) });
const del = (p: string, bearer = key) => call(svc.url, 'DELETE', p, { bearer });
const get = (p: string, bearer = key) => call(svc.url, 'GET', p, { bearer });
const monitoringUrl = (id: number | string) => `${CHECKS}/${id}/monitoring`;

async function streamTypes(id: number): Promise<string[]> {
  return (await svc.service.store.readStream(subjectCheckStream(String(id)))).map((e) => e.type);
}

const editSdn = (edit: (lines: string[]) => string[]) => editSdnCsv(listsDir, edit);

async function check(firstName: string, lastName: string, extra: Record<string, unknown> = {}) {
  const res = await post(CHECKS, { first_name: firstName, last_name: lastName, locations: [{ country: 'PA' }], purpose: 'customer_due_diligence', consent: { certified: true }, ...extra });
  assert.equal(res.status, 201, res.text);
  const settledCheck = await settled(svc.url, key, res.body.subject_check_id);
  return settledCheck as { subject_check_id: number; status: string; monitoring: boolean; findings: { entity_id: string }[] };
}

before(async () => {
  listsDir = mkdtempSync(path.join(os.tmpdir(), 'svc-s2-monitoring-lists-'));
  // The July 2021 SDN snapshot (../shared/data): its listings (Noriega, Caviedes Cruz) are what the test updates;
  // the bundled 2024 file no longer lists them.
  cpSync(path.join(SHARED_DATA_DIR, 'ofac_sdn'), path.join(listsDir, 'ofac_sdn'), { recursive: true });
  svc = await startTestService({
    env: { LISTS_DIR: listsDir, LISTS_ONLY: 'ofac_sdn', LISTS_DATA_DIR: path.join(listsDir, 'versions'), WEBHOOK_ALLOW_PRIVATE: 'true', SECRETS_KEY },
  });
  // The service's own delivery loop is replaced by one that trusts the receiver's certificate.
  await svc.service.dispatcher!.stop();
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  key = (await svc.createKey(accountId, 's2')).key;
  otherKey = (await svc.createKey((await svc.createAccount('enterprise')).accountId, 's2')).key;
  receiver = await startHttpsReceiver({ surface: 's2', secret: 'not-yet-registered' });
  dispatcher = createWebhookDispatcher({ pool: svc.service.pool, clock: dispatchClock, secrets: createSecretBox(SECRETS_KEY), allowPrivate: true, ca: receiver.ca });
  const registered = await post('/api/v1/compliance/webhooks', { url: receiver.url });
  assert.equal(registered.status, 201, registered.text);
  receiver.setSecret(registered.body.signing_secret);
});
after(async () => {
  await receiver?.close();
  await svc?.stop();
  if (listsDir) rmSync(listsDir, { recursive: true, force: true });
});

let noriega: Awaited<ReturnType<typeof check>>;
let caviedes: Awaited<ReturnType<typeof check>>;
let kestrel: Awaited<ReturnType<typeof check>>;

describe('S2 monitoring', () => {
  it('`monitor: true` enrols a check when it concludes, with the listed entities it reported', async () => {
    noriega = await check('Manuel', 'Noriega', { middle_name: 'Antonio', monitor: true });
    assert.ok(['escalated', 'needs_review', 'completed'].includes(noriega.status), noriega.status);
    assert.ok(noriega.findings.some((f) => f.entity_id === 'ofac_sdn:1572'), JSON.stringify(noriega.findings));
    const types = await streamTypes(noriega.subject_check_id);
    const enrolledAt = types.indexOf('SubjectCheckMonitoringEnrolled');
    assert.ok(enrolledAt > 0 && ['SubjectCheckEscalated', 'SubjectCheckReviewRequired', 'SubjectCheckCompleted'].includes(types[enrolledAt - 1]!), types.join(','));
    const enrolled = (await svc.service.store.readStream(subjectCheckStream(String(noriega.subject_check_id))))[enrolledAt]!.data as any;
    assert.equal(enrolled.subject.name, 'Manuel Antonio Noriega');
    assert.ok(enrolled.hits.some((h: any) => h.entityId === 'ofac_sdn:1572' && /^[0-9a-f]{64}$/.test(h.entityRecordHash)), JSON.stringify(enrolled.hits));
    assert.equal(noriega.monitoring, true, 'GET shows the enrolment');
  });

  it('POST …/monitoring enrols a concluded check (idempotent); DELETE unenrols it (idempotent)', async () => {
    caviedes = await check('Leonardo', 'Caviedes Cruz');
    kestrel = await check('Kestrel', 'Zorriban');
    assert.equal(caviedes.monitoring, false);
    assert.ok(caviedes.findings.some((f) => f.entity_id === 'ofac_sdn:4149'), JSON.stringify(caviedes.findings));
    assert.equal(kestrel.findings.length, 0);
    for (const c of [caviedes, kestrel]) {
      const res = await post(monitoringUrl(c.subject_check_id));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true, subject_check_id: c.subject_check_id, monitoring: true });
    }
    const again = await post(monitoringUrl(caviedes.subject_check_id), {});
    assert.deepEqual(again.body, { success: true, subject_check_id: caviedes.subject_check_id, monitoring: true });
    assert.equal((await streamTypes(caviedes.subject_check_id)).filter((t) => t === 'SubjectCheckMonitoringEnrolled').length, 1, 'enrolling twice appends once');

    // Unenrol and enrol again: each appends one event, repeats append nothing.
    assert.deepEqual((await del(monitoringUrl(kestrel.subject_check_id))).body, { success: true, subject_check_id: kestrel.subject_check_id, monitoring: false });
    assert.equal((await del(monitoringUrl(kestrel.subject_check_id))).status, 200);
    assert.equal((await post(monitoringUrl(kestrel.subject_check_id))).body.monitoring, true);
    assert.deepEqual(
      (await streamTypes(kestrel.subject_check_id)).filter((t) => t.startsWith('SubjectCheckMonitoring')),
      ['SubjectCheckMonitoringEnrolled', 'SubjectCheckMonitoringUnenrolled', 'SubjectCheckMonitoringEnrolled'],
    );
    const shown = await get(`${CHECKS}/${caviedes.subject_check_id}`);
    assert.equal(shown.body.subject_check.monitoring, true);
    assert.deepEqual(shown.body.subject_check.monitoring_alerts, []);
  });

  it('refuses bad input in the S2 envelope and writes nothing', async () => {
    // A check that did not conclude (failed) cannot be enrolled: 409. Started and failed in one append:
    // appended one after the other, the running service's pipeline could conclude the check in between.
    const failedId = '990000001';
    const system = { now: new Date().toISOString(), actor: { surface: 'system' as const }, correlationId: randomUUID() };
    await handleStep(svc.service.store, subjectCheckDecider, subjectCheckStream(failedId), (state) => {
      const started = subjectCheckDecider.decide(
        {
          type: 'StartSubjectCheck',
          data: { subjectCheckId: failedId, accountId, firstName: 'Fay', lastName: 'Failing', locations: [{ country: 'GB' }], purpose: 'employment', consent: { certified: true } },
          metadata: { ...system, commandId: randomUUID() },
        },
        state,
      );
      const failed = subjectCheckDecider.decide(
        { type: 'FailSubjectCheck', data: { subjectCheckId: failedId, errorMessage: 'sources unavailable' }, metadata: { ...system, commandId: randomUUID() } },
        started.reduce(subjectCheckDecider.evolve, state),
      );
      return [...started, ...failed];
    });
    const baseline = await writes(svc);
    const expectError = (res: Awaited<ReturnType<typeof post>>, status: number, code: string, what: string) => {
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body), ['error'], `${what}: S2 envelope`);
      assert.equal(res.body.error.code, code, what);
      assert.equal(typeof res.body.error.message, 'string');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `${what}: JSON, never HTML`);
      assert.doesNotMatch(res.text, /\bat \w+ \(|node_modules/, `${what}: no stack`);
    };
    const notReflected = (res: Awaited<ReturnType<typeof post>>, what: string) => assert.doesNotMatch(res.text, /<script>|' OR '/, `${what}: the id is not echoed`);

    expectError(await post(monitoringUrl(failedId)), 409, 'illegal_transition', 'failed check');
    expectError(await post(monitoringUrl('abc')), 400, 'invalid_payload', 'malformed id');
    expectError(await del(monitoringUrl('0')), 400, 'invalid_payload', 'zero id');
    expectError(await post(monitoringUrl('9'.repeat(40))), 400, 'invalid_payload', 'oversized id');
    for (const [hostile, what] of [
      ["1' OR '1'='1", 'SQL in the id'],
      ['<script>alert(1)</script>', 'HTML in the id'],
    ]) {
      const res = await post(monitoringUrl(encodeURIComponent(hostile)));
      expectError(res, 400, 'invalid_payload', what);
      notReflected(res, what);
    }
    expectError(await post(monitoringUrl('12%00')), 400, 'invalid_payload', 'control character in the id');
    expectError(await post(`${CHECKS}//monitoring`), 404, 'not_found', 'missing id');
    expectError(await post(monitoringUrl(999_999_999)), 404, 'not_found', 'unknown check');
    expectError(await post(monitoringUrl(caviedes.subject_check_id), undefined, otherKey), 404, 'not_found', "another account's check");
    expectError(await del(monitoringUrl(caviedes.subject_check_id), otherKey), 404, 'not_found', "another account's check (DELETE)");
    const unknownKey = key.slice(0, -4) + (key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expectError(await post(monitoringUrl(kestrel.subject_check_id), undefined, unknownKey), 401, 'invalid_key', 'unknown key');
    expectError(await call(svc.url, 'POST', monitoringUrl(kestrel.subject_check_id)), 401, 'invalid_key_format', 'no key');
    const withFields = await post(monitoringUrl(kestrel.subject_check_id), { monitoring: false, "<script>'; DROP TABLE x;--": 1 });
    expectError(withFields, 400, 'invalid_payload', 'a body with fields');
    assert.ok(withFields.body.error.errors.includes('monitoring: unknown field'), JSON.stringify(withFields.body));
    expectError(await call(svc.url, 'POST', monitoringUrl(kestrel.subject_check_id), { bearer: key, raw: '{"monitor": tru' }), 400, 'invalid_payload', 'not JSON');
    expectError(await call(svc.url, 'POST', monitoringUrl(kestrel.subject_check_id), { bearer: key, raw: '[1,2]' }), 400, 'invalid_payload', 'a JSON array');
    expectError(
      await call(svc.url, 'DELETE', monitoringUrl(kestrel.subject_check_id), { bearer: key, raw: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) }),
      413,
      'payload_too_large',
      '1 MB body',
    );
    // The creation flag is validated like every other field.
    const badFlag = await post(CHECKS, { first_name: 'Kestrel', last_name: 'Zorriban', locations: [{ country: 'PA' }], purpose: 'employment', consent: { certified: true }, monitor: 'yes' });
    expectError(badFlag, 400, 'invalid_payload', 'monitor: "yes"');
    assert.ok(badFlag.body.error.errors.some((e: string) => e.startsWith('monitor: ')), JSON.stringify(badFlag.body));

    assert.deepEqual(await writes(svc), baseline, 'no event and no counter written by any of these');
    assert.deepEqual((await streamTypes(Number(failedId))).filter((t) => t.startsWith('SubjectCheckMonitoring')), []);
  });

  it('a list update alerts the enrolled checks it concerns (new, changed, removed), once, as signed S2 callbacks', async () => {
    // 1572 (Noriega) gets new remarks, 4149 (Caviedes Cruz) is delisted, Kestrel Zorriban is listed.
    editSdn((lines) =>
      lines
        .filter((l) => !l.startsWith('4149,'))
        .map((l) => (l.startsWith('1572,') ? l.replace(/-0- $/, '"a.k.a. \'CARA DE PINA\'."') : l))
        .concat(['99999001,"ZORRIBAN, Kestrel","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 01 Jan 1970."']),
    );
    await svc.service.reloadLists();
    const runs = svc.service.monitoring!.lastRuns();
    assert.equal(runs.length, 1);
    const run = runs[0]!;
    assert.deepEqual([runs[0]!.addedEntities, runs[0]!.changedEntities, runs[0]!.removedEntities], [1, 1, 1]);
    assert.equal(runs[0]!.subjectChecks?.enrolled, 3);
    assert.equal(runs[0]!.subjectChecks?.alertsRaised, 3);
    assert.ok(runs[0]!.subjectChecks!.subjectsRescreened <= 2, `only the subjects the delta reaches are screened (${runs[0]!.subjectChecks!.subjectsRescreened})`);

    const alertOf = async (id: number) => {
      const alerts = (await svc.service.store.readStream(subjectCheckStream(String(id)))).filter((e) => e.type === 'SubjectCheckMonitoringAlertRaised');
      assert.equal(alerts.length, 1, `one alert on ${id}`);
      return alerts[0]!.data as any;
    };
    const changed = await alertOf(noriega.subject_check_id);
    assert.equal(changed.kind, 'changed_hit');
    assert.equal(changed.entityId, 'ofac_sdn:1572');
    assert.ok(Object.keys(changed.diff).length > 0 && JSON.stringify(changed.diff).includes('CARA DE PINA'), JSON.stringify(changed.diff));
    const removed = await alertOf(caviedes.subject_check_id);
    assert.equal(removed.kind, 'removed_hit');
    assert.equal(removed.entityId, 'ofac_sdn:4149');
    const added = await alertOf(kestrel.subject_check_id);
    assert.equal(added.kind, 'new_hit');
    assert.equal(added.entityId, 'ofac_sdn:99999001');
    assert.equal(added.alertId, `${added.listVersion}:ofac_sdn:99999001`);
    assert.ok(added.score >= 0.8);

    // The alerts are in the check's detail…
    await svc.service.runner!.caughtUp();
    const detail = await get(`${CHECKS}/${kestrel.subject_check_id}`);
    assert.deepEqual(
      detail.body.subject_check.monitoring_alerts.map((a: any) => [a.kind, a.entity_id, a.list]),
      [['new_hit', 'ofac_sdn:99999001', 'ofac_sdn']],
    );
    assert.equal(detail.body.subject_check.status, kestrel.status, 'an alert never changes the verdict');

    // …and delivered as S2 subject_check.monitoring_alert callbacks, signed over the raw bytes with the account's secret.
    const expected = [
      [noriega.subject_check_id, 'changed_hit', 'ofac_sdn:1572'],
      [caviedes.subject_check_id, 'removed_hit', 'ofac_sdn:4149'],
      [kestrel.subject_check_id, 'new_hit', 'ofac_sdn:99999001'],
    ];
    const alerts = await waitFor('three subject_check.monitoring_alert deliveries', async () => {
      dispatchClock.set(Math.max(dispatchClock.now().getTime(), Date.now()));
      await dispatcher.runDue();
      const got = receiver.requests.filter((r) => r.json?.event === 'subject_check.monitoring_alert');
      return got.length >= 3 ? got : undefined;
    });
    assert.equal(alerts.length, 3);
    for (const request of alerts) {
      assert.equal(request.signatureValid, true, request.failure);
      assert.equal(request.headers['user-agent'], 'Service-Webhooks/1.0');
      assert.deepEqual(Object.keys(request.headers).filter((h) => h.startsWith('x-')), ['x-service-signature'], 'S2: no timestamp or delivery header');
      const removal = request.json!.alert_kind === 'removed_hit';
      assert.deepEqual(Object.keys(request.json!), [
        'event', 'subject_check_id', 'account_id', 'alert_id', 'alert_kind', 'entity_id', 'list', 'matched_name', 'score', 'detected_at', 'risk_level', 'match_strength',
        ...(removal ? [] : ['identity_note']),
      ]);
      // issue 27: a new or re-scored hit says what it means for the subject; a removal has nothing to assess
      if (removal) assert.deepEqual([request.json!.risk_level, request.json!.match_strength], [null, null]);
      else assert.ok(['low', 'medium', 'high', 'critical'].includes(request.json!.risk_level as string), JSON.stringify(request.json));
      assert.equal(request.json!.alert_id, `${run.toVersion}:${request.json!.entity_id}`);
      assert.equal(request.json!.account_id, Number(accountId));
      assert.equal(request.json!.list, 'ofac_sdn');
    }
    assert.deepEqual(
      alerts.map((r) => [r.json!.subject_check_id, r.json!.alert_kind, r.json!.entity_id]).sort(),
      expected.sort(),
    );
    const log = await get(`/api/v1/compliance/webhooks/deliveries?event=subject_check.monitoring_alert&subject_check_id=${kestrel.subject_check_id}`);
    assert.equal(log.body.deliveries.length, 1, log.text);
    assert.equal(log.body.deliveries[0].status, 'succeeded');
  });

  it('the same update matched again alerts nobody twice; an unenrolled check gets nothing', async () => {
    const monitoring = svc.service.monitoring!;
    const run = monitoring.lastRuns()[0]!;
    const [old, fresh] = await Promise.all([monitoring.lists.getVersion(run.fromVersion!), monitoring.lists.getVersion(run.toVersion!)]);
    const version = monitoring.lists.currentVersions().find((v) => v.id === run.toVersion)!;
    const counts = async () => Promise.all([noriega, caviedes, kestrel].map(async (c) => (await streamTypes(c.subject_check_id)).length));
    const before = await counts();
    const again = await monitoring.service.onListUpdate(computeDelta(old!, fresh!, { to: version }), svc.service.engine());
    assert.equal(again.subjectChecks?.alertsRaised, 0);
    assert.deepEqual(await counts(), before);

    assert.equal((await del(monitoringUrl(noriega.subject_check_id))).body.monitoring, false);
    editSdn((lines) => lines.map((l) => (l.startsWith('1572,') ? l.replace("'CARA DE PINA'", "'CARA DE PINA'; a.k.a. 'EL GENERAL'") : l)));
    await svc.service.reloadLists();
    assert.equal(monitoring.lastRuns()[0]!.changedEntities, 1);
    const after = await streamTypes(noriega.subject_check_id);
    assert.equal(after.length, before[0]! + 1, 'only SubjectCheckMonitoringUnenrolled was added');
    assert.equal(after.at(-1), 'SubjectCheckMonitoringUnenrolled');
  });

  it('the monitoring routes and the S2 subject_check.monitoring_alert callback are in the served OpenAPI document', async () => {
    const res = await call(svc.url, 'GET', '/api/v1/openapi.json');
    const item = res.body.paths['/api/v1/compliance/subject-checks/{id}/monitoring'];
    assert.deepEqual(Object.keys(item).sort(), ['delete', 'post']);
    assert.deepEqual(item.post.security, [{ S2BearerKey: [] }]);
    assert.ok(item.post.responses['409'] && item.post.responses['404'] && item.post.responses['400']);
    assert.ok(res.body['x-webhooks']['subject_check.monitoring_alert']);
    assert.ok(res.body['x-webhooks']['monitoring.alert'].post.requestBody, 'S1\'s monitoring.alert is still documented');
    assert.ok(res.body.components.schemas.S2SubjectCheckRequest.properties.monitor);
  });
});
