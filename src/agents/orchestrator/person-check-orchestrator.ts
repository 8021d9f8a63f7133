/**
 * The person-check process manager: the workflow runner (src/agents/workflow/runner.ts) with the
 * person-check workflow (src/agents/workflow/person-check.ts). It reacts to PersonCheckRequested
 * (relayed from the event store to `svc.events.person`) and runs the seven phases, recording every
 * agent's result in the check's stream, then the corroborated findings and the verdict.
 */
import { streamName, type PersonCheckEvent } from '../../commands/person-check';
import type { AvroRegistry } from '../../infrastructure/bus/avro';
import type { MessageBus } from '../../infrastructure/bus/port';
import { eventTopicForStream } from '../../infrastructure/bus/topics';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { Logger } from '../../shared/logger';
import { personCheckWorkflow, type PersonCheckWorkflowOptions } from '../workflow/person-check';
import { WorkflowRunner } from '../workflow/runner';
import type { Telemetry } from '../../infrastructure/telemetry/telemetry';

export type { RecordedPersonResult } from '../workflow/person-check';

export const PERSON_CHECK_EVENTS_TOPIC = eventTopicForStream(streamName('SVC-00000000-P'));

export interface PersonCheckOrchestratorOptions extends PersonCheckWorkflowOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  logger: Logger;
  /** The consume and agent hops (default: histograms only). */
  telemetry?: Telemetry;
}

export class PersonCheckOrchestrator {
  readonly runner;

  constructor(options: PersonCheckOrchestratorOptions) {
    this.runner = new WorkflowRunner(personCheckWorkflow(options), options);
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  /** Stops consuming and waits for the checks this process is running. */
  stop(): Promise<void> {
    return this.runner.stop();
  }

  /**
   * The supervisor's step (src/agents/orchestrator/supervisor.ts): a running check whose stream saw
   * nothing for a whole deadline is resumed where it stopped (recorded results are kept; each agent
   * still runs under its own timeout, so the resumed run ends).
   */
  supervise(personCheckId: string): Promise<'on_time' | 'ended' | 'resumed'> {
    return this.runner.supervise(personCheckId) as Promise<'on_time' | 'ended' | 'resumed'>;
  }

  /** Runs (or resumes) one check to its end. Never throws for a check's own failure: it records it. */
  async run(personCheckId: string): Promise<void> {
    await this.runner.resume(personCheckId);
  }
}

export type { PersonCheckEvent };
