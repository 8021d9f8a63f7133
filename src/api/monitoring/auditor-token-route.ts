import type { Request } from 'express';
import type { AuditorTokens } from '../../app/audit/auditor-token';
import type { Principal } from '../../app/services';
import { ApiError } from '../http/errors';

/** The body every surface's POST …/audit/token answers with (inside that surface's envelope). */
export interface AuditorTokenIssued {
  auditor_token: string;
  expires_at: string;
  user_id: string;
}

/**
 * Exchanges an auditor's e-mail and password (sent with the account's API key) for a short-lived
 * auditor token. One rule on every surface: unknown user or wrong password → 401, a user without
 * the auditor role → 403; the surface renders the error in its own envelope.
 */
export async function issueAuditorToken(tokens: AuditorTokens, accountId: string, credentials: { email: string; password: string }): Promise<AuditorTokenIssued> {
  const issued = await tokens.issue(accountId, credentials.email, credentials.password);
  if (issued === undefined) throw new ApiError('invalid_credential', 'Wrong e-mail or password for a user of this account');
  if (issued === 'not_auditor') throw new ApiError('forbidden', 'This user does not have the auditor role');
  return { auditor_token: issued.token, expires_at: issued.expiresAt, user_id: issued.userId };
}

/**
 * The auditor behind the request's X-Auditor-Token (issued to the caller's own account), or 403
 * naming the surface's route that issues one. One rule for every surface's event-history routes.
 */
export async function requireAuditor(tokens: AuditorTokens, req: Request, caller: Principal, tokenRoute: string): Promise<Principal> {
  const header = req.headers['x-auditor-token'];
  const auditor = await tokens.verify(typeof header === 'string' ? header : undefined, caller.accountId, caller.plan);
  if (!auditor) throw new ApiError('forbidden', `The event history is readable by auditors only: send X-Auditor-Token from POST ${tokenRoute}`);
  return auditor;
}
