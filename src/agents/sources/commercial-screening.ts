/**
 * Commercial sanctions / PEP screening API with an OpenSanctions-style `/match/{dataset}`
 * endpoint (yente and the hosted OpenSanctions API speak it). One query per subject; results
 * are split by topic into sanctions, PEP and debarment/enforcement hits.
 *
 * Environment: SCREENING_API_URL (base, e.g. https://api.opensanctions.org), SCREENING_API_KEY,
 * SCREENING_API_DATASET (default `default`).
 */

import { z } from 'zod';
import type { HitCategory, ListAuthority } from '../../reports/model';
import { HttpSource, MIN_SOURCE_MATCH, parseResponse, trimSlash } from './base';
import type { HttpJson } from './http';
import type { SourceHitMatch, SourceMatch, SourceSubject } from './types';

const resultSchema = z.object({
  id: z.string(),
  caption: z.string(),
  schema: z.string().optional(),
  score: z.number(),
  match: z.boolean().optional(),
  datasets: z.array(z.string()).default([]),
  properties: z.record(z.string(), z.array(z.unknown())).default({}),
});
const responseSchema = z.object({
  responses: z.record(
    z.string(),
    z.object({
      status: z.number().optional(),
      results: z.array(resultSchema),
    }),
  ),
});

/** OpenSanctions dataset names → the authority that issued the list. */
function authorityOfDataset(dataset: string): ListAuthority | undefined {
  if (dataset.startsWith('us_')) return 'us';
  if (dataset.startsWith('un_')) return 'un';
  if (dataset.startsWith('eu_')) return 'eu';
  if (dataset.startsWith('gb_')) return 'uk';
  return undefined;
}

function categoriesOf(topics: string[]): HitCategory[] {
  const out = new Set<HitCategory>();
  for (const t of topics) {
    if (t === 'sanction' || t.startsWith('sanction.')) out.add('sanctions');
    else if (t === 'role.pep' || t === 'role.rca') out.add('pep');
    else if (t === 'debarment' || t === 'crime' || t.startsWith('crime.') || t === 'wanted') out.add('debarment');
  }
  return [...out];
}

function strings(values: unknown[] | undefined): string[] {
  return (values ?? []).filter((v): v is string => typeof v === 'string');
}

export class CommercialScreeningSource extends HttpSource {
  readonly name = 'commercial_screening';
  readonly label = 'Commercial sanctions and PEP screening API';
  readonly enableWith = 'SCREENING_API_URL and SCREENING_API_KEY';
  readonly phase = '1' as const;
  readonly tier = 'all' as const;

  protected readonly required = ['SCREENING_API_URL', 'SCREENING_API_KEY'];

  protected async search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[] }> {
    const dataset = this.env.SCREENING_API_DATASET || 'default';
    const url = `${trimSlash(this.env.SCREENING_API_URL!)}/match/${encodeURIComponent(dataset)}`;
    const properties: Record<string, string[]> = { name: [subject.name] };
    if (subject.birthDate) properties.birthDate = [subject.birthDate];
    const country = subject.jurisdictionIso2 ?? subject.jurisdiction;
    if (country) properties[subject.entityType === 'individual' ? 'nationality' : 'jurisdiction'] = [country];
    const schema = subject.entityType === 'individual' ? 'Person' : subject.entityType === 'company' ? 'Company' : 'Organization';
    const raw = await http(url, {
      method: 'POST',
      body: { queries: { subject: { schema, properties } } },
      headers: { authorization: `ApiKey ${this.env.SCREENING_API_KEY}` },
      timeoutMs: this.timeoutMs,
      signal,
    });
    const data = parseResponse(responseSchema, raw, this.name);
    const response = data.responses.subject;
    if (!response) throw new Error(`unexpected response from ${this.name}: no answer for the query`);
    if (response.status !== undefined && response.status >= 400) throw new Error(`${this.name} answered status ${response.status} for the query`);

    const matches: SourceHitMatch[] = [];
    for (const r of response.results) {
      if (r.score < MIN_SOURCE_MATCH) continue;
      const topics = strings(r.properties.topics);
      const names = strings(r.properties.name);
      const base = {
        kind: 'hit' as const,
        entityId: r.id,
        entityName: r.caption,
        matchedName: names.find((n) => n.toLowerCase() === subject.name.toLowerCase()) ?? r.caption,
        score: Math.min(1, r.score),
        programs: strings(r.properties.program),
        sourceUrl: strings(r.properties.sourceUrl)[0],
        countries: strings(r.properties.country),
        extra: { datasets: r.datasets.join(', '), topics: topics.join(', ') },
      };
      for (const category of categoriesOf(topics)) {
        const summary = `${this.label}: "${r.caption}" scored ${r.score.toFixed(2)} on ${category} (datasets ${r.datasets.join(', ') || 'n/a'})`;
        if (category === 'sanctions') {
          const authorities = [...new Set(r.datasets.map(authorityOfDataset).filter((a): a is ListAuthority => !!a))];
          for (const listAuthority of authorities.length > 0 ? authorities : (['other'] as ListAuthority[])) {
            // The authority's datasets (us_ofac_sdn, eu_fsf…) tell the scorer whether the list blocks.
            const datasets = r.datasets.filter((d) => authorityOfDataset(d) === listAuthority);
            matches.push({ ...base, category, listAuthority, summary, ...(datasets.length ? { sourceList: datasets.join(', ') } : {}) });
          }
        } else {
          matches.push({ ...base, category, summary, position: category === 'pep' ? strings(r.properties.position)[0] : undefined });
        }
      }
    }
    return { matches };
  }
}
