/**
 * The portal person-check routes (createPersonCheckPortalRouter) over real HTTP, on the real
 * person-check service of a wired test service (OFAC SDN only). The portal session itself is the
 * portal's concern: here `authenticate` maps a test bearer to an account, as the portal's JWT
 * verifier would. The PDF is checked through pdftotext.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { createHttpApp } from '../../../../src/api/http/app';
import { createPersonCheckPortalRouter } from '../../../../src/api/person-checks/router';
import { createLogger } from '../../../../src/shared/logger';
import type { Principal } from '../../../../src/app/services';
import { startTestService, type TestService } from '../../../support/service';

let svc: TestService;
let server: Server;
let base: string;
const tokens = new Map<string, Principal>();

before(async () => {
  svc = await startTestService({ env: { LISTS_ONLY: 'ofac_sdn' } });
  const a = await svc.createAccount('enterprise');
  const b = await svc.createAccount('professional');
  tokens.set('token-a', { accountId: a.accountId, userId: a.userId, plan: 'enterprise', roles: ['owner'], surface: 'portal' });
  tokens.set('token-b', { accountId: b.accountId, userId: b.userId, plan: 'professional', roles: ['owner'], surface: 'portal' });
  const app = createHttpApp({
    logger: createLogger({ level: 'silent' }),
    health: { live: () => true, ready: async () => ({ ready: true, checks: {} }) },
    routers: [
      createPersonCheckPortalRouter({
        personChecks: svc.service.services.personChecks,
        authenticate: async (req) => tokens.get(/^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''),
      }),
    ],
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await svc?.stop();
});

async function call(method: string, p: string, body?: unknown, token = 'token-a') {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, headers: res.headers, body: type.includes('json') ? ((await res.json()) as Record<string, any>) : Buffer.from(await res.arrayBuffer()) };
}

const form = {
  first_name: 'Ramzan',
  last_name: 'Kadyrov',
  dob: '1976-10-05',
  aliases: ['Ramzan Akhmatovich Kadyrov'],
  locations: ['Russia', 'NY'],
  identifiers: { ssn_last4: '987-65-4321' },
  additional_identifiers: [{ type: 'passport', value: 'AB1234567' }],
  purpose: 'business_due_diligence',
  fcra_consent: true,
};

test('portal form: a check runs on the same engine, with risk score, confidence_level, findings and audit trail', async () => {
  const res = await call('POST', '/api/person-checks', form);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const pc = (res.body as any).person_check;
  assert.equal(pc.result, 'adverse_found');
  assert.equal(pc.confidence_level, pc.confidence);
  assert.equal(pc.risk_level, 'critical');
  assert.ok(pc.risk_score >= 70);
  assert.equal(pc.subject.first_name, 'Ramzan');
  assert.deepEqual(pc.subject.identifiers, [
    { type: 'ssn_last4', value: '*****4321' },
    { type: 'passport', value: '*****4567' },
  ]);
  assert.equal(pc.sources.length, pc.sources_total);
  assert.ok(pc.sources.some((s: any) => s.source === 'state_court_portals' && s.links.some((l: any) => /New York/.test(l.label))));
  const list = await call('GET', '/api/person-checks');
  assert.equal(list.status, 200);
  assert.ok((list.body as any).person_checks.some((p: any) => p.id === pc.id));

  // The PDF, read back as text.
  const pdf = await call('GET', `/api/person-checks/${pc.id}/pdf`);
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  const dir = mkdtempSync(path.join(tmpdir(), 'pc-pdf-'));
  try {
    writeFileSync(path.join(dir, 'r.pdf'), pdf.body as Buffer);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'r.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    assert.match(text, /Ramzan Kadyrov/);
    assert.match(text, /Business due diligence/);
    assert.match(text, /FCRA consent obtained\s*:?\s*Yes/i);
    assert.match(text, /ADVERSE FOUND/);
    assert.match(text, /Red flags \(\d+\)/);
    assert.match(text, /OFAC SDN List/);
    assert.match(text, /name and date of birth/);
    assert.match(text, /Not searched \(\d+\)/);
    assert.match(text, /Federal dockets and opinions \(CourtListener\)/);
    assert.match(text, /adverse action/i);
    assert.match(text, /1976-\*\*-\*\*/);
    assert.match(text, /\*+4321/);
    assert.doesNotMatch(text, /987-?65/, 'the identifier is masked');
    assert.doesNotMatch(text, /1976-10-05/, 'the date of birth shows the year only');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('portal: no session is 401, another account is 404, bad input is 400 with details and records nothing', async () => {
  assert.equal((await call('GET', '/api/person-checks', undefined, '')).status, 401);
  const mine = await call('POST', '/api/person-checks', { ...form, first_name: 'Theodora', last_name: 'Quillfeather', dob: undefined });
  assert.equal(mine.status, 201);
  const id = (mine.body as any).person_check.id;
  assert.equal((await call('GET', `/api/person-checks/${id}`, undefined, 'token-b')).status, 404);
  assert.equal((await call('GET', `/api/person-checks/${id}/pdf`, undefined, 'token-b')).status, 404);
  const before = (await call('GET', '/api/person-checks?limit=100', undefined, 'token-b')).body as any;
  const refused = await call('POST', '/api/person-checks', { ...form, fcra_consent: false }, 'token-b');
  assert.equal(refused.status, 400);
  assert.match((refused.body as any).error, /fcra_consent: must be true/);
  assert.ok(Array.isArray((refused.body as any).details) || typeof (refused.body as any).details === 'object');
  const noPurpose = await call('POST', '/api/person-checks', { ...form, purpose: undefined }, 'token-b');
  assert.equal(noPurpose.status, 400);
  const legalFormOnly = await call('POST', '/api/person-checks', { ...form, first_name: 'Mr.', middle_name: undefined, last_name: 'Ltd.' }, 'token-b');
  assert.equal(legalFormOnly.status, 400);
  assert.match((legalFormOnly.body as any).error, /names only a legal form/);
  const after = (await call('GET', '/api/person-checks?limit=100', undefined, 'token-b')).body as any;
  assert.equal(after.pagination.total, before.pagination.total);
});
