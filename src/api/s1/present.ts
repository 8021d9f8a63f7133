/** Application views → S1 response bodies (spec part 2 fields; nothing internal such as uuid or accountId). */
import type { HitView, ScreeningDetailView, ScreeningView } from '../../app/services';
import { mergedHitFacts } from '../http/hit-facts';

export type S1ScreeningType = 'cdd' | 'edd' | 'ma';

export function presentScreening(view: ScreeningView) {
  const kind = view.kind as S1ScreeningType;
  return {
    id: view.id,
    screening_type: kind,
    search_query: view.search_query,
    entity_type: view.entity_type,
    jurisdiction: view.jurisdiction,
    risk_level: view.risk_level,
    risk_score: view.risk_score,
    status: view.status,
    sanctions_hits: view.sanctions_hits,
    pep_hits: view.pep_hits,
    adverse_media_hits: view.adverse_media_hits,
    offshore_leaks_hits: view.offshore_leaks_hits,
    summary: view.summary,
    ...(kind === 'edd' ? { edd_analysis: view.edd_analysis } : {}),
    ...(kind === 'ma' ? { ma_analysis: view.ma_analysis } : {}),
    created_at: view.created_at,
    completed_at: view.completed_at,
    ...(view.list_warnings ? { list_warnings: view.list_warnings } : {}),
  };
}

function presentHit(hit: HitView) {
  return {
    hit_id: hit.hit_id,
    list: hit.list,
    list_version: hit.list_version,
    entity_id: hit.entity_id,
    entity_name: hit.entity_name,
    entity_type: hit.entity_type,
    matched_name: hit.matched_name,
    matched_name_kind: hit.matched_name_kind,
    score: hit.score,
    match_strength: hit.match_strength,
    explanation: hit.explanation,
    qualifiers: hit.qualifiers,
    programs: hit.programs,
    source_url: hit.source_url,
    disposition: hit.disposition,
    ...mergedHitFacts(hit),
  };
}

export function presentScreeningDetail(view: ScreeningDetailView) {
  const byCategory = (category: HitView['category']) => view.hits.filter((h) => h.category === category).map(presentHit);
  return {
    ...presentScreening(view),
    hits: {
      sanctions: byCategory('sanctions'),
      pep: byCategory('pep'),
      adverse_media: byCategory('adverse_media'),
      offshore_leaks: byCategory('offshore_leaks'),
      debarment: byCategory('debarment'),
    },
    sources: view.sources,
    country_risk: view.country_risk,
    list_versions: view.list_versions,
    list_warnings: view.list_warnings,
    matcher_version: view.matcher_version,
  };
}
