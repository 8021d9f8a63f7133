/**
 * Credentials on every surface for a service that runs as a child process (crash tests, the chaos
 * soak): one enterprise account with an S1, an S2 and an S3 key, a portal token and an S2 session
 * cookie (both survive a restart: the development JWT secret and the session table), a watchlist on
 * S3 and one on the portal (targets of entries and imports), `spareS2Keys` keys each on an account
 * of its own (one webhook endpoint per account: a registration test needs a fresh one), an S2 key
 * of its own for rotations, and, when receivers' URLs are given, a signed webhook on each surface.
 * Accounts and keys are made through the application services (as an operator would); the rest
 * over HTTP at `url`.
 */
import assert from 'node:assert/strict';
import type { RunningService } from '../../src/bootstrap/service';
import type { KeySurface } from '../../src/app/services';
import { rawRequest } from './raw-http';
import { accountHelpers } from './service';

export interface SurfaceCredentials {
  accountId: string;
  email: string;
  password: string;
  s1Key: string;
  s2Key: string;
  s3Key: string;
  portalToken: string;
  s2SessionCookie: string;
  lists: { s3: string; portal: string };
  spareS2Keys: string[];
  /** An S2 key on an account of its own, for key rotations (its session cookie mints a new key if a rotation's answer is lost). */
  rotation: { key: string; sessionCookie: string };
  /** Signing secrets of the webhooks registered to the given receivers. */
  webhookSecrets: { s1?: string; s2?: string; s3?: string };
}

/** How accounts and keys are made (an in-process service's helpers, or an operator beside a cluster). */
export interface Enroller {
  url: string;
  createAccount(): Promise<{ accountId: string; userId: string; email: string; password: string }>;
  createKey(accountId: string, surface: KeySurface, options?: { userId?: string; webhookUrl?: string }): Promise<{ key: string; webhookSecret?: string }>;
}

export function serviceEnroller(service: RunningService): Enroller {
  const helpers = accountHelpers(service);
  return { url: service.url!, createAccount: () => helpers.createAccount('enterprise'), createKey: (a, s, o) => helpers.createKey(a, s, o) };
}

export async function enrolSurfaces(
  enroller: Enroller,
  options: { spareS2Keys: number; webhooks?: { s1?: string; s2?: string; s3?: string } },
): Promise<SurfaceCredentials> {
  const { url } = enroller;
  const account = await enroller.createAccount();
  const s1 = await enroller.createKey(account.accountId, 's1', options.webhooks?.s1 ? { webhookUrl: options.webhooks.s1 } : {});
  const s2Key = (await enroller.createKey(account.accountId, 's2')).key;
  const s3Key = (await enroller.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const signIn = await rawRequest(url, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
  assert.equal(signIn.status, 200, signIn.text);
  const s2Session = async (email: string, password: string) => {
    const session = await rawRequest(url, 'POST', '/api/account/session', { json: { email, password } });
    assert.equal(session.status, 200, session.text);
    return /auth_token=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
  };
  const list = async (path: string, headers: Record<string, string>, name: string) => {
    const created = await rawRequest(url, 'POST', path, { headers, json: { name, severity: 'review', owner: 'fincrime' } });
    assert.equal(created.status, 201, created.text);
    return created.body.data.id as string;
  };
  const portalToken = signIn.body.data.token as string;
  const lists = { s3: await list('/api/v1/watchlists', { 'x-api-key': s3Key }, 'S3 target'), portal: await list('/api/portal/watchlists', { authorization: `Bearer ${portalToken}` }, 'Portal target') };
  const webhookSecrets: SurfaceCredentials['webhookSecrets'] = s1.webhookSecret ? { s1: s1.webhookSecret } : {};
  if (options.webhooks?.s2) {
    const hook = await rawRequest(url, 'POST', '/api/v1/compliance/webhooks', { headers: { authorization: `Bearer ${s2Key}` }, json: { url: options.webhooks.s2 } });
    assert.equal(hook.status, 201, hook.text);
    webhookSecrets.s2 = hook.body.signing_secret;
  }
  if (options.webhooks?.s3) {
    const hook = await rawRequest(url, 'PUT', '/api/webhook-endpoint', { headers: { authorization: `Bearer ${portalToken}` }, json: { url: options.webhooks.s3 } });
    assert.equal(hook.status, 201, hook.text);
    webhookSecrets.s3 = hook.body.data.signing_secret;
  }
  const spare: string[] = [];
  for (let i = 0; i < options.spareS2Keys; i++) {
    const other = await enroller.createAccount();
    spare.push((await enroller.createKey(other.accountId, 's2')).key);
  }
  const rotating = await enroller.createAccount();
  const rotation = { key: (await enroller.createKey(rotating.accountId, 's2')).key, sessionCookie: await s2Session(rotating.email, rotating.password) };
  return {
    accountId: account.accountId,
    email: account.email,
    password: account.password,
    s1Key: s1.key,
    s2Key,
    s3Key,
    portalToken,
    s2SessionCookie: await s2Session(account.email, account.password),
    lists,
    spareS2Keys: spare,
    rotation,
    webhookSecrets,
  };
}
