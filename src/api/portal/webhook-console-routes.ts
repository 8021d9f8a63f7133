/**
 * Webhooks from the portal, every surface in one place:
 *   GET  /api/portal/webhooks                                the account's endpoints (S1: one per key; S2, S3: one per account)
 *   PUT  /api/portal/webhooks/s1/:keyId {url}                configure an S1 key's webhook (signing secret once)
 *   PUT  /api/portal/webhooks/s2 {url} | /s3 {url}           register or update (signing secret once)
 *   POST /api/portal/webhooks/s1/:keyId/test | /s2/test | /s3/test     enqueue a `webhook.test` delivery
 *   POST /api/portal/webhooks/s1/:keyId/reenable | /s2/reenable | /s3/reenable
 *   GET  /api/portal/webhooks/deliveries?surface=&status=&limit=&cursor=     delivery log, newest first
 *   GET  /api/portal/webhooks/deliveries/:deliveryId          one delivery: status, every attempt, exact payload
 *
 * S2 and S3 endpoints are event-sourced aggregates (register and re-enable are commands; the
 * projector moves the outbox row). S1 webhooks live on the key (ConfigureKeyWebhook); their outbox
 * row is re-enabled directly since S1 has no endpoint aggregate. Tenant isolation: every query
 * carries the signed-in account.
 */
import express, { type Request, type Router } from 'express';
import { apiKeysDecider, streamName as keysStream } from '../../commands/api-keys/decider';
import { streamName as endpointStream, webhookEndpointDecider } from '../../commands/webhook-endpoint/decider';
import { NotFound } from '../../commands/errors';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import { WebhookUrlRejected } from '../../app/subject-checks/webhook-service';
import type { Principal } from '../../app/services';
import { enqueue, enqueueTestDelivery, findEndpoint, getDelivery, listDeliveries, listEndpoints, deliveryCursor, reenable as reenableOutbox, type EnqueueResult } from '../../webhooks/outbox';
import { prepareWebhookRegistration } from '../../webhooks/registration';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';
import { parseInput } from '../http/validation';
import { portalCommandContext, sendPortalData } from './auth';
import type { PortalConsoleDeps } from './console-deps';
import { PortalDeliveryQuerySchema as DeliveryQuerySchema, PortalWebhookKeyParamsSchema as KeyIdSchema, PortalWebhookUrlSchema as UrlSchema } from './schemas';

/** A test message: `webhook.test`, shaped like the surface's events, clearly not about a real screening. */
function testMessage(surface: 's1' | 's3', now: Date) {
  const body =
    surface === 's1'
      ? { event: 'webhook.test', test: true, message: 'Test delivery from the portal', timestamp: now.toISOString() }
      : { event: 'webhook.test', test: true, message: 'Test delivery from the portal', sent_at: now.toISOString() };
  return { surface, event: 'webhook.test', body: JSON.stringify(body) };
}

/** S2 and S3 have one endpoint per account; S1 webhooks hang off a key (their own routes). */
function accountSurface(req: Request): 's2' | 's3' {
  const surface = req.params.surface;
  if (surface === 's2' || surface === 's3') return surface;
  throw new ApiError('not_found', `No route for ${req.method} ${req.path}`);
}

function enqueueAnswer(result: EnqueueResult) {
  switch (result.status) {
    case 'enqueued':
      return { status: 'enqueued', delivery_id: result.deliveryId };
    case 'dropped':
      return { status: 'dropped', delivery_id: result.deliveryId, reason: 'the endpoint is disabled: re-enable it first' };
    case 'duplicate':
      return { status: 'duplicate' };
    case 'no_endpoint':
      throw new ApiError('not_found', 'No webhook endpoint is configured for this surface');
  }
}

export function createWebhookConsoleRoutes(deps: PortalConsoleDeps): Router {
  const router = express.Router();
  const now = () => deps.clock.now();

  async function ownS1Key(principal: Principal, req: Request): Promise<string> {
    const parsed = KeyIdSchema.safeParse(req.params);
    if (!parsed.success) throw new ApiError('bad_request', 'keyId: must be a positive integer', { fields: { keyId: ['must be a positive integer'] } });
    const key = (await deps.keys.list(principal.accountId, 's1')).find((k) => k.id === parsed.data.keyId);
    if (!key) throw new ApiError('not_found', `S1 API key ${parsed.data.keyId} not found`);
    return key.id;
  }

  async function prepare(url: string) {
    const prepared = await prepareWebhookRegistration({ url, secrets: deps.secrets, allowPrivate: deps.allowPrivate, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
    if (!prepared.ok) throw new ApiError('bad_request', `url: ${prepared.error.message}`, { fields: { url: [prepared.error.message] } });
    return prepared;
  }

  router.get(
    '/api/portal/webhooks',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const endpoints = await listEndpoints(deps.pool, principal.accountId);
      const s1Keys = new Map((await deps.keys.list(principal.accountId, 's1')).map((k) => [k.id, k]));
      sendPortalData(
        res,
        200,
        {
          endpoints: endpoints.map((e) => ({
            id: e.id,
            surface: e.surface,
            key_id: e.keyId,
            key_name: e.keyId ? (s1Keys.get(e.keyId)?.name ?? null) : null,
            key_revoked: e.keyId ? Boolean(s1Keys.get(e.keyId)?.revokedAt) : false,
            url: e.url,
            enabled: e.enabled,
            consecutive_failures: e.consecutiveFailures,
            disabled_at: e.disabledAt,
            created_at: e.createdAt,
            updated_at: e.updatedAt,
          })),
          s3_available: Boolean(deps.s3Webhooks),
        },
        now(),
      );
    }),
  );

  // ---------------------------------------------------------------- configure
  router.put(
    '/api/portal/webhooks/s1/:keyId',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const keyId = await ownS1Key(principal, req);
      const { url } = parseInput(UrlSchema, req.body);
      const prepared = await prepare(url);
      const ctx = portalCommandContext(res, principal);
      await handleCommand(deps.store, apiKeysDecider, keysStream(principal.accountId), {
        type: 'ConfigureKeyWebhook',
        data: { accountId: principal.accountId, keyId, webhook: { url: prepared.url, secretHash: prepared.secretHash, secretCiphertext: prepared.secretCiphertext } },
        metadata: { now: now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId },
      });
      await deps.readModelsCaughtUp();
      sendPortalData(res, 200, { surface: 's1', key_id: keyId, url: prepared.url, signing_secret: prepared.signingSecret }, now());
    }),
  );
  router.put(
    '/api/portal/webhooks/:surface',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const surface = accountSurface(req);
      const { url } = parseInput(UrlSchema, req.body);
      const ctx = portalCommandContext(res, principal);
      try {
        if (surface === 's2') {
          const registered = await deps.s2Webhooks.register(principal, url, ctx);
          sendPortalData(res, registered.created ? 201 : 200, { surface, url: registered.url, signing_secret: registered.signingSecret }, now());
        } else {
          if (!deps.s3Webhooks) throw new ApiError('not_found', 'S3 webhooks are not available on this deployment');
          const registered = await deps.s3Webhooks.register(principal, url, ctx);
          sendPortalData(res, registered.created ? 201 : 200, { surface, url, signing_secret: registered.signingSecret }, now());
        }
      } catch (error) {
        const guard = (error as { guard?: { message?: string } }).guard;
        if (error instanceof WebhookUrlRejected || (error instanceof Error && error.name === 'S3WebhookUrlRejected' && guard)) {
          throw new ApiError('bad_request', `url: ${error.message}`, { fields: { url: [error.message] } });
        }
        throw error;
      }
    }),
  );

  // ---------------------------------------------------------------- test deliveries
  router.post(
    '/api/portal/webhooks/s1/:keyId/test',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const keyId = await ownS1Key(principal, req);
      const result = await enqueue(deps.pool, { accountId: principal.accountId, keyId, message: testMessage('s1', now()), now: now() });
      sendPortalData(res, 202, enqueueAnswer(result), now());
    }),
  );
  router.post(
    '/api/portal/webhooks/:surface/test',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const result =
        accountSurface(req) === 's2'
          ? await enqueueTestDelivery(deps.pool, { accountId: principal.accountId, now: now() })
          : await enqueue(deps.pool, { accountId: principal.accountId, message: testMessage('s3', now()), now: now() });
      sendPortalData(res, 202, enqueueAnswer(result), now());
    }),
  );

  // ---------------------------------------------------------------- re-enable
  router.post(
    '/api/portal/webhooks/s1/:keyId/reenable',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const keyId = await ownS1Key(principal, req);
      const endpoint = await findEndpoint(deps.pool, { accountId: principal.accountId, surface: 's1', keyId });
      if (!endpoint) throw new ApiError('not_found', 'This key has no webhook');
      const updated = await reenableOutbox(deps.pool, endpoint.id, { now: now(), accountId: principal.accountId });
      sendPortalData(res, 200, { surface: 's1', key_id: keyId, enabled: updated?.enabled ?? false }, now());
    }),
  );
  router.post(
    '/api/portal/webhooks/:surface/reenable',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const surface = accountSurface(req);
      const ctx = portalCommandContext(res, principal);
      if (surface === 's3' && deps.s3Webhooks) {
        await deps.s3Webhooks.reenable(principal, ctx);
      } else {
        const stream = endpointStream(surface, principal.accountId);
        const { state } = await loadAggregate(deps.store, webhookEndpointDecider, stream);
        if (state.status === 'none') throw new NotFound('webhook endpoint', surface);
        await handleCommand(deps.store, webhookEndpointDecider, stream, {
          type: 'ReenableWebhook',
          data: { accountId: principal.accountId, surface, reason: 'owner re-enabled it in the portal' },
          metadata: { now: now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId },
        });
        await deps.readModelsCaughtUp();
      }
      const endpoint = await findEndpoint(deps.pool, { accountId: principal.accountId, surface });
      if (!endpoint) throw new ApiError('not_found', 'No webhook endpoint is configured for this surface');
      // The outbox row follows the aggregate through the projector; make sure it is on even if the
      // aggregate was already enabled while the row was auto-disabled by the dispatcher's own streak.
      const row = endpoint.enabled ? endpoint : await reenableOutbox(deps.pool, endpoint.id, { now: now(), accountId: principal.accountId });
      sendPortalData(res, 200, { surface, enabled: row?.enabled ?? false }, now());
    }),
  );

  // ---------------------------------------------------------------- delivery log
  router.get(
    '/api/portal/webhooks/deliveries',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const query = parseInput(DeliveryQuerySchema, req.query, 'query');
      let page;
      try {
        page = await listDeliveries(deps.pool, {
          accountId: principal.accountId,
          surface: query.surface,
          limit: query.limit + 1,
          ...(query.status ? { status: query.status } : {}),
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
      } catch (error) {
        if (error instanceof RangeError) throw new ApiError('bad_request', 'cursor: invalid', { fields: { cursor: ['invalid'] } });
        throw error;
      }
      const deliveries = page.slice(0, query.limit);
      sendPortalData(
        res,
        200,
        { deliveries, next_cursor: page.length > query.limit ? deliveryCursor(deliveries[deliveries.length - 1]!) : null },
        now(),
      );
    }),
  );
  router.get(
    '/api/portal/webhooks/deliveries/:deliveryId',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const delivery = await getDelivery(deps.pool, { accountId: principal.accountId, deliveryId: String(req.params.deliveryId) });
      if (!delivery) throw new ApiError('not_found', 'Delivery not found');
      sendPortalData(res, 200, delivery, now());
    }),
  );

  return router;
}
