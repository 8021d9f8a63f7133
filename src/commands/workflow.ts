/**
 * The one progression rule of every workflow (screenings, person checks, subject checks), as a pure
 * function: given a run's phases in order and where each stands, what must happen next. The
 * screening decider asks it whether a phase may start or the screening complete; the workflow
 * runner (src/agents/workflow/runner.ts) asks it what to do after every event.
 *
 * A workflow whose phases have no recorded start or end (person and subject checks) shows each
 * phase as `running` until all its agents answered and `completed` after: the rule then never asks
 * for a start or an end, only for agents and, at last, for the completion.
 */

/** parallel: all agents dispatched at once; sequential: one after the other, in order. */
export type PhaseMode = 'parallel' | 'sequential';

export interface PhaseProgressView<P extends string = string> {
  phase: P;
  agents: readonly string[];
  mode: PhaseMode;
  /** not_started: its start is still to be recorded; completed: its end is recorded. */
  status: 'not_started' | 'running' | 'completed';
  /** Whether this agent's result (or its absence) is recorded for this phase. */
  answered(agent: string): boolean;
}

export type WorkflowStep<P extends string = string> =
  | { action: 'start_phase'; phase: P; agents: string[]; mode: PhaseMode }
  /** Run these agents (all pending ones when parallel, the next one when sequential) and wait for them. */
  | { action: 'dispatch'; phase: P; agents: string[]; pending: string[] }
  | { action: 'complete_phase'; phase: P }
  | { action: 'complete' };

/** The next step of a running workflow: the first phase not completed decides it. */
export function nextWorkflowStep<P extends string>(phases: readonly PhaseProgressView<P>[]): WorkflowStep<P> {
  for (const p of phases) {
    if (p.status === 'completed') continue;
    if (p.status === 'not_started') return { action: 'start_phase', phase: p.phase, agents: [...p.agents], mode: p.mode };
    const pending = p.agents.filter((agent) => !p.answered(agent));
    if (pending.length === 0) return { action: 'complete_phase', phase: p.phase };
    return { action: 'dispatch', phase: p.phase, agents: p.mode === 'sequential' ? pending.slice(0, 1) : pending, pending };
  }
  return { action: 'complete' };
}
