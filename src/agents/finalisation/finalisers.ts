/**
 * Phase 5, sequential finalisation (spec part 1): steps that compute from what the earlier
 * phases found, run by the process manager itself (no outside I/O, except the optional LLM of
 * the analysis step). Each returns the payload recorded as that step's AgentResultRecorded.
 */
import type { CountryRisk } from '../../screening/model';
import type { CountryRiskFinding, DataGap, ScreeningReport } from '../../reports/model';
import { computeRiskScore, type RiskFacts } from '../../reports/risk-score';
import { countryToIso2 } from '../sources/countries';
import { countryInfo } from '../../screening/lists/countries';
import { allHits } from '../../projections/screening-report';
import { matchesSentence } from '../../reports/match-summary';
import { assessSow, type SowAssessment } from '../sow/framework';
import { readStoredDeclaration } from '../sow/declaration';
import { corroborateKind, type SowAgentResult } from '../sow/agents';
import { SOW_AGENT_SOURCES } from '../sow/corroboration';
import type { NameScreener } from '../lists/list-agents';
import { countryScope, type SanctionsProgrammeFinding } from '../../screening/lists/country-sanctions';

export interface FinalisationContext {
  /** FATF country risk, latest statement per country. */
  countryRisk: () => CountryRisk[];
  /** Sanctions programmes targeting a country, with their designations on the lists in service; unwired: FATF only. */
  countrySanctions?: (iso2: string) => SanctionsProgrammeFinding[];
  /** EDD / M&A / SOW analysis (rules, or the configured LLM with fallback to rules). */
  analyse: (kind: 'edd' | 'ma' | 'sow', report: ScreeningReport) => Promise<{ markdown: string; generatedBy: string }>;
  /** SOW steps: our lists, to screen the declared counterparties (as the phase-2 SOW agents did). */
  sowScreener?: () => NameScreener;
}

export type FinalisationStep = (report: ScreeningReport, ctx: FinalisationContext) => Promise<{ queried: boolean; error?: string; result: Record<string, unknown> }>;

function fatfFinding(iso2: string, basis: string, table: CountryRisk[], jurisdiction: string, sanctions?: SanctionsProgrammeFinding[]): CountryRiskFinding {
  const entries = table.filter((c) => c.iso2 === iso2).sort((a, b) => b.asOf.localeCompare(a.asOf));
  const latestAsOf = table.reduce((max, c) => (c.asOf > max ? c.asOf : max), '');
  const current = entries.find((e) => e.asOf === latestAsOf);
  const programmes = sanctions ? { sanctions, sanctionsScope: countryScope(sanctions) } : {};
  if (!current) return { iso2, jurisdiction, fatfStatus: 'none', asOf: latestAsOf, basis, ...programmes };
  return { iso2, jurisdiction: current.jurisdiction, fatfStatus: current.list, ...(current.measure ? { measure: current.measure } : {}), asOf: current.asOf, basis, ...programmes };
}

/** The subject jurisdiction's risk: its FATF status and the sanctions programmes targeting it (undefined: no jurisdiction that resolves). */
export function subjectCountryRisk(
  jurisdiction: string | undefined,
  table: CountryRisk[],
  countrySanctions?: (iso2: string) => SanctionsProgrammeFinding[],
): CountryRiskFinding | undefined {
  const iso2 = countryToIso2(jurisdiction);
  return iso2 ? fatfFinding(iso2, 'subject_jurisdiction', table, jurisdiction ?? iso2, countrySanctions?.(iso2)) : undefined;
}

/** Agents a verdict cannot do without: our own sanctions lists. Not searched, the screening fails closed (at least high). */
export const VERDICT_REQUIRED_AGENTS: readonly string[] = ['sanctions'];

/**
 * The facts besides hits a screening is scored on: the subject jurisdiction's country risk, the UK
 * registry, every FATF-listed country for the UK controller rule, and the required sources that were
 * not searched (an agent error or timeout, a phase that expired: the scorer never answers low then).
 */
export function verdictFacts(input: {
  countryRisk: readonly CountryRiskFinding[];
  table: readonly CountryRisk[];
  ukRegistry?: RiskFacts['ukRegistry'];
  agents?: readonly Pick<ScreeningReport['agents'][number], 'agent' | 'queried' | 'error'>[];
}): RiskFacts {
  const unsearched = input.agents
    ? VERDICT_REQUIRED_AGENTS.filter((agent) => !input.agents!.some((a) => a.agent === agent && a.queried)).map((agent) => ({
        source: agent,
        reason: input.agents!.find((a) => a.agent === agent && !a.queried)?.error ?? 'no result was recorded',
      }))
    : [];
  return {
    // The UK controller rule looks at every FATF-listed country, not only the subject's.
    highRiskJurisdictions: input.table.map((c) => c.iso2),
    countryRisk: input.countryRisk.filter((c) => c.basis === 'subject_jurisdiction'),
    ...(input.ukRegistry ? { ukRegistry: input.ukRegistry } : {}),
    ...(unsearched.length ? { unsearched } : {}),
  };
}

export const finalisers: Record<string, FinalisationStep> = {
  async country_risk(report, ctx) {
    const table = ctx.countryRisk();
    if (table.length === 0) return { queried: false, error: 'FATF lists not loaded', result: {} };
    const findings: CountryRiskFinding[] = [];
    const iso2 = countryToIso2(report.subject.jurisdiction);
    const subject = subjectCountryRisk(report.subject.jurisdiction, table, ctx.countrySanctions);
    if (subject) findings.push(subject);
    // The subject's nationality is a country of the subject too: its FATF status and the programmes
    // targeting it are shown beside the jurisdiction's (context: the scorer weighs the jurisdiction).
    const nationality = report.subject.nationality ? countryToIso2(report.subject.nationality) : undefined;
    if (nationality && nationality !== iso2) {
      findings.push(fatfFinding(nationality, 'subject_nationality', table, countryInfo(nationality)?.name ?? nationality, ctx.countrySanctions?.(nationality)));
    }
    // Countries of confirmed sanctions/PEP hits matter too: an FATF-listed nexus is context for the analyst.
    for (const hit of allHits(report)) {
      if (hit.status !== 'confirmed') continue;
      for (const country of hit.countries ?? []) {
        if (findings.some((f) => f.iso2 === country)) continue;
        const finding = fatfFinding(country, 'hit_country', table, country);
        if (finding.fatfStatus !== 'none') findings.push(finding);
      }
    }
    return { queried: true, result: { countryRisk: findings } };
  },

  async risk_score(report, ctx) {
    // The non-hit facts are recorded with the assessment: a re-score after a disposition or a
    // monitoring alert (src/app/monitoring/risk.ts, the report builder) uses the very same ones.
    const facts = verdictFacts({ countryRisk: report.countryRisk, table: ctx.countryRisk(), ukRegistry: report.enrichment.ukRegistry, agents: report.agents });
    const assessment = computeRiskScore({ hits: report.hits, ...facts });
    return { queried: true, result: { assessment, facts } };
  },

  async merged_adverse_media(report) {
    const seen = new Set<string>();
    let duplicates = 0;
    for (const hit of report.hits.adverse_media) {
      const key = (hit.sourceUrl ?? hit.title ?? hit.hitId).toLowerCase();
      if (seen.has(key)) duplicates++;
      seen.add(key);
    }
    return { queried: true, result: { articles: seen.size, duplicates } };
  },

  async data_gaps(report) {
    const gaps: DataGap[] = report.agents
      .filter((a) => !a.queried)
      .map((a) => ({ code: `not_searched:${a.agent}`, description: `${a.agent} was not searched: ${a.error ?? 'unknown reason'}` }));
    if (!report.subject.jurisdiction) gaps.push({ code: 'no_jurisdiction', description: 'No jurisdiction given: country risk and registry checks were limited' });
    return { queried: true, result: { dataGaps: gaps } };
  },

  async summary(report) {
    const notSearched = report.agents.filter((a) => !a.queried).length;
    // Offshore leaks not searched (e.g. the month's S3 offshore-leak checks used up) must not read as "no match".
    const offshore = report.agents.find((a) => a.agent === 'offshore_leaks' && !a.queried);
    const parts = [
      `${report.subject.query} (${report.subject.entityType}${report.subject.jurisdiction ? `, ${report.subject.jurisdiction}` : ''}) was screened against ${report.agents.filter((a) => a.queried).length} sources.`,
      // Counted by standing (the report fold writes this sentence again after every decision).
      matchesSentence(allHits(report), Boolean(offshore)),
      offshore ? `Offshore leaks were not searched: ${offshore.error ?? 'not queried'}.` : '',
      notSearched > 0 ? `${notSearched} ${notSearched === 1 ? 'source' : 'sources'} could not be searched; see data gaps.` : '',
    ];
    return { queried: true, result: { summary: parts.filter(Boolean).join(' ') } };
  },

  async edd_analysis(report, ctx) {
    return { queried: true, result: await ctx.analyse('edd', report) };
  },
  async ma_analysis(report, ctx) {
    return { queried: true, result: await ctx.analyse('ma', report) };
  },

  async verification(report) {
    const problems: string[] = [];
    for (const hit of allHits(report)) {
      if (hit.score < 0.8) problems.push(`${hit.hitId} below the minimum match score`);
      if (!hit.explanation.summary) problems.push(`${hit.hitId} has no explanation`);
    }
    return { queried: true, result: { verified: problems.length === 0, problems } };
  },
};

/** SOW steps 1-4 (src/agents/sow/framework.ts): each records its part of the same pure assessment. */
async function sowAssessment(report: ScreeningReport, ctx: FinalisationContext): Promise<SowAssessment | { error: string }> {
  const declaration = readStoredDeclaration(report.subject.sow);
  if (report.kind !== 'sow' || !declaration) return { error: 'not a SOW screening (no declaration)' };
  // Phase-2 outcomes come from the in-memory history (report.agents): an agent that was not queried
  // leaves its sources uncorroborated; one that was is recomputed here, deterministically, from the
  // same declaration (its own record may still be pending in the same append as this step).
  const agentResults: Record<string, { queried: boolean; error?: string; sow?: SowAgentResult }> = {};
  for (const agent of Object.keys(SOW_AGENT_SOURCES)) {
    const entry = report.agents.find((a) => a.agent === agent);
    if (!entry) continue;
    if (!entry.queried) {
      agentResults[agent] = { queried: false, error: entry.error ?? 'not queried' };
      continue;
    }
    if (!ctx.sowScreener) return { error: 'SOW steps are not configured (no list screener)' };
    agentResults[agent] = { queried: true, sow: corroborateKind(agent, declaration, report.createdAt, ctx.sowScreener()) };
  }
  const subjectCountry = report.countryRisk.find((c) => c.basis === 'subject_jurisdiction');
  return assessSow({
    subjectName: report.subject.query,
    declaration,
    requestedAt: report.createdAt,
    agentResults,
    hits: report.hits,
    ...(subjectCountry ? { subjectCountry } : {}),
    jurisdictionGiven: Boolean(report.subject.jurisdiction),
  });
}

function sowStep(pick: (a: SowAssessment) => Record<string, unknown>): FinalisationStep {
  return async (report, ctx) => {
    const assessment = await sowAssessment(report, ctx);
    if ('error' in assessment) return { queried: false, error: assessment.error, result: {} };
    return { queried: true, result: pick(assessment) };
  };
}

finalisers.sow_risk_tier = sowStep((a) => ({ riskTier: a.riskTier, gauge: a.gauge, corroboration: a.corroboration, registries: a.registries }));
finalisers.sow_red_flags = sowStep((a) => ({ redFlags: a.redFlags }));
finalisers.sow_jurisdiction_requirements = sowStep((a) => ({ jurisdiction: a.jurisdiction }));
finalisers.sow_attestation = sowStep((a) => ({ attestation: a.attestation }));
/** Runs when the pipeline has a sow_analysis step (the rules or the LLM write the markdown). */
finalisers.sow_analysis = async (report, ctx) => ({ queried: true, result: await ctx.analyse('sow', report) });
