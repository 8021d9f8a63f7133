/**
 * Backpressure for checks, like screenings (backpressure.test.ts): with MAX_INFLIGHT_PERSON_CHECKS person
 * checks (S1, portal) or MAX_INFLIGHT_SUBJECT_CHECKS subject checks (S2) of this process still running, a
 * new one is refused at once with 503 and Retry-After in the caller's envelope, nothing written; an S2
 * batch needs a slot for every valid subject or starts none; a slot frees when the store shows the check's
 * pipeline ended. The whole service over real HTTP and PostgreSQL; no agents run, so checks stay running.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { handleCommand } from '../../../src/commands/command-handler';
import { personCheckDecider, streamName as personCheckStream } from '../../../src/commands/person-check';
import { streamName as subjectCheckStream, subjectCheckDecider } from '../../../src/commands/subject-check';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;
let s1Key: string;
let s2Key: string;
let portalToken: string;

before(async () => {
  svc = await startTestService({ agents: 'none', env: { MAX_INFLIGHT_PERSON_CHECKS: '2', MAX_INFLIGHT_SUBJECT_CHECKS: '3', SCREENING_WAIT_MS: '0' } });
  const account = await svc.createAccount('enterprise');
  s1Key = (await svc.createKey(account.accountId, 's1')).key;
  s2Key = (await svc.createKey(account.accountId, 's2')).key;
  const signIn = await fetch(`${svc.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: account.email, password: account.password }) });
  assert.equal(signIn.status, 200);
  portalToken = ((await signIn.json()) as { data: { token: string } }).data.token;
});
after(async () => {
  await svc?.stop();
});

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${svc.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const s1PersonCheck = (fullName: string) => post('/api/v1/person-checks', { authorization: `Bearer ${s1Key}` }, { full_name: fullName, purpose: 'employment', fcra_consent: true });
const portalPersonCheck = (first: string) =>
  post('/api/person-checks', { authorization: `Bearer ${portalToken}` }, { first_name: first, last_name: 'Example', purpose: 'employment', fcra_consent: true });
const subject = (last: string) => ({ first_name: 'Margaret', last_name: last, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true } });
const s2 = (path: string, body: unknown) => post(`/api/v1/compliance${path}`, { authorization: `Bearer ${s2Key}` }, body);

/** Creation events naming this subject in the store (nothing refused may be written). */
async function created(type: 'PersonCheckRequested' | 'SubjectCheckStarted', name: string): Promise<number> {
  return (await svc.service.store.readAll()).filter((e) => {
    if (e.type !== type) return false;
    const data = e.data as { fullName?: string; firstName?: string; lastName?: string };
    return data.fullName === name || data.firstName === name || data.lastName === name;
  }).length;
}

async function untilAdmitted(send: () => Promise<Response>, status: number): Promise<Response> {
  for (let i = 0; i < 60; i++) {
    const answer = await send();
    if (answer.status !== 503) {
      if (answer.status !== status) assert.fail(`${answer.status}: ${await answer.text()}`);
      return answer;
    }
    await answer.arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('never admitted after a slot was freed');
}

describe('backpressure: person checks in flight per process (S1 and portal share the bound)', () => {
  it('refuses past the bound with 503 + Retry-After in each envelope, writes nothing, admits again once one ends', async () => {
    const first = await s1PersonCheck('Alice Inflight');
    assert.equal(first.status, 202, 'still running (no agents)');
    const firstId = ((await first.json()) as { person_check: { id: string } }).person_check.id;
    const second = await portalPersonCheck('Bob');
    assert.ok(second.status === 201 || second.status === 202, `portal check accepted (${second.status})`);
    await second.arrayBuffer();

    const refusedS1 = await s1PersonCheck('Carol Refused');
    assert.equal(refusedS1.status, 503);
    assert.ok(Number(refusedS1.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
    const s1Body = (await refusedS1.json()) as Record<string, unknown>;
    assert.equal(s1Body.success, false);
    assert.equal(s1Body.code, 'service_unavailable');
    assert.match(String(s1Body.message), /at capacity \(2 person checks in progress\)/);

    const refusedPortal = await portalPersonCheck('Carol Refused');
    assert.equal(refusedPortal.status, 503);
    assert.ok(Number(refusedPortal.headers.get('retry-after')) >= 1);
    const portalBody = (await refusedPortal.json()) as Record<string, unknown>;
    assert.match(String(portalBody.error), /at capacity/);
    assert.equal(portalBody.success, undefined, 'the portal envelope, not S1');
    assert.equal(await created('PersonCheckRequested', 'Carol Refused'), 0);
    assert.equal(await created('PersonCheckRequested', 'Carol'), 0);

    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.match(metrics, /^svc_checks_in_flight\{kind="person_check"\} 2$/m);
    assert.match(metrics, /^svc_checks_in_flight_limit\{kind="person_check"\} 2$/m);

    // The first ends (fails): the process sees it in the store and frees its slot.
    await handleCommand(svc.service.store, personCheckDecider, personCheckStream(firstId), {
      type: 'FailPersonCheck',
      data: { personCheckId: firstId, reason: 'test: ended' },
      metadata: { now: new Date().toISOString(), actor: { surface: 'system' }, commandId: `fail-${firstId}` },
    });
    await (await untilAdmitted(() => s1PersonCheck('Dave Admitted'), 202)).arrayBuffer();
    assert.equal(await created('PersonCheckRequested', 'Dave Admitted'), 1);
  });
});

describe('backpressure: S2 subject checks in flight per process', () => {
  it('refuses a single check and a batch without room with 503 + Retry-After in the S2 envelope, nothing started', async () => {
    const ids: number[] = [];
    for (const last of ['Inflight-A', 'Inflight-B']) {
      const answer = await s2('/subject-checks', subject(last));
      assert.equal(answer.status, 201);
      ids.push(((await answer.json()) as { subject_check_id: number }).subject_check_id);
    }
    // One slot left: a batch of two valid subjects (and one invalid) starts nothing.
    const batch = await s2('/subject-checks/batch', { subjects: [subject('Batch-A'), { first_name: '' }, subject('Batch-B')] });
    assert.equal(batch.status, 503);
    assert.ok(Number(batch.headers.get('retry-after')) >= 1);
    const batchBody = (await batch.json()) as { error: { code: string; message: string } };
    assert.equal(batchBody.error.code, 'service_unavailable');
    assert.match(batchBody.error.message, /2 asked for, 1 free/);
    assert.equal(await created('SubjectCheckStarted', 'Batch-A'), 0);
    assert.equal(await created('SubjectCheckStarted', 'Batch-B'), 0);

    const third = await s2('/subject-checks', subject('Inflight-C'));
    assert.equal(third.status, 201);
    ids.push(((await third.json()) as { subject_check_id: number }).subject_check_id);
    const refused = await s2('/subject-checks', subject('Refused'));
    assert.equal(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const refusedBody = (await refused.json()) as { error: { code: string; message: string } };
    assert.equal(refusedBody.error.code, 'service_unavailable');
    assert.match(refusedBody.error.message, /3 subject checks in progress/);
    assert.equal(await created('SubjectCheckStarted', 'Refused'), 0);
    assert.match(await (await fetch(`${svc.url}/metrics`)).text(), /^svc_checks_in_flight\{kind="subject_check"\} 3$/m);

    // Two end: the batch of two then fits.
    for (const id of ids.slice(0, 2)) {
      await handleCommand(svc.service.store, subjectCheckDecider, subjectCheckStream(String(id)), {
        type: 'FailSubjectCheck',
        data: { subjectCheckId: String(id), errorMessage: 'test: ended' },
        metadata: { now: new Date().toISOString(), actor: { surface: 'system' }, commandId: `fail-${id}` },
      });
    }
    const admitted = await untilAdmitted(() => s2('/subject-checks/batch', { subjects: [subject('Batch-A'), subject('Batch-B')] }), 201);
    assert.equal(((await admitted.json()) as { created_count: number }).created_count, 2);
    assert.equal(await created('SubjectCheckStarted', 'Batch-A'), 1);
  });
});
