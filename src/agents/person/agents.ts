/**
 * The person-check agents of phases 2-6 (phase 1 standardisation and phase 7 corroboration run in
 * the orchestrator), one per name in src/commands/person-check personCheckPhases:
 *
 * | phase | agent | source | default deployment |
 * |---|---|---|---|
 * | 2 | identity_verification | OpenCorporates officer search | not configured |
 * | 2 | whois | RDAP (only with associated_domain) | not configured |
 * | 3 | federal_courts | CourtListener dockets and opinions | not configured |
 * | 3 | sanctions_list | our sanctions, debarment, export-control lists; the account's internal lists | searched |
 * | 3 | state_court_portals | links to the state courts of the location history | links only (not searched) |
 * | 4 | sex_offender_registry | none: NSOPW has no public API | not searched (link) |
 * | 4 | professional_licences | none configured | not searched |
 * | 4 | secretary_of_state | OpenCorporates officers in US state registries | not configured |
 * | 5 | bankruptcy | CourtListener bankruptcy dockets | not configured |
 * | 5 | judgment_liens | none configured | not searched |
 * | 5 | county_assessor | links to the county assessors' entry points | links only (not searched) |
 * | 6 | news | news/adverse-media search API | not configured |
 * | 6 | encyclopedia | MediaWiki search with the first+last-name rule | not configured |
 * | 6 | social_presence | none configured | not searched |
 * | 6 | pep_sanctions | our PEP lists (when loaded) and ICIJ offshore leaks | searched |
 */
import { httpJson, type HttpJson } from '../sources/http';
import type { ExternalSource } from '../sources/types';
import type { NameScreener } from '../lists/list-agents';
import type { InternalListSource } from '../lists/internal-lists';
import { withPersonInternalLists } from './internal-lists';
import { lookupDomain, searchCourtListener, searchNews, searchOfficers, type Env } from './adapters';
import { searchEncyclopedia } from './encyclopedia';
import { createPersonListAgent } from './list-agents';
import { NCSC_COURT_DIRECTORY, stateByCode } from './locations';
import type { ManualSearchLink, PersonAgent, PersonAgentOutcome, PersonSubject } from './types';

export interface PersonAgentDeps {
  screener: () => NameScreener;
  /** Whether a PEP list is loaded (OpenSanctions PEPs are opt-in). */
  hasPepList: () => boolean;
  env: Env;
  /** The news/adverse-media source of the screening pipeline, if any. */
  newsSource?: ExternalSource;
  /** Injected in tests. */
  http?: HttpJson;
  /** The accounts' internal watchlists (issue 21): the sanctions_list agent screens them too. */
  internalLists?: InternalListSource;
}

function agent(name: string, phase: number, label: string, run: PersonAgent['run']): PersonAgent {
  return { name, phase, label, run };
}

function notSearched(error: string, links?: ManualSearchLink[]): PersonAgentOutcome {
  return links && links.length > 0 ? { queried: false, error, links } : { queried: false, error };
}

export function stateCourtLinks(subject: PersonSubject): ManualSearchLink[] {
  const links: ManualSearchLink[] = [];
  for (const loc of subject.locations) {
    if (loc.kind !== 'state') continue;
    const state = stateByCode(loc.code);
    links.push({ label: `${loc.name} state courts`, url: state?.courts ?? NCSC_COURT_DIRECTORY });
  }
  if (links.length > 0) links.push({ label: 'County court websites of every state (NCSC directory)', url: NCSC_COURT_DIRECTORY });
  return links;
}

export function countyAssessorLinks(subject: PersonSubject): ManualSearchLink[] {
  return subject.locations
    .filter((l) => l.kind === 'state')
    .map((l) => ({ label: `${l.name} county assessors (public records directory)`, url: `https://publicrecords.netronline.com/state/${l.code}` }));
}

/** Phase 3's list agent: the official sanctions, debarment and export-control lists, and the account's own lists. */
export function sanctionsListAgent(screener: PersonAgentDeps['screener'], internalLists: PersonAgentDeps['internalLists']): PersonAgent {
  return withPersonInternalLists(
    createPersonListAgent(
      {
        name: 'sanctions_list',
        phase: 3,
        label: 'Sanctions, debarment and export-control lists (OFAC, UN, US CSL, BIS; EU and UK when loaded)',
        groups: [{ topics: ['sanctions', 'debarment', 'export_control'], category: 'sanctions' }],
      },
      screener,
    ),
    internalLists,
  );
}

export function createPersonAgents(deps: PersonAgentDeps): PersonAgent[] {
  const http = deps.http ?? httpJson;
  const at = (now: () => Date) => now().toISOString();
  return [
    agent('identity_verification', 2, 'Identity via corporate-officer registries (OpenCorporates officers)', (s, c) =>
      searchOfficers(s, { env: deps.env, http, signal: c.signal, retrievedAt: at(c.now), usStatesOnly: false }),
    ),
    agent('whois', 2, 'Domain registration (RDAP/WHOIS)', (s, c) => lookupDomain(s, { env: deps.env, http, signal: c.signal, retrievedAt: at(c.now) })),
    agent('federal_courts', 3, 'Federal dockets and opinions (CourtListener)', (s, c) =>
      searchCourtListener(s, 'criminal_and_civil', { env: deps.env, http, signal: c.signal, retrievedAt: at(c.now) }),
    ),
    sanctionsListAgent(deps.screener, deps.internalLists),
    agent('state_court_portals', 3, 'State and county court portals', async (s) => {
      const links = stateCourtLinks(s);
      return notSearched(
        links.length > 0
          ? 'manual search: state court portals offer no common search API; the links for the states in the location history are in the report'
          : 'not applicable: no US state in the location history',
        links,
      );
    }),
    agent('sex_offender_registry', 4, 'Sex-offender registries (NSOPW)', async () =>
      notSearched('not configured: the national sex-offender registry (NSOPW) has no public search API; search it by hand', [
        { label: 'Dru Sjodin National Sex Offender Public Website', url: 'https://www.nsopw.gov' },
      ]),
    ),
    agent('professional_licences', 4, 'Professional licences (healthcare, broker, bar, aviation)', async () =>
      notSearched('not configured: no professional-licence registry adapter in this deployment'),
    ),
    agent('secretary_of_state', 4, 'Secretary-of-state corporate registries (via OpenCorporates)', (s, c) =>
      searchOfficers(s, { env: deps.env, http, signal: c.signal, retrievedAt: at(c.now), usStatesOnly: true }),
    ),
    agent('bankruptcy', 5, 'Bankruptcy courts (CourtListener)', (s, c) =>
      searchCourtListener(s, 'bankruptcy', { env: deps.env, http, signal: c.signal, retrievedAt: at(c.now) }),
    ),
    agent('judgment_liens', 5, 'Judgment liens', async () => notSearched('not configured: no judgment-lien records adapter in this deployment')),
    agent('county_assessor', 5, 'County assessor records', async (s) => {
      const links = countyAssessorLinks(s);
      return notSearched(
        links.length > 0 ? 'manual search: county assessor records have no common API; directory links are in the report' : 'not applicable: no US state in the location history',
        links,
      );
    }),
    agent('news', 6, 'News and adverse-media search', (s, c) => searchNews(s, { source: deps.newsSource, signal: c.signal, retrievedAt: at(c.now), ...(deps.http ? { http: deps.http } : {}) })),
    agent('encyclopedia', 6, 'Encyclopedia cross-reference (MediaWiki)', async (s, c) => {
      const apiUrl = deps.env.PERSON_CHECK_ENCYCLOPEDIA_URL;
      if (!apiUrl) return notSearched('not configured: set PERSON_CHECK_ENCYCLOPEDIA_URL (e.g. https://en.wikipedia.org/w/api.php)');
      try {
        const { records, excluded } = await searchEncyclopedia(s, { apiUrl, http, signal: c.signal, retrievedAt: at(c.now) });
        return { queried: true, records, data: { excluded } };
      } catch (error) {
        return notSearched(error instanceof Error ? error.message : String(error));
      }
    }),
    agent('social_presence', 6, 'Social-media presence', async () => notSearched('not configured: no social-media search adapter in this deployment')),
    createPersonListAgent(
      {
        name: 'pep_sanctions',
        phase: 6,
        label: 'PEP lists (OpenSanctions PEPs when loaded) and ICIJ Offshore Leaks',
        groups: [
          { topics: ['pep'], category: 'pep', notLoaded: () => (deps.hasPepList() ? undefined : 'PEP lists not loaded (set OPENSANCTIONS_DIR): only the offshore leaks were searched') },
          { topics: ['offshore_leaks'], category: 'offshore_leaks' },
        ],
      },
      deps.screener,
    ),
  ];
}
