import type { z } from 'zod';
import { screenableName } from '../../screening/subject';
import { ApiError } from './errors';

/**
 * Where 400 ends and 422 begins (S1; S2 and S3 answer 400 for both):
 * - 400 invalid_request: the input cannot be read as this endpoint's input — not JSON, not an
 *   object, a required field missing, or a field of the wrong JSON type.
 * - 422 validation_failed: every field is present and well-typed, but a value breaks a rule —
 *   too short or long, not one of the allowed values, a malformed date, out of range.
 * Every problem is listed, one message per problem, naming the field.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const structural = result.error.issues.some(
    (issue) => issue.code === 'invalid_type' || issue.code === 'unrecognized_keys' || issue.code === 'invalid_union',
  );
  const errors = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : what;
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${field}: is required`;
    return `${field}: ${issue.message}`;
  });
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : what;
    (fields[field] ??= []).push(issue.input === undefined && issue.code === 'invalid_type' ? 'is required' : issue.message);
  }
  throw new ApiError(structural ? 'bad_request' : 'validation', errors.join('; '), { errors, fields });
}

/** The caller left `entity_type` out, so the surface's default applies: the list agents then search every kind. */
export function entityTypeOmitted(body: unknown): { entityTypeDefaulted?: true } {
  return body !== null && typeof body === 'object' && (body as Record<string, unknown>).entity_type === undefined ? { entityTypeDefaulted: true } : {};
}

/**
 * A name to screen must name someone: not empty, not only punctuation, not only a legal form or
 * title ("LLC", "Ltd.", "Mr."). Used as `.superRefine(screenableNameCheck)` on every surface's
 * name fields, so a junk query is refused in that surface's envelope before anything is written.
 */
export function screenableNameCheck(value: string, ctx: z.RefinementCtx): void {
  const verdict = screenableName(value);
  if (!verdict.ok) ctx.addIssue({ code: 'custom', message: verdict.reason });
}

/** The same rule on a person given as parts (first, middle, last name): the parts together must name someone. */
export function screenablePartsCheck(fields: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const full = fields.map((f) => value[f]).filter((v): v is string => typeof v === 'string').join(' ');
    const verdict = screenableName(full);
    if (!verdict.ok) ctx.addIssue({ code: 'custom', path: [fields[fields.length - 1]!], message: `${fields.join(', ')} together: ${verdict.reason}` });
  };
}
