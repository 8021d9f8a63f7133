/**
 * Open corporate registry search (OpenCorporates API v0.4 shape): companies whose name matches
 * the subject, as registry records for phase 1b enrichment.
 *
 * Environment: OPENCORPORATES_API_TOKEN (required), OPENCORPORATES_API_URL (default
 * https://api.opencorporates.com/v0.4).
 */

import { z } from 'zod';
import { HttpSource, nameSimilarity, parseResponse, trimSlash } from './base';
import type { HttpJson } from './http';
import type { SourceMatch, SourceSubject } from './types';

const companySchema = z.object({
  name: z.string(),
  company_number: z.string(),
  jurisdiction_code: z.string(),
  incorporation_date: z.string().nullish(),
  dissolution_date: z.string().nullish(),
  company_type: z.string().nullish(),
  current_status: z.string().nullish(),
  registered_address_in_full: z.string().nullish(),
  opencorporates_url: z.string().nullish(),
  registry_url: z.string().nullish(),
});
const responseSchema = z.object({
  results: z.object({ companies: z.array(z.object({ company: companySchema })) }),
});

/** OpenCorporates jurisdiction codes are ISO alpha-2 in lower case (`gb`), with sub-national ones (`us_de`). */
function jurisdictionCode(subject: SourceSubject): string | undefined {
  const iso = subject.jurisdictionIso2 ?? (subject.jurisdiction && /^[A-Za-z]{2}$/.test(subject.jurisdiction) ? subject.jurisdiction : undefined);
  return iso?.toLowerCase();
}

export class OpenCorporatesSource extends HttpSource {
  readonly name = 'opencorporates';
  readonly label = 'Open corporate registry (OpenCorporates)';
  readonly enableWith = 'OPENCORPORATES_API_TOKEN';
  readonly phase = '1b' as const;
  readonly tier = 'essentials' as const;

  protected readonly required = ['OPENCORPORATES_API_TOKEN'];

  protected override notApplicable(subject: SourceSubject): string | undefined {
    return subject.entityType === 'individual' ? 'company registries are searched for companies and organisations only' : undefined;
  }

  protected async search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[] }> {
    const url = new URL(`${trimSlash(this.env.OPENCORPORATES_API_URL || 'https://api.opencorporates.com/v0.4')}/companies/search`);
    url.searchParams.set('q', subject.name);
    const code = jurisdictionCode(subject);
    if (code) url.searchParams.set('jurisdiction_code', code);
    url.searchParams.set('api_token', this.env.OPENCORPORATES_API_TOKEN!);
    const data = parseResponse(responseSchema, await http(url.toString(), { timeoutMs: this.timeoutMs, signal }), this.name);
    const matches: SourceMatch[] = data.results.companies
      .map(({ company: c }) => ({ c, similarity: nameSimilarity(subject.name, c.name) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, this.maxResults)
      .map(({ c, similarity }) => ({
        kind: 'registry' as const,
        record: {
          source: this.name,
          legalName: c.name,
          registrationNumber: c.company_number,
          jurisdiction: c.jurisdiction_code,
          status: c.current_status ?? (c.dissolution_date ? 'dissolved' : undefined),
          incorporationDate: c.incorporation_date ?? undefined,
          address: c.registered_address_in_full ?? undefined,
          sourceUrl: c.opencorporates_url ?? c.registry_url ?? undefined,
          extra: {
            name_similarity: similarity.toFixed(2),
            ...(c.company_type ? { company_type: c.company_type } : {}),
            ...(c.dissolution_date ? { dissolution_date: c.dissolution_date } : {}),
          },
        },
      }));
    return { matches };
  }
}
