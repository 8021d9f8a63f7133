/**
 * The screening workflow, declared for the workflow runner: the S1/S3 phase table (phases 0-5, with
 * their tier gates, in src/commands/screening/pipeline.ts; the plan a screening gets is stored in its
 * ScreeningRequested), where each agent runs (workers over the bus; finalisers and the sources this
 * deployment cannot query, here), the commands that record progress, and the phase deadlines the
 * supervisor enforces (PhaseStarted carries the deadline; ExpirePhase re-dispatches within the retry
 * budget, then records the missing agents as not queried).
 */
import {
  answersRecordedBy,
  type ListVersionRef,
  type PipelinePhase,
  phaseTable,
  pipelinePhases,
  resultKey,
  type ScreeningCommand,
  type ScreeningEvent,
  type ScreeningRequested,
  type ScreeningState,
  screeningDecider,
} from '../../commands/screening';
import { NotFound } from '../../commands/errors';
import type { RiskLevel } from '../../commands/plans';
import { failClosedVerdict } from '../../reports/risk-score';
import type { Clock } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import { hitListIds } from '../../reports/hit-lists';
import { allHits, buildScreeningReport, finishReport, foldAgentAnswer, foldReportEvent, type ReportContext, type ScreeningReportFold, startReport } from '../../projections/screening-report';
import type { ScreeningReport } from '../../reports/model';
import { finalisers, type FinalisationContext } from '../finalisation/finalisers';
import { internalListsOfResult } from '../lists/internal-lists';
import { runAgent, type Agent, type AgentSubject } from '../runtime/agent';
import { agentSubjectOfScreening } from '../runtime/screening-subject';
import { withheldOffshoreLeakCheck, type OffshoreLeakCheckPort } from './offshore-leak-checks';
import type { LocalOutcome, PhaseDeclaration, RunContext, WorkflowDefinition } from './definition';

export interface ScreeningWorkflowOptions {
  clock: Clock;
  /** Agents answered by workers over the bus (those this deployment can query). */
  remoteAgents: ReadonlySet<string>;
  /** Agents run here: sources this deployment cannot query through workers (they answer at once). */
  localAgents?: ReadonlyMap<string, Agent>;
  finalisation: FinalisationContext;
  agentLabels: Record<string, string>;
  /** The list versions and matcher version in service, recorded in ScreeningCompleted. */
  engineVersions: () => { listVersions: ListVersionRef[]; matcherVersion: string };
  agentTimeoutMs: number;
  /** How long a phase may run (recorded in PhaseStarted as its deadline). */
  phaseDeadlineMs: number;
  /** Re-dispatches of an overdue phase before its missing agents are recorded as not queried. */
  retryBudget: number;
  /** The accounts' monthly offshore-leak checks (S3 Enterprise), used as phase 1 starts (./offshore-leak-checks.ts). */
  offshoreLeakChecks: OffshoreLeakCheckPort;
}

export const SCREENING_STREAM_PREFIX = 'screening-';

/**
 * The phases as the runner reads them: phase 5 (finalisation) runs here, one agent after the other,
 * and is recorded whole: one PhaseCompleted carrying its results (v2).
 */
export function screeningPhases(options: Pick<ScreeningWorkflowOptions, 'agentTimeoutMs' | 'phaseDeadlineMs'>): PhaseDeclaration[] {
  return pipelinePhases.map((phase) =>
    phase === '5'
      ? { phase, mode: phaseTable[phase].mode, runsOn: 'here', recordedWhole: true, emits: 'PhaseCompleted.results', completedBy: 'PhaseCompleted (the same event)' }
      : {
          phase,
          mode: phaseTable[phase].mode,
          runsOn: 'workers_when_served',
          emits: 'AgentResultRecorded',
          completedBy: 'PhaseCompleted (or PhaseSkipped when no agent of the phase can be queried: one for a run of such phases)',
          agentTimeoutMs: options.agentTimeoutMs,
        },
  );
}

function subjectOf(stream: string, state: ScreeningState): AgentSubject {
  if (state.status === 'none') throw new NotFound('screening', stream);
  // The internal-list versions pinned at request time: a run resumed after a list changed screens the same entries.
  return agentSubjectOfScreening(state.subject, { workflow: stream, accountId: state.accountId, ...(state.internalListVersions ? { internalListVersions: state.internalListVersions } : {}) });
}

/** What an agent's answers recorded in the history carry (AgentResultRecorded, or a PhaseCompleted's results). */
function resultsOf(history: readonly RecordedEvent[], agent: string): Record<string, unknown>[] {
  return history.flatMap((e) => answersRecordedBy(e).filter((a) => a.agent === agent).map((a) => a.result ?? {}));
}

/** What the memo keeps of a step: its report fold, how many of the history's events and of the answers before are folded in. */
interface KeptFold {
  fold: ScreeningReportFold;
  events: number;
  answers: number;
}
const REPORT_FOLD = 'screening-report-fold';

/**
 * The report a finalisation step reads: the history and the phase's answers before its own. The fold is
 * kept in the step's memo and taken further for each finaliser (finishReport leaves it as it was), so a
 * step folds the screening once, not once per finaliser; answers folded ahead of the history (a
 * phase recorded whole) make a history that grew since be folded afresh.
 */
function finaliserReport(run: RunContext<ScreeningState>, context: ReportContext): ScreeningReport {
  const answers = run.answersBefore ?? [];
  let kept = run.memo.get(REPORT_FOLD) as KeptFold | undefined;
  if (!kept || kept.events > run.history.length || kept.answers > answers.length || (kept.answers > 0 && kept.events < run.history.length)) {
    const requested = run.history.find((e) => e.type === 'ScreeningRequested');
    if (!requested) throw new NotFound('screening', run.stream);
    kept = { fold: startReport(requested as RecordedEvent & ScreeningRequested), events: 0, answers: 0 };
    run.memo.set(REPORT_FOLD, kept);
  }
  for (; kept.events < run.history.length; kept.events++) foldReportEvent(kept.fold, run.history[kept.events]!);
  for (; kept.answers < answers.length; kept.answers++) foldAgentAnswer(kept.fold, answers[kept.answers]!);
  return finishReport(kept.fold, context);
}

export function screeningWorkflow(options: ScreeningWorkflowOptions): WorkflowDefinition<ScreeningCommand, ScreeningEvent, ScreeningState> {
  const reportContext = (): ReportContext => ({ agentLabels: options.agentLabels, matcherVersion: options.engineVersions().matcherVersion });

  /** A source answered in this process: a local agent (one this deployment cannot query), or none at all. */
  async function runSource(agent: string, run: RunContext<ScreeningState>): Promise<LocalOutcome> {
    const localAgent = options.localAgents?.get(agent);
    if (!localAgent) return { queried: false, error: `no agent serves ${agent} in this deployment`, result: {} };
    const timed = await runAgent(localAgent, subjectOf(run.stream, run.state), { timeoutMs: run.agentTimeoutMs ?? options.agentTimeoutMs, now: () => options.clock.now() });
    return timed.outcome.queried
      ? { queried: true, result: { hits: timed.outcome.hits, ...(timed.outcome.registry ? { registry: timed.outcome.registry } : {}), ...(timed.outcome.data ?? {}) } }
      : { queried: false, error: timed.outcome.error, result: {} };
  }

  return {
    kind: 'screening',
    streamPrefix: SCREENING_STREAM_PREFIX,
    decider: screeningDecider,
    phases: screeningPhases(options),
    startedBy: 'ScreeningRequested',
    // In batches: the agents of a phase answer at about the same time, and their answers for one
    // screening are then recorded in one append (one transaction) instead of one each.
    consumer: { groupId: 'svc-screening-orchestrator', answersFromWorkers: true, maxBatch: 64 },
    supervision: { policy: 'phase_deadline', deadlineMs: options.phaseDeadlineMs, retryBudget: options.retryBudget, retriedBy: 'PhaseRetried' },
    appendEachPhase: false,
    // Without outside sources configured, phases 1b-4 cannot be queried: one PhaseSkipped for the four.
    skipsTogether: true,
    progress(state) {
      if (state.status === 'none') return { status: 'none', phases: [] };
      if (state.status !== 'running') return { status: 'ended', phases: [] };
      return {
        status: 'running',
        phases: state.pipeline.map((plan) => ({
          phase: plan.phase,
          agents: plan.agents,
          mode: plan.mode,
          status: state.phases[plan.phase]?.status ?? 'not_started',
          answered: (agent: string) => state.recorded[resultKey(plan.phase, agent)] !== undefined,
        })),
      };
    },
    // Phases 0-4: on workers when this deployment can query the source there, else answered here at once.
    placement: (_phase, agent) => (options.remoteAgents.has(agent) ? 'workers' : 'here'),
    // A used-up monthly offshore-leak quota withholds that one agent; the screening runs every other source.
    withheld: (_phase, agents, run) => withheldOffshoreLeakCheck(options.offshoreLeakChecks, agents, run),
    async runHere(_phase, agent, run) {
      const finaliser = finalisers[agent];
      if (!finaliser) return runSource(agent, run);
      return finaliser(finaliserReport(run, reportContext()), options.finalisation).catch((error: unknown) => ({
        queried: false,
        error: error instanceof Error ? error.message : String(error),
        result: {},
      }));
    },
    taskSubject: (run) => ({ subjectKind: 'screening', subject: subjectOf(run.stream, run.state) }),
    commands: {
      recordResult: (screeningId, a) => ({
        step: `result:${a.phase}:${a.agent}`,
        command: { type: 'RecordAgentResult', data: { screeningId, ...a, phase: a.phase as PipelinePhase } },
      }),
      startPhase: (screeningId, phase, notQueried, deadline, thenSkipped) => ({
        step: `start:${phase}`,
        command: {
          type: 'StartPhase',
          data: {
            screeningId,
            phase: phase as PipelinePhase,
            ...(notQueried.length ? { notQueried } : {}),
            deadline,
            ...(thenSkipped.length ? { thenSkipped: thenSkipped.map((t) => ({ phase: t.phase as PipelinePhase, notQueried: t.notQueried })) } : {}),
          },
        },
      }),
      completePhase: (screeningId, phase, answers) => ({
        step: `complete:${phase}`,
        command: {
          type: 'CompletePhase',
          data: { screeningId, phase: phase as PipelinePhase, ...(answers ? { results: answers.map(({ phase: _phase, ...result }) => result) } : {}) },
        },
      }),
      expirePhase: (run, phase, retryDeadline) => ({
        step: `expire:${phase}:${(run.state.status === 'none' ? undefined : run.state.phases[phase as PipelinePhase]?.retries) ?? 0}`,
        command: { type: 'ExpirePhase', data: { screeningId: run.id, phase: phase as PipelinePhase, retryBudget: options.retryBudget, retryDeadline } },
      }),
      complete(run) {
        const history = [...run.history];
        const report = buildScreeningReport(history, reportContext())!;
        // Score and level both come from the scorer (src/reports/risk-score.ts), never re-derived here.
        // Without its answer (the scorer threw, phase 5 expired) the screening fails closed: never low.
        const riskPayload = resultsOf(history, 'risk_score').map((r) => (r as { assessment?: { riskScore: number; riskLevel: RiskLevel } }).assessment)[0];
        const { riskScore, riskLevel } = riskPayload ?? failClosedVerdict(report);
        const versions = options.engineVersions();
        // The account's internal-list versions the sanctions agent screened against (issue 21).
        const internalVersions = resultsOf(history, 'sanctions')
          .flatMap((result) => internalListsOfResult(result))
          .map((v): ListVersionRef => ({ id: v.versionId, source: 'internal_list', contentHash: v.contentHash, loadedAt: v.loadedAt }));
        return {
          step: 'complete',
          command: {
            type: 'CompleteScreening',
            data: {
              screeningId: run.id,
              riskScore,
              riskLevel,
              counts: {
                sanctionsHits: report.hits.sanctions.length,
                pepHits: report.hits.pep.length,
                adverseMediaHits: report.hits.adverse_media.length,
                offshoreLeaksHits: report.hits.offshore_leaks.length,
                debarmentHits: report.hits.debarment.length,
              },
              hits: allHits(report).map((h) => ({
                hitId: h.hitId,
                entityId: h.entityId,
                category: h.category,
                source: h.source,
                matchedName: h.matchedName,
                score: h.score,
                entityRecordHash: h.entityRecordHash ?? `external:${h.entityId}`,
                lists: hitListIds(h),
              })),
              ...(report.verdict.summary ? { summary: report.verdict.summary } : {}),
              ...(report.analysis ? { analysis: report.analysis.markdown } : {}),
              listVersions: [...versions.listVersions, ...internalVersions],
              matcherVersion: versions.matcherVersion,
            },
          },
        };
      },
    },
    /** Recorded in PhaseStarted/PhaseRetried, or start + the configured time for older streams. */
    phaseDeadline(state, phase, fallbackFrom) {
      const p = state.status === 'none' ? undefined : state.phases[phase as PipelinePhase];
      if (p?.deadline) return Date.parse(p.deadline);
      return Date.parse(p?.startedAt ?? fallbackFrom) + options.phaseDeadlineMs;
    },
    // A step that fails propagates: the bus redelivers the message (steps are idempotent).
    failureReason: () => undefined,
  };
}
