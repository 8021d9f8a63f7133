/** How every surface shows a list's age (/readyz, GET /lists, the portal's sources page). */
import type { ListFreshness } from '../../screening/lists/freshness';

/** A list's age as /readyz and GET /lists show it (snake_case like every response body). */
export function presentListFreshness(f: ListFreshness) {
  return {
    list: f.source,
    label: f.label,
    version: f.versionId,
    published_at: f.publishedAt,
    published_at_source: f.publishedAtSource,
    loaded_at: f.loadedAt,
    age_days: f.ageDays,
    max_age_days: f.maxAgeDays,
    stale: f.stale,
    ...(f.warning ? { warning: f.warning } : {}),
  };
}
