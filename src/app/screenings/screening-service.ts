/**
 * Over 500 lines on purpose: the one application service behind S1, S3 and the portal's screenings
 * (start with admission and idempotency binding, read from the detail read model, dispositions,
 * assignment, reports); the rules live in the decider and the report fold, what stays here is I/O.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AnalystNames } from '../accounts/analyst-names';
import { screeningDecider, streamName as screeningStream, type ScreeningRequested } from '../../commands/screening';
import type { EventStore, Subscription } from '../../infrastructure/eventstore/port';
import { projectionSchema } from '../../projections/projection';
import { buildJsonReport } from '../../reports/json-report';
import { derivedFlags } from '../../reports/sections';
import { assessmentOf, confirmationOf, hitStatusOf, machineStandingOf, standingOf } from '../../reports/confirmation';
import { HIT_CATEGORIES, type CountryRiskFinding, type ReportHit, type ScreeningReport } from '../../reports/model';
import { watchlistVersionId } from '../../screening/watchlists/model';
import { renderScreeningReportPdf } from '../../reports/pdf/screening-report';
import { systemTimer, type Clock, type Timer } from '../../shared/clock';
import type { RecordedEvent } from '../../shared/events';
import { NotFound } from '../../commands/errors';
import { handleCommand } from '../../commands/command-handler';
import { bindCreate, type CreateCommandMeta } from '../idempotency/binding';
import type { IdBlocks } from '../ids';
import type {
  CommandContext,
  HitView,
  Principal,
  ScreeningDetailView,
  ScreeningListFilter,
  ScreeningRequestInput,
  ScreeningService,
  ScreeningView,
} from '../services';
import { allHits, buildScreeningReport, finishReport, foldReportEvent, startReport, type ReportContext, type ScreeningReportFold } from '../../projections/screening-report';
import { readScreeningDetail, type ScreeningDetailRow } from '../../projections/read-models/screening-details';
import type { AdmissionSlot, ScreeningAdmission } from './admission';
import { programmeView } from '../../reports/sections';

/** Where a read takes a screening's report from: the detail read model (the default) or a fold of its stream. */
export type DetailSource = 'read_model' | 'stream';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The S1 Screening resource from the report (one code path for every surface). */
export function screeningView(report: ScreeningReport, surface: ScreeningView['surface']): ScreeningView {
  const analysis = report.analysis?.markdown ?? null;
  return {
    id: report.id,
    uuid: report.uuid,
    kind: report.kind,
    surface,
    accountId: report.accountId ?? '',
    search_query: report.subject.query,
    entity_type: report.subject.entityType,
    jurisdiction: report.subject.jurisdiction ?? null,
    risk_level: report.status === 'completed' ? report.verdict.riskLevel : null,
    risk_score: report.status === 'completed' ? report.verdict.riskScore : null,
    status: report.status,
    sanctions_hits: report.hits.sanctions.length,
    pep_hits: report.hits.pep.length,
    adverse_media_hits: report.hits.adverse_media.length,
    offshore_leaks_hits: report.hits.offshore_leaks.length,
    summary: report.verdict.summary ?? null,
    edd_analysis: report.kind === 'edd' ? analysis : null,
    ma_analysis: report.kind === 'ma' ? analysis : null,
    sow_analysis: report.kind === 'sow' ? analysis : null,
    created_at: report.createdAt,
    completed_at: report.completedAt ?? null,
    list_warnings: listWarnings(report),
    risk_flags: report.status === 'completed' ? derivedFlags(report) : [],
    risk_reason: report.status === 'completed' ? (report.verdict.reason ?? null) : null,
    offshore_leaks_search: offshoreLeaksSearch(report),
  };
}

/** Whether the offshore-leak agent searched (null until it answered), and why it did not. */
export function offshoreLeaksSearch(report: ScreeningReport): NonNullable<ScreeningView['offshore_leaks_search']> {
  const answer = report.agents.find((a) => a.agent === 'offshore_leaks');
  if (!answer) return { searched: null, reason: null };
  return { searched: answer.queried, reason: answer.queried ? null : (answer.error ?? 'not queried') };
}

/** The staleness warning of every list the screening used (recorded at completion). */
export function listWarnings(report: ScreeningReport): string[] {
  return report.audit.listVersions.flatMap((v) => (v.warning ? [v.warning] : []));
}

export function detailView(report: ScreeningReport, surface: ScreeningView['surface']): ScreeningDetailView {
  const hits: HitView[] = allHits(report).map((h) => ({
    hit_id: h.hitId,
    category: h.category,
    list: h.sourceLabel ?? h.source,
    // An internal list's version is its own (several internal lists share the source id).
    list_version: (h.internalList ? report.audit.listVersions.find((v) => v.versionId === watchlistVersionId(h.internalList!.watchlistId, h.internalList!.version)) : undefined)?.versionId ??
      report.audit.listVersions.find((v) => v.source === h.source)?.versionId ??
      '',
    entity_id: h.entityId,
    entity_name: h.entityName,
    entity_type: h.entitySchema ?? 'unknown',
    matched_name: h.matchedName,
    matched_name_kind: h.matchedNameKind ?? 'primary',
    score: Math.round(h.score * 1000) / 1000,
    match_strength: hitStatusOf(h),
    match_assessment: assessmentOf(h),
    standing: standingOf(h) ?? assessmentOf(h),
    machine_standing: machineStandingOf(h),
    confirmation: confirmationOf(h) ?? null,
    explanation: h.explanation.summary,
    qualifiers: h.explanation.qualifiers.map((q) => ({ kind: q.kind, effect: q.effect, detail: q.detail })),
    programs: h.programs,
    source_url: h.sourceUrl ?? null,
    disposition:
      h.disposition
        ? { status: h.disposition.decision, reason: h.disposition.note ?? '', analyst: h.disposition.by, at: h.disposition.at }
        : null,
    ...(h.sources?.length
      ? {
          sources: h.sources.map((s) => ({
            list: s.source,
            list_label: s.sourceLabel ?? null,
            entity_id: s.entityId ?? null,
            list_version: s.listVersion ?? null,
            list_published_at: s.publishedAt ?? null,
          })),
        }
      : {}),
    ...(h.birthDates?.length ? { date_of_birth: h.birthDates } : {}),
    ...(h.nationalities?.length ? { nationality: h.nationalities } : {}),
    ...(h.identifiers?.length ? { identifiers: h.identifiers.map((i) => ({ type: i.type, value: i.value, country: i.country ?? null })) } : {}),
    ...(h.aliases?.length ? { aliases: h.aliases } : {}),
    ...(h.typeMismatch ? { type_mismatch: { expected: h.typeMismatch.expected, listed: h.typeMismatch.listed, type_given: h.typeMismatch.typeGiven } } : {}),
    ...(h.internalList ? { internal_list: internalListView(report, h.internalList) } : {}),
  }));
  const subjectCountry = report.countryRisk.find((c) => c.basis === 'subject_jurisdiction');
  const subjectCountries = report.countryRisk.filter((c) => c.basis === 'subject_jurisdiction' || c.basis === 'subject_nationality');
  return {
    ...screeningView(report, surface),
    subject: {
      date_of_birth: report.subject.dateOfBirth ?? null,
      nationality: report.subject.nationality ?? null,
      identifiers: report.subject.identifiers ?? [],
      phone: report.subject.phone ?? null,
      email: report.subject.email ?? null,
    },
    hits,
    sources: report.agents.map((a) => ({ agent: a.agent, phase: a.phase, queried: a.queried, error: a.error ?? null, duration_ms: a.durationMs })),
    country_risk: subjectCountry ? countryRiskView(subjectCountry) : null,
    country_risks: subjectCountries.map((c) => ({ ...countryRiskView(c), basis: c.basis === 'subject_nationality' ? ('nationality' as const) : ('jurisdiction' as const) })),
    list_versions: report.audit.listVersions.map((v) => ({
      list: v.source,
      version: v.versionId,
      content_hash: v.contentHash,
      published_at: v.publishedAt ?? null,
      published_at_source: v.publishedAtSource ?? null,
      loaded_at: v.loadedAt ?? null,
      age_days: v.ageDays ?? null,
      max_age_days: v.maxAgeDays ?? null,
      stale: v.stale ?? false,
    })),
    list_warnings: listWarnings(report),
    matcher_version: report.status === 'completed' ? report.audit.matcherVersion : null,
  };
}

/** A country's risk as the surfaces show it: FATF status and the sanctions programmes targeting it. */
function countryRiskView(c: CountryRiskFinding) {
  return {
    country: c.iso2,
    status: c.fatfStatus,
    as_of: c.asOf,
    ...(c.sanctionsScope ? { sanctions_scope: c.sanctionsScope } : {}),
    ...(c.sanctions ? { sanctions_programmes: c.sanctions.map(programmeView) } : {}),
  };
}

/** The internal list a hit is on: its name, severity, the version screened and when that version was in service. */
function internalListView(report: ScreeningReport, ref: NonNullable<ReportHit['internalList']>) {
  const version = report.audit.listVersions.find((v) => v.versionId === watchlistVersionId(ref.watchlistId, ref.version));
  return { watchlist_id: ref.watchlistId, name: ref.name, severity: ref.severity, version: ref.version, as_of: version?.loadedAt ?? null };
}

/** The fold of a whole screening stream, undefined without its ScreeningRequested. */
function foldScreeningStream(events: readonly RecordedEvent[]): ScreeningReportFold | undefined {
  const first = events.findIndex((e) => e.type === 'ScreeningRequested');
  if (first < 0) return undefined;
  const fold = startReport(events[first] as RecordedEvent & ScreeningRequested);
  for (const event of events) foldReportEvent(fold, event);
  return fold;
}

/** Each decision's analyst by name (an e-mail, an API key's name) instead of the stable identity. */
async function nameAnalysts(fold: ScreeningReportFold, lookup: (identities: string[]) => Promise<Map<string, string>>): Promise<void> {
  const decisions = Object.values(fold.dispositions);
  if (decisions.length === 0) return;
  const names = await lookup([...new Set(decisions.map((d) => d.by))]);
  for (const [hitId, d] of Object.entries(fold.dispositions)) fold.dispositions[hitId] = { ...d, by: names.get(d.by) ?? d.by };
}

/** Screenings whose end the notifier remembers, for a waiter that arrives just after it. */
const RECENT_ENDS = 1_000;

/** Wakes waiters when a screening stream records its completion or failure. */
export class CompletionNotifier {
  private readonly waiters = new Map<string, Set<() => void>>();
  /**
   * Streams that recently completed or failed, with the end's global position (insertion order =
   * age), so a late waiter need not poll and the stream can be read as of its end.
   */
  private readonly recentEnds = new Map<string, bigint>();
  private subscription: Subscription | undefined;
  private readonly endListeners: ((stream: string) => void)[] = [];
  /** Listeners for other event types (the ends of person and subject checks, for their admission). */
  private readonly typeListeners = new Map<string, ((stream: string) => void)[]>();

  constructor(private readonly store: EventStore & { headPosition?: () => Promise<bigint> }) {}

  /** Called with the stream name of every screening that completes or fails from now on. */
  onEnd(listener: (stream: string) => void): void {
    this.endListeners.push(listener);
  }

  /** Called with the stream name of every event of these types from now on. */
  onEvents(types: readonly string[], listener: (stream: string) => void): void {
    for (const type of types) this.typeListeners.set(type, [...(this.typeListeners.get(type) ?? []), listener]);
  }

  async start(): Promise<void> {
    const head = this.store.headPosition ? await this.store.headPosition() : undefined;
    this.subscription = this.store.subscribeToAll(
      async (event: RecordedEvent) => {
        const others = this.typeListeners.get(event.type);
        if (others) for (const listener of others) listener(event.streamName);
        if (event.type !== 'ScreeningCompleted' && event.type !== 'ScreeningFailed') return;
        this.recentEnds.set(event.streamName, event.globalPosition);
        for (const listener of this.endListeners) listener(event.streamName);
        if (this.recentEnds.size > RECENT_ENDS) this.recentEnds.delete(this.recentEnds.keys().next().value!);
        const set = this.waiters.get(event.streamName);
        if (set) for (const wake of set) wake();
      },
      { ...(head !== undefined ? { after: head } : {}), pollIntervalMs: 250 },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }

  /** True once this process has seen the stream complete or fail (among the last RECENT_ENDS). */
  ended(stream: string): boolean {
    return this.recentEnds.has(stream);
  }

  /** Global position of the stream's end, if this process saw it (see ended). */
  endPosition(stream: string): bigint | undefined {
    return this.recentEnds.get(stream);
  }

  /** Resolves true when woken, false on timeout. */
  wait(stream: string, timeoutMs: number): { promise: Promise<boolean>; cancel: () => void } {
    let wake!: () => void;
    let timer: NodeJS.Timeout;
    const promise = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const set = this.waiters.get(stream) ?? new Set();
    set.add(wake);
    this.waiters.set(stream, set);
    const cancel = () => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0) this.waiters.delete(stream);
    };
    void promise.then(cancel);
    return { promise, cancel };
  }
}

export class PgScreeningService implements ScreeningService {
  private readonly schema = projectionSchema('screenings');
  private readonly detailsSchema = projectionSchema('screening_details');

  constructor(
    private readonly deps: {
      store: EventStore;
      pool: pg.Pool;
      clock: Clock;
      /** Elapsed time for the deadline of waitForCompletion (default: the system's monotonic time). */
      timer?: Timer;
      notifier: CompletionNotifier;
      ids: IdBlocks;
      reportContext: () => ReportContext;
      /** Resolves once the read models have applied everything committed so far, or through a position (read-your-writes). */
      readModelsCaughtUp?: (through?: bigint) => Promise<void>;
      unicodeFontPath?: string;
      /** E-mails and key names for the analysts the filed PDF names (events keep their stable ids). */
      analystNames?: AnalystNames;
      /** Throws ListsStaleError when LISTS_STALE_POLICY=refuse and a list is too old (before anything is written). */
      listGate?: { assertUsable(): void };
      /** Backpressure: a slot per screening in flight; none = no limit. */
      admission?: ScreeningAdmission;
      /** The account's active internal-list versions, pinned in the request (issue 21): a run screens exactly those. */
      activeInternalLists?: (accountId: string) => Promise<string[]>;
    },
  ) {}

  async request(principal: Principal, input: ScreeningRequestInput, ctx: CommandContext): Promise<ScreeningView> {
    this.deps.listGate?.assertUsable();
    // With an Idempotency-Key the id is bound to the key before the append: a retry after a crash
    // between the append and the recorded answer finds its screening here and answers it.
    // (Admitted first, so a refusal at capacity binds nothing and the key stays free.)
    const slot = this.deps.admission?.acquire(); // throws Overloaded at capacity, before anything is written
    try {
      const { id: screeningId, meta } = await bindCreate(ctx, 'screening', () => this.deps.ids.next('screening_id_seq'));
      const existing = ctx.idempotency ? await this.existing(principal, screeningId) : undefined;
      if (existing) {
        slot?.release();
        return existing;
      }
      return await this.requestAdmitted(principal, input, ctx, slot, screeningId, meta);
    } catch (error) {
      slot?.release();
      throw error;
    }
  }

  /** The screening this request already created under its bound id (undefined: not created yet). */
  private async existing(principal: Principal, screeningId: string): Promise<ScreeningView | undefined> {
    const events = await this.deps.store.readStream(screeningStream(screeningId));
    if (events.length === 0) return undefined;
    const report = buildScreeningReport(events, this.deps.reportContext());
    // The binding is scoped to the account and credential, so this is never another tenant's; refuse if it were.
    if (!report || report.accountId !== principal.accountId) throw new NotFound('screening', screeningId);
    return screeningView(report, (events[0]!.data as { surface: ScreeningView['surface'] }).surface);
  }

  private async requestAdmitted(
    principal: Principal,
    input: ScreeningRequestInput,
    ctx: CommandContext,
    slot: AdmissionSlot | undefined,
    screeningId: string,
    meta: CreateCommandMeta,
  ): Promise<ScreeningView> {
    slot?.bind(screeningStream(screeningId)); // before the append: its end cannot be seen earlier
    const surface = principal.surface === 's1' || principal.surface === 's3' ? principal.surface : 'portal';
    const internalListVersions = await this.deps.activeInternalLists?.(principal.accountId);
    const declared = input.declared ?? {};
    const text = (key: string) => (typeof declared[key] === 'string' ? (declared[key] as string) : undefined);
    const pick = (fields: Record<string, string>) => {
      const out: Record<string, string> = {};
      for (const [from, to] of Object.entries(fields)) {
        const value = text(from);
        if (value !== undefined) out[to] = value;
      }
      return out;
    };
    const result = await handleCommand(this.deps.store, screeningDecider, screeningStream(screeningId), {
      type: 'RequestScreening',
      data: {
        screeningId,
        uuid: randomUUID(),
        kind: input.kind,
        surface,
        accountId: principal.accountId,
        plan: principal.plan,
        subject: {
          query: input.query,
          entityType: input.entityType,
          ...(input.entityTypeDefaulted ? { entityTypeDefaulted: true } : {}),
          ...(input.jurisdiction ? { jurisdiction: input.jurisdiction } : {}),
          ...(input.dateOfBirth ? { dateOfBirth: input.dateOfBirth } : {}),
          ...(input.nationality ? { nationality: input.nationality } : {}),
          ...(input.identifiers?.length ? { identifiers: input.identifiers } : {}),
          ...(input.address ? { address: input.address } : {}),
          ...(input.phone ? { phone: input.phone } : {}),
          ...(input.email ? { email: input.email } : {}),
        },
        ...(input.kind === 'edd'
          ? {
              edd: pick({
                source_of_wealth: 'sourceOfWealth',
                source_of_funds: 'sourceOfFunds',
                purpose_of_relationship: 'purposeOfRelationship',
                beneficial_ownership: 'beneficialOwnership',
                pep_relationships: 'pepRelationships',
              }),
            }
          : {}),
        ...(input.kind === 'ma'
          ? {
              ma: pick({
                target_industry: 'targetIndustry',
                acquirer_name: 'acquirerName',
                deal_type: 'dealType',
                deal_value: 'dealValue',
                additional_context: 'additionalContext',
              }) as never,
            }
          : {}),
        ...(input.kind === 'sow'
          ? { sow: { sowScreeningId: `SVC-${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}-SOW`, declaration: declared } }
          : {}),
        ...(input.monitor ? { monitor: true } : {}),
        ...(internalListVersions ? { internalListVersions } : {}),
      },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, correlationId: ctx.correlationId, ...meta },
    }, { newStream: true });
    // Another attempt of the same request (a lease taken over while the first still ran) recorded it first.
    if (result.alreadyRecorded) {
      const existing = await this.existing(principal, screeningId);
      if (existing) return existing;
    }
    const report = buildScreeningReport(
      result.events.map((e, i) => ({ ...e, streamName: screeningStream(screeningId), streamPosition: BigInt(i), globalPosition: 0n, recordedAt: e.metadata.occurredAt })),
      this.deps.reportContext(),
    )!;
    return screeningView(report, surface);
  }

  /**
   * A screening's report: from the detail read model (one query, and the events it has not folded
   * yet), or with `from: 'stream'` folded from the whole stream as every read did before the read
   * model; both give the same report (test/integration/projections/screening-details.test.ts).
   */
  /**
   * The screening's report as of its last event. `prepare` may change the fold before it is
   * finished (and the hits re-scored): the filed PDF names each analyst by e-mail there, so the
   * scorer's reasons ("true match by …") do too.
   */
  private async report(
    accountId: string,
    id: number | string,
    from: DetailSource = 'read_model',
    prepare?: (fold: ScreeningReportFold) => Promise<void>,
  ): Promise<{ report: ScreeningReport; surface: ScreeningView['surface'] } | undefined> {
    const byUuid = typeof id === 'string' && UUID.test(id);
    if (!byUuid && !(typeof id === 'number' ? Number.isSafeInteger(id) && id > 0 : /^[1-9][0-9]{0,15}$/.test(id))) return undefined;
    const found = from === 'stream' ? undefined : await this.detailRow(accountId, byUuid ? { uuid: String(id) } : { screeningId: String(id) });
    let folded: { fold: ScreeningReportFold; surface: string } | undefined;
    if (found) {
      // The read model applies events a moment after they commit: whatever it has not folded yet
      // (usually nothing: an empty read) is folded here, so a read always sees every committed event.
      const newer = await this.deps.store.readStream(screeningStream(String(found.fold.report.id)), { fromRevision: found.position + 1n });
      for (const event of newer) foldReportEvent(found.fold, event);
      folded = { fold: found.fold, surface: found.surface };
    } else {
      // Asked of the stream, or not in the detail read model yet (a screening just requested).
      folded = await this.foldedStream(accountId, byUuid, String(id));
    }
    if (!folded || folded.fold.report.accountId !== accountId) return undefined;
    if (prepare) await prepare(folded.fold);
    return { report: finishReport(folded.fold, this.deps.reportContext()), surface: folded.surface as ScreeningView['surface'] };
  }

  /** The screening's row of the detail read model; undefined when it has none (or the read model is not set up in this database yet). */
  private async detailRow(accountId: string, id: { uuid: string } | { screeningId: string }): Promise<ScreeningDetailRow | undefined> {
    try {
      return await readScreeningDetail(this.deps.pool, `${this.detailsSchema}.screening_details`, accountId, id);
    } catch (error) {
      if ((error as { code?: string }).code === '42P01') return undefined; // undefined_table
      throw error;
    }
  }

  /** The report's fold from the whole stream (what every read did before the detail read model). */
  private async foldedStream(accountId: string, byUuid: boolean, id: string): Promise<{ fold: ScreeningReportFold; surface: string } | undefined> {
    const { rows } = await this.deps.pool.query<{ screening_id: string; surface: ScreeningView['surface'] }>(
      `SELECT screening_id::text, surface FROM ${this.schema}.screenings WHERE account_id = $1 AND ${byUuid ? 'uuid = $2' : 'screening_id = $2'}`,
      [accountId, id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const fold = foldScreeningStream(await this.deps.store.readStream(screeningStream(row.screening_id)));
    return fold ? { fold, surface: row.surface } : undefined;
  }

  async waitForCompletion(accountId: string, screeningId: number, timeoutMs: number): Promise<ScreeningView | undefined> {
    const stream = screeningStream(String(screeningId));
    const { notifier } = this.deps;
    const timer = this.deps.timer ?? systemTimer;
    const deadline = timer.nowMs() + timeoutMs;
    const nextWake = () => notifier.wait(stream, Math.max(0, Math.min(deadline - timer.nowMs(), 1000)));
    // The stream is read when the notifier says it ended (or saw it end before we came), and once a
    // second besides: a notifier that lags or missed the end never leaves a caller hanging.
    let wake = nextWake();
    try {
      if (!notifier.ended(stream)) await wake.promise;
      for (;;) {
        // Registered before the read, so an end committed meanwhile is not missed.
        wake.cancel();
        wake = nextWake();
        // As of the end the notifier saw: the store may answer from the events it just read for it.
        const end = notifier.endPosition(stream);
        const events = await this.deps.store.readStream(stream, end !== undefined ? { atLeastThrough: end } : {});
        const report = buildScreeningReport(events, this.deps.reportContext());
        if (!report || report.accountId !== accountId) return undefined;
        if (report.status === 'completed') {
          // The caller will list or filter next: let the read models see the completion first.
          await this.deps.readModelsCaughtUp?.(events[events.length - 1]!.globalPosition);
          return screeningView(report, (events[0]!.data as { surface: ScreeningView['surface'] }).surface);
        }
        if (events.some((e) => e.type === 'ScreeningFailed')) return undefined;
        if (timer.nowMs() >= deadline) return undefined;
        await wake.promise;
      }
    } finally {
      wake.cancel();
    }
  }

  async get(accountId: string, id: number | string, options: { from?: DetailSource } = {}): Promise<ScreeningDetailView | undefined> {
    const found = await this.report(accountId, id, options.from);
    return found ? detailView(found.report, found.surface) : undefined;
  }

  async list(accountId: string, filter: ScreeningListFilter): Promise<{ items: ScreeningView[]; total: number }> {
    const where = ['account_id = $1'];
    const values: unknown[] = [accountId];
    if (filter.riskLevel) {
      values.push(filter.riskLevel);
      where.push(`risk_level = $${values.length}`);
    }
    if (filter.kinds?.length) {
      values.push(filter.kinds);
      where.push(`kind = ANY($${values.length})`);
    }
    if (filter.search) {
      // Partial, case-insensitive match; LIKE wildcards in the input are matched literally.
      values.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`search_query ILIKE $${values.length}`);
    }
    if (filter.surface) {
      values.push(filter.surface);
      where.push(`surface = $${values.length}`);
    }
    const whereSql = where.join(' AND ');
    const total = await this.deps.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${this.schema}.screenings WHERE ${whereSql}`, values);
    values.push(filter.limit, (filter.page - 1) * filter.limit);
    const { rows } = await this.deps.pool.query(
      `SELECT * FROM ${this.schema}.screenings WHERE ${whereSql} ORDER BY screening_id DESC LIMIT $${values.length - 1} OFFSET $${values.length}`,
      values,
    );
    const items = rows.map(
      (r): ScreeningView => ({
        id: Number(r.screening_id),
        uuid: r.uuid,
        kind: r.kind,
        surface: r.surface,
        accountId: String(r.account_id),
        search_query: r.search_query,
        entity_type: r.entity_type,
        jurisdiction: r.jurisdiction,
        risk_level: r.risk_level,
        risk_score: r.risk_score,
        status: r.status,
        sanctions_hits: r.sanctions_hits,
        pep_hits: r.pep_hits,
        adverse_media_hits: r.adverse_media_hits,
        offshore_leaks_hits: r.offshore_leaks_hits,
        summary: r.summary,
        edd_analysis: r.kind === 'edd' ? r.analysis : null,
        ma_analysis: r.kind === 'ma' ? r.analysis : null,
        sow_analysis: r.kind === 'sow' ? r.analysis : null,
        created_at: new Date(r.created_at).toISOString(),
        completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
      }),
    );
    return { items, total: Number(total.rows[0]!.n) };
  }

  async reportPdf(accountId: string, id: number | string, options: { from?: DetailSource; timeZone?: string } = {}): Promise<Buffer | undefined> {
    // Analysts by e-mail (or key name) everywhere the filed report names them, the scorer's reasons included.
    const names = this.deps.analystNames;
    const found = await this.report(accountId, id, options.from, names ? (fold) => nameAnalysts(fold, (ids) => names(accountId, ids)) : undefined);
    if (!found) return undefined;
    return renderScreeningReportPdf(found.report, {
      generatedAt: this.deps.clock.now(),
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
      ...(this.deps.unicodeFontPath ? { unicodeFontPath: this.deps.unicodeFontPath } : {}),
    });
  }

  async reportJson(accountId: string, id: number | string, options: { from?: DetailSource } = {}): Promise<unknown | undefined> {
    const found = await this.report(accountId, id, options.from);
    return found ? buildJsonReport(found.report, { generatedAt: this.deps.clock.now() }) : undefined;
  }
}
