/**
 * The verification code and worked examples in docs/webhooks.md are what integrators copy: this
 * test runs the documented snippets against our signer and checks the documented vectors.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { s1ScreeningCompleted, s2Payload, s3Payload } from '../../../src/webhooks/payloads';
import { signRawBody, signS1 } from '../../../src/webhooks/signing';

const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../docs/webhooks.md'), 'utf8');

function blockAfter(marker: string): string {
  const at = doc.indexOf(marker);
  assert.ok(at >= 0, `docs/webhooks.md lacks ${marker}`);
  const match = /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at));
  assert.ok(match, `no code block after ${marker}`);
  return match[1]!;
}

type Headers = Record<string, string | undefined>;
let verifyS1Webhook: (raw: Buffer, headers: Headers, secret: string, now?: number) => boolean;
let verifyRawBodyWebhook: (raw: Buffer, headers: Headers, secret: string) => boolean;
let dir: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-doc-'));
  const s1File = path.join(dir, 'verify-s1.mjs');
  const rawFile = path.join(dir, 'verify-raw.mjs');
  fs.writeFileSync(s1File, blockAfter('<!-- snippet:verify-s1 -->'));
  fs.writeFileSync(rawFile, blockAfter('<!-- snippet:verify-raw -->'));
  ({ verifyS1Webhook } = await import(pathToFileURL(s1File).href));
  ({ verifyRawBodyWebhook } = await import(pathToFileURL(rawFile).href));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const secret = 'whsec_example';

describe('documented S1 verification snippet', () => {
  const unsigned = s1ScreeningCompleted({
    event: 'edd.completed',
    screening: { id: 7, search_query: 'Zoë "Q" Ünïcode \\ </script>', risk_level: 'low', risk_score: 0, status: 'completed', created_at: '2026-01-01T00:00:00.000Z' },
    timestamp: '2026-01-01T00:00:00.001Z',
  }).body;

  it('accepts what the service sends, within the 5-minute window', () => {
    const t = 1_800_000_000;
    const { body, signature } = signS1(secret, unsigned, t);
    const headers = { 'x-service-signature': signature, 'x-service-timestamp': String(t) };
    assert.equal(verifyS1Webhook(Buffer.from(body), headers, secret, t), true);
    assert.equal(verifyS1Webhook(Buffer.from(body), headers, secret, t + 300), true);
    assert.equal(verifyS1Webhook(Buffer.from(body), headers, secret, t - 300), true);
  });

  it('rejects stale, tampered, re-serialised or wrongly keyed deliveries', () => {
    const t = 1_800_000_000;
    const { body, signature } = signS1(secret, unsigned, t);
    const headers = { 'x-service-signature': signature, 'x-service-timestamp': String(t) };
    assert.equal(verifyS1Webhook(Buffer.from(body), headers, secret, t + 301), false);
    assert.equal(verifyS1Webhook(Buffer.from(body.replace('"risk_score":0', '"risk_score":1')), headers, secret, t), false);
    assert.equal(verifyS1Webhook(Buffer.from(JSON.stringify(JSON.parse(body), null, 1)), headers, secret, t), false);
    assert.equal(verifyS1Webhook(Buffer.from(body), headers, 'whsec_other', t), false);
    assert.equal(verifyS1Webhook(Buffer.from(body), { ...headers, 'x-service-timestamp': String(t + 1) }, secret, t), false);
    assert.equal(verifyS1Webhook(Buffer.from(body), { 'x-service-timestamp': String(t) }, secret, t), false);
    assert.equal(verifyS1Webhook(Buffer.from(body), { ...headers, 'x-service-signature': 'sha256=é' }, secret, t), false);
  });

  it('verifies the documented worked example, which matches what the builders produce', () => {
    const vector = blockAfter('<!-- vector:s1 -->').trim();
    const signature = JSON.parse(vector).signature as string;
    assert.equal(verifyS1Webhook(Buffer.from(vector), { 'x-service-signature': signature, 'x-service-timestamp': '1775121331' }, secret, 1775121331), true);
    const rebuilt = s1ScreeningCompleted({
      event: 'cdd.completed',
      screening: { id: 1042, search_query: 'Acme Trading Ltd', risk_level: 'medium', risk_score: 27, status: 'completed', created_at: '2026-04-02T09:15:30.120Z' },
      timestamp: '2026-04-02T09:15:31.004Z',
    });
    assert.equal(signS1(secret, rebuilt.body, 1775121331).body, vector);
  });
});

describe('documented raw-body verification snippet (S2, S3)', () => {
  it('accepts the service signature and rejects any byte change', () => {
    const body = s2Payload('subject_check.failed', { subject_check_id: 3, account_id: 4, status: 'failed', error_message: 'x', failed_at: '2026-01-01T00:00:00.000Z' }).body;
    const headers = { 'x-service-signature': signRawBody(secret, body) };
    assert.equal(verifyRawBodyWebhook(Buffer.from(body), headers, secret), true);
    assert.equal(verifyRawBodyWebhook(Buffer.from(body + ' '), headers, secret), false);
    assert.equal(verifyRawBodyWebhook(Buffer.from(body), {}, secret), false);
    assert.equal(verifyRawBodyWebhook(Buffer.from(body), headers, 'whsec_other'), false);
  });

  it('verifies the documented S2 and S3 examples, which match the builders', () => {
    const s2 = blockAfter('<!-- vector:s2 -->').trim();
    const s3 = blockAfter('<!-- vector:s3 -->').trim();
    const s2Sig = /sha256=[0-9a-f]{64}/.exec(doc.slice(doc.indexOf('<!-- vector:s2 -->')))![0];
    const s3Sig = /sha256=[0-9a-f]{64}/.exec(doc.slice(doc.indexOf('<!-- vector:s3 -->')))![0];
    assert.equal(verifyRawBodyWebhook(Buffer.from(s2), { 'x-service-signature': s2Sig }, secret), true);
    assert.equal(verifyRawBodyWebhook(Buffer.from(s3), { 'x-service-signature': s3Sig }, secret), true);
    assert.equal(
      s2Payload('subject_check.completed', { subject_check_id: 5120, account_id: 77, status: 'completed', overall_result: 'clean', confidence_level: 'high', findings_count: 0, completed_at: '2026-04-02T09:20:00.000Z' }).body,
      s2,
    );
    assert.equal(
      s3Payload('screening.completed', { screening_id: '8f14e45f-ceea-4e7a-9c1b-3a1d2b4c5d6e', screening_type: 'CDD', risk_score: 27, risk_level: 'medium', sow_screening_id: null, completed_at: '2026-04-02T09:15:31.004Z' }).body,
      s3,
    );
  });
});
