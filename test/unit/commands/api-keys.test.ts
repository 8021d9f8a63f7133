import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  activeKeys,
  apiKeysDecider,
  type ApiKeyEvent,
  type CreateApiKey,
  type KeySurface,
  streamName,
} from '../../../src/commands/api-keys';
import { Conflict, IllegalTransition, LimitExceeded, NotFound, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(apiKeysDecider);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const prefixes: Record<KeySurface, (n: number) => string> = {
  s1: (n) => `svc_${String(n).padStart(4, '0')}`,
  s2: (n) => `svca_${String(n).padStart(4, 'x')}`,
  s3: (n) => `svcc_live_${n.toString(16).padStart(4, '0')}`,
};

function create(n: number, surface: KeySurface, extra: Partial<CreateApiKey['data']> = {}): CreateApiKey {
  return {
    type: 'CreateApiKey',
    data: {
      accountId: '42',
      keyId: String(n),
      surface,
      name: `key ${n}`,
      keyHash: sha(`plaintext-${n}`),
      prefix: prefixes[surface](n),
      ...(surface === 's3' ? { userId: 'u-owner' } : {}),
      ...extra,
    },
    metadata: meta(),
  };
}
function createdEvent(c: CreateApiKey): GivenEvent<ApiKeyEvent> {
  return { type: 'ApiKeyCreated', data: { ...c.data, createdAt: NOW } };
}
function history(count: number, surface: KeySurface, extra: Partial<CreateApiKey['data']> = {}, from = 1) {
  return Array.from({ length: count }, (_, i) => createdEvent(create(from + i, surface, extra)));
}

describe('api keys decider', () => {
  it('creates an S2 key holding only the hash and prefix', () => {
    const cmd = create(1, 's2');
    const { events } = spec.given([]).when(cmd).then([createdEvent(cmd)]);
    const serialised = JSON.stringify(events);
    assert.ok(!serialised.includes('plaintext-1'), 'no plaintext in the event');
    assert.equal(streamName('42'), 'account-keys-42');
  });

  it('S1: the 11th active key per account is refused; revoked or expired keys free a slot', () => {
    const ten = history(10, 's1');
    spec.given(ten).when(create(11, 's1')).thenThrows(LimitExceeded, (e) => e.limit === 10 && e.current === 10 && e.code === 'limit_exceeded');
    const revoked: GivenEvent<ApiKeyEvent> = {
      type: 'ApiKeyRevoked',
      data: { accountId: '42', keyId: '3', surface: 's1', keyHash: sha('plaintext-3'), revokedAt: NOW },
    };
    spec.given([...ten, revoked]).when(create(11, 's1')).thenTypes(['ApiKeyCreated']);
    const expiring = [...history(9, 's1'), createdEvent(create(10, 's1', { expiresAt: '2026-03-01T09:00:00.000Z' }))];
    spec.given(expiring).when(create(11, 's1')).thenTypes(['ApiKeyCreated']);
  });

  it('S3: at most 5 active keys per user, other users have their own 5', () => {
    const five = history(5, 's3');
    spec.given(five).when(create(6, 's3')).thenThrows(LimitExceeded, (e) => e.limit === 5);
    spec.given(five).when(create(6, 's3', { userId: 'u-2' })).thenTypes(['ApiKeyCreated']);
    // S1 keys do not count toward S3's limit
    spec.given([...history(4, 's3'), ...history(10, 's1', {}, 20)]).when(create(6, 's3')).thenTypes(['ApiKeyCreated']);
  });

  it('S2 has no active-key limit', () => {
    spec.given(history(50, 's2')).when(create(51, 's2')).thenTypes(['ApiKeyCreated']);
  });

  it('validates names, hashes, prefixes and expiry', () => {
    const bad = create(1, 's2', { name: 'x'.repeat(101), keyHash: 'ABC', prefix: 'svc_abcd', expiresAt: '2026-02-01T00:00:00Z' });
    const error = spec.given([]).when(bad).thenThrows(ValidationFailed);
    assert.deepEqual(error.issues.map((i) => i.field).sort(), ['expires_at', 'key_hash', 'name', 'prefix']);
    spec.given([]).when(create(1, 's3', { userId: undefined })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'user_id');
    spec
      .given([])
      .when(create(1, 's1', { webhook: { url: 'http://insecure.test/hook', secretCiphertext: 'c' } }))
      .thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'webhook_url');
  });

  it('refuses duplicate key ids and hashes', () => {
    spec.given(history(1, 's2')).when(create(1, 's2')).thenThrows(Conflict);
    spec.given(history(1, 's2')).when(create(2, 's2', { keyHash: sha('plaintext-1') })).thenThrows(Conflict);
  });

  it('revokes once; revoking again is a no-op; other accounts see NotFound', () => {
    const given = history(2, 's2');
    const revoke = { type: 'RevokeApiKey' as const, data: { accountId: '42', keyId: '2' } };
    const revoked: GivenEvent<ApiKeyEvent> = {
      type: 'ApiKeyRevoked',
      data: { accountId: '42', keyId: '2', surface: 's2', keyHash: sha('plaintext-2'), revokedAt: NOW },
    };
    const { stateAfter } = spec.given(given).when({ ...revoke, metadata: meta() }).then([revoked]);
    assert.deepEqual(activeKeys(stateAfter, NOW).map((k) => k.keyId), ['1']);
    spec.given([...given, revoked]).when({ ...revoke, metadata: meta() }).thenNothing();
    spec.given(given).when({ ...revoke, data: { accountId: '43', keyId: '2' }, metadata: meta() }).thenThrows(NotFound);
    spec.given(given).when({ ...revoke, data: { accountId: '42', keyId: '99' }, metadata: meta() }).thenThrows(NotFound);
  });

  it('rotates an S2 key in place: same id, new hash, old hash recorded as invalid', () => {
    const given = history(1, 's2');
    const rotate = { type: 'RotateApiKey' as const, data: { accountId: '42', keyId: '1', keyHash: sha('new'), prefix: 'svca_nEw1' } };
    const { stateAfter } = spec
      .given(given)
      .when({ ...rotate, metadata: meta() })
      .then([
        {
          type: 'ApiKeyRotated',
          data: {
            accountId: '42',
            keyId: '1',
            previousKeyHash: sha('plaintext-1'),
            previousPrefix: 'svca_xxx1',
            keyHash: sha('new'),
            prefix: 'svca_nEw1',
            rotatedAt: NOW,
          },
        },
      ]);
    assert.equal(stateAfter.keys['1']?.keyHash, sha('new'));
    // rotating again with the same new hash would reuse a hash: refused
    spec.given(given).when({ ...rotate, data: { ...rotate.data, keyHash: sha('plaintext-1') }, metadata: meta() }).thenThrows(Conflict);
  });

  it('does not rotate revoked, expired or non-S2 keys', () => {
    const revoked: GivenEvent<ApiKeyEvent> = {
      type: 'ApiKeyRevoked',
      data: { accountId: '42', keyId: '1', surface: 's2', keyHash: sha('plaintext-1'), revokedAt: NOW },
    };
    const rotate = (keyId: string) => ({
      type: 'RotateApiKey' as const,
      data: { accountId: '42', keyId, keyHash: sha('new'), prefix: 'svca_nEw1' },
      metadata: meta(),
    });
    spec.given([...history(1, 's2'), revoked]).when(rotate('1')).thenThrows(IllegalTransition, (e) => e.state === 'revoked');
    spec
      .given(history(1, 's2', { expiresAt: '2026-03-01T10:00:00.000Z' }))
      .when(rotate('1'))
      .thenThrows(IllegalTransition, (e) => e.state === 'expired');
    spec.given(history(1, 's1')).when(rotate('1')).thenThrows(IllegalTransition);
  });

  it('configures an S1 webhook with the key, storing only hash and ciphertext of the secret', () => {
    const webhook = { url: 'https://hooks.example.com/svc', secretHash: sha('whsec'), secretCiphertext: 'v1:iv:ct' };
    spec
      .given(history(1, 's1'))
      .when({ type: 'ConfigureKeyWebhook', data: { accountId: '42', keyId: '1', webhook }, metadata: meta() })
      .then([{ type: 'ApiKeyWebhookConfigured', data: { accountId: '42', keyId: '1', webhook, configuredAt: NOW } }]);
    spec
      .given(history(1, 's2'))
      .when({ type: 'ConfigureKeyWebhook', data: { accountId: '42', keyId: '1', webhook }, metadata: meta() })
      .thenThrows(IllegalTransition);
  });
});
