/**
 * GET /api/portal/session: whether the request carries a valid portal session (bearer token or the
 * HttpOnly `token` cookie), answered 200 either way. The page asks it before anything else when it
 * opens with no token of its own, so someone who has not signed in yet meets no 401 in the console;
 * every other console route keeps answering 401 without a session.
 */
import express, { type Router } from 'express';
import { handle } from '../http/app';
import { parseInput } from '../http/validation';
import { sendPortalData } from './auth';
import type { PortalConsoleDeps } from './console-deps';
import { PortalSessionQuerySchema } from './schemas';

export function createSessionStatusRoutes(deps: Pick<PortalConsoleDeps, 'auth' | 'clock'>): Router {
  const router = express.Router();
  router.get(
    '/api/portal/session',
    handle(async (req, res) => {
      parseInput(PortalSessionQuerySchema, req.query, 'query');
      const principal = await deps.auth.authenticate(req);
      // Nothing about the session beyond yes or no: the overview says the rest once signed in.
      sendPortalData(res, 200, { signed_in: principal !== undefined }, deps.clock.now());
    }),
  );
  return router;
}
