/**
 * The ScreeningReport of a screening stream (the report model: src/reports/model.ts), as a fold: `startReport` on ScreeningRequested,
 * `foldReportEvent` for every later event, `finishReport` for the report as of the last event
 * folded. Pure: the same events always give the same report. `buildScreeningReport` folds a whole
 * stream at once (the pipeline's finalisation steps); the screening-detail read model
 * (src/projections/read-models/screening-details.ts) keeps the fold of every screening, so a read
 * finishes a stored fold instead of reading and folding the stream.
 *
 * The fold itself depends on the events alone (it is stored): what depends on the deployment (the
 * agents' labels, the list versions and matcher of a screening not yet completed) is applied by
 * finishReport from the ReportContext.
 */
import type { RecordedEvent } from '../shared/events';
import { currentSummary } from '../reports/match-summary';
import { computeRiskScore, type RiskAssessment, type RiskFacts } from '../reports/risk-score';
import { hitStatusOf } from '../reports/confirmation';
import { answersRecordedBy, type ScreeningEvent, type ScreeningRequested, skippedPhases } from '../commands/screening';
import type { AgentAnswer } from '../commands/decider';
import { internalListLabel } from '../screening/watchlists/model';
import { listLabel, staleWarning } from '../screening/lists/freshness';
import {
  type AgentAuditEntry,
  type CountryRiskFinding,
  emptyHits,
  type HitCategory,
  type HitDisposition,
  HIT_CATEGORIES,
  type ListVersionRef,
  type RegistryRecord,
  type ReportHit,
  RISK_SCALE,
  type ScreeningReport,
  type UkRegistryFacts,
} from '../reports/model';

/** What a pipeline agent records as its result payload (AgentResultRecorded.result). */
export interface AgentResultPayload {
  hits?: ReportHit[];
  registry?: RegistryRecord[];
  ukRegistry?: UkRegistryFacts;
  countryRisk?: CountryRiskFinding[];
  /** Finalisation steps put their piece here. */
  [key: string]: unknown;
}

export interface ReportContext {
  /** Labels of the agents, for "sources not searched". */
  agentLabels: Record<string, string>;
  /** The list versions the engine had when the screening ran (until ScreeningCompleted records them). */
  listVersions?: ListVersionRef[];
  matcherVersion?: string;
}

/**
 * A screening's report as folded so far; plain JSON (the read model stores it). `report` has every
 * event applied in order except what only the end can settle, kept beside it: the analysts'
 * decisions still standing, the finalisation steps' results (applied over the whole stream's
 * outcome), and whether the risk was re-scored since. Sources not searched carry the agent's id
 * and a screening not yet completed no list versions or matcher: finishReport puts the context's in.
 */
export interface ScreeningReportFold {
  report: ScreeningReport;
  /** The standing decision per hit id (HitDispositioned, less HitReopened). */
  dispositions: Record<string, HitDisposition>;
  /** Results of the finalisation steps (risk score, analysis, data gaps, summary), in stream order. */
  finalisation: { agent: string; payload: Record<string, unknown> }[];
  /** A disposition, reopening, monitoring alert or risk recomputation happened. */
  rescored: boolean;
}

/** Agents whose result is applied by finishReport (it reads the screening's final status). */
const FINALISATION_AGENTS = new Set(['risk_score', 'edd_analysis', 'ma_analysis', 'sow_analysis', 'data_gaps', 'summary']);
const RESCORED_BY = new Set(['HitDispositioned', 'HitReopened', 'MonitoringAlertRaised', 'RiskRecomputed']);

/** The whole stream folded and finished: the report as of its last event (undefined without ScreeningRequested). */
export function buildScreeningReport(events: readonly RecordedEvent[], context: ReportContext): ScreeningReport | undefined {
  const first = events.findIndex((e) => e.type === 'ScreeningRequested');
  if (first < 0) return undefined;
  // As before: the request opens the report, and every event of the stream is in its audit trail.
  const fold = startReport(events[first] as RecordedEvent & ScreeningRequested);
  for (const event of events) foldReportEvent(fold, event);
  return finishReport(fold, context);
}

/** A new fold from the stream's ScreeningRequested (which is not yet folded: pass it to foldReportEvent too). */
export function startReport(requested: RecordedEvent & ScreeningRequested): ScreeningReportFold {
  const r = requested.data;
  const report: ScreeningReport = {
    id: Number(r.screeningId),
    uuid: r.uuid,
    kind: r.kind,
    accountId: r.accountId,
    status: 'running',
    createdAt: r.requestedAt,
    subject: {
      query: r.subject.query,
      entityType: r.subject.entityType,
      ...(r.subject.jurisdiction ? { jurisdiction: r.subject.jurisdiction } : {}),
      ...(r.subject.dateOfBirth ? { dateOfBirth: r.subject.dateOfBirth } : {}),
      ...(r.subject.nationality ? { nationality: r.subject.nationality } : {}),
      ...(r.subject.identifiers?.length ? { identifiers: r.subject.identifiers } : {}),
      ...(r.subject.address ? { address: r.subject.address } : {}),
      ...(r.subject.phone ? { phone: r.subject.phone } : {}),
      ...(r.subject.email ? { email: r.subject.email } : {}),
      ...(r.edd ? { edd: r.edd } : {}),
      ...(r.ma ? { ma: r.ma } : {}),
      ...(r.sow ? { sow: r.sow.declaration as never } : {}),
    },
    verdict: { riskScore: 0, riskLevel: 'low', scale: RISK_SCALE, breakdown: [], uncappedScore: 0 },
    hits: emptyHits(),
    countryRisk: [],
    enrichment: { registries: [] },
    agents: [],
    dataGaps: [],
    sourcesNotSearched: [],
    audit: {
      // Until ScreeningCompleted records them: finishReport puts the context's in.
      listVersions: [],
      matcherVersion: 'unknown',
      events: [],
    },
  };
  if (r.sow) report.sowScreeningId = r.sow.sowScreeningId;
  return { report, dispositions: {}, finalisation: [], rescored: false };
}

/**
 * Sources the deployment could not query, recorded as their phase started or was skipped (no result
 * payload). A module function, not a closure per event: every event of every screening is folded.
 */
function notQueried(report: ScreeningReport, phase: string, sources: readonly { agent: string; error: string }[], at: string): void {
  for (const n of sources) {
    report.agents.push({ agent: n.agent, phase, queried: false, durationMs: 0, matchCount: 0, startedAt: at, error: n.error });
    report.sourcesNotSearched.push({ source: n.agent, reason: n.error });
  }
}

/**
 * One agent's answer (an AgentResultRecorded, or one of a PhaseCompleted's results) applied to the
 * fold. Also for answers not recorded yet: the finalisation steps of one workflow step each see the
 * answers before theirs (src/agents/workflow/screening.ts).
 */
export function foldAgentAnswer(fold: ScreeningReportFold, d: AgentAnswer<string>): void {
  const { report } = fold;
  const payload = (d.result ?? {}) as AgentResultPayload;
  const entry: AgentAuditEntry = {
    agent: d.agent,
    phase: d.phase,
    queried: d.queried,
    durationMs: Math.max(0, Date.parse(d.finishedAt) - Date.parse(d.startedAt)),
    matchCount: payload.hits?.length ?? 0,
    startedAt: d.startedAt,
  };
  if (d.error) entry.error = d.error;
  report.agents.push(entry);
  if (!d.queried) {
    report.sourcesNotSearched.push({ source: d.agent, reason: d.error ?? 'not queried' });
  }
  // A copy of each hit: finishReport and later events (monitoring, dispositions) write into the
  // report's hits, never into the recorded event's.
  for (const hit of payload.hits ?? []) {
    const list = report.hits[hit.category];
    if (list && !list.some((h) => h.hitId === hit.hitId)) list.push({ ...hit });
  }
  for (const record of payload.registry ?? []) report.enrichment.registries.push(record);
  if (payload.ukRegistry) report.enrichment.ukRegistry = payload.ukRegistry;
  if (payload.countryRisk) report.countryRisk = payload.countryRisk;
  if (FINALISATION_AGENTS.has(d.agent)) fold.finalisation.push({ agent: d.agent, payload: payload as Record<string, unknown> });
}

/** Applies one event of the stream (in stream order, ScreeningRequested included) to the fold. */
export function foldReportEvent(fold: ScreeningReportFold, recorded: RecordedEvent): void {
  const { report } = fold;
  const event = recorded as RecordedEvent & ScreeningEvent;
  report.audit.events.push({ type: event.type, occurredAt: event.metadata.occurredAt, eventId: event.metadata.eventId, position: event.streamPosition.toString() });
  if (event.metadata.hash) report.audit.streamHeadHash = event.metadata.hash;
  if (RESCORED_BY.has(event.type)) fold.rescored = true;
  switch (event.type) {
    case 'PhaseStarted':
      notQueried(report, event.data.phase, event.data.notQueried ?? [], event.data.startedAt);
      break;
    case 'PhaseSkipped':
      for (const skipped of skippedPhases(event.data)) notQueried(report, skipped.phase, skipped.notQueried, event.data.skippedAt);
      break;
    case 'AgentResultRecorded':
      foldAgentAnswer(fold, event.data);
      break;
    case 'PhaseCompleted':
      // v2: a phase recorded whole carries its answers, folded as the AgentResultRecorded they replace.
      for (const answer of answersRecordedBy(event)) foldAgentAnswer(fold, answer);
      break;
    case 'ScreeningCompleted': {
      const d = event.data;
      report.status = 'completed';
      report.completedAt = d.completedAt;
      report.verdict.riskScore = d.riskScore;
      report.verdict.riskLevel = d.riskLevel;
      if (d.summary) report.verdict.summary = d.summary;
      report.audit.listVersions = d.listVersions.map((v) => ({
        source: v.source,
        label: listLabel(v.source),
        versionId: v.id,
        contentHash: v.contentHash,
        ...(v.publishedAt ? { publishedAt: v.publishedAt } : {}),
        ...(v.publishedAtSource ? { publishedAtSource: v.publishedAtSource } : {}),
        // Events recorded before list ages were kept have no loadedAt: the completion time stands in.
        loadedAt: v.loadedAt ?? d.completedAt,
        ...(v.ageDays !== undefined ? { ageDays: v.ageDays } : {}),
        ...(v.maxAgeDays !== undefined ? { maxAgeDays: v.maxAgeDays } : {}),
        ...(v.stale ? { stale: true, warning: staleWarning(listLabel(v.source), v.ageDays ?? null) } : {}),
      }));
      report.audit.matcherVersion = d.matcherVersion;
      break;
    }
    case 'HitDispositioned':
      fold.dispositions[event.data.hitId] = {
        decision: event.data.disposition,
        by: event.data.analyst,
        at: event.data.dispositionedAt,
        note: event.data.reason,
      };
      break;
    case 'RiskRecomputed':
      report.verdict.riskScore = event.data.riskScore;
      report.verdict.riskLevel = event.data.riskLevel;
      break;
    case 'MonitoringAlertRaised': {
      // Ongoing monitoring: a list update added, changed or removed a hit after completion.
      const d = event.data;
      const list = report.hits[d.category];
      if (!list) break;
      const existing = list.findIndex((h) => h.hitId === d.hitId);
      if (d.kind === 'removed_hit') {
        if (existing >= 0) list.splice(existing, 1);
        break;
      }
      const note = d.identity ? ` ${d.identity.note.charAt(0).toUpperCase()}${d.identity.note.slice(1)}.` : '';
      const summary = `Raised by ongoing monitoring (${d.kind.replace('_', ' ')}) on list version ${d.listVersion}.${note}`;
      // The machine's assessment on the subject's facts, when the alert carries one (issue 27): read as a screening's own hit.
      const identity: Pick<ReportHit, 'assessment' | 'confirmation' | 'identityNote'> = d.identity
        ? { assessment: d.identity.assessment, ...(d.identity.confirmation ? { confirmation: d.identity.confirmation } : {}), identityNote: d.identity.note }
        : {};
      if (existing >= 0) {
        const { assessment: _assessment, confirmation: _confirmation, identityNote: _note, ...unassessed } = list[existing]!;
        // A re-scored change is assessed again on the new record; otherwise the hit keeps the assessment it had.
        const hit: ReportHit = d.identity ? { ...unassessed, ...identity } : list[existing]!;
        const updated: ReportHit = {
          ...hit,
          score: d.score,
          explanation: { ...hit.explanation, summary: `${hit.explanation.summary} ${summary}` },
          ...(d.entityRecordHash ? { entityRecordHash: d.entityRecordHash } : {}),
          ...(d.internalList ? { internalList: d.internalList } : {}),
        };
        // Without a new assessment, the new score may still leave the name band.
        list[existing] = { ...updated, status: hitStatusOf(updated) };
      } else {
        list.push({
          hitId: d.hitId,
          category: d.category,
          source: d.source,
          entityId: d.entityId,
          entityName: d.matchedName,
          matchedName: d.matchedName,
          score: d.score,
          ...identity,
          // Without an assessment (alerts recorded before it was kept), nothing corroborates the identity until an analyst decides.
          status: hitStatusOf({ score: d.score, ...identity }),
          explanation: { summary, qualifiers: [] },
          programs: [],
          ...(d.entityRecordHash ? { entityRecordHash: d.entityRecordHash } : {}),
          // An internal-list hit counts by its list's severity at once (not as an unattributed sanctions hit).
          ...(d.internalList ? { internalList: d.internalList, sourceLabel: internalListLabel(d.internalList.name), listAuthority: 'other' as const } : {}),
        });
      }
      break;
    }
    case 'HitReopened':
      delete fold.dispositions[event.data.hitId];
      break;
    default:
      break;
  }
}

/**
 * The report as of the last event folded, with the context's labels (and, until completion, list
 * versions and matcher). Leaves the fold as it was (what it settles, it writes into copies of the
 * parts it changes), so a fold can take more events and be finished again: the finalisation steps
 * of one workflow step each finish the same fold, with the answers before theirs folded in. The
 * report shares the rest with the fold: change neither once finished if the other is still used.
 */
export function finishReport(fold: ScreeningReportFold, context: ReportContext): ScreeningReport {
  const folded = fold.report;
  const report: ScreeningReport = {
    ...folded,
    verdict: { ...folded.verdict },
    audit: { ...folded.audit },
    sourcesNotSearched: folded.sourcesNotSearched.map((s) => ({ ...s })),
    hits: Object.fromEntries(Object.entries(folded.hits).map(([category, hits]) => [category, [...hits]])) as ScreeningReport['hits'],
  };
  if (report.status !== 'completed') {
    report.audit.listVersions = context.listVersions ?? [];
    report.audit.matcherVersion = context.matcherVersion ?? 'unknown';
  }
  for (const s of report.sourcesNotSearched) s.source = context.agentLabels[s.source] ?? s.source;
  // Finalisation results carry the breakdown, the analysis and the gaps.
  let riskFacts: RiskFacts | undefined;
  for (const { agent, payload } of fold.finalisation) {
    if (agent === 'risk_score' && payload.assessment) {
      const a = payload.assessment as Pick<RiskAssessment, 'breakdown' | 'uncappedScore' | 'riskScore' | 'riskLevel' | 'flags'> & { reason?: string };
      report.verdict.breakdown = a.breakdown;
      if (report.status !== 'completed') {
        report.verdict.riskScore = a.riskScore;
        report.verdict.riskLevel = a.riskLevel;
      }
      report.verdict.uncappedScore = a.uncappedScore;
      if (Array.isArray(a.flags)) report.verdict.flags = a.flags;
      if (typeof a.reason === 'string') report.verdict.reason = a.reason;
      if (payload.facts && typeof payload.facts === 'object') riskFacts = payload.facts as RiskFacts;
    }
    if ((agent === 'edd_analysis' || agent === 'ma_analysis' || agent === 'sow_analysis') && typeof payload.markdown === 'string') {
      report.analysis = { kind: agent.slice(0, agent.indexOf('_')) as 'edd' | 'ma' | 'sow', markdown: payload.markdown, generatedBy: String(payload.generatedBy ?? 'rules') };
    }
    if (agent === 'data_gaps' && Array.isArray(payload.dataGaps)) report.dataGaps = payload.dataGaps as ScreeningReport['dataGaps'];
    if (agent === 'summary' && typeof payload.summary === 'string' && !report.verdict.summary) report.verdict.summary = payload.summary;
  }
  // Completed without the scorer's answer (it threw, or the finalisation phase expired): the level
  // is the fail-closed one (failClosedVerdict) and the report says why, never "no significant flags".
  if (report.status === 'completed' && !fold.rescored && !fold.finalisation.some((f) => f.agent === 'risk_score' && f.payload.assessment)) {
    const why = report.agents.find((a) => a.agent === 'risk_score' && !a.queried)?.error ?? 'the risk-score step gave no answer';
    const level = report.verdict.riskLevel;
    report.verdict.flags = ['risk_not_scored', ...(report.agents.some((a) => a.agent === 'sanctions' && a.queried) ? [] : ['sanctions_not_searched'])];
    report.verdict.reason = `${level.charAt(0).toUpperCase()}${level.slice(1)} (${report.verdict.riskScore}): the risk score could not be computed (${why}), so the screening fails closed at ${level}; screen the subject again before relying on it.`;
  }
  for (const category of HIT_CATEGORIES) {
    const hits = report.hits[category];
    hits.forEach((hit, i) => {
      const disposition = fold.dispositions[hit.hitId];
      if (disposition) hits[i] = { ...hit, disposition };
    });
    hits.sort((a, b) => b.score - a.score);
  }
  // The summary's matches sentence counts the hits as they stand now, decisions included: a false
  // positive recorded after completion changes it (issue 31). The rest is kept as recorded.
  if (report.verdict.summary) report.verdict.summary = currentSummary(report.verdict.summary, allHits(report), report.agents);
  // After a disposition or a monitoring alert the recorded breakdown is the pipeline's: re-score
  // the hits as they stand now (dispositions included) on the same recorded facts, with the same
  // scorer the re-score event was computed with, so the breakdown explains the current score.
  if (riskFacts && fold.rescored) {
    const now = computeRiskScore({ hits: report.hits, ...riskFacts });
    report.verdict.breakdown = now.breakdown;
    report.verdict.uncappedScore = now.uncappedScore;
    report.verdict.flags = now.flags;
    report.verdict.reason = now.reason;
  }
  return report;
}

/** The non-hit facts the pipeline scored the screening on (recorded with its risk_score result), when recorded. */
export function riskFactsOf(events: readonly RecordedEvent[]): RiskFacts | undefined {
  for (const event of events) {
    for (const answer of answersRecordedBy(event)) {
      const facts = answer.agent === 'risk_score' ? answer.result?.facts : undefined;
      if (facts && typeof facts === 'object') return facts as RiskFacts;
    }
  }
  return undefined;
}

export function allHits(report: Pick<ScreeningReport, 'hits'>): ReportHit[] {
  return HIT_CATEGORIES.flatMap((c: HitCategory) => report.hits[c]);
}
