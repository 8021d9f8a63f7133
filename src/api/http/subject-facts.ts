/**
 * The facts that confirm or clear a hit (issue 27), as every surface takes them: the same names and
 * formats on S1 and S3 (CDD, EDD, M&A), the portal's screening form, S2 subject checks and person
 * checks. A date of birth or an identifier that agrees with a listed record confirms a hit; one that
 * contradicts every listed date separates a namesake; phone and e-mail are compared with listed
 * ones and weighed by the account's internal lists. All optional: a request without them is as valid
 * as before. Each field is one zod schema, so the formats cannot drift between surfaces.
 *
 * On S1 a value of the wrong JSON type is a 400 and a value that breaks a rule a 422 (parseInput);
 * S3, S2 and the portal answer 400 for both, each in its own envelope.
 */
import { z } from '../openapi/zod';
import { isEmailAddress, isPartialBirthDate, isPhoneNumber, SUBJECT_IDENTIFIER_TYPES } from '../../commands/screening/decider';
import type { ScreeningRequestInput } from '../../app/services';

type SubjectAddressInput = NonNullable<ScreeningRequestInput['address']>;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// An unpaired UTF-16 surrogate (possible through JSON "\ud800" escapes) is not a character.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A name or short value (an address's parts, S1's names): trimmed, no control characters, well-formed Unicode. */
export function boundedText(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode');
}

/** YYYY, YYYY-MM or YYYY-MM-DD, a real calendar date ("not in the future" is the decider's check, on the service clock). */
export const DateOfBirthField = z
  .string()
  .trim()
  .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD')
  .refine((v) => isPartialBirthDate(v, '9999-12-31'), 'must be a real calendar date')
  .openapi({
    description:
      'Extension (issue 27). Individuals: full date, year-month or year. A full date equal to a listed one, or within a listed year or range, confirms a hit; one that agrees with no listed date makes it a likely namesake (at most medium).',
    example: '1952-10-07',
  });

export const NationalityField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
  .openapi({ description: 'Extension (issue 27). ISO 3166-1 alpha-2. Weak evidence on its own when the name is common in that country.', example: 'RU' });

export const IdentifierField = z
  .object({
    type: z.enum(SUBJECT_IDENTIFIER_TYPES),
    value: z
      .string()
      .trim()
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} ./-]{0,63}$/u, 'must be 1-64 letters, digits, spaces, dots, slashes or dashes'),
  })
  .strict();

export const IdentifiersField = z
  .array(IdentifierField)
  .max(10, 'must have at most 10 entries')
  .openapi({
    description:
      'Extension (issue 27). Passport, national id, tax id, registration number, IMO, LEI: one equal to a listed identifier confirms a hit; a different one separates a namesake.',
    example: [{ type: 'passport', value: 'AB1234567' }],
  });

export const PhoneField = z
  .string()
  .max(40, 'must be at most 40 characters')
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine((v) => isPhoneNumber(v), 'must be a phone number: 6-15 digits, optionally a leading + (spaces, dots, dashes, slashes and brackets allowed)')
  .transform((v) => v.trim())
  .openapi({ type: 'string', description: 'Extension (issue 27). As given, E.164 preferred. Compared with listed phone numbers; the account\'s internal lists weigh it.', example: '+44 20 7946 0958' });

export const EmailField = z
  .string()
  .max(254, 'must be at most 254 characters')
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine((v) => isEmailAddress(v), 'must be an e-mail address')
  .transform((v) => v.trim())
  .openapi({ type: 'string', description: 'Extension (issue 27). Compared with listed e-mail addresses; the account\'s internal lists weigh it.', example: 'j.doe@example.com' });

/**
 * The subject's postal address (issues 21 and 30), one schema for every surface that takes one (S1
 * and S3 screenings, the portal's form, S2 subject checks, person checks): the account's internal
 * lists weigh it (the same dwelling corroborates a match, another place counts against it); the
 * official lists do not use it. `region` is the state, province or county, the name the internal
 * lists' own entries use for it: a caller whose file keeps the state apart sends it here rather
 * than joined to the line.
 */
export const PostalAddressSchema = z
  .strictObject({
    line: boundedText(1, 300).optional().openapi({ description: 'Street address, e.g. "12 Baker St, Flat 3". A whole address on one line ("12 Main St Apt 4, Reno NV 89501") is read part by part.' }),
    city: boundedText(1, 100).optional(),
    region: boundedText(1, 100).optional().openapi({ description: 'Extension (issue 30): state, province or county, a code or a name ("NV", "Nevada", "Ontario").', example: 'NV' }),
    postal_code: boundedText(1, 20).optional(),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
      .optional()
      .openapi({ description: 'ISO 3166-1 alpha-2.', example: 'GB' }),
  })
  .refine(
    (a) => a.line !== undefined || a.city !== undefined || a.region !== undefined || a.postal_code !== undefined || a.country !== undefined,
    'needs at least one of line, city, region, postal_code, country',
  )
  .openapi('PostalAddress', {
    description:
      "The subject's postal address, taken by S1 and S3 screenings, the portal's form and, since issue 30, S2 subject checks and person checks (an extension there). The account's internal lists weigh it (the same dwelling corroborates a match, another place counts against it); the official lists and the other sources do not use it. A subject check or a person check does not show it back.",
  });

/** A parsed PostalAddress as the services take it (absent parts stay absent). */
export function addressInput(a: z.infer<typeof PostalAddressSchema> | undefined): { address: SubjectAddressInput } | Record<string, never> {
  if (!a) return {};
  return {
    address: {
      ...(a.line ? { line: a.line } : {}),
      ...(a.city ? { city: a.city } : {}),
      ...(a.region ? { region: a.region } : {}),
      ...(a.postal_code ? { postalCode: a.postal_code } : {}),
      ...(a.country ? { country: a.country } : {}),
    },
  };
}

/** The identity fields a screening request takes (the address has its own schema on each surface). */
export const subjectFactFields = {
  date_of_birth: DateOfBirthField.optional(),
  nationality: NationalityField.optional(),
  identifiers: IdentifiersField.optional(),
  phone: PhoneField.optional(),
  email: EmailField.optional(),
};

type ParsedFacts = {
  date_of_birth?: string;
  nationality?: string;
  identifiers?: { type: string; value: string }[];
  phone?: string;
  email?: string;
};

/** The parsed identity fields as the screening service takes them (absent stays absent). */
export function subjectFactsInput(f: ParsedFacts): Pick<ScreeningRequestInput, 'dateOfBirth' | 'nationality' | 'identifiers' | 'phone' | 'email'> {
  return {
    ...(f.date_of_birth ? { dateOfBirth: f.date_of_birth } : {}),
    ...(f.nationality ? { nationality: f.nationality } : {}),
    ...(f.identifiers?.length ? { identifiers: f.identifiers.map((i) => ({ type: i.type, value: i.value })) } : {}),
    ...(f.phone ? { phone: f.phone } : {}),
    ...(f.email ? { email: f.email } : {}),
  };
}
