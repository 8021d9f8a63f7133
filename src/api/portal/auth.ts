/**
 * Portal authentication for the portal's JSON routes: the portal JWT (spec part 5, S3) from
 * `Authorization: Bearer <jwt>` or the `token` cookie, verified by the injected session service
 * (signature, audience, expiry, sign-out revocation), then the account looked up so the principal
 * carries the account's current plan (a plan change applies at once, not at the next sign-in).
 *
 * Small on purpose so every portal router (keys, webhooks, screenings, person checks) can share it.
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { AccountService, CommandContext, Principal } from '../../app/services';
import type { Session, SessionFailure } from '../../app/sessions/session-service';
import { ctxOf, idempotencyOf } from '../http/context';
import { ApiError } from '../http/errors';
import { withoutIdempotency, type Idempotent } from '../http/idempotency';
import { bearerToken, cookieValue } from '../http/surfaces';

export const PORTAL_TOKEN_COOKIE = 'token';

export interface PortalSessionVerifier {
  verify(token: string | undefined): Promise<{ ok: true; session: Session } | { ok: false; reason: SessionFailure }>;
}

/** The bearer header wins over the cookie (an API client may also hold a stale cookie). */
export function portalTokenOf(req: Request): string | undefined {
  const bearer = bearerToken(req);
  // Only a JWT-shaped bearer is a portal token; API keys on /api/* are not sessions.
  if (bearer && bearer.split('.').length === 3) return bearer;
  return cookieValue(req, PORTAL_TOKEN_COOKIE);
}

export interface PortalAuthenticator {
  /** The signed-in principal, or undefined (no, bad, expired or signed-out token; deleted account). */
  authenticate(req: Request): Promise<Principal | undefined>;
  /** Same, but throws the portal's 401 and records the principal on the request context. */
  require(req: Request, res: Response): Promise<Principal>;
}

export function createPortalAuthenticator(deps: { sessions: PortalSessionVerifier; accounts: Pick<AccountService, 'get'> }): PortalAuthenticator {
  async function verify(req: Request): Promise<{ principal?: Principal; reason?: SessionFailure | 'no_account' }> {
    const verified = await deps.sessions.verify(portalTokenOf(req));
    if (!verified.ok) return { reason: verified.reason };
    const account = await deps.accounts.get(verified.session.accountId);
    if (!account) return { reason: 'no_account' };
    return {
      principal: { accountId: account.accountId, plan: account.plan, userId: verified.session.userId, roles: verified.session.roles, surface: 'portal' },
    };
  }
  return {
    async authenticate(req) {
      return (await verify(req)).principal;
    },
    async require(req, res) {
      const { principal, reason } = await verify(req);
      if (!principal) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="portal"');
        throw new ApiError(reason === 'missing' ? 'unauthenticated' : 'invalid_credential', reason === 'missing' ? 'Authentication required' : 'Session is invalid, expired or signed out');
      }
      ctxOf(res).auth = { accountId: principal.accountId, plan: principal.plan, ...(principal.userId ? { userId: principal.userId } : {}), roles: principal.roles, surface: 'portal' };
      return principal;
    },
  };
}

/** Command metadata for a portal action: the signed-in user is the actor. */
export function portalCommandContext(res: Response, principal: Principal): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.userId ? { userId: principal.userId } : {}), surface: 'portal' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
    ...idempotencyOf(res),
  };
}

/**
 * The Idempotency-Key handling of a portal create route: the session is checked first (401 before
 * any key is looked up), and a key belongs to the signed-in user.
 */
export function portalIdempotent(idempotent: Idempotent | undefined, auth: PortalAuthenticator): RequestHandler {
  return (idempotent ?? withoutIdempotency)({
    credentialOf: async (req, res) => {
      const principal = await auth.require(req, res);
      return { accountId: principal.accountId, credential: `user:${principal.userId ?? 'account'}` };
    },
  });
}

/** The portal envelope (the S3 one): `{data, meta: {request_id, timestamp}}`. */
export function sendPortalData(res: Response, status: number, data: unknown, now: Date, extraMeta: Record<string, unknown> = {}): void {
  res.status(status).json({ data, meta: { request_id: ctxOf(res).requestId, timestamp: now.toISOString(), ...extraMeta } });
}
