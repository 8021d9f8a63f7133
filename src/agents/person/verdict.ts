/**
 * Phase 7, second half: the rule that maps findings and source coverage to result, confidence and
 * risk score. Written down in docs/person-checks.md ("Result and confidence") and tested case by
 * case in test/unit/person/verdict.test.ts.
 *
 * coverage = sources searched / sources applicable (phases 2-6; a source that only yields links
 * for a manual search, or answered queried:false, is not searched).
 * critical sources: criminal court records (federal_courts) and the sanctions lists (sanctions_list).
 * adverse finding: a red flag, or a warning corroborated by date of birth or location.
 *
 * 1. Any adverse finding → adverse_found. Confidence: high when an adverse finding is tied by name
 *    and date of birth and coverage ≥ 50 %; medium otherwise.
 * 2. Else any (name-only) warning → inconclusive: a possible record needs identity confirmation.
 *    Confidence medium when coverage ≥ 50 %, else low.
 * 3. Else coverage ≥ 50 % and every critical source searched → clean. Confidence high when
 *    coverage ≥ 80 %, else medium.
 * 4. Else → inconclusive (too little was searched to call the subject clean). Confidence medium
 *    when coverage ≥ 50 %, else low.
 * So a check where most sources were not searched is never clean, and never high confidence.
 *
 * risk_score and risk_level come from the one scorer every surface uses (computeRiskScore,
 * docs/risk-scoring.md): list findings (sanctions, debarment, PEP, offshore leaks) are scored as the
 * hits they are, with the same contributions and floors as a screening of the same name, so the
 * same man is critical on a person check exactly when he is on S1 or S3. A list record whose date
 * of birth contradicts the subject's is most likely another person and is not counted (a row says
 * so). The person check adds its own contributions for what screenings do not search: per red flag
 * 50 (criminal, sex offender) or 45 (other), per warning 15 when corroborated, 8 when name-only.
 */
import type { PersonCheckOutcome, PersonFinding } from '../../commands/person-check';
import type { RiskLevel } from '../../commands/plans';
import type { HitCategory, ScoreContribution } from '../../reports/model';
import { computeRiskScore, type ScorableHit, type UnsearchedSource } from '../../reports/risk-score';
import { MIN_MATCH_SCORE, STRONG_NAME_SCORE } from '../../reports/confirmation';

export const CRITICAL_SOURCES = ['federal_courts', 'sanctions_list'] as const;
/** The person-check source a risk level cannot do without: not searched, the level is at least high. */
const SANCTIONS_SOURCE = 'sanctions_list';
export const MIN_COVERAGE_FOR_CLEAN = 0.5;
export const HIGH_CONFIDENCE_COVERAGE = 0.8;

export interface SourceCoverage {
  agent: string;
  searched: boolean;
}

export interface Verdict extends PersonCheckOutcome {
  coverage: number;
  /** The rule steps that decided, in words, for the report and the auditors. */
  reasons: string[];
  /** The scorer's breakdown: every contribution and floor behind riskScore. */
  breakdown: ScoreContribution[];
}

/** What the verdict reads of a finding; list findings also carry the matcher score and the list. */
export type VerdictFinding = Pick<PersonFinding, 'severity' | 'corroboration' | 'category'> & {
  id?: string;
  title?: string;
  matchedName?: string;
  source?: Pick<PersonFinding['source'], 'name' | 'entityId'>;
  /** Name similarity in [0, 1] of a list record. */
  nameScore?: number;
  /** The record's date of birth contradicts the subject's. */
  dobConflict?: boolean;
  /** The list inside a multi-list file (CSL source column). */
  sourceList?: string;
  /** A record on one of the account's internal lists (issue 21): counted by the list's severity. */
  internalList?: ScorableHit['internalList'];
  /** The identity assessment of a list record, as a screening's hit of it gets (confirmed only when the identity agrees). */
  assessment?: ScorableHit['assessment'];
  confirmation?: ScorableHit['confirmation'];
  identityNote?: string;
};

const LIST_CATEGORIES: ReadonlySet<string> = new Set<HitCategory>(['sanctions', 'debarment', 'pep', 'offshore_leaks']);

function isAdverse(f: Pick<PersonFinding, 'severity' | 'corroboration'>): boolean {
  return f.severity === 'red_flag' || (f.severity === 'warning' && f.corroboration !== 'name_only');
}

/** Person-check contributions for findings outside the hit categories (court records, registries, media…). */
function personContribution(f: VerdictFinding): ScoreContribution | undefined {
  const what = `${f.category.replace(/_/g, ' ')} finding${f.title ? ` "${f.title}"` : ''}`;
  if (f.severity === 'red_flag') {
    const points = f.category === 'criminal' || f.category === 'sex_offender' ? 50 : 45;
    return { rule: `person.${f.category}.red_flag`, points, reason: `red flag: ${what} tied by ${f.corroboration.replace('_', ' and ')}` };
  }
  if (f.severity === 'warning') {
    const nameOnly = f.corroboration === 'name_only';
    return { rule: `person.${f.category}.warning`, points: nameOnly ? 8 : 15, reason: `warning: ${what}${nameOnly ? ' on the name only' : ` tied by ${f.corroboration.replace('_', ' and ')}`}` };
  }
  return undefined;
}

/** The risk of a person check's findings, from the shared scorer; `unsearched`: sanctions sources not searched (never low). */
export function assessPersonRisk(findings: readonly VerdictFinding[], unsearched: readonly UnsearchedSource[] = []) {
  const hits: Partial<Record<HitCategory, ScorableHit[]>> = {};
  const additional: ScoreContribution[] = [];
  findings.forEach((f, i) => {
    if (!LIST_CATEGORIES.has(f.category)) {
      const c = personContribution(f);
      if (c) additional.push({ ...c, ...(f.id ? { hitIds: [f.id] } : {}) });
      return;
    }
    const hitId = f.id ?? `F${i + 1}`;
    if (f.dobConflict) {
      additional.push({ rule: 'person.list_record.dob_conflict', points: 0, reason: `not counted: ${f.title ?? f.category} gives another date of birth, most likely a different person`, hitIds: [hitId] });
      return;
    }
    const entityId = f.source?.entityId ?? '';
    const source = entityId.includes(':') ? entityId.slice(0, entityId.indexOf(':')) : (f.source?.name ?? 'unknown');
    // A finding without its matcher score (recorded before scores were kept): at the band its severity implies.
    const score = f.nameScore ?? (f.severity === 'info' ? MIN_MATCH_SCORE : STRONG_NAME_SCORE);
    (hits[f.category as HitCategory] ??= []).push({
      hitId,
      category: f.category as HitCategory,
      source,
      score,
      ...(f.source?.name ? { sourceLabel: f.source.name } : {}),
      ...(f.sourceList ? { sourceList: f.sourceList } : {}),
      ...(f.matchedName ? { entityName: f.matchedName } : {}),
      ...(f.category === 'offshore_leaks' && f.title ? { investigation: f.title } : {}),
      ...(f.internalList ? { internalList: f.internalList } : {}),
      ...(f.assessment ? { assessment: f.assessment } : {}),
      ...(f.confirmation ? { confirmation: f.confirmation } : {}),
      ...(f.identityNote ? { identityNote: f.identityNote } : {}),
    });
  });
  return computeRiskScore({ hits, additional, ...(unsearched.length ? { unsearched: [...unsearched] } : {}) });
}

export function decideVerdict(findings: readonly VerdictFinding[], sources: readonly SourceCoverage[]): Verdict {
  const sourcesTotal = sources.length;
  const sourcesChecked = sources.filter((s) => s.searched).length;
  const coverage = sourcesTotal > 0 ? sourcesChecked / sourcesTotal : 0;
  const pct = `${Math.round(coverage * 100)} %`;
  const missingCritical = CRITICAL_SOURCES.filter((name) => !sources.some((s) => s.agent === name && s.searched));
  const redFlagCount = findings.filter((f) => f.severity === 'red_flag').length;
  const warningCount = findings.filter((f) => f.severity === 'warning').length;
  // Fail closed (issue 27 §4): a check whose sanctions list was not searched (an error, a timeout) is at least high.
  const sanctions = sources.find((s) => s.agent === SANCTIONS_SOURCE);
  const risk = assessPersonRisk(findings, sanctions && !sanctions.searched ? [{ source: SANCTIONS_SOURCE, reason: 'not searched (the source failed or timed out)' }] : []);
  const riskScore = risk.riskScore;
  const reasons: string[] = [`${sourcesChecked} of ${sourcesTotal} sources searched (coverage ${pct})`];
  let result: Verdict['result'];
  let confidence: Verdict['confidence'];

  const adverse = findings.filter(isAdverse);
  if (adverse.length > 0) {
    result = 'adverse_found';
    const byDob = adverse.some((f) => f.corroboration === 'name_dob');
    confidence = byDob && coverage >= MIN_COVERAGE_FOR_CLEAN ? 'high' : 'medium';
    reasons.push(`${adverse.length} adverse finding(s) (red flags, or warnings corroborated by date of birth or location)`);
    reasons.push(
      byDob
        ? coverage >= MIN_COVERAGE_FOR_CLEAN
          ? 'an adverse finding is tied by name and date of birth and at least half of the sources were searched: high confidence'
          : 'an adverse finding is tied by name and date of birth, but fewer than half of the sources were searched: medium confidence'
        : 'no adverse finding is tied by date of birth: medium confidence',
    );
  } else if (warningCount > 0) {
    result = 'inconclusive';
    confidence = coverage >= MIN_COVERAGE_FOR_CLEAN ? 'medium' : 'low';
    reasons.push(`${warningCount} possible record(s) matched on name only: confirm identity before relying on them`);
  } else if (coverage >= MIN_COVERAGE_FOR_CLEAN && missingCritical.length === 0) {
    result = 'clean';
    confidence = coverage >= HIGH_CONFIDENCE_COVERAGE ? 'high' : 'medium';
    reasons.push(`no red flag or warning in the sources searched; ${confidence} confidence at coverage ${pct}`);
  } else {
    result = 'inconclusive';
    confidence = coverage >= MIN_COVERAGE_FOR_CLEAN ? 'medium' : 'low';
    if (coverage < MIN_COVERAGE_FOR_CLEAN) reasons.push('no red flag or warning, but fewer than half of the sources could be searched: not enough to call the subject clean');
    if (missingCritical.length > 0) reasons.push(`not searched: ${missingCritical.join(', ')} (required for a clean result)`);
  }
  reasons.push(`risk: ${risk.reason}`);
  return { result, confidence, riskScore, riskLevel: risk.riskLevel, redFlagCount, warningCount, sourcesChecked, sourcesTotal, coverage, reasons, breakdown: risk.breakdown };
}
