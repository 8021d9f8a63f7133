/**
 * The screening pipeline as data (the spec's S3 phase table with its tier gates) and the pure
 * process-manager step: given a screening's state, what must happen next.
 *
 * The phase plan is computed once, when the screening is requested, and stored in
 * ScreeningRequested: replaying an old stream never changes which agents it ran.
 */
import { type Plan, planAtLeast } from '../plans';
import { nextWorkflowStep, type PhaseMode } from '../workflow';

export type { PhaseMode };

export const screeningKinds = ['cdd', 'edd', 'ma', 'sow'] as const;
export type ScreeningKind = (typeof screeningKinds)[number];
export const entityTypes = ['individual', 'company', 'organization'] as const;
export type EntityType = (typeof entityTypes)[number];

export const pipelinePhases = ['0', '1', '1b', '2', '3', '4', '5'] as const;
export type PipelinePhase = (typeof pipelinePhases)[number];

export interface PhasePlan {
  phase: PipelinePhase;
  agents: string[];
  mode: PhaseMode;
}

export interface PipelineContext {
  kind: ScreeningKind;
  entityType: EntityType;
  plan: Plan;
}

/** Companies and organisations are the "companies" of the phase table (enrichment, financials). */
export function isCompanyLike(entityType: EntityType): boolean {
  return entityType !== 'individual';
}

interface AgentRule {
  agent: string;
  /** Lowest plan that runs it (the tier gate). */
  minPlan: Plan;
  companiesOnly?: boolean;
  kinds?: readonly ScreeningKind[];
}

/** One row per agent, grouped by phase, in dispatch order. */
export const phaseTable: Record<PipelinePhase, { mode: PhaseMode; agents: readonly AgentRule[] }> = {
  '0': { mode: 'parallel', agents: [{ agent: 'entity_enrichment', minPlan: 'starter', companiesOnly: true }] },
  '1': {
    mode: 'parallel',
    agents: [
      { agent: 'sanctions', minPlan: 'starter' },
      { agent: 'pep', minPlan: 'starter' },
      { agent: 'adverse_media', minPlan: 'starter' },
      { agent: 'offshore_leaks', minPlan: 'starter' },
      { agent: 'debarment', minPlan: 'starter' },
      { agent: 'osint', minPlan: 'starter' },
      { agent: 'public_company', minPlan: 'starter' },
    ],
  },
  '1b': {
    mode: 'parallel',
    agents: [
      { agent: 'company_registries', minPlan: 'essentials' },
      { agent: 'market_data', minPlan: 'essentials' },
    ],
  },
  '2': {
    mode: 'parallel',
    agents: [
      { agent: 'financial_due_diligence', minPlan: 'starter', companiesOnly: true },
      { agent: 'securities_filings', minPlan: 'starter', companiesOnly: true, kinds: ['ma'] },
      { agent: 'browser_verification', minPlan: 'essentials' },
      // SOW steps 5-9: corroboration sources, run in parallel.
      { agent: 'sow_employment', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_business_ownership', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_inheritance', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_investment_portfolio', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_property_registries', minPlan: 'starter', kinds: ['sow'] },
    ],
  },
  '3': {
    mode: 'parallel',
    agents: [
      { agent: 'litigation', minPlan: 'professional' },
      { agent: 'bankruptcy', minPlan: 'professional' },
      { agent: 'consumer_complaints', minPlan: 'professional' },
      { agent: 'esg', minPlan: 'professional' },
      { agent: 'adverse_media_engine', minPlan: 'professional' },
    ],
  },
  '4': {
    mode: 'parallel',
    agents: [
      { agent: 'arbitration', minPlan: 'enterprise' },
      { agent: 'web_archive', minPlan: 'enterprise' },
      { agent: 'beneficial_ownership', minPlan: 'enterprise' },
    ],
  },
  '5': {
    mode: 'sequential',
    agents: [
      { agent: 'country_risk', minPlan: 'starter' },
      // SOW steps 1-4 need the corroboration results, so they run in finalisation.
      { agent: 'sow_risk_tier', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_red_flags', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_jurisdiction_requirements', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'sow_attestation', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'risk_score', minPlan: 'starter' },
      { agent: 'merged_adverse_media', minPlan: 'starter' },
      { agent: 'data_gaps', minPlan: 'starter' },
      { agent: 'summary', minPlan: 'starter' },
      { agent: 'edd_analysis', minPlan: 'starter', kinds: ['edd'] },
      { agent: 'ma_analysis', minPlan: 'starter', kinds: ['ma'] },
      { agent: 'sow_analysis', minPlan: 'starter', kinds: ['sow'] },
      { agent: 'verification', minPlan: 'starter' },
    ],
  },
};

/**
 * M&A runs "the full CDD pipeline plus entity enrichment, market financial data, securities
 * filings, litigation and ESG" (S3): those agents run for M&A whatever the gates say.
 * (M&A is Enterprise-only, so in practice every gate is already open.)
 */
const maAlwaysRuns = new Set(['entity_enrichment', 'market_data', 'securities_filings', 'litigation', 'esg']);

/** The agents of one phase for this screening (empty = the phase is left out of the plan). */
export function agentsForPhase(phase: PipelinePhase, ctx: PipelineContext): string[] {
  return phaseTable[phase].agents
    .filter((rule) => {
      if (rule.kinds && !rule.kinds.includes(ctx.kind)) return false;
      if (ctx.kind === 'ma' && maAlwaysRuns.has(rule.agent)) return true;
      if (rule.companiesOnly && !isCompanyLike(ctx.entityType)) return false;
      return planAtLeast(ctx.plan, rule.minPlan);
    })
    .map((rule) => rule.agent);
}

/** The whole plan: non-empty phases in order. */
export function planPipeline(ctx: PipelineContext): PhasePlan[] {
  return pipelinePhases
    .map((phase) => ({ phase, agents: agentsForPhase(phase, ctx), mode: phaseTable[phase].mode }))
    .filter((p) => p.agents.length > 0);
}

/** What the pipeline knows about progress (a view of the screening state). */
export interface PipelineProgress {
  status: 'none' | 'running' | 'completed' | 'failed';
  pipeline: PhasePlan[];
  phases: Partial<Record<PipelinePhase, { status: 'running' | 'completed' }>>;
  /** keys `${phase}/${agent}` of recorded results */
  recorded: ReadonlySet<string> | Record<string, unknown>;
}

export type PipelineStep =
  | { action: 'none'; reason: 'not_requested' | 'completed' | 'failed' }
  | { action: 'start_phase'; phase: PipelinePhase; agents: string[]; mode: PhaseMode }
  /** Dispatch these agents (all pending ones when parallel, the next one when sequential) and wait. */
  | { action: 'dispatch'; phase: PipelinePhase; agents: string[]; pending: string[] }
  | { action: 'complete_phase'; phase: PipelinePhase }
  | { action: 'complete_screening' };

export function resultKey(phase: string, agent: string): string {
  return `${phase}/${agent}`;
}

function isRecorded(progress: PipelineProgress, key: string): boolean {
  const r = progress.recorded;
  return r instanceof Set ? r.has(key) : Object.prototype.hasOwnProperty.call(r, key);
}

/**
 * The process manager as a pure function (the one progression rule of src/commands/workflow.ts).
 * The workflow runner calls it after each event and issues the matching command (StartPhase,
 * CompletePhase, CompleteScreening) or dispatches agents. Dispatching twice is harmless:
 * RecordAgentResult is idempotent per agent and phase.
 */
export function nextPipelineStep(progress: PipelineProgress): PipelineStep {
  if (progress.status === 'none') return { action: 'none', reason: 'not_requested' };
  if (progress.status === 'completed') return { action: 'none', reason: 'completed' };
  if (progress.status === 'failed') return { action: 'none', reason: 'failed' };
  const step = nextWorkflowStep(
    progress.pipeline.map((plan) => ({
      phase: plan.phase,
      agents: plan.agents,
      mode: plan.mode,
      status: progress.phases[plan.phase]?.status ?? ('not_started' as const),
      answered: (agent: string) => isRecorded(progress, resultKey(plan.phase, agent)),
    })),
  );
  return step.action === 'complete' ? { action: 'complete_screening' } : step;
}
