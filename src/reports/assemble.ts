/**
 * Assembles a ScreeningReport from what the pipeline recorded: the hits of every agent, the
 * country risk, registry data, the agents' audit entries and the stream's events. Computes the
 * verdict with the scoring rules, so a report can never disagree with the score breakdown.
 *
 * The read side calls this when it folds a screening's stream (ScreeningRequested … agent
 * results … ScreeningCompleted); `outcomeToFindings` turns one outside source's AgentOutcome
 * into the pieces this function takes.
 */

import { computeRiskScore, hitStatus } from './risk-score';
import { toReportHit } from '../agents/sources/to-report';
import type { AgentOutcome } from '../agents/sources/types';
import {
  emptyHits,
  RISK_SCALE,
  type AgentAuditEntry,
  type AuditEvent,
  type CountryRiskFinding,
  type DataGap,
  type ListVersionRef,
  type RegistryRecord,
  type ReportEnrichment,
  type ReportHit,
  type ReportSubject,
  type ScreeningKind,
  type ScreeningReport,
  type UkRegistryFacts,
} from './model';

export interface ReportParts {
  id: number;
  uuid: string;
  sowScreeningId?: string;
  kind: ScreeningKind;
  accountId?: string;
  status?: 'running' | 'completed';
  createdAt: string;
  completedAt?: string;
  subject: ReportSubject;
  /** Hits of every category, from every agent, in any order. */
  hits: ReportHit[];
  countryRisk?: CountryRiskFinding[];
  enrichment?: Partial<ReportEnrichment>;
  analysis?: ScreeningReport['analysis'];
  agents: AgentAuditEntry[];
  dataGaps?: DataGap[];
  /** Sources the plan's tier excludes (not agents that ran): listed as not searched. */
  excludedByTier?: { source: string; reason: string }[];
  listVersions: ListVersionRef[];
  matcherVersion: string;
  events: AuditEvent[];
  streamHeadHash?: string;
  /** CDD summary; generated from the findings when absent. */
  summary?: string;
}

/**
 * Keeps one hit per hitId (the higher score), drops anything under the minimum match score and
 * sorts each category by score, best first.
 */
export function normaliseHits(hits: ReportHit[]): ScreeningReport['hits'] {
  const byId = new Map<string, ReportHit>();
  for (const h of hits) {
    const status = hitStatus(h.score);
    if (status === 'no_match') continue;
    const normalised = { ...h, status };
    const existing = byId.get(h.hitId);
    if (!existing || existing.score < h.score) byId.set(h.hitId, normalised);
  }
  const out = emptyHits();
  for (const h of byId.values()) out[h.category].push(h);
  for (const list of Object.values(out)) list.sort((a, b) => b.score - a.score || a.hitId.localeCompare(b.hitId));
  return out;
}

/** A one-paragraph CDD summary stating counts and the verdict, nothing else. */
export function summarise(report: Pick<ScreeningReport, 'subject' | 'hits' | 'verdict' | 'sourcesNotSearched'>): string {
  const h = report.hits;
  const part = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const confirmed = h.sanctions.filter((x) => x.status === 'confirmed').length;
  const band = RISK_SCALE.find((b) => b.level === report.verdict.riskLevel)!;
  const parts = [
    `${part(h.sanctions.length, 'sanctions hit')}${h.sanctions.length > 0 ? ` (${confirmed} confirmed)` : ''}`,
    part(h.pep.length, 'PEP hit'),
    part(h.adverse_media.length, 'adverse-media hit'),
    part(h.offshore_leaks.length, 'offshore-leak hit'),
    part(h.debarment.length, 'debarment hit'),
  ];
  const gaps = report.sourcesNotSearched.length > 0 ? ` ${part(report.sourcesNotSearched.length, 'source')} could not be searched.` : '';
  return `Screening of "${report.subject.query}": ${parts.join(', ')}. Risk score ${report.verdict.riskScore}/100, ${report.verdict.riskLevel} (${band.meaning.toLowerCase()}).${gaps}`;
}

export function assembleScreeningReport(parts: ReportParts): ScreeningReport {
  const hits = normaliseHits(parts.hits);
  const countryRisk = parts.countryRisk ?? [];
  const enrichment: ReportEnrichment = { registries: [], ...parts.enrichment };
  const assessment = computeRiskScore({ hits, countryRisk, ukRegistry: enrichment.ukRegistry });
  const sourcesNotSearched = [
    ...parts.agents.filter((a) => !a.queried).map((a) => ({ source: a.agent, reason: a.error ?? 'not queried' })),
    ...(parts.excludedByTier ?? []),
  ];
  const report: ScreeningReport = {
    id: parts.id,
    uuid: parts.uuid,
    ...(parts.sowScreeningId ? { sowScreeningId: parts.sowScreeningId } : {}),
    kind: parts.kind,
    ...(parts.accountId ? { accountId: parts.accountId } : {}),
    status: parts.status ?? (parts.completedAt ? 'completed' : 'running'),
    createdAt: parts.createdAt,
    ...(parts.completedAt ? { completedAt: parts.completedAt } : {}),
    subject: parts.subject,
    verdict: {
      riskScore: assessment.riskScore,
      riskLevel: assessment.riskLevel,
      scale: RISK_SCALE,
      breakdown: assessment.breakdown,
      uncappedScore: assessment.uncappedScore,
      flags: assessment.flags,
      reason: assessment.reason,
    },
    hits,
    countryRisk,
    enrichment,
    ...(parts.analysis ? { analysis: parts.analysis } : {}),
    agents: parts.agents,
    dataGaps: parts.dataGaps ?? [],
    sourcesNotSearched,
    audit: {
      listVersions: parts.listVersions,
      matcherVersion: parts.matcherVersion,
      events: parts.events,
      ...(parts.streamHeadHash ? { streamHeadHash: parts.streamHeadHash } : {}),
    },
  };
  report.verdict.summary = parts.summary ?? summarise(report);
  return report;
}

/** One outside source's outcome as report pieces: its audit entry, hits and registry data. */
export function outcomeToFindings(
  source: { name: string; label?: string; phase: string },
  outcome: AgentOutcome,
  timing: { durationMs: number; startedAt?: string },
): { audit: AgentAuditEntry; hits: ReportHit[]; registries: RegistryRecord[]; ukRegistry?: UkRegistryFacts; warnings: string[] } {
  const hits: ReportHit[] = [];
  const registries: RegistryRecord[] = [];
  let ukRegistry: UkRegistryFacts | undefined;
  for (const m of outcome.matches) {
    if (m.kind === 'hit') {
      const hit = toReportHit(source.name, m, source.label);
      if (hit) hits.push(hit);
    } else {
      registries.push(m.record);
      if (m.ukRegistry) ukRegistry = m.ukRegistry;
    }
  }
  const audit: AgentAuditEntry = {
    agent: source.name,
    phase: source.phase,
    queried: outcome.queried,
    ...(outcome.queried ? {} : { error: outcome.error }),
    durationMs: timing.durationMs,
    matchCount: outcome.matches.length,
    ...(timing.startedAt ? { startedAt: timing.startedAt } : {}),
  };
  return { audit, hits, registries, ...(ukRegistry ? { ukRegistry } : {}), warnings: outcome.queried ? (outcome.warnings ?? []) : [] };
}
