/**
 * The S3 gate: runs before body parsing on every S3 `/api/v1/*` request (X-API-Key, or no
 * credential on an S3-only path). Order of checks:
 *   request id (uuid) → 15-minute failed-authentication window (429 {message}) → key (401 {error};
 *   the failure counts toward the window) → plan has API access (Starter: 403) → monthly request
 *   quota (429 {message}), with `ratelimit-*` headers from here on → route.
 * Nothing is appended by the gate; counters live in limit_counters (atomic under concurrency).
 */
import { monthlyQuotas, planAllows } from '../../commands/plans';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { KeyService, LimitService, Plan, Principal } from '../../app/services';
import type { Clock } from '../../shared/clock';
import { ctxOf } from '../http/context';
import { ApiError } from '../http/errors';

export const OPENAPI_PATH = '/api/v1/openapi.json';
/** Failed key presentations allowed per client address in 15 minutes; the next ones get 429. */
export const S3_AUTH_FAILURES_ALLOWED = 10;
export const S3_AUTH_WINDOW_SECONDS = 15 * 60;

/**
 * Monthly S3 request quota per account (every authenticated /api/v1 request counts, whatever its
 * answer). Professional 250 and Enterprise 1,000 are the spec's; Essentials 100 is ours (S1 uses the
 * same number); Starter has no API access (403 before any quota).
 */
export function s3MonthlyRequestQuota(plan: Plan): number {
  return monthlyQuotas.s3Requests[plan];
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function utcMonth(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export interface S3GateDeps {
  keys: KeyService;
  limits: LimitService;
  clock: Clock;
  monthlyQuota?: (plan: Plan) => number;
}

export function isS3ApiRequest(req: Request, res: Response): boolean {
  return ctxOf(res).surface === 's3' && (req.path === '/api/v1' || req.path.startsWith('/api/v1/')) && req.path !== OPENAPI_PATH;
}

/** The principal the gate authenticated. */
export function s3PrincipalOf(res: Response): Principal {
  const principal = res.locals.s3Principal as Principal | undefined;
  if (!principal) throw new ApiError('invalid_credential', 'Missing or invalid API key');
  return principal;
}

/** S3 answers carry a uuid request id (meta.request_id and x-request-id agree). */
export function ensureUuidRequestId(res: Response): string {
  const ctx = ctxOf(res);
  if (!UUID_PATTERN.test(ctx.requestId)) {
    ctx.requestId = randomUUID();
    res.setHeader('x-request-id', ctx.requestId);
  }
  return ctx.requestId;
}

function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function createS3Gate(deps: S3GateDeps): RequestHandler {
  const quotaOf = deps.monthlyQuota ?? s3MonthlyRequestQuota;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!isS3ApiRequest(req, res) || res.locals.s3GatePassed === true) {
      next();
      return;
    }
    (async () => {
      const ctx = ctxOf(res);
      ensureUuidRequestId(res);
      const failBucket = `s3:authfail:${clientAddress(req)}`;
      const window = await deps.limits.peek(failBucket, S3_AUTH_FAILURES_ALLOWED, S3_AUTH_WINDOW_SECONDS);
      if (!window.allowed) {
        throw new ApiError('auth_window_exceeded', 'Too many failed authentication attempts from this address; try again later', {
          retryAfterSeconds: window.retryAfterSeconds ?? 1,
        });
      }
      const header = req.headers['x-api-key'];
      const presented = typeof header === 'string' ? header.trim() : undefined;
      const auth = await deps.keys.authenticate('s3', presented);
      if (!auth.ok) {
        const counted = await deps.limits.consume(failBucket, S3_AUTH_FAILURES_ALLOWED, S3_AUTH_WINDOW_SECONDS);
        if (!counted.allowed) {
          throw new ApiError('auth_window_exceeded', 'Too many failed authentication attempts from this address; try again later', {
            retryAfterSeconds: counted.retryAfterSeconds ?? 1,
          });
        }
        throw new ApiError('invalid_credential', presented ? 'Invalid or revoked API key' : 'Missing API key: send X-API-Key: svcc_live_…');
      }
      const principal = auth.principal;
      ctx.auth = { accountId: principal.accountId, plan: principal.plan, ...(principal.keyId ? { keyId: principal.keyId } : {}), ...(principal.userId ? { userId: principal.userId } : {}), roles: principal.roles, surface: 's3' };
      if (!planAllows(principal.plan, 'api_access')) {
        throw new ApiError('plan_required', 'The Starter plan has no API access; upgrade to Professional or Enterprise');
      }
      const quota = quotaOf(principal.plan);
      const now = deps.clock.now();
      const decision = await deps.limits.consume(`s3:requests:${principal.accountId}:${utcMonth(now)}`, quota, 31 * 86_400, { align: 'utc_month' });
      res.setHeader('ratelimit-limit', String(decision.limit));
      res.setHeader('ratelimit-remaining', String(decision.remaining));
      // Seconds until the window resets (IETF RateLimit header fields), not a timestamp.
      res.setHeader('ratelimit-reset', String(Math.max(0, decision.resetAt - Math.floor(now.getTime() / 1000))));
      if (!decision.allowed) {
        throw new ApiError('quota_exceeded', `Monthly request quota of ${quota} reached for the ${principal.plan} plan; it resets at ${new Date(decision.resetAt * 1000).toISOString()}`, {
          retryAfterSeconds: decision.retryAfterSeconds ?? 1,
        });
      }
      res.locals.s3Principal = principal;
      res.locals.s3GatePassed = true;
    })().then(() => next(), next);
  };
}
