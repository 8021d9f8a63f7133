/**
 * The zod schemas the portal's console routes (/api/portal/*) validate with. They live here, built
 * with the OpenAPI-extended `z`, so the routes (parseInput / safeParse) and the OpenAPI registration
 * (./openapi.ts, registerPortal) use the very same objects.
 */
import { z } from '../openapi/zod';
import { screenableNameCheck } from '../http/validation';

export const portalKeySurfaces = ['s1', 's2', 's3'] as const;

const positiveId = z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer');

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

const text = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');

export const EDD_FIELDS = ['source_of_wealth', 'source_of_funds', 'purpose_of_relationship', 'beneficial_ownership', 'pep_relationships'] as const;
export const MA_FIELDS = ['target_industry', 'acquirer_name', 'deal_type', 'deal_value', 'additional_context'] as const;
const freeText = z.string().trim().max(4000, 'must be at most 4000 characters');

export const PortalScreeningRequestSchema = z
  .object({
    kind: z.enum(['cdd', 'edd', 'ma']).default('cdd').openapi({ description: 'EDD needs Professional or Enterprise, M&A Enterprise (403 otherwise).' }),
    query: text(2, 300).superRefine(screenableNameCheck),
    entity_type: z.enum(['individual', 'company', 'organization']).default('individual').openapi({ description: 'M&A always screens the target as a company.' }),
    jurisdiction: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
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

/** What the screening routes accept as `:id` (numeric id or uuid, any case); checked in the route, 400 otherwise. No regex flags: the OpenAPI pattern is this source. */
export const PORTAL_SCREENING_ID = /^([1-9][0-9]{0,15}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export const PortalScreeningParamsSchema = z.object({
  id: z.string().regex(PORTAL_SCREENING_ID).openapi({ description: 'The screening\'s numeric id or its uuid (own screenings only).' }),
});

export const PortalDispositionSchema = z
  .object({
    status: z.enum(['true_match', 'false_positive']),
    reason: z.string().trim().min(1, 'is required').max(2000),
  })
  .strict()
  .openapi('PortalDispositionRequest');

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
