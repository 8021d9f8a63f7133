/**
 * The structured findings an analysis is built from: both the rules and the language model
 * see exactly this, and nothing else, so neither can cite a fact the screening did not find.
 */

import type {
  CountryRiskFinding,
  DataGap,
  HitCategory,
  ReportEnrichment,
  ReportHit,
  ReportSubject,
  ReportVerdict,
  ScreeningKind,
} from '../../reports/model';
import { HIT_CATEGORIES } from '../../reports/model';

/** What an analysis needs from a screening (a ScreeningReport satisfies it). */
export interface AnalysisInput {
  kind: ScreeningKind;
  subject: ReportSubject;
  verdict: Pick<ReportVerdict, 'riskScore' | 'riskLevel' | 'breakdown'> & { flags?: string[] };
  hits: Partial<Record<HitCategory, ReportHit[]>>;
  countryRisk?: CountryRiskFinding[];
  enrichment?: ReportEnrichment;
  dataGaps?: DataGap[];
  sourcesNotSearched?: { source: string; reason: string }[];
  /** SOW only: the SOW engine's assessment when available. */
  sow?: {
    riskTier?: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
    redFlags?: string[];
    corroborationGauge?: number;
    jurisdictionalRequirements?: string[];
    corroboration?: { source: string; status: 'corroborated' | 'partially_corroborated' | 'not_corroborated' | 'not_queried'; detail?: string }[];
  };
}

export interface FindingsDigest {
  screeningKind: ScreeningKind;
  subject: ReportSubject;
  riskScore: number;
  riskLevel: string;
  flags: string[];
  scoreBreakdown: { rule: string; points: number; reason: string }[];
  hits: Record<HitCategory, { source: string; entityName: string; matchedName: string; score: number; status: string; programs?: string[]; investigation?: string; title?: string; position?: string; sourceUrl?: string }[]>;
  countryRisk: { country: string; fatfStatus: string; measure?: string; asOf: string }[];
  registry: { source: string; legalName?: string; number?: string; status?: string; jurisdiction?: string; lei?: string; officers?: string[] }[];
  ukRegistry?: ReportEnrichment['ukRegistry'];
  dataGaps: string[];
  sourcesNotSearched: string[];
  sow?: AnalysisInput['sow'];
}

export function digestFindings(input: AnalysisInput): FindingsDigest {
  const hits = {} as FindingsDigest['hits'];
  for (const category of HIT_CATEGORIES) {
    hits[category] = (input.hits[category] ?? []).map((h) => ({
      source: h.sourceLabel ?? h.source,
      entityName: h.entityName,
      matchedName: h.matchedName,
      score: Math.round(h.score * 100),
      status: h.status,
      ...(h.programs.length > 0 ? { programs: h.programs } : {}),
      ...(h.investigation ? { investigation: h.investigation } : {}),
      ...(h.title ? { title: h.title } : {}),
      ...(h.position ? { position: h.position } : {}),
      ...(h.sourceUrl ? { sourceUrl: h.sourceUrl } : {}),
    }));
  }
  return {
    screeningKind: input.kind,
    subject: input.subject,
    riskScore: input.verdict.riskScore,
    riskLevel: input.verdict.riskLevel,
    flags: input.verdict.flags ?? [],
    scoreBreakdown: input.verdict.breakdown.map(({ rule, points, reason }) => ({ rule, points, reason })),
    hits,
    countryRisk: (input.countryRisk ?? []).map((c) => ({
      country: `${c.jurisdiction} (${c.iso2})`,
      fatfStatus: c.fatfStatus,
      ...(c.measure ? { measure: c.measure } : {}),
      asOf: c.asOf,
    })),
    registry: (input.enrichment?.registries ?? []).map((r) => ({
      source: r.source,
      legalName: r.legalName,
      number: r.registrationNumber,
      status: r.status,
      jurisdiction: r.jurisdiction,
      lei: r.lei,
      officers: r.officers?.map((o) => `${o.name}${o.role ? ` (${o.role})` : ''}`),
    })),
    ukRegistry: input.enrichment?.ukRegistry,
    dataGaps: (input.dataGaps ?? []).map((g) => g.description),
    sourcesNotSearched: (input.sourcesNotSearched ?? []).map((s) => `${s.source}: ${s.reason}`),
    sow: input.sow,
  };
}
