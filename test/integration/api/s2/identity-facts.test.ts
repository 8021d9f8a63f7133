/**
 * S2 subject checks take the facts that confirm or clear a hit, with the names and formats S1, S3 and
 * the portal use (issue 27 §3): nationality, identifiers, phone and email beside date_of_birth, and
 * since issue 30 the postal address with its state apart (the same PostalAddress S1 and S3 take). Over
 * real HTTP: they are recorded on SubjectCheckStarted and reach the list agents' subject; bad values
 * are 400 invalid_payload naming the field, nothing written; OpenAPI documents the address.
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

  it('records the address as S1 and S3 take it, its state apart (issue 30); a request without one stays valid', async () => {
    const res = await call(svc.url, 'POST', CHECKS, {
      bearer: key,
      body: subject('Lovelace', { first_name: 'Ada', address: { line: ' 12 St James Sq ', city: 'London', region: 'Greater London', postal_code: 'SW1Y 4JH', country: 'gb' } }),
    });
    assert.equal(res.status, 201, res.text);
    const started = (await svc.service.store.readStream(`subject-check-${res.body.subject_check_id}`)).find((e) => e.type === 'SubjectCheckStarted')!.data as Record<string, unknown>;
    assert.deepEqual(started.address, { line: '12 St James Sq', city: 'London', region: 'Greater London', postalCode: 'SW1Y 4JH', country: 'GB' });
    const plain = await call(svc.url, 'POST', CHECKS, { bearer: key, body: subject('Lovelace', { first_name: 'Ada' }) });
    assert.equal(plain.status, 201, plain.text);
    const plainStarted = (await svc.service.store.readStream(`subject-check-${plain.body.subject_check_id}`)).find((e) => e.type === 'SubjectCheckStarted')!.data as Record<string, unknown>;
    assert.equal(plainStarted.address, undefined);
    const doc = await call(svc.url, 'GET', '/api/v1/openapi.json');
    assert.equal(doc.status, 200);
    const request = doc.body.components.schemas.S2SubjectCheckRequest as { properties: Record<string, { $ref?: string }> };
    assert.equal(request.properties.address?.$ref, '#/components/schemas/PostalAddress');
    assert.match(String(doc.body.components.schemas.PostalAddress.description), /S2 subject checks and person checks/);
    assert.deepEqual(Object.keys((doc.body.components.schemas.PostalAddress as { properties: object }).properties).sort(), ['city', 'country', 'line', 'postal_code', 'region']);
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
      ['address', '12 St James Sq, London'],
      ['address', {}],
      ['address', { street: '12 St James Sq' }],
      ['address', { region: 'R'.repeat(101) }],
      ['address', { line: '<script>\u0000</script>' }],
      ['address', { country: 'United Kingdom' }],
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
