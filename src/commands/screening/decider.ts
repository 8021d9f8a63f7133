/**
 * Screening aggregate (S1/S3 CDD, EDD, M&A and S3 SOW share it), stream `screening-<id>`
 * with the numeric id; the S3 uuid is carried in ScreeningRequested.
 *
 * Lifecycle: none → running (ScreeningRequested) → completed | failed.
 * While running, phases start and complete in plan order and agent results are recorded
 * (idempotent per phase+agent); a phase none of whose agents this deployment can query is
 * skipped in one event. Once completed: analyst dispositions and ongoing monitoring.
 * See docs/domain.md for every rule.
 *
 * One decide and one evolve, composed from the concerns: lifecycle.ts (request, pipeline phases,
 * agent results, completion), case-desk.ts (dispositions, assignment) and monitoring.ts (enrolment,
 * alerts). Each concern switches over its own commands and events with a `never` guard, and so does
 * this router, so a new command or event fails to compile until it is routed. The types are in
 * model.ts (values), messages.ts (commands, events) and state.ts (state, shared rules).
 */
import { assertNever } from '../../shared/events';
import type { Decider } from '../decider';
import { decideCaseDesk, evolveCaseDesk } from './case-desk';
import { decideLifecycle, evolveLifecycle } from './lifecycle';
import type { ScreeningCommand, ScreeningEvent } from './messages';
import { decideMonitoring, evolveMonitoring } from './monitoring';
import { initialState, type ScreeningState } from './state';

export * from './model';
export * from './messages';
export * from './state';

export function decide(command: ScreeningCommand, state: ScreeningState): ScreeningEvent[] {
  switch (command.type) {
    case 'RequestScreening':
    case 'StartPhase':
    case 'ExpirePhase':
    case 'RecordAgentResult':
    case 'CompletePhase':
    case 'CompleteScreening':
    case 'FailScreening':
      return decideLifecycle(command, state);
    case 'DispositionHit':
    case 'DispositionHits':
    case 'AssignCase':
    case 'UnassignCase':
      return decideCaseDesk(command, state);
    case 'EnrollInMonitoring':
    case 'UnenrollFromMonitoring':
    case 'RecordMonitoringAlert':
      return decideMonitoring(command, state);
    default:
      return assertNever(command, 'screening command');
  }
}

export function evolve(state: ScreeningState, event: ScreeningEvent): ScreeningState {
  switch (event.type) {
    case 'ScreeningRequested':
    case 'PhaseStarted':
    case 'PhaseSkipped':
    case 'PhaseRetried':
    case 'AgentResultRecorded':
    case 'PhaseCompleted':
    case 'ScreeningCompleted':
    case 'ScreeningFailed':
      return evolveLifecycle(state, event);
    case 'HitDispositioned':
    case 'RiskRecomputed':
    case 'CaseAssigned':
    case 'CaseUnassigned':
      return state.status === 'none' ? state : evolveCaseDesk(state, event);
    case 'MonitoringEnrolled':
    case 'MonitoringUnenrolled':
    case 'MonitoringAlertRaised':
    case 'HitReopened':
      return state.status === 'none' ? state : evolveMonitoring(state, event);
    default:
      return assertNever(event, 'screening event');
  }
}

export const screeningDecider: Decider<ScreeningCommand, ScreeningEvent, ScreeningState> = { decide, evolve, initialState };
