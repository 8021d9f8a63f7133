/**
 * The person-check workflow (S3), declared for the workflow runner: seven phases, all run in this
 * process. Phase 1 (standardisation) and phase 7 (corroboration and confidence) are pure steps
 * computed from the stream; phases 2-6 run the person agents (personCheckPhases, `whois` only with an
 * associated domain), in parallel inside a phase, each under the per-agent timeout. A failing or
 * timed-out agent is recorded as not queried, with its error. Each phase's results are appended as
 * the phase ends, so a long check shows progress and a crash loses at most the phase it was in; the
 * supervisor resumes a check whose stream saw nothing for the stall deadline.
 *
 * The person agents run here, next to the screening engine they share, rather than on the agent task
 * topics: their names overlap the screening agents' topics (`bankruptcy`), and the list agents need
 * the in-memory engine anyway.
 */
import {
  personCheckDecider,
  personCheckPhases,
  type PersonCheckCommand,
  type PersonCheckEvent,
  type PersonCheckRequested,
  type PersonCheckState,
} from '../../commands/person-check';
import type { Clock } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import { buildFindings } from '../person/corroboration';
import { standardise } from '../person/standardise';
import type { PersonAgent, PersonAgentOutcome, PersonSubject, SourceRecord } from '../person/types';
import { decideVerdict } from '../person/verdict';
import type { LocalOutcome, PhaseDeclaration, RunContext, WorkflowDefinition } from './definition';
import type { HeldDocuments } from '../person/held-documents';

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

export interface PersonCheckWorkflowOptions {
  clock: Clock;
  agents: PersonAgent[];
  agentTimeoutMs: number;
  /**
   * A running check with no new event for this long is stalled (the process that ran it died):
   * the supervisor resumes it (default PIPELINE_PHASE_DEADLINE_MS's default, 45 s). Keep it above
   * agentTimeoutMs: a live phase records its results within one agent timeout.
   */
  stallDeadlineMs?: number;
  /** The requests' whole documents, held by this process for the list agent (../person/held-documents.ts). */
  heldDocuments?: HeldDocuments;
}

type RecordedResult = { phase: number; agent: string; queried: boolean; result: RecordedPersonResult };

function recordedResults(history: readonly RecordedEvent[]): RecordedResult[] {
  return history.filter((e) => e.type === 'PersonCheckAgentResultRecorded').map((e) => e.data as RecordedResult);
}

function requestOf(history: readonly RecordedEvent[]): PersonCheckRequested {
  const requested = history.find((e) => e.type === 'PersonCheckRequested');
  if (!requested) throw new Error('the check has no PersonCheckRequested');
  return requested as unknown as PersonCheckRequested;
}

/** The subject as phase 1 standardised it. */
function standardisedSubject(history: readonly RecordedEvent[]): PersonSubject {
  const subject = recordedResults(history).find((r) => r.phase === 1 && r.agent === 'standardisation')?.result.subject;
  if (!subject) throw new Error('the subject was not standardised');
  return subject;
}

/** Phase 7: the corroborated findings and the verdict, from the sources' records. */
function corroborate(history: readonly RecordedEvent[]) {
  const sourceResults = recordedResults(history).filter((r) => r.phase >= 2 && r.phase <= 6);
  const records = sourceResults.flatMap((r) => (r.queried ? (r.result.records ?? []) : []));
  const findings = buildFindings(records, standardisedSubject(history).nameOrigins);
  const verdict = decideVerdict(
    findings,
    sourceResults.map((r) => ({ agent: r.agent, searched: r.queried })),
  );
  return { findings, verdict };
}

export function personCheckWorkflow(options: PersonCheckWorkflowOptions): WorkflowDefinition<PersonCheckCommand, PersonCheckEvent, PersonCheckState> {
  const agents = new Map(options.agents.map((a) => [a.name, a]));

  function standardisation(run: RunContext<PersonCheckState>): LocalOutcome {
    const d = requestOf(run.history).data;
    const { subject, unresolvedLocations } = standardise({
      personCheckId: run.id,
      purpose: d.purpose,
      fullName: d.fullName,
      ...(d.firstName ? { firstName: d.firstName } : {}),
      ...(d.middleName ? { middleName: d.middleName } : {}),
      ...(d.lastName ? { lastName: d.lastName } : {}),
      ...(d.dateOfBirth ? { dateOfBirth: d.dateOfBirth } : {}),
      aliases: d.aliases,
      locations: d.locations,
      ...(d.associatedDomain ? { associatedDomain: d.associatedDomain } : {}),
      ...(d.phone ? { phone: d.phone } : {}),
      ...(d.email ? { email: d.email } : {}),
      ...(d.address ? { address: d.address } : {}),
    });
    return { queried: true, result: { label: 'Input standardisation (name variants, nicknames, date of birth, locations)', subject, unresolvedLocations, durationMs: 0 } };
  }

  async function runAgent(name: string, run: RunContext<PersonCheckState>): Promise<LocalOutcome> {
    const agent = agents.get(name);
    if (!agent) return { queried: false, error: `no agent serves ${name} in this deployment`, result: { label: name, durationMs: 0 } };
    const subject = standardisedSubject(run.history);
    const request = requestOf(run.history).data;
    const accountId = request.accountId;
    const documents = options.heldDocuments?.of(run.id);
    const timeoutMs = run.agentTimeoutMs ?? options.agentTimeoutMs;
    const t0 = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<PersonAgentOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ queried: false, error: `timed out after ${timeoutMs} ms` });
      }, timeoutMs);
    });
    let outcome: PersonAgentOutcome;
    try {
      outcome = await Promise.race([
        agent.run(subject, {
          signal: controller.signal,
          now: () => options.clock.now(),
          accountId,
          ...(request.internalListVersions ? { internalListVersions: request.internalListVersions } : {}),
          ...(documents ? { documents } : request.identifiers.length ? { documentsNotHeld: true } : {}),
        }),
        timeout,
      ]);
    } catch (error) {
      outcome = { queried: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
    const result: RecordedPersonResult = {
      ...(agent.label ? { label: agent.label } : {}),
      ...(outcome.queried ? { records: outcome.records, ...(outcome.data ? { data: outcome.data } : {}) } : {}),
      ...(outcome.links && outcome.links.length > 0 ? { links: outcome.links } : {}),
      durationMs: Math.round(performance.now() - t0),
    };
    return outcome.queried ? { queried: true, result: result as Record<string, unknown> } : { queried: false, error: outcome.error.slice(0, 2000), result: result as Record<string, unknown> };
  }

  const phases: PhaseDeclaration[] = Object.keys(personCheckPhases).map((phase) => ({
    phase,
    mode: 'parallel',
    runsOn: 'here',
    emits: 'PersonCheckAgentResultRecorded',
    completedBy: phase === '7' ? 'PersonCheckCompleted' : 'the last of its agents recorded',
    ...(phase === '1' || phase === '7' ? {} : { agentTimeoutMs: options.agentTimeoutMs }),
  }));

  return {
    kind: 'person_check',
    streamPrefix: 'person-check-',
    decider: personCheckDecider,
    phases,
    startedBy: 'PersonCheckRequested',
    consumer: { groupId: 'svc-person-check-orchestrator', answersFromWorkers: false },
    supervision: { policy: 'stall', afterMs: options.stallDeadlineMs ?? 45_000 },
    appendEachPhase: true,
    progress(state) {
      if (state.status === 'none') return { status: 'none', phases: [] };
      if (state.status !== 'running') return { status: 'ended', phases: [] };
      return {
        status: 'running',
        phases: Object.entries(state.agents)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([phase, names]) => {
            const answered = (agent: string) => state.recorded[`${phase}/${agent}`] !== undefined;
            return { phase, agents: names, mode: 'parallel' as const, status: names.every(answered) ? ('completed' as const) : ('running' as const), answered };
          }),
      };
    },
    async runHere(phase, agent, run) {
      if (phase === '1') return standardisation(run);
      if (phase === '7') {
        // the sources have all answered: the whole documents are not needed any more
        options.heldDocuments?.release(run.id);
        const { findings, verdict } = corroborate(run.history);
        // The findings with their ids and record details; the completion event carries the catalogued fields only.
        return { queried: true, result: { label: 'Corroboration and confidence scoring', verdict, findings, durationMs: 0 } };
      }
      return runAgent(agent, run);
    },
    taskSubject: () => {
      throw new Error('a person check sends no task to workers');
    },
    commands: {
      recordResult: (personCheckId, a) => ({
        step: `result:${a.phase}:${a.agent}`,
        command: { type: 'RecordAgentResult', data: { personCheckId, ...a, phase: Number(a.phase) } },
      }),
      complete(run) {
        const { findings, verdict } = corroborate(run.history);
        return {
          step: 'complete',
          command: {
            type: 'CompletePersonCheck',
            data: {
              personCheckId: run.id,
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
        };
      },
      fail: (personCheckId, reason) => ({ step: 'fail', command: { type: 'FailPersonCheck', data: { personCheckId, reason } } }),
    },
    // A check's own failure is recorded (the check fails), never thrown at the bus.
    failureReason: (error) => `pipeline error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2000),
  };
}
