/**
 * The screening process manager: the workflow runner (src/agents/workflow/runner.ts) with the
 * screening workflow (src/agents/workflow/screening.ts). It reacts to ScreeningRequested (relayed
 * from the event store) and to agent results (from `svc.agents.results`), records each result in the
 * screening's stream and moves the pipeline on; the supervisor expires overdue phases through it.
 */
import type { AgentResult, AvroRegistry } from '../../infrastructure/bus/avro';
import type { MessageBus } from '../../infrastructure/bus/port';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { Logger } from '../../shared/logger';
import { answerOf } from '../workflow/answers';
import { WorkflowRunner } from '../workflow/runner';
import { screeningWorkflow, type ScreeningWorkflowOptions } from '../workflow/screening';
import type { Telemetry } from '../../infrastructure/telemetry/telemetry';

export interface ScreeningOrchestratorOptions extends ScreeningWorkflowOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  logger: Logger;
  /** The consume and agent hops (default: histograms only). */
  telemetry?: Telemetry;
}

/** What the supervisor found (and did) for one screening. */
export type SupervisionOutcome = 'on_time' | 'retried' | 'gave_up' | 'resumed' | 'ended';

export class ScreeningOrchestrator {
  readonly runner;

  constructor(options: ScreeningOrchestratorOptions) {
    this.runner = new WorkflowRunner(screeningWorkflow(options), options);
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  /**
   * The supervisor's step for one running screening, decided from its stream: a phase past its
   * deadline is expired (re-dispatched within the retry budget, else its missing agents are recorded
   * as not queried); a screening stalled between steps for a whole deadline is moved on.
   */
  supervise(screeningId: string): Promise<SupervisionOutcome> {
    return this.runner.supervise(screeningId) as Promise<SupervisionOutcome>;
  }

  /** Moves one screening as far as it can go without waiting for a remote agent. */
  advance(screeningId: string, input: { results: AgentResult[]; dispatch: boolean; supervise?: boolean }): Promise<SupervisionOutcome> {
    return this.runner.advance(screeningId, {
      answers: input.results.map(answerOf),
      dispatch: input.dispatch,
      ...(input.supervise ? { supervise: true } : {}),
    }) as Promise<SupervisionOutcome>;
  }
}
