/**
 * Risk recomputed from the hits that still count (open and true matches) after a disposition or a
 * monitoring alert, with the same scorer the pipeline's risk_score step uses (computeRiskScore) and
 * the screening's own non-hit facts (subject-jurisdiction FATF finding, UK registry facts).
 */
import { computeRiskScore, type ScorableHit } from '../../agents/scoring/risk-score';
import type { HitState, ScreeningState } from '../../commands/screening';
import type { RiskLevel } from '../../commands/plans';
import type { HitCategory } from '../../reports/model';
import type { CountryRisk } from '../../screening/model';
import type { RecordedEvent } from '../../shared/events';
import { allHits, buildScreeningReport } from '../screenings/report-builder';

export function recomputeRisk(
  events: readonly RecordedEvent[],
  state: ScreeningState,
  options: { countryRisk?: () => CountryRisk[] } = {},
): { riskScore: number; riskLevel: RiskLevel; countingHitIds: string[] } {
  if (state.status === 'none') return { riskScore: 0, riskLevel: 'low', countingHitIds: [] };
  const report = buildScreeningReport(events, { agentLabels: {} });
  const reported = new Map((report ? allHits(report) : []).map((h) => [h.hitId, h]));
  const counting = Object.values(state.hits).filter((h: HitState) => h.status === 'open' || h.status === 'true_match');
  const hits: Partial<Record<HitCategory, ScorableHit[]>> = {};
  for (const h of counting) {
    const rich = reported.get(h.hitId);
    // A hit added by monitoring is not in the pipeline's report: its state carries what the scorer needs.
    const scorable: ScorableHit = rich ? { ...rich, score: h.score } : { hitId: h.hitId, category: h.category, source: h.source, score: h.score, entityName: h.matchedName };
    (hits[h.category] ??= []).push(scorable);
  }
  const table = options.countryRisk?.() ?? [];
  const assessment = computeRiskScore({
    hits,
    ...(table.length ? { highRiskJurisdictions: table.map((c) => c.iso2) } : {}),
    countryRisk: (report?.countryRisk ?? []).filter((c) => c.basis === 'subject_jurisdiction'),
    ...(report?.enrichment.ukRegistry ? { ukRegistry: report.enrichment.ukRegistry } : {}),
  });
  return { riskScore: assessment.riskScore, riskLevel: assessment.riskLevel, countingHitIds: counting.map((h) => h.hitId) };
}
