/**
 * Phase 6 encyclopedia cross-reference (spec S3 person-check phase 6): an article counts only when
 * both the first and the last name appear in its title or snippet, and never when it is a
 * disambiguation page or a sports page (same-name athletes are the classic false positive).
 *
 * The adapter talks to a MediaWiki search API (Wikipedia: https://en.wikipedia.org/w/api.php),
 * set by PERSON_CHECK_ENCYCLOPEDIA_URL; unset, the agent answers queried:false.
 */
import { adverseTermsIn } from '../sources/adverse-media';
import { nameTokens } from '../sources/base';
import type { HttpJson } from '../sources/http';
import type { PersonSubject, SourceRecord } from './types';

export interface EncyclopediaArticle {
  title: string;
  snippet: string;
  url?: string;
}

const SPORTS = [
  'footballer', 'football', 'soccer', 'basketball', 'baseball', 'cricketer', 'cricket', 'ice hockey', 'hockey', 'athlete',
  'boxer', 'tennis', 'golfer', 'cyclist', 'swimmer', 'sprinter', 'racing driver', 'wrestler', 'rugby', 'olympic', 'olympian',
  'quarterback', 'pitcher', 'goalkeeper', 'striker', 'midfielder', 'defenceman', 'jockey', 'skier', 'rower', 'sport',
];
const SPORTS_RE = new RegExp(`\\b(${SPORTS.join('|')})`, 'i');

/** Why an article is excluded, or undefined when it qualifies under the rule. */
export function encyclopediaExclusion(article: EncyclopediaArticle, firstName: string, lastName: string): string | undefined {
  const snippet = stripHtml(article.snippet);
  if (/\(disambiguation\)/i.test(article.title) || /\bmay (also )?refer to\b/i.test(snippet)) return 'disambiguation page';
  const parenthetical = /\(([^)]*)\)/.exec(article.title)?.[1] ?? '';
  if (SPORTS_RE.test(parenthetical) || /\b(season|national team|F\.?C\.?|league|championship|cup)\b/i.test(article.title) || SPORTS_RE.test(snippet.slice(0, 160))) {
    return 'sports page';
  }
  const words = new Set(nameTokens(`${article.title} ${snippet}`));
  const first = nameTokens(firstName);
  const last = nameTokens(lastName);
  if (first.length === 0 || last.length === 0) return 'no name to compare';
  if (!first.every((t) => words.has(t))) return 'first name not in title or snippet';
  if (!last.every((t) => words.has(t))) return 'last name not in title or snippet';
  return undefined;
}

export function stripHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** MediaWiki `list=search` answer → articles. */
export function readMediaWikiSearch(raw: unknown, articleBase: string): EncyclopediaArticle[] {
  const search = (raw as { query?: { search?: unknown } } | null)?.query?.search;
  if (!Array.isArray(search)) throw new Error('unexpected response from the encyclopedia: no query.search array');
  return search
    .filter((r): r is { title: string; snippet?: string } => typeof r === 'object' && r !== null && typeof (r as { title?: unknown }).title === 'string')
    .map((r) => ({ title: r.title, snippet: typeof r.snippet === 'string' ? r.snippet : '', url: `${articleBase}${encodeURIComponent(r.title.replace(/ /g, '_'))}` }));
}

export async function searchEncyclopedia(
  subject: PersonSubject,
  deps: { apiUrl: string; http: HttpJson; signal?: AbortSignal; retrievedAt: string },
): Promise<{ records: SourceRecord[]; excluded: { title: string; reason: string }[] }> {
  const url = new URL(deps.apiUrl);
  url.searchParams.set('action', 'query');
  url.searchParams.set('list', 'search');
  url.searchParams.set('format', 'json');
  url.searchParams.set('srlimit', '10');
  url.searchParams.set('srsearch', `"${subject.givenName} ${subject.familyName}"`.replace(/[<>]/g, ''));
  const raw = await deps.http(url.toString(), { timeoutMs: 10_000, signal: deps.signal });
  const articleBase = `${url.origin}/wiki/`;
  const records: SourceRecord[] = [];
  const excluded: { title: string; reason: string }[] = [];
  for (const article of readMediaWikiSearch(raw, articleBase)) {
    const reason = encyclopediaExclusion(article, subject.givenName, subject.familyName);
    if (reason) {
      excluded.push({ title: article.title, reason });
      continue;
    }
    const text = `${article.title} ${stripHtml(article.snippet)}`;
    const adverse = adverseTermsIn(text);
    const place = subject.locations.find((l) => new RegExp(`\\b${l.name}\\b`, 'i').test(text));
    const year = subject.dateOfBirth?.slice(0, 4);
    const bornSameYear = year ? new RegExp(`\\b(born|b\\.)[^.]{0,40}\\b${year}\\b|\\(${year}\\s*[-–]`, 'i').test(text) : false;
    records.push({
      category: adverse.length > 0 ? 'adverse_media' : 'web_presence',
      sourceName: 'Encyclopedia (MediaWiki search)',
      ...(article.url ? { url: article.url } : {}),
      retrievedAt: deps.retrievedAt,
      searchedName: `${subject.givenName} ${subject.familyName}`,
      matchedName: article.title,
      nameScore: 0.9,
      nameWhy: 'first and last name both appear in the article title or snippet',
      dob: bornSameYear ? 'year_match' : 'unknown',
      ...(bornSameYear ? { dobDetail: `the article gives birth year ${year}` } : {}),
      location: place ? 'match' : 'unknown',
      ...(place ? { locationDetail: `the article mentions ${place.name}` } : {}),
      title: `Encyclopedia article: ${article.title}`,
      detail: stripHtml(article.snippet).slice(0, 300),
      adverse: adverse.length > 0,
    });
  }
  return { records, excluded };
}
