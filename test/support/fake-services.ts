/**
 * TEST DOUBLES of the application services (src/app/services.ts) for the HTTP-surface tests:
 * in-memory, but honest about the rules the routers rely on — keys stored as SHA-256 only, revoked keys
 * refused, at most 10 active keys, tenant isolation on every read, plan rules on request, fixed-window
 * limits that do not consume when denying. They run no screening engine: a "screening" completes with
 * a hit only for the names in FAKE_WATCH_LIST, and the PDF is a stub. The integrator runs the same
 * suites against the real wiring through another `MakeS1Services` factory.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { limitWindowAt } from '../../src/app/limits';
import type {
  ApiKeyView,
  AuthFailure,
  CommandContext,
  HitView,
  KeyService,
  KeySurface,
  LimitDecision,
  LimitService,
  LimitWindowOptions,
  Plan,
  Principal,
  ScreeningDetailView,
  ScreeningListFilter,
  ScreeningRequestInput,
  ScreeningService,
  ScreeningView,
} from '../../src/app/services';
import { ManualClock } from '../../src/shared/clock';

/** What an S1 HTTP suite needs from a wiring, fake or real. */
export interface S1TestServices {
  keys: KeyService;
  limits: LimitService;
  screenings: ScreeningService;
  /** The clock the limiter (and everything else) reads. */
  clock: ManualClock;
  /** A name this wiring reports with at least one sanctions hit (fake: FAKE_WATCH_LIST; real: a listed name). */
  listedName: string;
  /** A new account on `plan` with one active S1 key. */
  createAccount(plan: Plan): Promise<{ accountId: string; keyId: string; key: string }>;
  revokeKey(accountId: string, keyId: string): Promise<void>;
  /** Screenings the account has (any kind, any status): shows bad input created nothing. */
  screeningCount(accountId: string): Promise<number>;
  /** Optional: while held, screenings stay running (exercises the 202 answer). */
  holdPipeline?(held: boolean): void;
  close(): Promise<void>;
}

export type MakeS1Services = () => Promise<S1TestServices>;

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const KEY_PREFIX: Record<KeySurface, string> = { s1: 'svc_', s2: 'svca_', s3: 'svcc_live_' };

export class FakeKeyService implements KeyService {
  private readonly keys: (ApiKeyView & { hash: Buffer; plan: Plan })[] = [];
  private readonly plans = new Map<string, Plan>();
  private nextKeyId = 1;

  constructor(private readonly clock: ManualClock) {}

  setPlan(accountId: string, plan: Plan): void {
    this.plans.set(accountId, plan);
  }

  async authenticate(surface: KeySurface, presented: string | undefined): Promise<{ ok: true; principal: Principal } | { ok: false; reason: AuthFailure }> {
    if (!presented) return { ok: false, reason: 'missing' };
    if (!presented.startsWith(KEY_PREFIX[surface]) || presented.length < 20) return { ok: false, reason: 'malformed' };
    const hash = sha256(presented);
    const found = this.keys.find((k) => k.surface === surface && timingSafeEqual(k.hash, hash));
    if (!found) return { ok: false, reason: 'unknown' };
    if (found.revokedAt) return { ok: false, reason: 'revoked' };
    found.lastUsedAt = this.clock.now().toISOString();
    const plan = this.plans.get(found.accountId) ?? 'starter';
    return { ok: true, principal: { accountId: found.accountId, plan, keyId: found.id, roles: ['api'], surface } };
  }

  async create(principal: Principal, input: { surface: KeySurface; name: string }, _ctx: CommandContext) {
    const active = this.keys.filter((k) => k.accountId === principal.accountId && k.surface === input.surface && !k.revokedAt);
    if (active.length >= 10) throw Object.assign(new Error('At most 10 active keys per account'), { code: 'limit_exceeded' });
    const plaintext = `${KEY_PREFIX[input.surface]}${randomBytes(24).toString('base64url')}`;
    const key = {
      id: String(this.nextKeyId++),
      accountId: principal.accountId,
      surface: input.surface,
      name: input.name,
      prefix: plaintext.slice(0, KEY_PREFIX[input.surface].length + 4),
      createdAt: this.clock.now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      expiresAt: null,
    };
    this.keys.push({ ...key, hash: sha256(plaintext), plan: principal.plan });
    return { key, plaintext };
  }

  async list(accountId: string, surface: KeySurface): Promise<ApiKeyView[]> {
    return this.keys.filter((k) => k.accountId === accountId && k.surface === surface).map(({ hash: _h, plan: _p, ...view }) => view);
  }

  async revoke(principal: Principal, keyId: string, _ctx: CommandContext): Promise<ApiKeyView> {
    const key = this.keys.find((k) => k.id === keyId && k.accountId === principal.accountId);
    if (!key) throw Object.assign(new Error('API key not found'), { code: 'not_found' });
    key.revokedAt ??= this.clock.now().toISOString();
    const { hash: _h, plan: _p, ...view } = key;
    return view;
  }

  async rotate(): Promise<{ key: ApiKeyView; plaintext: string }> {
    throw new Error('rotate is not used by S1 (test double)');
  }
}

export class FakeLimitService implements LimitService {
  private readonly counts = new Map<string, number>();
  constructor(private readonly clock: ManualClock) {}

  private decide(bucket: string, limit: number, windowSeconds: number, options: LimitWindowOptions | undefined, consume: boolean): LimitDecision {
    const now = this.clock.now();
    const window = limitWindowAt(now, windowSeconds, options);
    const key = `${bucket}@${window.start.toISOString()}`;
    const count = this.counts.get(key) ?? 0;
    const allowed = count < limit;
    const after = allowed && consume ? count + 1 : count;
    if (allowed && consume) this.counts.set(key, after);
    const decision: LimitDecision = { allowed, limit, remaining: Math.max(0, limit - after), resetAt: Math.ceil(window.end.getTime() / 1000) };
    if (!allowed) decision.retryAfterSeconds = Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
    return decision;
  }

  async consume(bucket: string, limit: number, windowSeconds: number, options?: LimitWindowOptions) {
    return this.decide(bucket, limit, windowSeconds, options, true);
  }

  async peek(bucket: string, limit: number, windowSeconds: number, options?: LimitWindowOptions) {
    return this.decide(bucket, limit, windowSeconds, options, false);
  }
}

/** Names the fake "pipeline" reports as a sanctions hit (exact, case-insensitive). */
export const FAKE_WATCH_LIST = ['Test Sanctioned Person'];

export class FakeScreeningService implements ScreeningService {
  private readonly screenings: ScreeningDetailView[] = [];
  private nextId = 1000;
  private held = false;

  constructor(private readonly clock: ManualClock) {}

  hold(held: boolean): void {
    this.held = held;
  }

  count(accountId: string): number {
    return this.screenings.filter((s) => s.accountId === accountId).length;
  }

  async request(principal: Principal, input: ScreeningRequestInput, _ctx: CommandContext): Promise<ScreeningView> {
    if (input.kind === 'edd' && principal.plan !== 'professional' && principal.plan !== 'enterprise') {
      throw Object.assign(new Error('EDD needs Professional or Enterprise'), { code: 'plan_required' });
    }
    if (input.kind === 'ma' && principal.plan !== 'enterprise') {
      throw Object.assign(new Error('M&A needs Enterprise'), { code: 'plan_required' });
    }
    const id = this.nextId++;
    const view: ScreeningDetailView = {
      subject: { date_of_birth: input.dateOfBirth ?? null, nationality: input.nationality ?? null, identifiers: input.identifiers ?? [], phone: input.phone ?? null, email: input.email ?? null },
      id,
      uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
      kind: input.kind,
      surface: 's1',
      accountId: principal.accountId,
      search_query: input.query,
      entity_type: input.entityType,
      jurisdiction: input.jurisdiction ?? null,
      risk_level: null,
      risk_score: null,
      status: 'running',
      sanctions_hits: 0,
      pep_hits: 0,
      adverse_media_hits: 0,
      offshore_leaks_hits: 0,
      summary: null,
      edd_analysis: null,
      ma_analysis: null,
      sow_analysis: null,
      created_at: this.clock.now().toISOString(),
      completed_at: null,
      hits: [],
      sources: [],
      country_risk: null,
      country_risks: [],
      list_versions: [],
      list_warnings: [],
      risk_flags: [],
      risk_reason: null,
      matcher_version: null,
    };
    this.screenings.push(view);
    if (!this.held) this.complete(view, input);
    return this.copy(view);
  }

  private complete(view: ScreeningDetailView, input: ScreeningRequestInput): void {
    const listed = FAKE_WATCH_LIST.some((name) => name.toLowerCase() === input.query.toLowerCase());
    const hit: HitView = {
      hit_id: `${view.id}-1`,
      category: 'sanctions',
      list: 'fake_list',
      list_version: 'fake_list@0000',
      entity_id: 'fake_list:1',
      entity_name: FAKE_WATCH_LIST[0]!,
      entity_type: 'person',
      matched_name: FAKE_WATCH_LIST[0]!,
      matched_name_kind: 'primary',
      score: 1,
      match_strength: 'confirmed',
      match_assessment: 'identity_corroborated',
      standing: 'identity_corroborated',
      machine_standing: 'identity_corroborated',
      confirmation: { basis: 'identifier', detail: 'test double: the listed identifier agrees' },
      explanation: 'Exact name match (test double)',
      qualifiers: [],
      programs: ['FAKE'],
      source_url: null,
      disposition: null,
    };
    view.hits = listed ? [hit] : [];
    view.sanctions_hits = view.hits.length;
    view.risk_score = listed ? 15 : 0;
    view.risk_level = 'low';
    view.status = 'completed';
    view.summary = listed ? 'One confirmed sanctions hit (test double).' : 'No hits (test double: no lists searched).';
    if (view.kind === 'edd') view.edd_analysis = '# EDD analysis (test double)';
    if (view.kind === 'ma') view.ma_analysis = '# M&A analysis (test double)';
    view.sources = [{ agent: 'fake', phase: '1', queried: true, error: null, duration_ms: 0 }];
    view.completed_at = this.clock.now().toISOString();
  }

  private copy<T>(value: T): T {
    return structuredClone(value);
  }

  async waitForCompletion(accountId: string, screeningId: number, timeoutMs: number): Promise<ScreeningView | undefined> {
    const view = this.screenings.find((s) => s.id === screeningId && s.accountId === accountId);
    if (!view) return undefined;
    if (view.status !== 'running') return this.copy(view);
    await new Promise((resolve) => setTimeout(resolve, Math.min(timeoutMs, 50)));
    return view.status === 'running' ? undefined : this.copy(view);
  }

  async get(accountId: string, id: number | string): Promise<ScreeningDetailView | undefined> {
    const view = this.screenings.find((s) => s.accountId === accountId && (s.id === id || s.uuid === id));
    return view ? this.copy(view) : undefined;
  }

  async list(accountId: string, filter: ScreeningListFilter): Promise<{ items: ScreeningView[]; total: number }> {
    const search = filter.search?.toLowerCase();
    const matching = this.screenings
      .filter((s) => s.accountId === accountId)
      .filter((s) => !filter.kinds || filter.kinds.includes(s.kind))
      .filter((s) => !filter.riskLevel || s.risk_level === filter.riskLevel)
      .filter((s) => !search || s.search_query.toLowerCase().includes(search))
      .sort((a, b) => b.id - a.id);
    const start = (filter.page - 1) * filter.limit;
    return { items: matching.slice(start, start + filter.limit).map((s) => this.copy(s)), total: matching.length };
  }

  async reportPdf(accountId: string, id: number | string): Promise<Buffer | undefined> {
    const view = await this.get(accountId, id);
    if (!view) return undefined;
    // A stub PDF (test double): the real report is built by src/reports.
    return Buffer.from(`%PDF-1.4\n% test-double report of screening ${view.id}\n%%EOF\n`, 'latin1');
  }

  async reportJson(accountId: string, id: number | string): Promise<unknown | undefined> {
    return this.get(accountId, id);
  }
}

/** The fake wiring, as a MakeS1Services factory. */
export const makeFakeS1Services: MakeS1Services = async () => {
  const clock = new ManualClock('2026-03-10T12:00:00.000Z');
  const keys = new FakeKeyService(clock);
  const limits = new FakeLimitService(clock);
  const screenings = new FakeScreeningService(clock);
  let nextAccount = 1;
  return {
    keys,
    limits,
    screenings,
    clock,
    listedName: FAKE_WATCH_LIST[0]!,
    async createAccount(plan: Plan) {
      const accountId = String(nextAccount++);
      keys.setPlan(accountId, plan);
      const principal: Principal = { accountId, plan, roles: ['owner'], surface: 'portal' };
      const ctx: CommandContext = { actor: { accountId, surface: 'portal' }, correlationId: 'test', commandId: `key-${accountId}` };
      const { key, plaintext } = await keys.create(principal, { surface: 's1', name: 'test key' }, ctx);
      return { accountId, keyId: key.id, key: plaintext };
    },
    async revokeKey(accountId: string, keyId: string) {
      const principal: Principal = { accountId, plan: 'enterprise', roles: ['owner'], surface: 'portal' };
      await keys.revoke(principal, keyId, { actor: { accountId, surface: 'portal' }, correlationId: 'test', commandId: `revoke-${keyId}` });
    },
    async screeningCount(accountId: string) {
      return screenings.count(accountId);
    },
    holdPipeline(held: boolean) {
      screenings.hold(held);
    },
    async close() {},
  };
};
