/**
 * Application views → S3 `data` payloads. S3 identifies a screening by its uuid (`id`); the numeric
 * id S1 uses for the same screening is `screening_number`. SOW screenings also carry their
 * `sow_screening_id` (`SVC-<8>-SOW`) and the SOW assessment.
 */
import type { ApiKeyView, HitView, ScreeningDetailView, ScreeningView } from '../../app/services';
import { mergedHitFacts } from '../http/hit-facts';
import type { SowAssessmentView } from '../../app/sow/sow-view';

const TYPE = { cdd: 'CDD', edd: 'EDD', ma: 'MA', sow: 'SOW' } as const;

export function presentKey(key: ApiKeyView) {
  return { id: key.id, name: key.name, key_prefix: key.prefix, created_at: key.createdAt, last_used_at: key.lastUsedAt };
}

export function presentS3Screening(view: ScreeningView, sow?: { sowScreeningId: string | null; assessment?: SowAssessmentView | null }) {
  return {
    id: view.uuid,
    screening_number: view.id,
    screening_type: TYPE[view.kind],
    ...(view.kind === 'sow' ? { sow_screening_id: sow?.sowScreeningId ?? null } : {}),
    query: view.search_query,
    entity_type: view.entity_type,
    jurisdiction: view.jurisdiction,
    status: view.status,
    risk_score: view.risk_score,
    risk_level: view.risk_level,
    sanctions_hits: view.sanctions_hits,
    pep_hits: view.pep_hits,
    adverse_media_hits: view.adverse_media_hits,
    offshore_leaks_hits: view.offshore_leaks_hits,
    summary: view.summary,
    ...(view.kind === 'edd' ? { edd_analysis: view.edd_analysis } : {}),
    ...(view.kind === 'ma' ? { ma_analysis: view.ma_analysis } : {}),
    ...(view.kind === 'sow' && sow?.assessment !== undefined ? { sow: sow.assessment } : {}),
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
    score: hit.score,
    match_strength: hit.match_strength,
    explanation: hit.explanation,
    programs: hit.programs,
    source_url: hit.source_url,
    ...mergedHitFacts(hit),
  };
}

export function presentS3ScreeningDetail(view: ScreeningDetailView, sow?: { sowScreeningId: string | null; assessment?: SowAssessmentView | null }) {
  const byCategory = (category: HitView['category']) => view.hits.filter((h) => h.category === category).map(presentHit);
  return {
    ...presentS3Screening(view, sow),
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
  };
}
