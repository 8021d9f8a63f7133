/**
 * UK Companies House public data API: the company profile and its persons with significant
 * control (PSC), giving the registry record and the facts of the spec's UK registry rules
 * (dissolved/struck off, PSC not registered or exempt, controller in a high-risk jurisdiction).
 *
 * The profile is fetched only for a company we are sure is the subject: the given registration
 * number, or a search result whose name is at least 0.9 similar. Otherwise the search results
 * are returned as records without scoring facts (nothing is attributed to the subject on a guess).
 *
 * Environment: COMPANIES_HOUSE_API_KEY (required), COMPANIES_HOUSE_API_URL (default
 * https://api.company-information.service.gov.uk).
 */

import { z } from 'zod';
import type { UkRegistryFacts } from '../../reports/model';
import { HttpSource, nameSimilarity, parseResponse, trimSlash } from './base';
import { countryToIso2 } from './countries';
import type { HttpJson } from './http';
import type { SourceMatch, SourceRegistryMatch, SourceSubject } from './types';

const searchSchema = z.object({
  items: z
    .array(
      z.object({
        company_number: z.string(),
        title: z.string(),
        company_status: z.string().nullish(),
        date_of_creation: z.string().nullish(),
        address_snippet: z.string().nullish(),
      }),
    ),
});
const profileSchema = z.object({
  company_name: z.string(),
  company_number: z.string(),
  company_status: z.string().nullish(),
  company_status_detail: z.string().nullish(),
  date_of_creation: z.string().nullish(),
  date_of_cessation: z.string().nullish(),
  type: z.string().nullish(),
  registered_office_address: z.record(z.string(), z.unknown()).nullish(),
});
const pscSchema = z.object({
  items: z
    .array(
      z.object({
        name: z.string().nullish(),
        kind: z.string().nullish(),
        country_of_residence: z.string().nullish(),
        nationality: z.string().nullish(),
        identification: z.object({ country_registered: z.string().nullish() }).nullish(),
        ceased_on: z.string().nullish(),
        ceased: z.boolean().nullish(),
      }),
    )
    .default([]),
});
const exemptionsSchema = z.object({ exemptions: z.record(z.string(), z.unknown()).nullish() });

const UK_JURISDICTIONS = new Set(['GB', 'UK', 'UNITED KINGDOM', 'ENGLAND', 'WALES', 'SCOTLAND', 'NORTHERN IRELAND']);

export class CompaniesHouseSource extends HttpSource {
  readonly name = 'companies_house';
  readonly label = 'UK Companies House';
  readonly enableWith = 'COMPANIES_HOUSE_API_KEY';
  readonly phase = '1b' as const;
  readonly tier = 'essentials' as const;

  protected readonly required = ['COMPANIES_HOUSE_API_KEY'];

  protected override notApplicable(subject: SourceSubject): string | undefined {
    if (subject.entityType === 'individual') return 'Companies House is searched for companies only';
    const j = (subject.jurisdictionIso2 ?? subject.jurisdiction)?.trim().toUpperCase();
    if (j && !UK_JURISDICTIONS.has(j)) return `jurisdiction ${subject.jurisdiction ?? j} is not the United Kingdom`;
    return undefined;
  }

  protected async search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[] }> {
    const base = trimSlash(this.env.COMPANIES_HOUSE_API_URL || 'https://api.company-information.service.gov.uk');
    const headers = { authorization: `Basic ${Buffer.from(`${this.env.COMPANIES_HOUSE_API_KEY}:`).toString('base64')}` };
    const get = (path: string, accept404 = false) =>
      http(`${base}${path}`, { headers, timeoutMs: this.timeoutMs, signal, acceptStatuses: accept404 ? [404] : undefined });

    let number = subject.registrationNumber?.trim();
    const others: SourceRegistryMatch[] = [];
    if (!number) {
      const found = parseResponse(searchSchema, await get(`/search/companies?q=${encodeURIComponent(subject.name)}&items_per_page=5`), this.name);
      const ranked = found.items.map((i) => ({ i, s: nameSimilarity(subject.name, i.title) })).sort((a, b) => b.s - a.s);
      const best = ranked[0];
      if (best && best.s >= 0.9) number = best.i.company_number;
      for (const { i, s } of ranked) {
        if (i.company_number === number) continue;
        others.push({
          kind: 'registry',
          record: {
            source: this.name,
            legalName: i.title,
            registrationNumber: i.company_number,
            jurisdiction: 'GB',
            status: i.company_status ?? undefined,
            incorporationDate: i.date_of_creation ?? undefined,
            address: i.address_snippet ?? undefined,
            sourceUrl: `https://find-and-update.company-information.service.gov.uk/company/${i.company_number}`,
            extra: { name_similarity: s.toFixed(2), note: 'search result, not identified as the subject' },
          },
        });
      }
    }
    if (!number) return { matches: others };

    const n = encodeURIComponent(number);
    const profileRaw = await get(`/company/${n}`, true);
    if (profileRaw === null) return { matches: others };
    const profile = parseResponse(profileSchema, profileRaw, this.name);
    const [pscRaw, exemptionsRaw] = await Promise.all([get(`/company/${n}/persons-with-significant-control`, true), get(`/company/${n}/exemptions`, true)]);
    const psc = pscRaw === null ? { items: [] } : parseResponse(pscSchema, pscRaw, this.name);
    const exemptions = exemptionsRaw === null ? {} : (parseResponse(exemptionsSchema, exemptionsRaw, this.name).exemptions ?? {});
    const active = psc.items.filter((p) => !p.ceased_on && !p.ceased);
    const exempt = Object.keys(exemptions).filter((k) => k.startsWith('psc'));
    const controllerCountries = [
      ...new Set(active.map((p) => countryToIso2(p.country_of_residence ?? p.identification?.country_registered ?? p.nationality)).filter((c): c is string => !!c)),
    ];
    const status = profile.company_status ?? undefined;
    const ukRegistry: UkRegistryFacts = {
      companyNumber: profile.company_number,
      companyName: profile.company_name,
      status,
      struckOff: status === 'dissolved' || status === 'removed',
      pscNotRegisteredOrExempt: active.length === 0 || exempt.length > 0,
      controllerCountries,
    };
    const address = profile.registered_office_address
      ? Object.values(profile.registered_office_address).filter((v): v is string => typeof v === 'string').join(', ')
      : undefined;
    const subjectMatch: SourceRegistryMatch = {
      kind: 'registry',
      record: {
        source: this.name,
        legalName: profile.company_name,
        registrationNumber: profile.company_number,
        jurisdiction: 'GB',
        status: [status, profile.company_status_detail].filter(Boolean).join(' / ') || undefined,
        incorporationDate: profile.date_of_creation ?? undefined,
        address,
        officers: active.map((p) => ({ name: p.name ?? '(unnamed)', role: `PSC${p.kind ? ` (${p.kind})` : ''}` })),
        sourceUrl: `https://find-and-update.company-information.service.gov.uk/company/${profile.company_number}`,
        extra: {
          active_psc: String(active.length),
          ...(exempt.length > 0 ? { psc_exemptions: exempt.join(', ') } : {}),
          ...(profile.date_of_cessation ? { date_of_cessation: profile.date_of_cessation } : {}),
          ...(profile.type ? { company_type: profile.type } : {}),
        },
      },
      ukRegistry,
    };
    return { matches: [subjectMatch, ...others] };
  }
}
