/**
 * S2 subject checks take the facts that confirm or clear a hit, with the names and formats S1, S3 and
 * the portal use (issue 27 §3): nationality, identifiers, phone and email beside date_of_birth. Over
 * real HTTP: they are recorded on SubjectCheckStarted and reach the list agents' subject; bad values
 * are 400 invalid_payload naming the field, nothing written.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { call, subject, writes } from './support';

let svc: TestService;
let key: string;
const CHECKS = '/api/v1/compliance/subject-checks';

before(async () => {
  svc = await startTestService({ agents: 'none' });
  const account = await svc.createAccount('enterprise');
  key = (await svc.createKey(account.accountId, 's2')).key;
});
after(async () => {
  await svc?.stop();
});

describe('S2 subject checks with identity facts', () => {
  it('records nationality, identifiers, phone and e-mail on SubjectCheckStarted (trimmed, upper-cased country)', async () => {
    const res = await call(svc.url, 'POST', CHECKS, {
      bearer: key,
      body: subject('Lovelace', { first_name: 'Ada', date_of_birth: '1915-12-10', nationality: 'gb', identifiers: [{ type: 'passport', value: ' GB1234567 ' }], phone: ' +44 20 7946 0958', email: 'ada@example.co.uk' }),
    });
    assert.equal(res.status, 201, res.text);
    const started = (await svc.service.store.readStream(`subject-check-${res.body.subject_check_id}`)).find((e) => e.type === 'SubjectCheckStarted')!.data as Record<string, unknown>;
    assert.deepEqual(
      [started.dateOfBirth, started.nationality, started.identifiers, started.phone, started.email],
      ['1915-12-10', 'GB', [{ type: 'passport', value: 'GB1234567' }], '+44 20 7946 0958', 'ada@example.co.uk'],
    );
  });

  it('refuses malformed, oversized and hostile values with 400 invalid_payload naming the field, writing nothing', async () => {
    const cases: [string, unknown][] = [
      ['nationality', 'Great Britain'],
      ['nationality', 44],
      ['identifiers', [{ type: 'ssn', value: '123456789' }]],
      ['identifiers', [{ type: 'passport', value: 'X'.repeat(65) }]],
      ['identifiers', [{ type: 'passport', value: 'X123456', extra: true }]],
      ['identifiers', 'GB1234567'],
      ['phone', 'not a number'],
      ['phone', '+44\u0000207946'],
      ['email', 'ada at example'],
      ['email', `${'a'.repeat(250)}@example.com`],
      ['email', '"><img src=x onerror=alert(1)>@x.io'],
    ];
    for (const [field, value] of cases) {
      const before = await writes(svc);
      const res = await call(svc.url, 'POST', CHECKS, { bearer: key, body: subject('Lovelace', { [field]: value }) });
      assert.equal(res.status, 400, `${field}=${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.body.error.code, 'invalid_payload', res.text);
      assert.ok((res.body.error.errors as string[]).some((m) => m.startsWith(field)), `${field}: ${res.text}`);
      assert.deepEqual(await writes(svc), before, `${field}: nothing written`);
    }
  });
});
