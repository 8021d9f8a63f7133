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
import { randomUUID } from 'node:crypto';
import express, { type Response, type Router } from 'express';
import type { CommandContext, Principal, ScreeningService } from '../../app/services';
import type { Clock } from '../../shared/clock';
import { ctxOf } from '../http/context';
import { ApiError } from '../http/errors';
import { s3PrincipalOf } from '../s3/gate';
import { screeningUuid, sendData } from '../s3/router';
import { mountScreeningMonitoringRoutes, type MonitoringRouteDeps } from './screening-routes';

export interface S3MonitoringRouterDeps extends MonitoringRouteDeps {
  screenings: Pick<ScreeningService, 'get'>;
  clock: Clock;
}

function contextOf(res: Response, principal: Principal): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.keyId ? { keyId: principal.keyId } : {}), ...(principal.userId ? { userId: principal.userId } : {}), surface: 's3' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
  };
}

export function createS3MonitoringRouter(deps: S3MonitoringRouterDeps): Router {
  const router = express.Router();
  router.use((_req, res, next) => (ctxOf(res).surface === 's3' ? next() : next('router')));

  mountScreeningMonitoringRoutes(router, deps, {
    principalOf: s3PrincipalOf,
    screeningParam: screeningUuid,
    // uuid → this account's screening and its number, or 404 (other tenants' look missing).
    screeningOf: async (principal, uuid) => {
      const view = await deps.screenings.get(principal.accountId, uuid);
      if (!view) throw new ApiError('not_found', `Screening ${uuid} not found`);
      return { surface: 's3', uuid: view.uuid, number: view.id };
    },
    contextOf,
    send: (res, body) => sendData(res, 200, body, deps.clock),
  });
  return router;
}
