/**
 * The routes S1 and S3 share for a screening's monitoring, its hits' dispositions and the auditor's
 * event history. One flow for both; each surface binds it (s1-router.ts, s3-router.ts) with how it
 * authenticates, names a screening, builds the command context and wraps an answer.
 *
 *   POST   /api/v1/screening/:id/monitoring                 enrol
 *   DELETE /api/v1/screening/:id/monitoring                 unenrol
 *   POST   /api/v1/screening/:id/hits/:hitId/disposition    {disposition, reason}
 *   POST   /api/v1/audit/token                              {email, password} → auditor token
 *   GET    /api/v1/screening/:id/events                     X-Auditor-Token → {stream, events, chain}
 *
 * Order of checks: the screening parameter (400), the hit id and the body (400), then the screening
 * as the caller's own (S3: another account's uuid is 404), then the command.
 */
import type { Request, Response, Router } from 'express';
import type { CommandContext, Principal } from '../../app/services';
import type { MonitoringService } from '../../app/monitoring/monitoring-service';
import type { AuditTrailService } from '../../app/audit/history';
import type { AuditorTokens } from '../../app/audit/auditor-token';
import { handle } from '../http/app';
import { invalidField } from '../http/errors';
import { parseInput } from '../http/validation';
import { presentDisposition, presentMonitoring, type ScreeningRef } from '../presenters/monitoring';
import { issueAuditorToken, requireAuditor } from './auditor-token-route';
import { AuditorTokenRequestSchema, DispositionRequestSchema } from './schemas';

export interface MonitoringRouteDeps {
  monitoring: MonitoringService;
  audit: AuditTrailService;
  auditorTokens: AuditorTokens;
}

/** How one surface takes part in the shared flow. */
export interface MonitoringSurfaceBinding {
  principalOf(res: Response): Principal;
  /** The screening parameter of the path, checked (throws the surface's 400). */
  screeningParam(req: Request): string;
  /** That screening as the caller's own, named the surface's way. */
  screeningOf(principal: Principal, param: string): Promise<ScreeningRef>;
  contextOf(res: Response, principal: Principal): CommandContext;
  /** A 200 answer in the surface's envelope. */
  send(res: Response, body: object): void;
}

/** The analyst identity a disposition records: the user the key belongs to, else the key itself. */
export function analystOf(principal: Principal): string {
  return principal.userId ? `user:${principal.userId}` : `key:${principal.keyId ?? 'unknown'}`;
}

export function mountScreeningMonitoringRoutes(router: Router, deps: MonitoringRouteDeps, surface: MonitoringSurfaceBinding): void {
  const monitoring = (enrol: boolean) =>
    handle(async (req, res) => {
      const principal = surface.principalOf(res);
      const screening = await surface.screeningOf(principal, surface.screeningParam(req));
      const id = String(screening.number);
      const ctx = surface.contextOf(res, principal);
      const status = enrol ? await deps.monitoring.enrol(principal, id, ctx) : await deps.monitoring.unenrol(principal, id, ctx);
      surface.send(res, presentMonitoring(screening, status.monitoring));
    });
  router.post('/api/v1/screening/:id/monitoring', monitoring(true));
  router.delete('/api/v1/screening/:id/monitoring', monitoring(false));

  router.post(
    '/api/v1/screening/:id/hits/:hitId/disposition',
    handle(async (req, res) => {
      const principal = surface.principalOf(res);
      const param = surface.screeningParam(req);
      const hitId = String(req.params.hitId ?? '');
      if (!hitId || hitId.length > 200) throw invalidField('hitId', 'must be 1-200 characters');
      const body = parseInput(DispositionRequestSchema, req.body);
      const screening = await surface.screeningOf(principal, param);
      const analyst = analystOf(principal);
      const result = await deps.monitoring.disposition(
        principal,
        { screeningId: String(screening.number), hitId, disposition: body.disposition, reason: body.reason, analyst },
        surface.contextOf(res, principal),
      );
      surface.send(res, presentDisposition(screening, result, analyst));
    }),
  );

  router.post(
    '/api/v1/audit/token',
    handle(async (req, res) => {
      const principal = surface.principalOf(res);
      const body = parseInput(AuditorTokenRequestSchema, req.body);
      surface.send(res, await issueAuditorToken(deps.auditorTokens, principal.accountId, body));
    }),
  );

  router.get(
    '/api/v1/screening/:id/events',
    handle(async (req, res) => {
      const principal = surface.principalOf(res);
      const param = surface.screeningParam(req);
      const auditor = await requireAuditor(deps.auditorTokens, req, principal, '/api/v1/audit/token');
      const screening = await surface.screeningOf(principal, param);
      surface.send(res, await deps.audit.history(auditor, `screening-${screening.number}`));
    }),
  );
}
