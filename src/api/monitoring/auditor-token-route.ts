import type { AuditorTokens } from '../../app/audit/auditor-token';
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
