/**
 * The portal's console API (all under /api/portal/, portal JWT): one router that the composition
 * root mounts next to the session/S3-key routes (router.ts) and the person-check routes.
 */
import express, { type Router } from 'express';
import { ctxOf } from '../http/context';
import type { PortalConsoleDeps } from './console-deps';
import { createKeyManagementRoutes } from './key-management-routes';
import { createOverviewRoutes } from './overview-routes';
import { createSessionStatusRoutes } from './session-status-routes';
import { createScreeningRoutes } from './screening-routes';
import { createSubjectCheckRoutes } from './subject-check-routes';
import { createWebhookConsoleRoutes } from './webhook-console-routes';
import { createWatchlistRoutes } from '../s3/watchlist-routes';
import { DEFAULT_WATCHLIST_IMPORT_MAX_BYTES } from '../s3/router';
import { portalCommandContext, portalIdempotent, sendPortalData } from './auth';

export type { PortalConsoleDeps } from './console-deps';
export { defaultS3MonthlyQuota } from './console-deps';

export function createPortalConsoleRouter(deps: PortalConsoleDeps): Router {
  const router = express.Router();
  // Only portal-surface requests (not /api/v1 or /api/account) reach these routes.
  router.use('/api/portal', (_req, res, next) => (ctxOf(res).surface === 'portal' ? next() : next('router')));
  router.use(createSessionStatusRoutes(deps));
  router.use(createOverviewRoutes(deps));
  router.use(createKeyManagementRoutes(deps));
  router.use(createWebhookConsoleRoutes(deps));
  router.use(createScreeningRoutes(deps));
  router.use(createSubjectCheckRoutes(deps));
  if (deps.watchlists) {
    router.use(
      createWatchlistRoutes({
        base: '/api/portal/watchlists',
        watchlists: deps.watchlists,
        principalOf: (req, res) => deps.auth.require(req, res),
        commandContext: portalCommandContext,
        send: (res, status, data) => sendPortalData(res, status, data, deps.clock.now()),
        // The session is checked before the key is looked up (as on the other portal create routes).
        idempotent: portalIdempotent(deps.idempotent, deps.auth),
        maxImportBytes: deps.watchlistImportMaxBytes ?? DEFAULT_WATCHLIST_IMPORT_MAX_BYTES,
        today: () => deps.clock.now().toISOString().slice(0, 10),
      }),
    );
  }
  return router;
}
