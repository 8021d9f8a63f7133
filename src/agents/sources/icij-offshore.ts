/**
 * ICIJ Offshore Leaks Database reconciliation API (W3C/OpenRefine reconciliation protocol), the
 * "live API, 5 s timeout" of spec part 1; the local ICIJ data is the curated fallback (another agent).
 *
 * One query per investigation endpoint, in parallel, so every hit carries the investigation the
 * risk score needs (Panama Papers, Pandora Papers…). ICIJ's relevance score is not a match
 * probability, so each candidate is scored here with nameSimilarity and kept at 0.80 or more.
 * If some investigations fail the others still count and the failures are listed as warnings; if
 * all fail the outcome is `queried: false`.
 *
 * Public, but opt-in like GLEIF (the embedded default runs offline).
 *
 * Environment: ICIJ_RECONCILE_URL (required to enable; the public API is
 * https://offshoreleaks.icij.org/api/v1/reconcile), ICIJ_INVESTIGATIONS (comma-separated slugs,
 * default all five).
 */

import { z } from 'zod';
import { HttpSource, MIN_SOURCE_MATCH, nameSimilarity, parseResponse, trimSlash } from './base';
import type { HttpJson } from './http';
import type { Env, SourceHitMatch, SourceMatch, SourceSubject } from './types';

export const ICIJ_PUBLIC_URL = 'https://offshoreleaks.icij.org/api/v1/reconcile';

export const ICIJ_INVESTIGATIONS: Record<string, string> = {
  'pandora-papers': 'Pandora Papers',
  'paradise-papers': 'Paradise Papers',
  'panama-papers': 'Panama Papers',
  'bahamas-leaks': 'Bahamas Leaks',
  'offshore-leaks': 'Offshore Leaks',
};

const responseSchema = z.record(
  z.string(),
  z.object({
    result: z.array(
      z.object({
        id: z.union([z.string(), z.number()]).transform(String),
        name: z.string(),
        score: z.number().optional(),
        match: z.boolean().optional(),
        type: z.array(z.object({ id: z.string().optional(), name: z.string().optional() })).optional(),
        description: z.string().optional(),
      }),
    ),
  }),
);

export class IcijOffshoreSource extends HttpSource {
  readonly name = 'icij_offshore_api';
  readonly label = 'ICIJ Offshore Leaks Database (live API)';
  readonly enableWith = 'ICIJ_RECONCILE_URL';
  readonly phase = '1' as const;
  readonly tier = 'all' as const;

  protected readonly required = ['ICIJ_RECONCILE_URL'];

  constructor(
    env: Env,
    timeoutMs = 5_000,
    /** One retry only: 5 s + 1.5 s + 5 s stays well inside the 30 s agent timeout. */
    private readonly retries = 1,
  ) {
    super(env, timeoutMs);
  }

  protected override missingSettings(): string[] {
    return super.missingSettings().map((v) => `${v} (public API: ${ICIJ_PUBLIC_URL})`);
  }

  protected async search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[]; warnings?: string[] }> {
    const base = trimSlash(this.env.ICIJ_RECONCILE_URL!);
    const slugs = (this.env.ICIJ_INVESTIGATIONS || Object.keys(ICIJ_INVESTIGATIONS).join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const outcomes = await Promise.allSettled(
      slugs.map(async (slug) => {
        const raw = await http(`${base}/${encodeURIComponent(slug)}`, {
          method: 'POST',
          body: { queries: { q0: { query: subject.name } } },
          timeoutMs: this.timeoutMs,
          retries: this.retries,
          signal,
        });
        return { slug, data: parseResponse(responseSchema, raw, this.name) };
      }),
    );
    const matches: SourceHitMatch[] = [];
    const warnings: string[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const slug = slugs[index]!;
      if (outcome.status === 'rejected') {
        warnings.push(`${slug}: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}`);
        continue;
      }
      const investigation = ICIJ_INVESTIGATIONS[slug] ?? slug;
      for (const r of outcome.value.data.q0?.result ?? []) {
        const similarity = nameSimilarity(subject.name, r.name);
        if (similarity < MIN_SOURCE_MATCH) continue;
        const nodeType = r.type?.[0]?.name;
        matches.push({
          kind: 'hit',
          category: 'offshore_leaks',
          entityId: `icij:${r.id}`,
          entityName: r.name,
          matchedName: r.name,
          score: similarity,
          summary: `${investigation}${nodeType ? ` ${nodeType.toLowerCase()}` : ''} "${r.name}", name similarity ${similarity.toFixed(2)}`,
          programs: [],
          investigation,
          sourceUrl: `https://offshoreleaks.icij.org/nodes/${encodeURIComponent(r.id)}`,
          extra: { ...(nodeType ? { node_type: nodeType } : {}), ...(r.description ? { description: r.description } : {}) },
        });
      }
    }
    if (warnings.length === slugs.length) throw new Error(`all ICIJ investigations failed: ${warnings.join('; ')}`);
    return { matches, warnings };
  }
}
