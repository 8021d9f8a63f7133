/**
 * registerS3: the S3 enterprise API and the portal routes in the one OpenAPI document. Requests are
 * documented with the zod schemas the routers validate with (./schemas); S1 and S3 operations on
 * shared paths are merged by buildOpenApiDocument (security alternatives, bodies as oneOf).
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ListVersionAgeSchema, ListWarningsSchema, RiskFlagsSchema, RiskReasonSchema, retryAfterHeader, S3ErrorSchema, S3RateLimitErrorSchema, S3ValidationErrorSchema, securitySchemes } from '../openapi/common';
import { s3Schemas } from '../../webhooks/payloads';
import { registerS3Batches } from './batch-openapi';
import { registerWatchlistPaths } from './watchlist-openapi';
import { z } from '../openapi/zod';
import {
  CreateKeySchema,
  KeyIdParamsSchema,
  S3CddRequestSchema,
  S3EddRequestSchema,
  S3ListQuerySchema,
  S3MaRequestSchema,
  S3SowRequestSchema,
  ScreeningUuidParamsSchema,
  SignInSchema,
  WebhookEndpointSchema,
} from './schemas';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const Meta = z
  .object({ request_id: z.string().uuid().openapi({ description: 'Same value as the x-request-id header.' }), timestamp: z.string().openapi({ description: 'ISO 8601 UTC.' }) })
  .openapi('S3Meta');
const envelope = (data: z.ZodType) => z.object({ data, meta: Meta });

const rateHeaders = {
  'x-request-id': { description: 'Request id (uuid), also in meta.request_id.', schema: { type: 'string' as const } },
  'ratelimit-limit': { description: 'Monthly request quota of the plan (Professional 250, Enterprise 1,000).', schema: { type: 'integer' as const } },
  'ratelimit-remaining': { description: 'Requests left this UTC month.', schema: { type: 'integer' as const } },
  'ratelimit-reset': { description: 'Seconds until the quota resets (1st of next month, 00:00 UTC).', schema: { type: 'integer' as const } },
} as ResponseConfig['headers'];

export const S3KeySchema = z
  .object({ id: z.string(), name: z.string(), key_prefix: z.string().openapi({ example: 'svcc_live_1a2b' }), created_at: z.string(), last_used_at: z.string().nullable() })
  .openapi('S3Key');

const SowAssessmentSchema = z
  .object({
    sow_screening_id: z.string().nullable().openapi({ example: 'SVC-1A2B3C4D-SOW' }),
    assessed: z.boolean(),
    risk_tier: z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']).nullable(),
    risk_tier_reasons: z.array(z.string()),
    corroboration_gauge: z.number().int().min(0).max(100).nullable(),
    gauge_derivation: z
      .object({
        method: z.enum(['amount_weighted', 'equal_weights']),
        explanation: z.string(),
        rows: z.array(z.object({ source_index: z.number().int().nullable(), type: z.string(), label: z.string(), weight_share: z.number(), score: z.number(), contribution: z.number(), status: z.string(), note: z.string().optional() })),
      })
      .nullable(),
    corroboration: z.array(z.object({ source_index: z.number().int(), type: z.string(), label: z.string(), status: z.string(), score: z.number(), evidence: z.array(z.object({ type: z.string(), accepted: z.boolean(), weight: z.number(), reason: z.string() })) })),
    outside_registries: z.array(z.object({ source: z.string(), name: z.string(), queried: z.literal(false), reason: z.string() })),
    red_flags: z.array(z.object({ code: z.string(), severity: z.enum(['warning', 'red_flag']), detail: z.string() })),
    jurisdictional_requirements: z
      .object({ group: z.string(), jurisdiction: z.string().nullable(), fatf_status: z.string().nullable(), as_of: z.string().nullable(), evidence_max_age_months: z.number(), requirements: z.array(z.string()) })
      .nullable(),
    attestation: z.object({ provided: z.boolean(), valid: z.boolean(), checks: z.array(z.object({ check: z.string(), passed: z.boolean(), detail: z.string() })) }).nullable(),
    not_assessed: z.array(z.object({ step: z.string(), reason: z.string() })),
  })
  .openapi('S3SowAssessment');

export const S3ScreeningSchema = z
  .object({
    id: z.string().uuid().openapi({ description: 'S3 screening id (uuid).' }),
    screening_number: z.number().int().openapi({ description: 'The numeric id S1 uses for the same screening.' }),
    screening_type: z.enum(['CDD', 'EDD', 'MA', 'SOW']),
    sow_screening_id: z.string().nullable().optional().openapi({ description: 'SOW only: `SVC-<8>-SOW`.' }),
    query: z.string(),
    entity_type: z.string(),
    jurisdiction: z.string().nullable(),
    status: z.enum(['running', 'completed', 'failed']),
    risk_score: z.number().int().nullable(),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']).nullable(),
    sanctions_hits: z.number().int(),
    pep_hits: z.number().int(),
    adverse_media_hits: z.number().int(),
    offshore_leaks_hits: z.number().int(),
    summary: z.string().nullable().openapi({ description: 'Plain-text summary of the findings (null while running). Its matches sentence counts the hits as they stand: an analyst\'s decision changes it, in the list as in the detail.' }),
    edd_analysis: z.string().nullable().optional(),
    ma_analysis: z.string().nullable().optional(),
    sow: SowAssessmentSchema.nullable().optional(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    list_versions: z.array(ListVersionAgeSchema).optional().openapi({ description: 'GET /api/v1/screening/{id}: every list the screening used, with its publication date and age at completion.' }),
    list_warnings: ListWarningsSchema.optional(),
    risk_flags: RiskFlagsSchema.optional(),
    risk_reason: RiskReasonSchema.optional(),
    offshore_leaks_searched: z.boolean().nullable().optional().openapi({
      description:
        'Whether the offshore-leak check ran (null while it has not answered; absent on list pages). false: `offshore_leaks_hits` 0 means not searched, not "none found": see `offshore_leaks_not_searched_reason`.',
    }),
    offshore_leaks_not_searched_reason: z.string().nullable().optional().openapi({
      description:
        'Why the offshore-leak check did not run, e.g. `monthly offshore-leak quota used: 100 of 100, resets 2026-12-01` once the Enterprise plan\'s 100 monthly offshore-leak checks are used: the screening still runs every other source and counts toward the request quota. null when it ran.',
      example: 'monthly offshore-leak quota used: 100 of 100, resets 2026-12-01',
    }),
  })
  .openapi('S3Screening');

const QuotaUsageSchema = z.object({
  limit: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  resets_at: z.string().openapi({ description: '1st of next month, 00:00 UTC.' }),
  warning: z.enum(['approaching', 'reached']).nullable().openapi({ description: 'approaching from 80 % used, reached when used up (the portal warns at both); null below 80 %.' }),
});
const UsageBreakdownSchema = z.object({ total: z.number().int(), by_endpoint: z.record(z.string(), z.number().int()), by_screening_type: z.record(z.string(), z.number().int()) });
export const S3UsageSchema = z
  .object({
    date: z.string(),
    month: z.string(),
    plan: z.string(),
    quota: z.object({
      requests: QuotaUsageSchema.openapi({ description: 'Every authenticated /api/v1 request of the account this month, whatever its answer; over it: 429 `{message}`.' }),
      offshore_leak_checks: QuotaUsageSchema.nullable().openapi({
        description:
          'Offshore-leak checks this month (Enterprise: 100; null on plans without a cap of their own): each S3 screening uses one as its pipeline starts. Used up, screenings still run without the offshore-leak search (`offshore_leaks_searched: false` with the reason), never a 429.',
      }),
    }),
    keys: z.array(z.object({ key_id: z.string(), name: z.string().nullable(), key_prefix: z.string().nullable(), active: z.boolean(), today: UsageBreakdownSchema, month: UsageBreakdownSchema, quota_remaining: z.number().int() })),
  })
  .openapi('S3Usage');

const errors = (extra: Record<number, string> = {}): Record<number, ResponseConfig> => ({
  400: { description: 'Missing or invalid input: `{error, details}`.', content: json(S3ValidationErrorSchema) },
  401: { description: 'Missing or invalid key.', content: json(S3ErrorSchema) },
  403: { description: 'The plan lacks the feature (Starter: no API access; EDD/SOW need Professional+; M&A Enterprise).', content: json(S3ErrorSchema) },
  429: { description: 'Monthly request quota or the 15-minute failed-authentication window exceeded: `{message}`. (Used-up offshore-leak checks are never a 429: the screening runs without that search.)', headers: retryAfterHeader as ResponseConfig['headers'], content: json(S3RateLimitErrorSchema) },
  500: { description: 'Unhandled exception.', content: json(S3ErrorSchema) },
  ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, { description, content: json(S3ErrorSchema) }])),
});

const s3Security = [{ [securitySchemes.s3ApiKey]: [] }];
const portalSecurity: Record<string, string[]>[] = [{ [securitySchemes.s3PortalBearer]: [] }, { [securitySchemes.s3PortalCookie]: [] }];

export function registerS3(registry: OpenAPIRegistry): void {
  registry.register('S3Screening', S3ScreeningSchema);
  registerS3Batches(registry);
  registerWatchlistPaths(registry, { base: '/api/v1/watchlists', tag: 'S3 watchlists', security: s3Security, surface: 'S3' });
  const screening = (kind: string, schema: z.ZodType, description: string) =>
    registry.registerPath({
      method: 'post',
      path: `/api/v1/screening/${kind}`,
      tags: ['S3 screenings'],
      summary: `S3: ${kind.toUpperCase()} screening`,
      description,
      security: s3Security,
      request: { body: { required: true, content: json(schema) } },
      responses: {
        201: { description: 'Completed screening in `data`.', headers: rateHeaders, content: json(envelope(S3ScreeningSchema)) },
        202: { description: 'Still running after the wait; poll GET /api/v1/screening/{id} (Location header).', headers: rateHeaders, content: json(envelope(S3ScreeningSchema)) },
        ...errors(),
        503: {
          description: 'The service is at capacity (too many screenings in progress); nothing was created: `{error}`. Retry after the Retry-After delay.',
          headers: retryAfterHeader as ResponseConfig['headers'],
          content: json(S3ErrorSchema),
        },
      },
    });
  screening('cdd', S3CddRequestSchema, 'S3 (X-API-Key): the S1 CDD body; the answer is `{data, meta}`. On Enterprise every screening uses one of the 100 monthly offshore-leak checks as its pipeline starts; once they are used up it still runs every other source, with `offshore_leaks_searched: false` and the reason (docs/api-s3.md, "Plans and limits").');
  screening('edd', S3EddRequestSchema, 'S3: the S1 EDD body (Professional or Enterprise).');
  screening('ma', S3MaRequestSchema, 'S3: `query` required, `entity_type` default company, `jurisdiction`; optional S1 deal fields (Enterprise).');
  screening(
    'sow',
    S3SowRequestSchema,
    'S3: source-of-wealth verification (Professional or Enterprise). 9-step framework: risk tier, red flags, jurisdictional requirements (FATF groups), attestation validation, and corroboration of employment, business ownership, inheritance, investment portfolio and property from the submitted evidence; corroboration gauge 0-100 with its derivation. Id `SVC-<8>-SOW`.',
  );
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screening/{id}',
    tags: ['S3 screenings'],
    summary: 'S3: a screening with its hits (uuid id; own records only)',
    security: s3Security,
    request: { params: ScreeningUuidParamsSchema },
    responses: { 200: { description: 'The screening.', headers: rateHeaders, content: json(envelope(S3ScreeningSchema)) }, ...errors({ 404: 'Not found or another account\'s screening.' }) },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screening/{id}/report',
    tags: ['S3 screenings'],
    summary: 'S3: the structured report as JSON (same 13 sections as the PDF; SOW adds sow_verification)',
    security: s3Security,
    request: { params: ScreeningUuidParamsSchema },
    responses: {
      200: { description: 'The JSON report in `data`.', headers: rateHeaders, content: json(envelope(z.record(z.string(), z.unknown()))) },
      ...errors({ 404: 'Not found or another account\'s screening.', 409: 'Still running.' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screenings',
    tags: ['S3 screenings'],
    summary: 'S3: own screenings, newest first',
    security: s3Security,
    request: { query: S3ListQuerySchema },
    responses: {
      200: {
        description: 'A page.',
        headers: rateHeaders,
        content: json(envelope(z.object({ screenings: z.array(S3ScreeningSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }) }))),
      },
      ...errors(),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/keys',
    tags: ['S3 keys'],
    summary: 'S3: create a key (full key shown once; at most 5 active per user)',
    security: s3Security,
    request: { body: { required: true, content: json(CreateKeySchema) } },
    responses: { 201: { description: 'The key with `key` (plaintext, once).', headers: rateHeaders, content: json(envelope(S3KeySchema.extend({ key: z.string() }))) }, ...errors() },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/keys',
    tags: ['S3 keys'],
    summary: 'S3: active keys, masked',
    security: s3Security,
    responses: { 200: { description: 'Keys.', headers: rateHeaders, content: json(envelope(z.array(S3KeySchema))) }, ...errors() },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/keys/{id}',
    tags: ['S3 keys'],
    summary: 'S3: revoke a key',
    security: s3Security,
    request: { params: KeyIdParamsSchema },
    responses: { 200: { description: 'Revoked.', headers: rateHeaders, content: json(envelope(S3KeySchema.extend({ revoked_at: z.string().nullable() }))) }, ...errors({ 404: 'Not this account\'s key.' }) },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/usage',
    tags: ['S3 usage'],
    summary: 'S3: per-key usage today and this month, and the quotas left',
    description: 'Screening requests per key by endpoint and screening type (projected from the event history) and the account\'s monthly quotas (every authenticated request counts toward the request quota).',
    security: s3Security,
    responses: { 200: { description: 'Usage.', headers: rateHeaders, content: json(envelope(S3UsageSchema)) }, ...errors() },
  });

  // Portal (JWT).
  registry.registerPath({
    method: 'post',
    path: '/api/session',
    tags: ['Portal'],
    summary: 'Portal: sign in (JWT in `data.token` and cookie `token`, 7 days)',
    request: { body: { required: true, content: json(SignInSchema) } },
    responses: { 200: { description: 'Signed in.', content: json(envelope(z.object({ token: z.string(), token_type: z.literal('Bearer'), account_id: z.string(), user_id: z.string(), plan: z.string(), expires_at: z.string() }))) }, ...errors() },
  });
  registry.registerPath({ method: 'delete', path: '/api/session', tags: ['Portal'], summary: 'Portal: sign out (the token stops working at once)', responses: { 200: { description: 'Signed out.', content: json(envelope(z.object({ signed_out: z.boolean() }))) } } });
  const EndpointSchema = z.object({
    id: z.number().int(),
    url: z.string(),
    enabled: z.boolean(),
    consecutive_failures: z.number().int(),
    disabled_at: z.string().nullable(),
    disable_history: z.array(z.object({ disabled_at: z.string(), consecutive_failures: z.number().int(), reason: z.string() })),
    created_at: z.string(),
  });
  registry.registerPath({ method: 'get', path: '/api/webhook-endpoint', tags: ['Portal'], summary: 'Portal: the S3 webhook endpoint and its auto-disable state', security: portalSecurity, responses: { 200: { description: 'Endpoint.', content: json(envelope(EndpointSchema)) }, ...errors({ 404: 'None registered.' }) } });
  registry.registerPath({
    method: 'put',
    path: '/api/webhook-endpoint',
    tags: ['Portal'],
    summary: 'Portal: register or update the S3 webhook endpoint (signing_secret once)',
    security: portalSecurity,
    request: { body: { required: true, content: json(WebhookEndpointSchema) } },
    responses: { 200: { description: 'Updated.', content: json(envelope(EndpointSchema.extend({ signing_secret: z.string() }))) }, 201: { description: 'Registered.', content: json(envelope(EndpointSchema.extend({ signing_secret: z.string() }))) }, ...errors() },
  });
  registry.registerPath({ method: 'post', path: '/api/webhook-endpoint/reenable', tags: ['Portal'], summary: 'Portal: re-enable after an auto-disable (10 consecutive failed deliveries)', security: portalSecurity, responses: { 200: { description: 'Endpoint.', content: json(envelope(EndpointSchema)) }, ...errors({ 404: 'None registered.' }) } });
  registry.registerPath({
    method: 'post',
    path: '/api/webhooks/stripe',
    tags: ['Portal'],
    summary: 'Payment provider (Stripe) events',
    description: 'Verified with `Stripe-Signature: t=…,v1=…` (HMAC-SHA256 of `t.raw_body` with PAYMENT_WEBHOOK_SECRET, 300 s tolerance). Without the secret every event is refused with `received: false`. `checkout.session.completed` (paid, metadata.plan, client_reference_id = account id) activates the plan, records the payment and e-mails a receipt; the same event id twice changes nothing.',
    responses: {
      200: { description: 'Accepted.', content: json(z.object({ received: z.literal(true), handled: z.boolean() })) },
      400: { description: 'Refused (no secret configured, bad signature, stale timestamp, not JSON).', content: json(z.object({ received: z.literal(false), error: z.string() })) },
      500: { description: 'Not processed completely; the provider retries.', content: json(z.object({ received: z.literal(false), error: z.string() })) },
    },
  });
  registry.registerWebhook({
    method: 'post',
    path: 'screening.completed',
    summary: 'S3 screening.completed',
    description: 'HMAC-SHA256 over the raw body in X-Service-Signature: sha256=<hex>; 3 attempts with exponential backoff; the endpoint is auto-disabled after 10 consecutive failed deliveries (re-enable in the portal).',
    request: { body: { content: json(s3Schemas['screening.completed'] as unknown as z.ZodType) } },
    responses: { 200: { description: 'Any 2xx acknowledges.' } },
  });
}
