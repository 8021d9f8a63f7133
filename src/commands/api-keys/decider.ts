/**
 * API keys, one stream per account: `account-keys-<accountId>`. Keeping every key of an account
 * in one stream makes the active-key limits consistent under concurrent creations (optimistic
 * concurrency on the stream revision serialises them).
 *
 * Limits: S1 at most 10 active keys per account; S3 at most 5 active keys per user (the account
 * owner unless the handler passes another user); S2 unlimited (the spec states no limit).
 * "Active" = not revoked and not expired at the command's `now`.
 * Revoking an already revoked key is an idempotent no-op (DELETE retries are safe).
 * Events never carry plaintext keys or webhook secrets: only SHA-256 hashes, display prefixes and
 * the handler's ciphertext of the webhook signing secret.
 */
import { assertNever, type Event } from '../../shared/events';
import { type Command, type Decider, isHttpsUrl, isIsoInstant, NUMERIC_ID, SHA256_HEX, stamp } from '../decider';
import { Conflict, IllegalTransition, Issues, LimitExceeded, NotFound } from '../errors';

export type KeySurface = 's1' | 's2' | 's3';
export const keySurfaces: readonly KeySurface[] = ['s1', 's2', 's3'];

/** Active-key limits; `undefined` = unlimited. */
export const activeKeyLimits = { s1: { perAccount: 10 }, s2: undefined, s3: { perUser: 5 } } as const;

/** Display prefixes the handler must produce (the plaintext never reaches the decider). */
export const keyPrefixPatterns: Record<KeySurface, RegExp> = {
  s1: /^svc_[A-Za-z0-9_-]{4}$/,
  s2: /^svca_[A-Za-z0-9_-]{4}$/,
  s3: /^svcc_live_[0-9a-f]{4}$/,
};

export function streamName(accountId: string): string {
  return `account-keys-${accountId}`;
}
export const apiKeysStreamName = streamName;

/** Webhook configured together with an S1 key. The secret is stored hashed/encrypted by the handler. */
export interface KeyWebhook {
  url: string;
  /** Optional SHA-256 of the secret (lets support confirm a secret without decrypting it). */
  secretHash?: string;
  /** The signing secret encrypted by the handler (needed to sign deliveries). */
  secretCiphertext: string;
}

// ---- commands ----
/** A new key as CreateApiKey carries it and ApiKeyCreated records it (the hash, never the key). */
type NewApiKey = {
  accountId: string;
  keyId: string;
  surface: KeySurface;
  name: string;
  keyHash: string;
  prefix: string;
  /** Owner of the key; required for S3 (limit per user). */
  userId?: string;
  expiresAt?: string;
  webhook?: KeyWebhook;
};
export type CreateApiKey = Command<'CreateApiKey', NewApiKey>;
export type RevokeApiKey = Command<'RevokeApiKey', { accountId: string; keyId: string }>;
export type RotateApiKey = Command<'RotateApiKey', { accountId: string; keyId: string; keyHash: string; prefix: string }>;
export type ConfigureKeyWebhook = Command<'ConfigureKeyWebhook', { accountId: string; keyId: string; webhook: KeyWebhook }>;
export type ApiKeyCommand = CreateApiKey | RevokeApiKey | RotateApiKey | ConfigureKeyWebhook;

// ---- events ----
export type ApiKeyCreated = Event<'ApiKeyCreated', NewApiKey & { createdAt: string }>;
export type ApiKeyRevoked = Event<'ApiKeyRevoked', { accountId: string; keyId: string; surface: KeySurface; keyHash: string; revokedAt: string }>;
export type ApiKeyRotated = Event<
  'ApiKeyRotated',
  {
    accountId: string;
    keyId: string;
    /** The hash that stops working now. */
    previousKeyHash: string;
    previousPrefix: string;
    keyHash: string;
    prefix: string;
    rotatedAt: string;
  }
>;
export type ApiKeyWebhookConfigured = Event<'ApiKeyWebhookConfigured', { accountId: string; keyId: string; webhook: KeyWebhook; configuredAt: string }>;
export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked | ApiKeyRotated | ApiKeyWebhookConfigured;
export const apiKeyEventTypes = ['ApiKeyCreated', 'ApiKeyRevoked', 'ApiKeyRotated', 'ApiKeyWebhookConfigured'] as const;

// ---- state ----
export interface ApiKeyRecord extends Omit<NewApiKey, 'accountId'> {
  createdAt: string;
  revokedAt?: string;
}
export interface ApiKeysState {
  accountId?: string;
  keys: Record<string, ApiKeyRecord>;
}

export function initialState(): ApiKeysState {
  return { keys: {} };
}

export function isKeyActive(key: ApiKeyRecord, now: string): boolean {
  if (key.revokedAt !== undefined) return false;
  return key.expiresAt === undefined || Date.parse(key.expiresAt) > Date.parse(now);
}

/** Active keys of the account (optionally of one surface / user) at `now`. */
export function activeKeys(state: ApiKeysState, now: string, filter: { surface?: KeySurface; userId?: string } = {}): ApiKeyRecord[] {
  return Object.values(state.keys).filter(
    (k) =>
      isKeyActive(k, now) &&
      (filter.surface === undefined || k.surface === filter.surface) &&
      (filter.userId === undefined || k.userId === filter.userId),
  );
}

function validateWebhook(issues: Issues, webhook: KeyWebhook | undefined): void {
  if (webhook === undefined) return;
  issues
    .check(isHttpsUrl(webhook.url), 'webhook_url', 'must be an https URL')
    .check(webhook.secretHash === undefined || SHA256_HEX.test(webhook.secretHash), 'webhook_secret_hash', 'must be a SHA-256 hex digest')
    .check(typeof webhook.secretCiphertext === 'string' && webhook.secretCiphertext.length > 0, 'webhook_secret', 'ciphertext is required');
}

function ownedKey(state: ApiKeysState, accountId: string, keyId: string): ApiKeyRecord {
  // A key of another account is indistinguishable from a missing one (404, no tenant leak).
  const key = state.accountId === accountId ? state.keys[keyId] : undefined;
  if (!key) throw new NotFound('api_key', keyId);
  return key;
}

export function decide(command: ApiKeyCommand, state: ApiKeysState): ApiKeyEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'CreateApiKey': {
      const d = command.data;
      const issues = new Issues()
        .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
        .check(NUMERIC_ID.test(d.keyId ?? ''), 'key_id', 'must be a positive integer string')
        .check(keySurfaces.includes(d.surface), 'surface', 'must be s1, s2 or s3')
        .check(typeof d.name === 'string' && d.name.trim().length >= 1 && d.name.length <= 100, 'name', 'must be 1-100 characters')
        .check(SHA256_HEX.test(d.keyHash ?? ''), 'key_hash', 'must be a lowercase SHA-256 hex digest')
        .check(keySurfaces.includes(d.surface) && keyPrefixPatterns[d.surface].test(d.prefix ?? ''), 'prefix', `does not match the ${d.surface} key prefix`)
        .check(d.surface !== 's3' || (typeof d.userId === 'string' && d.userId.length > 0), 'user_id', 'is required for S3 keys (limit per user)')
        .check(d.webhook === undefined || d.surface === 's1', 'webhook', 'only S1 keys carry a webhook');
      if (d.expiresAt !== undefined) {
        issues.check(isIsoInstant(d.expiresAt) && Date.parse(d.expiresAt) > Date.parse(now), 'expires_at', 'must be an ISO 8601 time in the future');
      }
      validateWebhook(issues, d.webhook);
      issues.throwIfAny();
      if (state.accountId !== undefined && state.accountId !== d.accountId) throw new Conflict('key stream belongs to another account');
      if (state.keys[d.keyId]) throw new Conflict(`api key ${d.keyId} already exists`);
      if (Object.values(state.keys).some((k) => k.keyHash === d.keyHash)) throw new Conflict('key hash already in use');
      if (d.surface === 's1') {
        const count = activeKeys(state, now, { surface: 's1' }).length;
        if (count >= activeKeyLimits.s1.perAccount) throw new LimitExceeded('s1_active_keys_per_account', activeKeyLimits.s1.perAccount, count);
      } else if (d.surface === 's3') {
        const count = activeKeys(state, now, { surface: 's3', userId: d.userId }).length;
        if (count >= activeKeyLimits.s3.perUser) throw new LimitExceeded('s3_active_keys_per_user', activeKeyLimits.s3.perUser, count);
      }
      return stamp<ApiKeyEvent>(command, [
        {
          type: 'ApiKeyCreated',
          data: {
            accountId: d.accountId,
            keyId: d.keyId,
            surface: d.surface,
            name: d.name.trim(),
            keyHash: d.keyHash,
            prefix: d.prefix,
            ...(d.userId !== undefined ? { userId: d.userId } : {}),
            ...(d.expiresAt !== undefined ? { expiresAt: new Date(d.expiresAt).toISOString() } : {}),
            ...(d.webhook !== undefined ? { webhook: d.webhook } : {}),
            createdAt: now,
          },
        },
      ]);
    }
    case 'RevokeApiKey': {
      const key = ownedKey(state, command.data.accountId, command.data.keyId);
      if (key.revokedAt !== undefined) return [];
      return stamp<ApiKeyEvent>(command, [
        {
          type: 'ApiKeyRevoked',
          data: { accountId: command.data.accountId, keyId: key.keyId, surface: key.surface, keyHash: key.keyHash, revokedAt: now },
        },
      ]);
    }
    case 'RotateApiKey': {
      const d = command.data;
      const key = ownedKey(state, d.accountId, d.keyId);
      // In-place rotation is an S2 feature; S1/S3 rotate by create-new-then-revoke.
      if (key.surface !== 's2') throw new IllegalTransition('api_key', `${key.surface}_key`, 'RotateApiKey');
      if (key.revokedAt !== undefined) throw new IllegalTransition('api_key', 'revoked', 'RotateApiKey');
      if (!isKeyActive(key, now)) throw new IllegalTransition('api_key', 'expired', 'RotateApiKey');
      new Issues()
        .check(SHA256_HEX.test(d.keyHash ?? ''), 'key_hash', 'must be a lowercase SHA-256 hex digest')
        .check(keyPrefixPatterns.s2.test(d.prefix ?? ''), 'prefix', 'does not match the s2 key prefix')
        .throwIfAny();
      if (Object.values(state.keys).some((k) => k.keyHash === d.keyHash)) throw new Conflict('key hash already in use');
      return stamp<ApiKeyEvent>(command, [
        {
          type: 'ApiKeyRotated',
          data: {
            accountId: d.accountId,
            keyId: key.keyId,
            previousKeyHash: key.keyHash,
            previousPrefix: key.prefix,
            keyHash: d.keyHash,
            prefix: d.prefix,
            rotatedAt: now,
          },
        },
      ]);
    }
    case 'ConfigureKeyWebhook': {
      const d = command.data;
      const key = ownedKey(state, d.accountId, d.keyId);
      if (key.surface !== 's1') throw new IllegalTransition('api_key', `${key.surface}_key`, 'ConfigureKeyWebhook');
      if (key.revokedAt !== undefined) throw new IllegalTransition('api_key', 'revoked', 'ConfigureKeyWebhook');
      const issues = new Issues();
      validateWebhook(issues, d.webhook);
      issues.check(d.webhook !== undefined, 'webhook', 'is required').throwIfAny();
      return stamp<ApiKeyEvent>(command, [
        { type: 'ApiKeyWebhookConfigured', data: { accountId: d.accountId, keyId: key.keyId, webhook: d.webhook, configuredAt: now } },
      ]);
    }
    default:
      return assertNever(command, 'api key command');
  }
}

export function evolve(state: ApiKeysState, event: ApiKeyEvent): ApiKeysState {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const d = event.data;
      const record: ApiKeyRecord = {
        keyId: d.keyId,
        surface: d.surface,
        name: d.name,
        keyHash: d.keyHash,
        prefix: d.prefix,
        createdAt: d.createdAt,
        ...(d.userId !== undefined ? { userId: d.userId } : {}),
        ...(d.expiresAt !== undefined ? { expiresAt: d.expiresAt } : {}),
        ...(d.webhook !== undefined ? { webhook: d.webhook } : {}),
      };
      return { accountId: d.accountId, keys: { ...state.keys, [d.keyId]: record } };
    }
    case 'ApiKeyRevoked':
      return updateKey(state, event.data.keyId, (k) => ({ ...k, revokedAt: event.data.revokedAt }));
    case 'ApiKeyRotated':
      return updateKey(state, event.data.keyId, (k) => ({ ...k, keyHash: event.data.keyHash, prefix: event.data.prefix }));
    case 'ApiKeyWebhookConfigured':
      return updateKey(state, event.data.keyId, (k) => ({ ...k, webhook: event.data.webhook }));
    default:
      return assertNever(event, 'api key event');
  }
}

function updateKey(state: ApiKeysState, keyId: string, change: (k: ApiKeyRecord) => ApiKeyRecord): ApiKeysState {
  const key = state.keys[keyId];
  return key ? { ...state, keys: { ...state.keys, [keyId]: change(key) } } : state;
}

export const apiKeysDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeysState> = { decide, evolve, initialState };
