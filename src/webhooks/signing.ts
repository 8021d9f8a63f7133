/**
 * Webhook signatures.
 *
 * S2 and S3: `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(secret, raw body bytes)>`.
 *
 * S1: the body carries its own `signature` field and the delivery attempt's Unix time travels in
 * `X-Service-Timestamp`, so the signed bytes must exclude the signature and include the time:
 *
 *     signed bytes = `${X-Service-Timestamp}` + "." + unsigned body
 *
 * where the unsigned body is the raw body with its final member `,"signature":"sha256=<64 hex>"`
 * removed (the service always serialises `signature` last, as exactly that ASCII text, directly
 * before the closing brace). A receiver recovers the unsigned body from the raw bytes it got by
 * cutting that fixed-shape suffix, without re-serialising any JSON. See docs/webhooks.md.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_PREFIX = 'sha256=';
/** Replay window a receiver should apply to X-Service-Timestamp (S1), in seconds. */
export const S1_REPLAY_WINDOW_SECONDS = 300;

/** The fixed shape of the signature member that ends every S1 body. */
const S1_SIGNATURE_SUFFIX = /,"signature":"(sha256=[0-9a-f]{64})"\}$/;

export function hmacSha256Hex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** S2/S3 header value: `sha256=` + HMAC of the exact raw body. */
export function signRawBody(secret: string, rawBody: string | Buffer): string {
  return SIGNATURE_PREFIX + hmacSha256Hex(secret, rawBody);
}

/** The exact bytes an S1 signature covers. */
export function s1SignedBytes(timestampSeconds: number | string, unsignedBody: string): string {
  return `${timestampSeconds}.${unsignedBody}`;
}

/**
 * Signs an S1 delivery attempt: returns the body to send (unsigned body + trailing signature member)
 * and the header value (identical to the body's `signature`).
 */
export function signS1(
  secret: string,
  unsignedBody: string,
  timestampSeconds: number,
): { body: string; signature: string } {
  if (!unsignedBody.startsWith('{') || !unsignedBody.endsWith('}') || unsignedBody === '{}') {
    throw new Error('S1 body must be a non-empty JSON object');
  }
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) throw new Error('timestamp must be Unix seconds');
  const signature = SIGNATURE_PREFIX + hmacSha256Hex(secret, s1SignedBytes(timestampSeconds, unsignedBody));
  return { body: `${unsignedBody.slice(0, -1)},"signature":"${signature}"}`, signature };
}

/** Recovers the unsigned body and the embedded signature from a raw S1 body, or null if it has no signature member. */
export function splitS1Body(rawBody: string): { unsignedBody: string; signature: string } | null {
  const match = S1_SIGNATURE_SUFFIX.exec(rawBody);
  if (!match) return null;
  return { unsignedBody: rawBody.slice(0, match.index) + '}', signature: match[1]! };
}

/** Constant-time comparison of two signature strings (unequal lengths compare false without leaking where). */
export function signaturesEqual(expected: string, received: string | undefined | null): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(a, a); // same work either way
    return false;
  }
  return timingSafeEqual(a, b);
}

/** Receiver-side check for S2/S3 deliveries. */
export function verifyRawBodySignature(secret: string, rawBody: string | Buffer, header: string | undefined | null): boolean {
  return signaturesEqual(signRawBody(secret, rawBody), header);
}

export type S1VerifyFailure = 'missing_timestamp' | 'stale_timestamp' | 'missing_signature' | 'bad_signature';

/** Receiver-side check for S1 deliveries (the same steps as the snippet in docs/webhooks.md). */
export function verifyS1Delivery(input: {
  secret: string;
  rawBody: string | Buffer;
  signatureHeader: string | undefined | null;
  timestampHeader: string | undefined | null;
  nowSeconds: number;
  toleranceSeconds?: number;
}): { ok: true } | { ok: false; reason: S1VerifyFailure } {
  const tolerance = input.toleranceSeconds ?? S1_REPLAY_WINDOW_SECONDS;
  const ts = input.timestampHeader ?? '';
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'missing_timestamp' };
  if (Math.abs(input.nowSeconds - Number(ts)) > tolerance) return { ok: false, reason: 'stale_timestamp' };
  const raw = typeof input.rawBody === 'string' ? input.rawBody : input.rawBody.toString('utf8');
  const parts = splitS1Body(raw);
  if (!parts || !input.signatureHeader) return { ok: false, reason: 'missing_signature' };
  const expected = SIGNATURE_PREFIX + hmacSha256Hex(input.secret, s1SignedBytes(ts, parts.unsignedBody));
  const headerOk = signaturesEqual(expected, input.signatureHeader);
  const bodyOk = signaturesEqual(expected, parts.signature);
  return headerOk && bodyOk ? { ok: true } : { ok: false, reason: 'bad_signature' };
}

/** A new signing secret: `whsec_` + 32 random bytes as hex. Shown to the integrator once per registration. */
export function generateSigningSecret(): string {
  return 'whsec_' + randomBytes(32).toString('hex');
}
