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
import { requireAuditor } from './auditor-token-route';
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { CommandContext, Principal } from '../../app/services';
import { handle } from '../http/app';
import { ctxOf } from '../http/context';
import { invalidField } from '../http/errors';
import { s1PrincipalOf } from '../s1/router';
import { mountScreeningMonitoringRoutes, type MonitoringRouteDeps } from './screening-routes';

export type S1MonitoringRouterDeps = MonitoringRouteDeps;

const NUMERIC = /^[1-9][0-9]{0,15}$/;

function screeningIdOf(req: Request): string {
  const id = String(req.params.id ?? '');
  if (!NUMERIC.test(id)) throw invalidField('id', 'must be a positive integer');
  return id;
}

function contextOf(res: Response, principal: Principal): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.keyId ? { keyId: principal.keyId } : {}), surface: 's1' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
  };
}

export function createS1MonitoringRouter(deps: S1MonitoringRouterDeps): Router {
  const router = express.Router();
  router.use((req, res, next) => (ctxOf(res).surface === 's1' ? next() : next('router')));
  const send = (res: Response, body: object) => void res.status(200).json({ success: true, ...body });

  // S1 names a screening by its number; the monitoring service checks it is the caller's.
  mountScreeningMonitoringRoutes(router, deps, {
    principalOf: s1PrincipalOf,
    screeningParam: screeningIdOf,
    screeningOf: async (_principal, id) => ({ surface: 's1', number: Number(id) }),
    contextOf,
    send,
  });

  router.get(
    '/api/v1/audit/streams/:stream/events',
    handle(async (req, res) => {
      const principal = await requireAuditor(deps.auditorTokens, req, s1PrincipalOf(res), '/api/v1/audit/token');
      send(res, await deps.audit.history(principal, String(req.params.stream ?? '')));
    }),
  );
  return router;
}
