/**
 * A deployment whose process manager is not running (API process only): creation still records the
 * check, answers 202 with a Location to poll, and the check reads back as running without a result.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let key: string;

before(async () => {
  svc = await startTestService({ agents: 'none', env: { LISTS_ONLY: 'ofac_sdn', SCREENING_WAIT_MS: '300' } });
  const account = await svc.createAccount('enterprise');
  key = (await svc.createKey(account.accountId, 's1')).key;
});
after(async () => {
  await svc?.stop();
});

test('creation answers 202 with a Location while the pipeline has not run; the check reads back as running', async () => {
  const res = await fetch(`${svc.url}/api/v1/person-checks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ full_name: 'Jane Roe', purpose: 'volunteer_screening', fcra_consent: true }),
  });
  assert.equal(res.status, 202);
  const body = (await res.json()) as any;
  assert.equal(body.person_check.status, 'running');
  assert.equal(body.person_check.result, null);
  assert.equal(body.person_check.confidence, null);
  assert.equal(res.headers.get('location'), `/api/v1/person-checks/${body.person_check.id}`);
  const got = await fetch(`${svc.url}${res.headers.get('location')}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(got.status, 200);
  const view = ((await got.json()) as any).person_check;
  assert.equal(view.status, 'running');
  assert.equal(view.sources_total, 14);
  assert.equal(view.consent.permissible_purpose, 'volunteer_screening');
});
