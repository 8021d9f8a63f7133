/**
 * What a workflow (screening, person check, subject check) declares, for the one engine that runs
 * them all (runner.ts). A definition is data plus small pure builders: its phases (which agents, in
 * which order, where they run, under which timeout), the event that starts a run, the commands that
 * record its progress, and how the supervisor treats a run that is late. The engine does the rest:
 * consuming the bus, the load–decide–append loop (src/commands/command-handler.ts), running agents
 * here or sending them to workers, and the deadlines.
 */
import type { AgentAnswer as RecordedAnswer, Command, Decider } from '../../commands/decider';
import type { PhaseMode, PhaseProgressView } from '../../commands/workflow';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { AvroRegistry } from '../../infrastructure/bus/avro';
import type { MessageBus } from '../../infrastructure/bus/port';
import type { Clock } from '../../shared/clock';
import type { Event, RecordedEvent } from '../../shared/events';
import type { Logger } from '../../shared/logger';
import type { Telemetry } from '../../infrastructure/telemetry/telemetry';
import type { AgentSubject } from '../runtime/agent';
import type { SupervisedKind } from '../orchestrator/supervisor';

/** One phase as a workflow declares it (the agents a run actually gets come from its state: tier and plan gates). */
export interface PhaseDeclaration {
  phase: string;
  mode: PhaseMode;
  /**
   * workers: an AgentTask on the agent's topic, answered on svc.agents.results; here: in this process
   * (runHere); workers_when_served: on workers when this deployment serves the agent there, else here
   * (the definition's `placement` decides).
   */
  runsOn: 'workers' | 'here' | 'workers_when_served';
  /** What records an agent's answer, and what ends the phase (for the reader: the engine follows the state). */
  emits: string;
  completedBy: string;
  /** Time an agent run here may take, handed to runHere (undefined: a step computed here, no timeout). */
  agentTimeoutMs?: number;
  /**
   * A phase run here (runsOn 'here') recorded whole in its completion: as it starts, the engine runs its
   * agents one after the other in plan order (each sees the answers before its own in `answersBefore`)
   * and completes it with all their answers (commands.completePhase with `answers`), one event instead
   * of a start, one record per answer and a completion. A phase already started (by a version before
   * this) goes on one answer at a time.
   */
  recordedWhole?: boolean;
}

/** An agent's answer, as the engine hands it to the workflow's record command (the commands' own type, any phase). */
export type AgentAnswer = RecordedAnswer<string>;

/** What an agent run here produced (an agent that fails is not queried, with its error; a throw fails the step). */
export interface LocalOutcome {
  queried: boolean;
  error?: string;
  result: Record<string, unknown>;
}

/** A command the engine stamps: `step` makes its id (`<stream>:<step>`), so a repeated step appends nothing. */
export interface Decision<C extends Command> {
  step: string;
  command: Omit<C, 'metadata'>;
}

/** What the engine knows while it runs one step of one run. */
export interface RunContext<S> {
  id: string;
  stream: string;
  state: S;
  /** The stream as decided so far in this step (the events of this step included). */
  history: readonly RecordedEvent[];
  /** For runHere: the agent timeout its phase declares. */
  agentTimeoutMs?: number;
  /** For runHere in a phase recorded whole: the answers of the phase's agents run before this one in this step (not in `history`). */
  answersBefore?: readonly AgentAnswer[];
  /**
   * Scratch space of this step (decided again, it starts empty): what a definition computed from
   * `history` and wants again for the next agent of the step (the screening keeps its report fold).
   */
  memo: Map<string, unknown>;
}

/**
 * How the supervisor (src/agents/orchestrator/supervisor.ts) treats a running item of this workflow:
 * - phase_deadline: each phase records its deadline as it starts; past it the phase is expired (the
 *   decider re-dispatches within the retry budget, else records the missing agents as not queried);
 *   a run idle between steps for a whole deadline is resumed;
 * - stall: a run whose stream saw nothing for `afterMs` (and that this process is not running) is resumed;
 * - overall_deadline: `afterMs` after the run started, the agents that did not answer are recorded as
 *   not queried and the run concludes; this process also arms a timer for it when it dispatches.
 */
export type SupervisionPolicy =
  | { policy: 'phase_deadline'; deadlineMs: number; retryBudget: number; retriedBy: string }
  | { policy: 'stall'; afterMs: number }
  | { policy: 'overall_deadline'; afterMs: number };

export interface WorkflowDefinition<C extends Command, E extends Event, S> {
  kind: SupervisedKind;
  /** Stream prefix of the aggregate (`screening-`): the id is what follows. */
  streamPrefix: string;
  decider: Decider<C, E, S>;
  /** The phases, as data, in order. */
  phases: readonly PhaseDeclaration[];
  /** The event that starts a run (redelivered, it resumes it), relayed on the aggregate's events topic. */
  startedBy: E['type'];
  /** Bus consumption: the consumer group, and whether workers answer on svc.agents.results. */
  consumer: { groupId: string; answersFromWorkers: boolean; maxBatch?: number };
  supervision: SupervisionPolicy;
  /**
   * Record decisions as each phase's agents run here answer (true), or once the step waits
   * (false: one append per step, the agents' answers with it).
   */
  appendEachPhase: boolean;
  /**
   * Whether a phase none of whose agents can be queried is recorded together with the phases right
   * after it that cannot be queried either (one event for the run of them; startPhase's thenSkipped).
   * The engine then asks the agents of those phases answered here as the first one starts.
   */
  skipsTogether?: boolean;
  /** This run's phases and where they stand; `ended` once completed or failed, `none` if unknown. */
  progress(state: S): { status: 'none' | 'running' | 'ended'; phases: PhaseProgressView[] };
  /** Where one agent of a `workers_when_served` phase runs in this deployment. */
  placement?(phase: string, agent: string): 'workers' | 'here';
  /**
   * Agents of a parallel phase this run may not query, with the reason (a monthly quota used up),
   * asked as the phase starts: they are recorded as not queried with it, exactly like a source this
   * deployment cannot query, and never dispatched. Called again whenever the start is decided again
   * (a conflict, a crash, a redelivery), so it must answer the same for the same run.
   */
  withheld?(phase: string, agents: readonly string[], run: RunContext<S>): Promise<{ agent: string; error: string }[]>;
  /** Runs one agent here (a local source, a finaliser, a pure step of the workflow). */
  runHere(phase: string, agent: string, run: RunContext<S>): Promise<LocalOutcome>;
  /** The subject a worker receives in its AgentTask. */
  taskSubject(run: RunContext<S>): { subjectKind: string; subject: AgentSubject };
  commands: {
    /** undefined: the workflow does not use this agent (its answer is ignored). */
    recordResult(id: string, answer: AgentAnswer): Decision<C> | undefined;
    /**
     * For workflows that record phase starts (with the sources not queried, and the phase deadline);
     * with `skipsTogether`, also the phases right after a skipped one that are skipped too.
     */
    startPhase?(id: string, phase: string, notQueried: { agent: string; error: string }[], deadline: string, thenSkipped: { phase: string; notQueried: { agent: string; error: string }[] }[]): Decision<C>;
    /** `answers`: a phase recorded whole (PhaseDeclaration.recordedWhole), every agent's answer in plan order. */
    completePhase?(id: string, phase: string, answers?: AgentAnswer[]): Decision<C>;
    /** The run's conclusion, computed from its history. */
    complete(run: RunContext<S>): Decision<C>;
    /** phase_deadline only: expire an overdue phase. */
    expirePhase?(run: RunContext<S>, phase: string, retryDeadline: string): Decision<C>;
    fail?(id: string, reason: string): Decision<C>;
  };
  /** phase_deadline only: when the awaited phase must be over (ms since epoch). */
  phaseDeadline?(state: S, phase: string, fallbackFrom: string): number;
  /**
   * The reason to record when a step fails with this error (the run is then failed), or undefined to
   * let it propagate (the bus redelivers the message).
   */
  failureReason(error: unknown): string | undefined;
}

export interface WorkflowRunnerOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  clock: Clock;
  logger: Logger;
  /** The deadline an AgentTask carries (now + this). */
  agentTimeoutMs: number;
  /** The consume and agent hops (default: histograms only). */
  telemetry?: Telemetry;
}

/** What moves a run: answers to record, and whether to (re-)dispatch what is pending. */
export interface StepInput {
  answers: AgentAnswer[];
  dispatch: boolean;
  /** The supervisor's look: act if the run is overdue (see SupervisionPolicy). */
  supervise?: boolean;
  /** overall_deadline: this process's own timer fired: give up on the missing agents without a look at the clock. */
  expire?: boolean;
}
