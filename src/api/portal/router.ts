/**
 * S3 portal routes (JWT in `Authorization: Bearer <jwt>` or cookie `token`, 7-day lifetime):
 *   POST   /api/session                     sign in {email, password} → token + cookie `token`
 *   DELETE /api/session                     sign out (the token stops working at once)
 *   GET    /api/webhook-endpoint            the S3 webhook endpoint: state, failure streak, auto-disable history
 *   PUT    /api/webhook-endpoint {url}      register or update (signing_secret once)
 *   POST   /api/webhook-endpoint/reenable   re-enable after an auto-disable
 *   POST   /api/webhooks/stripe             payment-provider events (Stripe signature, no JWT)
 * Answers use the S3 envelope `{data, meta}`; errors the S3 shapes (surface `portal`).
 * Keys of every surface, S3 included, are managed at /api/portal/keys (key-management-routes.ts).
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { AccountService, CommandContext, LimitService, Principal } from '../../app/services';
import type { JwtSessionService } from '../../app/sessions/session-service';
import { sessionCookieOptions } from '../../app/sessions/session-service';
import type { PaymentService } from '../../app/payments/payment-service';
import { verifyStripeSignature } from '../../app/payments/stripe-signature';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { handle } from '../http/app';
import { ctxOf, idempotencyOf } from '../http/context';
import { ApiError } from '../http/errors';
import { bearerToken, cookieValue } from '../http/surfaces';
import { parseInput } from '../http/validation';
import { sendData } from '../s3/router';
import { SignInSchema, WebhookEndpointSchema } from '../s3/schemas';
import { S3WebhookService, S3WebhookUrlRejected } from '../../app/s3-webhooks/webhook-service';

import { PORTAL_TOKEN_COOKIE } from './auth';
export const PORTAL_SESSION_SECONDS = 7 * 86_400;
export const PORTAL_SIGN_IN_FAILURES_ALLOWED = 10;
export const PORTAL_SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

export interface PortalRouterDeps {
  accounts: AccountService;
  limits: LimitService;
  sessions: JwtSessionService;
  webhooks: S3WebhookService;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  /** PAYMENT_WEBHOOK_SECRET; unset → every payment event is refused with received: false. */
  paymentWebhookSecret: string | undefined;
}

/** The portal JWT of a request: the bearer header first, else the `token` cookie. */
export function portalToken(req: Request): string | undefined {
  return bearerToken(req) ?? cookieValue(req, PORTAL_TOKEN_COOKIE);
}

/**
 * Mount before the JSON parser (createHttpApp `beforeBody`): the payment webhook's body is kept as
 * raw bytes, because the signature covers them exactly and nothing may be parsed before it is checked.
 */
export function createPaymentWebhookBodyReader() {
  const raw = express.raw({ type: () => true, limit: '256kb' });
  return (req: Request, res: Response, next: (err?: unknown) => void): void => {
    if (req.method !== 'POST' || req.path !== STRIPE_WEBHOOK_PATH) return next();
    raw(req, res, (err?: unknown) => {
      if (err) {
        res.status((err as { status?: number }).status === 413 ? 413 : 400).json({ received: false, error: 'body could not be read' });
        return;
      }
      next();
    });
  };
}

export function createPortalRouter(deps: PortalRouterDeps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 'portal' ? next() : next('router')));
  const send = (res: Response, status: number, data: unknown) => sendData(res, status, data, deps.clock);
  const cookieOptions = () => sessionCookieOptions('/api', deps.sessions.lifetimeSeconds);

  async function principalOf(req: Request, res: Response): Promise<Principal> {
    const verified = await deps.sessions.verify(portalToken(req));
    if (!verified.ok) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="portal"');
      throw new ApiError(verified.reason === 'missing' ? 'unauthenticated' : 'invalid_credential', verified.reason === 'missing' ? 'Authentication required' : 'Session is invalid, expired or signed out');
    }
    const account = await deps.accounts.get(verified.session.accountId);
    if (!account) throw new ApiError('invalid_credential', 'Session is invalid, expired or signed out');
    const principal: Principal = { accountId: account.accountId, plan: account.plan, userId: verified.session.userId, roles: verified.session.roles, surface: 'portal' };
    ctxOf(res).auth = { accountId: principal.accountId, plan: principal.plan, userId: verified.session.userId, roles: principal.roles, surface: 'portal' };
    return principal;
  }

  const context = (res: Response, principal: Principal): CommandContext => ({
    actor: { accountId: principal.accountId, ...(principal.userId ? { userId: principal.userId } : {}), surface: 'portal' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
    ...idempotencyOf(res),
  });

  // ---------------------------------------------------------------- session
  router.post(
    '/api/session',
    handle(async (req, res) => {
      const { email, password } = parseInput(SignInSchema, req.body);
      const bucket = `portal:sign_in_failures:${email.toLowerCase()}`;
      const room = await deps.limits.peek(bucket, PORTAL_SIGN_IN_FAILURES_ALLOWED, PORTAL_SIGN_IN_WINDOW_SECONDS);
      if (!room.allowed) throw new ApiError('auth_window_exceeded', 'Too many failed sign-in attempts; try again later', { retryAfterSeconds: room.retryAfterSeconds ?? 1 });
      const principal = await deps.accounts.signIn(email, password);
      if (!principal || !principal.userId) {
        await deps.limits.consume(bucket, PORTAL_SIGN_IN_FAILURES_ALLOWED, PORTAL_SIGN_IN_WINDOW_SECONDS);
        throw new ApiError('invalid_credential', 'Invalid email or password');
      }
      const { token, session } = await deps.sessions.issue({ accountId: principal.accountId, userId: principal.userId, roles: principal.roles });
      res.cookie(PORTAL_TOKEN_COOKIE, token, cookieOptions());
      send(res, 200, { token, token_type: 'Bearer', account_id: session.accountId, user_id: session.userId, plan: principal.plan, expires_at: session.expiresAt.toISOString() });
    }),
  );
  router.delete(
    '/api/session',
    handle(async (req, res) => {
      const revoked = await deps.sessions.revoke(portalToken(req));
      const { maxAge: _maxAge, ...clear } = cookieOptions();
      res.clearCookie(PORTAL_TOKEN_COOKIE, clear);
      send(res, 200, { signed_out: revoked });
    }),
  );

  // ---------------------------------------------------------------- S3 webhook endpoint
  router.get(
    '/api/webhook-endpoint',
    handle(async (req, res) => {
      const principal = await principalOf(req, res);
      const endpoint = await deps.webhooks.current(principal.accountId);
      if (!endpoint) throw new ApiError('not_found', 'No S3 webhook endpoint is registered');
      send(res, 200, endpoint);
    }),
  );
  router.put(
    '/api/webhook-endpoint',
    handle(async (req, res) => {
      const principal = await principalOf(req, res);
      const { url } = parseInput(WebhookEndpointSchema, req.body);
      try {
        const registered = await deps.webhooks.register(principal, url, context(res, principal));
        send(res, registered.created ? 201 : 200, { ...registered.endpoint, signing_secret: registered.signingSecret });
      } catch (error) {
        if (error instanceof S3WebhookUrlRejected) throw new ApiError('bad_request', `url: ${error.message}`, { fields: { url: [error.message] } });
        throw error;
      }
    }),
  );
  router.post(
    '/api/webhook-endpoint/reenable',
    handle(async (req, res) => {
      const principal = await principalOf(req, res);
      const endpoint = await deps.webhooks.reenable(principal, context(res, principal));
      if (!endpoint) throw new ApiError('not_found', 'No S3 webhook endpoint is registered');
      send(res, 200, endpoint);
    }),
  );

  // ---------------------------------------------------------------- payment provider
  router.post(STRIPE_WEBHOOK_PATH, async (req: Request, res: Response) => {
    const refuse = (status: number, error: string) => res.status(status).json({ received: false, error });
    try {
      if (!deps.paymentWebhookSecret) return void refuse(400, 'payment webhooks are not configured (no signing secret): event rejected');
      // Read raw by createPaymentWebhookBodyReader (before the JSON parser): nothing is parsed before verification.
      const rawBody = Buffer.isBuffer(req.body) ? req.body : (req as Request & { rawBody?: Buffer }).rawBody;
      if (!rawBody || rawBody.length === 0) return void refuse(400, 'empty body');
      const header = req.headers['stripe-signature'];
      const verified = verifyStripeSignature({
        header: typeof header === 'string' ? header : undefined,
        rawBody,
        secret: deps.paymentWebhookSecret,
        nowSeconds: Math.floor(deps.clock.now().getTime() / 1000),
      });
      if (!verified.ok) return void refuse(400, `signature verification failed: ${verified.reason}`);
      let event: unknown;
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return void refuse(400, 'body is not JSON');
      }
      if (!event || typeof event !== 'object' || Array.isArray(event)) return void refuse(400, 'body is not a JSON object');
      const outcome = await deps.payments.handleEvent(event as Record<string, never>);
      if (outcome.receipt === 'failed') {
        // Plan and record are in place; a non-2xx makes the provider redeliver, which only retries the receipt.
        return void res.status(500).json({ received: false, error: 'receipt e-mail not sent; the event will be retried' });
      }
      res.status(200).json({ received: true, handled: outcome.handled, ...(outcome.reason ? { reason: outcome.reason } : {}), ...(outcome.handled ? { plan_changed: outcome.planChanged, payment_created: outcome.paymentCreated, receipt: outcome.receipt } : {}) });
    } catch (error) {
      ctxOf(res).log.error({ err: error }, 'payment webhook failed');
      refuse(500, 'internal error; the event will be retried');
    }
  });

  return router;
}
