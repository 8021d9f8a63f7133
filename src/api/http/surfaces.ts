import type { Request } from 'express';

/**
 * One deployment serves all three surfaces; the credential a request carries picks the surface,
 * and with it the envelope, the error shapes and the limits:
 * - `Authorization: Bearer svc_…`          → S1 screening API
 * - `Authorization: Bearer svca_…`         → S2 subject-check API
 * - `X-API-Key: svcc_live_…` (or `svc_…`)  → S3 enterprise API
 * - cookie `auth_token` on /api/account/*  → S2 session (account key endpoints)
 * - cookie `token` / Bearer JWT on /api/*  → portal (S3 JWT)
 * When a request carries no credential, the path decides which surface's errors it gets.
 */
export type ApiSurface = 's1' | 's2' | 's2_session' | 's3' | 'portal';

export { S1_KEY_PATTERN, S2_KEY_PATTERN, S3_KEY_PATTERN } from '../../commands/api-keys/key-format';

const S3_ONLY_PATHS = [/^\/api\/v1\/keys(\/|$)/, /^\/api\/v1\/usage(\/|$)/, /^\/api\/v1\/screening\/sow(\/|$)/];

/** A cookie of the request, URL-decoded when it can be (the raw value otherwise); undefined when absent. */
export function cookieValue(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function surfaceOf(req: Request): ApiSurface {
  const path = req.path;
  if (path.startsWith('/api/account')) return 's2_session';
  if (path.startsWith('/api/v1/compliance')) return 's2';
  if (path.startsWith('/api/v1')) {
    if (req.headers['x-api-key'] !== undefined) return 's3';
    const token = bearerToken(req);
    if (token?.startsWith('svca_')) return 's2';
    if (token?.startsWith('svc_')) return 's1';
    if (S3_ONLY_PATHS.some((p) => p.test(path))) return 's3';
    return 's1';
  }
  return 'portal';
}
