import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encyclopediaExclusion, searchEncyclopedia } from '../../../src/agents/person/encyclopedia';
import { lookupDomain, searchCourtListener } from '../../../src/agents/person/adapters';
import { createPersonAgents } from '../../../src/agents/person/agents';
import { standardise } from '../../../src/agents/person/standardise';
import { ScreeningEngine } from '../../../src/screening/engine';
import type { HttpJson } from '../../../src/agents/sources/http';

const subject = standardise({ personCheckId: 'SVC-00000001-P', purpose: 'employment', fullName: 'Jane Roe', dateOfBirth: '1970-05-05', locations: ['Ohio', 'NY'] }).subject;
const at = '2026-11-22T12:00:00.000Z';

test('encyclopedia rule: both names in title or snippet; no disambiguation or sports pages', () => {
  assert.equal(encyclopediaExclusion({ title: 'Jane Roe', snippet: 'American lawyer' }, 'Jane', 'Roe'), undefined);
  assert.equal(encyclopediaExclusion({ title: 'Roe v. Wade', snippet: 'the plaintiff <span class="searchmatch">Jane</span> Roe' }, 'Jane', 'Roe'), undefined);
  assert.equal(encyclopediaExclusion({ title: 'Jane Roe (disambiguation)', snippet: '' }, 'Jane', 'Roe'), 'disambiguation page');
  assert.equal(encyclopediaExclusion({ title: 'Jane Roe', snippet: 'Jane Roe may refer to:' }, 'Jane', 'Roe'), 'disambiguation page');
  assert.equal(encyclopediaExclusion({ title: 'Jane Roe (footballer)', snippet: 'English footballer' }, 'Jane', 'Roe'), 'sports page');
  assert.equal(encyclopediaExclusion({ title: '2019 Roe Cup', snippet: 'Jane Roe won' }, 'Jane', 'Roe'), 'sports page');
  assert.equal(encyclopediaExclusion({ title: 'Roe family', snippet: 'a family of bankers' }, 'Jane', 'Roe'), 'first name not in title or snippet');
  assert.equal(encyclopediaExclusion({ title: 'Jane Austen', snippet: 'novelist' }, 'Jane', 'Roe'), 'last name not in title or snippet');
});

test('encyclopedia adapter keeps qualifying articles with attribution and marks adverse text', async () => {
  const http: HttpJson = async <T>(url: string) => {
    assert.match(url, /srsearch=%22Jane\+Roe%22/);
    return {
      query: {
        search: [
          { title: 'Jane Roe', snippet: '<span class="searchmatch">Jane</span> Roe (born 1970) is an Ohio executive convicted of fraud' },
          { title: 'Jane Roe (disambiguation)', snippet: '' },
          { title: 'Jane Roe (cricketer)', snippet: 'cricketer' },
        ],
      },
    } as T;
  };
  const { records, excluded } = await searchEncyclopedia(subject, { apiUrl: 'https://en.wikipedia.org/w/api.php', http, retrievedAt: at });
  assert.equal(records.length, 1);
  assert.equal(records[0]!.url, 'https://en.wikipedia.org/wiki/Jane_Roe');
  assert.equal(records[0]!.category, 'adverse_media');
  assert.equal(records[0]!.dob, 'year_match');
  assert.equal(records[0]!.location, 'match');
  assert.deepEqual(excluded.map((e) => e.reason), ['disambiguation page', 'sports page']);
});

test('CourtListener adapter: unconfigured says so; configured, a "United States v." caption is criminal and located by its court', async () => {
  const unconfigured = await searchCourtListener(subject, 'criminal_and_civil', { env: {}, http: (async () => ({})) as HttpJson, retrievedAt: at });
  assert.deepEqual(unconfigured, { queried: false, error: 'not configured: set COURTLISTENER_API_TOKEN' });
  const calls: string[] = [];
  const http: HttpJson = async <T>(url: string, options?: { headers?: Record<string, string> }) => {
    calls.push(url);
    assert.equal(options?.headers?.Authorization, 'Token t0k');
    return {
      results: url.includes('type=r')
        ? [
            { caseName: 'United States v. Jane Roe', docketNumber: '1:19-cr-00042', court: 'District Court, S.D. Ohio', court_id: 'ohsd', docket_id: 7, absolute_url: '/docket/7/usa-v-roe/' },
            { caseName: 'Acme Corp. v. Smith', court_id: 'nysd', docket_id: 8 },
          ]
        : [],
    } as T;
  };
  const outcome = await searchCourtListener(subject, 'criminal_and_civil', { env: { COURTLISTENER_API_TOKEN: 't0k' }, http, retrievedAt: at });
  assert.equal(outcome.queried, true);
  if (!outcome.queried) return;
  assert.equal(outcome.records.length, 1);
  assert.equal(outcome.records[0]!.category, 'criminal');
  assert.equal(outcome.records[0]!.location, 'match');
  assert.equal(outcome.records[0]!.url, 'https://www.courtlistener.com/docket/7/usa-v-roe/');
  assert.ok(calls.length >= 2);
});

test('CourtListener failures are "not queried" with the error, never an empty clean answer', async () => {
  const http: HttpJson = async () => {
    throw new Error('HTTP 503 from courtlistener');
  };
  const outcome = await searchCourtListener(subject, 'bankruptcy', { env: { COURTLISTENER_API_TOKEN: 't' }, http, retrievedAt: at });
  assert.deepEqual(outcome, { queried: false, error: 'HTTP 503 from courtlistener' });
});

test('default deployment: only our lists are searched; every other agent says why not, with links where a manual search is possible', async () => {
  const agents = createPersonAgents({ screener: () => ScreeningEngine.build([], []), hasPepList: () => false, env: {} });
  const ctx = { signal: new AbortController().signal, now: () => new Date(at) };
  const outcomes = Object.fromEntries(await Promise.all(agents.map(async (a) => [a.name, await a.run(subject, ctx)] as const)));
  const searched = Object.entries(outcomes).filter(([, o]) => o.queried).map(([n]) => n).sort();
  assert.deepEqual(searched, ['pep_sanctions', 'sanctions_list']);
  for (const [name, o] of Object.entries(outcomes)) if (!o.queried) assert.ok(o.error.length > 10, name);
  const courts = outcomes.state_court_portals!;
  assert.equal(courts.queried, false);
  assert.deepEqual(courts.links?.slice(0, 2).map((l) => l.label), ['Ohio state courts', 'New York state courts']);
  assert.match(outcomes.whois!.queried ? '' : outcomes.whois!.error, /not applicable/);
});

test('RDAP lookup of the associated domain: registration date and public registrant, or not configured', async () => {
  const withDomain = standardise({ personCheckId: 'SVC-00000002-P', purpose: 'business_due_diligence', fullName: 'Jane Roe', associatedDomain: 'Roe-Consulting.example' }).subject;
  assert.deepEqual(await lookupDomain(withDomain, { env: {}, http: (async () => ({})) as HttpJson, retrievedAt: at }), {
    queried: false,
    error: 'not configured: set PERSON_CHECK_RDAP_URL (e.g. https://rdap.org)',
  });
  const http: HttpJson = async <T>(url: string) => {
    assert.equal(url, 'https://rdap.example/domain/roe-consulting.example');
    return {
      events: [{ eventAction: 'registration', eventDate: '2015-04-01T00:00:00Z' }],
      entities: [{ roles: ['registrant'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Jane Roe']]] }],
    } as T;
  };
  const outcome = await lookupDomain(withDomain, { env: { PERSON_CHECK_RDAP_URL: 'https://rdap.example/' }, http, retrievedAt: at });
  assert.equal(outcome.queried, true);
  if (!outcome.queried) return;
  assert.equal(outcome.records[0]!.title, 'Domain roe-consulting.example registered 2015-04-01 to Jane Roe');
  assert.equal(outcome.records[0]!.category, 'domain');
});
