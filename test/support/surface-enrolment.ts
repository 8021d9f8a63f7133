/**
 * One enterprise account with a key and a signed webhook receiver on every surface: S1 (key webhook),
 * S2 (compliance webhook) and S3 (portal webhook endpoint), plus a portal session. Shared by the tests
 * that count webhook deliveries per surface (idempotent creates, the crash window).
 */
import assert from 'node:assert/strict';
import type { RunningService } from '../../src/bootstrap/service';
import type { HttpsReceiver } from './https-receiver';
import { rawRequest } from './raw-http';
import { accountHelpers } from './service';

export interface EnrolledAccount {
  account: { accountId: string; userId: string; email: string; password: string };
  helpers: ReturnType<typeof accountHelpers>;
  s1Key: string;
  s2Key: string;
  s3Key: string;
  portalToken: string;
}

export async function enrolOnEverySurface(service: RunningService, receivers: Record<'s1' | 's2' | 's3', HttpsReceiver>): Promise<EnrolledAccount> {
  const url = service.url!;
  const helpers = accountHelpers(service);
  const account = await helpers.createAccount('enterprise');
  const s1 = await helpers.createKey(account.accountId, 's1', { webhookUrl: receivers.s1.url });
  receivers.s1.setSecret(s1.webhookSecret!);
  const s3Key = (await helpers.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const s2Key = (await helpers.createKey(account.accountId, 's2')).key;
  const s2Hook = await rawRequest(url, 'POST', '/api/v1/compliance/webhooks', { headers: { authorization: `Bearer ${s2Key}` }, json: { url: receivers.s2.url } });
  assert.equal(s2Hook.status, 201, s2Hook.text);
  receivers.s2.setSecret(s2Hook.body.signing_secret);
  const signIn = await rawRequest(url, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
  assert.equal(signIn.status, 200, signIn.text);
  const portalToken: string = signIn.body.data.token;
  const s3Hook = await rawRequest(url, 'PUT', '/api/webhook-endpoint', { headers: { authorization: `Bearer ${portalToken}` }, json: { url: receivers.s3.url } });
  assert.equal(s3Hook.status, 201, s3Hook.text);
  receivers.s3.setSecret(s3Hook.body.data.signing_secret);
  return { account, helpers, s1Key: s1.key, s2Key, s3Key, portalToken };
}
