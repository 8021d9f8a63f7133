import type { Response } from 'express';
import type { ApiSurface } from './surfaces';

/**
 * Surface-neutral reasons a request fails. Handlers throw ApiError with one of these;
 * `sendError` renders it in the caller's surface envelope. This file is the one place
 * where failures become HTTP statuses and codes.
 */
export type FailureKind =
  | 'bad_request' // malformed: not JSON, wrong types, missing required fields
  | 'validation' // well-formed but semantically invalid (S1 422)
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unauthenticated' // no credential or malformed credential
  | 'invalid_credential' // unknown, revoked or replaced credential
  | 'credential_expired'
  | 'quota_exceeded'
  | 'plan_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'rate_limited'
  | 'auth_window_exceeded'
  | 'idempotency_key_reused' // the Idempotency-Key was used with another request (other body or path)
  | 'idempotency_key_in_progress' // the first request with this Idempotency-Key is still being answered
  | 'lists_stale' // LISTS_STALE_POLICY=refuse and a list is older than its maximum age
  | 'overloaded' // the service is at capacity (backpressure): 503 with Retry-After
  | 'unavailable' // a dependency (PostgreSQL) is unreachable for now: 503 with Retry-After
  | 'internal';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly details?: { errors?: string[]; fields?: Record<string, string[]>; retryAfterSeconds?: number },
  ) {
    super(message);
  }
}

const status: Record<FailureKind, number> = {
  bad_request: 400,
  validation: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unauthenticated: 401,
  invalid_credential: 401,
  credential_expired: 401,
  quota_exceeded: 402,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  rate_limited: 429,
  auth_window_exceeded: 429,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  lists_stale: 503,
  overloaded: 503,
  unavailable: 503,
  internal: 500,
};

/** The codes S1 and S2 give the same name. */
const commonCodes = {
  payload_too_large: 'payload_too_large',
  quota_exceeded: 'quota_exceeded',
  plan_required: 'plan_required',
  // Extension: a role the caller lacks (e.g. auditor) is not a plan matter.
  forbidden: 'forbidden',
  not_found: 'not_found',
  precondition_failed: 'conflict',
  rate_limited: 'rate_limited',
  auth_window_exceeded: 'rate_limited',
  idempotency_key_reused: 'idempotency_key_reused',
  idempotency_key_in_progress: 'idempotency_key_in_progress',
  lists_stale: 'lists_stale',
  overloaded: 'service_unavailable',
  unavailable: 'service_unavailable',
} as const satisfies Partial<Record<FailureKind, string>>;

const s1Codes: Record<FailureKind, string> = {
  ...commonCodes,
  bad_request: 'invalid_request',
  validation: 'validation_failed',
  unsupported_media_type: 'invalid_request',
  unauthenticated: 'invalid_api_key',
  invalid_credential: 'invalid_api_key',
  credential_expired: 'invalid_api_key',
  conflict: 'conflict',
  internal: 'server_error',
};

const s2Codes: Record<FailureKind, string> = {
  ...commonCodes,
  bad_request: 'invalid_payload',
  validation: 'invalid_payload',
  unsupported_media_type: 'invalid_payload',
  unauthenticated: 'invalid_key_format',
  invalid_credential: 'invalid_key',
  credential_expired: 'key_expired',
  conflict: 'illegal_transition',
  internal: 'internal_error',
};

/** S1 and S2 distinguish 400 from 422 differently: S2 has only invalid_payload (400). */
function statusFor(surface: ApiSurface, kind: FailureKind): number {
  if (surface !== 's1' && kind === 'validation') return 400;
  if (surface === 's3' && kind === 'quota_exceeded') return 429; // S3: monthly quota → 429 {message}
  return status[kind];
}

export function sendError(res: Response, surface: ApiSurface, error: ApiError, requestId: string): void {
  const code = statusFor(surface, error.kind);
  if (error.details?.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.details.retryAfterSeconds))));
  }
  // Never leak internals: a 500 says only that something failed and which request to quote.
  const message = error.kind === 'internal' ? `Internal error (request ${requestId})` : error.message;
  switch (surface) {
    case 's1':
      res.status(code).json({ success: false, message, code: s1Codes[error.kind], ...(error.details?.errors ? { errors: error.details.errors } : {}) });
      return;
    case 's2':
      res.status(code).json({ error: { code: s2Codes[error.kind], message, ...(error.details?.errors ? { errors: error.details.errors } : {}) } });
      return;
    case 's2_session':
      res.status(code).json({ success: false, message });
      return;
    case 's3':
    case 'portal':
      if (code === 429) {
        res.status(code).json({ message });
      } else if (code === 400 || code === 413 || code === 415) {
        res.status(code).json({ error: message, details: error.details?.fields ?? error.details?.errors ?? [] });
      } else {
        res.status(code).json({ error: message });
      }
      return;
  }
}

/**
 * A malformed path parameter or field (400), with its problem in the detail each surface renders:
 * `errors: ["<field>: <problem>"]` on S1/S2, `details: {<field>: [<problem>]}` on S3 and the portal.
 */
export function invalidField(field: string, problem: string): ApiError {
  return new ApiError('bad_request', `${field}: ${problem}`, { errors: [`${field}: ${problem}`], fields: { [field]: [problem] } });
}
