/**
 * S2 (`svca_` bearer) routes of ongoing monitoring and of the auditor's event history. The S2 gate
 * (createS2Gate, before body parsing) has authenticated the key; S1/S3 requests fall through. Answers
 * are S2's bare objects (`{success: true, …}` as the subject-check routes answer); errors the S2
 * envelope `{error: {code, message}}`.
 *
 *   POST   /api/v1/compliance/subject-checks/:id/monitoring  (no body) → {success, subject_check_id, monitoring: true}
 *   DELETE /api/v1/compliance/subject-checks/:id/monitoring  (no body) → {success, subject_check_id, monitoring: false}
 *   POST   /api/v1/compliance/audit/token                    {email, password} → {success, auditor_token, expires_at, user_id}
 *   GET    /api/v1/compliance/subject-checks/:id/events      X-Auditor-Token → {success, stream, events, chain}
 *
 * Monitoring: 404 not_found for another account's check (or none), 409 illegal_transition while the
 * check is running or when it failed; both calls are idempotent. S2 keys carry no role, so the auditor
 * role is proven the S1 way: a user of the key's account with role `auditor` exchanges e-mail and
 * password for a 15-minute auditor token.
 */
import { issueAuditorToken, requireAuditor } from './auditor-token-route';
import express, { type Request, type Response, type Router } from 'express';
import type { Principal } from '../../app/services';
import type { AuditTrailService } from '../../app/audit/history';
import type { AuditorTokens } from '../../app/audit/auditor-token';
import { newCommandContext } from '../../app/subject-checks/subject-check-service';
import type { SubjectCheckMonitoring } from '../../app/monitoring/subject-check-monitoring';
import { streamName as subjectCheckStream } from '../../commands/subject-check/decider';
import { handle } from '../http/app';
import { ctxOf } from '../http/context';
import { ApiError } from '../http/errors';
import { IdParamsSchema } from '../s2/schemas';
import { parseS2 } from '../s2/validation';
import { AuditorTokenRequestSchema } from './schemas';
import { S2MonitoringRequestSchema } from './s2-openapi';

export const S2_AUDIT_PREFIX = '/api/v1/compliance';

export interface S2MonitoringRouterDeps {
  audit: AuditTrailService;
  auditorTokens: AuditorTokens;
  subjectChecks: Pick<SubjectCheckMonitoring, 'enrol' | 'unenrol'>;
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

export function createS2MonitoringRouter(deps: S2MonitoringRouterDeps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 's2' ? next() : next('router')));

  for (const [method, enrol] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    router[method](
      `${S2_AUDIT_PREFIX}/subject-checks/:id/monitoring`,
      handle(async (req, res) => {
        const principal = s2KeyPrincipal(res);
        const id = subjectCheckIdOf(req);
        // No body is needed; one that is sent must be empty (`{}`), so a misplaced payload is not silently ignored.
        parseS2(S2MonitoringRequestSchema, req.body ?? {});
        const ctx = newCommandContext(principal, ctxOf(res).correlationId);
        const status = enrol ? await deps.subjectChecks.enrol(principal, id, ctx) : await deps.subjectChecks.unenrol(principal, id, ctx);
        res.status(200).json({ success: true, subject_check_id: Number(status.subjectCheckId), monitoring: status.monitoring });
      }),
    );
  }

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
      const auditor = await requireAuditor(deps.auditorTokens, req, principal, '/api/v1/compliance/audit/token');
      // Another account's subject check (or none) answers 404 from the history's tenancy check.
      const history = await deps.audit.history(auditor, subjectCheckStream(id));
      res.status(200).json({ success: true, ...history });
    }),
  );
  return router;
}
