/**
 * S3 (X-API-Key) routes of monitoring, dispositions and the auditor's event history. The S3 gate
 * (createS3Gate, before body parsing) has authenticated the key and counted the request; S1/S2
 * requests on these paths fall through to their own routers. Answers are the S3 `{data, meta}`
 * envelope; errors the S3 shapes (400 `{error, details}`, others `{error}`).
 *
 *   POST   /api/v1/screening/:uuid/monitoring                enrol        → data {id, screening_number, monitoring}
 *   DELETE /api/v1/screening/:uuid/monitoring                unenrol      → same
 *   POST   /api/v1/screening/:uuid/hits/:hitId/disposition   {disposition, reason} → data {…, risk_score, risk_level, changed}
 *   POST   /api/v1/audit/token                               {email, password} → data {auditor_token, expires_at, user_id}
 *   GET    /api/v1/screening/:uuid/events                    X-Auditor-Token → data {stream, events, chain}
 *
 * S3 names a screening by its uuid; the screening stream is the one S1 uses (`screening-<number>`),
 * so the uuid is resolved through the account's own screenings first: another account's uuid is 404.
 * S3 keys carry no role (every key is its user's `owner` key): the auditor proves their role with an
 * auditor token, exactly as on S1 (docs/monitoring-and-audit.md).
 */
import { issueAuditorToken, requireAuditor } from './auditor-token-route';
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { CommandContext, Principal, ScreeningService } from '../../app/services';
import type { MonitoringService } from '../../app/monitoring/monitoring-service';
import type { AuditTrailService } from '../../app/audit/history';
import type { AuditorTokens } from '../../app/audit/auditor-token';
import type { Clock } from '../../shared/clock';
import { handle } from '../http/app';
import { ctxOf } from '../http/context';
import { ApiError } from '../http/errors';
import { parseInput } from '../http/validation';
import { s3PrincipalOf } from '../s3/gate';
import { sendData } from '../s3/router';
import { ScreeningUuidParamsSchema } from '../s3/schemas';
import { AuditorTokenRequestSchema, DispositionRequestSchema } from './schemas';

export interface S3MonitoringRouterDeps {
  monitoring: MonitoringService;
  audit: AuditTrailService;
  auditorTokens: AuditorTokens;
  screenings: Pick<ScreeningService, 'get'>;
  clock: Clock;
}

function screeningUuidOf(req: Request): string {
  const parsed = ScreeningUuidParamsSchema.safeParse(req.params);
  if (!parsed.success) throw new ApiError('bad_request', 'id: must be a screening uuid', { fields: { id: ['must be a screening uuid'] } });
  return parsed.data.id.toLowerCase();
}

function contextOf(res: Response, principal: Principal): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.keyId ? { keyId: principal.keyId } : {}), ...(principal.userId ? { userId: principal.userId } : {}), surface: 's3' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
  };
}

/** The analyst identity on S3: the user the key belongs to, else the key itself. */
export function s3AnalystOf(principal: Principal): string {
  return principal.userId ? `user:${principal.userId}` : `key:${principal.keyId ?? 'unknown'}`;
}

export function createS3MonitoringRouter(deps: S3MonitoringRouterDeps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 's3' ? next() : next('router')));
  const send = (res: Response, data: unknown) => sendData(res, 200, data, deps.clock);

  /** uuid → the numeric screening id of this account's screening, or 404 (other tenants' look missing). */
  async function ownScreening(accountId: string, uuid: string): Promise<{ uuid: string; number: number }> {
    const view = await deps.screenings.get(accountId, uuid);
    if (!view) throw new ApiError('not_found', `Screening ${uuid} not found`);
    return { uuid: view.uuid, number: view.id };
  }

  const monitoring = (enrol: boolean) =>
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const screening = await ownScreening(principal.accountId, screeningUuidOf(req));
      const id = String(screening.number);
      const status = enrol
        ? await deps.monitoring.enrol(principal, id, contextOf(res, principal))
        : await deps.monitoring.unenrol(principal, id, contextOf(res, principal));
      send(res, { id: screening.uuid, screening_number: screening.number, monitoring: status.monitoring });
    });
  router.post('/api/v1/screening/:id/monitoring', monitoring(true));
  router.delete('/api/v1/screening/:id/monitoring', monitoring(false));

  router.post(
    '/api/v1/screening/:id/hits/:hitId/disposition',
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const uuid = screeningUuidOf(req);
      const hitId = String(req.params.hitId ?? '');
      if (!hitId || hitId.length > 200) throw new ApiError('bad_request', 'hitId: must be 1-200 characters', { fields: { hitId: ['must be 1-200 characters'] } });
      const body = parseInput(DispositionRequestSchema, req.body);
      const screening = await ownScreening(principal.accountId, uuid);
      const analyst = s3AnalystOf(principal);
      const result = await deps.monitoring.disposition(
        principal,
        { screeningId: String(screening.number), hitId, disposition: body.disposition, reason: body.reason, analyst },
        contextOf(res, principal),
      );
      send(res, {
        id: screening.uuid,
        screening_number: screening.number,
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
      const principal = s3PrincipalOf(res);
      const body = parseInput(AuditorTokenRequestSchema, req.body);
      const issued = await issueAuditorToken(deps.auditorTokens, principal.accountId, body);
      send(res, issued);
    }),
  );

  router.get(
    '/api/v1/screening/:id/events',
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const uuid = screeningUuidOf(req);
      const auditor = await requireAuditor(deps.auditorTokens, req, principal, '/api/v1/audit/token');
      const screening = await ownScreening(principal.accountId, uuid);
      send(res, await deps.audit.history(auditor, `screening-${screening.number}`));
    }),
  );
  return router;
}
