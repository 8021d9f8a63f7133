import type pg from 'pg';
import type { AccountEvent } from '../../commands/account';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/** Accounts and their users (sign-in looks users up by e-mail). */
export const accountsProjection: Projection = {
  name: 'accounts',
  version: 1,
  handles: ['AccountCreated', 'PlanChanged', 'UserAdded', 'UserRoleChanged'],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.accounts (
        account_id bigint PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL,
        created_at timestamptz NOT NULL,
        stream_position bigint NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ${s}.users (
        user_id text PRIMARY KEY,
        account_id bigint NOT NULL,
        email text NOT NULL,
        role text NOT NULL,
        password_hash text,
        stream_position bigint NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS users_email ON ${s}.users (lower(email));`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const s = quoteIdent(schema);
    const event = recorded as unknown as AccountEvent & RecordedEvent;
    const position = recorded.streamPosition.toString();
    switch (event.type) {
      case 'AccountCreated': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.accounts (account_id, name, plan, created_at, stream_position) VALUES ($1,$2,$3,$4,$5)
           ON CONFLICT (account_id) DO NOTHING`,
          [d.accountId, d.name, d.plan, d.createdAt, position],
        );
        await client.query(
          `INSERT INTO ${s}.users (user_id, account_id, email, role, password_hash, stream_position) VALUES ($1,$2,$3,'owner',$4,$5)
           ON CONFLICT (user_id) DO NOTHING`,
          [d.ownerUserId, d.accountId, d.ownerEmail, d.passwordHash, position],
        );
        return;
      }
      case 'PlanChanged':
        await client.query(`UPDATE ${s}.accounts SET plan = $2, stream_position = $3 WHERE account_id = $1 AND stream_position < $3`, [
          event.data.accountId,
          event.data.plan,
          position,
        ]);
        return;
      case 'UserAdded': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.users (user_id, account_id, email, role, password_hash, stream_position) VALUES ($1,$2,$3,$4,$5,$6)
           ON CONFLICT (user_id) DO NOTHING`,
          [d.userId, d.accountId, d.email, d.role, d.passwordHash ?? null, position],
        );
        return;
      }
      case 'UserRoleChanged':
        await client.query(`UPDATE ${s}.users SET role = $2, stream_position = $3 WHERE user_id = $1 AND stream_position < $3`, [
          event.data.userId,
          event.data.role,
          position,
        ]);
        return;
    }
  },
};
