import { hitStatusOf, MIN_MATCH_SCORE, STRONG_NAME_SCORE } from '../../reports/confirmation';
import type { ReportHit } from '../../reports/model';
import type { SourceHitMatch } from './types';

/**
 * A source's hit as a report hit. Returns undefined below the minimum match score, so a weak
 * candidate can never reach a report as a hit. An outside source gives a name match only: nothing
 * corroborates the identity, so the hit is potential until an analyst decides.
 */
export function toReportHit(sourceName: string, match: SourceHitMatch, sourceLabel?: string): ReportHit | undefined {
  if (!(match.score >= MIN_MATCH_SCORE)) return undefined;
  const assessment = match.score >= STRONG_NAME_SCORE ? 'strong_name_match' : 'name_match';
  return {
    hitId: `${match.category}:${sourceName}:${match.entityId}${match.listAuthority ? `:${match.listAuthority}` : ''}`,
    category: match.category,
    source: sourceName,
    sourceLabel,
    listAuthority: match.listAuthority,
    ...(match.sourceList ? { sourceList: match.sourceList } : {}),
    entityId: match.entityId,
    entityName: match.entityName,
    matchedName: match.matchedName,
    score: match.score,
    status: hitStatusOf({ score: match.score, assessment }),
    assessment,
    identityNote: 'name only: the source gives no date of birth or identifier to compare; needs an identity fact',
    explanation: { summary: match.summary, qualifiers: [] },
    programs: match.programs,
    sourceUrl: match.sourceUrl,
    investigation: match.investigation,
    title: match.title,
    publishedAt: match.publishedAt,
    position: match.position,
    countries: match.countries,
  };
}
