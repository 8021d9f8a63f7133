/**
 * Application services: what the HTTP surfaces call. Implemented in src/app/* on top of the
 * deciders (src/commands), the event store and the read models (src/projections); the routers in
 * src/api/* depend only on these interfaces, so each surface is tested against the real wiring.
 */
import type { HitConfirmation, HitStanding, MatchAssessment } from '../reports/confirmation';
import type { IdempotencyBinding } from './idempotency/binding';
import type { Actor } from '../shared/events';

export type Plan = 'starter' | 'essentials' | 'professional' | 'enterprise';
export type KeySurface = 's1' | 's2' | 's3';
export type ScreeningKind = 'cdd' | 'edd' | 'ma' | 'sow';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface Principal {
  accountId: string;
  plan: Plan;
  /** Numeric key id (as a string) when authenticated by an API key. */
  keyId?: string;
  userId?: string;
  roles: string[];
  surface: KeySurface | 'session' | 'portal';
}

/** Why an API-key authentication failed: the surface maps each to its own code. */
export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired';

export interface CommandContext {
  actor: Actor;
  correlationId: string;
  /** Idempotency: the same commandId twice appends nothing the second time. */
  commandId: string;
  /** The request's Idempotency-Key binding: a create draws its ids through it (idempotency/binding.ts). */
  idempotency?: IdempotencyBinding;
}

export interface ApiKeyView {
  id: string;
  accountId: string;
  surface: KeySurface;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
}

/**
 * A fixed-window limit counted in the same round trip as the key lookup: bucket = prefix + key id,
 * counted only for a key that passes every check (see KeyService.authenticate).
 */
export interface KeyCountedLimit {
  bucketPrefix: string;
  limit: number;
  windowSeconds: number;
}

export interface KeyService {
  /**
   * Verifies a presented key (hash lookup, constant-time compare) and records last use. With
   * `count`, an implementation may also count the request against that limit in the same round trip
   * and return the decision as `counted`; without `counted` in the answer the caller counts it.
   */
  authenticate(
    surface: KeySurface,
    presented: string | undefined,
    count?: KeyCountedLimit,
  ): Promise<{ ok: true; principal: Principal; counted?: LimitDecision } | { ok: false; reason: AuthFailure }>;
  create(
    principal: Principal,
    input: { surface: KeySurface; name: string; expiresAt?: string; webhookUrl?: string },
    ctx: CommandContext,
  ): Promise<{ key: ApiKeyView; plaintext: string; webhookSecret?: string }>;
  list(accountId: string, surface: KeySurface): Promise<ApiKeyView[]>;
  /** Throws NotFound when the key is not the account's. */
  revoke(principal: Principal, keyId: string, ctx: CommandContext): Promise<ApiKeyView>;
  /** S2: same key row, new token; the old token stops working at once. */
  rotate(principal: Principal, ctx: CommandContext): Promise<{ key: ApiKeyView; plaintext: string }>;
}

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  retryAfterSeconds?: number;
}

/**
 * How a limit window is placed in time. `epoch` (default): windows of `windowSeconds` aligned to the Unix
 * epoch (a minute window starts at :00). `utc_month`: the calendar month in UTC (windowSeconds is then
 * ignored), so a monthly quota resets on the 1st and never mid-month.
 */
export interface LimitWindowOptions {
  align?: 'epoch' | 'utc_month';
}

export interface LimitService {
  /** Fixed-window counter, atomic in PostgreSQL so it is right under concurrency and across instances. */
  consume(bucket: string, limit: number, windowSeconds: number, options?: LimitWindowOptions): Promise<LimitDecision>;
  /** Reads without consuming (sandbox calls must not decrement). */
  peek(bucket: string, limit: number, windowSeconds: number, options?: LimitWindowOptions): Promise<LimitDecision>;
}

export interface ScreeningRequestInput {
  kind: ScreeningKind;
  query: string;
  entityType: 'individual' | 'company' | 'organization';
  /** The caller gave no entity type (entityType is the surface's default). */
  entityTypeDefaulted?: boolean;
  jurisdiction?: string;
  /** What separates the subject from a namesake (checked by the screening decider). */
  dateOfBirth?: string;
  nationality?: string;
  identifiers?: { type: string; value: string }[];
  /** Postal address (weighed by the account's internal lists). */
  address?: { line?: string; city?: string; region?: string; postalCode?: string; country?: string };
  /** Phone and e-mail (compared with listed ones; weighed by the account's internal lists). */
  phone?: string;
  email?: string;
  /** EDD declared fields, M&A deal fields, SOW fields: kept verbatim. */
  declared?: Record<string, string | number | boolean | undefined>;
  monitor?: boolean;
}

/** The S1 Screening resource (spec part 2) plus the ids of the other surfaces. */
export interface ScreeningView {
  id: number;
  uuid: string;
  kind: ScreeningKind;
  surface: KeySurface | 'portal';
  accountId: string;
  search_query: string;
  entity_type: string;
  jurisdiction: string | null;
  risk_level: RiskLevel | null;
  risk_score: number | null;
  status: 'running' | 'completed' | 'failed';
  sanctions_hits: number;
  pep_hits: number;
  adverse_media_hits: number;
  offshore_leaks_hits: number;
  summary: string | null;
  edd_analysis: string | null;
  ma_analysis: string | null;
  sow_analysis: string | null;
  created_at: string;
  completed_at: string | null;
  /**
   * One sentence per stale list the completed screening used (docs/lists.md); empty when none was
   * stale. Present on a screening read or created (built from its events), absent from list pages.
   */
  list_warnings?: string[];
  /**
   * Extension (issue 27): the scorer's flags (confirmed_sanctions_hit, pep, sanctions_not_searched,
   * risk_not_scored…) and its one sentence of why, naming what confirmed a hit or that nothing did.
   * Present on a screening read or created (built from its events), absent from list pages.
   */
  risk_flags?: string[];
  risk_reason?: string | null;
  /**
   * Whether the offshore-leak check ran (null until it answered) and, when it did not, why (e.g. the
   * month's S3 offshore-leak checks are used up). Like list_warnings: on a screening read or created.
   */
  offshore_leaks_search?: { searched: boolean | null; reason: string | null };
}

/**
 * The lists a person check or subject check screens against, as they are in service when the check is
 * read (those checks do not record list versions in their events): each list's publication date and
 * age, and the staleness warnings (docs/lists.md).
 */
export interface ListsInServiceView {
  lists_in_service: { list: string; version: string; published_at: string | null; age_days: number | null; max_age_days: number | null; stale: boolean }[];
  list_warnings: string[];
}

/** A list version a result used, with its age when the result was produced. */
export interface ListVersionView {
  list: string;
  version: string;
  content_hash: string;
  published_at: string | null;
  published_at_source: string | null;
  loaded_at: string | null;
  age_days: number | null;
  max_age_days: number | null;
  stale: boolean;
}

export interface HitView {
  hit_id: string;
  category: 'sanctions' | 'pep' | 'adverse_media' | 'offshore_leaks' | 'debarment';
  list: string;
  list_version: string;
  entity_id: string;
  entity_name: string;
  entity_type: string;
  matched_name: string;
  matched_name_kind: string;
  score: number;
  /** confirmed only when the identity agrees (src/reports/confirmation.ts); potential otherwise. */
  match_strength: 'confirmed' | 'potential';
  /** The machine's assessment, apart from the analyst's decision. */
  match_assessment: MatchAssessment;
  /** The hit's standing now: the machine's assessment with the analyst's decision applied (src/reports/confirmation.ts). */
  standing: HitStanding;
  /** The machine's standing alone, the decision left out (shown apart from it). */
  machine_standing: MatchAssessment;
  /** What confirmed the hit (a date of birth, an identifier, a distinctive exact name, an analyst); null when nothing did. */
  confirmation: HitConfirmation | null;
  explanation: string;
  qualifiers: { kind: string; effect: number; detail: string }[];
  programs: string[];
  source_url: string | null;
  /** The latest decision; needs_more_information leaves the hit undecided (counted, still in the queue). */
  disposition: { status: 'true_match' | 'false_positive' | 'needs_more_information'; reason: string; analyst: string; at: string } | null;
  /** Every list row of this real-world entity (one hit per entity), the primary first. */
  sources?: { list: string; list_label: string | null; entity_id: string | null; list_version: string | null; list_published_at: string | null }[];
  date_of_birth?: string[];
  nationality?: string[];
  identifiers?: { type: string; value: string; country: string | null }[];
  aliases?: string[];
  type_mismatch?: { expected: string; listed: string; type_given: boolean };
  /** A hit on one of the account's own lists: which list, its severity, the version screened and when it was in service. */
  internal_list?: { watchlist_id: string; name: string; severity: 'block' | 'review' | 'note'; version: number; as_of: string | null };
}

/** A subject country's risk: FATF status and the sanctions programmes targeting it. */
export interface CountryRiskView {
  country: string;
  status: string;
  as_of: string;
  sanctions_scope?: 'comprehensive' | 'sectoral' | 'targeted' | 'none';
  sanctions_programmes?: {
    authority: 'us' | 'uk' | 'un';
    programme: string;
    scope: 'comprehensive' | 'sectoral' | 'targeted';
    region?: string;
    basis: string;
    in_force_since: string;
    reviewed_as_of: string;
    source_url: string;
    list?: string;
    list_published_at?: string;
    designations?: number;
  }[];
}

export interface ScreeningDetailView extends ScreeningView {
  /** What the caller gave to tell the subject from namesakes (shown beside each hit's list record). */
  subject: { date_of_birth: string | null; nationality: string | null; identifiers: { type: string; value: string }[]; phone: string | null; email: string | null };
  hits: HitView[];
  sources: { agent: string; phase: string; queried: boolean; error: string | null; duration_ms: number | null }[];
  /** The subject's jurisdiction (S1 and S3 show this one). */
  country_risk: CountryRiskView | null;
  /** Every country of the subject: its jurisdiction and its nationality, each with its basis. */
  country_risks: (CountryRiskView & { basis: 'jurisdiction' | 'nationality' })[];
  list_versions: ListVersionView[];
  list_warnings: string[];
  matcher_version: string | null;
}

export interface ScreeningListFilter {
  page: number;
  limit: number;
  riskLevel?: RiskLevel;
  kinds?: ScreeningKind[];
  search?: string;
  surface?: KeySurface | 'portal';
}

export interface ScreeningService {
  /** Appends ScreeningRequested (after plan rules); the pipeline runs asynchronously. */
  request(principal: Principal, input: ScreeningRequestInput, ctx: CommandContext): Promise<ScreeningView>;
  /** Resolves with the completed view, or undefined after timeoutMs (the API then answers 202). */
  waitForCompletion(accountId: string, screeningId: number, timeoutMs: number): Promise<ScreeningView | undefined>;
  /** Own screenings only: undefined for another account's id. Accepts the numeric id or the uuid. */
  get(accountId: string, id: number | string): Promise<ScreeningDetailView | undefined>;
  list(accountId: string, filter: ScreeningListFilter): Promise<{ items: ScreeningView[]; total: number }>;
  /** The 13-section PDF; its times in `timeZone` (an IANA zone, default UTC). */
  reportPdf(accountId: string, id: number | string, options?: { timeZone?: string }): Promise<Buffer | undefined>;
  /** The same content as JSON (S3). */
  reportJson(accountId: string, id: number | string): Promise<unknown | undefined>;
}

export interface AccountService {
  create(input: { name: string; email: string; password: string; plan: Plan }, ctx: CommandContext): Promise<{ accountId: string; userId: string }>;
  signIn(email: string, password: string): Promise<Principal | undefined>;
  get(accountId: string): Promise<{ accountId: string; name: string; plan: Plan; createdAt: string } | undefined>;
}
