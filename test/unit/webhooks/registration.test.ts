import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { prepareWebhookRegistration } from '../../../src/webhooks/registration';
import { createSecretBox } from '../../../src/webhooks/secrets';

const secrets = createSecretBox('12'.repeat(32));
const resolver = async (host: string) => (host === 'hooks.example.com' ? [{ address: '93.184.216.34', family: 4 as const }] : [{ address: '10.0.0.5', family: 4 as const }]);

describe('prepareWebhookRegistration', () => {
  it('returns a fresh secret once, sealed for storage, with its hash', async () => {
    const result = await prepareWebhookRegistration({ url: 'https://HOOKS.example.com:443/cb?x=1', secrets, allowPrivate: false, resolver });
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.equal(result.url, 'https://hooks.example.com/cb?x=1');
    assert.match(result.signingSecret, /^whsec_[0-9a-f]{64}$/);
    assert.equal(secrets.open(result.secretCiphertext), result.signingSecret);
    assert.ok(!result.secretCiphertext.includes(result.signingSecret));
    assert.equal(result.secretHash, createHash('sha256').update(result.signingSecret).digest('hex'));
  });

  it('refuses URLs the SSRF guard refuses, minting nothing', async () => {
    const internal = await prepareWebhookRegistration({ url: 'https://intranet.example.com/', secrets, allowPrivate: false, resolver });
    assert.equal(internal.ok, false);
    if (!internal.ok) assert.equal(internal.error.code, 'forbidden_address');
    const plain = await prepareWebhookRegistration({ url: 'http://hooks.example.com/', secrets, allowPrivate: false, resolver });
    assert.equal(!plain.ok && plain.error.code, 'https_required');
  });
});
