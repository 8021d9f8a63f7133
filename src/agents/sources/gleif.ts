/**
 * GLEIF legal-entity-identifier registry (public JSON:API, no key). Finds LEI records whose
 * legal name matches the subject. Although public it is opt-in: the embedded default runs
 * offline, and a lookup that can only fail would add a network round trip to every screening.
 *
 * Environment: GLEIF_API_URL (required to enable; the public API is https://api.gleif.org/api/v1).
 */

import { z } from 'zod';
import { HttpSource, nameSimilarity, parseResponse, trimSlash } from './base';
import type { HttpJson } from './http';
import type { SourceMatch, SourceSubject } from './types';

export const GLEIF_PUBLIC_URL = 'https://api.gleif.org/api/v1';

const recordSchema = z.object({
  id: z.string(),
  attributes: z.object({
    lei: z.string(),
    entity: z.object({
      legalName: z.object({ name: z.string() }),
      jurisdiction: z.string().nullish(),
      status: z.string().nullish(),
      legalAddress: z
        .object({
          addressLines: z.array(z.string()).default([]),
          city: z.string().nullish(),
          country: z.string().nullish(),
        })
        .nullish(),
      registeredAs: z.string().nullish(),
      creationDate: z.string().nullish(),
    }),
    registration: z.object({ status: z.string().nullish() }).nullish(),
  }),
});
const responseSchema = z.object({ data: z.array(recordSchema) });

export class GleifSource extends HttpSource {
  readonly name = 'gleif';
  readonly label = 'GLEIF legal-entity-identifier registry';
  readonly enableWith = 'GLEIF_API_URL';
  readonly phase = '1b' as const;
  readonly tier = 'essentials' as const;

  protected readonly required = ['GLEIF_API_URL'];

  protected override missingSettings(): string[] {
    return super.missingSettings().map((v) => `${v} (public API: ${GLEIF_PUBLIC_URL})`);
  }

  protected override notApplicable(subject: SourceSubject): string | undefined {
    return subject.entityType === 'individual' ? 'LEIs identify legal entities, not individuals' : undefined;
  }

  protected async search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[] }> {
    const url = new URL(`${trimSlash(this.env.GLEIF_API_URL!)}/lei-records`);
    url.searchParams.set('filter[entity.legalName]', subject.name);
    url.searchParams.set('page[size]', String(this.maxResults));
    const data = parseResponse(responseSchema, await http(url.toString(), { timeoutMs: this.timeoutMs, signal, headers: { accept: 'application/vnd.api+json' } }), this.name);
    const matches: SourceMatch[] = data.data.slice(0, this.maxResults).map((r) => {
      const e = r.attributes.entity;
      const address = e.legalAddress ? [...e.legalAddress.addressLines, e.legalAddress.city, e.legalAddress.country].filter(Boolean).join(', ') : undefined;
      return {
        kind: 'registry' as const,
        record: {
          source: this.name,
          legalName: e.legalName.name,
          lei: r.attributes.lei,
          registrationNumber: e.registeredAs ?? undefined,
          jurisdiction: e.jurisdiction ?? undefined,
          status: e.status ?? undefined,
          incorporationDate: e.creationDate ?? undefined,
          address,
          sourceUrl: `https://search.gleif.org/#/record/${r.attributes.lei}`,
          extra: {
            name_similarity: nameSimilarity(subject.name, e.legalName.name).toFixed(2),
            ...(r.attributes.registration?.status ? { lei_registration_status: r.attributes.registration.status } : {}),
          },
        },
      };
    });
    return { matches };
  }
}
