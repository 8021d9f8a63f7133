/**
 * The zod schemas the portal's console routes (/api/portal/*) validate with. They live here, built
 * with the OpenAPI-extended `z`, so the routes (parseInput / safeParse) and the OpenAPI registration
 * (./openapi.ts, registerPortal) use the very same objects.
 */
import { z } from '../openapi/zod';
import { screenableNameCheck } from '../http/validation';
import { isTimeZone } from '../../reports/plain-words';
import { DateOfBirthField, EmailField, IdentifiersField, NationalityField, PhoneField, PostalAddressSchema } from '../http/subject-facts';

/** A form field left empty is absent, not malformed. */
function emptyIsAbsent<T extends z.ZodType>(field: T) {
  return field.optional().or(z.literal('').transform(() => undefined));
}

export const portalKeySurfaces = ['s1', 's2', 's3'] as const;

const positiveId = z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer');

// ---------------------------------------------------------------- session status

/** GET /api/portal/session takes no parameter (an unknown one is a 400, as on every portal route). */
export const PortalSessionQuerySchema = z.object({}).strict();

// ---------------------------------------------------------------- keys

export const CreatePortalKeySchema = z
  .object({
    surface: z.enum(portalKeySurfaces).openapi({ description: 'Which API the key is for: S1 `svc_`, S2 `svca_`, S3 `svcc_live_`.' }),
    name: z.string().trim().min(1, 'must be 1-100 characters').max(100, 'must be 1-100 characters'),
    webhook_url: z
      .string()
      .max(2048)
      .optional()
      .openapi({ description: 'S1 keys only (a 400 on S2/S3): HTTPS URL that receives this key\'s webhooks, SSRF-checked; its signing secret is answered once.' }),
  })
  .strict()
  .openapi('PortalCreateKeyRequest');

export const PortalKeyIdParamsSchema = z.object({ id: positiveId.openapi({ description: 'The key id (any surface).' }) });

// ---------------------------------------------------------------- webhooks

export const PortalWebhookUrlSchema = z
  .object({ url: z.string().min(1, 'is required').max(2048).openapi({ description: 'HTTPS URL, checked by the SSRF guard.' }) })
  .strict()
  .openapi('PortalWebhookUrlRequest');

export const PortalWebhookKeyParamsSchema = z.object({ keyId: positiveId.openapi({ description: 'An S1 key of the account.' }) });

/** The account-level endpoints (S1 webhooks hang off a key and have their own routes). */
export const PortalWebhookSurfaceParamsSchema = z.object({
  surface: z.enum(['s2', 's3']).openapi({ description: 'S2 or S3 (one endpoint per account); any other value is a 404.' }),
});

export const PortalDeliveryQuerySchema = z
  .object({
    surface: z.enum(portalKeySurfaces).default('s1'),
    status: z.enum(['pending', 'delivering', 'succeeded', 'failed', 'dropped']).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(200).optional().openapi({ description: '`next_cursor` of the previous page.' }),
  })
  .strict();

export const PortalDeliveryParamsSchema = z.object({ deliveryId: z.string().openapi({ description: 'A delivery id from the delivery log.' }) });

// ---------------------------------------------------------------- screenings

// C0 and C1 control characters (as on S1/S3); free text may hold tab and line breaks. An unpaired UTF-16
// surrogate (possible through JSON "\ud800" escapes) is not a character.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const text = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !CONTROL.test(v), 'must not contain control characters')
    .refine((v) => !LONE_SURROGATE.test(v), 'must be well-formed Unicode');

export const EDD_FIELDS = ['source_of_wealth', 'source_of_funds', 'purpose_of_relationship', 'beneficial_ownership', 'pep_relationships'] as const;
export const MA_FIELDS = ['target_industry', 'acquirer_name', 'deal_type', 'deal_value', 'additional_context'] as const;
const freeText = z
  .string()
  .trim()
  .max(4000, 'must be at most 4000 characters')
  .refine((v) => !CONTROL_EXCEPT_LINE_BREAKS.test(v), 'must not contain control characters other than tab and line breaks')
  .refine((v) => !LONE_SURROGATE.test(v), 'must be well-formed Unicode');

export const PortalScreeningRequestSchema = z
  .object({
    kind: z.enum(['cdd', 'edd', 'ma']).default('cdd').openapi({ description: 'EDD needs Professional or Enterprise, M&A Enterprise (403 otherwise).' }),
    query: text(2, 300).superRefine(screenableNameCheck),
    entity_type: z.enum(['individual', 'company', 'organization']).default('individual').openapi({ description: 'M&A always screens the target as a company.' }),
    jurisdiction: z
      .string()
      .trim()
      .max(100)
      .refine((v) => !CONTROL.test(v), 'must not contain control characters')
      .refine((v) => !LONE_SURROGATE.test(v), 'must be well-formed Unicode')
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    // The identity fields, as S1 and S3 take them (src/api/http/subject-facts.ts); an empty form field is absent.
    date_of_birth: emptyIsAbsent(DateOfBirthField),
    nationality: emptyIsAbsent(NationalityField),
    identifiers: IdentifiersField.optional(),
    phone: emptyIsAbsent(PhoneField),
    email: emptyIsAbsent(EmailField),
    address: PostalAddressSchema.optional(),
    /** EDD declarations or M&A deal fields (the S1 EDD / M&A request fields), by kind. */
    declared: z
      .object({
        ...Object.fromEntries(EDD_FIELDS.map((f) => [f, freeText.optional()])),
        target_industry: freeText.optional(),
        acquirer_name: freeText.optional(),
        deal_type: z.enum(['acquisition', 'merger', 'joint_venture', 'restructuring']).optional(),
        deal_value: freeText.optional(),
        additional_context: freeText.optional(),
      })
      .strict()
      .optional()
      .openapi({
        description: `EDD: ${EDD_FIELDS.join(', ')}. M&A: ${MA_FIELDS.join(', ')}. A non-empty field of another kind (or any on CDD) is a 400.`,
      }),
  })
  .strict()
  .superRefine((v, ctx) => {
    const allowed: readonly string[] = v.kind === 'edd' ? EDD_FIELDS : v.kind === 'ma' ? MA_FIELDS : [];
    for (const [key, value] of Object.entries(v.declared ?? {})) {
      if (value !== undefined && value !== '' && !allowed.includes(key)) {
        ctx.addIssue({ code: 'custom', path: ['declared', key], message: `is not a ${v.kind.toUpperCase()} field` });
      }
    }
  })
  .openapi('PortalScreeningRequest');

export const PortalScreeningListSchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']).optional().or(z.literal('').transform(() => undefined)),
    type: z.enum(['cdd', 'edd', 'ma', 'sow', 'CDD', 'EDD', 'MA', 'SOW']).optional().or(z.literal('').transform(() => undefined)),
    q: z.string().trim().max(300).optional().openapi({ description: 'Search by screened name.' }),
  })
  .strict();

/** The analyst's work queue (GET /api/portal/queue): filters and paging. */
export const PortalQueueQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(25),
    level: z.enum(['low', 'medium', 'high', 'critical']).optional().or(z.literal('').transform(() => undefined)),
    surface: z.enum(['s1', 's3', 'portal']).optional().or(z.literal('').transform(() => undefined)).openapi({ description: 'Where the screening was requested.' }),
    list: z
      .string()
      .regex(/^([a-z0-9_]{1,40}|internal_list:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/, 'must be a list id (e.g. ofac_sdn) or internal_list:<watchlist id>')
      .optional()
      .or(z.literal('').transform(() => undefined))
      .openapi({ description: 'A list id (e.g. ofac_sdn, or internal_list:<watchlist id>): only cases with an undecided hit whose entity is on that list, among any of its lists (a merged hit is on several).' }),
    needs_more_information: z
      .enum(['true', 'false'])
      .optional()
      .or(z.literal('').transform(() => undefined))
      .openapi({ description: 'true: only cases with a hit an analyst marked "needs more information".' }),
    assignee: z
      .union([z.enum(['me', 'unassigned']), z.string().trim().toLowerCase().email().max(320)])
      .optional()
      .or(z.literal('').transform(() => undefined))
      .openapi({ description: '`me` (the signed-in user), `unassigned`, or the e-mail of a user of the account.' }),
  })
  .strict();

export const PortalAssignmentSchema = z
  .object({
    assignee: z
      .string()
      .trim()
      .email('must be an e-mail address')
      .max(320)
      .nullable()
      .openapi({ description: 'The e-mail of a user of this account, or null to unassign. Another account\'s user is refused (400).' }),
  })
  .strict()
  .openapi('PortalAssignmentRequest');

/** What the screening routes accept as `:id` (numeric id or uuid, any case); checked in the route, 400 otherwise. No regex flags: the OpenAPI pattern is this source. */
export const PORTAL_SCREENING_ID = /^([1-9][0-9]{0,15}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export const PortalScreeningParamsSchema = z.object({
  id: z.string().regex(PORTAL_SCREENING_ID).openapi({ description: 'The screening\'s numeric id or its uuid (own screenings only).' }),
});

export const PortalDispositionSchema = z
  .object({
    status: z.enum(['true_match', 'false_positive', 'needs_more_information']).openapi({
      description: 'true_match or false_positive decide the hit; needs_more_information records what is missing and leaves it undecided (still counted, still in the queue, marked).',
    }),
    reason: z.string().trim().min(1, 'is required').max(2000).openapi({ description: 'Mandatory comment: why, or what information is needed.' }),
  })
  .strict()
  .openapi('PortalDispositionRequest');

/** GET /api/portal/screenings/:id/report.pdf: the zone its times are written in (the portal sends the reader's). */
export const PortalReportPdfQuerySchema = z
  .object({
    time_zone: z
      .string()
      .max(64, 'must be at most 64 characters')
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/London or UTC')
      .optional()
      .openapi({ description: 'IANA time zone of the report\'s dates and times (default UTC), e.g. Europe/London.' }),
  })
  .strict();

/** A bulk decision (POST /api/portal/screenings/:id/dispositions): one decision, one comment, several hits. */
export const PortalBulkDispositionSchema = z
  .object({
    hit_ids: z
      .array(z.string().min(1, 'must not be empty').max(600, 'must be at most 600 characters'))
      .min(1, 'must name at least one hit')
      .max(100, 'must name at most 100 hits')
      .refine((ids) => new Set(ids).size === ids.length, 'must not name a hit twice')
      .openapi({ description: 'hit_ids of the screening (1-100, each once).' }),
    status: PortalDispositionSchema.shape.status,
    reason: PortalDispositionSchema.shape.reason.openapi({ description: 'Mandatory comment, recorded with each hit\'s decision.' }),
  })
  .strict()
  .openapi('PortalBulkDispositionRequest');

// ---------------------------------------------------------------- S2 subject checks

export const portalSubjectCheckStatuses = ['running', 'needs_review', 'escalated', 'completed', 'failed'] as const;

export const PortalSubjectCheckListSchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    status: z.enum(portalSubjectCheckStatuses).optional().or(z.literal('').transform(() => undefined)),
    q: z.string().trim().max(300).optional().openapi({ description: 'Search by the subject\'s name (first, middle, last).' }),
  })
  .strict();

export const PortalSubjectCheckParamsSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer').openapi({ description: 'The S2 subject_check_id (own checks only).' }),
});
