/**
 * Over 500 lines on purpose: every S2 route in one place, in the order of the spec's S2 rows, so the
 * gate, the error envelope and the route table can be read together (the behaviour is in src/app).
 *
 * S2 subject-check API (spec parts 2-9, S2 rows): subject checks (single, batch, sandbox, read, list,
 * reviewer decisions), in-place key rotation, webhook registration, test and retry-now deliveries and
 * the delivery log, all under /api/v1/compliance with `Authorization: Bearer svca_…`; and the
 * session-authenticated account endpoints under /api/account (cookie `auth_token`).
 *
 * Order of checks on a bearer request: the gate (before body parsing) authenticates the key
 * (401 invalid_key_format / invalid_key / key_expired) → route: params and body (400 invalid_payload,
 * every problem listed) → the hourly subject-check limit (creation only: 429 rate_limited with
 * Retry-After) → the command. Nothing is appended before the last step, and the sandbox never
 * reaches it.
 */
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { AccountService, KeyService, LimitService, Principal } from '../../app/services';
import type { JwtSessionService } from '../../app/sessions/session-service';
import { sessionCookieOptions } from '../../app/sessions/session-service';
import {
  newCommandContext,
  sandboxSubjectCheck,
  type PgSubjectCheckService,
  type SubjectCheckInput,
  type SubjectCheckView,
} from '../../app/subject-checks/subject-check-service';
import { WebhookUrlRejected, type S2WebhookService } from '../../app/subject-checks/webhook-service';
import type { DeliveryView } from '../../webhooks/outbox';
import type { Clock } from '../../shared/clock';
import { handle } from '../http/app';
import { boundId } from '../../app/idempotency/binding';
import { ctxOf, idempotencyOf } from '../http/context';
import { ApiError } from '../http/errors';
import { withoutIdempotency, type Idempotent } from '../http/idempotency';
import { bearerToken, cookieValue } from '../http/surfaces';
import { addressInput, subjectFactsInput } from '../http/subject-facts';
import {
  AccountKeyCreateSchema,
  BatchRequestSchema,
  DeliveryIdParamsSchema,
  DeliveryListQuerySchema,
  IdParamsSchema,
  ListQuerySchema,
  ReviewDecisionSchema,
  SignInSchema,
  SubjectCheckRequestSchema,
  WebhookRegistrationSchema,
  type SubjectCheckRequest,
} from './schemas';
import { parseS2, s2Issues } from './validation';

export const S2_PREFIX = '/api/v1/compliance';
export const ACCOUNT_PREFIX = '/api/account';
export const SESSION_COOKIE = 'auth_token';
/** Spec part 8: 60 subject checks per hour per account; sandbox calls do not count. */
export const S2_SUBJECT_CHECKS_PER_HOUR = 60;
export const S2_SUBJECT_CHECK_WINDOW_SECONDS = 3600;
/** Failed sign-ins allowed per e-mail address per 15 minutes. */
export const SIGN_IN_FAILURES_ALLOWED = 10;
export const SIGN_IN_WINDOW_SECONDS = 900;

export function subjectCheckRateBucket(accountId: string): string {
  return `s2:subject_checks:${accountId}`;
}

export interface S2Deps {
  keys: KeyService;
  limits: LimitService;
  accounts: AccountService;
  sessions: JwtSessionService;
  subjectChecks: PgSubjectCheckService;
  webhooks: S2WebhookService;
  clock: Clock;
  /** Idempotency-Key handling of the create routes (src/api/http/idempotency.ts); without it the header is ignored. */
  idempotent?: Idempotent;
}

// ------------------------------------------------------------------------------------------- gate

const isBearerPath = (path: string) => path === S2_PREFIX || path.startsWith(`${S2_PREFIX}/`);
const isSessionPath = (path: string) => path === `${ACCOUNT_PREFIX}/api-keys` || path.startsWith(`${ACCOUNT_PREFIX}/api-keys/`);

/**
 * Authentication for every S2 request, mounted before body parsing (createHttpApp's beforeBody) so an
 * unauthenticated request is refused unread whatever its body. Bearer paths need a valid `svca_` key;
 * /api/account/api-keys needs a valid session cookie (401 `Authentication required`).
 */
export function createS2Gate(deps: Pick<S2Deps, 'keys' | 'sessions' | 'accounts'>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const ctx = ctxOf(res);
    if (res.locals.s2GatePassed === true) {
      next();
      return;
    }
    if (ctx.surface === 's2' && isBearerPath(req.path)) {
      (async () => {
        const auth = await deps.keys.authenticate('s2', bearerToken(req));
        if (!auth.ok) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="subject-checks"');
          switch (auth.reason) {
            case 'missing':
            case 'malformed':
              throw new ApiError('unauthenticated', 'Missing or malformed Authorization header: send Authorization: Bearer svca_<token>');
            case 'expired':
              throw new ApiError('credential_expired', 'The API key has expired: create a new key');
            case 'unknown':
            case 'revoked':
              throw new ApiError('invalid_credential', 'Invalid API key: it was revoked or replaced');
          }
        }
        const principal = auth.principal;
        ctx.auth = { accountId: principal.accountId, plan: principal.plan, keyId: principal.keyId, roles: principal.roles, surface: 's2' };
        res.locals.s2Principal = principal;
        res.locals.s2GatePassed = true;
      })().then(() => next(), next);
      return;
    }
    if (ctx.surface === 's2_session' && isSessionPath(req.path)) {
      (async () => {
        res.locals.s2SessionPrincipal = await sessionPrincipal(deps, cookieValue(req, SESSION_COOKIE));
        ctx.auth = { ...res.locals.s2SessionPrincipal, surface: 's2_session' };
        res.locals.s2GatePassed = true;
      })().then(() => next(), next);
      return;
    }
    next();
  };
}

async function sessionPrincipal(deps: Pick<S2Deps, 'sessions' | 'accounts'>, token: string | undefined): Promise<Principal> {
  const verified = await deps.sessions.verify(token);
  if (!verified.ok) throw new ApiError('unauthenticated', 'Authentication required');
  const account = await deps.accounts.get(verified.session.accountId);
  if (!account) throw new ApiError('unauthenticated', 'Authentication required');
  return { accountId: account.accountId, plan: account.plan, userId: verified.session.userId, roles: verified.session.roles, surface: 'session' };
}

function bearerPrincipal(res: Response): Principal {
  const principal = res.locals.s2Principal as Principal | undefined;
  if (!principal) throw new ApiError('unauthenticated', 'Missing or malformed Authorization header');
  return principal;
}

function sessionPrincipalOf(res: Response): Principal {
  const principal = res.locals.s2SessionPrincipal as Principal | undefined;
  if (!principal) throw new ApiError('unauthenticated', 'Authentication required');
  return principal;
}

// ------------------------------------------------------------------------------------------- helpers

function toInput(body: SubjectCheckRequest): SubjectCheckInput {
  return {
    firstName: body.first_name,
    lastName: body.last_name,
    ...(body.middle_name !== undefined ? { middleName: body.middle_name } : {}),
    // the facts that match, mapped as every screening surface maps them (src/api/http/subject-facts.ts)
    ...subjectFactsInput(body),
    ...addressInput(body.address),
    locations: body.locations.map((l) => ({ country: l.country, ...(l.region !== undefined ? { region: l.region } : {}), ...(l.city !== undefined ? { city: l.city } : {}) })),
    purpose: body.purpose,
    consent: { certified: true, ...(body.consent.statement !== undefined ? { statement: body.consent.statement } : {}) },
    ...(body.monitor === true ? { monitor: true } : {}),
  };
}

function idParam(req: Request): number {
  const parsed = IdParamsSchema.safeParse(req.params);
  if (!parsed.success) throw new ApiError('bad_request', 'id: must be a positive integer', { errors: ['id: must be a positive integer'] });
  return Number(parsed.data.id);
}

function deliveryIdParam(req: Request): string {
  const parsed = DeliveryIdParamsSchema.safeParse(req.params);
  if (!parsed.success) throw new ApiError('bad_request', 'id: must be a delivery id (UUID)', { errors: ['id: must be a delivery id (UUID)'] });
  return parsed.data.id.toLowerCase();
}

const checkUrl = (id: number) => `${S2_PREFIX}/subject-checks/${id}`;

function rateLimited(retryAfterSeconds: number): ApiError {
  // The wait is in the Retry-After header only (spec part 7), never in the body.
  return new ApiError('rate_limited', `Subject-check rate limit reached (${S2_SUBJECT_CHECKS_PER_HOUR} per hour); retry after the Retry-After header's seconds`, {
    retryAfterSeconds,
  });
}

function presentDelivery(d: DeliveryView) {
  return {
    delivery_id: d.deliveryId,
    event: d.event,
    status: d.status,
    attempt_count: d.attemptCount,
    max_attempts: d.maxAttempts,
    next_attempt_at: d.nextAttemptAt,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    retry_of: d.retryOf,
    subject_check_id: d.subjectRef !== null && /^\d+$/.test(d.subjectRef) ? Number(d.subjectRef) : null,
    created_at: d.createdAt,
    finished_at: d.finishedAt,
    payload: d.payload,
    attempts: d.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      started_at: a.startedAt,
      finished_at: a.finishedAt,
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      outcome: a.outcome,
    })),
  };
}

// ------------------------------------------------------------------------------------------- bearer router

export function createS2Router(deps: S2Deps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 's2' ? next() : next('router')));
  router.use(createS2Gate(deps));

  const context = (res: Response, principal: Principal) => ({ ...newCommandContext(principal, ctxOf(res).correlationId), ...idempotencyOf(res) });
  const idempotent = (deps.idempotent ?? withoutIdempotency)();

  router.post(
    `${S2_PREFIX}/subject-checks`,
    idempotent,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const input = toInput(parseS2(SubjectCheckRequestSchema, req.body));
      const view = await deps.subjectChecks.start(principal, input, context(res, principal), {
        // Counted when the check is created, not when a retried request finds it created (Idempotency-Key).
        admit: async () => {
          const decision = await deps.limits.consume(subjectCheckRateBucket(principal.accountId), S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS);
          if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds ?? 1);
        },
      });
      const url = checkUrl(view.subject_check_id);
      res.setHeader('Location', url);
      res.status(201).json({ success: true, subject_check_id: view.subject_check_id, status: view.status, url, subject_check: view });
    }),
  );

  router.post(
    `${S2_PREFIX}/subject-checks/batch`,
    idempotent,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const { subjects } = parseS2(BatchRequestSchema, req.body);
      const checked = subjects.map((item, index) => ({ index, checked: s2Issues(SubjectCheckRequestSchema, item, `subjects[${index}]`) }));
      const valid = checked.filter((c) => c.checked.ok);
      if (valid.length === 0) {
        const errors = checked.flatMap((c) => (c.checked.ok ? [] : c.checked.errors));
        throw new ApiError('bad_request', `No subject in the batch is valid: ${errors.length} problems, listed in errors`, { errors });
      }
      const bucket = subjectCheckRateBucket(principal.accountId);
      const room = await deps.limits.peek(bucket, S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS);
      if (room.remaining < valid.length) {
        throw rateLimited(Math.max(1, room.resetAt - Math.floor(deps.clock.now().getTime() / 1000)));
      }
      // Backpressure: a slot for every valid subject at once, or 503 with nothing created.
      const slots = deps.subjectChecks.reserveSlots(valid.length);
      // With an Idempotency-Key the batch id and each item's check id are bound to the key before they are
      // used, so a retry after a crash mid-batch finds the checks already created and starts only the rest.
      const batchId = await boundId(ctxOf(res).idempotency, 'batch', async () => randomUUID()).catch((error: unknown) => {
        for (const slot of slots ?? []) slot.release();
        throw error;
      });
      const results: object[] = [];
      for (const { index, checked: result } of checked) {
        if (!result.ok) {
          results.push({ index, status: 'rejected', error: { code: 'invalid_payload', message: 'This subject is invalid', errors: result.errors } });
          continue;
        }
        let limited = false;
        try {
          const view: SubjectCheckView = await deps.subjectChecks.start(
            principal,
            toInput(SubjectCheckRequestSchema.parse(subjects[index])),
            context(res, principal),
            {
              batchId,
              waitForReadModel: false,
              bindAs: `subject:${index}`,
              ...(slots ? { slot: slots.shift()! } : {}),
              admit: async () => {
                const decision = await deps.limits.consume(bucket, S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS);
                if (!decision.allowed) {
                  limited = true;
                  throw new Error('rate limited');
                }
              },
            },
          );
          results.push({ index, status: 'created', subject_check_id: view.subject_check_id });
        } catch (error) {
          if (limited) {
            results.push({ index, status: 'rejected', error: { code: 'rate_limited', message: 'Subject-check rate limit reached while the batch was being started' } });
            continue;
          }
          // Each check is its own stream: one that could not start leaves the others as they are.
          ctxOf(res).log.error({ err: error, index }, 'batch item could not be started');
          results.push({ index, status: 'rejected', error: { code: 'internal_error', message: `Internal error (request ${ctxOf(res).requestId})` } });
        }
      }
      await deps.subjectChecks.caughtUp();
      const created = results.filter((r) => (r as { status: string }).status === 'created').length;
      res.status(201).json({ success: true, batch_id: batchId, created_count: created, rejected_count: results.length - created, results });
    }),
  );

  router.post(
    `${S2_PREFIX}/subject-checks/sandbox`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const input = toInput(parseS2(SubjectCheckRequestSchema, req.body));
      // No id, no event, no read model, no limiter: the verdict is computed here and returned.
      const view = sandboxSubjectCheck(input, deps.clock.now(), principal.accountId);
      res.status(200).json({ success: true, sandbox: true, subject_check_id: 0, status: 'completed', overall_result: 'clear_no_match', subject_check: view });
    }),
  );

  router.get(
    `${S2_PREFIX}/subject-checks`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const query = parseS2(ListQuerySchema, { ...(req.query as object) });
      const page = await deps.subjectChecks.list(principal.accountId, {
        limit: query.limit,
        ...(query.cursor ? { before: Number(query.cursor) } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.batch_id ? { batchId: query.batch_id } : {}),
      });
      res.json({ success: true, subject_checks: page.items, total: page.total, next_cursor: page.nextCursor === null ? null : String(page.nextCursor) });
    }),
  );

  router.get(
    `${S2_PREFIX}/subject-checks/:id`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const id = idParam(req);
      const view = await deps.subjectChecks.get(principal.accountId, id);
      if (!view) throw new ApiError('not_found', `Subject check ${id} not found`);
      res.json({ success: true, subject_check: view });
    }),
  );

  router.post(
    `${S2_PREFIX}/subject-checks/:id/review-resolution`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const id = idParam(req);
      const body = parseS2(ReviewDecisionSchema, req.body);
      const view = await deps.subjectChecks.resolveReview(principal, id, body, context(res, principal));
      res.json({ success: true, subject_check: view });
    }),
  );

  router.post(
    `${S2_PREFIX}/subject-checks/:id/investigation-closure`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const id = idParam(req);
      const body = parseS2(ReviewDecisionSchema, req.body);
      const view = await deps.subjectChecks.closeInvestigation(principal, id, body, context(res, principal));
      res.json({ success: true, subject_check: view });
    }),
  );

  router.post(
    `${S2_PREFIX}/api-keys/rotate`,
    handle(async (_req, res) => {
      const principal = bearerPrincipal(res);
      const { key, plaintext } = await deps.keys.rotate(principal, context(res, principal));
      res.status(201).json({ success: true, id: Number(key.id), account_id: Number(key.accountId), token_prefix: key.prefix, created_at: key.createdAt, key: plaintext });
    }),
  );

  router.post(
    `${S2_PREFIX}/webhooks`,
    idempotent,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const { url } = parseS2(WebhookRegistrationSchema, req.body);
      try {
        const registered = await deps.webhooks.register(principal, url, context(res, principal));
        res.status(registered.created ? 201 : 200).json({
          success: true,
          id: registered.id,
          url: registered.url,
          signing_secret: registered.signingSecret,
          created_at: registered.createdAt,
        });
      } catch (error) {
        if (error instanceof WebhookUrlRejected) {
          const message = `url: ${error.guard.message}`;
          throw new ApiError('bad_request', message, { errors: [message] });
        }
        throw error;
      }
    }),
  );

  router.get(
    `${S2_PREFIX}/webhooks`,
    handle(async (_req, res) => {
      const principal = bearerPrincipal(res);
      const current = await deps.webhooks.current(principal.accountId);
      if (!current) throw new ApiError('not_found', 'No webhook is registered for this account');
      const e = current.endpoint;
      res.json({
        success: true,
        webhook: { id: current.id, url: e.url, enabled: e.enabled, consecutive_failures: e.consecutiveFailures, created_at: current.createdAt, updated_at: e.updatedAt },
      });
    }),
  );

  router.post(
    `${S2_PREFIX}/webhooks/test`,
    handle(async (_req, res) => {
      const principal = bearerPrincipal(res);
      const result = await deps.webhooks.sendTest(principal.accountId);
      if (result.status === 'no_endpoint') throw new ApiError('not_found', 'No webhook is registered for this account');
      if (result.status !== 'enqueued') throw new ApiError('conflict', 'The webhook endpoint is disabled: register the URL again to re-enable it');
      res.status(202).json({ success: true, delivery_id: result.deliveryId, event: 'webhook.test' });
    }),
  );

  router.get(
    `${S2_PREFIX}/webhooks/deliveries`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const query = parseS2(DeliveryListQuerySchema, { ...(req.query as object) });
      let page;
      try {
        page = await deps.webhooks.deliveries(principal.accountId, {
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
          ...(query.status ? { status: query.status } : {}),
          ...(query.event ? { event: query.event } : {}),
          ...(query.subject_check_id ? { subjectCheckId: query.subject_check_id } : {}),
        });
      } catch (error) {
        if (error instanceof RangeError) throw new ApiError('bad_request', 'cursor: is not a cursor this API returned', { errors: ['cursor: is not a cursor this API returned'] });
        throw error;
      }
      res.json({ success: true, deliveries: page.deliveries.map(presentDelivery), next_cursor: page.nextCursor });
    }),
  );

  router.get(
    `${S2_PREFIX}/webhooks/deliveries/:id`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const delivery = await deps.webhooks.delivery(principal.accountId, deliveryIdParam(req));
      res.json({ success: true, delivery: presentDelivery(delivery) });
    }),
  );

  router.post(
    `${S2_PREFIX}/webhooks/deliveries/:id/retry`,
    handle(async (req, res) => {
      const principal = bearerPrincipal(res);
      const deliveryId = deliveryIdParam(req);
      const result = await deps.webhooks.retryNow(principal.accountId, deliveryId);
      switch (result.status) {
        case 'enqueued':
          res.status(202).json({ success: true, delivery_id: result.deliveryId, event: 'subject_check.retry', previous_delivery_id: deliveryId, attempt_number: result.attemptNumber });
          return;
        case 'not_found':
          throw new ApiError('not_found', `Delivery ${deliveryId} not found`);
        case 'in_progress':
          throw new ApiError('conflict', 'The delivery is still being attempted; retry it once it has finished');
        case 'not_retryable':
          throw new ApiError('conflict', `The delivery cannot be retried: ${result.reason}`);
        case 'no_endpoint':
          throw new ApiError('conflict', 'No webhook is registered for this account');
      }
    }),
  );

  return router;
}

// ------------------------------------------------------------------------------------------- session router

/** Session endpoints answer `{success: false, message}`: the message must carry the problems. */
function parseSession<S extends Parameters<typeof parseS2>[0]>(schema: S, input: unknown) {
  const checked = s2Issues(schema, input);
  if (!checked.ok) throw new ApiError('bad_request', checked.errors.join('; '));
  return checked.data as ReturnType<typeof parseS2<S>>;
}

export function createS2AccountRouter(deps: S2Deps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 's2_session' ? next() : next('router')));
  router.use(createS2Gate(deps));
  const cookieOptions = () => sessionCookieOptions(ACCOUNT_PREFIX, deps.sessions.lifetimeSeconds);

  router.post(
    `${ACCOUNT_PREFIX}/session`,
    handle(async (req, res) => {
      const { email, password } = parseSession(SignInSchema, req.body);
      const bucket = `s2:sign_in_failures:${email.toLowerCase()}`;
      const room = await deps.limits.peek(bucket, SIGN_IN_FAILURES_ALLOWED, SIGN_IN_WINDOW_SECONDS);
      if (!room.allowed) {
        throw new ApiError('rate_limited', 'Too many failed sign-in attempts; try again later', {
          retryAfterSeconds: Math.max(1, room.resetAt - Math.floor(deps.clock.now().getTime() / 1000)),
        });
      }
      const principal = await deps.accounts.signIn(email, password);
      if (!principal || !principal.userId) {
        await deps.limits.consume(bucket, SIGN_IN_FAILURES_ALLOWED, SIGN_IN_WINDOW_SECONDS);
        throw new ApiError('invalid_credential', 'Invalid email or password');
      }
      const { token, session } = await deps.sessions.issue({ accountId: principal.accountId, userId: principal.userId, roles: principal.roles });
      res.cookie(SESSION_COOKIE, token, cookieOptions());
      res.status(200).json({ success: true, account_id: Number(session.accountId), user_id: session.userId, expires_at: session.expiresAt.toISOString() });
    }),
  );

  router.delete(
    `${ACCOUNT_PREFIX}/session`,
    handle(async (req, res) => {
      await deps.sessions.revoke(cookieValue(req, SESSION_COOKIE));
      const { maxAge: _maxAge, ...clear } = cookieOptions();
      res.clearCookie(SESSION_COOKIE, clear);
      res.status(200).json({ success: true });
    }),
  );

  const sessionContext = (res: Response, principal: Principal) => ({
    actor: { accountId: principal.accountId, ...(principal.userId ? { userId: principal.userId } : {}), surface: 's2' as const },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
    ...idempotencyOf(res),
  });

  router.post(
    `${ACCOUNT_PREFIX}/api-keys`,
    (deps.idempotent ?? withoutIdempotency)(),
    handle(async (req, res) => {
      const principal = sessionPrincipalOf(res);
      const body = parseSession(AccountKeyCreateSchema, req.body);
      if (body.expires_at !== undefined && Date.parse(body.expires_at) <= deps.clock.now().getTime()) {
        throw new ApiError('bad_request', 'expires_at: must be in the future');
      }
      const { key, plaintext } = await deps.keys.create(
        principal,
        { surface: 's2', name: body.name, ...(body.expires_at !== undefined ? { expiresAt: new Date(body.expires_at).toISOString() } : {}) },
        sessionContext(res, principal),
      );
      res.status(201).json({ success: true, id: Number(key.id), name: key.name, token_prefix: key.prefix, created_at: key.createdAt, expires_at: key.expiresAt, key: plaintext });
    }),
  );

  router.get(
    `${ACCOUNT_PREFIX}/api-keys`,
    handle(async (_req, res) => {
      const principal = sessionPrincipalOf(res);
      const keys = await deps.keys.list(principal.accountId, 's2');
      res.json({
        success: true,
        keys: keys.map((k) => ({
          id: Number(k.id),
          name: k.name,
          token_prefix: k.prefix,
          created_at: k.createdAt,
          last_used_at: k.lastUsedAt,
          revoked_at: k.revokedAt,
          expires_at: k.expiresAt,
        })),
      });
    }),
  );

  router.delete(
    `${ACCOUNT_PREFIX}/api-keys/:id`,
    handle(async (req, res) => {
      const principal = sessionPrincipalOf(res);
      const id = req.params.id;
      if (typeof id !== 'string' || !/^[1-9][0-9]{0,14}$/.test(id)) throw new ApiError('bad_request', 'Invalid key id: must be a positive integer');
      // Only this account's S2 keys: any other id looks missing.
      const owned = (await deps.keys.list(principal.accountId, 's2')).some((k) => k.id === id);
      if (!owned) throw new ApiError('not_found', 'API key not found');
      const key = await deps.keys.revoke(principal, id, sessionContext(res, principal));
      res.status(200).json({ success: true, id: Number(key.id), revoked_at: key.revokedAt });
    }),
  );

  return router;
}
