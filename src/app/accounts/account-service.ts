import type pg from 'pg';
import { accountDecider, streamName as accountStream } from '../../commands/account';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { projectionSchema } from '../../projections/projection';
import type { Clock } from '../../shared/clock';
import { handleCommand } from '../../commands/command-handler';
import { nextId } from '../ids';
import type { AccountService, CommandContext, Plan, Principal } from '../services';
import { hashPassword, verifyPassword } from './passwords';

// A fixed hash to compare against when the e-mail is unknown, so timing does not reveal which e-mails exist.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export class PgAccountService implements AccountService {
  private readonly schema = projectionSchema('accounts');

  constructor(
    private readonly deps: { store: EventStore; pool: pg.Pool; clock: Clock; readModelsCaughtUp: () => Promise<void> },
  ) {}

  async create(input: { name: string; email: string; password: string; plan: Plan }, ctx: CommandContext) {
    const existing = await this.deps.pool.query(`SELECT 1 FROM ${this.schema}.users WHERE lower(email) = lower($1)`, [input.email]);
    if (existing.rowCount) throw Object.assign(new Error(`an account already uses ${input.email}`), { code: 'conflict' });
    const accountId = await nextId(this.deps.pool, 'account_id_seq');
    const userId = `u${await nextId(this.deps.pool, 'user_id_seq')}`;
    await handleCommand(this.deps.store, accountDecider, accountStream(accountId), {
      type: 'CreateAccount',
      data: { accountId, name: input.name, ownerUserId: userId, ownerEmail: input.email, passwordHash: await hashPassword(input.password), plan: input.plan },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId },
    });
    await this.deps.readModelsCaughtUp();
    return { accountId, userId };
  }

  async signIn(email: string, password: string): Promise<Principal | undefined> {
    const { rows } = await this.deps.pool.query<{ user_id: string; account_id: string; role: string; password_hash: string | null; plan: Plan }>(
      `SELECT u.user_id, u.account_id::text, u.role, u.password_hash, a.plan
         FROM ${this.schema}.users u JOIN ${this.schema}.accounts a USING (account_id)
        WHERE lower(u.email) = lower($1)`,
      [email],
    );
    const user = rows[0];
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) return undefined;
    return { accountId: user.account_id, plan: user.plan, userId: user.user_id, roles: [user.role], surface: 'session' };
  }

  async get(accountId: string) {
    const { rows } = await this.deps.pool.query<{ account_id: string; name: string; plan: Plan; created_at: Date }>(
      `SELECT account_id::text, name, plan, created_at FROM ${this.schema}.accounts WHERE account_id = $1`,
      [accountId],
    );
    const row = rows[0];
    return row ? { accountId: row.account_id, name: row.name, plan: row.plan, createdAt: row.created_at.toISOString() } : undefined;
  }
}
