/**
 * S1 request and response schemas. The router validates with these (through parseInput, which applies
 * the 400-vs-422 rule) and registerS1 documents the same objects in OpenAPI.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { HitConfirmationSchema, RiskFlagsSchema, RiskReasonSchema, ListVersionAgeSchema, ListWarningsSchema, MatchAssessmentSchema, MatchStrengthSchema, retryAfterHeader, s1RateLimitHeaders, S1ErrorSchema, securitySchemes } from '../openapi/common';
import { s1Schemas } from '../../webhooks/payloads';
import { z } from '../openapi/zod';
import { screenableNameCheck } from '../http/validation';
import { boundedText, PostalAddressSchema, subjectFactFields } from '../http/subject-facts';

// C0 and C1 control characters but tab and line breaks, which free text may hold (names: boundedText).
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// An unpaired UTF-16 surrogate (possible through JSON "\ud800" escapes) is not a character.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const NAME_MAX = 200;
export const SHORT_TEXT_MAX = 100;
export const FREE_TEXT_MAX = 5000;


/** Free text for the analysis: line breaks and tabs allowed, other control characters not. */
function freeText(max: number) {
  return z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL_EXCEPT_LINE_BREAKS.test(s), 'must not contain control characters other than tab and line breaks')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode');
}

/**
 * One of a fixed set of strings. A value of another JSON type is a wrong type (400); a string that is
 * not one of the values breaks a rule (422). The enum is restated for OpenAPI, which cannot see
 * through the pipe.
 */
function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.string().pipe(z.enum(values)).openapi({ type: 'string', enum: [...values] });
}

export const CddRequestSchema = z
  .strictObject({
    query: boundedText(2, NAME_MAX).superRefine(screenableNameCheck).openapi({ description: 'Entity name, at least 2 characters after trimming; not only punctuation or a legal form.', example: 'Acme Trading LLC' }),
    entity_type: choice(['individual', 'company', 'organization']).default('individual').openapi({ description: 'Default individual.', default: 'individual' }),
    jurisdiction: boundedText(1, SHORT_TEXT_MAX).optional().openapi({ description: 'Country or jurisdiction; improves scoring.', example: 'AE' }),
    ...subjectFactFields,
    address: PostalAddressSchema.optional(),
    monitor: z.boolean().optional().openapi({ description: 'Extension: enrol the subject in ongoing monitoring when the screening completes (see POST /api/v1/screening/{id}/monitoring).' }),
  })
  .openapi('S1CddRequest');

export const EddRequestSchema = z
  .strictObject({
    query: boundedText(2, NAME_MAX).superRefine(screenableNameCheck).openapi({ description: 'Entity name, at least 2 characters after trimming; not only punctuation or a legal form.' }),
    entity_type: choice(['individual', 'company']).default('individual').openapi({ description: 'Default individual.', default: 'individual' }),
    jurisdiction: boundedText(1, SHORT_TEXT_MAX).optional(),
    ...subjectFactFields,
    address: PostalAddressSchema.optional(),
    source_of_wealth: freeText(FREE_TEXT_MAX).optional().openapi({ description: 'Declared source of wealth.' }),
    source_of_funds: freeText(FREE_TEXT_MAX).optional().openapi({ description: 'Declared source of funds.' }),
    purpose_of_relationship: freeText(FREE_TEXT_MAX).optional(),
    beneficial_ownership: freeText(FREE_TEXT_MAX).optional().openapi({ description: 'Known ownership structure.' }),
    pep_relationships: freeText(FREE_TEXT_MAX).optional().openapi({ description: 'Disclosed PEP connections.' }),
    monitor: z.boolean().optional().openapi({ description: 'Extension: enrol the subject in ongoing monitoring when the screening completes (see POST /api/v1/screening/{id}/monitoring).' }),
  })
  .openapi('S1EddRequest');

export const MaRequestSchema = z
  .strictObject({
    target_name: boundedText(2, NAME_MAX).superRefine(screenableNameCheck).openapi({ description: 'Acquisition target, at least 2 characters after trimming.' }),
    target_jurisdiction: boundedText(1, SHORT_TEXT_MAX).optional(),
    ...subjectFactFields,
    address: PostalAddressSchema.optional().openapi({ description: "Extension (issue 27): the target's registered address; the account's internal lists weigh it." }),
    target_industry: boundedText(1, SHORT_TEXT_MAX).optional(),
    acquirer_name: boundedText(1, NAME_MAX).optional(),
    deal_type: choice(['acquisition', 'merger', 'joint_venture', 'restructuring']).optional(),
    deal_value: boundedText(1, SHORT_TEXT_MAX).optional().openapi({ description: 'Free-text amount, e.g. "USD 40m".' }),
    additional_context: freeText(FREE_TEXT_MAX).optional(),
    monitor: z.boolean().optional().openapi({ description: 'Extension: enrol the subject in ongoing monitoring when the screening completes (see POST /api/v1/screening/{id}/monitoring).' }),
  })
  .openapi('S1MaRequest');

export const ScreeningIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')
    .openapi({ description: 'Numeric screening id.', example: '42', param: { name: 'id', in: 'path' } }),
});

export const ListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).openapi({ description: 'Default 1.', default: 1 }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Default 20, maximum 100 (above → 422).', default: 20 }),
  risk_level: choice(['low', 'medium', 'high', 'critical']).optional(),
  screening_type: choice(['cdd', 'edd', 'ma', 'all'])
    .default('all')
    .openapi({ description: 'edd, ma (and cdd); default all.', default: 'all' }),
  search: boundedText(1, NAME_MAX).optional().openapi({ description: 'Case-insensitive partial match on the screened name.' }),
});

const riskLevel = z.enum(['low', 'medium', 'high', 'critical']);

export const ScreeningSchema = z
  .object({
    id: z.number().int().openapi({ example: 42 }),
    screening_type: z.enum(['cdd', 'edd', 'ma']).openapi({ description: 'Extension: which endpoint created it.' }),
    search_query: z.string().openapi({ description: 'Echo of the submitted name (trimmed).' }),
    entity_type: z.enum(['individual', 'company', 'organization']),
    jurisdiction: z.string().nullable().openapi({ description: 'Echo of input; null when none was given.' }),
    risk_level: riskLevel.nullable().openapi({ description: 'low 0-19, medium 20-44, high 45-69, critical 70-100; null while running.' }),
    risk_score: z.number().int().min(0).max(100).nullable().openapi({ description: '0-100; null while running.' }),
    status: z.enum(['running', 'completed', 'failed']).openapi({ description: '`running` only in a 202 answer or while the pipeline works.' }),
    sanctions_hits: z.number().int(),
    pep_hits: z.number().int(),
    adverse_media_hits: z.number().int(),
    offshore_leaks_hits: z.number().int().openapi({ description: 'Present in every screening response.' }),
    summary: z.string().nullable().openapi({ description: 'Plain-text summary of the findings (every kind; null while running). Its matches sentence counts the hits as they stand: an analyst\'s decision (a false positive, a true match) changes it, in the list as in the detail.' }),
    edd_analysis: z.string().nullable().optional().openapi({ description: 'EDD only: markdown analysis.' }),
    ma_analysis: z.string().nullable().optional().openapi({ description: 'M&A only: markdown due-diligence analysis.' }),
    created_at: z.string().openapi({ description: 'ISO 8601 UTC.', example: '2026-04-01T10:00:00.000Z' }),
    completed_at: z.string().nullable().openapi({ description: 'Extension: ISO 8601 UTC; null while running.' }),
    list_warnings: ListWarningsSchema.optional(),
    risk_flags: RiskFlagsSchema.optional(),
    risk_reason: RiskReasonSchema.optional(),
  })
  .openapi('S1Screening');

export const HitSchema = z
  .object({
    hit_id: z.string(),
    list: z.string().openapi({ description: 'List source id, e.g. ofac_sdn, un_sc, eu_fsf, uk_sanctions, us_dpl, icij_offshore.' }),
    list_version: z.string().openapi({ description: 'Version id of the loaded list (`<source>@<sha256 prefix>`).' }),
    entity_id: z.string().openapi({ description: 'Entity id on the list.' }),
    entity_name: z.string().openapi({ description: 'Primary name of the listed entity.' }),
    entity_type: z.string().openapi({ description: 'person, organization, vessel, aircraft or unknown.' }),
    matched_name: z.string().openapi({ description: 'The name or alias that matched.' }),
    matched_name_kind: z.string().openapi({ description: 'primary, strong_alias, weak_alias, original_script or former.' }),
    score: z.number().min(0).max(1).openapi({ description: 'Matcher score in [0, 1], three decimals: the name comparison with its qualifiers. From 0.95 (the spec\'s 95) a strong name match, 0.80-0.94 a partial one; a score alone never confirms the identity (see match_strength).', example: 0.972 }),
    match_strength: MatchStrengthSchema,
    match_assessment: MatchAssessmentSchema,
    confirmation: HitConfirmationSchema,
    explanation: z.string().openapi({ description: 'Why this matched, and which fact confirmed the identity or that nothing did ("name only: common name…; needs an identity fact").' }),
    qualifiers: z.array(z.object({ kind: z.string(), effect: z.number(), detail: z.string() })).openapi({
      description: 'Date-of-birth, country, identifier agreements or conflicts and the score change each caused.',
    }),
    programs: z.array(z.string()).openapi({ description: 'Sanctions programmes, investigations or list sections.' }),
    source_url: z.string().nullable(),
    disposition: z
      .object({
        status: z.enum(['true_match', 'false_positive', 'needs_more_information']),
        reason: z.string(),
        analyst: z.string(),
        at: z.string(),
      })
      .nullable()
      .openapi({ description: 'An analyst\'s latest disposition of this hit, when one was recorded. `needs_more_information` is not a decision: the hit is still undecided and counts toward risk.' }),
    sources: z
      .array(
        z.object({
          list: z.string(),
          list_label: z.string().nullable(),
          entity_id: z.string().nullable(),
          list_version: z.string().nullable(),
          list_published_at: z.string().nullable().openapi({ description: 'Publication date of that list version, when known.' }),
        }),
      )
      .optional()
      .openapi({
        description:
          'One hit per real-world entity: every list row the entity was found on (SDN CSV, Enhanced XML, CSL, UN…), grouped by shared identifiers (OFAC entity number, UN reference, passport, IMO, registration) or by the same name with an agreeing date of birth or nationality. The hit is filed (`list`, `entity_id`, `hit_id`) under the issuing authority\'s own list before a list that republishes it, whichever row matched best; `score` is the best-matching row\'s.',
      }),
    date_of_birth: z.array(z.string()).optional().openapi({ description: 'Dates of birth as the lists give them (full date, year or range), all rows together.' }),
    nationality: z.array(z.string()).optional().openapi({ description: 'ISO alpha-2 nationalities or registration countries, all rows together.' }),
    identifiers: z.array(z.object({ type: z.string(), value: z.string(), country: z.string().nullable() })).optional().openapi({ description: 'Passport, national id, IMO, registration, SWIFT/BIC… numbers the lists give.' }),
    aliases: z.array(z.string()).optional().openapi({ description: 'Other names the lists give the entity.' }),
    type_mismatch: z
      .object({ expected: z.string(), listed: z.string(), type_given: z.boolean() })
      .optional()
      .openapi({
        description:
          'The listed entity is of another kind than screened. With an entity_type given, such a match is reported only at confirmed strength; with none given, every kind is searched and these hits are ranked after the others.',
      }),
  })
  .openapi('S1Hit');


/** A jurisdiction's risk as every surface shows it: FATF and the sanctions programmes targeting it. */
export const CountryRiskSchema = z
  .object({
    country: z.string().openapi({ description: 'ISO alpha-2.' }),
    status: z.string().openapi({ description: 'FATF status: high_risk_call_for_action, increased_monitoring or none.' }),
    as_of: z.string().openapi({ description: 'Date of the FATF statement used.' }),
    sanctions_scope: z
      .enum(['comprehensive', 'sectoral', 'targeted', 'none'])
      .optional()
      .openapi({ description: 'The broadest sanctions scope over the whole country (a regional embargo such as Crimea\'s counts as sectoral). Absent on screenings recorded before it was kept.' }),
    sanctions_programmes: z
      .array(
        z.object({
          authority: z.enum(['us', 'uk', 'un']),
          programme: z.string(),
          scope: z.enum(['comprehensive', 'sectoral', 'targeted']),
          region: z.string().optional().openapi({ description: 'When the measures cover only part of the country.' }),
          basis: z.string().openapi({ description: 'The legal instruments.' }),
          in_force_since: z.string(),
          reviewed_as_of: z.string().openapi({ description: 'When the classification was last reviewed (lists/country_sanctions).' }),
          source_url: z.string().openapi({ description: 'The issuer\'s page for the programme.' }),
          list: z.string().optional().openapi({ description: 'The list in service whose designations were counted.' }),
          list_published_at: z.string().optional(),
          designations: z.number().int().optional().openapi({ description: 'Designations of the programme on that list.' }),
        }),
      )
      .optional(),
  });

export const ScreeningDetailSchema = ScreeningSchema.extend({
  hits: z
    .object({
      sanctions: z.array(HitSchema),
      pep: z.array(HitSchema),
      adverse_media: z.array(HitSchema),
      offshore_leaks: z.array(HitSchema),
      debarment: z.array(HitSchema),
    })
    .openapi({ description: 'Detail record of every hit, by category.' }),
  sources: z
    .array(
      z.object({
        agent: z.string(),
        phase: z.string(),
        queried: z.boolean(),
        error: z.string().nullable(),
        duration_ms: z.number().nullable(),
      }),
    )
    .openapi({ description: 'Every source the pipeline ran; queried:false with an error when it could not be searched.' }),
  country_risk: CountryRiskSchema.nullable().openapi({
    description: 'The jurisdiction\'s risk: FATF status (`none` when on neither FATF list) and the sanctions programmes targeting it, with their basis and dates.',
  }),
  list_versions: z.array(ListVersionAgeSchema).openapi({ description: 'Every list the screening used, with its publication date and age at completion.' }),
  list_warnings: ListWarningsSchema.optional(),
  matcher_version: z.string().nullable(),
}).openapi('S1ScreeningDetail');

export const ScreeningCreatedSchema = z.object({ success: z.literal(true), screening: ScreeningSchema }).openapi('S1ScreeningCreated');

export const ScreeningRunningSchema = z
  .object({
    success: z.literal(true),
    screening: ScreeningSchema,
    status: z.literal('running'),
    url: z.string().openapi({ description: 'Path of the screening to poll: /api/v1/screening/{id}.', example: '/api/v1/screening/42' }),
  })
  .openapi('S1ScreeningRunning', {
    description:
      'Extension: the pipeline did not finish within the wait (SCREENING_WAIT_MS, default 20 s). The screening exists and keeps running; poll `url` (also in the Location header) or wait for the completion webhook.',
  });

export const ScreeningGetSchema = z.object({ success: z.literal(true), screening: ScreeningDetailSchema }).openapi('S1ScreeningGet');

export const ScreeningListSchema = z
  .object({
    success: z.literal(true),
    screenings: z.array(ScreeningSchema),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
  })
  .openapi('S1ScreeningList');

/**
 * S1 webhook bodies as documented: the webhook module's own payload schemas (src/webhooks/payloads.ts,
 * which refuse to emit anything else) plus the `signature` member appended, last, at each attempt.
 */
const signatureMember = {
  signature: z
    .string()
    .regex(/^sha256=[0-9a-f]{64}$/)
    .openapi({ description: 'Always the last member; equal to X-Service-Signature. See the signing rule in the webhook description.' }),
};
export const S1ScreeningWebhookSchema = s1Schemas.screeningCompleted.extend(signatureMember).openapi('S1ScreeningWebhook');
export const S1PersonCheckWebhookSchema = s1Schemas.personCheckCompleted.extend(signatureMember).openapi('S1PersonCheckWebhook');
export const S1MonitoringAlertWebhookSchema = s1Schemas.monitoringAlert.extend(signatureMember).openapi('S1MonitoringAlertWebhook');

// ---------------------------------------------------------------------------------------------------
// OpenAPI registration

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

function errorResponse(description: string, extraHeaders: Record<string, unknown> = {}): ResponseConfig {
  return { description, headers: { ...s1RateLimitHeaders, ...extraHeaders } as ResponseConfig['headers'], content: json(S1ErrorSchema) };
}

const authErrors: Record<number, ResponseConfig> = {
  401: { description: 'invalid_api_key: missing, invalid or revoked key (no rate-limit headers).', content: json(S1ErrorSchema) },
  403: errorResponse('plan_required: the plan has no S1 API access (Starter) or lacks the feature.'),
  429: errorResponse('rate_limited: more than 60 requests in the current minute for this key.', retryAfterHeader),
  500: errorResponse('server_error: internal error; retry with exponential backoff.'),
};

const bodyErrors: Record<number, ResponseConfig> = {
  400: errorResponse('invalid_request: not JSON, not an object, a required field missing, a wrong JSON type or an unknown field.'),
  402: errorResponse('quota_exceeded: the monthly screening quota of the plan is used up (Essentials 100, Professional 250, Enterprise unlimited).'),
  413: errorResponse('payload_too_large: the body exceeds the size limit (256 kB).'),
  422: errorResponse('validation_failed: a value breaks a rule (length, allowed values, control characters).'),
};

function creationResponses(kind: string): Record<number, ResponseConfig> {
  return {
    201: { description: `The ${kind} screening, completed.`, headers: s1RateLimitHeaders as ResponseConfig['headers'], content: json(ScreeningCreatedSchema) },
    202: {
      description: 'Extension: still running after the wait; poll the URL.',
      headers: { ...s1RateLimitHeaders, Location: { description: 'The screening URL.', schema: { type: 'string' } } } as ResponseConfig['headers'],
      content: json(ScreeningRunningSchema),
    },
    ...bodyErrors,
    ...authErrors,
    503: errorResponse(
      'service_unavailable: the service is at capacity (too many screenings in progress, MAX_INFLIGHT_SCREENINGS per process); nothing was created. Retry after the Retry-After delay.',
      retryAfterHeader,
    ),
  };
}

const s1Security = [{ [securitySchemes.s1Bearer]: [] }];

export function registerS1(registry: OpenAPIRegistry): void {
  registry.register('S1Screening', ScreeningSchema);
  registry.register('S1Hit', HitSchema);

  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/cdd',
    tags: ['S1 screenings'],
    summary: 'S1: CDD screening',
    description:
      'Customer due diligence: sanctions, PEP, adverse media, offshore leaks, debarment and country risk. Waits for completion (201) or answers 202 when the pipeline is slower than the wait. Counts against the monthly quota.',
    security: s1Security,
    request: { body: { required: true, content: json(CddRequestSchema) } },
    responses: creationResponses('CDD'),
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/edd',
    tags: ['S1 screenings'],
    summary: 'S1: EDD screening (Professional or Enterprise)',
    description: 'CDD plus `edd_analysis` (markdown). Other plans get 403 plan_required.',
    security: s1Security,
    request: { body: { required: true, content: json(EddRequestSchema) } },
    responses: creationResponses('EDD'),
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/screening/ma',
    tags: ['S1 screenings'],
    summary: 'S1: M&A screening (Enterprise)',
    description: 'CDD of the target (entity_type company) plus `ma_analysis` (markdown). Other plans get 403 plan_required.',
    security: s1Security,
    request: { body: { required: true, content: json(MaRequestSchema) } },
    responses: creationResponses('M&A'),
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screening/{id}',
    tags: ['S1 screenings'],
    summary: 'S1: get a screening with every hit',
    security: s1Security,
    request: { params: ScreeningIdParamsSchema },
    responses: {
      200: { description: 'The screening and its detail records.', headers: s1RateLimitHeaders as ResponseConfig['headers'], content: json(ScreeningGetSchema) },
      400: errorResponse('invalid_request: the id is not a positive integer.'),
      404: errorResponse('not_found: no such screening, or it belongs to another account.'),
      ...authErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screening/{id}/report',
    tags: ['S1 screenings'],
    summary: 'S1: download the 13-section PDF report',
    security: s1Security,
    request: { params: ScreeningIdParamsSchema },
    responses: {
      200: {
        description: 'The PDF. `Content-Disposition: attachment; filename="screening-<id>-report.pdf"`.',
        headers: {
          ...s1RateLimitHeaders,
          'Content-Disposition': { description: 'attachment; filename="screening-<id>-report.pdf"', schema: { type: 'string' } },
        } as ResponseConfig['headers'],
        content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      400: errorResponse('invalid_request: the id is not a positive integer.'),
      404: errorResponse('not_found: no such screening, or it belongs to another account.'),
      409: errorResponse('conflict: the screening is still running; the report exists once it completes.'),
      ...authErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/screenings',
    tags: ['S1 screenings'],
    summary: 'S1: list own screenings',
    security: s1Security,
    request: { query: ListQuerySchema },
    responses: {
      200: { description: 'A page of screenings, newest first.', headers: s1RateLimitHeaders as ResponseConfig['headers'], content: json(ScreeningListSchema) },
      400: errorResponse('invalid_request: page or limit is not an integer.'),
      422: errorResponse('validation_failed: limit above 100, page below 1, unknown risk_level or screening_type.'),
      ...authErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/openapi.json',
    tags: ['Meta'],
    summary: 'This OpenAPI 3.0 description (no authentication)',
    security: [],
    responses: {
      200: { description: 'The OpenAPI document.', content: { 'application/json': { schema: z.object({}).passthrough().openapi({ type: 'object' }) } } },
    },
  });

  const webhookHeaders = z.object({
    'X-Service-Event': z.string().openapi({ description: 'The event type.' }),
    'X-Service-Signature': z.string().openapi({ description: '`sha256=<64 lowercase hex>`: HMAC-SHA256 keyed with the webhook signing secret.' }),
    'X-Service-Timestamp': z.string().regex(/^\d+$/).openapi({ description: 'Unix time in seconds of this delivery attempt.' }),
  });
  const webhooks = [
    ['cdd.completed', 'A CDD screening finished.', S1ScreeningWebhookSchema],
    ['edd.completed', 'An EDD screening finished (same shape as cdd.completed).', S1ScreeningWebhookSchema],
    ['ma.completed', 'An M&A screening finished (same shape as cdd.completed).', S1ScreeningWebhookSchema],
    ['person_check.completed', 'A person check finished.', S1PersonCheckWebhookSchema],
    ['monitoring.alert', "A monitored screening's hits changed.", S1MonitoringAlertWebhookSchema],
  ] as const;
  for (const [event, trigger, schema] of webhooks) {
    registry.registerWebhook({
      method: 'post',
      path: event,
      tags: ['S1 webhooks'],
      summary: `S1 webhook ${event}`,
      description: [
        `${trigger} POSTed to the URL configured with the key that requested the work.`,
        'Signed bytes = the X-Service-Timestamp header\'s exact digits + "." + the unsigned body, where the unsigned body is the raw body with its final member `,"signature":"sha256=<64 hex>"` replaced by `}`; signature = "sha256=" + lowercase hex HMAC-SHA256(signing secret, signed bytes). Verify in constant time before parsing and answer 400 when it fails; never re-serialise JSON to verify.',
        'Replay window: reject when X-Service-Timestamp is more than 5 minutes from your clock; deduplicate on event + id (the same event may arrive more than once).',
        'A non-2xx answer or a timeout is retried after 30 s, 5 min and 30 min, then dropped. Answer 2xx at once and process asynchronously. Details: docs/webhooks.md.',
      ].join('\n\n'),
      request: { headers: webhookHeaders, body: { required: true, content: json(schema) } },
      responses: {
        200: { description: 'Accepted (any 2xx).' },
        400: { description: 'Signature verification failed.' },
      },
    });
  }
}
