import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StoreServiceDeps } from '../webhook-deps';
import { apiKeysDecider, streamName as keysStream, type KeySurface } from '../../commands/api-keys';
import { Conflict, NotFound } from '../../commands/errors';
import { projectionSchema } from '../../projections/projection';
import type { SecretBox } from '../../webhooks/secrets';
import { S1_KEY_PATTERN, S2_KEY_PATTERN, S3_KEY_PATTERN } from '../../commands/api-keys/key-format';
import { handleCommand } from '../../commands/command-handler';
import { bindCreate } from '../idempotency/binding';
import { nextId } from '../ids';
import { countInWindowSql, limitWindowAt, settleCount } from '../limits';
import type { ApiKeyView, AuthFailure, CommandContext, KeyCountedLimit, KeyService, LimitDecision, Plan, Principal } from '../services';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** New plaintext key and its display prefix, per surface (spec part 2). */
export function mintKey(surface: KeySurface): { plaintext: string; prefix: string } {
  switch (surface) {
    case 's1': {
      const plaintext = `svc_${randomBytes(32).toString('base64url')}`;
      return { plaintext, prefix: plaintext.slice(0, 8) };
    }
    case 's2': {
      const plaintext = `svca_${randomBytes(32).toString('base64url')}`;
      return { plaintext, prefix: plaintext.slice(0, 9) };
    }
    case 's3': {
      const plaintext = `svcc_live_${randomBytes(20).toString('hex')}`;
      return { plaintext, prefix: plaintext.slice(0, 14) };
    }
  }
}

/** The surfaces whose keys a surface takes: S3 accepts an S1 key of the same account too (spec part 5). */
function acceptedSurfaces(surface: KeySurface): KeySurface[] {
  return surface === 's3' ? ['s3', 's1'] : [surface];
}

const formats: Record<KeySurface, RegExp[]> = {
  s1: [S1_KEY_PATTERN],
  s2: [S2_KEY_PATTERN],
  // S3 accepts the legacy svc_ prefix too (spec part 5): an S1 key of the same account.
  s3: [S3_KEY_PATTERN, S1_KEY_PATTERN],
};

interface KeyRow {
  key_id: string;
  account_id: string;
  user_id: string | null;
  surface: KeySurface;
  name: string;
  key_hash: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  plan: Plan | null;
}

function view(row: KeyRow): ApiKeyView {
  return {
    id: row.key_id,
    accountId: row.account_id,
    surface: row.surface,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
  };
}

export class PgKeyService implements KeyService {
  private readonly keys = projectionSchema('api_keys');
  private readonly accounts = projectionSchema('accounts');

  constructor(
    private readonly deps: StoreServiceDeps & {
      secrets: SecretBox;
      /** Checks a webhook URL against SSRF rules before it is stored (throws a typed error). */
      checkWebhookUrl: (url: string) => Promise<void>;
    },
  ) {}

  private select(where: string): string {
    return `SELECT k.key_id::text, k.account_id::text, k.user_id, k.surface, k.name, k.key_hash, k.prefix, k.created_at,
                   k.expires_at, k.revoked_at, u.last_used_at, a.plan
              FROM ${this.keys}.api_keys k
              LEFT JOIN api_key_last_use u ON u.key_id = k.key_id
              LEFT JOIN ${this.accounts}.accounts a ON a.account_id = k.account_id
             WHERE ${where}`;
  }

  async authenticate(
    surface: KeySurface,
    presented: string | undefined,
    count?: KeyCountedLimit,
  ): Promise<{ ok: true; principal: Principal; counted?: LimitDecision } | { ok: false; reason: AuthFailure }> {
    if (presented === undefined || presented === '') return { ok: false, reason: 'missing' };
    if (!formats[surface].some((f) => f.test(presented))) return { ok: false, reason: 'malformed' };
    const hash = sha256Hex(presented);
    const now = this.deps.clock.now();
    const lookup = count && count.limit > 0 ? await this.lookUpAndCount(hash, surface, now, count) : undefined;
    const row = lookup ? lookup.row : (await this.deps.pool.query<KeyRow>(this.select('k.key_hash = $1'), [hash])).rows[0];
    // Compare the stored digest in constant time (the index lookup only finds the candidate).
    if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) {
      const retired = await this.deps.pool.query(`SELECT 1 FROM ${this.keys}.retired_key_hashes WHERE key_hash = $1`, [hash]);
      return { ok: false, reason: retired.rowCount ? 'revoked' : 'unknown' };
    }
    if (!acceptedSurfaces(surface).includes(row.surface)) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    if (!row.plan) return { ok: false, reason: 'unknown' };
    // Last use is telemetry: written at most once a minute per key.
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000) {
      await this.deps.pool.query(
        `INSERT INTO api_key_last_use (key_id, last_used_at) VALUES ($1, $2)
         ON CONFLICT (key_id) DO UPDATE SET last_used_at = EXCLUDED.last_used_at`,
        [row.key_id, now],
      );
    }
    return {
      ok: true,
      principal: { accountId: row.account_id, plan: row.plan, keyId: row.key_id, ...(row.user_id ? { userId: row.user_id } : {}), roles: ['owner'], surface },
      ...(lookup ? { counted: lookup.counted } : {}),
    };
  }

  /**
   * The key lookup and the limit's count in one statement (each is a round trip on the request path
   * of every S1 call). The counter moves only for a key that passes the checks authenticate() makes
   * next (surface, not revoked, not expired, an account with a plan), exactly as consume() would count
   * it: one atomic upsert that refuses to pass the limit.
   */
  private async lookUpAndCount(hash: string, surface: KeySurface, now: Date, count: KeyCountedLimit): Promise<{ row: KeyRow | undefined; counted: LimitDecision }> {
    const window = limitWindowAt(now, count.windowSeconds);
    const { rows } = await this.deps.pool.query<KeyRow & { counted_count: number | null; counted_new: boolean | null }>(
      `WITH k AS (${this.select('k.key_hash = $1')}),
       counted AS (${countInWindowSql(
         `SELECT $2 || k.key_id, $3, $4, 1 FROM k
          WHERE k.surface = ANY($5::text[]) AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $6) AND k.plan IS NOT NULL`,
         '$7',
       )})
       SELECT k.*, (SELECT count FROM counted) AS counted_count, (SELECT inserted FROM counted) AS counted_new FROM k`,
      [hash, count.bucketPrefix, window.start, window.end, acceptedSurfaces(surface), now, count.limit],
    );
    const row = rows[0];
    const counted = await settleCount(
      this.deps.pool,
      { now, window, limit: count.limit, bucket: `${count.bucketPrefix}${row?.key_id ?? ''}` },
      row?.counted_count != null ? { count: row.counted_count, inserted: row.counted_new === true } : undefined,
    );
    return { row, counted };
  }

  async create(principal: Principal, input: { surface: KeySurface; name: string; expiresAt?: string; webhookUrl?: string }, ctx: CommandContext) {
    const { plaintext, prefix } = mintKey(input.surface);
    // With an Idempotency-Key the id is bound to the key before the append. A retry after a crash between
    // the append and the recorded answer finds the key created; its secret existed only in the answer that
    // was never recorded (keys are stored as hashes), so it cannot be shown again: 409, nothing created.
    const { id: keyId, meta } = await bindCreate(ctx, 'api-key', () => nextId(this.deps.pool, 'api_key_id_seq'));
    if (ctx.idempotency && (await this.keyExists(principal.accountId, keyId))) {
      throw new Conflict(
        `This Idempotency-Key already created API key ${keyId}, whose secret is shown only in the first answer and is not stored: revoke key ${keyId} and create a new key with a new Idempotency-Key`,
        { keyId },
      );
    }
    let webhookSecret: string | undefined;
    let webhook;
    if (input.webhookUrl !== undefined) {
      await this.deps.checkWebhookUrl(input.webhookUrl);
      webhookSecret = `whsec_${randomBytes(32).toString('base64url')}`;
      webhook = { url: input.webhookUrl, secretHash: sha256Hex(webhookSecret), secretCiphertext: this.deps.secrets.seal(webhookSecret) };
    }
    const userId = principal.userId ?? `owner-${principal.accountId}`;
    await handleCommand(this.deps.store, apiKeysDecider, keysStream(principal.accountId), {
      type: 'CreateApiKey',
      data: {
        accountId: principal.accountId,
        keyId,
        surface: input.surface,
        name: input.name,
        keyHash: sha256Hex(plaintext),
        prefix,
        userId,
        ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
        ...(webhook ? { webhook } : {}),
      },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, correlationId: ctx.correlationId, ...meta },
    });
    await this.deps.readModelsCaughtUp();
    const key = await this.byId(principal.accountId, keyId);
    return { key: key!, plaintext, ...(webhookSecret ? { webhookSecret } : {}) };
  }

  /** From the account's key stream, not the read model (which may lag behind the append). */
  private async keyExists(accountId: string, keyId: string): Promise<boolean> {
    const events = await this.deps.store.readStream(keysStream(accountId));
    return events.some((e) => e.type === 'ApiKeyCreated' && (e.data as { keyId?: string }).keyId === keyId);
  }

  private async byId(accountId: string, keyId: string): Promise<ApiKeyView | undefined> {
    const { rows } = await this.deps.pool.query<KeyRow>(this.select('k.key_id = $1 AND k.account_id = $2'), [keyId, accountId]);
    return rows[0] ? view(rows[0]) : undefined;
  }

  async list(accountId: string, surface: KeySurface): Promise<ApiKeyView[]> {
    const { rows } = await this.deps.pool.query<KeyRow>(`${this.select('k.account_id = $1 AND k.surface = $2')} ORDER BY k.key_id`, [accountId, surface]);
    return rows.map(view);
  }

  async revoke(principal: Principal, keyId: string, ctx: CommandContext): Promise<ApiKeyView> {
    if (!/^[1-9][0-9]{0,18}$/.test(keyId)) throw new NotFound('api_key', keyId);
    await handleCommand(this.deps.store, apiKeysDecider, keysStream(principal.accountId), {
      type: 'RevokeApiKey',
      data: { accountId: principal.accountId, keyId },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId },
    });
    await this.deps.readModelsCaughtUp();
    const key = await this.byId(principal.accountId, keyId);
    if (!key) throw new NotFound('api_key', keyId);
    return key;
  }

  async rotate(principal: Principal, ctx: CommandContext): Promise<{ key: ApiKeyView; plaintext: string }> {
    if (!principal.keyId) throw new NotFound('api_key', 'current');
    const { plaintext, prefix } = mintKey('s2');
    await handleCommand(this.deps.store, apiKeysDecider, keysStream(principal.accountId), {
      type: 'RotateApiKey',
      data: { accountId: principal.accountId, keyId: principal.keyId, keyHash: sha256Hex(plaintext), prefix },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId },
    });
    await this.deps.readModelsCaughtUp();
    return { key: (await this.byId(principal.accountId, principal.keyId))!, plaintext };
  }
}
