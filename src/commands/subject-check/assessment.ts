/**
 * How a subject check's findings, coverage and tier scores are derived from its agents' results.
 * Pure: the subject-check process manager calls it to build ConcludeSubjectCheck, the read model to
 * list the findings, and tests call it directly. The conclusion rule itself (thresholds, escalation,
 * review) lives in the decider (src/commands/subject-check); this file only measures.
 *
 * - Sources: the five agents below, each one "tier". A source that could not be searched
 *   (`queried: false`) counts in sources_total but not in sources_searched, and has no tier score.
 * - Tier score (0-100) = the best hit's matcher score × 100 in that tier (0 when searched, no hit).
 * - Severity: a confirmed hit (the identity agrees: src/reports/confirmation.ts, the one definition) on
 *   sanctions, PEP or debarment is a red flag; every other hit (potential matches, offshore leaks,
 *   adverse media) is a warning.
 * - overall_result: `adverse_found` with a red flag; `clean` with no finding and enough coverage
 *   (≥ 60 % of sources searched); otherwise `inconclusive`.
 * - confidence_level: `high` when ≥ 80 % of sources were searched and the best hit (if any) is
 *   confirmed; `medium` when ≥ 60 %; otherwise `low`.
 * - The best hit is ambiguous when it is only a potential match, or when the top two hits
 *   are different entities scoring within 0.02 of each other.
 * - risk_score / risk_level: the one scorer every surface uses (computeRiskScore, docs/risk-scoring.md)
 *   on the same hits, floors included, so a subject is critical here exactly when a screening of the
 *   same hits is. Tier scores stay the matcher's evidence per tier (they drive escalation).
 */
import type { SubjectSummary } from '.';
import type { AlertFacts } from './monitoring';
import { computeRiskScore, type RiskAssessment, type ScorableHit, type UnsearchedSource } from '../../reports/risk-score';
import { hitStatusOf, parseAssessment, parseConfirmation, type HitConfirmation, type MatchAssessment } from '../../reports/confirmation';
import { HIT_CATEGORIES, type HitCategory, type RiskLevel } from '../../reports/model';

export interface SubjectCheckSource {
  agent: string;
  tier: string;
}

/** The agents a subject check asks (phase-1 screening agents, the same workers as screenings). */
export const SUBJECT_CHECK_SOURCES: readonly SubjectCheckSource[] = [
  { agent: 'sanctions', tier: 'sanctions' },
  { agent: 'pep', tier: 'pep' },
  { agent: 'adverse_media', tier: 'adverse_media' },
  { agent: 'offshore_leaks', tier: 'offshore_leaks' },
  { agent: 'debarment', tier: 'debarment' },
];

const RED_FLAG_TIERS = new Set(['sanctions', 'pep', 'debarment']);
const AMBIGUITY_MARGIN = 0.02;

export interface AgentResultInput {
  agent: string;
  tier?: string;
  queried: boolean;
  error?: string;
  result: Record<string, unknown>;
}

export interface Finding {
  tier: string;
  source: string;
  entity_id: string;
  entity_name: string;
  matched_name: string;
  /** Matcher score in [0, 1], three decimals. */
  score: number;
  match_strength: 'confirmed' | 'potential';
  /** The machine's assessment of the hit and what confirmed it, as the list agent recorded them. */
  assessment?: MatchAssessment;
  confirmation?: HitConfirmation;
  /** The assessment in words: which fact confirmed the hit, or that nothing did and what would (the risk reason quotes it). */
  identity_note?: string;
  severity: 'red_flag' | 'warning';
  /** The list inside a multi-list file (CSL source column): tells an SDN row from an Entity List row. */
  source_list?: string;
}

export interface Assessment extends SubjectSummary {
  riskScore: number;
  riskLevel: RiskLevel;
  /** One sentence: why the level is what it is. */
  riskReason: string;
  tierScores: Record<string, number>;
  bestHitAmbiguous: boolean;
  findings: Finding[];
}

/** Thrown for a result that is not what an agent produces: the check then fails (internal error). */
export class MalformedAgentResult extends Error {
  override readonly name = 'MalformedAgentResult';
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new MalformedAgentResult(`${what} is not a string`);
  return value;
}

/** One hit of an agent's result (a ReportHit as JSON) read as a finding of the given tier. */
export function findingOf(tier: string, raw: unknown, agent: string = tier): Finding {
  if (typeof raw !== 'object' || raw === null) throw new MalformedAgentResult(`a hit of ${agent} is not an object`);
  const hit = raw as Record<string, unknown>;
  const score = hit.score;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    throw new MalformedAgentResult(`a hit of ${agent} has no score in [0, 1]`);
  }
  const assessment = parseAssessment(hit.assessment);
  const confirmation = parseConfirmation(hit.confirmation);
  const confirmed = hitStatusOf({ score, ...(assessment ? { assessment } : {}), ...(confirmation ? { confirmation } : {}) }) === 'confirmed';
  return {
    tier,
    source: text(hit.source, 'hit source'),
    entity_id: text(hit.entityId, 'hit entityId'),
    entity_name: text(hit.entityName, 'hit entityName'),
    matched_name: text(hit.matchedName ?? hit.entityName, 'hit matchedName'),
    score: Math.round(score * 1000) / 1000,
    match_strength: confirmed ? 'confirmed' : 'potential',
    ...(assessment ? { assessment } : {}),
    ...(confirmation ? { confirmation } : {}),
    ...(typeof hit.identityNote === 'string' && hit.identityNote ? { identity_note: hit.identityNote } : {}),
    severity: confirmed && RED_FLAG_TIERS.has(tier) ? 'red_flag' : 'warning',
    ...(typeof hit.sourceList === 'string' && hit.sourceList ? { source_list: hit.sourceList } : {}),
  };
}

/** The findings of one searched source, strongest first. */
export function findingsOf(input: AgentResultInput): Finding[] {
  if (!input.queried) return [];
  const hits = input.result.hits;
  if (!Array.isArray(hits)) throw new MalformedAgentResult(`result of ${input.agent} has no hits array`);
  const tier = input.tier ?? input.agent;
  return hits.map((raw) => findingOf(tier, raw, input.agent)).sort((a, b) => b.score - a.score);
}

/**
 * What a monitoring alert on a subject check means (issue 27): the hit it reports, assessed on the
 * check's own facts, as a finding, and the level the shared scorer gives that finding on its own. A
 * common name's namesake whose date of birth the listing contradicts is at most medium; the listed
 * date of birth confirms (a sanctions hit is then critical); a name alone stays potential (high).
 */
export function alertFinding(
  tier: string,
  hit: { entityId: string; source: string; matchedName: string; score: number; sourceList?: string },
  identity: { assessment: MatchAssessment; confirmation?: HitConfirmation; note: string },
): { finding: Finding; riskLevel: RiskLevel } {
  const finding = findingOf(tier, {
    entityId: hit.entityId,
    source: hit.source,
    entityName: hit.matchedName,
    matchedName: hit.matchedName,
    score: hit.score,
    assessment: identity.assessment,
    ...(identity.confirmation ? { confirmation: identity.confirmation } : {}),
    identityNote: identity.note,
    ...(hit.sourceList ? { sourceList: hit.sourceList } : {}),
  });
  return { finding, riskLevel: riskOfFindings([finding]).riskLevel };
}

/** The source a subject check's risk level cannot do without: not searched, the level is at least high. */
export const VERDICT_REQUIRED_SOURCE = 'sanctions';

/**
 * The required source when it was not searched (issue 27 §4, fail closed): it answered "not queried"
 * (an error, a stale list refused), or, once the check has concluded, it never answered (the deadline).
 */
export function unsearchedSources(
  sources: readonly Pick<AgentResultInput, 'agent' | 'queried' | 'error'>[],
  concluded: boolean,
): UnsearchedSource[] {
  if (sources.some((r) => r.agent === VERDICT_REQUIRED_SOURCE && r.queried)) return [];
  const answered = sources.find((r) => r.agent === VERDICT_REQUIRED_SOURCE);
  if (answered) return [{ source: VERDICT_REQUIRED_SOURCE, reason: answered.error ?? 'not searched' }];
  return concluded ? [{ source: VERDICT_REQUIRED_SOURCE, reason: 'no answer before the check concluded' }] : [];
}

/** The risk of a check's findings, from the shared scorer (each tier is the hit category of the same name). */
export function riskOfFindings(findings: readonly Finding[], unsearched: readonly UnsearchedSource[] = []): RiskAssessment {
  const hits: Partial<Record<HitCategory, ScorableHit[]>> = {};
  findings.forEach((f, i) => {
    if (!(HIT_CATEGORIES as readonly string[]).includes(f.tier)) return;
    const category = f.tier as HitCategory;
    (hits[category] ??= []).push({
      hitId: `${category}:${f.entity_id}:${i}`,
      category,
      source: f.source,
      score: f.score,
      entityName: f.entity_name,
      ...(f.source_list ? { sourceList: f.source_list } : {}),
      ...(f.assessment ? { assessment: f.assessment } : {}),
      ...(f.confirmation ? { confirmation: f.confirmation } : {}),
      ...(f.identity_note ? { identityNote: f.identity_note } : {}),
    });
  });
  return computeRiskScore({ hits, ...(unsearched.length ? { unsearched: [...unsearched] } : {}) });
}

/** Measures a finished check: every source has answered (searched or not). */
export function assess(results: readonly AgentResultInput[], sourcesTotal: number = SUBJECT_CHECK_SOURCES.length): Assessment {
  const searched = results.filter((r) => r.queried);
  const findings = results.flatMap(findingsOf).sort((a, b) => b.score - a.score);
  const tierScores: Record<string, number> = {};
  for (const r of searched) {
    const tier = r.tier ?? r.agent;
    const best = findingsOf(r)[0];
    tierScores[tier] = Math.max(tierScores[tier] ?? 0, best ? Math.round(best.score * 100) : 0);
  }
  const redFlagCount = findings.filter((f) => f.severity === 'red_flag').length;
  const warningCount = findings.length - redFlagCount;
  const sourcesSearched = Math.min(searched.length, sourcesTotal);
  const coverage = sourcesTotal > 0 ? sourcesSearched / sourcesTotal : 0;
  const best = findings[0];
  const second = findings.find((f) => best !== undefined && f.entity_id !== best.entity_id);
  const bestHitAmbiguous =
    best !== undefined && (best.match_strength === 'potential' || (second !== undefined && best.score - second.score <= AMBIGUITY_MARGIN));
  // A check whose sanctions lists were not searched cannot call the subject clean (fail closed).
  const unsearched = unsearchedSources(results, true);
  const overallResult = redFlagCount > 0 ? 'adverse_found' : findings.length === 0 && coverage >= 0.6 && unsearched.length === 0 ? 'clean' : 'inconclusive';
  const confidenceLevel =
    coverage >= 0.8 && (best === undefined || best.match_strength === 'confirmed') ? 'high' : coverage >= 0.6 ? 'medium' : 'low';
  const risk = riskOfFindings(findings, unsearched);
  return {
    riskScore: risk.riskScore,
    riskLevel: risk.riskLevel,
    riskReason: risk.reason,
    overallResult,
    confidenceLevel,
    findingsCount: findings.length,
    redFlagCount,
    warningCount,
    sourcesSearched,
    sourcesTotal,
    tierScores,
    bestHitAmbiguous,
    findings,
  };
}

/**
 * What an alert says about identity (issue 27): the assessment made on the check's facts, whether that
 * confirms the hit, and the level it gives on its own. A removal, and an alert recorded before
 * assessments were kept, has no level; the latter is a potential match (a name alone confirms nothing).
 */
export function alertAssessmentView(d: AlertFacts): {
  risk_level: RiskLevel | null;
  match_strength: 'confirmed' | 'potential' | null;
} & Partial<Pick<Finding, 'assessment' | 'confirmation' | 'identity_note'>> {
  if (d.kind === 'removed_hit') return { risk_level: null, match_strength: null };
  if (!d.identity) return { risk_level: null, match_strength: 'potential' };
  const { finding, riskLevel } = alertFinding(d.tier, d, d.identity);
  return {
    risk_level: d.riskLevel ?? riskLevel,
    match_strength: finding.match_strength,
    assessment: d.identity.assessment,
    ...(d.identity.confirmation ? { confirmation: d.identity.confirmation } : {}),
    identity_note: d.identity.note,
  };
}
