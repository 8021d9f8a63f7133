import { StreamRevisionConflictError } from '../../infrastructure/eventstore/port';
import { isTransient } from '../../infrastructure/eventstore/postgres/subscription';
import { ApiError, type FailureKind } from './errors';
import { Overloaded } from '../../app/screenings/admission';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Domain errors carry a stable `code`; this table is where they meet HTTP. */
const domainCodeToKind: Record<string, FailureKind> = {
  not_found: 'not_found',
  plan_required: 'plan_required',
  forbidden: 'forbidden',
  conflict: 'conflict',
  illegal_transition: 'conflict',
  limit_exceeded: 'validation',
  validation_failed: 'validation',
  quota_exceeded: 'quota_exceeded',
  lists_stale: 'lists_stale',
};

/** Seconds a client is asked to wait while the database is unreachable (a restart or fail-over takes a few). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** A connection-level failure anywhere in the error's cause chain (the database is down or restarting). */
function isOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (isTransient(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Overloaded) return new ApiError('overloaded', error.message, { retryAfterSeconds: error.retryAfterSeconds });
  if (isOutage(error)) {
    return new ApiError('unavailable', 'The service is temporarily unavailable; retry after the Retry-After seconds', {
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
  }
  if (error instanceof StreamRevisionConflictError) {
    return new ApiError('conflict', 'The resource was changed by another request; reload and retry');
  }
  const bodyError = error as BodyParserError;
  if (bodyError && typeof bodyError === 'object') {
    if (bodyError.type === 'entity.too.large') return new ApiError('payload_too_large', 'Request body is too large');
    if (bodyError.type === 'entity.strict.failed') {
      const message = (error as { message?: unknown }).message;
      return new ApiError('bad_request', typeof message === 'string' ? message : 'Request body is refused', { errors: [typeof message === 'string' ? message : 'body: refused'] });
    }
    if (bodyError.type === 'entity.parse.failed') return new ApiError('bad_request', 'Request body is not valid JSON');
    if (bodyError.type === 'encoding.unsupported' || bodyError.type === 'charset.unsupported') {
      return new ApiError('unsupported_media_type', 'Unsupported body encoding');
    }
  }
  const domain = error as { code?: unknown; message?: unknown; issues?: unknown };
  if (domain && typeof domain.code === 'string' && domain.code in domainCodeToKind) {
    const message = typeof domain.message === 'string' ? domain.message : domain.code;
    // A decider's validation problems keep their fields, so a form can show each next to its field.
    const issues = Array.isArray(domain.issues) ? (domain.issues as { field?: unknown; message?: unknown }[]).filter((i) => typeof i.field === 'string' && typeof i.message === 'string') : [];
    if (issues.length > 0) {
      const fields: Record<string, string[]> = {};
      for (const i of issues) (fields[i.field as string] ??= []).push(i.message as string);
      return new ApiError(domainCodeToKind[domain.code]!, message, { errors: issues.map((i) => `${i.field as string}: ${i.message as string}`), fields });
    }
    return new ApiError(domainCodeToKind[domain.code]!, message);
  }
  return new ApiError('internal', 'Internal error');
}
