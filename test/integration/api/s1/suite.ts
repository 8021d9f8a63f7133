/**
 * The S1 HTTP contract, as a function of a services factory: s1-api.fake.test.ts runs it on the test
 * doubles; the integrator runs it on the real wiring with another MakeS1Services.
 * Real HTTP (app.listen(0) + fetch); time is driven by the wiring's ManualClock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { riskLevelForScore } from '../../../../src/commands/plans';
import type { Plan } from '../../../../src/app/services';
import type { MakeS1Services, S1TestServices } from '../../../support/fake-services';
import { call, startS1, type CallResult, type RunningS1 } from './harness';

const SCREENING_KEYS = [
  'adverse_media_hits',
  'completed_at',
  'created_at',
  'entity_type',
  'id',
  'jurisdiction',
  'offshore_leaks_hits',
  'pep_hits',
  'risk_level',
  'risk_score',
  'sanctions_hits',
  'screening_type',
  'search_query',
  'status',
  'summary',
];
const HIT_KEYS = [
  'confirmation',
  'disposition',
  'entity_id',
  'entity_name',
  'entity_type',
  'explanation',
  'hit_id',
  'list',
  'list_version',
  'match_assessment',
  'match_strength',
  'matched_name',
  'matched_name_kind',
  'programs',
  'qualifiers',
  'score',
  'source_url',
];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function assertRateHeaders(res: CallResult): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.match(res.headers.get(name) ?? '', /^\d+$/, `${name} on a ${res.status} answer`);
  }
  assert.equal(res.headers.get('x-ratelimit-limit'), '60');
  if (res.status !== 429) assert.equal(res.headers.get('retry-after'), null, 'Retry-After only on 429');
}

function assertError(res: CallResult, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.json)}`);
  assert.equal(res.json?.success, false);
  assert.equal(res.json?.code, code);
  assert.equal(typeof res.json?.message, 'string');
  assert.ok(res.json.message.length > 0);
}

function assertCompletedScreening(screening: any, kind: 'cdd' | 'edd' | 'ma'): void {
  // list_warnings (list ages, docs/lists.md) is on every screening created or read, not on list pages.
  const expected = [...SCREENING_KEYS, 'list_warnings', 'risk_flags', 'risk_reason', ...(kind === 'edd' ? ['edd_analysis'] : []), ...(kind === 'ma' ? ['ma_analysis'] : [])].sort();
  assert.deepEqual(Object.keys(screening).sort(), expected);
  assert.ok(Number.isInteger(screening.id) && screening.id > 0);
  assert.equal(screening.screening_type, kind);
  assert.equal(screening.status, 'completed');
  assert.ok(Number.isInteger(screening.risk_score) && screening.risk_score >= 0 && screening.risk_score <= 100);
  assert.equal(screening.risk_level, riskLevelForScore(screening.risk_score));
  for (const counter of ['sanctions_hits', 'pep_hits', 'adverse_media_hits', 'offshore_leaks_hits']) {
    assert.ok(Number.isInteger(screening[counter]) && screening[counter] >= 0, counter);
  }
  assert.equal(typeof screening.summary, 'string');
  assert.match(screening.created_at, ISO_UTC);
  assert.match(screening.completed_at, ISO_UTC);
  if (kind === 'edd') assert.ok(typeof screening.edd_analysis === 'string' && screening.edd_analysis.length > 0);
  if (kind === 'ma') assert.ok(typeof screening.ma_analysis === 'string' && screening.ma_analysis.length > 0);
}

export function s1ApiSuite(label: string, makeServices: MakeS1Services): void {
  describe(`S1 screening API over HTTP (${label})`, () => {
    let services: S1TestServices;
    let api: RunningS1;
    const accounts: Partial<Record<Plan, { accountId: string; keyId: string; key: string }>> = {};

    before(async () => {
      services = await makeServices();
      api = await startS1(services);
      for (const plan of ['starter', 'essentials', 'professional', 'enterprise'] as const) {
        accounts[plan] = await services.createAccount(plan);
      }
    });
    after(async () => {
      await api?.close();
      await services?.close();
    });

    const req = (method: string, path: string, options: Parameters<typeof call>[3] = {}) => call(api.url, method, path, options);
    const keyOf = (plan: Plan) => accounts[plan]!.key;

    describe('creation happy paths', () => {
      it('POST /screening/cdd answers 201 with every Screening field, defaults applied', async () => {
        const res = await req('POST', '/api/v1/screening/cdd', { key: keyOf('essentials'), body: { query: 'Acme Trading LLC', jurisdiction: 'AE' } });
        assert.equal(res.status, 201, JSON.stringify(res.json));
        assertRateHeaders(res);
        assert.equal(res.json.success, true);
        assertCompletedScreening(res.json.screening, 'cdd');
        assert.equal(res.json.screening.search_query, 'Acme Trading LLC');
        assert.equal(res.json.screening.entity_type, 'individual');
        assert.equal(res.json.screening.jurisdiction, 'AE');
      });

      it('CDD echoes entity_type and a null jurisdiction when none is given', async () => {
        const res = await req('POST', '/api/v1/screening/cdd', { key: keyOf('essentials'), body: { query: 'Acme Holdings', entity_type: 'organization' } });
        assert.equal(res.status, 201);
        assert.equal(res.json.screening.entity_type, 'organization');
        assert.equal(res.json.screening.jurisdiction, null);
      });

      it('POST /screening/edd on Professional answers 201 with edd_analysis', async () => {
        const res = await req('POST', '/api/v1/screening/edd', {
          key: keyOf('professional'),
          body: { query: 'Jane Example', entity_type: 'individual', source_of_wealth: 'Sale of a bakery\nin 2019', pep_relationships: 'none' },
        });
        assert.equal(res.status, 201, JSON.stringify(res.json));
        assertRateHeaders(res);
        assertCompletedScreening(res.json.screening, 'edd');
        assert.equal(res.json.screening.search_query, 'Jane Example');
      });

      it('POST /screening/ma on Enterprise answers 201 with ma_analysis; the target is screened as a company', async () => {
        const res = await req('POST', '/api/v1/screening/ma', {
          key: keyOf('enterprise'),
          body: { target_name: 'Target Widgets GmbH', target_jurisdiction: 'DE', deal_type: 'acquisition', deal_value: 'EUR 40m' },
        });
        assert.equal(res.status, 201, JSON.stringify(res.json));
        assertCompletedScreening(res.json.screening, 'ma');
        assert.equal(res.json.screening.search_query, 'Target Widgets GmbH');
        assert.equal(res.json.screening.entity_type, 'company');
        assert.equal(res.json.screening.jurisdiction, 'DE');
      });
    });

    describe('plan rules', () => {
      it('EDD on Essentials is 403 plan_required and creates nothing', async () => {
        const { accountId } = accounts.essentials!;
        const before = await services.screeningCount(accountId);
        const res = await req('POST', '/api/v1/screening/edd', { key: keyOf('essentials'), body: { query: 'Jane Example' } });
        assertError(res, 403, 'plan_required');
        assertRateHeaders(res);
        assert.equal(await services.screeningCount(accountId), before);
      });

      it('M&A on Professional is 403 plan_required and creates nothing', async () => {
        const { accountId } = accounts.professional!;
        const before = await services.screeningCount(accountId);
        const res = await req('POST', '/api/v1/screening/ma', { key: keyOf('professional'), body: { target_name: 'Target Co' } });
        assertError(res, 403, 'plan_required');
        assert.equal(await services.screeningCount(accountId), before);
      });

      it('Starter has no API access: every endpoint is 403 plan_required', async () => {
        const { accountId, key } = accounts.starter!;
        for (const [method, path, body] of [
          ['POST', '/api/v1/screening/cdd', { query: 'Acme' }],
          ['POST', '/api/v1/screening/edd', { query: 'Acme' }],
          ['POST', '/api/v1/screening/ma', { target_name: 'Acme' }],
          ['GET', '/api/v1/screenings', undefined],
          ['GET', '/api/v1/screening/1', undefined],
          ['GET', '/api/v1/screening/1/report', undefined],
        ] as const) {
          const res = await req(method, path, { key, body });
          assertError(res, 403, 'plan_required');
          assertRateHeaders(res);
        }
        assert.equal(await services.screeningCount(accountId), 0);
      });
    });

    describe('GET /screening/:id and the report', () => {
      it('returns the screening with a detail record for every hit', async () => {
        const created = await req('POST', '/api/v1/screening/cdd', { key: keyOf('enterprise'), body: { query: services.listedName } });
        assert.equal(created.status, 201);
        const id = created.json.screening.id;
        const res = await req('GET', `/api/v1/screening/${id}`, { key: keyOf('enterprise') });
        assert.equal(res.status, 200);
        assertRateHeaders(res);
        const screening = res.json.screening;
        assert.deepEqual(
          Object.keys(screening).sort(),
          [...SCREENING_KEYS, 'country_risk', 'hits', 'list_versions', 'list_warnings', 'matcher_version', 'risk_flags', 'risk_reason', 'sources'].sort(),
        );
        assert.equal(screening.id, id);
        assert.deepEqual(Object.keys(screening.hits).sort(), ['adverse_media', 'debarment', 'offshore_leaks', 'pep', 'sanctions']);
        assert.equal(screening.hits.sanctions.length, screening.sanctions_hits);
        assert.ok(screening.hits.sanctions.length >= 1, 'the listed name has a sanctions hit');
        const hit = screening.hits.sanctions[0];
        // the spec's hit fields always; the entity's facts and its list rows where the lists give them
        const optional = ['aliases', 'date_of_birth', 'identifiers', 'nationality', 'sources', 'type_mismatch'];
        assert.deepEqual(Object.keys(hit).filter((k) => !optional.includes(k)).sort(), HIT_KEYS);
        if (hit.sources) assert.ok(hit.sources.length >= 1 && hit.sources.some((s: { entity_id: string }) => s.entity_id === hit.entity_id), 'the primary row is among the sources');
        assert.equal(typeof hit.matched_name, 'string');
        assert.ok(typeof hit.score === 'number' && hit.score >= 0.8 && hit.score <= 1, `score ${hit.score} on the [0, 1] scale`);
        assert.ok(Array.isArray(hit.programs));
        assert.ok(Array.isArray(screening.sources));
      });

      it("another account's id is 404 not_found; an unknown id too", async () => {
        const created = await req('POST', '/api/v1/screening/cdd', { key: keyOf('enterprise'), body: { query: 'Private Matter Ltd' } });
        const id = created.json.screening.id;
        for (const path of [`/api/v1/screening/${id}`, `/api/v1/screening/${id}/report`]) {
          const res = await req('GET', path, { key: keyOf('professional') });
          assertError(res, 404, 'not_found');
          assert.ok(!res.bytes.toString('utf8').includes('Private Matter'), 'nothing of the other account leaks');
        }
        assertError(await req('GET', '/api/v1/screening/987654321', { key: keyOf('enterprise') }), 404, 'not_found');
      });

      it('ids that are not positive integers are 400 invalid_request on get and report', async () => {
        for (const id of ['abc', '12abc', '-1', '1.5', '0', '1e3', '%20', '99999999999999999999', "1'%20OR%20'1'='1"]) {
          for (const suffix of ['', '/report']) {
            const res = await req('GET', `/api/v1/screening/${id}${suffix}`, { key: keyOf('enterprise') });
            assertError(res, 400, 'invalid_request');
            assertRateHeaders(res);
          }
        }
      });

      it('the report is a PDF download named screening-<id>-report.pdf', async () => {
        const created = await req('POST', '/api/v1/screening/cdd', { key: keyOf('enterprise'), body: { query: 'Report Subject' } });
        const id = created.json.screening.id;
        const res = await req('GET', `/api/v1/screening/${id}/report`, { key: keyOf('enterprise') });
        assert.equal(res.status, 200);
        assertRateHeaders(res);
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        assert.equal(res.headers.get('content-disposition'), `attachment; filename="screening-${id}-report.pdf"`);
        assert.equal(res.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      });
    });

    describe('GET /screenings', () => {
      it('lists own screenings with defaults, filters and pagination', async () => {
        const account = await services.createAccount('enterprise');
        const other = await services.createAccount('enterprise');
        await req('POST', '/api/v1/screening/cdd', { key: other.key, body: { query: 'Someone Else Entirely' } });
        const names = ['Alpha Shipping', 'Beta Shipping', 'Gamma Mining'];
        for (const query of names) {
          assert.equal((await req('POST', '/api/v1/screening/cdd', { key: account.key, body: { query } })).status, 201);
        }
        assert.equal((await req('POST', '/api/v1/screening/edd', { key: account.key, body: { query: 'Delta Shipping' } })).status, 201);
        assert.equal((await req('POST', '/api/v1/screening/ma', { key: account.key, body: { target_name: 'Epsilon Shipping' } })).status, 201);

        const all = await req('GET', '/api/v1/screenings', { key: account.key });
        assert.equal(all.status, 200);
        assertRateHeaders(all);
        assert.equal(all.json.success, true);
        assert.deepEqual(all.json.pagination, { page: 1, limit: 20, total: 5, pages: 1 });
        assert.equal(all.json.screenings.length, 5);
        assert.ok(!all.json.screenings.some((s: any) => s.search_query === 'Someone Else Entirely'));
        for (const s of all.json.screenings) assert.ok(SCREENING_KEYS.every((k) => k in s));

        const page2 = await req('GET', '/api/v1/screenings?page=2&limit=2', { key: account.key });
        assert.deepEqual(page2.json.pagination, { page: 2, limit: 2, total: 5, pages: 3 });
        assert.equal(page2.json.screenings.length, 2);

        const edd = await req('GET', '/api/v1/screenings?screening_type=edd', { key: account.key });
        assert.deepEqual(edd.json.screenings.map((s: any) => s.search_query), ['Delta Shipping']);
        const ma = await req('GET', '/api/v1/screenings?screening_type=ma', { key: account.key });
        assert.deepEqual(ma.json.screenings.map((s: any) => s.screening_type), ['ma']);
        const cdd = await req('GET', '/api/v1/screenings?screening_type=cdd', { key: account.key });
        assert.equal(cdd.json.pagination.total, 3);

        const search = await req('GET', '/api/v1/screenings?search=shipp', { key: account.key });
        assert.deepEqual(search.json.screenings.map((s: any) => s.search_query).sort(), ['Alpha Shipping', 'Beta Shipping', 'Delta Shipping', 'Epsilon Shipping']);

        const level = all.json.screenings[0].risk_level;
        const byLevel = await req('GET', `/api/v1/screenings?risk_level=${level}`, { key: account.key });
        assert.ok(byLevel.json.screenings.length >= 1);
        assert.ok(byLevel.json.screenings.every((s: any) => s.risk_level === level));

        const empty = await req('GET', '/api/v1/screenings?search=nothing-like-this', { key: account.key });
        assert.deepEqual(empty.json.pagination, { page: 1, limit: 20, total: 0, pages: 0 });
      });

      it('bad list parameters: 400 when not integers, 422 when out of range or not allowed', async () => {
        const key = keyOf('enterprise');
        for (const q of ['page=abc', 'limit=ten', 'page=1.5', 'limit=2&limit=3']) {
          const res = await req('GET', `/api/v1/screenings?${q}`, { key });
          assertError(res, 400, 'invalid_request');
          assertRateHeaders(res);
        }
        for (const q of ['limit=101', 'limit=0', 'page=0', 'risk_level=extreme', 'screening_type=sow', 'search=%00']) {
          const res = await req('GET', `/api/v1/screenings?${q}`, { key });
          assertError(res, 422, 'validation_failed');
        }
        assert.equal((await req('GET', '/api/v1/screenings?limit=100', { key })).status, 200);
      });
    });

    describe('authentication', () => {
      it('missing, malformed, unknown and revoked keys are 401 invalid_api_key without rate-limit headers', async () => {
        const account = await services.createAccount('enterprise');
        const ok = await req('GET', '/api/v1/screenings', { key: account.key });
        assert.equal(ok.status, 200);
        await services.revokeKey(account.accountId, account.keyId);
        const attempts: CallResult[] = [
          await req('GET', '/api/v1/screenings'),
          await req('GET', '/api/v1/screenings', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
          await req('GET', '/api/v1/screenings', { key: 'garbage' }),
          await req('GET', '/api/v1/screenings', { key: 'svc_' + 'x'.repeat(40) }),
          await req('GET', '/api/v1/screenings', { key: account.key }),
          await req('POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'After Revocation' } }),
          await req('GET', '/api/v1/screening/1', { key: account.key }),
          await req('GET', '/api/v1/screening/1/report'),
          await req('POST', '/api/v1/screening/cdd', { body: { query: 'No Key At All' } }),
        ];
        for (const res of attempts) {
          assertError(res, 401, 'invalid_api_key');
          assert.equal(res.headers.get('x-ratelimit-limit'), null);
        }
        assert.equal(await services.screeningCount(account.accountId), 0);
      });

      it('GET /api/v1/openapi.json needs no key', async () => {
        for (const headers of [{} as Record<string, string>, { 'x-api-key': 'svcc_live_' + '0'.repeat(40) }, { authorization: 'Bearer svc_' + 'x'.repeat(40) }]) {
          const res = await req('GET', '/api/v1/openapi.json', { headers });
          assert.equal(res.status, 200);
          assert.equal(res.json.openapi, '3.0.3');
          assert.ok(res.json.paths['/api/v1/screening/cdd']);
        }
      });
    });

    describe('bad input on every creation endpoint', () => {
      const endpoints = [
        { path: '/api/v1/screening/cdd', plan: 'enterprise' as Plan, field: 'query', base: { query: 'Valid Name' } },
        { path: '/api/v1/screening/edd', plan: 'enterprise' as Plan, field: 'query', base: { query: 'Valid Name' } },
        { path: '/api/v1/screening/ma', plan: 'enterprise' as Plan, field: 'target_name', base: { target_name: 'Valid Name' } },
      ];
      for (const endpoint of endpoints) {
        it(`${endpoint.path}: each bad input gets its documented error and creates nothing`, async () => {
          const account = await services.createAccount(endpoint.plan);
          const key = account.key;
          const name = endpoint.field;
          const cases: { what: string; options: Parameters<typeof call>[3]; status: number; code: string }[] = [
            { what: 'no body', options: {}, status: 400, code: 'invalid_request' },
            { what: 'empty object', options: { body: {} }, status: 400, code: 'invalid_request' },
            { what: 'array body', options: { body: [endpoint.base] }, status: 400, code: 'invalid_request' },
            { what: 'JSON string body', options: { raw: '"Valid Name"' }, status: 400, code: 'invalid_request' },
            { what: 'not JSON', options: { raw: '{"query": "Valid Name",' }, status: 400, code: 'invalid_request' },
            { what: 'form-encoded', options: { raw: `${name}=Valid+Name`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, status: 400, code: 'invalid_request' },
            { what: 'name is a number', options: { body: { ...endpoint.base, [name]: 12345 } }, status: 400, code: 'invalid_request' },
            { what: 'name is null', options: { body: { ...endpoint.base, [name]: null } }, status: 400, code: 'invalid_request' },
            { what: 'name is an object', options: { body: { ...endpoint.base, [name]: { $gt: '' } } }, status: 400, code: 'invalid_request' },
            { what: 'unknown field', options: { body: { ...endpoint.base, admin: true } }, status: 400, code: 'invalid_request' },
            { what: 'one-character name', options: { body: { ...endpoint.base, [name]: 'A' } }, status: 422, code: 'validation_failed' },
            { what: 'blank name', options: { body: { ...endpoint.base, [name]: '   ' } }, status: 422, code: 'validation_failed' },
            { what: 'one character padded', options: { body: { ...endpoint.base, [name]: '  A  ' } }, status: 422, code: 'validation_failed' },
            { what: 'overlong name', options: { body: { ...endpoint.base, [name]: 'N'.repeat(201) } }, status: 422, code: 'validation_failed' },
            { what: 'NUL in name', options: { body: { ...endpoint.base, [name]: 'Bad\u0000Name' } }, status: 422, code: 'validation_failed' },
            { what: 'bell and escape in name', options: { body: { ...endpoint.base, [name]: 'Bad\u0007\u001b[31mName' } }, status: 422, code: 'validation_failed' },
            { what: 'newline in name', options: { body: { ...endpoint.base, [name]: 'Two\nLines' } }, status: 422, code: 'validation_failed' },
            { what: 'C1 control in name', options: { body: { ...endpoint.base, [name]: 'Bad\u0085Name' } }, status: 422, code: 'validation_failed' },
            { what: 'lone surrogate in name', options: { raw: `{"${name}": "Bad\\ud800Name"}` }, status: 422, code: 'validation_failed' },
            { what: '1 MB body', options: { raw: JSON.stringify({ ...endpoint.base, padding: 'x'.repeat(1024 * 1024) }) }, status: 413, code: 'payload_too_large' },
            // names that name nobody: only punctuation, only a legal form or title
            { what: 'only punctuation', options: { body: { ...endpoint.base, [name]: '.,;-!?' } }, status: 422, code: 'validation_failed' },
            { what: 'only a legal form', options: { body: { ...endpoint.base, [name]: 'LLC' } }, status: 422, code: 'validation_failed' },
            { what: 'only a dotted legal form', options: { body: { ...endpoint.base, [name]: 'Ltd.' } }, status: 422, code: 'validation_failed' },
            { what: 'legal forms and a title', options: { body: { ...endpoint.base, [name]: 'Mr. Co. Ltd' } }, status: 422, code: 'validation_failed' },
            { what: 'emoji only', options: { body: { ...endpoint.base, [name]: '\u{1F600}\u{1F600}' } }, status: 422, code: 'validation_failed' },
          ];
          if (endpoint.path.endsWith('/cdd')) {
            cases.push(
              { what: 'unknown entity_type', options: { body: { query: 'Valid Name', entity_type: 'alien' } }, status: 422, code: 'validation_failed' },
              { what: 'entity_type wrong type', options: { body: { query: 'Valid Name', entity_type: 3 } }, status: 400, code: 'invalid_request' },
              { what: 'jurisdiction wrong type', options: { body: { query: 'Valid Name', jurisdiction: ['US'] } }, status: 400, code: 'invalid_request' },
              { what: 'empty jurisdiction', options: { body: { query: 'Valid Name', jurisdiction: '' } }, status: 422, code: 'validation_failed' },
              { what: 'M&A field on CDD', options: { body: { query: 'Valid Name', target_name: 'X Co' } }, status: 400, code: 'invalid_request' },
            );
          }
          if (endpoint.path.endsWith('/edd')) {
            cases.push(
              { what: 'organization is not an EDD entity_type', options: { body: { query: 'Valid Name', entity_type: 'organization' } }, status: 422, code: 'validation_failed' },
              { what: 'unknown entity_type', options: { body: { query: 'Valid Name', entity_type: 'alien' } }, status: 422, code: 'validation_failed' },
              { what: 'source_of_wealth wrong type', options: { body: { query: 'Valid Name', source_of_wealth: 5 } }, status: 400, code: 'invalid_request' },
              { what: 'declared text with NUL', options: { body: { query: 'Valid Name', source_of_funds: 'cash\u0000' } }, status: 422, code: 'validation_failed' },
              { what: 'declared text too long', options: { body: { query: 'Valid Name', beneficial_ownership: 'x'.repeat(5001) } }, status: 422, code: 'validation_failed' },
            );
          }
          if (endpoint.path.endsWith('/ma')) {
            cases.push(
              { what: 'target_name missing (query given)', options: { body: { query: 'Target Co' } }, status: 400, code: 'invalid_request' },
              { what: 'unknown deal_type', options: { body: { target_name: 'Target Co', deal_type: 'hostile' } }, status: 422, code: 'validation_failed' },
              { what: 'deal_type wrong type', options: { body: { target_name: 'Target Co', deal_type: 1 } }, status: 400, code: 'invalid_request' },
              { what: 'deal_value a number', options: { body: { target_name: 'Target Co', deal_value: 4000000 } }, status: 400, code: 'invalid_request' },
              { what: 'entity_type is not an M&A field', options: { body: { target_name: 'Target Co', entity_type: 'company' } }, status: 400, code: 'invalid_request' },
            );
          }
          for (const c of cases) {
            const res = await req('POST', endpoint.path, { key, ...c.options });
            assert.equal(res.status, c.status, `${c.what}: ${res.status} ${JSON.stringify(res.json)}`);
            assertError(res, c.status, c.code);
            assertRateHeaders(res);
            if (c.status === 400 || c.status === 422) {
              assert.ok(Array.isArray(res.json.errors) ? res.json.errors.length > 0 : res.json.message.length > 0, c.what);
            }
          }
          assert.equal(await services.screeningCount(account.accountId), 0, 'no bad input left a screening behind');
        });
      }

      it('unicode names are accepted and echoed exactly; SQL and HTML are stored as text, never executed', async () => {
        const account = await services.createAccount('enterprise');
        const names = [
          'Владимир Путин',
          '金正恩',
          'José Müller-Øst',
          'محمد بن سلمان',
          'Zoë 👩‍💼 Example',
          "Robert'); DROP TABLE screenings;--",
          '<script>alert(1)</script>',
          '"; SELECT pg_sleep(10); --',
        ];
        const ids: number[] = [];
        for (const query of names) {
          const res = await req('POST', '/api/v1/screening/cdd', { key: account.key, body: { query } });
          assert.equal(res.status, 201, `${query}: ${JSON.stringify(res.json)}`);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
          assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
          assert.equal(res.json.screening.search_query, query);
          ids.push(res.json.screening.id);
        }
        for (const [i, id] of ids.entries()) {
          const res = await req('GET', `/api/v1/screening/${id}`, { key: account.key });
          assert.equal(res.json.screening.search_query, names[i]);
        }
        const list = await req('GET', `/api/v1/screenings?search=${encodeURIComponent('DROP TABLE')}`, { key: account.key });
        assert.deepEqual(list.json.screenings.map((s: any) => s.search_query), ["Robert'); DROP TABLE screenings;--"]);
        const all = await req('GET', '/api/v1/screenings', { key: account.key });
        assert.equal(all.json.pagination.total, names.length, 'every row is still there');
        assert.equal(await services.screeningCount(account.accountId), names.length);
      });
    });

    describe('limits', () => {
      it('60 requests per minute per key: headers on every answer, then 429 with Retry-After; denied calls do not count', async () => {
        const account = await services.createAccount('enterprise');
        // Place the clock 30 s into a minute so the window's end is known.
        const now = services.clock.now().getTime();
        const minuteStart = Math.floor(now / 60_000) * 60_000 + 60_000 * 10;
        services.clock.set(minuteStart + 30_000);
        const resetAt = String((minuteStart + 60_000) / 1000);
        for (let i = 1; i <= 60; i++) {
          const res = await req('GET', i % 2 ? '/api/v1/screenings' : '/api/v1/screening/abc', { key: account.key });
          assert.equal(res.status, i % 2 ? 200 : 400);
          assertRateHeaders(res);
          assert.equal(res.headers.get('x-ratelimit-remaining'), String(60 - i));
          assert.equal(res.headers.get('x-ratelimit-reset'), resetAt);
        }
        for (let i = 0; i < 3; i++) {
          const limited = await req('POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'Over The Limit' } });
          assertError(limited, 429, 'rate_limited');
          assertRateHeaders(limited);
          assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
          assert.equal(limited.headers.get('retry-after'), '30');
        }
        assert.equal(await services.screeningCount(account.accountId), 0, 'a rate-limited creation creates nothing');
        // Another key is not affected.
        const other = await services.createAccount('enterprise');
        assert.equal((await req('GET', '/api/v1/screenings', { key: other.key })).status, 200);
        // The next minute starts afresh, and the denied calls were not counted.
        services.clock.set(minuteStart + 60_000);
        const fresh = await req('GET', '/api/v1/screenings', { key: account.key });
        assert.equal(fresh.status, 200);
        assert.equal(fresh.headers.get('x-ratelimit-remaining'), '59');
      });

      it('monthly quota: 402 quota_exceeded when used up, only creations count, Enterprise unlimited, resets next month', async () => {
        const quotaApi = await startS1(services, { monthlyQuota: (plan) => (plan === 'enterprise' ? null : 2) });
        try {
          const q = (method: string, path: string, options: Parameters<typeof call>[3] = {}) => call(quotaApi.url, method, path, options);
          services.clock.set('2026-05-31T23:00:00.000Z');
          const account = await services.createAccount('professional');
          assert.equal((await q('POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'First Co' } })).status, 201);
          // Bad input, plan refusals and reads do not use quota.
          assert.equal((await q('POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'x' } })).status, 422);
          assert.equal((await q('POST', '/api/v1/screening/ma', { key: account.key, body: { target_name: 'Target Co' } })).status, 403);
          assert.equal((await q('GET', '/api/v1/screenings', { key: account.key })).status, 200);
          assert.equal((await q('POST', '/api/v1/screening/edd', { key: account.key, body: { query: 'Second Co' } })).status, 201);
          const over = await q('POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'Third Co' } });
          assertError(over, 402, 'quota_exceeded');
          assertRateHeaders(over);
          assert.equal(await services.screeningCount(account.accountId), 2);
          services.clock.set('2026-06-01T00:00:01.000Z');
          assert.equal((await q('POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'June Co' } })).status, 201);

          const enterprise = await services.createAccount('enterprise');
          for (let i = 0; i < 4; i++) {
            assert.equal((await q('POST', '/api/v1/screening/cdd', { key: enterprise.key, body: { query: `Unlimited ${i}` } })).status, 201);
          }
        } finally {
          await quotaApi.close();
        }
      });

      it('monthly quota is exact under concurrent creations', async () => {
        const quotaApi = await startS1(services, { monthlyQuota: () => 5 });
        try {
          services.clock.set('2026-07-15T10:00:30.000Z');
          const account = await services.createAccount('essentials');
          const results = await Promise.all(
            Array.from({ length: 12 }, (_, i) => call(quotaApi.url, 'POST', '/api/v1/screening/cdd', { key: account.key, body: { query: `Parallel ${i}` } })),
          );
          const statuses = results.map((r) => r.status).sort();
          assert.deepEqual(statuses, [201, 201, 201, 201, 201, 402, 402, 402, 402, 402, 402, 402]);
          assert.equal(await services.screeningCount(account.accountId), 5);
        } finally {
          await quotaApi.close();
        }
      });
    });

    describe('slow pipeline', () => {
      it('answers 202 {status: running, url} when the pipeline outlasts the wait, then the screening is readable', async (t) => {
        if (!services.holdPipeline) {
          t.skip('this wiring cannot hold its pipeline');
          return;
        }
        const slowApi = await startS1(services, { screeningWaitMs: 20 });
        services.holdPipeline(true);
        try {
          const account = await services.createAccount('enterprise');
          const res = await call(slowApi.url, 'POST', '/api/v1/screening/cdd', { key: account.key, body: { query: 'Slow Subject' } });
          assert.equal(res.status, 202, JSON.stringify(res.json));
          assertRateHeaders(res);
          assert.equal(res.json.success, true);
          assert.equal(res.json.status, 'running');
          assert.equal(res.json.screening.status, 'running');
          assert.equal(res.json.screening.risk_score, null);
          assert.equal(res.json.screening.search_query, 'Slow Subject');
          assert.equal(res.json.url, `/api/v1/screening/${res.json.screening.id}`);
          assert.equal(res.headers.get('location'), res.json.url);
          const polled = await call(slowApi.url, 'GET', res.json.url, { key: account.key });
          assert.equal(polled.status, 200);
          assert.equal(polled.json.screening.status, 'running');
          const report = await call(slowApi.url, 'GET', `${res.json.url}/report`, { key: account.key });
          assertError(report, 409, 'conflict');
        } finally {
          services.holdPipeline(false);
          await slowApi.close();
        }
      });
    });
  });
}
