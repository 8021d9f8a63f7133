/**
 * S1 routes of monitoring, dispositions and the auditor's event history. Mounted after the S1 gate
 * (createS1Gate), which has authenticated the `svc_` key and counted the request; S2/S3 requests on
 * these paths fall through to their own routers.
 *
 *   POST   /api/v1/screening/:id/monitoring                 enrol        → {success, screening_id, monitoring}
 *   DELETE /api/v1/screening/:id/monitoring                 unenrol      → {success, screening_id, monitoring}
 *   POST   /api/v1/screening/:id/hits/:hitId/disposition    {disposition, reason} → {success, …, risk_score, risk_level}
 *   POST   /api/v1/audit/token                              {email, password} → {success, auditor_token, expires_at}
 *   GET    /api/v1/screening/:id/events                     X-Auditor-Token → {success, stream, events, chain}
 *   GET    /api/v1/audit/streams/:stream/events             X-Auditor-Token → same, any stream of the account
 */
import { issueAuditorToken, requireAuditor } from './auditor-token-route';
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { CommandContext, Principal } from '../../app/services';
import type { MonitoringService } from '../../app/monitoring/monitoring-service';
import type { AuditTrailService } from '../../app/audit/history';
import type { AuditorTokens } from '../../app/audit/auditor-token';
import { handle } from '../http/app';
import { ctxOf } from '../http/context';
import { ApiError } from '../http/errors';
import { parseInput } from '../http/validation';
import { s1PrincipalOf } from '../s1/router';
import { AuditorTokenRequestSchema, DispositionRequestSchema } from './schemas';

export interface S1MonitoringRouterDeps {
  monitoring: MonitoringService;
  audit: AuditTrailService;
  auditorTokens: AuditorTokens;
}

const NUMERIC = /^[1-9][0-9]{0,15}$/;

function screeningIdOf(req: Request): string {
  const id = String(req.params.id ?? '');
  if (!NUMERIC.test(id)) throw new ApiError('bad_request', 'id: must be a positive integer', { errors: ['id: must be a positive integer'] });
  return id;
}

function contextOf(res: Response, principal: Principal): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.keyId ? { keyId: principal.keyId } : {}), surface: 's1' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
  };
}

/** The analyst identity on S1: the user the key belongs to, else the key itself. */
export function s1AnalystOf(principal: Principal): string {
  return principal.userId ? `user:${principal.userId}` : `key:${principal.keyId ?? 'unknown'}`;
}

export function createS1MonitoringRouter(deps: S1MonitoringRouterDeps): Router {
  const router = express.Router();
  router.use((req, res, next) => (ctxOf(res).surface === 's1' ? next() : next('router')));

  const monitoring = (enrol: boolean) =>
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const id = screeningIdOf(req);
      const status = enrol
        ? await deps.monitoring.enrol(principal, id, contextOf(res, principal))
        : await deps.monitoring.unenrol(principal, id, contextOf(res, principal));
      res.status(200).json({ success: true, screening_id: Number(id), monitoring: status.monitoring });
    });
  router.post('/api/v1/screening/:id/monitoring', monitoring(true));
  router.delete('/api/v1/screening/:id/monitoring', monitoring(false));

  router.post(
    '/api/v1/screening/:id/hits/:hitId/disposition',
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const id = screeningIdOf(req);
      const hitId = String(req.params.hitId ?? '');
      if (!hitId || hitId.length > 200) throw new ApiError('bad_request', 'hitId: must be 1-200 characters', { errors: ['hitId: must be 1-200 characters'] });
      const body = parseInput(DispositionRequestSchema, req.body);
      const analyst = s1AnalystOf(principal);
      const result = await deps.monitoring.disposition(
        principal,
        { screeningId: id, hitId, disposition: body.disposition, reason: body.reason, analyst },
        contextOf(res, principal),
      );
      res.status(200).json({
        success: true,
        screening_id: Number(id),
        hit_id: result.hitId,
        disposition: result.disposition,
        analyst,
        risk_score: result.riskScore,
        risk_level: result.riskLevel,
        changed: result.changed,
      });
    }),
  );

  router.post(
    '/api/v1/audit/token',
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const body = parseInput(AuditorTokenRequestSchema, req.body);
      const issued = await issueAuditorToken(deps.auditorTokens, principal.accountId, body);
      res.status(200).json({ success: true, ...issued });
    }),
  );

  const auditor = (req: Request, res: Response): Promise<Principal> => requireAuditor(deps.auditorTokens, req, s1PrincipalOf(res), '/api/v1/audit/token');

  router.get(
    '/api/v1/screening/:id/events',
    handle(async (req, res) => {
      const id = screeningIdOf(req);
      const principal = await auditor(req, res);
      const history = await deps.audit.history(principal, `screening-${id}`);
      res.status(200).json({ success: true, ...history });
    }),
  );
  router.get(
    '/api/v1/audit/streams/:stream/events',
    handle(async (req, res) => {
      const principal = await auditor(req, res);
      const history = await deps.audit.history(principal, String(req.params.stream ?? ''));
      res.status(200).json({ success: true, ...history });
    }),
  );
  return router;
}
