/**
 * S3 enterprise API (X-API-Key): key management, usage, CDD/EDD/M&A/SOW screenings, get, JSON
 * report and list. Every success is `{data, meta: {request_id, timestamp}}`; errors are the S3
 * shapes rendered by src/api/http/errors.ts. The gate (./gate.ts) has authenticated the caller,
 * refused Starter and consumed the monthly request quota before the body was read.
 *
 * Identifiers: S3 names a screening by its uuid (`id`); `screening_number` is the numeric id S1
 * uses for the same screening; SOW screenings also carry `sow_screening_id` (`SVC-<8>-SOW`).
 */
import { screeningKindRefusal } from '../../commands/plans';
import { declaredRequestInput, toRequestInput as s1RequestInput } from '../s1/router';
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { LimitExceeded } from '../../commands/errors';
import type { CommandContext, KeyService, LimitService, Principal, ScreeningKind, ScreeningRequestInput, ScreeningService, ScreeningView } from '../../app/services';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { Clock } from '../../shared/clock';
import { toStoredDeclaration } from '../../agents/sow/declaration';
import { loadSowAssessment } from '../../app/sow/sow-view';
import type { UsageService } from '../../app/usage/usage-service';
import type { BatchJobService } from '../../app/batch-jobs/batch-job-service';
import { handle } from '../http/app';
import { requestAndAwait } from '../http/screening-request';
import { ctxOf, idempotencyOf } from '../http/context';
import { ApiError, invalidField } from '../http/errors';
import { withoutIdempotency, type Idempotent } from '../http/idempotency';
import { entityTypeOmitted, parseInput } from '../http/validation';
import { createS3Gate, ensureUuidRequestId, s3PrincipalOf, s3MonthlyRequestQuota } from './gate';
import { mountBatchRoutes } from './batch-routes';
import { presentKey } from '../presenters/keys';
import { presentScreening, presentScreeningDetail } from '../presenters/screenings';
import { createWatchlistRoutes } from './watchlist-routes';
import type { WatchlistService } from '../../app/watchlists/watchlist-service';
import {
  CreateKeySchema,
  KeyIdParamsSchema,
  S3ListQuerySchema,
  S3MaRequestSchema,
  S3SowRequestSchema,
  ScreeningUuidParamsSchema,
} from './schemas';

export interface S3RouterDeps {
  /** Idempotency-Key handling of the create routes (src/api/http/idempotency.ts); without it the header is ignored. */
  idempotent?: Idempotent;
  keys: KeyService;
  limits: LimitService;
  screenings: ScreeningService;
  usage: UsageService;
  store: EventStore;
  clock: Clock;
  config: { screeningWaitMs: number; watchlistImportMaxBytes?: number };
  /** Asynchronous batch screening jobs (POST /api/v1/batches …); without it the routes are not mounted. */
  batches?: { service: BatchJobService; maxBytes: number };
  /** Internal watchlists (issue 21): /api/v1/watchlists…; absent, the routes are not mounted. */
  watchlists?: WatchlistService;
}

/** Sends `{data, meta}`; the request id is the x-request-id header's (a uuid on S3). */
export function sendData(res: Response, status: number, data: unknown, clock: Clock): void {
  const requestId = ensureUuidRequestId(res);
  res.status(status).json({ data, meta: { request_id: requestId, timestamp: clock.now().toISOString() } });
}

function commandContext(res: Response, principal: Principal): CommandContext {
  return {
    actor: { accountId: principal.accountId, ...(principal.keyId ? { keyId: principal.keyId } : {}), ...(principal.userId ? { userId: principal.userId } : {}), surface: 's3' },
    correlationId: ctxOf(res).correlationId,
    commandId: randomUUID(),
    ...idempotencyOf(res),
  };
}

function toRequestInput(kind: ScreeningKind, body: unknown): ScreeningRequestInput {
  switch (kind) {
    // S3 takes the S1 CDD and EDD bodies.
    case 'cdd':
    case 'edd':
      return s1RequestInput(kind, body);
    case 'ma':
      return declaredRequestInput('ma', parseInput(S3MaRequestSchema, body), body);
    case 'sow': {
      const { query, entity_type, jurisdiction, monitor, ...rest } = parseInput(S3SowRequestSchema, body);
      // The structured declaration travels as ScreeningRequested.sow.declaration (events are JSON).
      const declared = toStoredDeclaration(rest) as unknown as ScreeningRequestInput['declared'];
      return { kind, query, entityType: entity_type, ...entityTypeOmitted(body), jurisdiction, declared, ...(monitor ? { monitor: true } : {}) };
    }
  }
}

/** The screening uuid of the path (`:id`), lower-cased; 400 otherwise. */
export function screeningUuid(req: Request): string {
  const parsed = ScreeningUuidParamsSchema.safeParse(req.params);
  if (!parsed.success) throw invalidField('id', 'must be a screening uuid');
  return parsed.data.id.toLowerCase();
}

export function createS3Router(deps: S3RouterDeps): Router {
  const router = express.Router();
  // S3 requests only: S1/S2 requests on shared paths belong to their routers.
  router.use((_req, res, next) => (ctxOf(res).surface === 's3' ? next() : next('router')));
  // Idempotent per request: a no-op when the gate already ran before body parsing.
  router.use(createS3Gate(deps));

  const send = (res: Response, status: number, data: unknown) => sendData(res, status, data, deps.clock);
  const idempotent = (deps.idempotent ?? withoutIdempotency)();

  // ---------------------------------------------------------------- keys
  router.post(
    '/api/v1/keys',
    idempotent,
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const input = parseInput(CreateKeySchema, req.body);
      try {
        const created = await deps.keys.create(principal, { surface: 's3', name: input.name }, commandContext(res, principal));
        send(res, 201, { ...presentKey(created.key), key: created.plaintext });
      } catch (error) {
        if (error instanceof LimitExceeded) {
          throw new ApiError('bad_request', 'At most 5 active API keys per user: revoke one before creating another', { fields: { name: ['active key limit (5 per user) reached'] } });
        }
        throw error;
      }
    }),
  );
  router.get(
    '/api/v1/keys',
    handle(async (_req, res) => {
      const principal = s3PrincipalOf(res);
      const keys = await deps.keys.list(principal.accountId, 's3');
      send(res, 200, keys.filter((k) => k.revokedAt === null).map(presentKey));
    }),
  );
  router.delete(
    '/api/v1/keys/:id',
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const parsed = KeyIdParamsSchema.safeParse(req.params);
      if (!parsed.success) throw new ApiError('bad_request', 'id: must be a positive integer', { fields: { id: ['must be a positive integer'] } });
      const own = (await deps.keys.list(principal.accountId, 's3')).find((k) => k.id === parsed.data.id);
      if (!own) throw new ApiError('not_found', `API key ${parsed.data.id} not found`);
      const revoked = await deps.keys.revoke(principal, parsed.data.id, commandContext(res, principal));
      send(res, 200, { ...presentKey(revoked), revoked_at: revoked.revokedAt });
    }),
  );

  // ---------------------------------------------------------------- usage
  router.get(
    '/api/v1/usage',
    handle(async (_req, res) => {
      const principal = s3PrincipalOf(res);
      send(res, 200, await deps.usage.usage(principal));
    }),
  );

  // ---------------------------------------------------------------- screenings
  async function withSow(view: ScreeningView) {
    if (view.kind !== 'sow') return undefined;
    const assessment = await loadSowAssessment(deps.store, view.id);
    return { sowScreeningId: assessment.sow_screening_id, assessment: view.status === 'running' ? null : assessment };
  }

  function create(kind: ScreeningKind) {
    return handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const refusal = screeningKindRefusal(principal.plan, kind);
      if (refusal) throw new ApiError('plan_required', refusal);
      const input = toRequestInput(kind, req.body);
      // No offshore-leak check is used here: the pipeline uses one as the screening's phase 1 starts and,
      // once the month's are used up, runs without that search (src/agents/workflow/offshore-leak-checks.ts).
      const view = await requestAndAwait(deps.screenings, principal, input, commandContext(res, principal), deps.config.screeningWaitMs);
      const data = presentScreening('s3', view, await withSow(view));
      if (view.status === 'running') {
        res.setHeader('Location', `/api/v1/screening/${view.uuid}`);
        send(res, 202, data);
        return;
      }
      send(res, 201, data);
    });
  }
  router.post('/api/v1/screening/cdd', idempotent, create('cdd'));
  router.post('/api/v1/screening/edd', idempotent, create('edd'));
  router.post('/api/v1/screening/ma', idempotent, create('ma'));
  router.post('/api/v1/screening/sow', idempotent, create('sow'));

  // ---------------------------------------------------------------- batch jobs
  if (deps.batches) mountBatchRoutes(router, { batches: deps.batches.service, maxBytes: deps.batches.maxBytes, idempotent, send, commandContext });

  /** The screening the path names, as the caller's own: 404 otherwise (another account's uuid too). */
  async function ownScreening(req: Request, res: Response) {
    const principal = s3PrincipalOf(res);
    const id = screeningUuid(req);
    const view = await deps.screenings.get(principal.accountId, id);
    if (!view) throw new ApiError('not_found', `Screening ${id} not found`);
    return { principal, id, view };
  }

  router.get(
    '/api/v1/screening/:id',
    handle(async (req, res) => {
      const { view } = await ownScreening(req, res);
      send(res, 200, presentScreeningDetail('s3', view, await withSow(view)));
    }),
  );

  router.get(
    '/api/v1/screening/:id/report',
    handle(async (req, res) => {
      const { principal, id, view } = await ownScreening(req, res);
      if (view.status === 'running') throw new ApiError('conflict', `Screening ${id} is still running; its report is available once it completes`);
      const report = (await deps.screenings.reportJson(principal.accountId, id)) as Record<string, unknown> | undefined;
      if (!report) throw new ApiError('not_found', `Report of screening ${id} not found`);
      const sow = await withSow(view);
      send(res, 200, sow ? { ...report, sow_verification: sow.assessment } : report);
    }),
  );

  router.get(
    '/api/v1/screenings',
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const query = parseInput(S3ListQuerySchema, req.query, 'query');
      const { items, total } = await deps.screenings.list(principal.accountId, {
        page: query.page,
        limit: query.limit,
        ...(query.type ? { kinds: [query.type] } : {}),
      });
      const screenings = [];
      for (const item of items) {
        screenings.push(presentScreening('s3', item, item.kind === 'sow' ? { sowScreeningId: (await loadSowAssessment(deps.store, item.id)).sow_screening_id } : undefined));
      }
      send(res, 200, { screenings, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } });
    }),
  );

  // ---------------------------------------------------------------- internal watchlists
  if (deps.watchlists) {
    router.use(
      createWatchlistRoutes({
        base: '/api/v1/watchlists',
        watchlists: deps.watchlists,
        principalOf: async (_req, res) => s3PrincipalOf(res),
        commandContext,
        send,
        idempotent,
        maxImportBytes: deps.config.watchlistImportMaxBytes ?? DEFAULT_WATCHLIST_IMPORT_MAX_BYTES,
        today: () => deps.clock.now().toISOString().slice(0, 10),
      }),
    );
  }

  return router;
}

/** Default largest import body (WATCHLIST_IMPORT_MAX_BYTES): 100k typical rows fit with room. */
export const DEFAULT_WATCHLIST_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

export { createS3Gate, s3MonthlyRequestQuota };
