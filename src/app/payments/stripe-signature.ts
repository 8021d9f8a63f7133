/**
 * Stripe's webhook signature scheme, verified exactly:
 *   header  `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`
 *   signed  `${t}.${raw body bytes}` with HMAC-SHA256 keyed by the endpoint secret (`whsec_…`, used as is)
 *   accept  when any v1 equals the digest (constant-time) and |now − t| ≤ tolerance (Stripe's default 300 s).
 * Schemes other than v1 (v0 is a test scheme) are ignored; the body is never parsed before this passes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const STRIPE_TOLERANCE_SECONDS = 300;

export type StripeSignatureFailure = 'missing_header' | 'malformed_header' | 'no_v1_signature' | 'timestamp_outside_tolerance' | 'signature_mismatch';

export function stripeSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody).digest('hex');
}

/** Builds a header the way Stripe does (tests and local tooling). */
export function stripeSignatureHeader(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return `t=${timestamp},v1=${stripeSignature(secret, timestamp, rawBody)}`;
}

export function verifyStripeSignature(input: {
  header: string | undefined;
  rawBody: Buffer;
  secret: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): { ok: true; timestamp: number } | { ok: false; reason: StripeSignatureFailure } {
  if (!input.header) return { ok: false, reason: 'missing_header' };
  let timestamp: number | undefined;
  const v1: string[] = [];
  for (const part of input.header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed_header' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^[0-9]{1,12}$/.test(value) || timestamp !== undefined) return { ok: false, reason: 'malformed_header' };
      timestamp = Number(value);
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  if (timestamp === undefined) return { ok: false, reason: 'malformed_header' };
  if (v1.length === 0) return { ok: false, reason: 'no_v1_signature' };
  const tolerance = input.toleranceSeconds ?? STRIPE_TOLERANCE_SECONDS;
  if (Math.abs(input.nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'timestamp_outside_tolerance' };
  const expected = Buffer.from(stripeSignature(input.secret, timestamp, input.rawBody), 'hex');
  const matched = v1.some((candidate) => {
    if (!/^[0-9a-f]{64}$/.test(candidate)) return false;
    return timingSafeEqual(Buffer.from(candidate, 'hex'), expected);
  });
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'signature_mismatch' };
}
