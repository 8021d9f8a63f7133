/**
 * Risk (and the summary's matches sentence) recomputed after a disposition or a monitoring alert, with the one scorer every surface
 * uses (computeRiskScore): the screening's hits as the report shows them now (monitoring changes and
 * analyst dispositions folded in, so "true match by <who>" and "false positive by <who>" reach the
 * breakdown) on the non-hit facts the pipeline recorded with its own assessment (subject-jurisdiction
 * FATF finding, UK registry facts, high-risk jurisdictions). Screenings recorded before those facts
 * were kept fall back to the report's country risk and registry facts and the current FATF table.
 */
import { computeRiskScore, type RiskAssessment, type RiskFacts } from '../../reports/risk-score';
import { countsTowardRisk, type HitState, type ScreeningState } from '../../commands/screening';
import type { RiskLevel } from '../../commands/plans';
import type { CountryRisk } from '../../screening/model';
import type { RecordedEvent } from '../../shared/events';
import { buildScreeningReport, riskFactsOf } from '../../projections/screening-report';
import { verdictFacts } from '../../agents/finalisation/finalisers';

export function recomputeRisk(
  events: readonly RecordedEvent[],
  state: ScreeningState,
  options: { countryRisk?: () => CountryRisk[] } = {},
): { riskScore: number; riskLevel: RiskLevel; countingHitIds: string[]; assessment?: RiskAssessment; summary?: string } {
  if (state.status === 'none') return { riskScore: 0, riskLevel: 'low', countingHitIds: [] };
  const counting = Object.values(state.hits).filter((h: HitState) => countsTowardRisk(h.status));
  const report = buildScreeningReport(events, { agentLabels: {} });
  if (!report) return { riskScore: 0, riskLevel: 'low', countingHitIds: counting.map((h) => h.hitId) };
  const recorded = riskFactsOf(events);
  const table = options.countryRisk?.() ?? [];
  // Without recorded facts (screenings from before they were kept, or whose risk step never answered),
  // the same facts are worked out from the report, the sources not searched included (fail closed).
  const facts: RiskFacts = recorded ?? verdictFacts({ countryRisk: report.countryRisk, table, ukRegistry: report.enrichment.ukRegistry, agents: report.agents });
  const assessment = computeRiskScore({ hits: report.hits, ...facts });
  // The report counts its summary's matches from the hits as they stand (src/reports/match-summary.ts):
  // the re-score carries it to read models that keep no hits (the S1/S3 list).
  return {
    riskScore: assessment.riskScore,
    riskLevel: assessment.riskLevel,
    countingHitIds: counting.map((h) => h.hitId),
    assessment,
    ...(report.verdict.summary ? { summary: report.verdict.summary } : {}),
  };
}
