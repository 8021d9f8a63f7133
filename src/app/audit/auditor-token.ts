/**
 * Short-lived auditor tokens for surfaces whose credential carries no role (S1 keys): a user of the
 * key's account with role `auditor` proves who they are (e-mail and password, through AccountService)
 * and gets an HS256 JWT (audience `svc_auditor`, 15 minutes) to send as `X-Auditor-Token` next to the
 * account's key. The key says which account; the token says which auditor.
 */
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../shared/clock';
import type { AccountService, Principal } from '../services';
import { AUDITOR_ROLE } from './history';

const AUDIENCE = 'svc_auditor';
const ISSUER = 'svc';

export class AuditorTokens {
  private readonly key: Uint8Array;

  constructor(private readonly deps: { secret: string; clock: Clock; accounts: Pick<AccountService, 'signIn'>; lifetimeSeconds?: number }) {
    if (deps.secret.length < 32) throw new RangeError('auditor token secret must be at least 32 characters');
    this.key = new TextEncoder().encode(deps.secret);
  }

  /**
   * Signs in a user of `accountId`. `undefined`: wrong credentials or another account's user (the
   * same answer, so it reveals nothing); 'not_auditor': right user, wrong role.
   */
  async issue(accountId: string, email: string, password: string): Promise<{ token: string; expiresAt: string; userId: string } | 'not_auditor' | undefined> {
    const user = await this.deps.accounts.signIn(email, password);
    if (!user || user.accountId !== accountId || !user.userId) return undefined;
    if (!user.roles.includes(AUDITOR_ROLE)) return 'not_auditor';
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const exp = now + (this.deps.lifetimeSeconds ?? 900);
    const token = await new SignJWT({ acc: accountId, roles: [AUDITOR_ROLE] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000).toISOString(), userId: user.userId };
  }

  /** The auditor principal for a token presented with a credential of `accountId`, or undefined. */
  async verify(token: string | undefined, accountId: string, plan: Principal['plan']): Promise<Principal | undefined> {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key, { audience: AUDIENCE, issuer: ISSUER, algorithms: ['HS256'], currentDate: this.deps.clock.now() });
      if (payload.acc !== accountId || typeof payload.sub !== 'string') return undefined;
      const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
      return { accountId, plan, userId: payload.sub, roles, surface: 's1' };
    } catch {
      return undefined;
    }
  }
}
