/**
 * S3 request schemas (X-API-Key surface and portal). The router validates with these through
 * parseInput and registerS3 (./openapi.ts) documents the very same objects. S3 answers 400
 * `{error, details}` for every validation problem (no 422), `details` naming each field.
 */
import { z } from '../openapi/zod';
import { screenableNameCheck } from '../http/validation';
import { CddRequestSchema, EddRequestSchema } from '../s1/schemas';
import { boundedText, PostalAddressSchema, subjectFactFields } from '../http/subject-facts';

// C0/C1 control characters; free text may keep tab and line breaks.
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const NAME_MAX = 200;
export const SHORT_TEXT_MAX = 100;
export const FREE_TEXT_MAX = 5000;

/** S3's names and short values: the one text rule of every surface (subject-facts.ts). */
export const nameText = boundedText;

export function freeText(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL_EXCEPT_LINE_BREAKS.test(s), 'must not contain control characters other than tab and line breaks')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode');
}

function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.string().pipe(z.enum(values)).openapi({ type: 'string', enum: [...values] });
}

const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => {
    const [y, m, d] = s.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'must be a real calendar date')
  .openapi({ type: 'string', format: 'date', example: '2025-11-30' });

const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD').openapi({ example: 'USD' });
const amount = z.number().finite().min(0, 'must be 0 or more').max(1e13, 'must be at most 10^13');

// ---------------------------------------------------------------- keys

export const CreateKeySchema = z
  .strictObject({
    name: nameText(1, 100).openapi({ description: 'A label for the key, 1-100 characters.', example: 'production server' }),
  })
  .openapi('S3CreateKeyRequest');

export const KeyIdParamsSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer').openapi({ param: { name: 'id', in: 'path' }, example: '7' }),
});

// ---------------------------------------------------------------- screenings

/** CDD and EDD take the S1 bodies unchanged: one integration works on both surfaces. */
export const S3CddRequestSchema = CddRequestSchema;
export const S3EddRequestSchema = EddRequestSchema;

/** M&A (spec part 4, S3): `query` required, `entity_type` default company, `jurisdiction`; optional S1 deal fields. */
export const S3MaRequestSchema = z
  .strictObject({
    query: nameText(2, NAME_MAX).superRefine(screenableNameCheck).openapi({ description: 'Target company name, at least 2 characters.', example: 'Acme Holdings plc' }),
    entity_type: choice(['company', 'organization', 'individual']).default('company').openapi({ default: 'company' }),
    jurisdiction: nameText(1, SHORT_TEXT_MAX).optional().openapi({ description: 'Country or state code.', example: 'GB' }),
    ...subjectFactFields,
    address: PostalAddressSchema.optional(),
    target_industry: nameText(1, SHORT_TEXT_MAX).optional(),
    acquirer_name: nameText(1, NAME_MAX).optional(),
    deal_type: choice(['acquisition', 'merger', 'joint_venture', 'restructuring']).optional(),
    deal_value: nameText(1, SHORT_TEXT_MAX).optional(),
    additional_context: freeText(0, FREE_TEXT_MAX).optional(),
    monitor: z.boolean().optional().openapi({ description: 'Extension: enrol the subject in ongoing monitoring when the screening completes (see POST /api/v1/screening/{id}/monitoring).' }),
  })
  .openapi('S3MaRequest');

export const wealthSourceTypes = ['employment', 'business_ownership', 'inheritance', 'investment_portfolio', 'property', 'other'] as const;
export const evidenceTypes = [
  'employment_contract',
  'payslip',
  'employer_letter',
  'tax_return',
  'bank_statement',
  'company_registry_extract',
  'shareholder_register',
  'audited_accounts',
  'sale_agreement',
  'grant_of_probate',
  'will',
  'estate_accounts',
  'solicitor_letter',
  'brokerage_statement',
  'custody_statement',
  'title_deed',
  'land_registry_extract',
  'valuation_report',
  'mortgage_statement',
  'other',
] as const;

export const EvidenceSchema = z
  .strictObject({
    type: choice(evidenceTypes),
    issuer: nameText(1, NAME_MAX).optional().openapi({ description: 'Who issued the document (employer, bank, registry, court…).' }),
    reference: nameText(1, SHORT_TEXT_MAX).optional().openapi({ description: 'Document number or file reference.' }),
    issued_on: calendarDate.optional(),
  })
  .openapi('S3SowEvidence');

export const WealthSourceSchema = z
  .strictObject({
    type: choice(wealthSourceTypes),
    description: freeText(1, 1000).openapi({ description: 'What the source is, in the subject\'s words.' }),
    amount: amount.optional().openapi({ description: 'Wealth attributed to this source.' }),
    currency: currency.optional(),
    counterparty: nameText(2, NAME_MAX)
      .optional()
      .openapi({ description: 'Employer, company owned, decedent, broker or property address; screened against our lists.' }),
    evidence: z.array(EvidenceSchema).max(20, 'at most 20 documents per source').default([]),
  })
  .openapi('S3SowWealthSource');

export const AttestationSchema = z
  .strictObject({
    signed: z.boolean(),
    signatory_name: nameText(2, NAME_MAX),
    signed_on: calendarDate,
    statement: freeText(10, 2000).openapi({ description: 'The subject\'s statement that the declaration is true and complete.' }),
  })
  .openapi('S3SowAttestation');

/** SOW (spec leaves the body open): subject as in CDD, the declaration, its sources with evidence, the attestation. */
export const S3SowRequestSchema = z
  .strictObject({
    query: nameText(2, NAME_MAX).superRefine(screenableNameCheck).openapi({ description: 'The subject whose wealth is verified.', example: 'Jane Example' }),
    entity_type: choice(['individual', 'company']).default('individual').openapi({ default: 'individual' }),
    jurisdiction: nameText(1, SHORT_TEXT_MAX).optional().openapi({ description: 'Country of residence (name or ISO code); selects the requirements group.' }),
    declared_source_of_wealth: freeText(3, FREE_TEXT_MAX).openapi({ description: 'How the subject says the wealth was built.' }),
    monitor: z.boolean().optional().openapi({ description: 'Extension: enrol the subject in ongoing monitoring when the screening completes (see POST /api/v1/screening/{id}/monitoring).' }),
    declared_net_worth: z.strictObject({ amount, currency }).optional(),
    occupation: nameText(1, SHORT_TEXT_MAX).optional(),
    employer: nameText(1, NAME_MAX).optional(),
    wealth_sources: z.array(WealthSourceSchema).min(1, 'at least one wealth source').max(20, 'at most 20 wealth sources'),
    attestation: AttestationSchema.optional(),
  })
  .openapi('S3SowRequest');

export type S3SowRequest = z.infer<typeof S3SowRequestSchema>;

export const ScreeningUuidParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a screening uuid')
    .openapi({ param: { name: 'id', in: 'path' }, description: 'The screening uuid (S3 id).' }),
});

export const S3ListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  type: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['cdd', 'edd', 'ma', 'sow']))
    .optional()
    .openapi({ type: 'string', enum: ['CDD', 'EDD', 'MA', 'SOW'], description: 'Case-insensitive.' }),
});

// ---------------------------------------------------------------- portal

export const SignInSchema = z
  .strictObject({
    email: z.string().trim().min(3).max(254).email('must be an e-mail address'),
    password: z.string().min(1, 'is required').max(1000),
  })
  .openapi('PortalSignInRequest');

export const WebhookEndpointSchema = z
  .strictObject({ url: z.string().trim().min(1).max(2048).openapi({ description: 'HTTPS URL receiving screening.completed.' }) })
  .openapi('PortalWebhookEndpointRequest');
