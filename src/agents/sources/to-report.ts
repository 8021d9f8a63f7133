import { hitStatus } from '../../reports/risk-score';
import type { ReportHit } from '../../reports/model';
import type { SourceHitMatch } from './types';

/**
 * A source's hit as a report hit. Returns undefined below the minimum match score, so a weak
 * candidate can never reach a report as a hit.
 */
export function toReportHit(sourceName: string, match: SourceHitMatch, sourceLabel?: string): ReportHit | undefined {
  const status = hitStatus(match.score);
  if (status === 'no_match') return undefined;
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
    status,
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
