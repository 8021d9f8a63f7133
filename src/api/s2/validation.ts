/**
 * S2 input validation: every problem becomes one message in the `errors` list of 400 invalid_payload,
 * each starting with the field it is about (`first_name: is required`). A body that is not a JSON
 * object is validated as `{}` as well, so the caller still learns every required field at once.
 */
import type { z } from 'zod';
import { ApiError } from '../http/errors';

/** What to say when a required top-level field is absent (the spec names location and consent). */
const missingMessages: Record<string, string> = {
  locations: 'at least one location {country, region?, city?} is required',
  consent: 'consent must be certified ({"certified": true})',
};

export function s2Issues(schema: z.ZodType, input: unknown, prefix = ''): { ok: true; data: unknown } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  let value = input;
  const expectsObject = (schema as { def?: { type?: string } }).def?.type === 'object';
  if (expectsObject && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    // No body at all usually means a missing `Content-Type: application/json`: say so.
    errors.push(`${prefix || 'body'}: must be a JSON object${input === undefined && !prefix ? ' (send it with Content-Type: application/json)' : ''}`);
    value = {};
  }
  const result = schema.safeParse(value);
  if (result.success && errors.length === 0) return { ok: true, data: result.data };
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
      const field = prefix ? (path ? `${prefix}.${path}` : prefix) : path || 'body';
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) errors.push(`${prefix ? `${prefix}.` : ''}${path ? `${path}.` : ''}${key}: unknown field`);
        continue;
      }
      if (issue.code === 'invalid_type' && issue.input === undefined) {
        const top = String(issue.path[0] ?? '');
        errors.push(`${field}: ${issue.path.length === 1 && missingMessages[top] ? missingMessages[top] : 'is required'}`);
        continue;
      }
      // One message per field: the first problem found (a value too long and also malformed is one problem to fix).
      if (!errors.some((e) => e.startsWith(`${field}: `))) errors.push(`${field}: ${issue.message}`);
    }
  }
  return { ok: false, errors };
}

/** Parses or throws 400 invalid_payload listing every problem. */
export function parseS2<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const checked = s2Issues(schema, input);
  if (checked.ok) return checked.data as z.infer<S>;
  throw new ApiError('bad_request', `The payload is invalid: ${checked.errors.length} problem${checked.errors.length === 1 ? '' : 's'}, listed in errors`, { errors: checked.errors });
}
