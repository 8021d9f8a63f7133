/**
 * S1 and S3 CDD, EDD and M&A take the facts that confirm or clear a hit (issue 27 §3): date_of_birth,
 * nationality, identifiers, address, phone and email, with the names and formats of the portal's
 * screening form. Until now they answered 400 `Unrecognized key: "date_of_birth"`. The facts are
 * validated at the edge, recorded on ScreeningRequested (the pipeline reads them from there), and
 * documented as extensions in the OpenAPI description; requests without them stay valid; missing,
 * malformed, oversized and hostile values are refused in each surface's own envelope with nothing written.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../support/service';
import { rawRequest } from '../../support/raw-http';

let svc: TestService;
/** One S1 key per endpoint: S1 allows 60 requests a minute per key, and the refusals below are many. */
const s1Keys: Record<string, string> = {};
let s3Key: string;

before(async () => {
  // No agents: these cases are about the edge and what is recorded, so a creation answers 202 at once.
  svc = await startTestService({ agents: 'none', env: { SCREENING_WAIT_MS: '1' } });
  const account = await svc.createAccount('enterprise');
  for (const kind of ['cdd', 'edd', 'ma']) s1Keys[kind] = (await svc.createKey(account.accountId, 's1')).key;
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
});
after(async () => {
  await svc?.stop();
});

const FACTS = {
  date_of_birth: '1952-10-07',
  nationality: 'ru',
  identifiers: [{ type: 'passport', value: ' 75 1234567 ' }],
  address: { line: '23 Ilyinka St', city: 'Moscow', country: 'ru' },
  phone: ' +7 495 606-36-02 ',
  email: 'press@example.ru',
};
const RECORDED = {
  dateOfBirth: '1952-10-07',
  nationality: 'RU',
  identifiers: [{ type: 'passport', value: '75 1234567' }],
  address: { line: '23 Ilyinka St', city: 'Moscow', country: 'RU' },
  phone: '+7 495 606-36-02',
  email: 'press@example.ru',
};

const surfaces = [
  { name: 'S1', headers: (kind = 'cdd') => ({ authorization: `Bearer ${s1Keys[kind]}` }), ma: (name: string) => ({ target_name: name }) },
  { name: 'S3', headers: (_kind = 'cdd') => ({ 'x-api-key': s3Key }), ma: (name: string) => ({ query: name }) },
];
const bodies = (surface: (typeof surfaces)[number], name: string) =>
  [
    ['cdd', { query: name }],
    ['edd', { query: name, source_of_wealth: 'salary' }],
    ['ma', surface.ma(name)],
  ] as const;

async function lastRequestedSubject(): Promise<Record<string, unknown>> {
  const requested = (await svc.service.store.readAll()).filter((e) => e.type === 'ScreeningRequested');
  return (requested[requested.length - 1]!.data as { subject: Record<string, unknown> }).subject;
}

for (const surface of surfaces) {
  describe(`${surface.name}: identity facts on CDD, EDD and M&A`, () => {
    it('a request without them is valid as before', async () => {
      for (const [kind, body] of bodies(surface, 'Ada Quill')) {
        const res = await rawRequest(svc.url, 'POST', `/api/v1/screening/${kind}`, { headers: surface.headers(kind), json: body });
        assert.ok([201, 202].includes(res.status), `${kind}: ${res.text}`);
        const subject = await lastRequestedSubject();
        for (const field of ['dateOfBirth', 'nationality', 'identifiers', 'address', 'phone', 'email']) assert.equal(subject[field], undefined, `${kind}: ${field}`);
      }
    });

    it('every fact is accepted and recorded on ScreeningRequested as given (trimmed, country codes upper-cased)', async () => {
      for (const [kind, body] of bodies(surface, 'Vladimir Putin')) {
        const res = await rawRequest(svc.url, 'POST', `/api/v1/screening/${kind}`, { headers: surface.headers(kind), json: { ...body, ...FACTS } });
        assert.ok([201, 202].includes(res.status), `${kind}: ${res.text}`);
        const subject = await lastRequestedSubject();
        assert.deepEqual(
          Object.fromEntries(Object.keys(RECORDED).map((k) => [k, subject[k]])),
          RECORDED,
          `${kind}: the facts reach the screening (the pipeline's agents read them from ScreeningRequested)`,
        );
      }
    });

    it('an unpadded date is not a date of this format, a partial one is', async () => {
      for (const dob of ['1952', '1952-10']) {
        const res = await rawRequest(svc.url, 'POST', '/api/v1/screening/cdd', { headers: surface.headers(), json: { query: 'Ada Quill', date_of_birth: dob } });
        assert.ok([201, 202].includes(res.status), `${dob}: ${res.text}`);
        assert.equal((await lastRequestedSubject()).dateOfBirth, dob);
      }
    });

    it('refuses malformed, oversized and hostile values in its own envelope, writing nothing', async () => {
      // [field, value, S1 status (400: unreadable; 422: a rule broken), why]; S3 answers 400 for both.
      const cases: [string, unknown, number, string][] = [
        ['date_of_birth', '1968-13-30', 422, 'a month that does not exist'],
        ['date_of_birth', '1969-02-30', 422, 'a day that does not exist'],
        ['date_of_birth', '16/07/1969', 422, 'another date format'],
        ['date_of_birth', '2999-01-01', 422, 'a date in the future'],
        ['date_of_birth', 19690716, 400, 'a number instead of text'],
        ['date_of_birth', null, 400, 'null'],
        ['nationality', 'Britain', 422, 'a country name, not an ISO code'],
        ['nationality', ['GB'], 400, 'an array'],
        ['identifiers', { type: 'passport', value: 'X1' }, 400, 'an object instead of a list'],
        ['identifiers', [{ type: 'passport' }], 400, 'an identifier without its value'],
        ['identifiers', [{ type: 'passport', value: 'X1', issued: 'RU' }], 400, 'an unknown member'],
        ['identifiers', [{ type: 'ssn', value: '123456789' }], 422, 'an identifier type not in the list'],
        ['identifiers', [{ type: 'passport', value: 'x'.repeat(65) }], 422, 'a value over 64 characters'],
        ['identifiers', Array.from({ length: 11 }, (_, i) => ({ type: 'passport', value: `X${i}00000` })), 422, 'more than 10 identifiers'],
        ['identifiers', [{ type: 'passport', value: "1' OR '1'='1" }], 422, 'SQL in a value'],
        ['phone', 'call me maybe', 422, 'no digits'],
        ['phone', '12345', 422, 'too few digits'],
        ['phone', `+${'1'.repeat(40)}`, 422, 'over 40 characters'],
        ['phone', '+44 20\u0000 7946', 422, 'a control character'],
        ['phone', 442079460958, 400, 'a number instead of text'],
        ['email', 'not-an-address', 422, 'no @'],
        ['email', '<script>alert(1)</script>@example.com', 422, 'markup'],
        ['email', `${'a'.repeat(250)}@example.com`, 422, 'over 254 characters'],
        ['email', 'a@b.c\r\nBcc: victim@example.com', 422, 'a header injection'],
        ['email', { address: 'a@b.com' }, 400, 'an object'],
        ['address', { country: 'Russia' }, 422, 'an address country that is not an ISO code'],
      ];
      for (const [kind, body] of bodies(surface, 'Bob Smith')) {
        for (const [field, value, status, why] of cases) {
          const before = (await svc.service.store.readAll()).length;
          const res = await rawRequest(svc.url, 'POST', `/api/v1/screening/${kind}`, { headers: surface.headers(kind), json: { ...body, [field]: value } });
          const label = `${kind} ${field} (${why}): ${res.text.slice(0, 300)}`;
          if (surface.name === 'S1') {
            assert.equal(res.status, status, label);
            assert.equal(res.body.success, false, label);
            assert.equal(res.body.code, status === 400 ? 'invalid_request' : 'validation_failed', label);
            assert.ok((res.body.errors as string[]).some((m) => m.startsWith(field)), label);
          } else {
            assert.equal(res.status, 400, label);
            assert.deepEqual(Object.keys(res.body).sort(), ['details', 'error'], label);
            assert.ok(JSON.stringify(res.body.details).includes(field), label);
          }
          assert.equal((await svc.service.store.readAll()).length, before, `${label}: nothing written`);
        }
      }
    });
  });
}

describe('the identity facts in OpenAPI', () => {
  it('S1 and S3 document them on CDD, EDD and M&A as extensions, and the hit fields that say what confirmed a hit', async () => {
    for (const headers of [{}, { 'x-api-key': s3Key }] as Record<string, string>[]) {
      const doc = await rawRequest(svc.url, 'GET', '/api/v1/openapi.json', { headers });
      assert.equal(doc.status, 200);
      const schemas = doc.body.components.schemas as Record<string, { properties?: Record<string, { description?: string }> }>;
      for (const name of ['S1CddRequest', 'S1EddRequest', 'S1MaRequest', 'S3MaRequest']) {
        const properties = schemas[name]?.properties ?? {};
        for (const field of ['date_of_birth', 'nationality', 'identifiers', 'address', 'phone', 'email']) assert.ok(properties[field], `${name}.${field}`);
        assert.match(properties.date_of_birth!.description ?? '', /Extension/, `${name}.date_of_birth is documented as an extension`);
      }
      const hit = schemas.S1Hit!.properties!;
      assert.ok(hit.confirmation && hit.match_assessment && hit.match_strength, 'S1Hit: confirmation, match_assessment, match_strength');
      assert.match(JSON.stringify(hit.match_strength), /only when the identity agrees/);
    }
  });
});
