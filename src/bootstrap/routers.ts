/** Every surface's routers (S1, S3, the portal and its console, person checks, monitoring, S2) and the OpenAPI document. */
import type { Router } from 'express';
import { createS1Router, defaultS1MonthlyQuota } from '../api/s1/router';
import { buildOpenApiDocument } from '../api/openapi/registry';
import { registerOperations } from '../api/http/operations-openapi';
import { registerS1 } from '../api/s1/schemas';
import { createS3Router } from '../api/s3/router';
import type { BatchJobService } from '../app/batch-jobs/batch-job-service';
import { s3MonthlyRequestQuota } from '../api/s3/gate';
import { offshoreLeakChecksPerMonth } from '../commands/plans';
import { registerS3 } from '../api/s3/openapi';
import { createPortalRouter } from '../api/portal/router';
import { createS2AccountRouter, createS2Router } from '../api/s2/router';
import { registerS2 } from '../api/s2/schemas';
import { createS1PersonCheckRouter, createPersonCheckPortalRouter } from '../api/person-checks/router';
import { registerPersonChecks } from '../api/person-checks/schemas';
import { createPortalAuthenticator, sendPortalData } from '../api/portal/auth';
import { createPortalConsoleRouter } from '../api/portal/console';
import { createS1MonitoringRouter } from '../api/monitoring/s1-router';
import { createAuditHistoryRouter } from '../api/monitoring/history-router';
import { createS3MonitoringRouter } from '../api/monitoring/s3-router';
import { createS2MonitoringRouter } from '../api/monitoring/s2-router';
import { registerMonitoringS1 } from '../api/monitoring/schemas';
import { registerMonitoringS3 } from '../api/monitoring/s3-openapi';
import { registerMonitoringS2 } from '../api/monitoring/s2-openapi';
import { PORTAL_AUDIT_BASE_PATH, registerPortal } from '../api/portal/openapi';
import type { createIdempotency } from '../api/http/idempotency';
import { PgWorkQueue } from '../app/screenings/work-queue';
import { CaseDesk } from '../app/screenings/case-desk';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import type { Principal } from '../app/services';
import type { Clock } from '../shared/clock';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { DeadLetterCounter } from '../infrastructure/bus/dead-letter';
import type { SecretBox } from '../webhooks/secrets';
import type { ListsInService } from './lists';
import type { Agents } from './agents';
import type { ReadSide } from './read-side';
import type { ApplicationServices } from './services';
import type { MonitoringWiring } from './monitoring';
import type { PortalServices } from './portal';
import type { Stops } from './lifecycle';
import type { Telemetry } from '../infrastructure/telemetry/telemetry';

type Idempotent = ReturnType<typeof createIdempotency>;

/** Everything the HTTP process serves from. */
export interface HttpDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  pool: pg.Pool;
  store: EventStore;
  secrets: SecretBox;
  deadLetters: DeadLetterCounter;
  lists: ListsInService;
  agents: Agents;
  readSide: ReadSide;
  services: ApplicationServices;
  monitoring: MonitoringWiring;
  portal: PortalServices;
  stops: Stops;
  telemetry: Telemetry;
}

export function surfaceRouters(deps: HttpDeps, idempotent: Idempotent, batchJobs?: BatchJobService): Router[] {
  const { config, clock, logger, store, monitoring: m, portal } = deps;
  const { keys, limits, screenings, accounts, sessions, subjectChecks, s2Webhooks, personChecks } = deps.services;
  const openApi = (() => {
    let cached: object | undefined;
    return () => (cached ??= buildOpenApiDocument([registerS1, registerS3, registerS2, registerPersonChecks, registerMonitoringS1, registerMonitoringS3, registerMonitoringS2, registerPortal, registerOperations]));
  })();
  const portalAuth = createPortalAuthenticator({ sessions: portal.portalSessions, accounts });
  const { audit, auditorTokens } = m;
  const waitMs = config.SCREENING_WAIT_MS;
  return [
    createS1Router({ keys, limits, screenings, clock, config: { screeningWaitMs: waitMs, monthlyQuota: defaultS1MonthlyQuota }, openApiDocument: openApi, idempotent }),
    createS1MonitoringRouter({ monitoring: m.service, audit, auditorTokens }),
    createS3Router({
      keys,
      limits,
      screenings,
      usage: portal.usage,
      store,
      clock,
      idempotent,
      watchlists: deps.services.watchlists,
      config: { screeningWaitMs: waitMs, watchlistImportMaxBytes: config.WATCHLIST_IMPORT_MAX_BYTES },
      ...(batchJobs ? { batches: { service: batchJobs, maxBytes: config.BATCH_MAX_BYTES } } : {}),
    }),
    createS3MonitoringRouter({ monitoring: m.service, audit, auditorTokens, screenings, clock }),
    createPortalRouter({ accounts, limits, sessions: portal.portalSessions, webhooks: portal.webhooks, payments: portal.payments, clock, logger, paymentWebhookSecret: config.PAYMENT_WEBHOOK_SECRET }),
    // The portal's console API (/api/portal/*) and person-check form routes, both on the portal JWT.
    portalConsoleRouter(deps, idempotent, portalAuth),
    createPersonCheckPortalRouter({ personChecks, idempotent, authenticate: (req) => portalAuth.authenticate(req), waitMs }),
    // The auditor's event history on the portal: a signed-in user whose account role is auditor.
    createAuditHistoryRouter({ audit, basePath: PORTAL_AUDIT_BASE_PATH, principalOf: (req, res) => portalAuth.require(req, res), present: (res, body) => sendPortalData(res, 200, body, clock.now()) }),
    createS1PersonCheckRouter({ personChecks, idempotent, waitMs }),
    createS2MonitoringRouter({ audit, auditorTokens, subjectChecks: m.subjectChecks }),
    createS2Router({ keys, limits, accounts, sessions, subjectChecks, webhooks: s2Webhooks, clock, idempotent }),
    createS2AccountRouter({ keys, limits, accounts, sessions, subjectChecks, webhooks: s2Webhooks, clock, idempotent }),
  ];
}

function portalConsoleRouter(deps: HttpDeps, idempotent: Idempotent, auth: ReturnType<typeof createPortalAuthenticator>): Router {
  const { config, clock, pool, store, secrets, lists, agents, portal } = deps;
  const { keys, limits, screenings, accounts, subjectChecks, s2Webhooks, analystNames } = deps.services;
  return createPortalConsoleRouter({
    auth,
    idempotent,
    watchlists: deps.services.watchlists,
    watchlistImportMaxBytes: config.WATCHLIST_IMPORT_MAX_BYTES,
    accounts,
    keys,
    limits,
    screenings,
    store,
    pool,
    clock,
    secrets,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    readModelsCaughtUp: deps.readSide.readModelsCaughtUp,
    s2Webhooks,
    s3Webhooks: portal.webhooks,
    subjectChecks,
    personChecks: true,
    workQueue: new PgWorkQueue(pool),
    caseDesk: new CaseDesk({ store, pool, clock }),
    sourceStatus: {
      lists: () => lists.status().map((f) => ({ ...f, entityCount: lists.engine().versions.find((v) => v.id === f.versionId)?.entityCount ?? 0 })),
      agents: () =>
        [...agents.catalog.values()].map((a) => ({ name: a.name, label: a.label, configured: a.configured?.() !== false, ...(a.enableWith ? { enableWith: a.enableWith } : {}) })),
    },
    analystNames,
    // The analyst on a portal disposition is the signed-in user.
    dispositions: {
      disposition: (principal, input, ctx) =>
        deps.monitoring.service.disposition(
          principal,
          { screeningId: input.screeningId, hitId: input.hitId, disposition: input.status, reason: input.reason, analyst: portalAnalyst(principal) },
          ctx,
        ),
      dispositionMany: (principal, input, ctx) =>
        deps.monitoring.service.dispositionMany(
          principal,
          { screeningId: input.screeningId, hitIds: input.hitIds, disposition: input.status, reason: input.reason, analyst: portalAnalyst(principal) },
          ctx,
        ),
    },
    s1MonthlyQuota: defaultS1MonthlyQuota,
    s3MonthlyQuota: s3MonthlyRequestQuota,
    offshoreLeakChecks: { perMonth: (plan) => offshoreLeakChecksPerMonth(plan, 's3'), usedIn: (accountId, month) => portal.offshoreLeakChecks.usedIn(accountId, month) },
    agentLabels: agents.agentLabels,
  });
}

/** The analyst of a portal decision: the signed-in user (the account only when a session has no user). */
function portalAnalyst(principal: Principal): string {
  return principal.userId ? `user:${principal.userId}` : `account-${principal.accountId}`;
}
