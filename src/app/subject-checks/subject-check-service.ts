/**
 * Over 500 lines on purpose: S2 has one resource with single, batch, sandbox, read, list and review
 * operations; they share the admission, idempotency binding and read-model queries kept here.
 *
 * S2 subject checks: starting one (the agent pipeline then runs it: src/agents/orchestrator/
 * subject-check-orchestrator.ts), reading and listing from the read model, the reviewers' commands,
 * and the sandbox verdict, which is computed without touching the store or the read model.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  investigationIdFor,
  streamName as subjectCheckStream,
  subjectCheckDecider,
  type SubjectCheckCommand,
  type SubjectCheckStarted,
  type SubjectLocation,
  type SubjectOfCheck,
} from '../../commands/subject-check';

export { investigationIdFor } from '../../commands/subject-check';
import { NotFound } from '../../commands/errors';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { projectionSchema } from '../../projections/projection';
import type { Clock } from '../../shared/clock';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import { bindCreate } from '../idempotency/binding';
import type { AdmissionSlot, ScreeningAdmission } from '../screenings/admission';
import type { IdBlocks } from '../ids';
import type { CommandContext, Principal } from '../services';
import { riskOfFindings, SUBJECT_CHECK_SOURCES, type Finding } from '../../commands/subject-check/assessment';
import type { ListsInServiceView } from '../services';

export type SubjectCheckStatus = 'running' | 'needs_review' | 'escalated' | 'completed' | 'failed';

export interface SubjectCheckInput extends SubjectOfCheck {
  consent: { certified: true; statement?: string };
  /** Enrol in ongoing monitoring when the check concludes. */
  monitor?: boolean;
}

/** The subject of a check: the view's `subject`, columns of the read model. */
interface SubjectColumns {
  first_name: string;
  last_name: string;
  middle_name: string | null;
  date_of_birth: string | null;
  locations: SubjectLocation[];
}

/** What a subject check concluded and how it is being reviewed: the same columns in the read model and the view. */
interface SubjectCheckOutcome {
  overall_result: string | null;
  risk_score: number | null;
  risk_level: string | null;
  risk_reason: string | null;
  confidence_level: string | null;
  findings_count: number | null;
  red_flag_count: number | null;
  warning_count: number | null;
  sources_searched: number | null;
  review_reason: string | null;
  investigation_id: string | null;
  triggering_tiers: string[] | null;
  tier_scores: Record<string, number> | null;
  requested_scope: string | null;
  priority: string | null;
}

/** The S2 Subject check resource (spec part 2) plus the subject and timestamps. */
export interface SubjectCheckView extends SubjectCheckOutcome {
  subject_check_id: number;
  account_id: number;
  status: SubjectCheckStatus;
  sources_total: number;
  investigation_created_at: string | null;
  sla_due_at: string | null;
  error_message: string | null;
  resolved_by: string | null;
  /** Enrolled in ongoing monitoring (docs/monitoring-and-audit.md). */
  monitoring: boolean;
  subject: SubjectColumns;
  purpose: string;
  batch_id: string | null;
  created_at: string;
  updated_at: string;
  review_required_at: string | null;
  escalated_at: string | null;
  completed_at: string | null;
  failed_at: string | null;
}

export interface SubjectCheckDetailView extends SubjectCheckView, Partial<ListsInServiceView> {
  sources: { agent: string; tier: string; queried: boolean; error: string | null; hits: number; started_at: string; finished_at: string }[];
  findings: Finding[];
  decisions: { kind: 'review' | 'investigation'; outcome: string; reviewer: string; note: string; at: string }[];
  monitoring_alerts: MonitoringAlertView[];
}

/** One alert ongoing monitoring raised on the check (also sent as the S2 `subject_check.monitoring_alert` callback). */
export interface MonitoringAlertView {
  alert_id: string;
  kind: 'new_hit' | 'changed_hit' | 'removed_hit';
  entity_id: string;
  tier: string;
  list: string;
  matched_name: string;
  score: number;
  list_version: string;
  changes: Record<string, unknown>;
  detected_at: string;
  /** The level the hit gives on its own, assessed on the check's facts (null: a removal, or an alert recorded before assessments). */
  risk_level: string | null;
  match_strength: 'confirmed' | 'potential' | null;
  assessment?: Finding['assessment'];
  confirmation?: Finding['confirmation'];
  identity_note?: string;
}

export interface SubjectCheckListFilter {
  limit: number;
  /** Keyset: checks with a smaller id than this (the previous page's `next_cursor`). */
  before?: number;
  status?: SubjectCheckStatus;
  batchId?: string;
}

export interface ReviewDecisionInput {
  outcome: 'clear' | 'adverse';
  note: string;
  reviewer?: string;
}

interface Row extends SubjectCheckOutcome, SubjectColumns {
  subject_check_id: string;
  account_id: string;
  status: SubjectCheckStatus;
  purpose: string;
  batch_id: string | null;
  sources_total: number | null;
  investigation_created_at: Date | null;
  sla_due_at: Date | null;
  error_message: string | null;
  resolved_by: string | null;
  sources: SubjectCheckDetailView['sources'];
  findings: Finding[];
  decisions: SubjectCheckDetailView['decisions'];
  monitoring: boolean;
  monitoring_alerts: MonitoringAlertView[];
  processing_at: Date;
  review_required_at: Date | null;
  escalated_at: Date | null;
  completed_at: Date | null;
  failed_at: Date | null;
  updated_at: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toView(row: Row): SubjectCheckView {
  return {
    subject_check_id: Number(row.subject_check_id),
    account_id: Number(row.account_id),
    status: row.status,
    overall_result: row.overall_result,
    risk_score: row.risk_score,
    risk_level: row.risk_level,
    risk_reason: row.risk_reason,
    confidence_level: row.confidence_level,
    findings_count: row.findings_count,
    red_flag_count: row.red_flag_count,
    warning_count: row.warning_count,
    sources_searched: row.sources_searched,
    sources_total: row.sources_total ?? SUBJECT_CHECK_SOURCES.length,
    review_reason: row.review_reason,
    investigation_id: row.investigation_id,
    triggering_tiers: row.triggering_tiers,
    tier_scores: row.tier_scores,
    requested_scope: row.requested_scope,
    priority: row.priority,
    investigation_created_at: iso(row.investigation_created_at),
    sla_due_at: iso(row.sla_due_at),
    error_message: row.error_message,
    resolved_by: row.resolved_by,
    monitoring: row.monitoring,
    subject: {
      first_name: row.first_name,
      last_name: row.last_name,
      middle_name: row.middle_name,
      date_of_birth: row.date_of_birth,
      locations: row.locations,
    },
    purpose: row.purpose,
    batch_id: row.batch_id,
    created_at: row.processing_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    review_required_at: iso(row.review_required_at),
    escalated_at: iso(row.escalated_at),
    completed_at: iso(row.completed_at),
    failed_at: iso(row.failed_at),
  };
}

function toDetail(row: Row): SubjectCheckDetailView {
  return { ...toView(row), sources: row.sources, findings: row.findings, decisions: row.decisions, monitoring_alerts: row.monitoring_alerts };
}

/** A check no review or investigation has touched (a new one, a sandbox one). */
const NOT_UNDER_REVIEW = {
  review_reason: null,
  investigation_id: null,
  triggering_tiers: null,
  tier_scores: null,
  requested_scope: null,
  priority: null,
  investigation_created_at: null,
  sla_due_at: null,
  error_message: null,
} as const;

/** The view of a check that has just started (before the read model has it). */
function startedView(event: SubjectCheckStarted): SubjectCheckView {
  const d = event.data;
  return {
    subject_check_id: Number(d.subjectCheckId),
    account_id: Number(d.accountId),
    status: 'running',
    overall_result: null,
    risk_score: null,
    risk_level: null,
    risk_reason: null,
    confidence_level: null,
    findings_count: null,
    red_flag_count: null,
    warning_count: null,
    sources_searched: null,
    sources_total: SUBJECT_CHECK_SOURCES.length,
    ...NOT_UNDER_REVIEW,
    resolved_by: null,
    monitoring: false,
    subject: {
      first_name: d.firstName,
      last_name: d.lastName,
      middle_name: d.middleName ?? null,
      date_of_birth: d.dateOfBirth ?? null,
      locations: d.locations,
    },
    purpose: d.purpose,
    batch_id: d.batchId ?? null,
    created_at: d.processingAt,
    updated_at: d.processingAt,
    review_required_at: null,
    escalated_at: null,
    completed_at: null,
    failed_at: null,
  };
}

/**
 * The sandbox verdict: the same shape as a real check, completed `clear_no_match`, deterministic
 * (id 0, times fixed to the request's clock reading truncated to the second, nothing searched).
 * Pure: no id allocated, no event, no read model, no counter.
 */
export function sandboxSubjectCheck(input: SubjectCheckInput, now: Date, accountId: string): SubjectCheckView & { sandbox: true } {
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString();
  return {
    subject_check_id: 0,
    account_id: Number(accountId),
    status: 'completed',
    overall_result: 'clear_no_match',
    // The sandbox searches nothing: no finding, so the scorer's answer for no finding.
    risk_score: 0,
    risk_level: 'low',
    risk_reason: riskOfFindings([]).reason,
    confidence_level: 'high',
    findings_count: 0,
    red_flag_count: 0,
    warning_count: 0,
    sources_searched: 0,
    sources_total: 0,
    ...NOT_UNDER_REVIEW,
    resolved_by: 'sandbox',
    monitoring: false,
    subject: {
      first_name: input.firstName.trim(),
      last_name: input.lastName.trim(),
      middle_name: input.middleName?.trim() ?? null,
      date_of_birth: input.dateOfBirth ?? null,
      locations: input.locations,
    },
    purpose: input.purpose,
    batch_id: null,
    created_at: at,
    updated_at: at,
    review_required_at: null,
    escalated_at: null,
    completed_at: at,
    failed_at: null,
    sandbox: true,
  };
}

export class PgSubjectCheckService {
  private readonly schema = projectionSchema('subject_checks');

  constructor(
    private readonly deps: {
      store: EventStore;
      pool: pg.Pool;
      clock: Clock;
      readModelsCaughtUp: (through?: bigint) => Promise<void>;
      ids: IdBlocks;
      /** Throws ListsStaleError when LISTS_STALE_POLICY=refuse and a list is too old (before anything is written). */
      listGate?: { assertUsable(): void };
      /** Backpressure: a slot per subject check in flight (MAX_INFLIGHT_SUBJECT_CHECKS); none = no limit. */
      admission?: ScreeningAdmission;
      /** The lists in service with their ages, added to every check read (docs/lists.md). */
      listsInService?: () => ListsInServiceView;
    },
  ) {}

  private meta(ctx: CommandContext, suffix = '') {
    return { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: `${ctx.commandId}${suffix}`, correlationId: ctx.correlationId };
  }

  /** Appends SubjectCheckStarted; the pipeline runs asynchronously. Returns the running check at once. */
  async start(
    principal: Principal,
    input: SubjectCheckInput,
    ctx: CommandContext,
    options: {
      batchId?: string;
      waitForReadModel?: boolean;
      /** The name the id is bound under for the request's Idempotency-Key (a batch: one per item). */
      bindAs?: string;
      /** Runs just before the check is created (limits), not when a retry finds it already created. */
      admit?: () => Promise<void>;
      /** A slot the caller took for it (a batch takes all its slots at once: reserveSlots). */
      slot?: AdmissionSlot;
    } = {},
  ): Promise<SubjectCheckView> {
    const slot = options.slot ?? this.deps.admission?.acquire(); // throws Overloaded at capacity, before anything is written
    try {
      this.deps.listGate?.assertUsable();
      return await this.startAdmitted(principal, input, ctx, options, slot);
    } catch (error) {
      slot?.release();
      throw error;
    }
  }

  /** Slots for a batch of `count` checks, all or none (Overloaded: nothing is created). */
  reserveSlots(count: number): AdmissionSlot[] | undefined {
    return this.deps.admission?.acquireMany(count);
  }

  private async startAdmitted(
    principal: Principal,
    input: SubjectCheckInput,
    ctx: CommandContext,
    options: { batchId?: string; waitForReadModel?: boolean; bindAs?: string; admit?: () => Promise<void> },
    slot: AdmissionSlot | undefined,
  ): Promise<SubjectCheckView> {
    // With an Idempotency-Key the id is bound to the key before the append: a retry after a crash
    // between the append and the recorded answer finds its check here and answers it.
    const { id: subjectCheckId, meta } = await bindCreate(ctx, options.bindAs ?? 'subject-check', () => this.deps.ids.next('subject_check_id_seq'));
    if (ctx.idempotency) {
      const existing = await this.deps.store.readStream(subjectCheckStream(subjectCheckId));
      if (existing.length > 0) {
        slot?.release();
        const started = existing[0] as unknown as SubjectCheckStarted;
        if (started.type !== 'SubjectCheckStarted' || started.data.accountId !== principal.accountId) throw new NotFound('subject check', subjectCheckId);
        return startedView(started);
      }
    }
    await options.admit?.();
    slot?.bind(subjectCheckStream(subjectCheckId)); // before the append: its end cannot be seen earlier
    const handled = await handleCommand(this.deps.store, subjectCheckDecider, subjectCheckStream(subjectCheckId), {
      type: 'StartSubjectCheck',
      data: {
        subjectCheckId,
        accountId: principal.accountId,
        firstName: input.firstName,
        lastName: input.lastName,
        ...(input.middleName !== undefined ? { middleName: input.middleName } : {}),
        ...(input.dateOfBirth !== undefined ? { dateOfBirth: input.dateOfBirth } : {}),
        ...(input.nationality !== undefined ? { nationality: input.nationality } : {}),
        ...(input.identifiers?.length ? { identifiers: input.identifiers } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.address !== undefined ? { address: input.address } : {}),
        locations: input.locations,
        purpose: input.purpose,
        consent: input.consent,
        ...(options.batchId !== undefined ? { batchId: options.batchId } : {}),
        ...(input.monitor === true ? { monitor: true } : {}),
      },
      metadata: { ...this.meta(ctx), ...meta },
    }, { newStream: true });
    // So that a GET right after the 201 finds the check.
    if (options.waitForReadModel !== false) await this.deps.readModelsCaughtUp(handled.lastGlobalPosition ?? undefined);
    // Another attempt of the same request (a lease taken over while the first still ran) recorded it first.
    const started = (handled.alreadyRecorded ? (await this.deps.store.readStream(subjectCheckStream(subjectCheckId)))[0] : handled.events[0]) as unknown as SubjectCheckStarted | undefined;
    if (started?.type !== 'SubjectCheckStarted' || started.data.accountId !== principal.accountId) throw new NotFound('subject check', subjectCheckId);
    return startedView(started);
  }

  /** Waits for the read model (after a batch of starts). */
  async caughtUp(): Promise<void> {
    await this.deps.readModelsCaughtUp();
  }

  /** Own checks only: undefined for an unknown id or another account's. */
  async get(accountId: string, subjectCheckId: number): Promise<SubjectCheckDetailView | undefined> {
    const { rows } = await this.deps.pool.query<Row>(
      `SELECT * FROM ${this.schema}.subject_checks WHERE subject_check_id = $1 AND account_id = $2`,
      [subjectCheckId, accountId],
    );
    if (!rows[0]) return undefined;
    const detail = toDetail(rows[0]);
    return this.deps.listsInService ? { ...detail, ...this.deps.listsInService() } : detail;
  }

  /** Newest first, keyset-paginated by id. */
  async list(accountId: string, filter: SubjectCheckListFilter): Promise<{ items: SubjectCheckView[]; total: number; nextCursor: number | null }> {
    const where = `account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR batch_id = $3)`;
    const params = [accountId, filter.status ?? null, filter.batchId ?? null];
    const [{ rows }, count] = await Promise.all([
      this.deps.pool.query<Row>(
        `SELECT * FROM ${this.schema}.subject_checks WHERE ${where} AND ($4::bigint IS NULL OR subject_check_id < $4)
          ORDER BY subject_check_id DESC LIMIT $5`,
        [...params, filter.before ?? null, filter.limit + 1],
      ),
      this.deps.pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${this.schema}.subject_checks WHERE ${where}`, params),
    ]);
    const page = rows.slice(0, filter.limit);
    const nextCursor = rows.length > filter.limit ? Number(page[page.length - 1]!.subject_check_id) : null;
    return { items: page.map(toView), total: count.rows[0]?.total ?? 0, nextCursor };
  }

  /**
   * The portal's history (GET /api/portal/subject-checks): newest first, page-numbered, optionally by
   * status and by a partial, case-insensitive match on the subject's full name (LIKE wildcards in the
   * search are matched literally).
   */
  async search(
    accountId: string,
    filter: { page: number; limit: number; status?: SubjectCheckStatus; search?: string },
  ): Promise<{ items: SubjectCheckView[]; total: number }> {
    const fullName = `concat_ws(' ', first_name, middle_name, last_name)`;
    const where = `account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR ${fullName} ILIKE $3)`;
    const pattern = filter.search ? `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const params = [accountId, filter.status ?? null, pattern];
    const [{ rows }, count] = await Promise.all([
      this.deps.pool.query<Row>(
        `SELECT * FROM ${this.schema}.subject_checks WHERE ${where} ORDER BY subject_check_id DESC LIMIT $4 OFFSET $5`,
        [...params, filter.limit, (filter.page - 1) * filter.limit],
      ),
      this.deps.pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${this.schema}.subject_checks WHERE ${where}`, params),
    ]);
    return { items: rows.map(toView), total: count.rows[0]?.total ?? 0 };
  }

  /** needs_review → completed (clear) or escalated (adverse). Other states: IllegalTransition. */
  async resolveReview(principal: Principal, subjectCheckId: number, input: ReviewDecisionInput, ctx: CommandContext): Promise<SubjectCheckDetailView> {
    const id = String(subjectCheckId);
    return this.decideOwned(principal, id, {
      type: 'ResolveReview',
      data: {
        subjectCheckId: id,
        outcome: input.outcome,
        reviewer: input.reviewer ?? reviewerOf(principal),
        note: input.note,
        ...(input.outcome === 'adverse' ? { investigationId: investigationIdFor(id) } : {}),
      },
      metadata: this.meta(ctx),
    });
  }

  /** escalated → completed. Other states: IllegalTransition. */
  async closeInvestigation(principal: Principal, subjectCheckId: number, input: ReviewDecisionInput, ctx: CommandContext): Promise<SubjectCheckDetailView> {
    const id = String(subjectCheckId);
    return this.decideOwned(principal, id, {
      type: 'CloseInvestigation',
      data: { subjectCheckId: id, outcome: input.outcome, reviewer: input.reviewer ?? reviewerOf(principal), note: input.note },
      metadata: this.meta(ctx),
    });
  }

  private async decideOwned(principal: Principal, id: string, command: SubjectCheckCommand): Promise<SubjectCheckDetailView> {
    const stream = subjectCheckStream(id);
    const { state } = await loadAggregate(this.deps.store, subjectCheckDecider, stream);
    // Another account's check looks exactly like a missing one.
    if (state.status === 'none' || state.accountId !== principal.accountId) throw new NotFound('subject check', id);
    await handleCommand(this.deps.store, subjectCheckDecider, stream, command);
    await this.deps.readModelsCaughtUp();
    const view = await this.get(principal.accountId, Number(id));
    if (!view) throw new NotFound('subject check', id);
    return view;
  }
}

/** The events that end a subject check's pipeline (review, escalation, completion, failure): its in-flight slot is then free. */
export const SUBJECT_CHECK_PIPELINE_ENDS = ['SubjectCheckReviewRequired', 'SubjectCheckEscalated', 'SubjectCheckCompleted', 'SubjectCheckFailed'] as const;

/** Investigation id of a check's (only) escalation: deterministic, so a retried command appends nothing new. */

function reviewerOf(principal: Principal): string {
  return principal.keyId ? `api_key:${principal.keyId}` : `user:${principal.userId ?? 'unknown'}`;
}

export function newCommandContext(principal: Principal, correlationId: string, surface: 's2' = 's2'): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.keyId ? { keyId: principal.keyId } : {}), surface },
    correlationId,
    commandId: randomUUID(),
  };
}
