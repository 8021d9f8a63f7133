/**
 * Screening aggregate: the state every concern folds into, and the rules the concerns share
 * (risk validation, the status a command requires, the RiskRecomputed a changed hit causes).
 */
import { type Issues, IllegalTransition, NotFound } from '../errors';
import { isInteger, isNonEmptyText } from '../decider';
import { type Plan, type RiskLevel, riskLevelForScore } from '../plans';
import { nextPipelineStep, type PhasePlan, type PipelinePhase, type PipelineStep, type ScreeningKind } from './pipeline';
import type { ScreeningCommand, RequestScreening, RiskRecomputed, ScreeningEvent } from './messages';
import type { ScreeningHit, ScreeningSubject, ScreeningSurface } from './model';

// ---- state ----
export type HitStatus = 'open' | 'needs_more_information' | 'true_match' | 'false_positive' | 'removed';
/** Hits still to be decided: open ones and those waiting for more information. */
export function isUndecided(status: HitStatus): boolean {
  return status === 'open' || status === 'needs_more_information';
}
/** Hits that count toward risk: undecided ones and true matches (a false positive or a removal does not). */
export function countsTowardRisk(status: HitStatus): boolean {
  return isUndecided(status) || status === 'true_match';
}
export interface HitState extends ScreeningHit {
  status: HitStatus;
  /** Entity hash the analyst cleared (false positives re-open only when the record changes). */
  dispositionRecordHash?: string;
}

export interface RequestedScreening {
  status: 'running' | 'completed' | 'failed';
  screeningId: string;
  uuid: string;
  accountId: string;
  kind: ScreeningKind;
  surface: ScreeningSurface;
  plan: Plan;
  subject: ScreeningSubject;
  sowScreeningId?: string;
  monitorOnCompletion: boolean;
  /** The account's internal-list versions pinned at request time (ScreeningRequested.internalListVersions). */
  internalListVersions?: string[];
  pipeline: PhasePlan[];
  phases: Partial<Record<PipelinePhase, PhaseProgress>>;
  /** `${phase}/${agent}` → queried */
  recorded: Record<string, { queried: boolean }>;
  riskScore?: number;
  riskLevel?: RiskLevel;
  /**
   * The summary as last recorded (completion, or a re-score that carried one): a monitoring alert
   * that changes only the summary's count of matches still records a RiskRecomputed with it, so the
   * list read models, which keep no hits, show what the detail shows.
   */
  summary?: string;
  hits: Record<string, HitState>;
  monitoring: boolean;
  alertIds: string[];
  /** The user the case is assigned to (CaseAssigned); absent when nobody holds it. */
  assigneeUserId?: string;
}
export type ScreeningState = { status: 'none' } | RequestedScreening;

export interface PhaseProgress {
  status: 'running' | 'completed';
  /** When the current attempt must be over (absent in streams recorded before deadlines). */
  deadline?: string;
  /** When the phase started (the fallback deadline's base for streams without one). */
  startedAt?: string;
  /** Re-dispatches so far (PhaseRetried); absent = none. Not kept once the phase completed. */
  retries?: number;
}

export function initialState(): ScreeningState {
  return { status: 'none' };
}

/** The process manager's next step for this screening (see pipeline.ts). */
export function nextStep(state: ScreeningState): PipelineStep {
  if (state.status === 'none') return nextPipelineStep({ status: 'none', pipeline: [], phases: {}, recorded: {} });
  return nextPipelineStep(state);
}

/** Hits that count toward risk after dispositions and monitoring: open, needing more information, true matches. */
export function hitsCountingTowardRisk(state: ScreeningState): HitState[] {
  if (state.status === 'none') return [];
  return Object.values(state.hits).filter((h) => countsTowardRisk(h.status));
}

/** The longest summary a re-score may carry (the summary step writes a few sentences). */
const MAX_SUMMARY_LENGTH = 10_000;

/** A recomputed risk, and the summary that may come with a re-score (optional: absent keeps the recorded one). */
export function validateRisk(issues: Issues, score: unknown, level: unknown, summary?: unknown): void {
  issues.check(isInteger(score, 0, 100), 'risk_score', 'must be an integer 0-100');
  if (isInteger(score, 0, 100)) {
    issues.check(level === riskLevelForScore(score), 'risk_level', `must be ${riskLevelForScore(score)} for score ${score}`);
  }
  issues.check(summary === undefined || isNonEmptyText(summary, MAX_SUMMARY_LENGTH), 'summary', `must be 1-${MAX_SUMMARY_LENGTH} characters when given`);
}

export function requireExisting(command: Exclude<ScreeningCommand, RequestScreening>, state: ScreeningState): RequestedScreening {
  if (state.status === 'none') throw new NotFound('screening', command.data.screeningId);
  return state;
}

export function requireRunning(command: ScreeningCommand, state: RequestedScreening): void {
  if (state.status !== 'running') throw new IllegalTransition('screening', state.status, command.type);
}

export function requireCompleted(command: ScreeningCommand, state: RequestedScreening): void {
  if (state.status !== 'completed') throw new IllegalTransition('screening', state.status, command.type);
}
export type BareEvent = { type: ScreeningEvent['type']; data: ScreeningEvent['data'] };

export function riskRecomputed(
  s: RequestedScreening,
  ids: { screeningId: string; accountId: string },
  riskScore: number,
  riskLevel: RiskLevel,
  cause: 'disposition' | 'monitoring_alert',
  now: string,
  statusOverride: Record<string, HitStatus>,
  summary?: string,
): { type: 'RiskRecomputed'; data: RiskRecomputed['data'] } {
  const counting = Object.values(s.hits)
    .map((h) => ({ id: h.hitId, status: statusOverride[h.hitId] ?? h.status }))
    .filter((h) => countsTowardRisk(h.status))
    .map((h) => h.id);
  return {
    type: 'RiskRecomputed',
    data: {
      ...ids,
      previousRiskScore: s.riskScore ?? 0,
      previousRiskLevel: s.riskLevel ?? 'low',
      riskScore,
      riskLevel,
      countingHitIds: counting,
      cause,
      recomputedAt: now,
      ...(summary !== undefined ? { summary } : {}),
    },
  };
}
