/**
 * The subject-check process manager (S2): the workflow runner (src/agents/workflow/runner.ts) with
 * the subject-check workflow (src/agents/workflow/subject-check.ts). It reacts to SubjectCheckStarted
 * by sending one AgentTask per source to the agent workers, records each answer the workers publish
 * on `svc.agents.results`, and concludes the check once every source answered or its deadline passed.
 */
import type { AvroRegistry } from '../../infrastructure/bus/avro';
import type { MessageBus } from '../../infrastructure/bus/port';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { WorkflowRunner } from '../workflow/runner';
import { subjectCheckWorkflow, type SubjectCheckWorkflowOptions } from '../workflow/subject-check';
import type { Telemetry } from '../../infrastructure/telemetry/telemetry';

export { INTERNAL_FAILURE_MESSAGE } from '../workflow/subject-check';

export interface SubjectCheckOrchestratorOptions extends SubjectCheckWorkflowOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  clock: Clock;
  logger: Logger;
  /** The consume and agent hops (default: histograms only). */
  telemetry?: Telemetry;
}

export class SubjectCheckOrchestrator {
  readonly runner;

  constructor(options: SubjectCheckOrchestratorOptions) {
    this.runner = new WorkflowRunner(subjectCheckWorkflow(options), options);
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  /**
   * The supervisor's step (src/agents/orchestrator/supervisor.ts), for checks whose deadline timer was
   * lost with the process that armed it: a check still running once its sources' time (agent timeout
   * + grace, counted from SubjectCheckStarted) has passed is concluded without the sources that did
   * not answer, exactly as the timer would have.
   */
  supervise(id: string): Promise<'on_time' | 'ended' | 'gave_up'> {
    return this.runner.supervise(id) as Promise<'on_time' | 'ended' | 'gave_up'>;
  }
}
