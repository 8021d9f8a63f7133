/**
 * Over 500 lines on purpose: one zod schema per S2 request and response, documented beside it;
 * they are declarations, read one at a time, and splitting them would only scatter the OpenAPI names.
 *
 * S2 request and response schemas. The S2 routers validate with these (src/api/s2/validation.ts turns
 * zod issues into the `errors` list of 400 invalid_payload) and registerS2 documents the same objects.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ConfirmationSchema, ListsInServiceSchema, ListWarningsSchema, MatchAssessmentSchema, MatchStrengthSchema, retryAfterHeader, S2ErrorSchema, S2SessionErrorSchema, securitySchemes } from '../openapi/common';
import { s2Schemas } from '../../webhooks/payloads';
import { z } from '../openapi/zod';
import { screenablePartsCheck } from '../http/validation';
import { EmailField, IdentifiersField, NationalityField, PhoneField, PostalAddressSchema } from '../http/subject-facts';
import { systemClock } from '../../shared/clock';

// C0 and C1 control characters, and unpaired UTF-16 surrogates (possible through JSON "\ud800" escapes).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A person's name: letters and combining marks of any script, spaces, apostrophes, hyphens, periods. */
const PERSON_NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.\-]*$/u;
/** A place: letters, marks, digits, spaces and the punctuation of place names; no markup characters. */
const PLACE = /^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N} '’.,()\-]*$/u;

export const NAME_MAX = 100;

function wellFormed(schema: z.ZodString) {
  return schema.refine((s) => !CONTROL.test(s), 'must not contain control characters').refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode');
}

function personName() {
  return wellFormed(z.string().trim().min(1, `is required (1-${NAME_MAX} characters)`).max(NAME_MAX, `must be at most ${NAME_MAX} characters`)).refine(
    (s) => s === '' || PERSON_NAME.test(s),
    'may contain only letters, spaces, apostrophes, hyphens and periods',
  );
}

function place(max: number) {
  return wellFormed(z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`)).refine(
    (s) => s === '' || PLACE.test(s),
    'may contain only letters, digits, spaces and the punctuation . , \' - ( )',
  );
}

function freeText(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL_EXCEPT_LINE_BREAKS.test(s), 'must not contain control characters other than tab and line breaks')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode');
}

/** A real calendar date YYYY-MM-DD between 1900-01-01 and today. */
const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900 && date.getTime() <= systemClock.now().getTime();
  }, 'must be a real date between 1900-01-01 and today');

export const subjectCheckPurposes = [
  'employment',
  'business_due_diligence',
  'customer_due_diligence',
  'tenant_screening',
  'volunteer_screening',
  'licensing',
] as const;

export const LocationSchema = z
  .strictObject({
    country: place(100).openapi({ description: 'Country: ISO 3166-1 alpha-2 code (preferred) or English name.', example: 'GB' }),
    region: place(100).optional().openapi({ description: 'State, province or region.', example: 'England' }),
    city: place(100).optional().openapi({ example: 'London' }),
  })
  .openapi('S2Location');

export const ConsentSchema = z
  .strictObject({
    certified: z.literal(true, 'consent must be certified (certified: true)').openapi({
      description: 'The integrator certifies that it holds the subject\'s consent (or another lawful basis) for this purpose. Must be true.',
    }),
    statement: freeText(1000).optional().openapi({ description: 'Optional text of what was certified, kept for auditors.' }),
  })
  .openapi('S2Consent');

export const SubjectCheckRequestSchema = z
  .strictObject({
    first_name: personName().openapi({ description: 'Given name, 1-100 characters (letters of any script, spaces, \' - .).', example: 'Ada' }),
    last_name: personName().openapi({ description: 'Family name, 1-100 characters.', example: 'Lovelace' }),
    middle_name: personName().optional(),
    date_of_birth: calendarDate.optional().openapi({ description: 'YYYY-MM-DD; sharpens matching: equal to a listed date it confirms a hit, agreeing with none it makes the hit a likely namesake.', example: '1815-12-10' }),
    nationality: NationalityField.optional(),
    identifiers: IdentifiersField.optional(),
    phone: PhoneField.optional(),
    email: EmailField.optional(),
    address: PostalAddressSchema.optional(),
    locations: z
      .array(LocationSchema)
      .min(1, 'at least one location {country, region?, city?} is required')
      .max(20, 'at most 20 locations')
      .openapi({ description: 'At least one location; the first is the main jurisdiction of the search.' }),
    purpose: z
      .string()
      .pipe(z.enum(subjectCheckPurposes, `must be one of ${subjectCheckPurposes.join(', ')}`))
      .openapi({ type: 'string', enum: [...subjectCheckPurposes], description: 'Why the check is run (permissible purpose).' }),
    consent: ConsentSchema,
    monitor: z.boolean('must be true or false').optional().openapi({
      description:
        'Enrol the check in ongoing monitoring as soon as it concludes (needs_review, escalated or completed; a failed check is not enrolled): every later list update is matched against the subject and a new, changed or removed hit sends the `subject_check.monitoring_alert` callback. Same as POST /subject-checks/{id}/monitoring afterwards. Ignored by the sandbox.',
      default: false,
    }),
  })
  .superRefine(screenablePartsCheck(['first_name', 'middle_name', 'last_name']))
  .openapi('S2SubjectCheckRequest');
export type SubjectCheckRequest = z.infer<typeof SubjectCheckRequestSchema>;

export const BATCH_MAX = 100;
/** Validates the batch envelope; each item is then validated with SubjectCheckRequestSchema on its own. */
export const BatchRequestSchema = z.strictObject({
  subjects: z
    .array(z.unknown())
    .min(1, 'at least one subject is required')
    .max(BATCH_MAX, `at most ${BATCH_MAX} subjects per batch`),
});
/** The same request as documented: items are S2SubjectCheckRequest. */
export const BatchRequestDocSchema = z
  .object({
    subjects: z
      .array(SubjectCheckRequestSchema)
      .min(1)
      .max(BATCH_MAX)
      .openapi({ description: `1-${BATCH_MAX} subjects, each validated like a single creation; invalid items are reported per item.` }),
  })
  .openapi('S2SubjectCheckBatchRequest');

export const ReviewDecisionSchema = z
  .strictObject({
    outcome: z.string().pipe(z.enum(['clear', 'adverse'], 'must be clear or adverse')).openapi({ type: 'string', enum: ['clear', 'adverse'] }),
    note: freeText(5000).openapi({ description: 'Why: 1-5000 characters, kept in the check\'s history.' }),
    reviewer: wellFormed(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'))
      .optional()
      .openapi({ description: 'Who decided (default: the API key that called, `api_key:<id>`).' }),
  })
  .openapi('S2ReviewDecision');

export const IdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')
    .openapi({ description: 'Numeric id.', example: '42', param: { name: 'id', in: 'path' } }),
});

export const DeliveryIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a delivery id (UUID)')
    .openapi({ description: 'Delivery id (UUID) from the delivery log.', param: { name: 'id', in: 'path' } }),
});

const statuses = ['running', 'needs_review', 'escalated', 'completed', 'failed'] as const;

export const ListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Page size, 1-100 (default 20).', default: 20 }),
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'must be the next_cursor of the previous page')
    .optional()
    .openapi({ description: 'The `next_cursor` of the previous page.' }),
  status: z.string().pipe(z.enum(statuses)).optional().openapi({ type: 'string', enum: [...statuses] }),
  batch_id: z.string().uuid('must be a batch id (UUID)').optional(),
});

export const WebhookRegistrationSchema = z
  .strictObject({
    url: z.string().max(2048, 'must be at most 2048 characters').openapi({ description: 'HTTPS callback URL (public address).', example: 'https://hooks.example.com/svc' }),
  })
  .openapi('S2WebhookRegistrationRequest');

export const DeliveryListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ default: 20 }),
  cursor: z.string().max(200).optional().openapi({ description: 'The `next_cursor` of the previous page.' }),
  status: z.string().pipe(z.enum(['pending', 'delivering', 'succeeded', 'failed', 'dropped'])).optional().openapi({
    type: 'string',
    enum: ['pending', 'delivering', 'succeeded', 'failed', 'dropped'],
  }),
  event: z.string().max(100).optional(),
  subject_check_id: z.string().regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer').optional(),
});

// ---- session endpoints ----

export const SignInSchema = z
  .strictObject({
    email: z.string().trim().min(3).max(320).openapi({ example: 'owner@example.com' }),
    password: z.string().min(1).max(1024),
  })
  .openapi('S2SignInRequest');

export const AccountKeyCreateSchema = z
  .strictObject({
    name: wellFormed(z.string().trim().min(1, 'is required (1-100 characters)').max(100, 'must be 1-100 characters')).openapi({
      description: '1-100 characters.',
      example: 'production',
    }),
    expires_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'Optional expiry (ISO 8601, in the future). A bearer call with an expired key gets 401 key_expired.' }),
  })
  .openapi('S2AccountKeyCreateRequest');

// ---- responses ----

const isoTime = z.string().openapi({ description: 'ISO 8601 UTC.', example: '2026-04-01T10:00:00.000Z' });
const nullableIso = isoTime.nullable();

export const SubjectCheckSchema = z
  .object({
    subject_check_id: z.number().int(),
    account_id: z.number().int(),
    status: z.enum(statuses),
    overall_result: z.string().nullable().openapi({ description: 'clean, inconclusive, adverse_found (clear_no_match in the sandbox); null while running.' }),
    risk_score: z.number().int().nullable().openapi({
      description:
        'Risk 0-100 from the same scorer as S1/S3 screenings and person checks (contributions plus floors, docs/risk-scoring.md), over the findings recorded so far; null before the first source answers.',
    }),
    risk_level: z.string().nullable().openapi({ description: 'low, medium, high or critical (S1 scale) for risk_score.' }),
    risk_reason: z.string().nullable().openapi({ description: 'One sentence: why the level is what it is (the governing floor, else the largest contributions).' }),
    confidence_level: z.string().nullable().openapi({ description: 'high, medium, low; null while running.' }),
    findings_count: z.number().int().nullable(),
    red_flag_count: z.number().int().nullable(),
    warning_count: z.number().int().nullable(),
    sources_searched: z.number().int().nullable(),
    sources_total: z.number().int(),
    review_reason: z.string().nullable().openapi({ description: 'insufficient_source_coverage or ambiguous_match when needs_review.' }),
    investigation_id: z.string().nullable(),
    triggering_tiers: z.array(z.string()).nullable(),
    tier_scores: z.record(z.string(), z.number()).nullable(),
    requested_scope: z.string().nullable(),
    priority: z.string().nullable().openapi({ description: 'critical, high or medium when escalated.' }),
    investigation_created_at: nullableIso,
    sla_due_at: nullableIso,
    error_message: z.string().nullable(),
    resolved_by: z.string().nullable().openapi({ description: 'automatic, review, investigation (sandbox: sandbox).' }),
    monitoring: z.boolean().openapi({ description: 'Enrolled in ongoing monitoring (POST /subject-checks/{id}/monitoring, or `monitor: true` at creation).' }),
    subject: z.object({
      first_name: z.string(),
      last_name: z.string(),
      middle_name: z.string().nullable(),
      date_of_birth: z.string().nullable(),
      locations: z.array(z.object({ country: z.string(), region: z.string().optional(), city: z.string().optional() })),
    }),
    purpose: z.string(),
    batch_id: z.string().nullable(),
    created_at: isoTime,
    updated_at: isoTime,
    review_required_at: nullableIso,
    escalated_at: nullableIso,
    completed_at: nullableIso,
    failed_at: nullableIso,
  })
  .openapi('S2SubjectCheck');

export const SubjectCheckDetailSchema = SubjectCheckSchema.extend({
  sources: z.array(
    z.object({ agent: z.string(), tier: z.string(), queried: z.boolean(), error: z.string().nullable(), hits: z.number().int(), started_at: isoTime, finished_at: isoTime }),
  ),
  findings: z.array(
    z.object({
      tier: z.string(),
      source: z.string(),
      entity_id: z.string(),
      entity_name: z.string(),
      matched_name: z.string(),
      score: z.number().openapi({ description: 'Matcher score in [0, 1]: from 0.95 a strong name match, 0.80-0.94 a partial one; a score alone never confirms the identity.' }),
      match_strength: MatchStrengthSchema,
      assessment: MatchAssessmentSchema.optional(),
      confirmation: ConfirmationSchema.optional().openapi({ description: 'What confirmed the hit (absent: nothing did).' }),
      identity_note: z
        .string()
        .optional()
        .openapi({ description: "Extension (issue 27): the assessment in words, e.g. \"name only: common name …; needs an identity fact (date of birth or identifier)\" or \"identity corroborated: date of birth … equals listed …\". Absent on checks recorded before it was kept." }),
      severity: z.enum(['red_flag', 'warning']).openapi({ description: 'red_flag: a confirmed hit on sanctions, PEP or debarment; warning: every other hit.' }),
      source_list: z.string().optional().openapi({ description: 'The list inside a multi-list file (US CSL source column), e.g. the SDN or the Entity List.' }),
    }),
  ),
  decisions: z.array(z.object({ kind: z.enum(['review', 'investigation']), outcome: z.string(), reviewer: z.string(), note: z.string(), at: isoTime })),
  monitoring_alerts: z
    .array(
      z.object({
        alert_id: z.string().openapi({ description: '`<list version>:<entity id>`: one alert per list version and listed entity.' }),
        kind: z.enum(['new_hit', 'changed_hit', 'removed_hit']),
        entity_id: z.string(),
        tier: z.string(),
        list: z.string(),
        matched_name: z.string(),
        score: z.number().openapi({ description: 'Matcher score in [0, 1].' }),
        list_version: z.string(),
        changes: z.record(z.string(), z.unknown()).openapi({ description: 'What changed in the listed record (field → {before, after}), or the added/removed entity.' }),
        detected_at: isoTime,
        risk_level: z
          .enum(['low', 'medium', 'high', 'critical'])
          .nullable()
          .openapi({
            description:
              "Extension (issue 27): the level this hit gives on its own, by the scorer every surface uses, once it is assessed on the check's own facts (date of birth, nationality, identifiers… as the check was run with). A common name alone is potential (high on a sanctions list); a date of birth the listing contradicts makes it a namesake (at most medium); the listed date of birth or an identifier confirms it (critical on a sanctions list). null for a removal and for alerts recorded before assessments were kept.",
          }),
        match_strength: MatchStrengthSchema.nullable().openapi({ description: 'Extension (issue 27): confirmed only when an identity fact agrees (or the exact name is distinctive); null for a removal.' }),
        assessment: MatchAssessmentSchema.optional(),
        confirmation: ConfirmationSchema.optional().openapi({ description: 'What confirmed the hit (absent: nothing did).' }),
        identity_note: z.string().optional().openapi({ description: 'Extension (issue 27): the assessment in words: which fact confirmed the hit, contradicted it, or that nothing did.' }),
      }),
    )
    .openapi({ description: 'Alerts ongoing monitoring raised on this check, oldest first (each also sent as the `subject_check.monitoring_alert` callback).' }),
  lists_in_service: ListsInServiceSchema.optional(),
  list_warnings: ListWarningsSchema.optional(),
}).openapi('S2SubjectCheckDetail');

const success = z.literal(true);

export const SubjectCheckCreatedSchema = z
  .object({ success, subject_check_id: z.number().int(), status: z.literal('running'), url: z.string(), subject_check: SubjectCheckSchema })
  .openapi('S2SubjectCheckCreated');

export const SandboxResultSchema = z
  .object({
    success,
    sandbox: z.literal(true),
    subject_check_id: z.literal(0),
    status: z.literal('completed'),
    overall_result: z.literal('clear_no_match'),
    subject_check: SubjectCheckSchema,
  })
  .openapi('S2SandboxResult');

export const BatchResultSchema = z
  .object({
    success,
    batch_id: z.string(),
    created_count: z.number().int(),
    rejected_count: z.number().int(),
    results: z.array(
      z.object({
        index: z.number().int(),
        status: z.enum(['created', 'rejected']),
        subject_check_id: z.number().int().optional(),
        error: S2ErrorSchema.shape.error.optional(),
      }),
    ),
  })
  .openapi('S2SubjectCheckBatchResult');

export const SubjectCheckListSchema = z
  .object({ success, subject_checks: z.array(SubjectCheckSchema), total: z.number().int(), next_cursor: z.string().nullable() })
  .openapi('S2SubjectCheckList');

export const SubjectCheckGetSchema = z.object({ success, subject_check: SubjectCheckDetailSchema }).openapi('S2SubjectCheckGet');

export const RotateResultSchema = z
  .object({ success, id: z.number().int(), account_id: z.number().int(), token_prefix: z.string(), created_at: isoTime, key: z.string() })
  .openapi('S2KeyRotated');

export const WebhookRegisteredSchema = z
  .object({ success, id: z.number().int(), url: z.string(), signing_secret: z.string(), created_at: isoTime })
  .openapi('S2WebhookRegistered');

export const WebhookViewSchema = z
  .object({
    success,
    webhook: z.object({ id: z.number().int(), url: z.string(), enabled: z.boolean(), consecutive_failures: z.number().int(), created_at: isoTime, updated_at: isoTime }),
  })
  .openapi('S2Webhook');

export const DeliverySchema = z
  .object({
    delivery_id: z.string(),
    event: z.string(),
    status: z.enum(['pending', 'delivering', 'succeeded', 'failed', 'dropped']),
    attempt_count: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: nullableIso,
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    retry_of: z.string().nullable(),
    subject_check_id: z.number().int().nullable(),
    created_at: isoTime,
    finished_at: nullableIso,
    payload: z.record(z.string(), z.unknown()).openapi({ description: 'The exact JSON body sent (signed over its raw bytes).' }),
    attempts: z.array(
      z.object({
        attempt_number: z.number().int(),
        started_at: isoTime,
        finished_at: nullableIso,
        duration_ms: z.number().nullable(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        outcome: z.enum(['in_flight', 'succeeded', 'retryable', 'terminal', 'interrupted']),
      }),
    ),
  })
  .openapi('S2Delivery');

export const DeliveryListSchema = z.object({ success, deliveries: z.array(DeliverySchema), next_cursor: z.string().nullable() }).openapi('S2DeliveryList');

export const RetryResultSchema = z
  .object({ success, delivery_id: z.string(), event: z.literal('subject_check.retry'), previous_delivery_id: z.string(), attempt_number: z.number().int() })
  .openapi('S2RetryQueued');

export const TestDeliveryResultSchema = z.object({ success, delivery_id: z.string(), event: z.literal('webhook.test') }).openapi('S2TestQueued');

export const AccountKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    token_prefix: z.string().openapi({ example: 'svca_Ab3x' }),
    created_at: isoTime,
    last_used_at: nullableIso,
    revoked_at: nullableIso,
    expires_at: nullableIso.openapi({ description: 'Extension: the key\'s expiry, or null.' }),
  })
  .openapi('S2AccountKey');

export const AccountKeyCreatedSchema = z
  .object({ success, id: z.number().int(), name: z.string(), token_prefix: z.string(), created_at: isoTime, expires_at: nullableIso, key: z.string() })
  .openapi('S2AccountKeyCreated');

export const SessionSchema = z
  .object({ success, account_id: z.number().int(), user_id: z.string(), expires_at: isoTime })
  .openapi('S2Session');

// ---------------------------------------------------------------------------------------------------
// OpenAPI registration

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const err = (description: string, headers?: ResponseConfig['headers']): ResponseConfig => ({ description, content: json(S2ErrorSchema), ...(headers ? { headers } : {}) });
const sessionErr = (description: string): ResponseConfig => ({ description, content: json(S2SessionErrorSchema) });

const bearerErrors: Record<number, ResponseConfig> = {
  401: err('invalid_key_format: missing or malformed `Authorization: Bearer svca_…`; invalid_key: revoked or replaced token; key_expired: the key has passed its expiry (401).'),
  500: err('internal_error: never contains internals; quote the request id (x-request-id header).'),
};
const payloadError = err('invalid_payload: the body is not JSON, or fails validation; `errors` lists one message per problem, each naming its field.');
const s2Security = [{ [securitySchemes.s2Bearer]: [] }];
const sessionSecurity = [{ [securitySchemes.s2Session]: [] }];

export function registerS2(registry: OpenAPIRegistry): void {
  registry.register('S2SubjectCheck', SubjectCheckSchema);
  registry.register('S2SubjectCheckRequest', SubjectCheckRequestSchema);
  const tag = ['S2 subject checks'];

  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/subject-checks',
    tags: tag,
    summary: 'S2: start a subject check',
    description:
      'Starts an asynchronous check and answers 201 at once with the running check id; sources are searched by the agent pipeline and every state is announced by a callback (subject_check.processing, then .completed, .review_required, .escalated or .failed). ' +
      'Lifecycle: `escalated` when a tier score reaches its threshold (sanctions ≥ 80, pep ≥ 70, adverse_media ≥ 75; priority critical ≥ 90, high ≥ 80, else medium; SLA 4 h / 24 h / 72 h); else `needs_review` with review_reason insufficient_source_coverage when fewer than 60 % of sources could be searched, or ambiguous_match when the best hit is only a potential match or two entities tie; else `completed`; `failed` on an internal error. ' +
      'Counts against 60 subject checks per hour per account (429 rate_limited with Retry-After seconds in the header).',
    security: s2Security,
    request: { body: { required: true, content: json(SubjectCheckRequestSchema) } },
    responses: {
      201: { description: 'Started; `status` is running.', content: json(SubjectCheckCreatedSchema) },
      400: payloadError,
      429: err('rate_limited: more than 60 subject checks in the current hour (sandbox calls do not count).', retryAfterHeader as ResponseConfig['headers']),
      ...bearerErrors,
      503: err('service_unavailable: the service is at capacity (too many subject checks in progress, MAX_INFLIGHT_SUBJECT_CHECKS per process); nothing was started. Retry after the Retry-After delay.', retryAfterHeader as ResponseConfig['headers']),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/subject-checks/batch',
    tags: tag,
    summary: 'S2: start up to 100 subject checks',
    description:
      'Each subject is validated like a single creation; valid ones each start their own check (own lifecycle stream and callbacks), invalid ones are reported per item. 201 when at least one started; 400 invalid_payload when none is valid (errors prefixed `subjects[i].`). The rate limit must have room for every valid item, otherwise 429 and nothing starts.',
    security: s2Security,
    request: { body: { required: true, content: json(BatchRequestDocSchema) } },
    responses: {
      201: { description: 'Per-item results in request order.', content: json(BatchResultSchema) },
      400: payloadError,
      429: err('rate_limited: the hour\'s remaining allowance is smaller than the number of valid subjects; nothing was started.', retryAfterHeader as ResponseConfig['headers']),
      ...bearerErrors,
      503: err('service_unavailable: fewer free in-flight slots than valid subjects (MAX_INFLIGHT_SUBJECT_CHECKS per process); nothing was started. Retry after the Retry-After delay.', retryAfterHeader as ResponseConfig['headers']),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/subject-checks/sandbox',
    tags: tag,
    summary: 'S2: sandbox subject check (no persistence)',
    description:
      'Same headers and validation as creation; answers 200 with a deterministic completed verdict `clear_no_match` (subject_check_id 0, nothing searched). Writes nothing: no event, no read model, no rate-limit or quota decrement, no callback.',
    security: s2Security,
    request: { body: { required: true, content: json(SubjectCheckRequestSchema) } },
    responses: { 200: { description: 'The sandbox verdict.', content: json(SandboxResultSchema) }, 400: payloadError, ...bearerErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/compliance/subject-checks',
    tags: tag,
    summary: 'S2: list own subject checks, newest first',
    security: s2Security,
    request: { query: ListQuerySchema },
    responses: { 200: { description: 'A page; pass next_cursor as cursor for the next one.', content: json(SubjectCheckListSchema) }, 400: err('invalid_payload: bad query parameter.'), ...bearerErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/compliance/subject-checks/{id}',
    tags: tag,
    summary: 'S2: get a subject check with its sources, findings and decisions',
    security: s2Security,
    request: { params: IdParamsSchema },
    responses: {
      200: { description: 'The check.', content: json(SubjectCheckGetSchema) },
      400: err('invalid_payload: the id is not a positive integer.'),
      404: err('not_found: no such check, or it belongs to another account.'),
      ...bearerErrors,
    },
  });
  for (const [path, summary, description] of [
    [
      '/api/v1/compliance/subject-checks/{id}/review-resolution',
      'S2: resolve a review (needs_review → completed or escalated)',
      'outcome `clear` completes the check (overall_result clean, confidence high, resolved_by review); `adverse` escalates it with an investigation (triggering tiers, or manual_review). Any other state: 409 illegal_transition.',
    ],
    [
      '/api/v1/compliance/subject-checks/{id}/investigation-closure',
      'S2: close an investigation (escalated → completed)',
      'outcome `clear` completes with overall_result clean, `adverse` with adverse_found (resolved_by investigation). Any other state: 409 illegal_transition.',
    ],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path,
      tags: tag,
      summary,
      description,
      security: s2Security,
      request: { params: IdParamsSchema, body: { required: true, content: json(ReviewDecisionSchema) } },
      responses: {
        200: { description: 'The check after the decision.', content: json(SubjectCheckGetSchema) },
        400: payloadError,
        404: err('not_found: no such check, or it belongs to another account.'),
        409: err('illegal_transition: the check is not in the state this decision applies to.'),
        ...bearerErrors,
      },
    });
  }

  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/api-keys/rotate',
    tags: ['S2 keys'],
    summary: 'S2: rotate the calling key in place',
    description:
      'No body. Same key row (id), new token returned once in `key`; the old token answers 401 invalid_key at once. Zero-downtime recipe: create a second key (POST /api/account/api-keys), switch your clients to it, then revoke the old one (DELETE /api/account/api-keys/{id}).',
    security: s2Security,
    responses: { 201: { description: 'Rotated.', content: json(RotateResultSchema) }, ...bearerErrors },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/webhooks',
    tags: ['S2 webhooks'],
    summary: 'S2: register or update the account\'s callback URL',
    description:
      'One HTTPS URL per account. 201 on first registration, 200 on update (same id, new URL and new signing_secret, re-enabled). The URL must resolve only to public addresses (private, loopback, link-local and metadata addresses are refused unless the operator set WEBHOOK_ALLOW_PRIVATE for local testing). signing_secret is shown only in this answer.',
    security: s2Security,
    request: { body: { required: true, content: json(WebhookRegistrationSchema) } },
    responses: {
      200: { description: 'Updated.', content: json(WebhookRegisteredSchema) },
      201: { description: 'Registered.', content: json(WebhookRegisteredSchema) },
      400: err('invalid_payload: not https, not a valid URL, credentials in the URL, unresolvable host, or a forbidden address.'),
      ...bearerErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/compliance/webhooks',
    tags: ['S2 webhooks'],
    summary: 'S2: the registered callback (without its secret)',
    security: s2Security,
    responses: { 200: { description: 'The registration.', content: json(WebhookViewSchema) }, 404: err('not_found: no webhook registered.'), ...bearerErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/webhooks/test',
    tags: ['S2 webhooks'],
    summary: 'S2: send a webhook.test delivery',
    description: 'Queues a `webhook.test` delivery (subject {id, name, first_name, last_name}, no subject_check_id) to the registered URL; follow it in the delivery log.',
    security: s2Security,
    responses: {
      202: { description: 'Queued.', content: json(TestDeliveryResultSchema) },
      404: err('not_found: no webhook registered.'),
      409: err('illegal_transition: the endpoint is disabled.'),
      ...bearerErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/compliance/webhooks/deliveries',
    tags: ['S2 webhooks'],
    summary: 'S2: the delivery log, newest first',
    description: 'Every delivery with every attempt (time, status code or transport error, outcome) and the exact payload. Filters: status, event, subject_check_id.',
    security: s2Security,
    request: { query: DeliveryListQuerySchema },
    responses: { 200: { description: 'A page.', content: json(DeliveryListSchema) }, 400: err('invalid_payload: bad query parameter or cursor.'), ...bearerErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/compliance/webhooks/deliveries/{id}',
    tags: ['S2 webhooks'],
    summary: 'S2: one delivery with its attempts',
    security: s2Security,
    request: { params: DeliveryIdParamsSchema },
    responses: {
      200: { description: 'The delivery.', content: json(z.object({ success, delivery: DeliverySchema })) },
      400: err('invalid_payload: the id is not a UUID.'),
      404: err('not_found: no such delivery, or another account\'s.'),
      ...bearerErrors,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/compliance/webhooks/deliveries/{id}/retry',
    tags: ['S2 webhooks'],
    summary: 'S2: retry now (sends subject_check.retry)',
    description:
      'Queues a `subject_check.retry` about the same subject check: {subject_check_id, retried_at, previous_delivery_id (this id), attempt_number (attempts already made for this notification + 1)}; no account_id or status.',
    security: s2Security,
    request: { params: DeliveryIdParamsSchema },
    responses: {
      202: { description: 'Queued.', content: json(RetryResultSchema) },
      400: err('invalid_payload: the id is not a UUID.'),
      404: err('not_found: no such delivery, or another account\'s.'),
      409: err('illegal_transition: the delivery is still being attempted, is not about a subject check, or the endpoint is disabled or gone.'),
      ...bearerErrors,
    },
  });

  const account = ['S2 account (session)'];
  registry.registerPath({
    method: 'post',
    path: '/api/account/session',
    tags: account,
    summary: 'S2: sign in (sets the auth_token cookie)',
    description:
      'Checks the password (scrypt) and sets `auth_token` = an HS256 JWT (12 h), cookie attributes HttpOnly; Secure; SameSite=Lax; Path=/api/account. 401 for a wrong e-mail or password (same message for both); 429 after 10 failed attempts for one e-mail within 15 minutes.',
    security: [],
    request: { body: { required: true, content: json(SignInSchema) } },
    responses: {
      200: { description: 'Signed in.', content: json(SessionSchema), headers: { 'Set-Cookie': { description: 'auth_token=<JWT>; HttpOnly; Secure; SameSite=Lax', schema: { type: 'string' } } } },
      400: sessionErr('Email and password are required.'),
      401: sessionErr('Invalid email or password.'),
      429: sessionErr('Too many failed sign-in attempts.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/account/session',
    tags: account,
    summary: 'S2: sign out (ends the session at once and clears the cookie)',
    security: sessionSecurity,
    responses: { 200: { description: 'Signed out.', content: json(z.object({ success })) } },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/account/api-keys',
    tags: account,
    summary: 'S2: create a key (plaintext returned once)',
    security: sessionSecurity,
    request: { body: { required: true, content: json(AccountKeyCreateSchema) } },
    responses: {
      201: { description: 'Created.', content: json(AccountKeyCreatedSchema) },
      400: sessionErr('Name required (1-100 characters), or a bad expires_at.'),
      401: sessionErr('Authentication required.'),
      500: sessionErr('Failed to create the key.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/account/api-keys',
    tags: account,
    summary: 'S2: list the account\'s keys (never the plaintext)',
    security: sessionSecurity,
    responses: {
      200: { description: 'The keys.', content: json(z.object({ success, keys: z.array(AccountKeySchema) })) },
      401: sessionErr('Authentication required.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/account/api-keys/{id}',
    tags: account,
    summary: 'S2: revoke a key',
    description: 'Immediate: later bearer calls with it get 401 invalid_key. Revoking a revoked key answers 200 again with the same revoked_at.',
    security: sessionSecurity,
    request: { params: IdParamsSchema },
    responses: {
      200: { description: 'Revoked.', content: json(z.object({ success, id: z.number().int(), revoked_at: isoTime })) },
      400: sessionErr('Invalid key id.'),
      401: sessionErr('Authentication required.'),
      404: sessionErr('API key not found.'),
      500: sessionErr('Failed to revoke the key.'),
    },
  });

  const webhookHeaders = z.object({
    'Content-Type': z.literal('application/json'),
    'User-Agent': z.literal('Service-Webhooks/1.0'),
    'X-Service-Signature': z.string().openapi({ description: '`sha256=<64 lowercase hex>`: HMAC-SHA256 keyed with signing_secret over the exact raw body bytes.' }),
  });
  for (const [event, schema] of Object.entries(s2Schemas)) {
    registry.registerWebhook({
      method: 'post',
      path: event,
      tags: ['S2 webhooks'],
      summary: `S2 callback ${event}`,
      description: [
        'POSTed to the account\'s registered URL. Verify X-Service-Signature over the raw bytes in constant time before parsing; there is no timestamp header and no envelope; `event` is the discriminator; ignore unknown fields.',
        '10 s timeout; at most 3 attempts (immediately, +1 s, +5 s); retried on transport failures, 5xx, 408 and 429; other 4xx are final. The same event may arrive more than once and in any order: deduplicate by event + subject_check_id (retry: + previous_delivery_id; webhook.test: subject.id; monitoring_alert: + alert_id, as one check can get several alerts).',
        ...(event === 'subject_check.monitoring_alert'
          ? ['Sent when ongoing monitoring (POST /api/v1/compliance/subject-checks/{id}/monitoring, or `monitor: true` at creation) finds that a list update added a hit for the subject, changed the record of a reported hit, or removed a reported entity. `alert_id` is `<list version>:<entity id>`: at most one alert per list version, check and listed entity. The check\'s status and verdict do not change.']
          : []),
      ].join('\n\n'),
      request: { headers: webhookHeaders, body: { required: true, content: json(schema as z.ZodType) } },
      responses: { 200: { description: 'Accepted (any 2xx) after durable acceptance.' } },
    });
  }
}
