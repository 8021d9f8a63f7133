/**
 * Request/response schemas of monitoring, dispositions and the auditor's event history, shared by the
 * routers (validation through parseInput) and the OpenAPI registration (registerMonitoringS1).
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { s1RateLimitHeaders, S1ErrorSchema, securitySchemes } from '../openapi/common';
import { z } from '../openapi/zod';

const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const ScreeningIdParams = z.object({ id: z.string().regex(/^[1-9][0-9]{0,15}$/) });
export const HitParams = z.object({ id: z.string().regex(/^[1-9][0-9]{0,15}$/), hitId: z.string().min(1).max(600) });

export const DispositionRequestSchema = z
  .object({
    disposition: z.enum(['true_match', 'false_positive', 'needs_more_information']).openapi({
      description:
        "The analyst's decision: `true_match`, `false_positive`, or `needs_more_information` (not a verdict: the hit stays undecided, still counts toward risk as it stands and stays in the work queue until decided true match or false positive; the reason says what is missing).",
    }),
    reason: z
      .string()
      .trim()
      .min(1, 'must be at least 1 character')
      .max(2000, 'must be at most 2000 characters')
      .refine((s) => !CONTROL_EXCEPT_LINE_BREAKS.test(s), 'must not contain control characters')
      .openapi({ description: 'Why: recorded verbatim in the audit trail (HitDispositioned).' }),
  })
  .strict()
  .openapi('S1DispositionRequest');

export const DispositionResponseSchema = z
  .object({
    success: z.literal(true),
    screening_id: z.number().int(),
    hit_id: z.string(),
    disposition: z.enum(['true_match', 'false_positive', 'needs_more_information']),
    analyst: z.string().openapi({ description: 'Who decided: the authenticated identity (S1: `user:<id>` of the key\'s user, else `key:<key id>`), never a body field.' }),
    risk_score: z.number().int(),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']),
    changed: z.boolean().openapi({ description: 'False when the hit already had this disposition (nothing was recorded).' }),
  })
  .openapi('S1DispositionResponse');

export const MonitoringResponseSchema = z
  .object({
    success: z.literal(true),
    screening_id: z.number().int(),
    monitoring: z.boolean().openapi({ description: 'Whether the screening is now enrolled in ongoing monitoring.' }),
  })
  .openapi('S1MonitoringResponse');

export const AuditEventSchema = z
  .object({
    stream: z.string(),
    position: z.number().int().openapi({ description: '0-based position in the stream.' }),
    global_position: z.string().openapi({ description: 'Position in the global order of the store (a decimal string: 64-bit).' }),
    event_id: z.string(),
    type: z.string(),
    occurred_at: z.string(),
    recorded_at: z.string(),
    actor: z.record(z.string(), z.unknown()).nullable(),
    causation_id: z.string().nullable(),
    correlation_id: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    previous_hash: z.string().nullable(),
    hash: z.string().nullable(),
  })
  .openapi('AuditEvent');

export const EventHistorySchema = z
  .object({
    success: z.literal(true),
    stream: z.string(),
    events: z.array(AuditEventSchema),
    chain: z
      .object({ ok: z.boolean(), head_hash: z.string().nullable(), broken_at: z.number().int().nullable(), reason: z.string().nullable() })
      .openapi({ description: 'The stream\'s hash chain, verified when it was read.' }),
  })
  .openapi('S1EventHistory');

export const AuditorTokenRequestSchema = z
  .object({ email: z.string().min(3).max(320), password: z.string().min(1).max(1000) })
  .strict()
  .openapi('S1AuditorTokenRequest');

export const AuditorTokenResponseSchema = z
  .object({ success: z.literal(true), auditor_token: z.string(), expires_at: z.string(), user_id: z.string() })
  .openapi('S1AuditorTokenResponse');

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(S1ErrorSchema) });
const s1Security = [{ [securitySchemes.s1Bearer]: [] }];
const ok = (description: string, schema: z.ZodType): ResponseConfig => ({ description, headers: s1RateLimitHeaders as ResponseConfig['headers'], content: json(schema) });
const auditorHeader = z.object({
  'x-auditor-token': z.string().openapi({ description: 'Auditor token from POST /api/v1/audit/token (a user of this account with role auditor).' }),
});

export function registerMonitoringS1(registry: OpenAPIRegistry): void {
  const common = {
    401: errorResponse('invalid_api_key'),
    404: errorResponse('not_found: no such screening (or hit), or it belongs to another account.'),
    429: errorResponse('rate_limited'),
  };
  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/{id}/monitoring',
    tags: ['S1 monitoring'],
    summary: 'S1: enrol a completed screening in ongoing monitoring',
    description:
      'After every list update, only the entities the update adds, changes or removes are matched against enrolled subjects; a new, changed or removed hit appends MonitoringAlertRaised and sends the signed `monitoring.alert` webhook to the key\'s URL. Idempotent.',
    security: s1Security,
    request: { params: ScreeningIdParams },
    responses: { 200: ok('Enrolled.', MonitoringResponseSchema), 409: errorResponse('conflict: the screening has not completed.'), ...common },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/screening/{id}/monitoring',
    tags: ['S1 monitoring'],
    summary: 'S1: stop monitoring a screening',
    description: 'Idempotent: unenrolling a screening that is not monitored answers 200 with monitoring:false.',
    security: s1Security,
    request: { params: ScreeningIdParams },
    responses: { 200: ok('Unenrolled.', MonitoringResponseSchema), ...common },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/{id}/hits/{hitId}/disposition',
    tags: ['S1 monitoring'],
    summary: 'S1: an analyst\'s disposition of a hit (true match, false positive, or needs more information)',
    description:
      'Recorded as HitDispositioned with the reason and the authenticated identity; risk score and level are recomputed from the hits that still count (open and true matches) and the change is recorded as RiskRecomputed. `needs_more_information` records the question (who, when, reason) and leaves the hit undecided: it still counts (a potential match stays potential), so the risk level does not drop; decide it later with true_match or false_positive. A false positive does not alert again unless the listed record changes (then HitReopened with the diff). `hitId` is the hit_id of GET /api/v1/screening/{id}, URL-encoded.',
    security: s1Security,
    request: { params: HitParams, body: { required: true, content: json(DispositionRequestSchema) } },
    responses: {
      200: ok('Recorded (or unchanged).', DispositionResponseSchema),
      400: errorResponse('invalid_request'),
      409: errorResponse('conflict: the screening has not completed, or the hit was removed from its list.'),
      422: errorResponse('validation_failed'),
      ...common,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/audit/token',
    tags: ['S1 audit'],
    summary: 'S1: auditor token for the event-history endpoints',
    description:
      'S1 keys carry no role. An auditor is a user of the key\'s account with role `auditor`: they exchange their e-mail and password (with the account\'s key) for a 15-minute auditor token, sent as `X-Auditor-Token` to the history endpoints. Other roles get 403.',
    security: s1Security,
    request: { body: { required: true, content: json(AuditorTokenRequestSchema) } },
    responses: { 200: ok('Token issued.', AuditorTokenResponseSchema), 400: errorResponse('invalid_request'), 401: errorResponse('invalid_api_key, or wrong e-mail/password'), 403: errorResponse('the user is not an auditor of this account') },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screening/{id}/events',
    tags: ['S1 audit'],
    summary: 'S1: the full event history of a screening (auditors only)',
    description: 'Every event of the screening stream in order, with actor, causation and hash chain, and the chain verified.',
    security: s1Security,
    request: { params: ScreeningIdParams, headers: auditorHeader },
    responses: { 200: ok('The history.', EventHistorySchema), 403: errorResponse('no valid auditor token'), ...common },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/audit/streams/{stream}/events',
    tags: ['S1 audit'],
    summary: 'S1: the event history of any stream of this account (auditors only)',
    description: 'Generic by stream: `screening-<id>`, `person-check-<id>`, `subject-check-<id>`, `account-<id>`, `account-keys-<id>`…; streams of other accounts answer 404.',
    security: s1Security,
    request: { params: z.object({ stream: z.string().min(1).max(200) }), headers: auditorHeader },
    responses: { 200: ok('The history.', EventHistorySchema), 403: errorResponse('no valid auditor token'), ...common },
  });
}
