import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import {
  generateSigningSecret,
  signaturesEqual,
  signRawBody,
  signS1,
  splitS1Body,
  verifyRawBodySignature,
  verifyS1Delivery,
} from '../../../src/webhooks/signing';
import { createSecretBox } from '../../../src/webhooks/secrets';

const secret = 'whsec_test_secret';

describe('S2/S3 raw-body signatures', () => {
  it('is sha256= + lowercase hex HMAC-SHA256 of the exact bytes', () => {
    const body = '{"event":"subject_check.processing","subject_check_id":7}';
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    assert.equal(signRawBody(secret, body), `sha256=${expected}`);
    assert.match(signRawBody(secret, body), /^sha256=[0-9a-f]{64}$/);
  });

  it('any whitespace or re-serialisation change breaks verification', () => {
    const body = '{"event":"webhook.test","delivered_at":"2026-01-01T00:00:00.000Z"}';
    const sig = signRawBody(secret, body);
    assert.equal(verifyRawBodySignature(secret, body, sig), true);
    assert.equal(verifyRawBodySignature(secret, Buffer.from(body), sig), true);
    assert.equal(verifyRawBodySignature(secret, body.replace(':', ': '), sig), false);
    assert.equal(verifyRawBodySignature('other', body, sig), false);
    assert.equal(verifyRawBodySignature(secret, body, undefined), false);
    assert.equal(verifyRawBodySignature(secret, body, sig.toUpperCase()), false);
  });

  it('compares signatures of different lengths as unequal', () => {
    assert.equal(signaturesEqual('sha256=ab', 'sha256=abc'), false);
    assert.equal(signaturesEqual('sha256=ab', 'sha256=ab'), true);
    assert.equal(signaturesEqual('sha256=ab', null), false);
  });
});

describe('S1 timestamped signatures', () => {
  const unsigned = '{"event":"cdd.completed","screening_id":42,"timestamp":"2026-01-01T00:00:00.000Z"}';
  const t = 1767225600;

  it('signs `${timestamp}.${unsigned body}` and appends the signature as the last member', () => {
    const { body, signature } = signS1(secret, unsigned, t);
    const expected = 'sha256=' + createHmac('sha256', secret).update(`${t}.${unsigned}`).digest('hex');
    assert.equal(signature, expected);
    assert.equal(body, unsigned.slice(0, -1) + `,"signature":"${expected}"}`);
    assert.equal(JSON.parse(body).signature, expected);
  });

  it('a receiver recovers the unsigned body from the raw bytes', () => {
    const { body, signature } = signS1(secret, unsigned, t);
    assert.deepEqual(splitS1Body(body), { unsignedBody: unsigned, signature });
    assert.equal(splitS1Body(unsigned), null);
  });

  it('verifies inside the replay window and rejects outside it, tampering or a wrong secret', () => {
    const { body, signature } = signS1(secret, unsigned, t);
    const base = { secret, rawBody: body, signatureHeader: signature, timestampHeader: String(t), nowSeconds: t + 299 };
    assert.deepEqual(verifyS1Delivery(base), { ok: true });
    assert.deepEqual(verifyS1Delivery({ ...base, nowSeconds: t - 299 }), { ok: true });
    assert.deepEqual(verifyS1Delivery({ ...base, nowSeconds: t + 301 }), { ok: false, reason: 'stale_timestamp' });
    assert.deepEqual(verifyS1Delivery({ ...base, timestampHeader: undefined }), { ok: false, reason: 'missing_timestamp' });
    // The timestamp is signed: moving it (to pass the window) invalidates the signature.
    assert.deepEqual(verifyS1Delivery({ ...base, timestampHeader: String(t + 100), nowSeconds: t + 100 }), {
      ok: false,
      reason: 'bad_signature',
    });
    assert.deepEqual(verifyS1Delivery({ ...base, rawBody: body.replace('42', '43') }), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyS1Delivery({ ...base, secret: 'nope' }), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyS1Delivery({ ...base, rawBody: unsigned }), { ok: false, reason: 'missing_signature' });
  });

  it('different attempts carry different timestamps and signatures over the same unsigned body', () => {
    const a = signS1(secret, unsigned, t);
    const b = signS1(secret, unsigned, t + 30);
    assert.notEqual(a.signature, b.signature);
    assert.equal(splitS1Body(a.body)!.unsignedBody, splitS1Body(b.body)!.unsignedBody);
  });

  it('refuses to sign something that is not a non-empty JSON object', () => {
    assert.throws(() => signS1(secret, '{}', t));
    assert.throws(() => signS1(secret, '[1]', t));
    assert.throws(() => signS1(secret, unsigned, -1));
  });
});

describe('secrets', () => {
  it('generates distinct 256-bit secrets', () => {
    const a = generateSigningSecret();
    assert.match(a, /^whsec_[0-9a-f]{64}$/);
    assert.notEqual(a, generateSigningSecret());
  });

  it('seals and opens; tampering or another key fails', () => {
    const box = createSecretBox('11'.repeat(32));
    const sealed = box.seal('whsec_abc');
    assert.ok(!sealed.includes('whsec_abc'));
    assert.notEqual(sealed, box.seal('whsec_abc'), 'fresh IV each time');
    assert.equal(box.open(sealed), 'whsec_abc');
    const parts = sealed.split('.');
    const flipped = [parts[0], parts[1], parts[2], Buffer.from('x' + parts[3]).toString('base64url')].join('.');
    assert.throws(() => box.open(flipped));
    assert.throws(() => createSecretBox('22'.repeat(32)).open(sealed));
    assert.throws(() => createSecretBox(Buffer.alloc(32)));
  });
});
