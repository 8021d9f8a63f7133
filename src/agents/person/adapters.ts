/**
 * Outside sources of the person-check pipeline, each behind configuration. Unconfigured, an
 * adapter answers `queried: false` with the setting to provide; a failing service answers
 * `queried: false` with the error. None of them ever invents a record.
 *
 * - CourtListener (federal dockets, opinions, bankruptcy): COURTLISTENER_API_TOKEN
 *   (COURTLISTENER_API_URL, default https://www.courtlistener.com/api/rest/v4).
 * - OpenCorporates officer search (identity via corporate-officer registries, secretary-of-state
 *   registries): OPENCORPORATES_API_TOKEN (OPENCORPORATES_API_URL).
 * - RDAP (WHOIS of the associated domain): PERSON_CHECK_RDAP_URL (e.g. https://rdap.org).
 * - News: the adverse-media search of the screening pipeline (NEWS_SEARCH_URL, NEWS_SEARCH_API_KEY).
 */
import { nameEvidence } from '../sources/adverse-media';
import { trimSlash } from '../sources/base';
import { HttpSourceError, type HttpJson } from '../sources/http';
import type { ExternalSource } from '../sources/types';
import { stateByCode } from './locations';
import type { PersonAgentOutcome, PersonSubject, SourceRecord } from './types';

export type Env = Record<string, string | undefined>;

function failure(error: unknown): PersonAgentOutcome {
  const message = error instanceof HttpSourceError || error instanceof Error ? error.message : String(error);
  return { queried: false, error: message };
}

/** The names an outside service is asked about (each call costs quota): full name, first+last, aliases. */
export function outsideSearchNames(subject: PersonSubject, max = 3): string[] {
  return subject.searchNames.filter((n) => !/variant of the given name/.test(subject.nameOrigins[n] ?? '')).slice(0, max);
}

function stateOfCourt(courtId: string | undefined): string | undefined {
  if (!courtId) return undefined;
  const m = /^([a-z]{2})[a-z]?[db]$/.exec(courtId);
  return m ? stateByCode(m[1]!)?.code : undefined;
}

interface DocketResult {
  caseName?: string;
  docketNumber?: string;
  court?: string;
  court_id?: string;
  dateFiled?: string;
  absolute_url?: string;
  docket_id?: number | string;
  id?: number | string;
}

/** CourtListener search (type r: RECAP dockets; o: opinions). */
export async function searchCourtListener(
  subject: PersonSubject,
  what: 'criminal_and_civil' | 'bankruptcy',
  deps: { env: Env; http: HttpJson; signal?: AbortSignal; retrievedAt: string },
): Promise<PersonAgentOutcome> {
  const token = deps.env.COURTLISTENER_API_TOKEN;
  if (!token) return { queried: false, error: 'not configured: set COURTLISTENER_API_TOKEN' };
  const base = trimSlash(deps.env.COURTLISTENER_API_URL || 'https://www.courtlistener.com/api/rest/v4');
  const records: SourceRecord[] = [];
  try {
    for (const name of outsideSearchNames(subject)) {
      for (const type of what === 'bankruptcy' ? ['r'] : ['r', 'o']) {
        const url = new URL(`${base}/search/`);
        url.searchParams.set('q', `caseName:"${name.replace(/"/g, '')}"`);
        url.searchParams.set('type', type);
        const raw = (await deps.http(url.toString(), { headers: { Authorization: `Token ${token}` }, signal: deps.signal })) as { results?: DocketResult[] };
        if (!raw || !Array.isArray(raw.results)) throw new Error('unexpected response from CourtListener: no results array');
        for (const r of raw.results) {
          const caseName = r.caseName ?? '';
          const score = nameEvidence(name, caseName);
          if (score === 0) continue;
          const bankruptcy = /bankr/i.test(r.court ?? '') || /b$/.test(r.court_id ?? '');
          if ((what === 'bankruptcy') !== bankruptcy) continue;
          const criminal = /^(united states|usa|u\.\s?s\.(\s?a\.)?)(\s+of\s+america)?\s+v\.?\s/i.test(caseName);
          const state = stateOfCourt(r.court_id);
          const inHistory = state && subject.locations.some((l) => l.kind === 'state' && l.code === state);
          records.push({
            category: what === 'bankruptcy' ? 'bankruptcy' : criminal ? 'criminal' : 'civil',
            sourceName: `CourtListener (${r.court ?? r.court_id ?? 'federal court'})`,
            ...(r.absolute_url ? { url: new URL(r.absolute_url, 'https://www.courtlistener.com').toString() } : {}),
            entityId: `courtlistener:${type}:${r.docket_id ?? r.id ?? r.docketNumber ?? caseName}`,
            retrievedAt: deps.retrievedAt,
            searchedName: name,
            matchedName: caseName,
            nameScore: score,
            nameWhy: score >= 0.95 ? 'the full name appears in the case caption' : 'every part of the name appears in the case caption',
            dob: 'unknown',
            dobDetail: 'court captions carry no date of birth',
            location: inHistory ? 'match' : 'unknown',
            ...(inHistory ? { locationDetail: `filed in a federal court in ${stateByCode(state!)!.name}, in the location history` } : {}),
            title: `${caseName}${r.docketNumber ? `, No. ${r.docketNumber}` : ''}`,
            ...(r.dateFiled ? { detail: `Filed ${r.dateFiled}` } : {}),
          });
        }
      }
    }
  } catch (error) {
    return failure(error);
  }
  return { queried: true, records };
}

interface OfficerResult {
  officer?: {
    name?: string;
    position?: string;
    date_of_birth?: string;
    opencorporates_url?: string;
    id?: number | string;
    company?: { name?: string; jurisdiction_code?: string; company_number?: string };
  };
}

/** OpenCorporates officer search; `usStatesOnly` keeps US state registries (secretary-of-state data). */
export async function searchOfficers(
  subject: PersonSubject,
  deps: { env: Env; http: HttpJson; signal?: AbortSignal; retrievedAt: string; usStatesOnly: boolean },
): Promise<PersonAgentOutcome> {
  const token = deps.env.OPENCORPORATES_API_TOKEN;
  if (!token) return { queried: false, error: 'not configured: set OPENCORPORATES_API_TOKEN' };
  const base = trimSlash(deps.env.OPENCORPORATES_API_URL || 'https://api.opencorporates.com/v0.4');
  const records: SourceRecord[] = [];
  try {
    for (const name of outsideSearchNames(subject, 2)) {
      const url = new URL(`${base}/officers/search`);
      url.searchParams.set('q', name);
      url.searchParams.set('api_token', token);
      const raw = (await deps.http(url.toString(), { signal: deps.signal })) as { results?: { officers?: OfficerResult[] } };
      const officers = raw?.results?.officers;
      if (!Array.isArray(officers)) throw new Error('unexpected response from OpenCorporates: no results.officers array');
      for (const { officer } of officers) {
        if (!officer?.name) continue;
        const score = nameEvidence(name, officer.name);
        if (score === 0) continue;
        const jurisdiction = officer.company?.jurisdiction_code ?? '';
        const usState = /^us_([a-z]{2})$/.exec(jurisdiction)?.[1]?.toUpperCase();
        if (deps.usStatesOnly && !usState) continue;
        const inHistory = subject.locations.some((l) => (l.kind === 'state' ? l.code === usState : jurisdiction.startsWith(`${l.code.toLowerCase()}`)));
        const dobYear = officer.date_of_birth?.slice(0, 4);
        const dob = subject.dateOfBirth && dobYear ? (subject.dateOfBirth.startsWith(officer.date_of_birth!.slice(0, 7)) ? 'year_match' : 'conflict') : 'unknown';
        records.push({
          category: 'corporate_role',
          sourceName: deps.usStatesOnly ? `Secretary-of-state registry ${usState} (via OpenCorporates)` : 'OpenCorporates officer search',
          ...(officer.opencorporates_url ? { url: officer.opencorporates_url } : {}),
          entityId: `opencorporates:officer:${officer.id ?? `${jurisdiction}/${officer.company?.company_number}/${officer.name}`}`,
          retrievedAt: deps.retrievedAt,
          searchedName: name,
          matchedName: officer.name,
          nameScore: score,
          nameWhy: score >= 0.95 ? 'the full name equals the officer name' : 'every part of the name is in the officer name',
          dob,
          ...(dob !== 'unknown' ? { dobDetail: `the registry gives birth month ${officer.date_of_birth!.slice(0, 7)}` } : {}),
          location: inHistory ? 'match' : 'unknown',
          ...(inHistory ? { locationDetail: `company registered in ${jurisdiction}, in the location history` } : {}),
          title: `${officer.position ?? 'Officer'} of ${officer.company?.name ?? 'a company'} (${jurisdiction || 'unknown jurisdiction'})`,
        });
      }
    }
  } catch (error) {
    return failure(error);
  }
  return { queried: true, records };
}

/** RDAP lookup of the associated domain: who registered it and when (public data only). */
export async function lookupDomain(
  subject: PersonSubject,
  deps: { env: Env; http: HttpJson; signal?: AbortSignal; retrievedAt: string },
): Promise<PersonAgentOutcome> {
  if (!subject.associatedDomain) return { queried: false, error: 'not applicable: no associated_domain given' };
  const base = deps.env.PERSON_CHECK_RDAP_URL;
  if (!base) return { queried: false, error: 'not configured: set PERSON_CHECK_RDAP_URL (e.g. https://rdap.org)' };
  try {
    const raw = (await deps.http(`${trimSlash(base)}/domain/${encodeURIComponent(subject.associatedDomain)}`, { signal: deps.signal, acceptStatuses: [404] })) as {
      events?: { eventAction?: string; eventDate?: string }[];
      entities?: { roles?: string[]; vcardArray?: unknown }[];
    } | null;
    if (raw === null) return { queried: true, records: [], data: { domain: subject.associatedDomain, registered: false } };
    const registered = raw.events?.find((e) => e.eventAction === 'registration')?.eventDate;
    const registrant = raw.entities?.find((e) => e.roles?.includes('registrant'));
    const vcard = Array.isArray(registrant?.vcardArray) ? (registrant!.vcardArray[1] as unknown[][] | undefined) : undefined;
    const fn = vcard?.find((v) => Array.isArray(v) && (v[0] === 'fn' || v[0] === 'org'))?.[3];
    const holder = typeof fn === 'string' && fn.trim() ? fn : undefined;
    const score = holder ? nameEvidence(`${subject.givenName} ${subject.familyName}`, holder) : 0;
    return {
      queried: true,
      records: [
        {
          category: 'domain',
          sourceName: 'RDAP (WHOIS)',
          url: `${trimSlash(base)}/domain/${subject.associatedDomain}`,
          entityId: `rdap:${subject.associatedDomain}`,
          retrievedAt: deps.retrievedAt,
          searchedName: subject.fullName,
          matchedName: holder ?? '(registrant redacted)',
          nameScore: score,
          nameWhy: holder ? (score > 0 ? 'the registrant name contains the subject name' : 'the registrant is another name') : 'the registrant is not public',
          dob: 'unknown',
          location: 'unknown',
          title: `Domain ${subject.associatedDomain}${registered ? ` registered ${registered.slice(0, 10)}` : ''}${holder ? ` to ${holder}` : ''}`,
        },
      ],
    };
  } catch (error) {
    return failure(error);
  }
}

/** News search through the screening pipeline's adverse-media source. */
export async function searchNews(
  subject: PersonSubject,
  deps: { source: ExternalSource | undefined; signal?: AbortSignal; retrievedAt: string; http?: HttpJson },
): Promise<PersonAgentOutcome> {
  const source = deps.source;
  if (!source || !source.configured()) return { queried: false, error: 'not configured: set NEWS_SEARCH_URL and NEWS_SEARCH_API_KEY' };
  const records: SourceRecord[] = [];
  for (const name of outsideSearchNames(subject, 2)) {
    const outcome = await source.query({ name, entityType: 'individual' }, { ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.http ? { http: deps.http } : {}) });
    if (!outcome.queried) return { queried: false, error: outcome.error };
    for (const match of outcome.matches) {
      if (match.kind !== 'hit') continue;
      const text = match.title ?? match.entityName;
      const place = subject.locations.find((l) => new RegExp(`\\b${l.name}\\b`, 'i').test(text));
      records.push({
        category: 'adverse_media',
        sourceName: match.extra?.publisher ? `News: ${match.extra.publisher}` : 'News search',
        ...(match.sourceUrl ? { url: match.sourceUrl } : {}),
        entityId: `news:${match.entityId}`,
        retrievedAt: deps.retrievedAt,
        searchedName: name,
        matchedName: name,
        nameScore: match.score,
        nameWhy: match.summary,
        dob: 'unknown',
        location: place ? 'match' : 'unknown',
        ...(place ? { locationDetail: `the article mentions ${place.name}` } : {}),
        title: match.title ?? match.entityName,
        ...(match.publishedAt ? { detail: `Published ${match.publishedAt}` } : {}),
        adverse: true,
      });
    }
  }
  return { queried: true, records };
}
