/**
 * Who made a decision, in words a reader knows: events record the stable identity of the analyst
 * (`user:u7`, `key:42`, and `u7` on portal decisions recorded before the prefix), the report, the
 * portal and the PDF show the user's e-mail or the key's name instead. Only the account's own users
 * and keys are looked up; an identity that is not found is shown as it was recorded.
 */
import type pg from 'pg';
import { projectionSchema } from '../../projections/projection';

export type AnalystNames = (accountId: string, identities: readonly string[]) => Promise<Map<string, string>>;

function parse(identity: string): { kind: 'user' | 'key'; id: string } | undefined {
  if (identity.startsWith('user:')) return { kind: 'user', id: identity.slice(5) };
  if (identity.startsWith('key:')) return { kind: 'key', id: identity.slice(4) };
  if (identity.startsWith('api_key:')) return { kind: 'key', id: identity.slice(8) };
  if (/^u\d+$/.test(identity)) return { kind: 'user', id: identity };
  return undefined;
}

export function pgAnalystNames(pool: pg.Pool): AnalystNames {
  const accounts = projectionSchema('accounts');
  const keys = projectionSchema('api_keys');
  return async (accountId, identities) => {
    const names = new Map<string, string>();
    const parsed = [...new Set(identities)].map((identity) => ({ identity, ref: parse(identity) }));
    const userIds = parsed.filter((p) => p.ref?.kind === 'user').map((p) => p.ref!.id);
    const keyIds = parsed.filter((p) => p.ref?.kind === 'key' && /^\d{1,18}$/.test(p.ref.id)).map((p) => p.ref!.id);
    const [users, apiKeys] = await Promise.all([
      userIds.length
        ? pool.query<{ user_id: string; email: string }>(`SELECT user_id, email FROM ${accounts}.users WHERE account_id = $1 AND user_id = ANY($2::text[])`, [accountId, userIds])
        : { rows: [] },
      keyIds.length
        ? pool.query<{ key_id: string; name: string; surface: string }>(`SELECT key_id::text, name, surface FROM ${keys}.api_keys WHERE account_id = $1 AND key_id = ANY($2::bigint[])`, [accountId, keyIds])
        : { rows: [] },
    ]);
    const emails = new Map(users.rows.map((r) => [r.user_id, r.email]));
    const keyNames = new Map(apiKeys.rows.map((r) => [r.key_id, `API key “${r.name}” (${r.surface.toUpperCase()})`]));
    for (const { identity, ref } of parsed) {
      const name = ref?.kind === 'user' ? emails.get(ref.id) : ref?.kind === 'key' ? keyNames.get(ref.id) : undefined;
      if (name) names.set(identity, name);
    }
    return names;
  };
}
