/**
 * Person checks (FCRA background checks), one service for the S1 endpoints and the S3 portal:
 * request (PersonCheckRequested, after the decider's FCRA rules), wait for completion, get (from
 * the check's own stream, own account only), list (read model), and the PDF report.
 *
 * Identifiers reach the store only as their last four characters (the decider masks them) and are
 * shown masked (`*****1234`); the date of birth is shown as its year only. Nothing here logs input.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  PERSON_CHECK_ID,
  personCheckDecider,
  streamName,
  type PersonCheckCompleted,
  type PersonCheckPurpose,
  type PersonCheckRequestFields,
  type PersonCheckRequested,
} from '../../commands/person-check';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { projectionSchema } from '../../projections/projection';
import type { PersonCheckReport } from '../../reports/model';
import { renderPersonCheckPdf } from '../../reports/pdf/person-check-report';
import { systemTimer, type Clock, type Timer } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import { NotFound } from '../../commands/errors';
import { handleCommand } from '../../commands/command-handler';
import { bindCreate } from '../idempotency/binding';
import type { AdmissionSlot, ScreeningAdmission } from '../screenings/admission';
import type { CommandContext, Principal, RiskLevel } from '../services';
import type { ListsInServiceView } from '../services';
import type { HeldDocument, HeldDocuments } from '../../agents/person/held-documents';
import { identifierKindOf } from '../watchlists/import-parser';

export type PersonCheckResult = 'clean' | 'adverse_found' | 'inconclusive';

/** The request as the surfaces pass it (the decider validates it). */
export type PersonCheckRequestInput = PersonCheckRequestFields;

export interface PersonCheckFindingView {
  id: string;
  severity: 'info' | 'warning' | 'red_flag';
  category: string;
  corroboration: 'name_dob' | 'name_location' | 'name_only';
  title: string;
  matched_name: string;
  why: string;
  detail: string | null;
  source: { name: string; url: string | null; entity_id: string | null; retrieved_at: string };
}

export interface PersonCheckSourceView {
  source: string;
  label: string;
  phase: number;
  searched: boolean;
  error: string | null;
  records_found: number;
  links: { label: string; url: string }[];
  /** Parts of a searched source that were not available (e.g. PEP lists not loaded). */
  notes: string[];
  duration_ms: number | null;
}

export interface PersonCheckSummaryView {
  id: string;
  full_name: string;
  purpose: PersonCheckPurpose;
  result: PersonCheckResult | null;
  confidence: 'high' | 'medium' | 'low' | null;
  status: 'running' | 'completed' | 'failed';
  red_flag_count: number;
  warning_count: number;
  sources_checked: number;
  sources_total: number;
  risk_score: number | null;
  risk_level: RiskLevel | null;
  created_at: string;
  completed_at: string | null;
}

export interface PersonCheckView extends PersonCheckSummaryView, Partial<ListsInServiceView> {
  accountId: string;
  surface: 's1' | 'portal';
  findings: PersonCheckFindingView[];
  subject: {
    first_name: string | null;
    middle_name: string | null;
    last_name: string | null;
    /** Year only: `1980-**-**`. */
    date_of_birth: string | null;
    aliases: string[];
    locations: string[];
    associated_domain: string | null;
    /** `*****1234`: only the last four characters were ever stored. */
    identifiers: { type: string; value: string }[];
  };
  consent: { fcra_consent: true; permissible_purpose: PersonCheckPurpose; recorded_at: string };
  sources: PersonCheckSourceView[];
  verdict_reasons: string[];
  failure_reason: string | null;
}

export interface PersonCheckListFilter {
  page: number;
  limit: number;
  result?: PersonCheckResult;
}

export interface PersonCheckService {
  request(principal: Principal, input: PersonCheckRequestInput, ctx: CommandContext): Promise<PersonCheckView>;
  /** The finished view (completed or failed), or undefined when still running after timeoutMs. */
  waitForCompletion(accountId: string, id: string, timeoutMs: number): Promise<PersonCheckView | undefined>;
  /** Own checks only: undefined for a malformed id or another account's check. */
  get(accountId: string, id: string): Promise<PersonCheckView | undefined>;
  list(accountId: string, filter: PersonCheckListFilter): Promise<{ items: PersonCheckSummaryView[]; total: number }>;
  pdf(accountId: string, id: string): Promise<Buffer | undefined>;
}

/** The events that end a person check's pipeline (its in-flight slot is then free). */
export const PERSON_CHECK_ENDS = ['PersonCheckCompleted', 'PersonCheckFailed'] as const;

export function newPersonCheckId(): string {
  return `SVC-${randomBytes(4).toString('hex')}-P`;
}

/**
 * The request's identifiers the internal lists can compare whole (passport, national id, SSN, tax id,
 * licence…, named as the list import names its columns): a partial one (`ssn_last4`) or an unknown
 * kind is not compared.
 */
export function matchingDocuments(identifiers: readonly { type: string; value: string }[] | undefined): HeldDocument[] {
  return (identifiers ?? []).flatMap((i) => {
    const kind = identifierKindOf(i.type);
    return kind ? [{ type: kind.kind, value: i.value.trim(), ...(kind.country ? { country: kind.country } : {}) }] : [];
  });
}

export function maskedIdentifier(last4: string): string {
  return `*****${last4}`;
}

export function maskedDateOfBirth(date: string | undefined): string | null {
  return date ? `${date.slice(0, 4)}-**-**` : null;
}

interface RecordedResult {
  phase: number;
  agent: string;
  queried: boolean;
  error?: string;
  result: {
    label?: string;
    records?: unknown[];
    links?: { label: string; url: string }[];
    durationMs?: number;
    data?: { notes?: string[] };
    verdict?: { reasons?: string[] };
    /** Corroboration only: the findings with their ids and record details. */
    findings?: { id?: string; detail?: string }[];
  };
}

/** The full view from a check's stream; undefined when the stream is not a person check. */
export function buildPersonCheckView(events: readonly RecordedEvent[]): PersonCheckView | undefined {
  const requested = events.find((e) => e.type === 'PersonCheckRequested') as unknown as PersonCheckRequested | undefined;
  if (!requested) return undefined;
  const r = requested.data;
  const completed = events.find((e) => e.type === 'PersonCheckCompleted') as unknown as PersonCheckCompleted | undefined;
  const failed = events.find((e) => e.type === 'PersonCheckFailed') as unknown as { data: { reason: string; failedAt: string } } | undefined;
  const results = events.filter((e) => e.type === 'PersonCheckAgentResultRecorded').map((e) => e.data as unknown as RecordedResult);
  const c = completed?.data;
  const sources: PersonCheckSourceView[] = results
    .filter((x) => x.phase >= 2 && x.phase <= 6)
    .map((x) => ({
      source: x.agent,
      label: x.result.label ?? x.agent,
      phase: x.phase,
      searched: x.queried,
      error: x.queried ? null : (x.error ?? 'not queried'),
      records_found: x.queried ? (x.result.records?.length ?? 0) : 0,
      links: x.result.links ?? [],
      notes: x.result.data?.notes ?? [],
      duration_ms: x.result.durationMs ?? null,
    }));
  const corroboration = results.find((x) => x.agent === 'corroboration');
  const detailed = corroboration?.result.findings ?? [];
  const findings: PersonCheckFindingView[] = (c?.findings ?? []).map((f, i) => {
    const extra = { ...(f as typeof f & { id?: string; detail?: string }), ...(detailed[i] ?? {}) };
    return {
      id: extra.id ?? `F${i + 1}`,
      severity: f.severity,
      category: f.category,
      corroboration: f.corroboration,
      title: f.title ?? f.matchedName,
      matched_name: f.matchedName,
      why: f.why,
      detail: extra.detail ?? null,
      source: { name: f.source.name, url: f.source.url ?? null, entity_id: f.source.entityId ?? null, retrieved_at: f.source.retrievedAt },
    };
  });
  return {
    id: r.personCheckId,
    accountId: r.accountId,
    surface: r.surface,
    full_name: r.fullName,
    purpose: r.purpose,
    result: c?.result ?? null,
    confidence: c?.confidence ?? null,
    status: c ? 'completed' : failed ? 'failed' : 'running',
    red_flag_count: c?.redFlagCount ?? 0,
    warning_count: c?.warningCount ?? 0,
    sources_checked: c?.sourcesChecked ?? sources.filter((s) => s.searched).length,
    sources_total: c?.sourcesTotal ?? Object.entries(r.agents).filter(([phase]) => Number(phase) >= 2 && Number(phase) <= 6).flatMap(([, a]) => a).length,
    risk_score: c?.riskScore ?? null,
    risk_level: c?.riskLevel ?? null,
    created_at: r.requestedAt,
    completed_at: c?.completedAt ?? failed?.data.failedAt ?? null,
    findings,
    subject: {
      first_name: r.firstName ?? null,
      middle_name: r.middleName ?? null,
      last_name: r.lastName ?? null,
      date_of_birth: maskedDateOfBirth(r.dateOfBirth),
      aliases: r.aliases,
      locations: r.locations,
      associated_domain: r.associatedDomain ?? null,
      identifiers: r.identifiers.map((i) => ({ type: i.type, value: maskedIdentifier(i.last4) })),
    },
    consent: { fcra_consent: true, permissible_purpose: r.purpose, recorded_at: r.consentRecordedAt },
    sources,
    verdict_reasons: corroboration?.result.verdict?.reasons ?? [],
    failure_reason: failed?.data.reason ?? null,
  };
}

/** The PDF's data from the view (already masked) and the stream's audit trail. */
export function personCheckReport(view: PersonCheckView, events: readonly RecordedEvent[], dateOfBirth?: string): PersonCheckReport {
  return {
    id: view.id,
    accountId: view.accountId,
    createdAt: view.created_at,
    ...(view.completed_at ? { completedAt: view.completed_at } : {}),
    subject: {
      fullName: view.full_name,
      ...(view.subject.aliases.length ? { aliases: view.subject.aliases } : {}),
      // The renderer shows the year only.
      ...(dateOfBirth ? { dateOfBirth } : {}),
      ...(view.subject.locations.length ? { locations: view.subject.locations } : {}),
      identifiers: view.subject.identifiers,
      ...(view.subject.associated_domain ? { associatedDomain: view.subject.associated_domain } : {}),
    },
    purpose: view.purpose,
    consent: { fcraConsent: true, recordedAt: view.consent.recorded_at, permissiblePurposeCertified: true },
    result: view.result ?? 'inconclusive',
    confidence: view.confidence ?? 'low',
    ...(view.risk_score !== null ? { riskScore: view.risk_score } : {}),
    ...(view.risk_level ? { riskLevel: view.risk_level } : {}),
    ...(riskReasonOf(view.verdict_reasons) ? { riskReason: riskReasonOf(view.verdict_reasons)! } : {}),
    findings: view.findings.map((f) => ({
      id: f.id,
      severity: f.severity,
      category: f.category,
      corroboration: f.corroboration,
      title: f.title,
      detail: [f.why, f.detail].filter(Boolean).join('. '),
      source: `${f.source.name}${f.source.entity_id ? ` (${f.source.entity_id})` : ''}, retrieved ${f.source.retrieved_at}`,
      ...(f.source.url ? { sourceUrl: f.source.url } : {}),
    })),
    sourcesSearched: view.sources
      .filter((s) => s.searched)
      .map((s) => ({
        source: s.notes.length ? `${s.label} (${s.notes.join('; ')})` : s.label,
        matchCount: s.records_found,
        ...(s.duration_ms !== null ? { durationMs: s.duration_ms } : {}),
      })),
    sourcesNotSearched: view.sources
      .filter((s) => !s.searched)
      .map((s) => ({ source: s.label, reason: [s.error ?? 'not queried', ...s.links.map((l) => `${l.label}: ${l.url}`)].join('; ') })),
    audit: { events: events.map((e) => ({ type: e.type, occurredAt: e.metadata.occurredAt, eventId: e.metadata.eventId, position: e.streamPosition.toString() })) },
  };
}

export class PgPersonCheckService implements PersonCheckService {
  private readonly schema = projectionSchema('person_checks');

  constructor(
    private readonly deps: {
      store: EventStore;
      pool: pg.Pool;
      clock: Clock;
      /** Elapsed time for the deadline of waitForCompletion (default: the system's monotonic time). */
      timer?: Timer;
      unicodeFontPath?: string;
      pollIntervalMs?: number;
      /** Resolves once the read models have applied everything appended so far (read-your-writes for the list). */
      readModelsCaughtUp?: () => Promise<void>;
      /** Throws ListsStaleError when LISTS_STALE_POLICY=refuse and a list is too old (before anything is written). */
      listGate?: { assertUsable(): void };
      /** Backpressure: a slot per person check in flight (MAX_INFLIGHT_PERSON_CHECKS); none = no limit. */
      admission?: ScreeningAdmission;
      /** The lists in service with their ages, added to every check read (docs/lists.md). */
      listsInService?: () => ListsInServiceView;
      /** The account's active internal-list versions (`watchlist-<id>@v<n>`), pinned in PersonCheckRequested. */
      activeInternalLists?: (accountId: string) => Promise<string[]>;
      /** Where the request's whole documents are held for this process's list agent (never stored, never logged). */
      heldDocuments?: HeldDocuments;
    },
  ) {}

  async request(principal: Principal, input: PersonCheckRequestInput, ctx: CommandContext): Promise<PersonCheckView> {
    this.deps.listGate?.assertUsable();
    const slot = this.deps.admission?.acquire(); // throws Overloaded at capacity, before anything is written
    try {
      return await this.requestAdmitted(principal, input, ctx, slot);
    } catch (error) {
      slot?.release();
      throw error;
    }
  }

  private async requestAdmitted(principal: Principal, input: PersonCheckRequestInput, ctx: CommandContext, slot: AdmissionSlot | undefined): Promise<PersonCheckView> {
    // With an Idempotency-Key the id is bound to the key before the append (a retry after a crash finds it).
    const { id: personCheckId, meta } = await bindCreate(ctx, 'person-check', async () => newPersonCheckId());
    if (ctx.idempotency) {
      const existing = await this.deps.store.readStream(streamName(personCheckId));
      if (existing.length > 0) {
        slot?.release();
        const view = buildPersonCheckView(existing);
        if (!view || view.accountId !== principal.accountId) throw new NotFound('person check', personCheckId);
        return view;
      }
    }
    slot?.bind(streamName(personCheckId)); // before the append: its end cannot be seen earlier
    const surface = principal.surface === 's1' ? 's1' : 'portal';
    const internalListVersions = await this.deps.activeInternalLists?.(principal.accountId);
    // Held before the append: the workflow may start the moment PersonCheckRequested is recorded.
    if (input.identifiers?.length) this.deps.heldDocuments?.hold(personCheckId, matchingDocuments(input.identifiers));
    const handled = await handleCommand(this.deps.store, personCheckDecider, streamName(personCheckId), {
      type: 'RequestPersonCheck',
      data: {
        personCheckId,
        accountId: principal.accountId,
        surface,
        fullName: input.fullName,
        ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
        ...(input.middleName !== undefined ? { middleName: input.middleName } : {}),
        ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
        purpose: input.purpose,
        fcraConsent: input.fcraConsent,
        ...(input.dateOfBirth !== undefined ? { dateOfBirth: input.dateOfBirth } : {}),
        ...(input.locations !== undefined ? { locations: input.locations } : {}),
        ...(input.aliases !== undefined ? { aliases: input.aliases } : {}),
        ...(input.associatedDomain !== undefined ? { associatedDomain: input.associatedDomain } : {}),
        ...(input.identifiers !== undefined ? { identifiers: input.identifiers } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.address !== undefined ? { address: input.address } : {}),
        ...(internalListVersions ? { internalListVersions } : {}),
      },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, correlationId: ctx.correlationId, ...meta },
    }).catch((error: unknown) => {
      this.deps.heldDocuments?.release(personCheckId);
      throw error;
    });
    const stream = streamName(personCheckId);
    // Another attempt of the same request (a lease taken over while the first still ran) recorded it first.
    if (handled.alreadyRecorded) {
      const view = buildPersonCheckView(await this.deps.store.readStream(stream));
      if (!view || view.accountId !== principal.accountId) throw new NotFound('person check', personCheckId);
      return view;
    }
    return buildPersonCheckView(
      handled.events.map((e, i) => ({ ...e, streamName: stream, streamPosition: BigInt(i), globalPosition: 0n, recordedAt: e.metadata.occurredAt })),
    )!;
  }

  private async load(accountId: string, id: string): Promise<{ view: PersonCheckView; events: RecordedEvent[] } | undefined> {
    if (typeof id !== 'string' || !PERSON_CHECK_ID.test(id)) return undefined;
    const events = await this.deps.store.readStream(streamName(id));
    const view = buildPersonCheckView(events);
    // Tenant isolation: another account's check is indistinguishable from a missing one.
    if (!view || view.accountId !== accountId) return undefined;
    return { view, events };
  }

  async get(accountId: string, id: string): Promise<PersonCheckView | undefined> {
    const view = (await this.load(accountId, id))?.view;
    return view && this.deps.listsInService ? { ...view, ...this.deps.listsInService() } : view;
  }

  async waitForCompletion(accountId: string, id: string, timeoutMs: number): Promise<PersonCheckView | undefined> {
    const timer = this.deps.timer ?? systemTimer;
    const deadline = timer.nowMs() + timeoutMs;
    const interval = this.deps.pollIntervalMs ?? 100;
    for (;;) {
      const view = await this.get(accountId, id);
      if (!view) return undefined;
      if (view.status !== 'running') {
        // A finished check is answered only once the list can show it.
        await this.deps.readModelsCaughtUp?.();
        return view;
      }
      const remaining = deadline - timer.nowMs();
      if (remaining <= 0) return undefined;
      await new Promise((resolve) => setTimeout(resolve, Math.min(interval, remaining)));
    }
  }

  async list(accountId: string, filter: PersonCheckListFilter): Promise<{ items: PersonCheckSummaryView[]; total: number }> {
    const where = ['account_id = $1'];
    const values: unknown[] = [accountId];
    if (filter.result) {
      values.push(filter.result);
      where.push(`result = $${values.length}`);
    }
    const whereSql = where.join(' AND ');
    const total = await this.deps.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${this.schema}.person_checks WHERE ${whereSql}`, values);
    values.push(filter.limit, (filter.page - 1) * filter.limit);
    const { rows } = await this.deps.pool.query(
      `SELECT * FROM ${this.schema}.person_checks WHERE ${whereSql}
       ORDER BY created_at DESC, global_position DESC LIMIT $${values.length - 1} OFFSET $${values.length}`,
      values,
    );
    const items = rows.map(
      (row): PersonCheckSummaryView => ({
        id: row.person_check_id,
        full_name: row.full_name,
        purpose: row.purpose,
        result: row.result,
        confidence: row.confidence,
        status: row.status,
        red_flag_count: row.red_flag_count,
        warning_count: row.warning_count,
        sources_checked: row.sources_checked,
        sources_total: row.sources_total,
        risk_score: row.risk_score,
        risk_level: row.risk_level,
        created_at: new Date(row.created_at).toISOString(),
        completed_at: row.completed_at ? new Date(row.completed_at).toISOString() : null,
      }),
    );
    return { items, total: Number(total.rows[0]!.n) };
  }

  async pdf(accountId: string, id: string): Promise<Buffer | undefined> {
    const found = await this.load(accountId, id);
    if (!found) return undefined;
    const requested = found.events[0] as unknown as PersonCheckRequested;
    const report = personCheckReport(found.view, found.events, requested.data.dateOfBirth);
    return renderPersonCheckPdf(report, {
      generatedAt: this.deps.clock.now(),
      ...(this.deps.unicodeFontPath ? { unicodeFontPath: this.deps.unicodeFontPath } : {}),
    });
  }
}

/** The scorer's one sentence of why, recorded as the verdict's last reason (`risk: …`). */
function riskReasonOf(reasons: readonly string[]): string | undefined {
  const line = [...reasons].reverse().find((r) => r.startsWith('risk: '));
  return line?.slice('risk: '.length);
}
