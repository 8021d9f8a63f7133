/**
 * registerMonitoringS3: the S3 (X-API-Key) monitoring, disposition and auditor routes of
 * ./s3-router.ts in the OpenAPI document. Bodies are the zod schemas the router validates with;
 * S1 and S3 operations on the same paths are merged by buildOpenApiDocument.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { retryAfterHeader, S3ErrorSchema, S3RateLimitErrorSchema, S3ValidationErrorSchema, securitySchemes } from '../openapi/common';
import { z } from '../openapi/zod';
import { ScreeningUuidParamsSchema } from '../s3/schemas';
import { AuditorTokenRequestSchema, DispositionRequestSchema, EventHistorySchema } from './schemas';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const Meta = z.object({ request_id: z.string().uuid(), timestamp: z.string() });
const envelope = (data: z.ZodType) => z.object({ data, meta: Meta });
const s3Security = [{ [securitySchemes.s3ApiKey]: [] }];
const ok = (description: string, data: z.ZodType): ResponseConfig => ({ description, content: json(envelope(data)) });
const errors = (extra: Record<number, string> = {}): Record<number, ResponseConfig> => ({
  400: { description: 'Invalid id or body: `{error, details}`.', content: json(S3ValidationErrorSchema) },
  401: { description: 'Missing or invalid key.', content: json(S3ErrorSchema) },
  404: { description: 'No such screening (or hit), or another account\'s.', content: json(S3ErrorSchema) },
  429: { description: 'Monthly request quota or failed-authentication window: `{message}`.', headers: retryAfterHeader as ResponseConfig['headers'], content: json(S3RateLimitErrorSchema) },
  ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, { description, content: json(S3ErrorSchema) }])),
});

const S3MonitoringSchema = z
  .object({ id: z.string().uuid(), screening_number: z.number().int(), monitoring: z.boolean() })
  .openapi('S3MonitoringStatus');
const S3DispositionSchema = z
  .object({
    id: z.string().uuid(),
    screening_number: z.number().int(),
    hit_id: z.string(),
    disposition: z.enum(['true_match', 'false_positive', 'needs_more_information']),
    analyst: z.string().openapi({ description: '`user:<id>` of the key\'s user, else `key:<key id>`; never a body field.' }),
    risk_score: z.number().int(),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']),
    changed: z.boolean().openapi({ description: 'False when the hit already had this disposition (nothing recorded).' }),
  })
  .openapi('S3Disposition');
const S3AuditorTokenSchema = z.object({ auditor_token: z.string(), expires_at: z.string(), user_id: z.string() }).openapi('S3AuditorToken');
const S3EventHistorySchema = EventHistorySchema.omit({ success: true }).openapi('S3EventHistory');
const auditorHeader = z.object({
  'x-auditor-token': z.string().openapi({ description: 'Auditor token from POST /api/v1/audit/token (a user of this account with role auditor).' }),
});

export function registerMonitoringS3(registry: OpenAPIRegistry): void {
  const monitoringDescription =
    'Ongoing monitoring: after every list update only the changed entities are matched against enrolled subjects; a new, changed or removed hit appends MonitoringAlertRaised and sends the signed `monitoring.alert` webhook. Idempotent. The screening is named by its S3 uuid. Screening requests also accept `monitor: true` (enrol on completion).';
  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/{id}/monitoring',
    tags: ['S3 monitoring'],
    summary: 'S3: enrol a completed screening in ongoing monitoring',
    description: monitoringDescription,
    security: s3Security,
    request: { params: ScreeningUuidParamsSchema },
    responses: { 200: ok('Enrolled.', S3MonitoringSchema), ...errors({ 409: 'The screening has not completed.' }) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/screening/{id}/monitoring',
    tags: ['S3 monitoring'],
    summary: 'S3: stop monitoring a screening',
    description: 'Idempotent: a screening that is not monitored answers 200 with monitoring:false.',
    security: s3Security,
    request: { params: ScreeningUuidParamsSchema },
    responses: { 200: ok('Unenrolled.', S3MonitoringSchema), ...errors() },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/{id}/hits/{hitId}/disposition',
    tags: ['S3 monitoring'],
    summary: 'S3: an analyst\'s disposition of a hit (true match, false positive, or needs more information)',
    description:
      'Recorded as HitDispositioned with the reason and the key\'s user as analyst; risk is recomputed from the hits that still count (RiskRecomputed). `needs_more_information` leaves the hit undecided (still counted, the level does not drop) until a true_match or false_positive is recorded. A false positive does not alert again unless the listed record changes. `hitId` is a hit_id of GET /api/v1/screening/{id}, URL-encoded.',
    security: s3Security,
    request: {
      params: ScreeningUuidParamsSchema.extend({ hitId: z.string().min(1).max(600) }),
      body: { required: true, content: json(DispositionRequestSchema) },
    },
    responses: { 200: ok('Recorded (or unchanged).', S3DispositionSchema), ...errors({ 409: 'The screening has not completed, or the hit was removed from its list.' }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/audit/token',
    tags: ['S3 audit'],
    summary: 'S3: auditor token for the event-history endpoint',
    description:
      'S3 keys carry no role. An auditor is a user of the key\'s account with role `auditor`: they exchange e-mail and password (with the account\'s key) for a 15-minute token, sent as `X-Auditor-Token`. Other roles get 403; wrong credentials 401.',
    security: s3Security,
    request: { body: { required: true, content: json(AuditorTokenRequestSchema) } },
    responses: { 200: ok('Token issued.', S3AuditorTokenSchema), ...errors({ 403: 'The user is not an auditor of this account.' }) },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screening/{id}/events',
    tags: ['S3 audit'],
    summary: 'S3: the full event history of a screening (auditors only)',
    description: 'Every event of the screening stream in order, with actor, causation and hash chain, the chain verified as it is read.',
    security: s3Security,
    request: { params: ScreeningUuidParamsSchema, headers: auditorHeader },
    responses: { 200: ok('The history.', S3EventHistorySchema), ...errors({ 403: 'No valid auditor token for this account.' }) },
  });
}
