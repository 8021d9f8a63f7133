/**
 * The person-check process manager. It reacts to PersonCheckRequested (relayed from the event store
 * to `svc.events.person`) and runs the seven phases, recording every agent's result in the check's
 * stream, then the corroborated findings and the verdict (PersonCheckCompleted).
 *
 * - Phase 1 (standardisation) and phase 7 (corroboration and confidence) are pure steps computed
 *   here from the stream; phases 2-6 run the person agents, in parallel inside a phase, each under
 *   the per-agent timeout. A failing or timed-out agent is recorded as not queried, with its error.
 * - The person agents run in this process, next to the screening engine they share, rather than on
 *   the agent task topics: their names overlap the screening agents' topics (`bankruptcy`), and the
 *   list agents need the in-memory engine anyway.
 * - At-least-once safe: command ids derive from the check and the step, and the decider ignores a
 *   result recorded twice, so a redelivered PersonCheckRequested resumes where the last run stopped.
 */
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import {
  personCheckDecider,
  pendingAgents,
  streamName,
  type PersonCheckCommand,
  type PersonCheckEvent,
  type PersonCheckRequested,
  type PersonCheckState,
} from '../../commands/person-check';
import type { CommandMetadata } from '../../commands/decider';
import { EVENT_ENVELOPE, type AvroRegistry, type EventEnvelope } from '../../infrastructure/bus/avro';
import type { BusConsumer, MessageBus } from '../../infrastructure/bus/port';
import { eventTopicForStream } from '../../infrastructure/bus/topics';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { Clock } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import type { Logger } from '../../shared/logger';
import { buildFindings } from '../person/corroboration';
import { standardise } from '../person/standardise';
import type { PersonAgent, PersonAgentOutcome, PersonSubject, SourceRecord } from '../person/types';
import { decideVerdict } from '../person/verdict';

export const PERSON_CHECK_EVENTS_TOPIC = eventTopicForStream(streamName('SVC-00000000-P'));

export interface PersonCheckOrchestratorOptions {
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  clock: Clock;
  logger: Logger;
  agents: PersonAgent[];
  agentTimeoutMs: number;
  /**
   * A running check with no new event for this long is stalled (the process that ran it died):
   * the supervisor resumes it (default PIPELINE_PHASE_DEADLINE_MS's default, 45 s). Keep it above
   * agentTimeoutMs: a live phase records its results within one agent timeout.
   */
  stallDeadlineMs?: number;
}

/** What an agent's recorded result holds (PersonCheckAgentResultRecorded.result). */
export interface RecordedPersonResult {
  label?: string;
  records?: SourceRecord[];
  links?: { label: string; url: string }[];
  data?: Record<string, unknown>;
  durationMs?: number;
  subject?: PersonSubject;
  unresolvedLocations?: string[];
  findings?: unknown[];
  verdict?: unknown;
}

export class PersonCheckOrchestrator {
  private consumer: BusConsumer | undefined;
  private readonly agents: Map<string, PersonAgent>;
  /** Checks this process is running now (so the supervisor does not start a second run beside it). */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly options: PersonCheckOrchestratorOptions) {
    this.agents = new Map(options.agents.map((a) => [a.name, a]));
  }

  async start(): Promise<void> {
    this.consumer = await this.options.bus.subscribe(
      { groupId: 'svc-person-check-orchestrator', topics: [PERSON_CHECK_EVENTS_TOPIC], fromBeginning: true },
      async (message) => {
        const envelope = this.options.registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
        if (envelope.type !== 'PersonCheckRequested' || !envelope.streamName.startsWith('person-check-')) return;
        await this.run(envelope.streamName.slice('person-check-'.length));
      },
    );
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    await Promise.allSettled(this.inFlight.values());
  }

  /**
   * The supervisor's step (src/agents/orchestrator/supervisor.ts): a running check whose stream saw
   * nothing for a whole deadline is resumed where it stopped (recorded results are kept; each agent
   * still runs under its own timeout, so the resumed run ends).
   */
  async supervise(personCheckId: string): Promise<'on_time' | 'ended' | 'resumed'> {
    if (this.inFlight.has(personCheckId)) return 'on_time';
    const { state, events } = await this.load(personCheckId);
    if (state.status !== 'running') return 'ended';
    const last = events[events.length - 1];
    const deadline = Date.parse(last?.recordedAt ?? '') + (this.options.stallDeadlineMs ?? 45_000);
    if (this.options.clock.now().getTime() < deadline) return 'on_time';
    this.options.logger.warn({ personCheckId, events: events.length }, 'stalled person check resumed');
    void this.run(personCheckId);
    return 'resumed';
  }

  /** Runs (or resumes) one check to its end. Never throws for a check's own failure: it records it. */
  async run(personCheckId: string): Promise<void> {
    const running = this.inFlight.get(personCheckId);
    if (running) return running;
    const run = this.runOnce(personCheckId).finally(() => this.inFlight.delete(personCheckId));
    this.inFlight.set(personCheckId, run);
    return run;
  }

  private async runOnce(personCheckId: string): Promise<void> {
    try {
      await this.runPhases(personCheckId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.logger.error({ err: error, personCheckId }, 'person check pipeline failed');
      await this.command(personCheckId, 'fail', { type: 'FailPersonCheck', data: { personCheckId, reason: `pipeline error: ${reason}`.slice(0, 2000) } }).catch(
        (e: unknown) => this.options.logger.error({ err: e, personCheckId }, 'could not record the failure'),
      );
    }
  }

  private meta(personCheckId: string, step: string, correlationId?: string): CommandMetadata {
    return {
      now: this.options.clock.now().toISOString(),
      actor: { surface: 'system' },
      commandId: `${streamName(personCheckId)}:${step}`,
      ...(correlationId ? { correlationId } : {}),
    };
  }

  private async command(personCheckId: string, step: string, command: Omit<PersonCheckCommand, 'metadata'>, correlationId?: string) {
    return handleCommand(this.options.store, personCheckDecider, streamName(personCheckId), {
      ...command,
      metadata: this.meta(personCheckId, step, correlationId),
    } as PersonCheckCommand);
  }

  private async load(personCheckId: string): Promise<{ state: PersonCheckState; events: RecordedEvent[] }> {
    return loadAggregate(this.options.store, personCheckDecider, streamName(personCheckId));
  }

  private async record(personCheckId: string, phase: number, agent: string, outcome: PersonAgentOutcome & { label?: string }, started: string, durationMs: number, correlationId?: string) {
    const result: RecordedPersonResult = {
      ...(outcome.label ? { label: outcome.label } : {}),
      ...(outcome.queried ? { records: outcome.records, ...(outcome.data ? { data: outcome.data } : {}) } : {}),
      ...(outcome.links && outcome.links.length > 0 ? { links: outcome.links } : {}),
      durationMs,
    };
    await this.command(
      personCheckId,
      `result:${phase}:${agent}`,
      {
        type: 'RecordAgentResult',
        data: {
          personCheckId,
          phase,
          agent,
          queried: outcome.queried,
          ...(outcome.queried ? {} : { error: outcome.error.slice(0, 2000) || 'not queried' }),
          result: result as Record<string, unknown>,
          startedAt: started,
          finishedAt: this.options.clock.now().toISOString(),
        },
      },
      correlationId,
    );
  }

  private async runAgent(agent: PersonAgent, subject: PersonSubject, accountId: string): Promise<{ outcome: PersonAgentOutcome; started: string; durationMs: number }> {
    const started = this.options.clock.now().toISOString();
    const t0 = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<PersonAgentOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ queried: false, error: `timed out after ${this.options.agentTimeoutMs} ms` });
      }, this.options.agentTimeoutMs);
    });
    let outcome: PersonAgentOutcome;
    try {
      outcome = await Promise.race([agent.run(subject, { signal: controller.signal, now: () => this.options.clock.now(), accountId }), timeout]);
    } catch (error) {
      outcome = { queried: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
    return { outcome, started, durationMs: Math.round(performance.now() - t0) };
  }

  private async runPhases(personCheckId: string): Promise<void> {
    let { state, events } = await this.load(personCheckId);
    if (state.status !== 'running') return;
    const requested = events.find((e) => e.type === 'PersonCheckRequested') as unknown as PersonCheckRequested | undefined;
    if (!requested) return;
    const correlationId = requested.metadata.correlationId;
    const recordedResult = (phase: number, agent: string) =>
      events.find((e) => e.type === 'PersonCheckAgentResultRecorded' && (e.data as { phase: number; agent: string }).phase === phase && (e.data as { agent: string }).agent === agent)
        ?.data as { queried: boolean; result: RecordedPersonResult } | undefined;

    // Phase 1: standardisation.
    let subject = recordedResult(1, 'standardisation')?.result.subject;
    if (!subject) {
      const started = this.options.clock.now().toISOString();
      const d = requested.data;
      const { subject: standardised, unresolvedLocations } = standardise({
        personCheckId,
        purpose: d.purpose,
        fullName: d.fullName,
        ...(d.firstName ? { firstName: d.firstName } : {}),
        ...(d.middleName ? { middleName: d.middleName } : {}),
        ...(d.lastName ? { lastName: d.lastName } : {}),
        ...(d.dateOfBirth ? { dateOfBirth: d.dateOfBirth } : {}),
        aliases: d.aliases,
        locations: d.locations,
        ...(d.associatedDomain ? { associatedDomain: d.associatedDomain } : {}),
      });
      subject = standardised;
      await this.command(
        personCheckId,
        'result:1:standardisation',
        {
          type: 'RecordAgentResult',
          data: {
            personCheckId,
            phase: 1,
            agent: 'standardisation',
            queried: true,
            result: { label: 'Input standardisation (name variants, nicknames, date of birth, locations)', subject, unresolvedLocations, durationMs: 0 },
            startedAt: started,
            finishedAt: this.options.clock.now().toISOString(),
          },
        },
        correlationId,
      );
    }

    // Phases 2-6: the agents, phase by phase.
    for (const phase of [2, 3, 4, 5, 6]) {
      const names = (state.agents[String(phase)] ?? []).filter((name) => !recordedResult(phase, name));
      const outcomes = await Promise.all(
        names.map(async (name) => {
          const agent = this.agents.get(name);
          if (!agent) return { name, outcome: { queried: false, error: `no agent serves ${name} in this deployment` } as PersonAgentOutcome, started: this.options.clock.now().toISOString(), durationMs: 0, label: name };
          const run = await this.runAgent(agent, subject, requested.data.accountId);
          return { name, ...run, label: agent.label };
        }),
      );
      for (const o of outcomes) await this.record(personCheckId, phase, o.name, { ...o.outcome, label: o.label }, o.started, o.durationMs, correlationId);
    }

    // Phase 7: corroboration, confidence, verdict.
    ({ state, events } = await this.load(personCheckId));
    if (state.status !== 'running') return;
    const left = pendingAgents(state).filter((key) => key !== '7/corroboration');
    if (left.length > 0) throw new Error(`agents without a result: ${left.join(', ')}`);
    const results = events
      .filter((e) => e.type === 'PersonCheckAgentResultRecorded')
      .map((e) => e.data as { phase: number; agent: string; queried: boolean; result: RecordedPersonResult });
    const sourceResults = results.filter((r) => r.phase >= 2 && r.phase <= 6);
    const records = sourceResults.flatMap((r) => (r.queried ? (r.result.records ?? []) : []));
    const findings = buildFindings(records, subject.nameOrigins);
    const verdict = decideVerdict(
      findings,
      sourceResults.map((r) => ({ agent: r.agent, searched: r.queried })),
    );
    const started = this.options.clock.now().toISOString();
    if (!recordedResult(7, 'corroboration')) {
      await this.command(
        personCheckId,
        'result:7:corroboration',
        {
          type: 'RecordAgentResult',
          data: {
            personCheckId,
            phase: 7,
            agent: 'corroboration',
            queried: true,
            // The findings with their ids and record details; the completion event carries the catalogued fields only.
            result: { label: 'Corroboration and confidence scoring', verdict, findings, durationMs: 0 },
            startedAt: started,
            finishedAt: this.options.clock.now().toISOString(),
          },
        },
        correlationId,
      );
    }
    await this.command(
      personCheckId,
      'complete',
      {
        type: 'CompletePersonCheck',
        data: {
          personCheckId,
          result: verdict.result,
          confidence: verdict.confidence,
          riskScore: verdict.riskScore,
          riskLevel: verdict.riskLevel,
          redFlagCount: verdict.redFlagCount,
          warningCount: verdict.warningCount,
          sourcesChecked: verdict.sourcesChecked,
          sourcesTotal: verdict.sourcesTotal,
          findings: findings.map(({ severity, category, corroboration, source, matchedName, why, title }) => ({
            severity,
            category,
            corroboration,
            source: { name: source.name, ...(source.url ? { url: source.url } : {}), ...(source.entityId ? { entityId: source.entityId } : {}), retrievedAt: source.retrievedAt },
            matchedName,
            why,
            ...(title ? { title } : {}),
          })),
        },
      },
      correlationId,
    );
  }
}

export type { PersonCheckEvent };
