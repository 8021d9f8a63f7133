/**
 * Screening lifecycle and pipeline: request (with its validation and plan rules), phases started,
 * retried, skipped and completed in plan order, agent results (idempotent per phase and agent), and
 * the end (completed or failed). Decisions and the state changes of these events; composed with the
 * case desk and monitoring in decider.ts.
 */
import { assertNever } from '../../shared/events';
import { type AgentAnswer, isInteger, isNonEmptyText, isIsoInstant, NUMERIC_ID, recordedAnswer, stamp, UUID } from '../decider';
import { Conflict, IllegalTransition, Issues, PlanRequired, ValidationFailed } from '../errors';
import { isPlan, minimumPlan, planAllows, plansFrom } from '../plans';
import { entityTypes, nextPipelineStep, type PhasePlan, type PipelinePhase, planPipeline, resultKey, screeningKinds } from './pipeline';
import type {
  AgentResultRecorded,
  CompletePhase,
  CompleteScreening,
  ExpirePhase,
  FailScreening,
  PhaseCompleted,
  PhaseResult,
  PhaseRetried,
  PhaseSkipped,
  PhaseStarted,
  RecordAgentResult,
  RequestScreening,
  ScreeningCompleted,
  ScreeningEvent,
  ScreeningFailed,
  ScreeningRequested,
  SourceNotQueried,
  StartPhase,
} from './messages';
import { skippedPhases } from './messages';
import { dealTypes, hitCategories, isEmailAddress, isPartialBirthDate, isPhoneNumber, MAX_HIT_ID_LENGTH, type ScreeningSubject, recordedSubjectAddress, SUBJECT_IDENTIFIER_TYPES, subjectAddressProblems } from './model';
import { type RequestedScreening, requireExisting, requireRunning, type ScreeningState, validateRisk } from './state';
import { isPinnedInternalListVersions } from '../../screening/watchlists/model';

export type LifecycleCommand = RequestScreening | StartPhase | ExpirePhase | RecordAgentResult | CompletePhase | CompleteScreening | FailScreening;
export type LifecycleEvent = ScreeningRequested | PhaseStarted | PhaseSkipped | PhaseRetried | AgentResultRecorded | PhaseCompleted | ScreeningCompleted | ScreeningFailed;

const ISO2 = /^[A-Z]{2}$/;
const SOW_ID = /^SVC-[A-Za-z0-9]{8}-SOW$/;

function optionalText(issues: Issues, value: unknown, field: string, max: number): void {
  if (value === undefined) return;
  issues.check(typeof value === 'string' && value.length <= max, field, `must be a string of at most ${max} characters`);
}

function requestScreening(command: RequestScreening, state: ScreeningState): ScreeningEvent[] {
  const d = command.data;
  const issues = new Issues()
    .check(NUMERIC_ID.test(d.screeningId ?? ''), 'screening_id', 'must be a positive integer string')
    .check(UUID.test(d.uuid ?? ''), 'uuid', 'must be a uuid')
    .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
    .check((screeningKinds as readonly string[]).includes(d.kind), 'kind', 'must be cdd, edd, ma or sow')
    .check(['s1', 's3', 'portal'].includes(d.surface), 'surface', 'must be s1, s3 or portal')
    .check(isPlan(d.plan), 'plan', 'must be a known plan');
  const subject = d.subject;
  const queryField = d.kind === 'ma' && d.surface === 's1' ? 'target_name' : 'query';
  issues.check(
    typeof subject?.query === 'string' && subject.query.trim().length >= 2 && subject.query.length <= 500,
    queryField,
    'must be 2-500 characters',
  );
  issues.check((entityTypes as readonly string[]).includes(subject?.entityType), 'entity_type', 'must be individual, company or organization');
  if (d.kind === 'edd') issues.check(subject?.entityType !== 'organization', 'entity_type', 'EDD takes individual or company');
  optionalText(issues, subject?.jurisdiction, 'jurisdiction', 100);
  if (subject?.dateOfBirth !== undefined) {
    issues.check(typeof subject.dateOfBirth === 'string' && isPartialBirthDate(subject.dateOfBirth, command.metadata.now.slice(0, 10)), 'date_of_birth', 'must be YYYY, YYYY-MM or YYYY-MM-DD, a real date, not in the future');
  }
  if (subject?.nationality !== undefined) issues.check(typeof subject.nationality === 'string' && ISO2.test(subject.nationality), 'nationality', 'must be an ISO 3166-1 alpha-2 code');
  if (subject?.identifiers !== undefined) {
    const ids = subject.identifiers;
    issues.check(Array.isArray(ids) && ids.length <= 10, 'identifiers', 'at most 10');
    for (const [i, id] of (Array.isArray(ids) ? ids : []).entries()) {
      issues.check((SUBJECT_IDENTIFIER_TYPES as readonly string[]).includes(id?.type), `identifiers[${i}].type`, `must be one of ${SUBJECT_IDENTIFIER_TYPES.join(', ')}`);
      issues.check(typeof id?.value === 'string' && /^[\p{L}\p{N}][\p{L}\p{N} ./-]{0,63}$/u.test(id.value.trim()), `identifiers[${i}].value`, 'must be 1-64 letters, digits, spaces, dots, slashes or dashes');
    }
  }
  if (subject?.address !== undefined) for (const [field, message] of subjectAddressProblems(subject.address)) issues.add(field, message);
  if (subject?.phone !== undefined) issues.check(typeof subject.phone === 'string' && isPhoneNumber(subject.phone), 'phone', 'must be a phone number: 6-15 digits, optionally a leading +');
  if (subject?.email !== undefined) issues.check(typeof subject.email === 'string' && isEmailAddress(subject.email), 'email', 'must be an e-mail address');
  issues.check(
    d.internalListVersions === undefined || isPinnedInternalListVersions(d.internalListVersions),
    'internal_list_versions',
    'must be up to 1000 internal-list version ids watchlist-<id>@v<n>',
  );
  for (const [field, value] of Object.entries(d.edd ?? {})) optionalText(issues, value, field, 10_000);
  if (d.ma) {
    const { dealType, ...texts } = d.ma;
    issues.check(dealType === undefined || (dealTypes as readonly string[]).includes(dealType), 'deal_type', 'must be acquisition, merger, joint_venture or restructuring');
    for (const [field, value] of Object.entries(texts)) optionalText(issues, value, field, 10_000);
  }
  issues.check(d.edd === undefined || d.kind === 'edd', 'edd', 'declared EDD fields only go with an EDD screening');
  issues.check(d.ma === undefined || d.kind === 'ma', 'ma', 'deal fields only go with an M&A screening');
  if (d.kind === 'sow') {
    issues.check(d.surface !== 's1', 'kind', 'SOW screenings are an S3 feature');
    issues.check(SOW_ID.test(d.sow?.sowScreeningId ?? ''), 'sow_screening_id', 'must look like SVC-<8 chars>-SOW');
  } else {
    issues.check(d.sow === undefined, 'sow', 'SOW fields only go with a SOW screening');
  }
  issues.throwIfAny();

  // Plan rules: Starter has no API access; EDD and SOW need Professional+; M&A needs Enterprise.
  if (d.surface !== 'portal' && !planAllows(d.plan, 'api_access')) throw new PlanRequired('api_access', plansFrom(minimumPlan('api_access')), d.plan);
  if ((d.kind === 'edd' || d.kind === 'sow' || d.kind === 'ma') && !planAllows(d.plan, d.kind)) throw new PlanRequired(d.kind, plansFrom(minimumPlan(d.kind)), d.plan);

  if (state.status !== 'none') throw new Conflict(`screening ${d.screeningId} already exists`);
  const subjectOut: ScreeningSubject = { query: subject.query.trim(), entityType: subject.entityType };
  if (subject.entityTypeDefaulted === true) subjectOut.entityTypeDefaulted = true;
  if (subject.jurisdiction !== undefined && subject.jurisdiction.trim() !== '') subjectOut.jurisdiction = subject.jurisdiction.trim();
  if (subject.dateOfBirth !== undefined) subjectOut.dateOfBirth = subject.dateOfBirth;
  if (subject.nationality !== undefined) subjectOut.nationality = subject.nationality;
  if (subject.identifiers?.length) subjectOut.identifiers = subject.identifiers.map((id) => ({ type: id.type, value: id.value.trim() }));
  const address = recordedSubjectAddress(subject.address);
  if (address) subjectOut.address = address;
  if (subject.phone !== undefined) subjectOut.phone = subject.phone.trim();
  if (subject.email !== undefined) subjectOut.email = subject.email.trim();
  return stamp<ScreeningEvent>(command, [
    {
      type: 'ScreeningRequested',
      data: {
        screeningId: d.screeningId,
        accountId: d.accountId,
        uuid: d.uuid.toLowerCase(),
        kind: d.kind,
        surface: d.surface,
        plan: d.plan,
        subject: subjectOut,
        ...(d.edd ? { edd: d.edd } : {}),
        ...(d.ma ? { ma: d.ma } : {}),
        ...(d.sow ? { sow: d.sow } : {}),
        monitor: d.monitor === true,
        ...(d.internalListVersions !== undefined ? { internalListVersions: [...d.internalListVersions] } : {}),
        pipeline: planPipeline({ kind: d.kind, entityType: subject.entityType, plan: d.plan }),
        requestedAt: command.metadata.now,
      },
    },
  ]);
}

export function decideLifecycle(command: LifecycleCommand, state: ScreeningState): ScreeningEvent[] {
  if (command.type === 'RequestScreening') return requestScreening(command, state);
  const s = requireExisting(command, state);
  const ids = { screeningId: s.screeningId, accountId: s.accountId };
  const now = command.metadata.now;
  switch (command.type) {
    case 'StartPhase': {
      const { phase } = command.data;
      if (s.phases[phase] !== undefined) return []; // already started: idempotent
      requireRunning(command, s);
      const plan = s.pipeline.find((p) => p.phase === phase);
      if (!plan) throw new Conflict(`phase ${phase} is not part of this screening's pipeline`, { phase });
      const step = nextPipelineStep(s);
      if (step.action !== 'start_phase' || step.phase !== phase) {
        throw new Conflict(`phase ${phase} cannot start yet (next step: ${step.action}${'phase' in step ? ` ${step.phase}` : ''})`, { phase });
      }
      const notQueried = command.data.notQueried ?? [];
      const deadline = command.data.deadline;
      const issues = new Issues();
      issues.check(deadline === undefined || (isIsoInstant(deadline) && Date.parse(deadline) > Date.parse(now)), 'deadline', 'must be an ISO time after now');
      sourcesNotQueriedProblems(issues, 'not_queried', plan, notQueried, false);
      const skipped = notQueried.length > 0 && notQueried.length === plan.agents.length;
      const thenSkipped = command.data.thenSkipped ?? [];
      issues.check(thenSkipped.length === 0 || skipped, 'then_skipped', 'only a phase that is skipped itself records the phases skipped after it');
      const later = s.pipeline.slice(s.pipeline.indexOf(plan) + 1);
      thenSkipped.forEach((t, i) => {
        const next = later[i];
        issues.check(next !== undefined && t.phase === next.phase, `then_skipped[${i}].phase`, `must be ${next ? `phase ${next.phase}, the next of the plan` : 'absent: the plan has no further phase'}`);
        if (next && t.phase === next.phase) sourcesNotQueriedProblems(issues, `then_skipped[${i}]`, next, t.notQueried ?? [], true);
      });
      issues.throwIfAny();
      if (skipped) {
        // Nothing to dispatch or wait for: the phase (and those in thenSkipped) is over as it starts.
        return stamp<ScreeningEvent>(command, [
          {
            type: 'PhaseSkipped',
            data: {
              ...ids,
              phase,
              notQueried: inPlanOrder(plan.agents, notQueried),
              ...(thenSkipped.length ? { thenSkipped: thenSkipped.map((t, i) => ({ phase: t.phase, notQueried: inPlanOrder(later[i]!.agents, t.notQueried) })) } : {}),
              skippedAt: now,
            },
          },
        ]);
      }
      return stamp<ScreeningEvent>(command, [
        {
          type: 'PhaseStarted',
          data: {
            ...ids,
            phase,
            agents: plan.agents,
            mode: plan.mode,
            startedAt: now,
            ...(notQueried.length ? { notQueried } : {}),
            ...(deadline !== undefined ? { deadline } : {}),
          },
        },
      ]);
    }
    case 'ExpirePhase':
      return expirePhase(command, s, ids);
    case 'RecordAgentResult': {
      const d = command.data;
      const key = resultKey(d.phase, d.agent);
      if (s.recorded[key] !== undefined) return []; // at-least-once agents: first result wins
      requireRunning(command, s);
      const phaseState = s.phases[d.phase];
      const plan = s.pipeline.find((p) => p.phase === d.phase);
      if (!phaseState || !plan) throw new Conflict(`phase ${d.phase} has not started`, { phase: d.phase });
      if (phaseState.status === 'completed') throw new IllegalTransition('screening phase', 'completed', command.type);
      if (!plan.agents.includes(d.agent)) throw new ValidationFailed([{ field: 'agent', message: `${d.agent} is not an agent of phase ${d.phase}` }]);
      if (plan.mode === 'sequential') {
        const next = plan.agents.find((a) => s.recorded[resultKey(d.phase, a)] === undefined);
        if (next !== d.agent) throw new Conflict(`phase ${d.phase} is sequential: ${next} runs before ${d.agent}`, { expected: next });
      }
      answerProblems(new Issues(), d).throwIfAny();
      return stamp<ScreeningEvent>(command, [
        {
          type: 'AgentResultRecorded',
          data: { ...ids, ...recordedAnswer(d) },
        },
      ]);
    }
    case 'CompletePhase': {
      const { phase } = command.data;
      const phaseState = s.phases[phase];
      if (phaseState?.status === 'completed') return [];
      requireRunning(command, s);
      if (command.data.results !== undefined) return completeWholePhase(command, s, ids);
      const plan = s.pipeline.find((p) => p.phase === phase);
      if (!phaseState || !plan) throw new Conflict(`phase ${phase} has not started`, { phase });
      const pending = plan.agents.filter((a) => s.recorded[resultKey(phase, a)] === undefined);
      // A timed-out agent is recorded as {queried:false, error:'timeout'} first, never skipped.
      if (pending.length > 0) throw new Conflict(`phase ${phase} still waits for ${pending.join(', ')}`, { phase, pending });
      return stamp<ScreeningEvent>(command, [
        {
          type: 'PhaseCompleted',
          data: {
            ...ids,
            phase,
            agentsQueried: plan.agents.filter((a) => s.recorded[resultKey(phase, a)]?.queried),
            agentsNotQueried: plan.agents.filter((a) => !s.recorded[resultKey(phase, a)]?.queried),
            completedAt: now,
          },
        },
      ]);
    }
    case 'CompleteScreening': {
      if (s.status === 'completed') return []; // a screening completes once
      requireRunning(command, s);
      const step = nextPipelineStep(s);
      if (step.action !== 'complete_screening') {
        throw new Conflict(`the pipeline is not finished (next step: ${step.action}${'phase' in step ? ` ${step.phase}` : ''})`);
      }
      const d = command.data;
      const issues = new Issues();
      validateRisk(issues, d.riskScore, d.riskLevel);
      for (const field of ['sanctionsHits', 'pepHits', 'adverseMediaHits', 'offshoreLeaksHits', 'debarmentHits'] as const) {
        issues.check(isInteger(d.counts?.[field], 0, 1_000_000), `counts.${field}`, 'must be a non-negative integer');
      }
      issues.check(Array.isArray(d.hits), 'hits', 'must be an array');
      const hitIds = new Set<string>();
      for (const hit of d.hits ?? []) {
        issues.check(isNonEmptyText(hit.hitId, MAX_HIT_ID_LENGTH) && !hitIds.has(hit.hitId), 'hits.hit_id', `hit id ${hit.hitId} must be unique and non-empty`);
        hitIds.add(hit.hitId);
        issues.check((hitCategories as readonly string[]).includes(hit.category), 'hits.category', `unknown category ${hit.category}`);
        issues.check(typeof hit.score === 'number' && hit.score >= 0 && hit.score <= 1, 'hits.score', 'must be in [0,1]');
        issues.check(isNonEmptyText(hit.entityId, 500) && isNonEmptyText(hit.entityRecordHash, 200), 'hits.entity', 'entity id and record hash are required');
        issues.check(
          hit.lists === undefined || (Array.isArray(hit.lists) && hit.lists.length >= 1 && hit.lists.length <= 50 && hit.lists.every((l) => isNonEmptyText(l, 200))),
          'hits.lists',
          'must name 1-50 lists when given',
        );
      }
      issues.check(Array.isArray(d.listVersions), 'list_versions', 'must list the list versions used');
      issues.check(isNonEmptyText(d.matcherVersion, 100), 'matcher_version', 'is required');
      if (s.kind === 'edd' || s.kind === 'ma') issues.check(isNonEmptyText(d.analysis, 1_000_000), 'analysis', `${s.kind} screenings carry an analysis`);
      issues.throwIfAny();
      return stamp<ScreeningEvent>(command, [
        {
          type: 'ScreeningCompleted',
          data: {
            ...ids,
            uuid: s.uuid,
            kind: s.kind,
            surface: s.surface,
            riskScore: d.riskScore,
            riskLevel: d.riskLevel,
            counts: d.counts,
            hits: d.hits,
            ...(d.summary !== undefined ? { summary: d.summary } : {}),
            ...(d.analysis !== undefined ? { analysis: d.analysis } : {}),
            listVersions: d.listVersions,
            matcherVersion: d.matcherVersion,
            ...(s.sowScreeningId !== undefined ? { sowScreeningId: s.sowScreeningId } : {}),
            completedAt: now,
          },
        },
        ...(s.monitorOnCompletion ? [{ type: 'MonitoringEnrolled' as const, data: { ...ids, subject: s.subject, enrolledAt: now } }] : []),
      ]);
    }
    case 'FailScreening': {
      if (s.status === 'failed') return [];
      requireRunning(command, s);
      new Issues().check(isNonEmptyText(command.data.reason, 2000), 'reason', 'is required').throwIfAny();
      return stamp<ScreeningEvent>(command, [
        { type: 'ScreeningFailed', data: { ...ids, uuid: s.uuid, kind: s.kind, surface: s.surface, reason: command.data.reason, failedAt: now } },
      ]);
    }
    default:
      return assertNever(command, 'screening lifecycle command');
  }
}

/**
 * An overdue phase (see ExpirePhase). Nothing happens to a phase that is over, or not yet due: the
 * supervisor may look at a stale view, and a late agent result may have completed the phase since.
 * The pending agents are those the process manager waits for (all missing ones of a parallel phase,
 * the next one of a sequential phase).
 */
function expirePhase(command: ExpirePhase, s: RequestedScreening, ids: { screeningId: string; accountId: string }): ScreeningEvent[] {
  const d = command.data;
  const now = command.metadata.now;
  new Issues()
    .check(isInteger(d.retryBudget, 0, 100), 'retry_budget', 'must be an integer 0-100')
    .check(isIsoInstant(d.retryDeadline) && Date.parse(d.retryDeadline) > Date.parse(now), 'retry_deadline', 'must be an ISO time after now')
    .throwIfAny();
  if (s.status !== 'running') return [];
  const phaseState = s.phases[d.phase];
  if (!phaseState) throw new Conflict(`phase ${d.phase} has not started`, { phase: d.phase });
  if (phaseState.status === 'completed') return [];
  if (phaseState.deadline !== undefined && Date.parse(now) < Date.parse(phaseState.deadline)) {
    throw new Conflict(`phase ${d.phase} is not overdue (deadline ${phaseState.deadline})`, { phase: d.phase, deadline: phaseState.deadline });
  }
  const step = nextPipelineStep(s);
  if (step.action !== 'dispatch' || step.phase !== d.phase) return []; // nothing awaited: the process manager moves it on
  const retries = phaseState.retries ?? 0;
  if (retries < d.retryBudget) {
    return stamp<ScreeningEvent>(command, [
      {
        type: 'PhaseRetried',
        data: {
          ...ids,
          phase: d.phase,
          attempt: retries + 2,
          agents: step.agents,
          ...(phaseState.deadline !== undefined ? { previousDeadline: phaseState.deadline } : {}),
          deadline: d.retryDeadline,
          retriedAt: now,
        },
      },
    ]);
  }
  const dispatches = retries + 1;
  const since = phaseState.startedAt ?? now;
  return stamp<ScreeningEvent>(
    command,
    step.agents.map((agent) => ({
      type: 'AgentResultRecorded' as const,
      data: {
        ...ids,
        phase: d.phase,
        agent,
        queried: false,
        error: `no answer before the phase deadline${phaseState.deadline ? ` ${phaseState.deadline}` : ''} (dispatched ${dispatches} time${dispatches === 1 ? '' : 's'})`,
        result: {},
        startedAt: since,
        finishedAt: now,
      },
    })),
  );
}

/** The problems of one agent's answer (RecordAgentResult, or one of CompletePhase's results under `field`). */
function answerProblems(issues: Issues, d: Omit<AgentAnswer<PipelinePhase>, 'phase'>, field = ''): Issues {
  return issues
    .check(typeof d.queried === 'boolean', `${field}queried`, 'must be a boolean')
    .check(d.queried || isNonEmptyText(d.error, 2000), `${field}error`, 'is required when the agent was not queried')
    .check(typeof d.result === 'object' && d.result !== null && !Array.isArray(d.result), `${field}result`, 'must be an object')
    .check(isIsoInstant(d.startedAt), `${field}started_at`, 'must be an ISO time')
    .check(isIsoInstant(d.finishedAt) && Date.parse(d.finishedAt) >= Date.parse(d.startedAt), `${field}finished_at`, 'must be an ISO time not before started_at');
}

/**
 * CompletePhase with `results`: a phase whose agents all answered here in one step, recorded whole in
 * its PhaseCompleted. It must be the phase the plan starts next (not started: a phase already started
 * records its answers one by one, as a stream written before v2 did), and the results must be every
 * agent of the phase once, in plan order (a sequential phase's agents each saw the answers before
 * theirs), each a valid answer.
 */
function completeWholePhase(command: CompletePhase, s: RequestedScreening, ids: { screeningId: string; accountId: string }): ScreeningEvent[] {
  const { phase } = command.data;
  const results = command.data.results ?? [];
  const plan = s.pipeline.find((p) => p.phase === phase);
  if (!plan) throw new Conflict(`phase ${phase} is not part of this screening's pipeline`, { phase });
  if (s.phases[phase] !== undefined) throw new Conflict(`phase ${phase} has started: its results are recorded one by one (RecordAgentResult)`, { phase });
  const step = nextPipelineStep(s);
  if (step.action !== 'start_phase' || step.phase !== phase) {
    throw new Conflict(`phase ${phase} cannot run yet (next step: ${step.action}${'phase' in step ? ` ${step.phase}` : ''})`, { phase });
  }
  const issues = new Issues().check(
    Array.isArray(results) && results.length === plan.agents.length && results.every((r, i) => r?.agent === plan.agents[i]),
    'results',
    `must be the answers of ${plan.agents.join(', ')}, in that order`,
  );
  if (Array.isArray(results)) results.forEach((r, i) => answerProblems(issues, r ?? ({} as PhaseResult), `results[${i}].`));
  issues.throwIfAny();
  return stamp<ScreeningEvent>(command, [
    {
      type: 'PhaseCompleted',
      data: {
        ...ids,
        phase,
        agentsQueried: results.filter((r) => r.queried).map((r) => r.agent),
        agentsNotQueried: results.filter((r) => !r.queried).map((r) => r.agent),
        results: results.map((r) => {
          const { phase: _phase, ...answer } = recordedAnswer({ ...r, phase });
          return answer;
        }),
        completedAt: command.metadata.now,
      },
    },
  ]);
}

/**
 * The sources of a phase recorded as not queried as it starts: agents of that phase, once each, with
 * an error, in a parallel phase; for a phase skipped whole (`all`), every one of its agents.
 */
function sourcesNotQueriedProblems(issues: Issues, field: string, plan: PhasePlan, sources: readonly SourceNotQueried[], all: boolean): void {
  issues.check(sources.length === 0 || plan.mode === 'parallel', field, 'only a parallel phase records unqueryable sources at its start');
  if (all) issues.check(sources.length === plan.agents.length, field, `must list every agent of phase ${plan.phase} as not queried`);
  const prefix = all ? `${field}.not_queried` : field;
  sources.forEach((n, i) =>
    issues
      .check(plan.agents.includes(n.agent), `${prefix}[${i}].agent`, `${n.agent} is not an agent of phase ${plan.phase}`)
      .check(sources.findIndex((o) => o.agent === n.agent) === i, `${prefix}[${i}].agent`, `${n.agent} is listed twice`)
      .check(isNonEmptyText(n.error, 2000), `${prefix}[${i}].error`, 'is required'),
  );
}

/** Each agent's not-queried record, in the order of the plan (validated: one per agent). */
function inPlanOrder(agents: readonly string[], sources: readonly SourceNotQueried[]): SourceNotQueried[] {
  const byAgent = new Map(sources.map((n) => [n.agent, n]));
  return agents.map((a) => byAgent.get(a)!);
}

// ---- evolve ----
/** The recorded results of sources a phase could not query (PhaseStarted, PhaseSkipped). */
function notQueriedResults(phase: PipelinePhase, sources: readonly SourceNotQueried[]): Record<string, { queried: boolean }> {
  return Object.fromEntries(sources.map((n) => [resultKey(phase, n.agent), { queried: false }]));
}

function onRequested(state: RequestedScreening, change: (s: RequestedScreening) => RequestedScreening): ScreeningState {
  return change(state);
}

export function evolveLifecycle(state: ScreeningState, event: LifecycleEvent): ScreeningState {
  if (event.type === 'ScreeningRequested') {
    const d = event.data;
    return {
      status: 'running',
      screeningId: d.screeningId,
      uuid: d.uuid,
      accountId: d.accountId,
      kind: d.kind,
      surface: d.surface,
      plan: d.plan,
      subject: d.subject,
      ...(d.sow ? { sowScreeningId: d.sow.sowScreeningId } : {}),
      monitorOnCompletion: d.monitor,
      ...(d.internalListVersions !== undefined ? { internalListVersions: d.internalListVersions } : {}),
      pipeline: d.pipeline,
      phases: {},
      recorded: {},
      hits: {},
      monitoring: false,
      alertIds: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PhaseStarted':
      return onRequested(state, (s) => ({
        ...s,
        phases: {
          ...s.phases,
          [event.data.phase]: { status: 'running', startedAt: event.data.startedAt, ...(event.data.deadline !== undefined ? { deadline: event.data.deadline } : {}) },
        },
        recorded: { ...s.recorded, ...notQueriedResults(event.data.phase, event.data.notQueried ?? []) },
      }));
    case 'PhaseSkipped': {
      // Each phase as PhaseStarted with every agent not queried, followed by PhaseCompleted.
      const skipped = skippedPhases(event.data);
      return {
        ...state,
        phases: { ...state.phases, ...Object.fromEntries(skipped.map((p) => [p.phase, { status: 'completed' as const }])) },
        recorded: { ...state.recorded, ...Object.assign({}, ...skipped.map((p) => notQueriedResults(p.phase, p.notQueried))) },
      };
    }
    case 'PhaseRetried': {
      const phase = state.phases[event.data.phase];
      if (!phase) return state;
      return { ...state, phases: { ...state.phases, [event.data.phase]: { ...phase, retries: (phase.retries ?? 0) + 1, deadline: event.data.deadline } } };
    }
    case 'AgentResultRecorded':
      return {
        ...state,
        recorded: { ...state.recorded, [resultKey(event.data.phase, event.data.agent)]: { queried: event.data.queried } },
      };
    case 'PhaseCompleted':
      // With `results` (v2): as PhaseStarted, an AgentResultRecorded per result, then PhaseCompleted.
      return {
        ...state,
        phases: { ...state.phases, [event.data.phase]: { status: 'completed' } },
        ...(event.data.results?.length
          ? { recorded: { ...state.recorded, ...Object.fromEntries(event.data.results.map((r) => [resultKey(event.data.phase, r.agent), { queried: r.queried }])) } }
          : {}),
      };
    case 'ScreeningCompleted':
      return {
        ...state,
        status: 'completed',
        riskScore: event.data.riskScore,
        riskLevel: event.data.riskLevel,
        ...(event.data.summary !== undefined ? { summary: event.data.summary } : {}),
        hits: Object.fromEntries(event.data.hits.map((h) => [h.hitId, { ...h, status: 'open' as const }])),
      };
    case 'ScreeningFailed':
      return { ...state, status: 'failed' };
    default:
      return assertNever(event, 'screening lifecycle event');
  }
}
