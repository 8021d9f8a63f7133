/**
 * registerAuditS2: the S2 (`svca_` bearer) auditor routes of ./s2-router.ts in the OpenAPI document.
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

export function registerAuditS2(registry: OpenAPIRegistry): void {
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
    description: 'Every event of the `subject-check-<id>` stream in order, with actor, causation and hash chain, the chain verified as it is read. Subject checks have no ongoing monitoring.',
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
