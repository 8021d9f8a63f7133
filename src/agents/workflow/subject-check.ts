/**
 * The subject-check workflow (S2), declared for the workflow runner: one phase, the five list
 * sources (SUBJECT_CHECK_SOURCES, the same workers as the screenings' phase 1) asked at once; when
 * every source answered, the check is concluded with the coverage and tier scores derived from the
 * findings (src/commands/subject-check/assessment.ts; the decider applies the conclusion rule).
 *
 * A source that has not answered by the deadline (agent timeout + grace, counted from the start) is
 * recorded as not searched ("no answer"), and the check is concluded on the sources that did answer.
 * An internal error while recording or concluding (a malformed result, a decision the decider
 * refuses) fails the check with an error_message that names no internals; errors of the store itself
 * propagate so the bus redelivers the message.
 */
import { assess, SUBJECT_CHECK_SOURCES, type AgentResultInput } from '../../commands/subject-check/assessment';
import {
  investigationIdFor,
  subjectCheckDecider,
  type SubjectCheckAgentResultRecorded,
  type SubjectCheckCommand,
  type SubjectCheckEvent,
  type SubjectCheckStarted,
  type SubjectCheckState,
} from '../../commands/subject-check';
import { DomainError } from '../../commands/errors';
import type { AgentSubject } from '../runtime/agent';
import type { WorkflowDefinition } from './definition';
import { UndecodableAnswer } from './answers';

/** What an integrator reads in error_message: no internals. */
export const INTERNAL_FAILURE_MESSAGE = 'Internal error while processing the source results; the check could not be completed.';

const PHASE = 'subject_check';

/** Errors of the check's own processing (bad data, refused decisions), as opposed to store or bus outages. */
function isProcessingError(error: unknown): boolean {
  return (
    error instanceof DomainError ||
    error instanceof SyntaxError ||
    error instanceof TypeError ||
    error instanceof UndecodableAnswer ||
    (error instanceof Error && error.name === 'MalformedAgentResult')
  );
}

export interface SubjectCheckWorkflowOptions {
  agentTimeoutMs: number;
  /**
   * How long after a source's own timeout its answer may still arrive before the check is concluded
   * without it (default 5 s). The workers time out themselves; this covers a worker lost after taking
   * the task, so that no check stays running for ever.
   */
  answerGraceMs?: number;
}

export function subjectCheckWorkflow(options: SubjectCheckWorkflowOptions): WorkflowDefinition<SubjectCheckCommand, SubjectCheckEvent, SubjectCheckState> {
  const waitMs = options.agentTimeoutMs + (options.answerGraceMs ?? 5_000);
  const agents = SUBJECT_CHECK_SOURCES.map((s) => s.agent);
  return {
    kind: 'subject_check',
    streamPrefix: 'subject-check-',
    decider: subjectCheckDecider,
    phases: [{ phase: PHASE, mode: 'parallel', runsOn: 'workers', emits: 'SubjectCheckAgentResultRecorded', completedBy: 'SubjectCheckCompleted | SubjectCheckReviewRequired | SubjectCheckEscalated' }],
    startedBy: 'SubjectCheckStarted',
    consumer: { groupId: 'svc-subject-check-orchestrator', answersFromWorkers: true },
    supervision: { policy: 'overall_deadline', afterMs: waitMs },
    appendEachPhase: false,
    progress(state) {
      if (state.status === 'none') return { status: 'none', phases: [] };
      if (state.status !== 'running') return { status: 'ended', phases: [] };
      const answered = (agent: string) => state.agents.includes(agent);
      return { status: 'running', phases: [{ phase: PHASE, agents, mode: 'parallel', status: agents.every(answered) ? 'completed' : 'running', answered }] };
    },
    runHere: () => Promise.reject(new Error('a subject check runs no agent here')),
    taskSubject(run) {
      const d = (run.history[0] as unknown as SubjectCheckStarted).data;
      const subject: AgentSubject = {
        workflow: run.stream,
        accountId: d.accountId,
        name: [d.firstName, d.middleName, d.lastName].filter((part) => part !== undefined && part !== '').join(' '),
        entityType: 'individual',
        ...(d.locations[0]?.country ? { jurisdiction: d.locations[0].country } : {}),
        ...(d.dateOfBirth ? { birthDate: d.dateOfBirth } : {}),
        ...(d.nationality ? { nationality: d.nationality } : {}),
        ...(d.identifiers?.length ? { identifiers: d.identifiers } : {}),
        ...(d.phone ? { phone: d.phone } : {}),
        ...(d.email ? { email: d.email } : {}),
        ...(d.address ? { address: d.address } : {}),
        locations: d.locations.map((l) => l.country),
      };
      return { subjectKind: 'subject_check', subject };
    },
    commands: {
      recordResult(subjectCheckId, a) {
        const source = SUBJECT_CHECK_SOURCES.find((s) => s.agent === a.agent);
        if (!source) return undefined;
        const { phase: _phase, ...answer } = a;
        return { step: `result:${a.agent}`, command: { type: 'RecordAgentResult', data: { subjectCheckId, ...answer, tier: source.tier } } };
      },
      complete(run) {
        const results: AgentResultInput[] = run.history
          .filter((e) => e.type === 'SubjectCheckAgentResultRecorded')
          .map((e) => (e as unknown as SubjectCheckAgentResultRecorded).data);
        const assessment = assess(results, SUBJECT_CHECK_SOURCES.length);
        return {
          step: 'conclude',
          command: {
            type: 'ConcludeSubjectCheck',
            data: {
              subjectCheckId: run.id,
              overallResult: assessment.overallResult,
              confidenceLevel: assessment.confidenceLevel,
              findingsCount: assessment.findingsCount,
              redFlagCount: assessment.redFlagCount,
              warningCount: assessment.warningCount,
              sourcesSearched: assessment.sourcesSearched,
              sourcesTotal: assessment.sourcesTotal,
              tierScores: assessment.tierScores,
              bestHitAmbiguous: assessment.bestHitAmbiguous,
              investigationId: investigationIdFor(run.id),
            },
          },
        };
      },
      fail: (subjectCheckId) => ({ step: 'fail', command: { type: 'FailSubjectCheck', data: { subjectCheckId, errorMessage: INTERNAL_FAILURE_MESSAGE } } }),
    },
    failureReason: (error) => (isProcessingError(error) ? INTERNAL_FAILURE_MESSAGE : undefined),
  };
}
