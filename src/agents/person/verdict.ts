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
 * risk_score: per red flag 70 (sanctions, debarment), 50 (criminal, sex offender) or 45 (other);
 * per warning 15 when corroborated, 8 when name-only; info 0; capped at 100. risk_level follows
 * the S1 scale (low 0-19, medium 20-44, high 45-69, critical 70-100).
 */
import type { PersonFinding } from '../../commands/person-check';
import { riskLevelForScore, type RiskLevel } from '../../commands/plans';

export const CRITICAL_SOURCES = ['federal_courts', 'sanctions_list'] as const;
export const MIN_COVERAGE_FOR_CLEAN = 0.5;
export const HIGH_CONFIDENCE_COVERAGE = 0.8;

export interface SourceCoverage {
  agent: string;
  searched: boolean;
}

export interface Verdict {
  result: 'clean' | 'adverse_found' | 'inconclusive';
  confidence: 'high' | 'medium' | 'low';
  riskScore: number;
  riskLevel: RiskLevel;
  redFlagCount: number;
  warningCount: number;
  sourcesChecked: number;
  sourcesTotal: number;
  coverage: number;
  /** The rule steps that decided, in words, for the report and the auditors. */
  reasons: string[];
}

function isAdverse(f: Pick<PersonFinding, 'severity' | 'corroboration'>): boolean {
  return f.severity === 'red_flag' || (f.severity === 'warning' && f.corroboration !== 'name_only');
}

export function riskScoreOf(findings: readonly Pick<PersonFinding, 'severity' | 'corroboration' | 'category'>[]): number {
  let score = 0;
  for (const f of findings) {
    if (f.severity === 'red_flag') score += f.category === 'sanctions' || f.category === 'debarment' ? 70 : f.category === 'criminal' || f.category === 'sex_offender' ? 50 : 45;
    else if (f.severity === 'warning') score += f.corroboration === 'name_only' ? 8 : 15;
  }
  return Math.min(100, score);
}

export function decideVerdict(findings: readonly Pick<PersonFinding, 'severity' | 'corroboration' | 'category'>[], sources: readonly SourceCoverage[]): Verdict {
  const sourcesTotal = sources.length;
  const sourcesChecked = sources.filter((s) => s.searched).length;
  const coverage = sourcesTotal > 0 ? sourcesChecked / sourcesTotal : 0;
  const pct = `${Math.round(coverage * 100)} %`;
  const missingCritical = CRITICAL_SOURCES.filter((name) => !sources.some((s) => s.agent === name && s.searched));
  const redFlagCount = findings.filter((f) => f.severity === 'red_flag').length;
  const warningCount = findings.filter((f) => f.severity === 'warning').length;
  const riskScore = riskScoreOf(findings);
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
  return { result, confidence, riskScore, riskLevel: riskLevelForScore(riskScore), redFlagCount, warningCount, sourcesChecked, sourcesTotal, coverage, reasons };
}
