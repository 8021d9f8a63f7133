/**
 * The auditor's event history as a small router any surface can mount with its own authentication:
 *
 *   GET <base>/screenings/:id/events          the screening stream
 *   GET <base>/streams/:stream/events         any stream of the principal's account
 *
 * The principal must carry the `auditor` role (AuditTrailService checks it and the tenancy). Errors go
 * through the app's error handler, so they come out in the surface's own envelope. Mounted for the
 * portal (JWT of a user whose account role is auditor) at /api/portal/audit; S2/S3 integrators pass
 * their surface's principal resolver and base path.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Principal } from '../../app/services';
import type { AuditTrailService } from '../../app/audit/history';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';

export interface AuditHistoryRouterDeps {
  audit: AuditTrailService;
  /** e.g. '/api/portal/audit' */
  basePath: string;
  /** The authenticated principal (throws the surface's 401 itself), with its roles. */
  principalOf(req: Request, res: Response): Promise<Principal>;
  /** Wraps the answer in the surface's envelope (default: the bare object). */
  present?: (res: Response, body: object) => void;
}

export function createAuditHistoryRouter(deps: AuditHistoryRouterDeps): Router {
  const router = express.Router();
  const send = deps.present ?? ((res: Response, body: object) => void res.status(200).json(body));
  const serve = (streamOf: (req: Request) => string) =>
    handle(async (req, res) => {
      const principal = await deps.principalOf(req, res);
      send(res, await deps.audit.history(principal, streamOf(req)));
    });
  router.get(
    `${deps.basePath}/screenings/:id/events`,
    serve((req) => {
      const id = String(req.params.id ?? '');
      if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new ApiError('bad_request', 'id: must be a positive integer');
      return `screening-${id}`;
    }),
  );
  router.get(`${deps.basePath}/streams/:stream/events`, serve((req) => String(req.params.stream ?? '')));
  return router;
}
