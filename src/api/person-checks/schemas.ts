/**
 * Person-check request and response schemas (S1 /api/v1/person-checks and the S3 portal
 * /api/person-checks). The routers validate with these through parseInput (400 for a missing field
 * or a wrong JSON type, 422 on S1 for a value that breaks a rule) and registerPersonChecks documents
 * the same objects in OpenAPI.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { isCalendarDate } from '../../commands/decider';
import { personCheckPurposes } from '../../commands/person-check';
import { resolveLocation } from '../../agents/person/locations';
import { ListsInServiceSchema, ListWarningsSchema, retryAfterHeader, s1RateLimitHeaders, S1ErrorSchema, S3ErrorSchema, S3ValidationErrorSchema, securitySchemes } from '../openapi/common';
import { z } from '../openapi/zod';
import { screenableNameCheck, screenablePartsCheck } from '../http/validation';
import { boundedText, EmailField, PhoneField, PostalAddressSchema } from '../http/subject-facts';
import { systemClock } from '../../shared/clock';

/** Letters of any script and combining marks, with the punctuation real names use. */
const PERSON_NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.,-]*$/u;
const HOSTNAME = /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;

/** Names and short values: the one text rule of every surface (subject-facts.ts). */
const text = boundedText;

function personName(min: number, max: number) {
  return text(min, max).refine((s) => s.length === 0 || PERSON_NAME.test(s), 'must contain only letters, spaces, apostrophes, hyphens, periods and commas');
}

function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.string().pipe(z.enum(values)).openapi({ type: 'string', enum: [...values] });
}

const purpose = choice(personCheckPurposes as unknown as readonly ['employment', ...string[]]).openapi({
  description: 'Permissible purpose under the FCRA: employment, business_due_diligence, volunteer_screening or licensing. Recorded in the event stream.',
});

const fcraConsent = z
  .boolean()
  .refine((v) => v === true, 'must be true: the FCRA requires the consumer\'s consent; no check was started')
  .openapi({ type: 'boolean', enum: [true], description: 'Must be literally `true`; `false` is refused with 422 and nothing is recorded. Recorded with its time in the event stream.' });

/** A real calendar date YYYY-MM-DD, not in the future, not before 1900 (today read at validation time). */
const dateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => isCalendarDate(s), 'must be a real calendar date')
  .refine((s) => s <= systemClock.now().toISOString().slice(0, 10), 'must not be in the future')
  .refine((s) => s >= '1900-01-01', 'must not be before 1900-01-01')
  .openapi({ description: 'YYYY-MM-DD, a real calendar date, not in the future. Shown back as the year only.', example: '1980-04-12' });

const location = text(1, 100)
  .refine((s) => resolveLocation(s) !== undefined, 'must be a US state (name, USPS code or US-XX) or a country (name or ISO code)')
  .openapi({ description: 'A US state ("California", "CA", "US-CA") or a country ("Canada", "CAN", "DE" is Delaware: two-letter codes are USPS codes first).' });

const IDENTIFIERS_DESCRIPTION =
  'Extension. Only the last four letters or digits are stored and shown (`*****6789`). A whole document named as a list import names its columns (`passport`, `national_id`, `ssn`, `tax_id`, `drivers_license`; issue 30) is also compared, whole, with the account\'s internal lists by the process that runs the check, and never recorded or logged; a partial one (`ssn_last4`) or another kind is not compared. A check resumed after a restart searches the internal lists without them and says so in the source\'s notes.';

const identifier = z
  .strictObject({
    type: text(1, 50).openapi({ example: 'ssn_last4' }),
    value: z
      .string()
      .max(64, 'must be at most 64 characters')
      .regex(/^[A-Za-z0-9 -]*$/, 'must contain only letters, digits, spaces and hyphens')
      .refine((s) => s.replace(/[^A-Za-z0-9]/g, '').length >= 4, 'must have at least 4 letters or digits')
      .openapi({ description: 'Only the last four letters or digits are stored; every answer and the PDF show `*****1234`.' }),
  })
  .openapi('PersonCheckIdentifier');

export const S1PersonCheckRequestSchema = z
  .strictObject({
    full_name: personName(2, 200).superRefine(screenableNameCheck).openapi({ description: 'Full legal name.', example: 'William Hartley' }),
    purpose,
    fcra_consent: fcraConsent,
    date_of_birth: dateOfBirth.optional(),
    locations: z.array(location).max(50, 'must have at most 50 entries').optional().openapi({ description: 'States or countries of residence.' }),
    associated_domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(HOSTNAME, 'must be a hostname such as example.com')
      .optional()
      .openapi({ description: 'Business domain (a hostname); triggers a WHOIS (RDAP) lookup when configured.' }),
    aliases: z.array(personName(2, 200)).max(20, 'must have at most 20 entries').optional().openapi({ description: 'Extension: other names the subject used; each is searched.' }),
    identifiers: z
      .array(identifier)
      .max(10, 'must have at most 10 entries')
      .optional()
      .openapi({ description: IDENTIFIERS_DESCRIPTION }),
    phone: PhoneField.optional(),
    email: EmailField.optional(),
    address: PostalAddressSchema.optional(),
  })
  .openapi('S1PersonCheckRequest');

export const PortalPersonCheckRequestSchema = z
  .strictObject({
    first_name: personName(1, 100),
    middle_name: personName(1, 100).optional(),
    last_name: personName(1, 100),
    dob: dateOfBirth.optional(),
    aliases: z.array(personName(2, 200)).max(20, 'must have at most 20 entries').default([]),
    locations: z.array(location).max(50, 'must have at most 50 entries').default([]),
    identifiers: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,49}$/, 'identifier names are lower-case words'), identifier.shape.value)
      .optional()
      .openapi({ description: `Named identifiers, e.g. {"ssn": "123-45-6789"} or {"ssn_last4": "1234"}. ${IDENTIFIERS_DESCRIPTION}` }),
    additional_identifiers: z.array(identifier).max(10, 'must have at most 10 entries').optional(),
    phone: PhoneField.optional(),
    email: EmailField.optional(),
    address: PostalAddressSchema.optional(),
    purpose: purpose.openapi({ description: 'Required by the FCRA (the engine refuses a check without it).' }),
    fcra_consent: fcraConsent,
  })
  .superRefine(screenablePartsCheck(['first_name', 'middle_name', 'last_name']))
  .openapi('PortalPersonCheckRequest');

export const PersonCheckIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^SVC-[0-9a-fA-F]{8}-P$/, 'must look like SVC-<8 hex>-P')
    .openapi({ description: 'Person check id.', example: 'SVC-1a2b3c4d-P', param: { name: 'id', in: 'path' } }),
});

export const PersonCheckListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).openapi({ description: 'Default 1.', default: 1 }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Default 20, maximum 100 (above → 422).', default: 20 }),
  result: choice(['clean', 'adverse_found', 'inconclusive']).optional(),
});

// ---- responses ----

export const PersonCheckFindingSchema = z
  .object({
    id: z.string().openapi({ example: 'F1' }),
    severity: z.enum(['info', 'warning', 'red_flag']),
    category: z.string().openapi({ description: 'sanctions, debarment, pep, offshore_leaks, criminal, sex_offender, civil, bankruptcy, licence, corporate_role, adverse_media, web_presence, domain.' }),
    corroboration: z.enum(['name_dob', 'name_location', 'name_only']).openapi({ description: 'What ties the record to the subject besides the name.' }),
    title: z.string(),
    matched_name: z.string().openapi({ description: 'The name on the record that matched.' }),
    why: z.string().openapi({ description: 'Which of the subject\'s names matched, how, and what agrees or conflicts (date of birth, location).' }),
    detail: z.string().nullable(),
    source: z.object({
      name: z.string(),
      url: z.string().nullable(),
      entity_id: z.string().nullable().openapi({ description: 'List entity id (`ofac_sdn:9760`) or the source\'s record id.' }),
      retrieved_at: z.string(),
    }),
  })
  .openapi('PersonCheckFinding');

export const PersonCheckSourceSchema = z
  .object({
    source: z.string(),
    label: z.string(),
    phase: z.number().int(),
    searched: z.boolean(),
    error: z.string().nullable().openapi({ description: 'Why the source was not searched (not configured, failed, manual search only).' }),
    records_found: z.number().int(),
    links: z.array(z.object({ label: z.string(), url: z.string() })).openapi({ description: 'Where to search by hand (state court portals, county assessors, NSOPW).' }),
    notes: z.array(z.string()).openapi({ description: 'Parts of a searched source that were not available (e.g. PEP lists not loaded).' }),
    duration_ms: z.number().nullable(),
  })
  .openapi('PersonCheckSource');

const summaryShape = {
  id: z.string().openapi({ example: 'SVC-1a2b3c4d-P' }),
  full_name: z.string(),
  purpose: z.enum(personCheckPurposes),
  result: z.enum(['clean', 'adverse_found', 'inconclusive']).nullable().openapi({ description: 'null while running or when failed.' }),
  confidence: z.enum(['high', 'medium', 'low']).nullable(),
  status: z.enum(['running', 'completed', 'failed']),
  red_flag_count: z.number().int(),
  warning_count: z.number().int(),
  sources_checked: z.number().int().openapi({ description: 'Sources actually searched.' }),
  sources_total: z.number().int().openapi({ description: 'Extension: sources applicable to the check.' }),
  risk_score: z.number().int().nullable(),
  risk_level: z.enum(['low', 'medium', 'high', 'critical']).nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
};

export const PersonCheckSummarySchema = z.object(summaryShape).openapi('PersonCheckSummary');

export const PersonCheckSchema = z
  .object({
    ...summaryShape,
    findings: z.array(PersonCheckFindingSchema),
    subject: z.object({
      first_name: z.string().nullable(),
      middle_name: z.string().nullable(),
      last_name: z.string().nullable(),
      date_of_birth: z.string().nullable().openapi({ description: 'Year only: `1980-**-**`.' }),
      aliases: z.array(z.string()),
      locations: z.array(z.string()),
      associated_domain: z.string().nullable(),
      identifiers: z.array(z.object({ type: z.string(), value: z.string().openapi({ example: '*****1234' }) })),
    }),
    consent: z.object({ fcra_consent: z.literal(true), permissible_purpose: z.enum(personCheckPurposes), recorded_at: z.string() }),
    sources: z.array(PersonCheckSourceSchema).openapi({ description: 'Per-source audit trail: every source of phases 2-6, searched or not and why.' }),
    verdict_reasons: z.array(z.string()).openapi({ description: 'The steps of the result/confidence rule that decided (docs/person-checks.md).' }),
    failure_reason: z.string().nullable(),
    lists_in_service: ListsInServiceSchema.optional(),
    list_warnings: ListWarningsSchema.optional(),
  })
  .openapi('PersonCheck');

export const S1PersonCheckEnvelopeSchema = z.object({ success: z.literal(true), person_check: PersonCheckSchema }).openapi('S1PersonCheckEnvelope');
export const S1PersonCheckListSchema = z
  .object({
    success: z.literal(true),
    person_checks: z.array(PersonCheckSummarySchema),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
  })
  .openapi('S1PersonCheckList');
export const PortalPersonCheckSchema = PersonCheckSchema.extend({
  confidence_level: z.enum(['high', 'medium', 'low']).nullable().openapi({ description: 'Same as confidence (the portal form\'s name).' }),
}).openapi('PortalPersonCheck');
export const PortalPersonCheckListSchema = z
  .object({
    person_checks: z.array(PersonCheckSummarySchema),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
  })
  .openapi('PortalPersonCheckList');

// ---- OpenAPI ----

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const s1Headers = s1RateLimitHeaders as ResponseConfig['headers'];
const s1Error = (description: string, extra: Record<string, unknown> = {}): ResponseConfig => ({
  description,
  headers: { ...s1RateLimitHeaders, ...extra } as ResponseConfig['headers'],
  content: json(S1ErrorSchema),
});
const s1Auth: Record<number, ResponseConfig> = {
  401: { description: 'invalid_api_key: missing, invalid or revoked key.', content: json(S1ErrorSchema) },
  403: s1Error('plan_required: the plan has no S1 API access.'),
  429: s1Error('rate_limited: more than 60 requests in the current minute for this key.', retryAfterHeader),
  500: s1Error('server_error.'),
};
const portalErrors: Record<number, ResponseConfig> = {
  401: { description: 'Missing or invalid portal session.', content: json(S3ErrorSchema) },
  404: { description: 'No such check, or it belongs to another account.', content: json(S3ErrorSchema) },
  500: { description: 'Internal error.', content: json(S3ErrorSchema) },
};

export function registerPersonChecks(registry: OpenAPIRegistry): void {
  const s1Security = [{ [securitySchemes.s1Bearer]: [] }];
  const portalSecurity: Record<string, string[]>[] = [{ [securitySchemes.s3PortalBearer]: [] }, { [securitySchemes.s3PortalCookie]: [] }];
  registry.registerPath({
    method: 'post',
    path: '/api/v1/person-checks',
    tags: ['S1 person checks'],
    summary: 'S1: person background check (FCRA)',
    description:
      'Runs the seven-phase person-check pipeline. The caller must hold a permissible purpose and the consumer\'s consent: `fcra_consent` must be literally true, otherwise 422 and nothing is recorded. Waits for completion (201) or answers 202 with `status: running` and a Location to poll. Sources that this deployment cannot search are listed in `sources` with the reason; the result and confidence reflect that coverage (docs/person-checks.md).',
    security: s1Security,
    request: { body: { required: true, content: json(S1PersonCheckRequestSchema) } },
    responses: {
      201: { description: 'The completed check.', headers: s1Headers, content: json(S1PersonCheckEnvelopeSchema) },
      202: {
        description: 'Extension: still running after the wait; poll Location.',
        headers: { ...s1RateLimitHeaders, Location: { description: '/api/v1/person-checks/{id}', schema: { type: 'string' } } } as ResponseConfig['headers'],
        content: json(S1PersonCheckEnvelopeSchema),
      },
      400: s1Error('invalid_request: not JSON, a required field (full_name, purpose, fcra_consent) missing, a wrong JSON type or an unknown field.'),
      422: s1Error('validation_failed: fcra_consent false, unknown purpose, a date of birth that is not a real past date, a location that is neither a state nor a country, a domain that is not a hostname, characters a name cannot hold.'),
      ...s1Auth,
      503: s1Error('service_unavailable: the service is at capacity (too many person checks in progress, MAX_INFLIGHT_PERSON_CHECKS per process); nothing was created. Retry after the Retry-After delay.', retryAfterHeader),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/person-checks/{id}',
    tags: ['S1 person checks'],
    summary: 'S1: one person check with every finding, its severity, corroboration and source',
    security: s1Security,
    request: { params: PersonCheckIdParamsSchema },
    responses: {
      200: { description: 'The check.', headers: s1Headers, content: json(S1PersonCheckEnvelopeSchema) },
      400: s1Error('invalid_request: the id is not SVC-<8 hex>-P.'),
      404: s1Error('not_found: no such check, or it belongs to another account.'),
      ...s1Auth,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/person-checks',
    tags: ['S1 person checks'],
    summary: 'S1: list own person checks, newest first',
    security: s1Security,
    request: { query: PersonCheckListQuerySchema },
    responses: {
      200: { description: 'A page of checks: `{success, person_checks, pagination: {page, limit, total, pages}}`, like the screenings list.', headers: s1Headers, content: json(S1PersonCheckListSchema) },
      400: s1Error('invalid_request: page or limit is not an integer.'),
      422: s1Error('validation_failed: limit above 100, page below 1, unknown result.'),
      ...s1Auth,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/person-checks',
    tags: ['Portal person checks'],
    summary: 'Portal: person background check (FCRA)',
    security: portalSecurity,
    request: { body: { required: true, content: json(PortalPersonCheckRequestSchema) } },
    responses: {
      201: { description: 'The completed check (202 while still running).', content: json(z.object({ person_check: PortalPersonCheckSchema })) },
      400: { description: 'Invalid input, including fcra_consent not true; nothing is recorded.', content: json(S3ValidationErrorSchema) },
      ...portalErrors,
      503: {
        description: 'The service is at capacity (too many person checks in progress, MAX_INFLIGHT_PERSON_CHECKS per process); nothing was created. Retry after the Retry-After delay.',
        headers: retryAfterHeader as ResponseConfig['headers'],
        content: json(S3ErrorSchema),
      },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/person-checks',
    tags: ['Portal person checks'],
    summary: 'Portal: list own person checks',
    security: portalSecurity,
    request: { query: PersonCheckListQuerySchema },
    responses: { 200: { description: 'A page of checks.', content: json(PortalPersonCheckListSchema) }, 400: { description: 'Invalid query.', content: json(S3ValidationErrorSchema) }, ...portalErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/person-checks/{id}',
    tags: ['Portal person checks'],
    summary: 'Portal: one person check with its findings and audit trail',
    security: portalSecurity,
    request: { params: PersonCheckIdParamsSchema },
    responses: { 200: { description: 'The check.', content: json(z.object({ person_check: PortalPersonCheckSchema })) }, ...portalErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/person-checks/{id}/pdf',
    tags: ['Portal person checks'],
    summary: 'Portal: the PDF report (identifiers masked, FCRA adverse-action notice)',
    security: portalSecurity,
    request: { params: PersonCheckIdParamsSchema },
    responses: {
      200: { description: 'application/pdf', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
      409: { description: 'The check is still running.', content: json(S3ErrorSchema) },
      ...portalErrors,
    },
  });
}
