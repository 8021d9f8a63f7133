/**
 * registerMonitoringS2: the S2 (`svca_` bearer) monitoring and auditor routes of ./s2-router.ts in the
 * OpenAPI document.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { S2ErrorSchema, securitySchemes } from '../openapi/common';
import { z } from '../openapi/zod';
import { IdParamsSchema } from '../s2/schemas';
import { AuditorTokenRequestSchema, EventHistorySchema } from './schemas';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const err = (description: string): ResponseConfig => ({ description, content: json(S2ErrorSchema) });
const s2Security = [{ [securitySchemes.s2Bearer]: [] }];

const S2AuditorTokenSchema = z
  .object({ success: z.literal(true), auditor_token: z.string(), expires_at: z.string(), user_id: z.string() })
  .openapi('S2AuditorTokenResponse');
const S2EventHistorySchema = EventHistorySchema.openapi('S2EventHistory');

/** The monitoring calls take no body; an empty object is accepted. */
export const S2MonitoringRequestSchema = z.strictObject({}).openapi('S2MonitoringRequest');
export const S2MonitoringStatusSchema = z
  .object({
    success: z.literal(true),
    subject_check_id: z.number().int(),
    monitoring: z.boolean().openapi({ description: 'Whether the check is now enrolled in ongoing monitoring.' }),
  })
  .openapi('S2MonitoringStatus');

const monitoringDescription = [
  'Ongoing monitoring of a concluded subject check (status needs_review, escalated or completed). After every list update only the entities the update adds, changes or removes are matched against the enrolled subjects (a reverse index of their names, not a re-screen of everyone); a new hit, a changed record of a reported hit or the removal of a reported entity appends SubjectCheckMonitoringAlertRaised to the check\'s history and sends the signed `subject_check.monitoring_alert` callback to the account\'s webhook. At most one alert per list version and listed entity. Alerts never change the check\'s status or verdict; they are listed in `monitoring_alerts` of GET /api/v1/compliance/subject-checks/{id}.',
  'Idempotent: enrolling an enrolled check (or unenrolling one that is not) changes nothing and answers the same. A creation request (single or batch item) with `monitor: true` enrols the check when it concludes.',
].join('\n\n');

export function registerMonitoringS2(registry: OpenAPIRegistry): void {
  for (const [method, enrol] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    registry.registerPath({
      method,
      path: '/api/v1/compliance/subject-checks/{id}/monitoring',
      tags: ['S2 monitoring'],
      summary: enrol ? 'S2: enrol a subject check in ongoing monitoring' : 'S2: stop monitoring a subject check',
      description: enrol ? monitoringDescription : 'Stops ongoing monitoring (SubjectCheckMonitoringUnenrolled); alerts already raised stay in the history. Idempotent, in any state.',
      security: s2Security,
      request: { params: IdParamsSchema, body: { required: false, content: json(S2MonitoringRequestSchema) } },
      responses: {
        200: { description: enrol ? 'Enrolled (`monitoring: true`).' : 'Not monitored (`monitoring: false`).', content: json(S2MonitoringStatusSchema) },
        400: err('invalid_payload: id is not a positive integer, or a body other than `{}` (not JSON, or with fields).'),
        401: err('invalid_key_format / invalid_key / key_expired'),
        404: err('not_found: no such subject check, or another account\'s'),
        ...(enrol ? { 409: err('illegal_transition: the check is still running, or failed (only a concluded check can be monitored).') } : {}),
        413: err('payload_too_large: the body is larger than the service accepts.'),
      },
    });
  }

  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/audit/token',
    tags: ['S2 audit'],
    summary: 'S2: auditor token for the subject-check event history',
    description:
      'S2 keys carry no role. An auditor is a user of the key\'s account with role `auditor`: they exchange e-mail and password (with the account\'s key) for a 15-minute token, sent as `X-Auditor-Token`.',
    security: s2Security,
    request: { body: { required: true, content: json(AuditorTokenRequestSchema) } },
    responses: {
      200: { description: 'Token issued.', content: json(S2AuditorTokenSchema) },
      400: err('invalid_payload'),
      401: err('invalid_key (also for a wrong e-mail or password of a user of this account)'),
      403: err('forbidden: the user is not an auditor'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/compliance/subject-checks/{id}/events',
    tags: ['S2 audit'],
    summary: 'S2: the full event history of a subject check (auditors only)',
    description: 'Every event of the `subject-check-<id>` stream in order (lifecycle, reviewers\' decisions, monitoring enrolment and alerts), with actor, causation and hash chain, the chain verified as it is read.',
    security: s2Security,
    request: { params: IdParamsSchema, headers: z.object({ 'x-auditor-token': z.string().openapi({ description: 'From POST /api/v1/compliance/audit/token.' }) }) },
    responses: {
      200: { description: 'The history.', content: json(S2EventHistorySchema) },
      400: err('invalid_payload: id is not a positive integer'),
      401: err('invalid_key_format / invalid_key'),
      403: err('forbidden: no valid auditor token for this account'),
      404: err('not_found: no such subject check, or another account\'s'),
    },
  });
}
