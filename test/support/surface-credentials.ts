/**
 * Credentials on every surface for a service that runs as a child process (crash tests, the chaos
 * soak): one enterprise account with an S1, an S2 and an S3 key, a portal token and an S2 session
 * cookie (both survive a restart: the development JWT secret and the session table), a watchlist on
 * S3 and one on the portal (targets of entries and imports), and `spareS2Keys` keys each on an
 * account of its own (one webhook endpoint per account: a registration test needs a fresh one).
 * Made once through the service's own services and HTTP, then kept with the data directory.
 */
import assert from 'node:assert/strict';
import type { RunningService } from '../../src/bootstrap/service';
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
}

export async function enrolSurfaces(service: RunningService, spareS2Keys: number): Promise<SurfaceCredentials> {
  const url = service.url!;
  const helpers = accountHelpers(service);
  const account = await helpers.createAccount('enterprise');
  const s1Key = (await helpers.createKey(account.accountId, 's1')).key;
  const s2Key = (await helpers.createKey(account.accountId, 's2')).key;
  const s3Key = (await helpers.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const signIn = await rawRequest(url, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
  assert.equal(signIn.status, 200, signIn.text);
  const session = await rawRequest(url, 'POST', '/api/account/session', { json: { email: account.email, password: account.password } });
  assert.equal(session.status, 200, session.text);
  const s2SessionCookie = /auth_token=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
  const list = async (path: string, headers: Record<string, string>, name: string) => {
    const created = await rawRequest(url, 'POST', path, { headers, json: { name, severity: 'review', owner: 'fincrime' } });
    assert.equal(created.status, 201, created.text);
    return created.body.data.id as string;
  };
  const portalToken = signIn.body.data.token as string;
  const lists = { s3: await list('/api/v1/watchlists', { 'x-api-key': s3Key }, 'S3 target'), portal: await list('/api/portal/watchlists', { authorization: `Bearer ${portalToken}` }, 'Portal target') };
  const spare: string[] = [];
  for (let i = 0; i < spareS2Keys; i++) {
    const other = await helpers.createAccount('enterprise');
    spare.push((await helpers.createKey(other.accountId, 's2')).key);
  }
  return { accountId: account.accountId, email: account.email, password: account.password, s1Key, s2Key, s3Key, portalToken, s2SessionCookie, lists, spareS2Keys: spare };
}
