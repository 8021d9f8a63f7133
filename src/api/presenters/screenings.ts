/**
 * Screenings as S1 and S3 present them: one presenter per resource, the surface chosen by a
 * parameter. The fields are the same facts under each surface's names (spec parts 2 and 8); only
 * how a screening is named differs, and each surface wraps the result in its own envelope (S1
 * `{success, screening}`, S3 `{data, meta}`) in its router.
 *
 * - S1 names a screening by its number (`id`), its type in lower case (`cdd`), the subject as
 *   `search_query`; its hits carry the matched name's kind, the qualifiers and the analyst's
 *   disposition, and the detail the matcher version.
 * - S3 names it by its uuid (`id`, with the number as `screening_number`), its type in upper case
 *   (`CDD`), the subject as `query`; SOW screenings carry `sow_screening_id` and the assessment.
 */
import type { HitView, ScreeningDetailView, ScreeningView } from '../../app/services';
import type { SowAssessmentView } from '../../app/sow/sow-view';
import { mergedHitFacts } from './hit-facts';

/** The surfaces that serve screenings under /api/v1/screening. */
export type ScreeningSurface = 's1' | 's3';

/** A SOW screening's identifier and assessment (S3 only; null while it runs). */
export interface SowPart {
  sowScreeningId: string | null;
  assessment?: SowAssessmentView | null;
}

const S3_TYPE = { cdd: 'CDD', edd: 'EDD', ma: 'MA', sow: 'SOW' } as const;

/** How the surface names the screening (and, on S3, its SOW identifier). */
function identity(surface: ScreeningSurface, view: ScreeningView, sow: SowPart | undefined) {
  if (surface === 's1') return { id: view.id, screening_type: view.kind, search_query: view.search_query };
  return {
    id: view.uuid,
    screening_number: view.id,
    screening_type: S3_TYPE[view.kind],
    ...(view.kind === 'sow' ? { sow_screening_id: sow?.sowScreeningId ?? null } : {}),
    query: view.search_query,
  };
}

export function presentScreening(surface: ScreeningSurface, view: ScreeningView, sow?: SowPart) {
  return {
    ...identity(surface, view, sow),
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
    ...(view.kind === 'edd' ? { edd_analysis: view.edd_analysis } : {}),
    ...(view.kind === 'ma' ? { ma_analysis: view.ma_analysis } : {}),
    ...(surface === 's3' && view.kind === 'sow' && sow?.assessment !== undefined ? { sow: sow.assessment } : {}),
    created_at: view.created_at,
    completed_at: view.completed_at,
    ...(view.list_warnings ? { list_warnings: view.list_warnings } : {}),
    ...(view.risk_flags ? { risk_flags: view.risk_flags } : {}),
    ...(view.risk_reason !== undefined ? { risk_reason: view.risk_reason } : {}),
    // S3: "0 offshore-leak hits" must not read as "searched, none" when the month's checks were used up.
    ...(surface === 's3' && view.offshore_leaks_search
      ? { offshore_leaks_searched: view.offshore_leaks_search.searched, offshore_leaks_not_searched_reason: view.offshore_leaks_search.reason }
      : {}),
  };
}

export function presentHit(surface: ScreeningSurface, hit: HitView) {
  const s1 = surface === 's1';
  return {
    hit_id: hit.hit_id,
    list: hit.list,
    list_version: hit.list_version,
    entity_id: hit.entity_id,
    entity_name: hit.entity_name,
    entity_type: hit.entity_type,
    matched_name: hit.matched_name,
    ...(s1 ? { matched_name_kind: hit.matched_name_kind } : {}),
    score: hit.score,
    match_strength: hit.match_strength,
    match_assessment: hit.match_assessment,
    confirmation: hit.confirmation,
    explanation: hit.explanation,
    ...(s1 ? { qualifiers: hit.qualifiers } : {}),
    programs: hit.programs,
    source_url: hit.source_url,
    ...(s1 ? { disposition: hit.disposition } : {}),
    ...mergedHitFacts(hit),
  };
}

export function presentScreeningDetail(surface: ScreeningSurface, view: ScreeningDetailView, sow?: SowPart) {
  const byCategory = (category: HitView['category']) => view.hits.filter((h) => h.category === category).map((h) => presentHit(surface, h));
  return {
    ...presentScreening(surface, view, sow),
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
    ...(surface === 's1' ? { matcher_version: view.matcher_version } : {}),
  };
}
