import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AdverseMediaSearchSource,
  CommercialScreeningSource,
  CompaniesHouseSource,
  createExternalSources,
  GleifSource,
  httpClient,
  IcijOffshoreSource,
  OpenCorporatesSource,
  toReportHit,
  type AgentOutcome,
  type ExternalSource,
  type SourceHitMatch,
  type SourceRegistryMatch,
  type SourceSubject,
} from '../../../../src/agents/sources';
import { computeRiskScore } from '../../../../src/reports/risk-score';
import { FakeServer, json, recordingSleep } from './fake-server';

const server = new FakeServer();
let base = '';
before(async () => {
  base = await server.start();
});
after(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

const { sleep } = recordingSleep();
const ctx = () => ({ http: httpClient({ sleep }) });
const person: SourceSubject = { name: 'Vladimir Putin', entityType: 'individual', jurisdiction: 'RU' };
const company: SourceSubject = { name: 'Zala Aero Group', entityType: 'company', jurisdiction: 'RU' };
const ukCompany: SourceSubject = { name: 'Acme Widgets Limited', entityType: 'company', jurisdiction: 'GB' };

function hits(o: AgentOutcome): SourceHitMatch[] {
  assert.equal(o.queried, true, o.queried ? '' : o.error);
  return o.matches.filter((m): m is SourceHitMatch => m.kind === 'hit');
}
function records(o: AgentOutcome): SourceRegistryMatch[] {
  assert.equal(o.queried, true, o.queried ? '' : o.error);
  return o.matches.filter((m): m is SourceRegistryMatch => m.kind === 'registry');
}
function failed(o: AgentOutcome, pattern: RegExp): void {
  assert.equal(o.queried, false);
  if (!o.queried) {
    assert.match(o.error, pattern);
    assert.deepEqual(o.matches, []);
  }
}

/** The shared failure behaviour every adapter must have. */
function commonFailures(make: (env: Record<string, string>, timeoutMs: number) => ExternalSource, env: () => Record<string, string>, subject: SourceSubject) {
  it('500 on every attempt → queried:false with the status', async () => {
    server.handler = (_req, res) => json(res, 500, { error: 'boom' });
    failed(await make(env(), 2000).query(subject, ctx()), /HTTP 500/);
    assert.ok(server.requests.length >= 2, 'retried');
  });
  it('timeout → queried:false with "timeout"', async () => {
    server.handler = () => {};
    failed(await make(env(), 60).query(subject, ctx()), /timeout/);
  });
  it('a malformed answer → queried:false, no guessed match', async () => {
    server.handler = (_req, res) => json(res, 200, { unexpected: true });
    failed(await make(env(), 2000).query(subject, ctx()), /unexpected response/);
  });
}

describe('CommercialScreeningSource (OpenSanctions-style /match)', () => {
  const env = () => ({ SCREENING_API_URL: `${base}/os/`, SCREENING_API_KEY: 'secret-key', SCREENING_API_DATASET: 'default' });
  const make = (e: Record<string, string>, t: number) => new CommercialScreeningSource(e, t);

  it('unconfigured → queried:false naming the variables, no request', async () => {
    const source = new CommercialScreeningSource({});
    assert.equal(source.configured(), false);
    failed(await source.query(person, ctx()), /not configured: set SCREENING_API_URL and SCREENING_API_KEY/);
    assert.equal(server.requests.length, 0);
  });

  it('posts the query and splits results into sanctions (per authority), PEP and debarment hits', async () => {
    server.handler = (_req, res) =>
      json(res, 200, {
        responses: {
          subject: {
            status: 200,
            results: [
              {
                id: 'Q7747',
                caption: 'Vladimir Vladimirovich PUTIN',
                schema: 'Person',
                score: 0.97,
                match: true,
                datasets: ['us_ofac_sdn', 'eu_fsf', 'gb_hmt_sanctions', 'ru_rupep'],
                properties: {
                  name: ['Vladimir Vladimirovich PUTIN', 'Vladimir Putin'],
                  topics: ['sanction', 'role.pep'],
                  position: ['President of the Russian Federation'],
                  program: ['RUSSIA-EO14024'],
                  country: ['ru'],
                  sourceUrl: ['https://sanctionssearch.ofac.treas.gov/'],
                },
              },
              { id: 'NK-weak', caption: 'Vladimir Pupkin', score: 0.55, datasets: ['us_ofac_sdn'], properties: { topics: ['sanction'] } },
            ],
            total: { value: 2 },
          },
        },
      });
    const outcome = await make(env(), 2000).query(person, ctx());
    const found = hits(outcome);
    const req = server.requests[0]!;
    assert.equal(req.url, '/os/match/default');
    assert.equal(req.headers.authorization, 'ApiKey secret-key');
    const sent = JSON.parse(req.body);
    assert.deepEqual(sent.queries.subject, { schema: 'Person', properties: { name: ['Vladimir Putin'], nationality: ['RU'] } });
    assert.deepEqual(
      found.map((h) => `${h.category}:${h.listAuthority ?? '-'}`),
      ['sanctions:us', 'sanctions:eu', 'sanctions:uk', 'pep:-'],
    );
    assert.equal(found[0]!.matchedName, 'Vladimir Putin');
    assert.equal(found[3]!.position, 'President of the Russian Federation');
    assert.ok(found.every((h) => h.entityId === 'Q7747'), 'the 0.55 candidate is dropped');
    const score = computeRiskScore({
      hits: { sanctions: found.filter((h) => h.category === 'sanctions').map((h) => toReportHit('commercial_screening', h)!) },
    });
    // An outside source gives a name match only: nothing corroborates the identity, so each hit is
    // potential (issue 27: a name alone confirms nothing), US 7 + EU 6 + UK 6.
    assert.ok(found.every((h) => toReportHit('commercial_screening', h)!.status === 'potential'));
    assert.equal(score.additiveScore, 7 + 6 + 6);
    // The datasets (us_ofac_sdn…) reach the hits, so the scorer knows the lists block: a potential blocking hit is high.
    assert.equal(found[0]!.sourceList, 'us_ofac_sdn');
    assert.deepEqual([score.riskScore, score.riskLevel, score.floor?.rule], [45, 'high', 'floor.sanctions_potential']);
  });

  commonFailures(make, env, person);
});

describe('AdverseMediaSearchSource (generic news search)', () => {
  const env = () => ({ NEWS_SEARCH_URL: `${base}/news/search`, NEWS_SEARCH_API_KEY: 'nk', NEWS_SEARCH_EXTRA_PARAMS: 'language=en' });
  const make = (e: Record<string, string>, t: number) => new AdverseMediaSearchSource(e, t);
  const subject: SourceSubject = { name: 'John Q Sample', entityType: 'individual' };

  it('unconfigured → queried:false', async () => {
    failed(await new AdverseMediaSearchSource({ NEWS_SEARCH_URL: 'http://x' }).query(subject, ctx()), /not configured: set NEWS_SEARCH_API_KEY/);
  });

  it('keeps only articles naming the subject with adverse terms (NewsAPI shape)', async () => {
    server.handler = (_req, res) =>
      json(res, 200, {
        status: 'ok',
        articles: [
          { title: 'John Q Sample charged with wire fraud', url: 'https://news.example/1', description: 'Prosecutors said…', publishedAt: '2025-03-01T10:00:00Z', source: { name: 'Example Times' } },
          { title: 'Sample, John Q. wins award', url: 'https://news.example/2', description: 'A happy story', publishedAt: '2025-03-02T10:00:00Z', source: { name: 'X' } },
          { title: 'Bank fined over laundering', url: 'https://news.example/3', description: 'Officials named Q. Sample and John Roe', source: { name: 'Y' } },
          { title: 'Unrelated fraud case', url: 'https://news.example/4', description: 'Someone else', source: { name: 'Z' } },
        ],
      });
    const found = hits(await make(env(), 2000).query(subject, ctx()));
    const url = new URL(server.requests[0]!.url, base);
    assert.match(url.searchParams.get('q')!, /^"John Q Sample" AND \(fraud OR/);
    assert.equal(url.searchParams.get('language'), 'en');
    assert.equal(server.requests[0]!.headers['x-api-key'], 'nk');
    assert.deepEqual(found.map((h) => [h.sourceUrl, h.score]), [
      ['https://news.example/1', 0.95],
      ['https://news.example/3', 0.85],
    ]);
    assert.equal(found[0]!.publishedAt, '2025-03-01T10:00:00Z');
    assert.equal(found[0]!.extra?.publisher, 'Example Times');
  });

  it('reads the Bing shape too, with a bearer Authorization header', async () => {
    server.handler = (_req, res) =>
      json(res, 200, { value: [{ name: 'John Q Sample arrested in bribery probe', url: 'https://b/1', datePublished: '2024-01-01', provider: [{ name: 'Wire' }] }] });
    const found = hits(await new AdverseMediaSearchSource({ ...env(), NEWS_SEARCH_AUTH_HEADER: 'Authorization', NEWS_SEARCH_QUERY_TEMPLATE: '{name} fraud', NEWS_SEARCH_QUERY_PARAM: 'query' }).query(subject, ctx()));
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer nk');
    assert.equal(new URL(server.requests[0]!.url, base).searchParams.get('query'), 'John Q Sample fraud');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.extra?.publisher, 'Wire');
  });

  commonFailures(make, env, subject);
});

describe('OpenCorporatesSource', () => {
  const env = () => ({ OPENCORPORATES_API_URL: `${base}/oc`, OPENCORPORATES_API_TOKEN: 'tok' });
  const make = (e: Record<string, string>, t: number) => new OpenCorporatesSource(e, t);

  it('unconfigured → queried:false; individuals → not applicable', async () => {
    failed(await new OpenCorporatesSource({}).query(company, ctx()), /OPENCORPORATES_API_TOKEN/);
    failed(await make(env(), 100).query(person, ctx()), /not applicable/);
    assert.equal(server.requests.length, 0);
  });

  it('returns registry records ranked by name similarity', async () => {
    server.handler = (_req, res) =>
      json(res, 200, {
        api_version: '0.4',
        results: {
          companies: [
            { company: { name: 'ZALA AERO SERVICES LLC', company_number: '777', jurisdiction_code: 'ru', current_status: 'Active', opencorporates_url: 'https://opencorporates.com/companies/ru/777' } },
            { company: { name: 'ZALA AERO GROUP', company_number: '1127746', jurisdiction_code: 'ru', incorporation_date: '2012-01-01', current_status: 'Active', registered_address_in_full: 'Izhevsk', opencorporates_url: 'https://opencorporates.com/companies/ru/1127746' } },
          ],
        },
      });
    const found = records(await make(env(), 2000).query(company, ctx()));
    const url = new URL(server.requests[0]!.url, base);
    assert.equal(url.pathname, '/oc/companies/search');
    assert.equal(url.searchParams.get('jurisdiction_code'), 'ru');
    assert.equal(url.searchParams.get('api_token'), 'tok');
    assert.equal(found[0]!.record.registrationNumber, '1127746');
    assert.equal(found[0]!.record.extra?.name_similarity, '1.00');
    assert.equal(found[0]!.record.address, 'Izhevsk');
  });

  commonFailures(make, env, company);
});

describe('GleifSource', () => {
  const env = () => ({ GLEIF_API_URL: `${base}/gleif` });
  const make = (e: Record<string, string>, t: number) => new GleifSource(e, t);

  it('is opt-in although public: unset → queried:false naming the public URL', async () => {
    assert.equal(new GleifSource({}).configured(), false);
    failed(await new GleifSource({}).query(company, ctx()), /not configured: set GLEIF_API_URL \(public API: https:\/\/api.gleif.org\/api\/v1\)/);
    failed(await make(env(), 100).query(person, ctx()), /not applicable/);
    assert.equal(server.requests.length, 0);
  });

  it('parses LEI records', async () => {
    server.handler = (_req, res) =>
      json(res, 200, {
        meta: { pagination: { total: 1 } },
        data: [
          {
            type: 'lei-records',
            id: '5299000J2N45DDNE4Y28',
            attributes: {
              lei: '5299000J2N45DDNE4Y28',
              entity: {
                legalName: { name: 'Zala Aero Group', language: 'ru' },
                jurisdiction: 'RU',
                status: 'ACTIVE',
                legalAddress: { addressLines: ['ul. Lenina 1'], city: 'Izhevsk', country: 'RU' },
                registeredAs: '1127746',
              },
              registration: { status: 'LAPSED' },
            },
          },
        ],
      });
    const found = records(await make(env(), 2000).query(company, ctx()));
    const url = new URL(server.requests[0]!.url, base);
    assert.equal(url.searchParams.get('filter[entity.legalName]'), 'Zala Aero Group');
    assert.deepEqual(
      [found[0]!.record.lei, found[0]!.record.address, found[0]!.record.extra?.lei_registration_status],
      ['5299000J2N45DDNE4Y28', 'ul. Lenina 1, Izhevsk, RU', 'LAPSED'],
    );
  });

  commonFailures(make, env, company);
});

describe('CompaniesHouseSource', () => {
  const env = () => ({ COMPANIES_HOUSE_API_URL: `${base}/ch`, COMPANIES_HOUSE_API_KEY: 'chkey' });
  const make = (e: Record<string, string>, t: number) => new CompaniesHouseSource(e, t);

  it('unconfigured → queried:false; non-UK jurisdiction → not applicable', async () => {
    failed(await new CompaniesHouseSource({}).query(ukCompany, ctx()), /COMPANIES_HOUSE_API_KEY/);
    failed(await make(env(), 100).query(company, ctx()), /not the United Kingdom/);
  });

  it('identifies the company, reads PSCs and exemptions, and yields the UK scoring facts', async () => {
    server.handler = (req, res) => {
      if (req.url.startsWith('/ch/search/companies'))
        return json(res, 200, {
          items: [
            { company_number: '01234567', title: 'ACME WIDGETS LIMITED', company_status: 'dissolved', address_snippet: '1 High St, London' },
            { company_number: '07654321', title: 'ACME WIDGET HOLDINGS PLC', company_status: 'active' },
          ],
        });
      if (req.url === '/ch/company/01234567')
        return json(res, 200, { company_name: 'ACME WIDGETS LIMITED', company_number: '01234567', company_status: 'dissolved', date_of_cessation: '2023-05-02', type: 'ltd', registered_office_address: { address_line_1: '1 High St', locality: 'London' } });
      if (req.url === '/ch/company/01234567/persons-with-significant-control')
        return json(res, 200, {
          items: [
            { name: 'Mr Ali Example', kind: 'individual-person-with-significant-control', country_of_residence: 'Iran' },
            { name: 'Old Owner', kind: 'individual-person-with-significant-control', country_of_residence: 'England', ceased_on: '2019-01-01' },
          ],
        });
      if (req.url === '/ch/company/01234567/exemptions') return json(res, 404, { errors: [{ error: 'not found' }] });
      json(res, 404, {});
    };
    const found = records(await make(env(), 2000).query(ukCompany, ctx()));
    assert.equal(server.requests[0]!.headers.authorization, `Basic ${Buffer.from('chkey:').toString('base64')}`);
    const subject = found[0]!;
    assert.deepEqual(subject.ukRegistry, {
      companyNumber: '01234567',
      companyName: 'ACME WIDGETS LIMITED',
      status: 'dissolved',
      struckOff: true,
      pscNotRegisteredOrExempt: false,
      controllerCountries: ['IR'],
    });
    assert.deepEqual(subject.record.officers, [{ name: 'Mr Ali Example', role: 'PSC (individual-person-with-significant-control)' }]);
    assert.equal(found[1]!.ukRegistry, undefined, 'other search results carry no scoring facts');
    const score = computeRiskScore({ hits: {}, ukRegistry: subject.ukRegistry, highRiskJurisdictions: ['IR', 'KP'] });
    assert.equal(score.riskScore, 3 + 3);
  });

  it('no PSC registered (404) → pscNotRegisteredOrExempt', async () => {
    server.handler = (req, res) => {
      if (req.url === '/ch/company/SC000001') return json(res, 200, { company_name: 'X LTD', company_number: 'SC000001', company_status: 'active' });
      if (req.url === '/ch/company/SC000001/exemptions') return json(res, 200, { exemptions: { psc_exempt_as_trading_on_regulated_market: { items: [] } } });
      json(res, 404, {});
    };
    const found = records(await make(env(), 2000).query({ ...ukCompany, registrationNumber: 'SC000001' }, ctx()));
    assert.equal(found[0]!.ukRegistry?.pscNotRegisteredOrExempt, true);
    assert.equal(found[0]!.ukRegistry?.struckOff, false);
    assert.equal(found[0]!.record.extra?.psc_exemptions, 'psc_exempt_as_trading_on_regulated_market');
  });

  it('an uncertain search result gets no facts attributed', async () => {
    server.handler = (_req, res) => json(res, 200, { items: [{ company_number: '1', title: 'ACME HOLDINGS GROUP PLC' }] });
    const found = records(await make(env(), 2000).query(ukCompany, ctx()));
    assert.equal(found.length, 1);
    assert.equal(found[0]!.ukRegistry, undefined);
    assert.equal(server.requests.length, 1, 'no profile fetched');
  });

  commonFailures(make, env, ukCompany);
});

describe('IcijOffshoreSource (reconcile API)', () => {
  const env = () => ({ ICIJ_RECONCILE_URL: `${base}/icij/reconcile`, ICIJ_INVESTIGATIONS: 'panama-papers,pandora-papers' });
  const make = (e: Record<string, string>, t: number) => new IcijOffshoreSource(e, t);
  const subject: SourceSubject = { name: 'Tiger Trust Holdings Ltd', entityType: 'company' };

  it('is opt-in although public: unset → queried:false', async () => {
    assert.equal(new IcijOffshoreSource({}).configured(), false);
    failed(await new IcijOffshoreSource({}).query(subject, ctx()), /not configured: set ICIJ_RECONCILE_URL/);
    assert.equal(server.requests.length, 0);
  });

  it('queries each investigation and tags hits with it; weak names are dropped', async () => {
    server.handler = (req, res) => {
      if (req.url.endsWith('/panama-papers'))
        return json(res, 200, {
          q0: {
            result: [
              { id: '10000001', name: 'TIGER TRUST HOLDINGS LTD.', score: 11.2, match: false, type: [{ id: 'https://offshoreleaks.icij.org/schema/oldb/entity', name: 'Entity' }] },
              { id: '10000002', name: 'TIGER BALM INC', score: 3.1, match: false },
            ],
          },
        });
      json(res, 200, { q0: { result: [] } });
    };
    const outcome = await make(env(), 2000).query(subject, ctx());
    const found = hits(outcome);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(JSON.parse(server.requests[0]!.body), { queries: { q0: { query: 'Tiger Trust Holdings Ltd' } } });
    assert.equal(found.length, 1);
    assert.equal(found[0]!.investigation, 'Panama Papers');
    assert.equal(found[0]!.sourceUrl, 'https://offshoreleaks.icij.org/nodes/10000001');
    assert.equal(found[0]!.score, 1);
    // The reconcile API matches names only: a potential Panama Papers hit (+10), not a confirmed one (+20).
    assert.equal(computeRiskScore({ hits: { offshore_leaks: [toReportHit('icij_offshore_api', found[0]!)!] } }).riskScore, 10);
  });

  it('one investigation failing leaves the others, with a warning', async () => {
    server.handler = (req, res) => (req.url.endsWith('/panama-papers') ? json(res, 500, {}) : json(res, 200, { q0: { result: [] } }));
    const outcome = await make(env(), 2000).query(subject, ctx());
    assert.equal(outcome.queried, true);
    assert.ok(outcome.queried && outcome.warnings?.[0]?.startsWith('panama-papers: HTTP 500'));
  });

  commonFailures(make, env, subject);
});

describe('createExternalSources', () => {
  it('builds every adapter; with an empty environment none is configured (offline default)', () => {
    const sources = createExternalSources({});
    assert.deepEqual(sources.map((s) => s.name), ['commercial_screening', 'adverse_media_search', 'icij_offshore_api', 'opencorporates', 'companies_house', 'gleif']);
    assert.deepEqual(sources.filter((s) => s.configured()).map((s) => s.name), []);
    const all = createExternalSources({
      SCREENING_API_URL: 'http://a', SCREENING_API_KEY: 'k', NEWS_SEARCH_URL: 'http://n', NEWS_SEARCH_API_KEY: 'k', ICIJ_RECONCILE_URL: 'http://i',
      OPENCORPORATES_API_TOKEN: 't', COMPANIES_HOUSE_API_KEY: 'c', GLEIF_API_URL: 'http://g',
    });
    assert.equal(all.filter((s) => s.configured()).length, 6);
  });
  it('toReportHit refuses a score below 0.80', () => {
    const weak: SourceHitMatch = { kind: 'hit', category: 'pep', entityId: 'x', entityName: 'X', matchedName: 'X', score: 0.79, summary: '', programs: [] };
    assert.equal(toReportHit('s', weak), undefined);
    assert.equal(toReportHit('s', { ...weak, score: 0.8 })?.status, 'potential');
  });
});
