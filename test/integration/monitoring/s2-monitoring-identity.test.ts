/**
 * Issue 27 on S2 ongoing monitoring, over real HTTP (`svca_` bearer) on the whole wired service with a
 * real PostgreSQL: a monitored subject check is re-screened after a list update with the facts it was
 * run with (the enrolment records them), so a listed newcomer of the same common name is
 * - a potential match (high) for the check run by name only,
 * - a namesake (at most medium, never high) for the check whose date of birth the listing contradicts,
 * - confirmed (critical) for the check whose date of birth the listing carries,
 * each alert saying so in `monitoring_alerts` of GET …/subject-checks/{id}; a fresh check of the same
 * subject on the updated list reaches the same level. A check enrolled before the enrolment recorded
 * the facts (version 1) is assessed on the facts it was started with. The detail read with a bad id answers in the S2
 * envelope and writes nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { copySdnList, editSdnCsv, sdnPerson } from '../../support/sdn-file';
import { startTestService, type TestService } from '../../support/service';
import { call, settled, writes } from '../api/s2/support';
import { randomUUID } from 'node:crypto';
import { handleStep } from '../../../src/commands/command-handler';
import { streamName as subjectCheckStream, subjectCheckDecider, type SubjectCheckEvent } from '../../../src/commands/subject-check';

const CHECKS = '/api/v1/compliance/subject-checks';
const ORDER = ['low', 'medium', 'high', 'critical'];
const rank = (level: string) => ORDER.indexOf(level);

let svc: TestService;
let listsDir: string;
let key: string;
let otherKey: string;

before(async () => {
  const lists = copySdnList('svc-s2-monitoring-identity-');
  listsDir = lists.listsDir;
  svc = await startTestService({ env: lists.env });
  key = (await svc.createKey((await svc.createAccount('enterprise')).accountId, 's2')).key;
  otherKey = (await svc.createKey((await svc.createAccount('enterprise')).accountId, 's2')).key;
});
after(async () => {
  await svc?.stop();
  if (listsDir) rmSync(listsDir, { recursive: true, force: true });
});

/** Starts a check of Mehmet Yilmaz (a very common Turkish name) and waits for its conclusion. */
async function check(extra: Record<string, unknown>): Promise<any> {
  const res = await call(svc.url, 'POST', CHECKS, {
    bearer: key,
    body: { first_name: 'Mehmet', last_name: 'Yilmaz', locations: [{ country: 'TR' }], purpose: 'customer_due_diligence', consent: { certified: true }, ...extra },
  });
  assert.equal(res.status, 201, res.text);
  return settled(svc.url, key, res.body.subject_check_id);
}

/** Appends data lines to the copied SDN CSV and reloads the lists: monitoring runs. */
async function listOnSdn(lines: string[]): Promise<void> {
  editSdnCsv(listsDir, (kept) => [...kept, ...lines]);
  await svc.service.reloadLists();
  await svc.service.runner!.caughtUp();
}

const NEWCOMER = 'ofac_sdn:99999201';
async function alertShown(id: number): Promise<any> {
  const res = await call(svc.url, 'GET', `${CHECKS}/${id}`, { bearer: key });
  assert.equal(res.status, 200, res.text);
  const alerts = res.body.subject_check.monitoring_alerts.filter((a: any) => a.entity_id === NEWCOMER);
  assert.equal(alerts.length, 1, JSON.stringify(res.body.subject_check.monitoring_alerts));
  return alerts[0];
}

describe('S2 monitoring assesses a listed newcomer on the check\'s own facts (issue 27)', () => {
  let nameOnly: any;
  let namesake: any;
  let listedPerson: any;
  let enrolledBeforeFacts: any;

  it('given three monitored checks of one common name (no date of birth, another one, the one to be listed), then each is clean and its enrolment records its facts', async () => {
    nameOnly = await check({ monitor: true });
    namesake = await check({ date_of_birth: '1980-05-05', monitor: true });
    listedPerson = await check({ date_of_birth: '1970-01-01', nationality: 'TR', identifiers: [{ type: 'passport', value: 'U12345678' }], monitor: true });
    for (const c of [nameOnly, namesake, listedPerson]) {
      assert.equal(c.monitoring, true, JSON.stringify(c));
      assert.equal(c.findings.length, 0, `nobody of the name is listed yet: ${JSON.stringify(c.findings)}`);
    }
    const enrolment = async (c: any) =>
      (await svc.service.store.readStream(subjectCheckStream(String(c.subject_check_id)))).find((e) => e.type === 'SubjectCheckMonitoringEnrolled')!.data as any;
    assert.deepEqual((await enrolment(nameOnly)).subject, { name: 'Mehmet Yilmaz', entityType: 'individual', jurisdiction: 'TR' });
    assert.equal((await enrolment(namesake)).subject.dateOfBirth, '1980-05-05');
    // A check enrolled as before version 2: its enrolment names the subject without the facts.
    enrolledBeforeFacts = await check({ date_of_birth: '1980-05-05' });
    await handleStep<SubjectCheckEvent, any>(svc.service.store, subjectCheckDecider, subjectCheckStream(String(enrolledBeforeFacts.subject_check_id)), (state) =>
      subjectCheckDecider
        .decide(
          {
            type: 'EnrollInMonitoring',
            data: { subjectCheckId: String(enrolledBeforeFacts.subject_check_id) },
            metadata: { now: new Date().toISOString(), actor: { surface: 'system' }, commandId: randomUUID(), correlationId: randomUUID() },
          },
          state,
        )
        .map((e) => ({ ...e, data: { ...e.data, subject: { name: 'Mehmet Yilmaz', entityType: 'individual', jurisdiction: 'TR' } } }) as SubjectCheckEvent),
    );
    assert.deepEqual((await enrolment(enrolledBeforeFacts)).subject, { name: 'Mehmet Yilmaz', entityType: 'individual', jurisdiction: 'TR' });
    assert.deepEqual((await enrolment(listedPerson)).subject, {
      name: 'Mehmet Yilmaz',
      entityType: 'individual',
      jurisdiction: 'TR',
      dateOfBirth: '1970-01-01',
      nationality: 'TR',
      identifiers: [{ type: 'passport', value: 'U12345678' }],
    });
  });

  it('when a Mehmet Yilmaz born 01 Jan 1970 is listed, then the name-only check is potential (high), the namesake at most medium and the listed person confirmed by the date of birth (critical)', async () => {
    await listOnSdn([sdnPerson(99999201, 'YILMAZ, Mehmet', '01 Jan 1970')]);
    const run = svc.service.monitoring!.lastRuns()[0]!;
    assert.equal(run.subjectChecks?.alertsRaised, 4, JSON.stringify(run.subjectChecks));

    const potential = await alertShown(nameOnly.subject_check_id);
    assert.equal(potential.kind, 'new_hit');
    assert.equal(potential.risk_level, 'high', JSON.stringify(potential));
    assert.equal(potential.match_strength, 'potential');
    assert.match(potential.identity_note, /name only: common name.*needs an identity fact/);

    const contradicted = await alertShown(namesake.subject_check_id);
    assert.ok(rank(contradicted.risk_level) >= 0 && rank(contradicted.risk_level) <= rank('medium'), `the namesake is not a high alert: ${JSON.stringify(contradicted)}`);
    assert.deepEqual([contradicted.match_strength, contradicted.assessment], ['potential', 'identity_contradicted']);
    assert.match(contradicted.identity_note, /1980-05-05/);
    // enrolled before version 2: assessed on the date of birth the check was started with
    const legacy = await alertShown(enrolledBeforeFacts.subject_check_id);
    assert.deepEqual([legacy.risk_level, legacy.assessment], [contradicted.risk_level, 'identity_contradicted'], JSON.stringify(legacy));

    const confirmed = await alertShown(listedPerson.subject_check_id);
    assert.equal(confirmed.risk_level, 'critical', JSON.stringify(confirmed));
    assert.deepEqual([confirmed.match_strength, confirmed.assessment, confirmed.confirmation?.basis], ['confirmed', 'identity_corroborated', 'date_of_birth']);

    // The event records what the view shows.
    const recorded = (await svc.service.store.readStream(subjectCheckStream(String(listedPerson.subject_check_id)))).find((e) => e.type === 'SubjectCheckMonitoringAlertRaised')!.data as any;
    assert.deepEqual([recorded.identity.assessment, recorded.riskLevel], ['identity_corroborated', 'critical']);
    // An alert never changes the check's own verdict.
    const after = await call(svc.url, 'GET', `${CHECKS}/${listedPerson.subject_check_id}`, { bearer: key });
    assert.deepEqual([after.body.subject_check.status, after.body.subject_check.risk_level], [listedPerson.status, listedPerson.risk_level]);
  });

  it('then a fresh check of each subject on the updated list reaches the level its alert gave', async () => {
    for (const [monitored, extra] of [
      [nameOnly, {}],
      [namesake, { date_of_birth: '1980-05-05' }],
      [listedPerson, { date_of_birth: '1970-01-01', nationality: 'TR', identifiers: [{ type: 'passport', value: 'U12345678' }] }],
    ] as const) {
      const fresh = await check(extra);
      const alert = await alertShown(monitored.subject_check_id);
      assert.ok(fresh.findings.some((f: any) => f.entity_id === NEWCOMER), JSON.stringify(fresh.findings));
      assert.equal(fresh.risk_level, alert.risk_level, `${JSON.stringify(extra)}: fresh ${fresh.risk_level} (${fresh.risk_reason}), alert ${alert.risk_level}`);
    }
  });

  it('the detail read refuses a missing, malformed, oversized or hostile id in the S2 envelope and writes nothing', async () => {
    const baseline = await writes(svc);
    const expectError = (res: Awaited<ReturnType<typeof call>>, status: number, code: string, what: string) => {
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body), ['error'], `${what}: S2 envelope`);
      assert.equal(res.body.error.code, code, what);
      assert.doesNotMatch(res.text, /<script>|' OR '|\bat \w+ \(|node_modules/, `${what}: nothing echoed, no stack`);
    };
    const get = (id: string, bearer = key) => call(svc.url, 'GET', `${CHECKS}/${id}`, { bearer });
    expectError(await get('999999999'), 404, 'not_found', 'unknown id');
    expectError(await get(String(listedPerson.subject_check_id), otherKey), 404, 'not_found', "another account's check");
    expectError(await get('abc'), 400, 'invalid_payload', 'malformed id');
    expectError(await get('9'.repeat(40)), 400, 'invalid_payload', 'oversized id');
    expectError(await get(encodeURIComponent("1' OR '1'='1")), 400, 'invalid_payload', 'SQL in the id');
    expectError(await get(encodeURIComponent('<script>alert(1)</script>')), 400, 'invalid_payload', 'HTML in the id');
    assert.deepEqual(await writes(svc), baseline);
  });
});
