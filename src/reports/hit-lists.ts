import type { ReportHit } from './model';

/** The id the work queue files an internal-list hit under: the list itself, not "internal lists" at large. */
export function internalListId(watchlistId: string): string {
  return `internal_list:${watchlistId}`;
}

/**
 * Every list a hit's entity is on, the list it is filed under first: the source ids of its merged
 * rows, or `internal_list:<watchlistId>` for a hit on one of the account's own lists. Recorded with
 * the hit at completion, so the work queue can list and filter a case by any of them.
 */
export function hitListIds(hit: Pick<ReportHit, 'source' | 'sources' | 'internalList'>): string[] {
  if (hit.internalList) return [internalListId(hit.internalList.watchlistId)];
  return [...new Set([hit.source, ...(hit.sources ?? []).map((s) => s.source)])];
}
