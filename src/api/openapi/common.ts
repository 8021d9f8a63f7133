/**
 * What every surface's OpenAPI registration shares: security schemes, error envelopes and the
 * rate-limit headers. buildOpenApiDocument registers these into every registry before calling the
 * surface registrations, so a registration may reference them by name.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CONFIRMATION_BASES, MATCH_ASSESSMENTS } from '../../reports/confirmation';
import { z } from './zod';

/** Names of the security schemes (components.securitySchemes). */
export const securitySchemes = {
  s1Bearer: 'S1BearerKey',
  s2Bearer: 'S2BearerKey',
  s2Session: 'S2SessionCookie',
  s3ApiKey: 'S3ApiKey',
  s3PortalBearer: 'S3PortalBearer',
  s3PortalCookie: 'S3PortalCookie',
} as const;

export const S1ErrorSchema = z
  .object({
    success: z.literal(false),
    message: z.string().openapi({ description: 'Human-readable explanation; never contains internals.' }),
    code: z.enum([
      'invalid_request',
      'invalid_api_key',
      'quota_exceeded',
      'plan_required',
      'not_found',
      'conflict',
      'validation_failed',
      'payload_too_large',
      'rate_limited',
      'lists_stale',
      'server_error',
      'forbidden',
      'idempotency_key_reused',
      'idempotency_key_in_progress',
    ]),
    errors: z
      .array(z.string())
      .optional()
      .openapi({ description: 'On 400/422: one message per problem, each starting with the field name.' }),
  })
  .openapi('S1Error', {
    description:
      'S1 error envelope. 400 invalid_request: the input cannot be read as this endpoint\'s input (not JSON, not an object, a required field missing, a field of the wrong JSON type, an unknown field, a non-numeric id). 422 validation_failed: every field is present and well-typed but a value breaks a rule (too short or long, not an allowed value, control characters).',
  });

export const S2ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'invalid_payload' }),
      message: z.string(),
      errors: z.array(z.string()).optional(),
    }),
  })
  .openapi('S2Error', { description: 'S2 error envelope; clients branch on HTTP status and error.code.' });

export const S2SessionErrorSchema = z
  .object({ success: z.literal(false), message: z.string() })
  .openapi('S2SessionError', { description: 'Error body of the session-authenticated /api/account endpoints.' });

export const S3ErrorSchema = z.object({ error: z.string() }).openapi('S3Error');

/** A list version a result used and how old it was then (docs/lists.md, "List age"). */
export const ListVersionAgeSchema = z
  .object({
    list: z.string().openapi({ example: 'ofac_sdn' }),
    version: z.string().openapi({ example: 'ofac_sdn@3f9a1c2b7e0d4a55' }),
    content_hash: z.string(),
    published_at: z.string().nullable().openapi({ description: 'Publication date of the list (YYYY-MM-DD).', example: '2024-05-03' }),
    published_at_source: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Where published_at comes from: `file` (stated in the list), `manifest` (bundled snapshot), `download` (HTTP Last-Modified of `svc lists update`), `file_date`.' }),
    loaded_at: z.string().nullable().optional().openapi({ description: 'When the service loaded this version.' }),
    age_days: z.number().int().nullable().optional().openapi({ description: 'Whole days from publication to the completion of the result.', example: 937 }),
    max_age_days: z.number().int().nullable().optional().openapi({ description: 'The configured maximum age of this list (LISTS_MAX_AGE_DAYS / LISTS_MAX_AGE); null: none.', example: 7 }),
    stale: z.boolean().optional().openapi({ description: 'Older than max_age_days: the result carries a warning in list_warnings.' }),
  })
  .openapi('ListVersionAge');

/** Person checks and subject checks: the lists in service when the check is read, with their ages. */
export const ListsInServiceSchema = z
  .array(
    z.object({
      list: z.string(),
      version: z.string(),
      published_at: z.string().nullable(),
      age_days: z.number().int().nullable(),
      max_age_days: z.number().int().nullable(),
      stale: z.boolean(),
    }),
  )
  .openapi({ description: 'The lists the service screens against when this check is read, each with its publication date and age (docs/lists.md). Stale ones are also in list_warnings.' });

export const ListWarningsSchema = z
  .array(z.string())
  .openapi({
    description: 'One warning per stale list the result used, e.g. "OFAC SDN list is 937 days old: update the lists before relying on this result". Empty when every list was within its maximum age.',
    example: ['OFAC SDN list is 937 days old: update the lists before relying on this result'],
  });
/** The verdict's flags and reason (issue 27), on S1 and S3 screenings read or created. */
export const RiskFlagsSchema = z.array(z.string()).openapi({
  description:
    'Extension: facts a reviewer must see whatever the score: confirmed_sanctions_hit (a sanctions hit whose identity agrees), pep, fatf_black_list, comprehensive_sanctions_jurisdiction, internal_list_hit, sanctions_not_searched (the sanctions lists could not be searched: the screening fails closed, at least high), risk_not_scored (the risk step gave no answer: at least high). Empty while running; absent from list pages.',
  example: ['sanctions_not_searched'],
});
export const RiskReasonSchema = z.string().nullable().openapi({
  description:
    'Extension: one sentence saying why the level is what it is, naming which fact confirmed a hit or that nothing did ("name only: common name…; needs an identity fact"). Null while running; absent from list pages.',
});

/** A hit's `match_strength` (the spec's values, issue 27's meaning), on every surface that shows hits. */
export const MatchStrengthSchema = z.enum(['confirmed', 'potential']).openapi({
  description:
    '`confirmed` only when the identity agrees: a date of birth or identifier agrees with the listed one, the name is an exact match on a distinctive name, or an analyst decided "true match" (`confirmation` says which). Everything else at or above the minimum match score is `potential`, however close the name (a strong name match confirms nothing about identity).',
});

export const MatchAssessmentSchema = z.enum(MATCH_ASSESSMENTS).openapi({
  description:
    "The machine's assessment when the hit was found, apart from the analyst's decision: `identity_corroborated` (a date of birth, an identifier or a distinctive exact name; see `confirmation`), `strong_name_match` (score ≥ 0.95 but nothing corroborates the identity), `name_match` (a potential match below that band), `identity_contradicted` (the subject's date of birth agrees with no listed date: most likely a namesake, counted at most medium).",
});

/** What confirmed a hit (its basis and the fact in words). */
function confirmationObject() {
  return z.object({
    basis: z.enum(CONFIRMATION_BASES).openapi({ description: 'date_of_birth, identifier, distinctive_name (an exact match on a rare name, docs/name-frequency.md) or analyst (a true-match decision).' }),
    detail: z.string().openapi({ description: 'Which fact, in words.', example: 'date of birth 1952-10-07 equals listed 07/10/1952' }),
  });
}
export const ConfirmationSchema = confirmationObject().openapi({ description: 'What confirmed the hit.' });
export const HitConfirmationSchema = confirmationObject()
  .nullable()
  .openapi({ description: 'What confirmed the hit; null when nothing did (a potential match: the explanation says what would confirm it).' });

export const S3ValidationErrorSchema = z
  .object({ error: z.string(), details: z.union([z.array(z.string()), z.record(z.string(), z.array(z.string()))]) })
  .openapi('S3ValidationError');
export const S3RateLimitErrorSchema = z.object({ message: z.string() }).openapi('S3RateLimitError');

/** S1 rate-limit headers, sent on every authenticated S1 response. */
export const s1RateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window (60 per minute per key).', schema: { type: 'integer' as const } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' as const } },
  'X-RateLimit-Reset': { description: 'Unix timestamp (seconds) when the current window ends.', schema: { type: 'integer' as const } },
};

export const retryAfterHeader = {
  'Retry-After': { description: 'Seconds to wait before retrying (on 429, and on 503 when the service is at capacity).', schema: { type: 'integer' as const } },
};

export function registerCommon(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', securitySchemes.s1Bearer, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_<token>',
    description: 'S1 screening API: `Authorization: Bearer svc_…`. Missing, invalid or revoked → 401 invalid_api_key.',
  });
  registry.registerComponent('securitySchemes', securitySchemes.s2Bearer, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svca_<token>',
    description: 'S2 subject-check API: `Authorization: Bearer svca_…`. Missing/malformed → 401 invalid_key_format; revoked or replaced → 401 invalid_key.',
  });
  registry.registerComponent('securitySchemes', securitySchemes.s2Session, {
    type: 'apiKey',
    in: 'cookie',
    name: 'auth_token',
    description: 'S2 account key endpoints (/api/account/*): session JWT in cookie `auth_token`.',
  });
  registry.registerComponent('securitySchemes', securitySchemes.s3ApiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'S3 enterprise API: `X-API-Key: svcc_live_<40 hex>` (legacy `svc_` prefix accepted).',
  });
  registry.registerComponent('securitySchemes', securitySchemes.s3PortalBearer, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Portal routes (/api/portal/*, /api/webhook-endpoint, /api/person-checks): the portal JWT from POST /api/session (7-day lifetime) as a bearer token.',
  });
  registry.registerComponent('securitySchemes', securitySchemes.s3PortalCookie, {
    type: 'apiKey',
    in: 'cookie',
    name: 'token',
    description: 'Portal routes: the portal JWT in cookie `token` (set by POST /api/session, HttpOnly, path /api).',
  });
  registry.register('S1Error', S1ErrorSchema);
  registry.register('S2Error', S2ErrorSchema);
  registry.register('S2SessionError', S2SessionErrorSchema);
  registry.register('S3Error', S3ErrorSchema);
  registry.register('S3ValidationError', S3ValidationErrorSchema);
  registry.register('S3RateLimitError', S3RateLimitErrorSchema);
}
