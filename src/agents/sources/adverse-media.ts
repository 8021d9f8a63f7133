/**
 * Adverse-media search through a configurable news/web search endpoint (NewsAPI-, Bing-News-
 * or any similar JSON search API). The service only finds articles; whether an article is
 * adverse media about the subject is decided here, transparently:
 * - the subject's full name must appear in the title or snippet (as a phrase: name score 0.95, a strong
 *   name match; every name token but not as a phrase: 0.85), and
 * - the title or snippet must contain one of ADVERSE_TERMS.
 * Articles failing either test are dropped, never scored.
 *
 * Environment: NEWS_SEARCH_URL (the search endpoint), NEWS_SEARCH_API_KEY,
 * NEWS_SEARCH_AUTH_HEADER (default `X-Api-Key`; `Authorization` sends `Bearer <key>`),
 * NEWS_SEARCH_QUERY_PARAM (default `q`), NEWS_SEARCH_QUERY_TEMPLATE (default DEFAULT_QUERY_TEMPLATE,
 * `{name}` is the subject), NEWS_SEARCH_EXTRA_PARAMS (query string appended as is, e.g.
 * `language=en&pageSize=50`).
 */

import { HttpSource, nameTokens } from './base';
import type { HttpJson } from './http';
import type { SourceHitMatch, SourceMatch, SourceSubject } from './types';

/** The search query; `{name}` is replaced by the subject's name (double quotes removed). */
export const DEFAULT_QUERY_TEMPLATE = '"{name}" AND (fraud OR "money laundering" OR sanctions OR bribery OR corruption OR convicted OR charged)';

export const ADVERSE_TERMS = [
  'fraud',
  'launder',
  'money laundering',
  'sanction',
  'bribe',
  'bribery',
  'corruption',
  'embezzle',
  'indicted',
  'indictment',
  'convicted',
  'charged',
  'arrested',
  'guilty',
  'terror',
  'smuggling',
  'trafficking',
  'tax evasion',
  'ponzi',
  'insider trading',
  'lawsuit',
  'fined',
  'penalty',
  'investigation',
  'probe',
  'scandal',
] as const;

interface Article {
  title: string;
  url?: string;
  snippet: string;
  publishedAt?: string;
  publisher?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Reads the common search-API shapes: `articles` (NewsAPI), `value` (Bing), `results`/`items`/`data`. */
export function readArticles(raw: unknown): Article[] {
  if (!raw || typeof raw !== 'object') throw new Error('unexpected response from adverse_media_search: not an object');
  const o = raw as Record<string, unknown>;
  const list = [o.articles, o.value, o.results, o.items, o.data].find(Array.isArray) as unknown[] | undefined;
  if (!list) throw new Error('unexpected response from adverse_media_search: no articles, value, results, items or data array');
  const out: Article[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const a = item as Record<string, unknown>;
    const title = str(a.title) ?? str(a.name) ?? str(a.headline);
    if (!title) continue;
    const source = a.source as Record<string, unknown> | string | undefined;
    const provider = Array.isArray(a.provider) ? (a.provider[0] as Record<string, unknown> | undefined) : undefined;
    out.push({
      title,
      url: str(a.url) ?? str(a.link),
      snippet: str(a.description) ?? str(a.snippet) ?? str(a.summary) ?? '',
      publishedAt: str(a.publishedAt) ?? str(a.datePublished) ?? str(a.published_at) ?? str(a.date),
      publisher: (typeof source === 'string' ? source : str(source?.name)) ?? str(provider?.name),
    });
  }
  return out;
}

export function adverseTermsIn(text: string): string[] {
  const lower = text.toLowerCase();
  return ADVERSE_TERMS.filter((t) => lower.includes(t));
}

/** Name evidence in an article: 0.95 for the full name as a phrase, 0.85 for all tokens, else 0. */
export function nameEvidence(name: string, text: string): number {
  const tokens = nameTokens(name);
  const hay = nameTokens(text);
  if (tokens.length === 0) return 0;
  const joined = ` ${hay.join(' ')} `;
  if (joined.includes(` ${tokens.join(' ')} `)) return 0.95;
  return tokens.every((t) => hay.includes(t)) ? 0.85 : 0;
}

export class AdverseMediaSearchSource extends HttpSource {
  readonly name = 'adverse_media_search';
  readonly label = 'News and adverse-media search API';
  readonly enableWith = 'NEWS_SEARCH_URL and NEWS_SEARCH_API_KEY';
  readonly phase = '1' as const;
  readonly tier = 'all' as const;

  protected readonly required = ['NEWS_SEARCH_URL', 'NEWS_SEARCH_API_KEY'];

  protected async search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[] }> {
    const url = new URL(this.env.NEWS_SEARCH_URL!);
    const template = this.env.NEWS_SEARCH_QUERY_TEMPLATE || DEFAULT_QUERY_TEMPLATE;
    url.searchParams.set(this.env.NEWS_SEARCH_QUERY_PARAM || 'q', template.split('{name}').join(subject.name.replace(/"/g, '')));
    const extra = this.env.NEWS_SEARCH_EXTRA_PARAMS;
    if (extra) for (const [k, v] of new URLSearchParams(extra)) url.searchParams.set(k, v);
    const headerName = this.env.NEWS_SEARCH_AUTH_HEADER || 'X-Api-Key';
    const key = this.env.NEWS_SEARCH_API_KEY!;
    const headers = { [headerName]: headerName.toLowerCase() === 'authorization' ? `Bearer ${key}` : key };
    const raw = await http(url.toString(), { headers, timeoutMs: this.timeoutMs, signal });

    const matches: SourceHitMatch[] = [];
    const seen = new Set<string>();
    for (const article of readArticles(raw)) {
      const text = `${article.title} ${article.snippet}`;
      const score = nameEvidence(subject.name, text);
      const adverse = adverseTermsIn(text);
      if (score === 0 || adverse.length === 0) continue;
      const id = article.url ?? article.title;
      if (seen.has(id)) continue;
      seen.add(id);
      matches.push({
        kind: 'hit',
        category: 'adverse_media',
        entityId: id,
        entityName: article.title,
        matchedName: subject.name,
        score,
        summary: `${score >= 0.95 ? 'Full name' : 'All name parts'} in the article, with adverse terms: ${adverse.join(', ')}`,
        programs: [],
        sourceUrl: article.url,
        title: article.title,
        publishedAt: article.publishedAt,
        extra: article.publisher ? { publisher: article.publisher } : undefined,
      });
    }
    return { matches };
  }
}
