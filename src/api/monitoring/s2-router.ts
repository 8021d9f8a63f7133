/**
 * S2 (`svca_` bearer) routes of the auditor's event history. The S2 gate (createS2Gate, before body
 * parsing) has authenticated the key; S1/S3 requests fall through. Answers are S2's bare objects
 * (`{success: true, …}` as the subject-check routes answer); errors the S2 envelope
 * `{error: {code, message}}`.
 *
 *   POST /api/v1/compliance/audit/token                  {email, password} → {success, auditor_token, expires_at, user_id}
 *   GET  /api/v1/compliance/subject-checks/:id/events    X-Auditor-Token → {success, stream, events, chain}
 *
 * S2 keys carry no role, so the auditor role is proven the S1 way: a user of the key's account with
 * role `auditor` exchanges e-mail and password for a 15-minute auditor token. Monitoring of subject
 * checks is not offered: the subject-check aggregate has no monitoring (docs/monitoring-and-audit.md).
 */
import { issueAuditorToken } from './auditor-token-route';
import express, { type Request, type Response, type Router } from 'express';
import type { Principal } from '../../app/services';
import type { AuditTrailService } from '../../app/audit/history';
import type { AuditorTokens } from '../../app/audit/auditor-token';
import { streamName as subjectCheckStream } from '../../commands/subject-check/decider';
import { handle } from '../http/app';
import { ctxOf } from '../http/context';
import { ApiError } from '../http/errors';
import { IdParamsSchema } from '../s2/schemas';
import { parseS2 } from '../s2/validation';
import { AuditorTokenRequestSchema } from './schemas';

export const S2_AUDIT_PREFIX = '/api/v1/compliance';

export interface S2AuditRouterDeps {
  audit: AuditTrailService;
  auditorTokens: AuditorTokens;
}

function s2KeyPrincipal(res: Response): Principal {
  const principal = res.locals.s2Principal as Principal | undefined;
  if (!principal) throw new ApiError('unauthenticated', 'Missing or malformed Authorization header');
  return principal;
}

function subjectCheckIdOf(req: Request): string {
  const parsed = IdParamsSchema.safeParse(req.params);
  if (!parsed.success) throw new ApiError('bad_request', 'id: must be a positive integer', { errors: ['id: must be a positive integer'] });
  return parsed.data.id;
}

export function createS2AuditRouter(deps: S2AuditRouterDeps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 's2' ? next() : next('router')));

  router.post(
    `${S2_AUDIT_PREFIX}/audit/token`,
    handle(async (req, res) => {
      const principal = s2KeyPrincipal(res);
      const body = parseS2(AuditorTokenRequestSchema, req.body);
      const issued = await issueAuditorToken(deps.auditorTokens, principal.accountId, body);
      res.status(200).json({ success: true, ...issued });
    }),
  );

  router.get(
    `${S2_AUDIT_PREFIX}/subject-checks/:id/events`,
    handle(async (req, res) => {
      const principal = s2KeyPrincipal(res);
      const id = subjectCheckIdOf(req);
      const header = req.headers['x-auditor-token'];
      const auditor = await deps.auditorTokens.verify(typeof header === 'string' ? header : undefined, principal.accountId, principal.plan);
      if (!auditor) throw new ApiError('forbidden', 'The event history is readable by auditors only: send X-Auditor-Token from POST /api/v1/compliance/audit/token');
      // Another account's subject check (or none) answers 404 from the history's tenancy check.
      const history = await deps.audit.history(auditor, subjectCheckStream(id));
      res.status(200).json({ success: true, ...history });
    }),
  );
  return router;
}
