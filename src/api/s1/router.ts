/**
 * S1 screening API (spec parts 4, 5, 7, 8): CDD/EDD/M&A creation, get, PDF report, list, and the
 * unauthenticated OpenAPI document. Person checks live in their own router; they share this file's
 * gate (authentication + per-key rate limit), which runs once per request whichever router sees it first.
 *
 * Order of checks on every S1 request: surface (a `svc_` bearer or no credential on /api/v1) →
 * key (401 invalid_api_key) → per-key rate limit (429, X-RateLimit-* headers from here on, on every
 * answer) → plan has API access (Starter: 403) → route: plan feature (403) → body/params (400/422) →
 * monthly quota (402, creation only) → command. Nothing is appended before the last step.
 */
import { monthlyQuotas, planAllows, screeningKindRefusal } from '../../commands/plans';
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { CommandContext, KeyService, LimitService, Plan, Principal, ScreeningKind, ScreeningRequestInput, ScreeningService } from '../../app/services';
import type { Clock } from '../../shared/clock';
import { handle } from '../http/app';
import { requestAndAwait } from '../http/screening-request';
import { ctxOf, idempotencyOf } from '../http/context';
import { ApiError, invalidField } from '../http/errors';
import { withoutIdempotency, type Idempotent } from '../http/idempotency';
import { entityTypeOmitted, parseInput } from '../http/validation';
import { buildOpenApiDocument } from '../openapi/registry';
import { presentScreening, presentScreeningDetail } from '../presenters/screenings';
import { addressInput, subjectFactsInput } from '../http/subject-facts';
import { CddRequestSchema, EddRequestSchema, ListQuerySchema, MaRequestSchema, registerS1, ScreeningIdParamsSchema } from './schemas';
import type { z } from '../openapi/zod';

type EddBody = z.infer<typeof EddRequestSchema>;

export const S1_RATE_LIMIT = 60;
export const S1_RATE_WINDOW_SECONDS = 60;
/** Per-key rate-limit buckets: s1:key:<key id>. */
export const S1_KEY_BUCKET_PREFIX = 's1:key:';
export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * Monthly S1 screening quota by plan (screening creations per UTC calendar month; null = unlimited).
 * Enterprise is unlimited (spec part 8). Professional 250 mirrors the S3 Professional request quota;
 * Essentials 100 sits below it. Starter has no API access at all.
 */
export function defaultS1MonthlyQuota(plan: Plan): number | null {
  return monthlyQuotas.s1Screenings[plan];
}

export interface S1RouterDeps {
  keys: KeyService;
  limits: LimitService;
  screenings: ScreeningService;
  clock: Clock;
  config: {
    /** How long a creation waits for ScreeningCompleted before answering 202 (default 20 000). */
    screeningWaitMs: number;
    monthlyQuota: (plan: Plan) => number | null;
  };
  /** Idempotency-Key handling of the create routes (src/api/http/idempotency.ts); without it the header is ignored. */
  idempotent?: Idempotent;
  /** The OpenAPI document served at /api/v1/openapi.json (default: S1 only). Pass all surfaces' registrations. */
  openApiDocument?: () => object;
}

export type S1GateDeps = Pick<S1RouterDeps, 'keys' | 'limits'>;

/** The S1 principal the gate authenticated, for handlers of any S1 router. */
export function s1PrincipalOf(res: Response): Principal {
  const principal = res.locals.s1Principal as Principal | undefined;
  if (!principal) throw new ApiError('invalid_credential', 'Missing, invalid or revoked API key');
  return principal;
}

function isS1ApiRequest(req: Request, res: Response): boolean {
  return ctxOf(res).surface === 's1' && (req.path === '/api/v1' || req.path.startsWith('/api/v1/')) && req.path !== OPENAPI_PATH;
}

/**
 * Authentication and the per-key rate limit for every S1 request. Idempotent per request. Mount it
 * before body parsing (createHttpApp's `beforeBody`) so an authenticated request with a malformed or
 * oversized body still gets its rate-limit headers and an unauthenticated one is refused unread.
 */
export function createS1Gate(deps: S1GateDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!isS1ApiRequest(req, res) || res.locals.s1GatePassed === true) {
      next();
      return;
    }
    (async () => {
      const ctx = ctxOf(res);
      const token = bearerOf(req);
      // The rate limit is counted with the key lookup when the key service can (one round trip).
      const auth = await deps.keys.authenticate('s1', token, { bucketPrefix: S1_KEY_BUCKET_PREFIX, limit: S1_RATE_LIMIT, windowSeconds: S1_RATE_WINDOW_SECONDS });
      if (!auth.ok) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="api"');
        throw new ApiError('invalid_credential', token ? 'Invalid or revoked API key' : 'Missing API key: send Authorization: Bearer svc_…');
      }
      const principal = auth.principal;
      const decision =
        auth.counted ?? (await deps.limits.consume(`${S1_KEY_BUCKET_PREFIX}${principal.keyId ?? principal.accountId}`, S1_RATE_LIMIT, S1_RATE_WINDOW_SECONDS));
      res.setHeader('X-RateLimit-Limit', String(decision.limit));
      res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
      res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
      if (!decision.allowed) {
        throw new ApiError('rate_limited', `Rate limit of ${decision.limit} requests per minute exceeded; retry after the Retry-After seconds`, {
          retryAfterSeconds: decision.retryAfterSeconds ?? 1,
        });
      }
      ctx.auth = { accountId: principal.accountId, plan: principal.plan, keyId: principal.keyId, roles: principal.roles, surface: 's1' };
      if (!planAllows(principal.plan, 'api_access')) {
        throw new ApiError('plan_required', 'The Starter plan has no API access; upgrade to Essentials or higher');
      }
      // Only a request that passed every check is marked, so a second gate never lets a refused one through.
      res.locals.s1Principal = principal;
      res.locals.s1GatePassed = true;
    })().then(() => next(), next);
  };
}

function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function parseScreeningId(req: Request): number {
  const parsed = ScreeningIdParamsSchema.safeParse(req.params);
  // A non-numeric id is not this endpoint's input at all: 400, not 422.
  if (!parsed.success) throw invalidField('id', 'must be a positive integer');
  return Number(parsed.data.id);
}

function commandContext(req: Request, res: Response, principal: Principal): CommandContext {
  const ctx = ctxOf(res);
  return {
    actor: { accountId: principal.accountId, keyId: principal.keyId, surface: 's1' },
    correlationId: ctx.correlationId,
    commandId: randomUUID(),
    ...idempotencyOf(res),
  };
}

/** A CDD body (S1, and S3 which takes the same body) as the screening service's input. */
export function cddRequestInput(body: unknown): ScreeningRequestInput {
  const input = parseInput(CddRequestSchema, body);
  return {
    kind: 'cdd',
    query: input.query,
    entityType: input.entity_type,
    ...entityTypeOmitted(body),
    jurisdiction: input.jurisdiction,
    ...subjectFactsInput(input),
    ...addressInput(input.address),
    ...(input.monitor ? { monitor: true } : {}),
  };
}

/** The subject's fields of a screening body; whatever else a declared body (EDD, S3 M&A) carries is declared. */
type SubjectFields = Partial<Pick<EddBody, 'jurisdiction' | 'address' | 'monitor' | 'date_of_birth' | 'nationality' | 'identifiers' | 'phone' | 'email'>> & {
  query: string;
  entity_type: ScreeningRequestInput['entityType'];
};

/** A body whose fields past the subject are declarations (S1 and S3 EDD, S3 M&A), as the screening service's input. */
export function declaredRequestInput<T extends SubjectFields>(kind: 'edd' | 'ma', parsed: T, body: unknown): ScreeningRequestInput {
  const { query, entity_type, jurisdiction, address, monitor, date_of_birth, nationality, identifiers, phone, email, ...declared } = parsed;
  return {
    kind,
    query,
    entityType: entity_type,
    ...entityTypeOmitted(body),
    jurisdiction,
    ...subjectFactsInput({ date_of_birth, nationality, identifiers, phone, email }),
    ...addressInput(address),
    // the schemas' other fields are all declaration scalars (zod has checked them)
    declared: declared as ScreeningRequestInput['declared'],
    ...(monitor ? { monitor: true } : {}),
  };
}

/** An EDD body (S1, and S3 which takes the same body): everything past the subject is declared. */
export function eddRequestInput(body: unknown): ScreeningRequestInput {
  return declaredRequestInput('edd', parseInput(EddRequestSchema, body), body);
}

/** An S1 creation body as the screening service's input (S3 takes the same CDD and EDD bodies). */
export function toRequestInput(kind: 'cdd' | 'edd' | 'ma', body: unknown): ScreeningRequestInput {
  switch (kind) {
    case 'cdd':
      return cddRequestInput(body);
    case 'edd':
      return eddRequestInput(body);
    case 'ma': {
      const { target_name, target_jurisdiction, monitor, date_of_birth, nationality, identifiers, phone, email, address, ...declared } = parseInput(MaRequestSchema, body);
      return {
        kind,
        query: target_name,
        entityType: 'company',
        jurisdiction: target_jurisdiction,
        ...subjectFactsInput({ date_of_birth, nationality, identifiers, phone, email }),
        ...addressInput(address),
        declared,
        ...(monitor ? { monitor: true } : {}),
      };
    }
  }
}

function utcMonth(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function createS1Router(deps: S1RouterDeps): Router {
  const router = express.Router();
  let cachedDocument: object | undefined;
  const openApiDocument = deps.openApiDocument ?? (() => (cachedDocument ??= buildOpenApiDocument([registerS1])));

  // No authentication, whichever credential (or none) the caller sends.
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApiDocument());
  });

  // Everything below is S1 only: S2 and S3 requests on shared paths go to their own routers.
  router.use((req, res, next) => (ctxOf(res).surface === 's1' ? next() : next('router')));
  router.use(createS1Gate(deps));

  async function kindAllowed(principal: Principal, kind: ScreeningKind): Promise<void> {
    const refusal = screeningKindRefusal(principal.plan, kind);
    if (refusal) throw new ApiError('plan_required', refusal);
  }

  async function consumeQuota(principal: Principal): Promise<void> {
    const quota = deps.config.monthlyQuota(principal.plan);
    if (quota === null) return;
    const now = deps.clock.now();
    const decision = await deps.limits.consume(`s1:quota:${principal.accountId}:${utcMonth(now)}`, quota, 31 * 86_400, { align: 'utc_month' });
    if (!decision.allowed) {
      const resets = new Date(decision.resetAt * 1000).toISOString();
      throw new ApiError('quota_exceeded', `Monthly screening quota of ${quota} reached for the ${principal.plan} plan; it resets at ${resets}`);
    }
  }

  function create(kind: 'cdd' | 'edd' | 'ma') {
    return handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      await kindAllowed(principal, kind);
      const input = toRequestInput(kind, req.body);
      await consumeQuota(principal);
      const view = await requestAndAwait(deps.screenings, principal, input, commandContext(req, res, principal), deps.config.screeningWaitMs);
      if (view.status !== 'running') {
        res.status(201).json({ success: true, screening: presentScreening('s1', view) });
        return;
      }
      const url = `/api/v1/screening/${view.id}`;
      res.setHeader('Location', url);
      res.status(202).json({ success: true, screening: presentScreening('s1', view), status: 'running', url });
    });
  }

  const idempotent = (deps.idempotent ?? withoutIdempotency)();
  router.post('/api/v1/screening/cdd', idempotent, create('cdd'));
  router.post('/api/v1/screening/edd', idempotent, create('edd'));
  router.post('/api/v1/screening/ma', idempotent, create('ma'));

  /** The screening the path names, as the caller's own (S1 has no SOW screenings): 404 otherwise. */
  async function ownScreening(req: Request, res: Response) {
    const principal = s1PrincipalOf(res);
    const id = parseScreeningId(req);
    const view = await deps.screenings.get(principal.accountId, id);
    if (!view || view.kind === 'sow') throw new ApiError('not_found', `Screening ${id} not found`);
    return { principal, id, view };
  }

  router.get(
    '/api/v1/screening/:id',
    handle(async (req, res) => {
      const { view } = await ownScreening(req, res);
      res.status(200).json({ success: true, screening: presentScreeningDetail('s1', view) });
    }),
  );

  router.get(
    '/api/v1/screening/:id/report',
    handle(async (req, res) => {
      const { principal, id, view } = await ownScreening(req, res);
      if (view.status === 'running') {
        throw new ApiError('conflict', `Screening ${id} is still running; its report is available once it completes`);
      }
      const pdf = await deps.screenings.reportPdf(principal.accountId, id);
      if (!pdf) throw new ApiError('not_found', `Report of screening ${id} not found`);
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="screening-${id}-report.pdf"`);
      res.setHeader('Content-Length', String(pdf.length));
      res.end(pdf);
    }),
  );

  router.get(
    '/api/v1/screenings',
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const query = parseInput(ListQuerySchema, req.query, 'query');
      const kinds: ScreeningKind[] = query.screening_type === 'all' ? ['cdd', 'edd', 'ma'] : [query.screening_type];
      const { items, total } = await deps.screenings.list(principal.accountId, {
        page: query.page,
        limit: query.limit,
        riskLevel: query.risk_level,
        kinds,
        search: query.search,
      });
      res.status(200).json({
        success: true,
        screenings: items.map((item) => presentScreening('s1', item)),
        pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) },
      });
    }),
  );

  return router;
}
