/**
 * API keys of every surface from the portal (the spec: keys are "created in the portal"):
 *   GET    /api/portal/keys                  all keys of the account by surface (masked, revoked ones too)
 *   POST   /api/portal/keys {surface, name, webhook_url?}   plaintext once (+ S1 webhook signing secret once)
 *   DELETE /api/portal/keys/:id              revoke (own keys only)
 * Caps are the deciders' (S1 10 active per account, S3 5 active per user); the S1 webhook URL goes
 * through the SSRF guard before anything is recorded.
 */
import { planAllows } from '../../commands/plans';
import express, { type Router } from 'express';
import { activeKeyLimits } from '../../commands/api-keys/decider';
import type { ApiKeyView, KeySurface } from '../../app/services';
import { findEndpoint } from '../../webhooks/outbox';
import { checkWebhookUrl } from '../../webhooks/url-guard';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';
import { parseInput } from '../http/validation';
import { portalCommandContext, portalIdempotent, sendPortalData } from './auth';
import type { PortalConsoleDeps } from './console-deps';
import { CreatePortalKeySchema, PortalKeyIdParamsSchema as KeyIdSchema, portalKeySurfaces } from './schemas';

export { CreatePortalKeySchema } from './schemas';

const surfaces = portalKeySurfaces;

export const keyPrefixOf: Record<KeySurface, string> = { s1: 'svc_', s2: 'svca_', s3: 'svcc_live_' };

export function presentPortalKey(key: ApiKeyView, webhookUrl: string | null = null) {
  return {
    id: key.id,
    surface: key.surface,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt,
    revoked_at: key.revokedAt,
    expires_at: key.expiresAt,
    ...(key.surface === 's1' ? { webhook_url: webhookUrl } : {}),
  };
}

export function createKeyManagementRoutes(deps: PortalConsoleDeps): Router {
  const router = express.Router();

  async function webhookUrlOf(accountId: string, key: ApiKeyView): Promise<string | null> {
    if (key.surface !== 's1') return null;
    return (await findEndpoint(deps.pool, { accountId, surface: 's1', keyId: key.id }))?.url ?? null;
  }

  router.get(
    '/api/portal/keys',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const out: Record<string, unknown[]> = {};
      for (const surface of surfaces) {
        const keys = await deps.keys.list(principal.accountId, surface);
        out[surface] = await Promise.all(keys.map(async (k) => presentPortalKey(k, await webhookUrlOf(principal.accountId, k))));
      }
      sendPortalData(res, 200, { keys: out, caps: { s1: activeKeyLimits.s1.perAccount, s2: null, s3: activeKeyLimits.s3.perUser } }, deps.clock.now());
    }),
  );

  router.post(
    '/api/portal/keys',
    portalIdempotent(deps.idempotent, deps.auth),
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const input = parseInput(CreatePortalKeySchema, req.body);
      if (input.webhook_url !== undefined && input.surface !== 's1') {
        throw new ApiError('bad_request', 'webhook_url: only S1 keys carry a webhook (S2 and S3 endpoints are configured on the Webhooks page)', {
          fields: { webhook_url: ['only S1 keys carry a webhook'] },
        });
      }
      // Starter has no API access on any surface (spec part 8: no S3 quota, S1 quota 0).
      if (!planAllows(principal.plan, 'api_access')) throw new ApiError('plan_required', 'The Starter plan has no API access: upgrade to create API keys');
      let webhookUrl: string | undefined;
      if (input.webhook_url !== undefined && input.webhook_url.trim() !== '') {
        const checked = await checkWebhookUrl(input.webhook_url.trim(), { allowPrivate: deps.allowPrivate, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
        if (!checked.ok) throw new ApiError('bad_request', `webhook_url: ${checked.error.message}`, { fields: { webhook_url: [checked.error.message] } });
        webhookUrl = checked.url.toString();
      }
      const created = await deps.keys.create(
        principal,
        { surface: input.surface, name: input.name, ...(webhookUrl ? { webhookUrl } : {}) },
        portalCommandContext(res, principal),
      );
      sendPortalData(
        res,
        201,
        {
          key: presentPortalKey(created.key, webhookUrl ?? null),
          plaintext: created.plaintext,
          ...(created.webhookSecret ? { webhook_signing_secret: created.webhookSecret } : {}),
          notice: 'Copy the key now: it is shown only once and cannot be recovered.',
        },
        deps.clock.now(),
      );
    }),
  );

  router.delete(
    '/api/portal/keys/:id',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const parsed = KeyIdSchema.safeParse(req.params);
      if (!parsed.success) throw new ApiError('bad_request', 'id: must be a positive integer', { fields: { id: ['must be a positive integer'] } });
      const revoked = await deps.keys.revoke(principal, parsed.data.id, portalCommandContext(res, principal));
      sendPortalData(res, 200, { key: presentPortalKey(revoked, await webhookUrlOf(principal.accountId, revoked)) }, deps.clock.now());
    }),
  );

  return router;
}
