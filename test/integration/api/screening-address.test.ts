/**
 * S1 and S3 screening requests take the subject's postal address (issue 21), as the portal does, so
 * the account's internal lists can weigh address agreement on every surface: it is validated at the
 * edge (zod), recorded on ScreeningRequested, read by the screening pipeline, documented in each
 * surface's OpenAPI, and bad input is refused in each surface's own envelope with nothing written.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../support/service';
import { rawRequest } from '../../support/raw-http';

let svc: TestService;
let s1Key: string;
let s3Key: string;
let portalToken: string;

before(async () => {
  // No agents: a screening never completes here, so a create answers 202 at once instead of waiting
  // SCREENING_WAIT_MS (20 s) for a pipeline that does not run; what is asserted is what the request recorded.
  svc = await startTestService({ agents: 'none', env: { SCREENING_WAIT_MS: '0' } });
  const account = await svc.createAccount('enterprise');
  s1Key = (await svc.createKey(account.accountId, 's1')).key;
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const session = await rawRequest(svc.url, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
  portalToken = session.body.data.token;
});
after(async () => {
  await svc?.stop();
});

const surfaces = [
  { name: 'S1', headers: () => ({ authorization: `Bearer ${s1Key}` }), id: (body: any) => body.screening.id },
  { name: 'S3', headers: () => ({ 'x-api-key': s3Key }), id: (body: any) => body.data.id },
];

async function requestedSubject(): Promise<{ query: string; address?: Record<string, string> }> {
  const requested = (await svc.service.store.readAll()).filter((e) => e.type === 'ScreeningRequested');
  return (requested[requested.length - 1]!.data as { subject: { query: string; address?: Record<string, string> } }).subject;
}

for (const surface of surfaces) {
  describe(`${surface.name} screening requests with a postal address`, () => {
    it('CDD and EDD record the address as given (country upper-cased); the screening pipeline reads it from there', async () => {
      const cdd = await rawRequest(svc.url, 'POST', '/api/v1/screening/cdd', {
        headers: surface.headers(),
        json: { query: 'Bob Smith', entity_type: 'individual', address: { line: '12 Baker St', city: 'London', postal_code: 'NW1 6XE', country: 'gb' } },
      });
      assert.ok([201, 202].includes(cdd.status), cdd.text);
      assert.ok(surface.id(cdd.body));
      assert.deepEqual(await requestedSubject().then((s) => [s.query, s.address]), ['Bob Smith', { line: '12 Baker St', city: 'London', postalCode: 'NW1 6XE', country: 'GB' }]);

      // the state apart, as the internal lists' own entries hold it (issue 30)
      const withState = await rawRequest(svc.url, 'POST', '/api/v1/screening/cdd', {
        headers: surface.headers(),
        json: { query: 'Bob Smith', address: { line: '12 Main St Apt 4', city: 'Reno', region: ' NV ', postal_code: '89501', country: 'us' } },
      });
      assert.ok([201, 202].includes(withState.status), withState.text);
      assert.deepEqual((await requestedSubject()).address, { line: '12 Main St Apt 4', city: 'Reno', region: 'NV', postalCode: '89501', country: 'US' });

      const edd = await rawRequest(svc.url, 'POST', '/api/v1/screening/edd', { headers: surface.headers(), json: { query: 'Ada Quill', address: { city: 'Leeds' }, source_of_wealth: 'salary' } });
      assert.ok([201, 202].includes(edd.status), edd.text);
      const subject = await requestedSubject();
      assert.deepEqual([subject.query, subject.address], ['Ada Quill', { city: 'Leeds' }]);
      // The address is the subject's, not an EDD declaration.
      const declared = (await svc.service.store.readAll()).filter((e) => e.type === 'ScreeningRequested').pop()!.data as { declared?: Record<string, unknown> };
      assert.equal(declared.declared?.address, undefined);
    });

    it('refuses a bad address in its own envelope, writing nothing', async () => {
      // S1: 400 unreadable (wrong type, unknown member), 422 a rule broken; S3 answers every input error 400 {error, details}.
      const cases: [unknown, number, string][] = [
        ['12 Baker St', 400, 'a string instead of an object'],
        [{ street: '12 Baker St' }, 400, 'an unknown member'],
        [{}, 422, 'no part at all'],
        [{ country: 'Britain' }, 422, 'a country that is not ISO alpha-2'],
        [{ line: 'x'.repeat(301) }, 422, 'a line over 300 characters'],
        [{ city: 'Lon\u0000don' }, 422, 'a control character'],
        [{ postal_code: 12345 }, 400, 'a number instead of text'],
        [{ region: 'R'.repeat(101) }, 422, 'a region over 100 characters'],
        [{ region: '\ud800' }, 422, 'a lone surrogate in the region'],
        [{ state: 'NV' }, 400, 'a state under another name than region'],
      ];
      for (const [address, status, why] of cases) {
        const before = (await svc.service.store.readAll()).length;
        const answer = await rawRequest(svc.url, 'POST', '/api/v1/screening/cdd', { headers: surface.headers(), json: { query: 'Bob Smith', address } });
        assert.equal(answer.status, surface.name === 'S1' ? status : 400, `${why}: ${answer.text}`);
        if (surface.name === 'S1') {
          assert.equal(answer.body.success, false, why);
          assert.equal(answer.body.code, status === 400 ? 'invalid_request' : 'validation_failed', why);
          assert.ok((answer.body.errors as string[]).some((m) => m.startsWith('address')), `${why}: ${answer.text}`);
        } else {
          assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error'], why);
          assert.ok(Object.keys(answer.body.details).some((f) => f.startsWith('address')), `${why}: ${answer.text}`);
        }
        assert.equal((await svc.service.store.readAll()).length, before, `${why}: nothing written`);
      }
    });
  });
}

describe("the portal's screening form with a postal address", () => {
  it('takes the same address, its state apart, and refuses a bad one in the portal envelope, writing nothing (issue 30)', async () => {
    const ok = await rawRequest(svc.url, 'POST', '/api/portal/screenings', {
      headers: { authorization: `Bearer ${portalToken}` },
      json: { query: 'Bob Smith', address: { line: '12 Main St Apt 4', city: 'Reno', region: 'Nevada', postal_code: '89501', country: 'us' } },
    });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual((await requestedSubject()).address, { line: '12 Main St Apt 4', city: 'Reno', region: 'Nevada', postalCode: '89501', country: 'US' });
    for (const address of [{ region: 'R'.repeat(101) }, { region: 7 }, { state: 'NV' }, {}]) {
      const before = (await svc.service.store.readAll()).length;
      const refused = await rawRequest(svc.url, 'POST', '/api/portal/screenings', { headers: { authorization: `Bearer ${portalToken}` }, json: { query: 'Bob Smith', address } });
      assert.equal(refused.status, 400, `${JSON.stringify(address)}: ${refused.text}`);
      assert.match(refused.text, /address/, refused.text);
      assert.equal((await svc.service.store.readAll()).length, before, 'nothing written');
    }
  });
});

describe('the address in OpenAPI', () => {
  it('S1 and S3 document address on the CDD and EDD bodies', async () => {
    for (const [path, headers] of [
      ['/api/v1/openapi.json', {}],
      ['/api/v1/openapi.json', { 'x-api-key': s3Key }],
    ] as const) {
      const doc = await rawRequest(svc.url, 'GET', path, { headers });
      assert.equal(doc.status, 200);
      const schemas = doc.body.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
      const cdd = Object.entries(schemas).find(([name]) => /CddRequest$/.test(name))![1];
      assert.ok(cdd.properties?.address, `${path}: CDD body has address`);
      assert.deepEqual(Object.keys((schemas.PostalAddress as { properties: object }).properties).sort(), ['city', 'country', 'line', 'postal_code', 'region']);
    }
  });
});
