/**
 * Session tokens for signed-in users: HS256 JWTs (jose) keyed with JWT_SECRET. Generic on purpose:
 * the S2 account endpoints use it with audience `s2_session` and cookie `auth_token`, and the S3
 * portal can use it with its own audience, cookie and lifetime; a token minted for one audience is
 * refused by the other.
 *
 * Tokens are stateless, but signing out must end a session at once: the token id (jti) of a
 * signed-out token is kept in `session_revocations` until the token would have expired anyway.
 * Time comes from the injected Clock (jose gets it as `currentDate`), so tests drive expiry.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../shared/clock';

/** Used only when JWT_SECRET is unset (config requires it in production). */
export const DEV_JWT_SECRET = 'embedded-development-jwt-secret-change-me-0123456789';

export interface SessionSubject {
  accountId: string;
  userId: string;
  roles: string[];
}

export interface Session extends SessionSubject {
  /** Token id: what sign-out revokes. */
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

export type SessionFailure = 'missing' | 'invalid' | 'expired' | 'revoked';

export interface SessionServiceOptions {
  pool: pg.Pool;
  clock: Clock;
  /** HS256 key; at least 32 characters. */
  secret: string;
  /** Which surface the token is for (`s2_session`, `portal`…): checked on every verification. */
  audience: string;
  lifetimeSeconds: number;
  issuer?: string;
}

const ALGORITHM = 'HS256';
const NUMERIC = /^[1-9][0-9]{0,18}$/;

export class JwtSessionService {
  private readonly key: Uint8Array;
  private readonly issuer: string;

  constructor(private readonly options: SessionServiceOptions) {
    if (options.secret.length < 32) throw new RangeError('session secret must be at least 32 characters');
    if (!Number.isInteger(options.lifetimeSeconds) || options.lifetimeSeconds <= 0) throw new RangeError('lifetimeSeconds must be a positive integer');
    this.key = new TextEncoder().encode(options.secret);
    this.issuer = options.issuer ?? 'svc';
  }

  get audience(): string {
    return this.options.audience;
  }

  get lifetimeSeconds(): number {
    return this.options.lifetimeSeconds;
  }

  async issue(subject: SessionSubject): Promise<{ token: string; session: Session }> {
    const now = this.options.clock.now();
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = issuedAt + this.options.lifetimeSeconds;
    const jti = randomUUID();
    const token = await new SignJWT({ acc: subject.accountId, roles: subject.roles })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject.userId)
      .setIssuer(this.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(jti)
      .sign(this.key);
    return {
      token,
      session: { ...subject, jti, issuedAt: new Date(issuedAt * 1000), expiresAt: new Date(expiresAt * 1000) },
    };
  }

  /** Checks signature, algorithm, issuer, audience, expiry and revocation. Never throws for bad input. */
  async verify(token: string | undefined): Promise<{ ok: true; session: Session } | { ok: false; reason: SessionFailure }> {
    if (token === undefined || token === '') return { ok: false, reason: 'missing' };
    if (token.length > 4096) return { ok: false, reason: 'invalid' };
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: this.options.audience,
        currentDate: this.options.clock.now(),
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      }));
    } catch (error) {
      return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
    }
    const accountId = payload.acc;
    const roles = payload.roles;
    if (
      typeof accountId !== 'string' ||
      !NUMERIC.test(accountId) ||
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      !Array.isArray(roles) ||
      !roles.every((r) => typeof r === 'string')
    ) {
      return { ok: false, reason: 'invalid' };
    }
    const revoked = await this.options.pool.query('SELECT 1 FROM session_revocations WHERE jti = $1', [payload.jti]);
    if (revoked.rowCount) return { ok: false, reason: 'revoked' };
    return {
      ok: true,
      session: {
        accountId,
        userId: payload.sub,
        roles: roles as string[],
        jti: payload.jti,
        issuedAt: new Date(payload.iat! * 1000),
        expiresAt: new Date(payload.exp! * 1000),
      },
    };
  }

  /** Ends a session at once (sign-out). Idempotent; a token that does not verify is ignored. */
  async revoke(token: string | undefined): Promise<boolean> {
    const verified = await this.verify(token);
    if (!verified.ok) return false;
    const now = this.options.clock.now();
    await this.options.pool.query(
      `INSERT INTO session_revocations (jti, audience, revoked_at, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (jti) DO NOTHING`,
      [verified.session.jti, this.options.audience, now, verified.session.expiresAt],
    );
    // Revocations of tokens that expired on their own are no longer needed.
    await this.options.pool.query('DELETE FROM session_revocations WHERE expires_at <= $1', [now]);
    return true;
  }
}

export interface SessionCookieOptions {
  httpOnly: true;
  secure: true;
  sameSite: 'lax';
  path: string;
  maxAge: number;
}

/**
 * Cookie attributes of a session cookie: HttpOnly (no script access), Secure (HTTPS only),
 * SameSite=Lax (not sent on cross-site POSTs), scoped to the paths that read it.
 * `maxAge` is in milliseconds (express res.cookie).
 */
export function sessionCookieOptions(path: string, lifetimeSeconds: number): SessionCookieOptions {
  return { httpOnly: true, secure: true, sameSite: 'lax', path, maxAge: lifetimeSeconds * 1000 };
}
