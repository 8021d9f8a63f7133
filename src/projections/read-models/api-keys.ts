import type pg from 'pg';
import type { ApiKeyEvent } from '../../commands/api-keys';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/**
 * API keys by hash, for authentication, and by account, for listing. Only SHA-256 hashes and
 * display prefixes are stored. Rows are updated only by a newer position of the account's key stream.
 */
export const apiKeysProjection: Projection = {
  name: 'api_keys',
  version: 1,
  handles: ['ApiKeyCreated', 'ApiKeyRevoked', 'ApiKeyRotated', 'ApiKeyWebhookConfigured'],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.api_keys (
        key_id bigint PRIMARY KEY,
        account_id bigint NOT NULL,
        user_id text,
        surface text NOT NULL,
        name text NOT NULL,
        key_hash text NOT NULL,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        rotated_at timestamptz,
        webhook_url text,
        webhook_secret_ciphertext text,
        stream_position bigint NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS api_keys_hash ON ${s}.api_keys (key_hash);
      CREATE INDEX IF NOT EXISTS api_keys_account ON ${s}.api_keys (account_id, surface);
      -- Hashes replaced by a rotation: presenting one gives invalid_key, not "unknown".
      CREATE TABLE IF NOT EXISTS ${s}.retired_key_hashes (
        key_hash text PRIMARY KEY,
        key_id bigint NOT NULL,
        retired_at timestamptz NOT NULL
      );`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const s = quoteIdent(schema);
    const event = recorded as unknown as ApiKeyEvent & RecordedEvent;
    const position = recorded.streamPosition.toString();
    switch (event.type) {
      case 'ApiKeyCreated': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.api_keys (key_id, account_id, user_id, surface, name, key_hash, prefix, created_at, expires_at,
             webhook_url, webhook_secret_ciphertext, stream_position)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) ON CONFLICT (key_id) DO NOTHING`,
          [d.keyId, d.accountId, d.userId ?? null, d.surface, d.name, d.keyHash, d.prefix, d.createdAt, d.expiresAt ?? null,
            d.webhook?.url ?? null, d.webhook?.secretCiphertext ?? null, position],
        );
        return;
      }
      case 'ApiKeyRevoked':
        await client.query(`UPDATE ${s}.api_keys SET revoked_at = $2, stream_position = $3 WHERE key_id = $1 AND stream_position < $3`, [
          event.data.keyId,
          event.data.revokedAt,
          position,
        ]);
        return;
      case 'ApiKeyRotated': {
        const d = event.data;
        const updated = await client.query(
          `UPDATE ${s}.api_keys SET key_hash = $2, prefix = $3, rotated_at = $4, stream_position = $5 WHERE key_id = $1 AND stream_position < $5`,
          [d.keyId, d.keyHash, d.prefix, d.rotatedAt, position],
        );
        if (updated.rowCount) {
          await client.query(`INSERT INTO ${s}.retired_key_hashes (key_hash, key_id, retired_at) VALUES ($1,$2,$3) ON CONFLICT DO NOTHING`, [
            d.previousKeyHash,
            d.keyId,
            d.rotatedAt,
          ]);
        }
        return;
      }
      case 'ApiKeyWebhookConfigured':
        await client.query(
          `UPDATE ${s}.api_keys SET webhook_url = $2, webhook_secret_ciphertext = $3, stream_position = $4 WHERE key_id = $1 AND stream_position < $4`,
          [event.data.keyId, event.data.webhook.url, event.data.webhook.secretCiphertext, position],
        );
        return;
    }
  },
};
