/**
 * Monitoring, dispositions and the auditor's event history on S3 (X-API-Key, `{data, meta}`, uuid ids)
 * and the auditor's history on S2 (`svca_` bearer, `{error: {code, message}}`), over real HTTP on the
 * whole wired service with the bundled OFAC SDN list.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestService, type TestService } from '../../support/service';
import { handleCommand } from '../../../src/commands/command-handler';
import { accountDecider, streamName as accountStream } from '../../../src/commands/account';
import { hashPassword } from '../../../src/app/accounts/passwords';

let svc: TestService;
let dataDir: string;
let accountId: string;
let s3Key: string;
let s3OtherKey: string;
let s2Key: string;
let s2OtherKey: string;
const auditor = { email: `auditor-${randomUUID()}@example.test`, password: `pw-${randomUUID()}` };
const analyst = { email: `analyst-${randomUUID()}@example.test`, password: `pw-${randomUUID()}` };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-s3s2-monitoring-'));
  svc = await startTestService({ env: { LISTS_DIR: path.resolve('lists'), LISTS_ONLY: 'ofac_sdn', LISTS_DATA_DIR: dataDir } });
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  s3Key = (await svc.createKey(accountId, 's3', { userId: account.userId })).key;
  s2Key = (await svc.createKey(accountId, 's2')).key;
  const other = await svc.createAccount('enterprise');
  s3OtherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
  s2OtherKey = (await svc.createKey(other.accountId, 's2')).key;
  for (const [user, role] of [
    [auditor, 'auditor'],
    [analyst, 'analyst'],
  ] as const) {
    await handleCommand(svc.service.store, accountDecider, accountStream(accountId), {
      type: 'AddUser',
      data: { accountId, userId: `u-${role}-${randomUUID().slice(0, 8)}`, email: user.email, role, passwordHash: await hashPassword(user.password) },
      metadata: { now: new Date().toISOString(), actor: { surface: 'system' }, commandId: randomUUID() },
    });
  }
  await svc.service.runner!.caughtUp();
});
after(async () => {
  await svc?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Http = { status: number; body: Record<string, any> };

async function s3(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}, key = s3Key): Promise<Http> {
  const res = await fetch(`${svc.url}${urlPath}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function s2(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}, key = s2Key): Promise<Http> {
  const res = await fetch(`${svc.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The S3 success envelope: {data, meta: {request_id (uuid), timestamp}}. */
function data(res: Http, status = 200): Record<string, any> {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.body.meta.request_id, UUID);
  assert.equal(typeof res.body.meta.timestamp, 'string');
  return res.body.data;
}

async function s3Screen(query: string, entityType: string, extra: Record<string, unknown> = {}) {
  return data(await s3('POST', '/api/v1/screening/cdd', { query, entity_type: entityType, ...extra }), 201);
}

async function streamTypes(id: number): Promise<string[]> {
  return (await svc.service.store.readStream(`screening-${id}`)).map((e) => e.type);
}

test('S3: enrol/unenrol by uuid, the monitor flag, a disposition with recomputed risk, in the S3 envelope', async () => {
  const banco = await s3Screen('Banco Nacional de Cuba', 'company');
  assert.match(banco.id, UUID);
  assert.ok(banco.sanctions_hits >= 1);

  const enrolled = data(await s3('POST', `/api/v1/screening/${banco.id}/monitoring`));
  assert.deepEqual(enrolled, { id: banco.id, screening_number: banco.screening_number, monitoring: true });
  data(await s3('POST', `/api/v1/screening/${banco.id}/monitoring`));
  assert.equal((await streamTypes(banco.screening_number)).filter((t) => t === 'MonitoringEnrolled').length, 1, 'idempotent');

  // Errors in the S3 shapes: bad id 400 {error, details}; another account's uuid and an unknown uuid 404 {error}.
  const bad = await s3('POST', '/api/v1/screening/123/monitoring');
  assert.equal(bad.status, 400);
  assert.equal(typeof bad.body.error, 'string');
  assert.deepEqual(bad.body.details, { id: ['must be a screening uuid'] });
  const foreign = await s3('POST', `/api/v1/screening/${banco.id}/monitoring`, undefined, {}, s3OtherKey);
  assert.equal(foreign.status, 404);
  assert.equal(typeof foreign.body.error, 'string');
  assert.equal((await s3('DELETE', `/api/v1/screening/${banco.id}/monitoring`, undefined, {}, s3OtherKey)).status, 404);
  assert.equal((await s3('POST', `/api/v1/screening/${randomUUID()}/monitoring`)).status, 404);
  assert.equal((await s3('POST', `/api/v1/screening/${banco.id}/monitoring`, undefined, { 'x-api-key': 'svcc_live_nope' })).status, 401);

  const unenrolled = data(await s3('DELETE', `/api/v1/screening/${banco.id}/monitoring`));
  assert.equal(unenrolled.monitoring, false);
  assert.equal((await streamTypes(banco.screening_number)).at(-1), 'MonitoringUnenrolled');

  // The request flag: monitor: true enrols the screening when it completes.
  const flagged = await s3Screen('Kestrel Zorriban', 'individual', { monitor: true });
  assert.ok((await streamTypes(flagged.screening_number)).includes('MonitoringEnrolled'), (await streamTypes(flagged.screening_number)).join(','));
  const flagBad = await s3('POST', '/api/v1/screening/cdd', { query: 'Kestrel Zorriban', entity_type: 'individual', monitor: 'yes' });
  assert.equal(flagBad.status, 400);

  // Disposition: the key's user clears the hit; risk recomputed from the hits that still count.
  const detail = data(await s3('GET', `/api/v1/screening/${banco.id}`));
  const hit = detail.hits.sanctions.find((h: any) => h.entity_id === 'ofac_sdn:306');
  assert.ok(hit, JSON.stringify(detail.hits.sanctions.map((h: any) => h.entity_id)));
  const url = `/api/v1/screening/${banco.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`;
  const invalid = await s3('POST', url, { disposition: 'maybe', reason: 'x' });
  assert.equal(invalid.status, 400, 'S3 has no 422');
  assert.ok(Object.keys(invalid.body.details).includes('disposition') || JSON.stringify(invalid.body.details).includes('disposition'), JSON.stringify(invalid.body));
  assert.equal((await s3('POST', `/api/v1/screening/${banco.id}/hits/nope/disposition`, { disposition: 'false_positive', reason: 'x' })).status, 404);
  assert.equal((await s3('POST', url, { disposition: 'false_positive', reason: 'x' }, {}, s3OtherKey)).status, 404);
  assert.equal((await s3('POST', `/api/v1/screening/not-a-uuid/hits/x/disposition`, { disposition: 'false_positive', reason: 'x' })).status, 400);
  // Needs more information: a comment is required; accepted, the hit stays undecided and the level does not drop.
  assert.equal((await s3('POST', url, { disposition: 'needs_more_information', reason: ' ' })).status, 400);
  const asked = data(await s3('POST', url, { disposition: 'needs_more_information', reason: 'Which branch is the customer?' }));
  assert.deepEqual([asked.disposition, asked.changed, asked.risk_level], ['needs_more_information', true, banco.risk_level]);
  const askedEvent = (await svc.service.store.readStream(`screening-${banco.screening_number}`)).filter((e) => e.type === 'HitDispositioned').at(-1)!;
  assert.deepEqual([(askedEvent.data as any).disposition, (askedEvent.data as any).reason], ['needs_more_information', 'Which branch is the customer?']);
  const cleared = data(await s3('POST', url, { disposition: 'false_positive', reason: 'Different entity: the Havana branch office' }));
  assert.equal(cleared.id, banco.id);
  assert.equal(cleared.changed, true);
  assert.match(cleared.analyst, /^user:/);
  assert.ok(cleared.risk_score < banco.risk_score, `risk ${banco.risk_score} → ${cleared.risk_score}`);
  const events = await svc.service.store.readStream(`screening-${banco.screening_number}`);
  const recorded = events.filter((e) => e.type === 'HitDispositioned').at(-1)!;
  assert.equal((recorded.data as any).analyst, cleared.analyst);
  assert.equal((recorded.data as any).previousDisposition, 'needs_more_information');
  assert.equal((recorded.metadata.actor as any).surface, 's3');
  assert.equal(data(await s3('POST', url, { disposition: 'false_positive', reason: 'again' })).changed, false);
});

test('S3: the event history for auditors only, through an auditor token', async () => {
  const s = await s3Screen('Margaret Thistlewood', 'individual');
  const eventsUrl = `/api/v1/screening/${s.id}/events`;
  const noToken = await s3('GET', eventsUrl);
  assert.equal(noToken.status, 403);
  assert.equal(typeof noToken.body.error, 'string');
  const refused = await s3('POST', '/api/v1/audit/token', analyst);
  assert.equal(refused.status, 403, 'a non-auditor user gets no token');
  assert.equal((await s3('POST', '/api/v1/audit/token', { ...auditor, password: 'wrong-password' })).status, 401);
  assert.equal((await s3('POST', '/api/v1/audit/token', auditor, {}, s3OtherKey)).status, 401, "another account's key");
  assert.equal((await s3('POST', '/api/v1/audit/token', { email: 'x' })).status, 400);

  const token = data(await s3('POST', '/api/v1/audit/token', auditor)).auditor_token as string;
  assert.equal((await s3('GET', eventsUrl, undefined, { 'x-auditor-token': 'not-a-token' })).status, 403);
  const history = data(await s3('GET', eventsUrl, undefined, { 'x-auditor-token': token }));
  assert.equal(history.stream, `screening-${s.screening_number}`);
  assert.equal(history.events[0].type, 'ScreeningRequested');
  assert.ok(history.events.some((e: any) => e.type === 'ScreeningCompleted'));
  assert.equal(history.chain.ok, true);
  assert.equal(history.chain.head_hash, history.events.at(-1).hash);

  assert.equal((await s3('GET', '/api/v1/screening/42/events', undefined, { 'x-auditor-token': token })).status, 400);
  const other = await s3('POST', '/api/v1/screening/cdd', { query: 'Another Person', entity_type: 'individual' }, {}, s3OtherKey);
  assert.equal(other.status, 201);
  const foreignHistory = await s3('GET', `/api/v1/screening/${other.body.data.id}/events`, undefined, { 'x-auditor-token': token });
  assert.equal(foreignHistory.status, 404);
  assert.equal(typeof foreignHistory.body.error, 'string');
  // The token is bound to its account: with another account's key it is refused.
  assert.equal((await s3('GET', `/api/v1/screening/${other.body.data.id}/events`, undefined, { 'x-auditor-token': token }, s3OtherKey)).status, 403);
});

test('S2: the subject-check event history for auditors only, in the S2 error envelope', async () => {
  const created = await s2('POST', '/api/v1/compliance/subject-checks', {
    first_name: 'Margaret',
    last_name: 'Thistlewood',
    locations: [{ country: 'GB', city: 'Leeds' }],
    purpose: 'employment',
    consent: { certified: true },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.subject_check_id as number;
  const eventsUrl = `/api/v1/compliance/subject-checks/${id}/events`;

  const noToken = await s2('GET', eventsUrl);
  assert.equal(noToken.status, 403);
  assert.equal(noToken.body.error.code, 'forbidden');
  const refused = await s2('POST', '/api/v1/compliance/audit/token', analyst);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'forbidden');
  const wrong = await s2('POST', '/api/v1/compliance/audit/token', { ...auditor, password: 'wrong-password' });
  assert.equal(wrong.status, 401);
  assert.equal(typeof wrong.body.error.message, 'string');
  assert.equal((await s2('POST', '/api/v1/compliance/audit/token', auditor, {}, s2OtherKey)).status, 401);
  const badBody = await s2('POST', '/api/v1/compliance/audit/token', { email: 'x' });
  assert.equal(badBody.status, 400);
  assert.equal(badBody.body.error.code, 'invalid_payload');

  const issued = await s2('POST', '/api/v1/compliance/audit/token', auditor);
  assert.equal(issued.status, 200, JSON.stringify(issued.body));
  assert.equal(issued.body.success, true);
  const token = issued.body.auditor_token as string;

  const history = await s2('GET', eventsUrl, undefined, { 'x-auditor-token': token });
  assert.equal(history.status, 200, JSON.stringify(history.body));
  assert.equal(history.body.success, true);
  assert.equal(history.body.stream, `subject-check-${id}`);
  assert.equal(history.body.events[0].position, 0);
  assert.equal(history.body.chain.ok, true);
  const stored = await svc.service.store.readStream(`subject-check-${id}`);
  assert.ok(history.body.events.length >= 1 && history.body.events.length <= stored.length);
  assert.equal(history.body.events[0].type, stored[0]!.type);

  const bad = await s2('GET', '/api/v1/compliance/subject-checks/abc/events', undefined, { 'x-auditor-token': token });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_payload');
  const other = await s2('POST', '/api/v1/compliance/subject-checks', { first_name: 'Another', last_name: 'Person', locations: [{ country: 'GB' }], purpose: 'employment', consent: { certified: true } }, {}, s2OtherKey);
  assert.equal(other.status, 201);
  const foreign = await s2('GET', `/api/v1/compliance/subject-checks/${other.body.subject_check_id}/events`, undefined, { 'x-auditor-token': token });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.error.code, 'not_found');
  assert.equal((await s2('GET', '/api/v1/compliance/subject-checks/999999999/events', undefined, { 'x-auditor-token': token })).status, 404);
  // The token is bound to its account: with another account's key it is refused.
  assert.equal((await s2('GET', eventsUrl, undefined, { 'x-auditor-token': token }, s2OtherKey)).status, 403);
});

test('the S3 and S2 routes are in the served OpenAPI document, which stays valid', async () => {
  const res = await fetch(`${svc.url}/api/v1/openapi.json`);
  assert.equal(res.status, 200);
  const document: any = await res.json();
  const result = await new Validator().validate(structuredClone(document));
  assert.equal(result.valid, true, JSON.stringify(result.errors ?? null).slice(0, 2000));
  const securityOf = (op: any) => (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)).sort();
  for (const [p, method] of [
    ['/api/v1/screening/{id}/monitoring', 'post'],
    ['/api/v1/screening/{id}/monitoring', 'delete'],
    ['/api/v1/screening/{id}/hits/{hitId}/disposition', 'post'],
    ['/api/v1/audit/token', 'post'],
    ['/api/v1/screening/{id}/events', 'get'],
  ] as const) {
    const op = document.paths[p]?.[method];
    assert.ok(op, `${method} ${p}`);
    assert.deepEqual(securityOf(op), ['S1BearerKey', 'S3ApiKey'], `${method} ${p} serves S1 and S3 keys`);
  }
  const s2Events = document.paths['/api/v1/compliance/subject-checks/{id}/events']?.get;
  assert.ok(s2Events);
  assert.deepEqual(securityOf(s2Events), ['S2BearerKey']);
  assert.ok(s2Events.parameters.some((p: any) => p.in === 'header' && p.name === 'x-auditor-token'));
  assert.ok(document.paths['/api/v1/compliance/audit/token']?.post);
  assert.ok(document.components.schemas.S3MaRequest.properties.monitor, 'S3 M&A bodies document the monitor flag');
});
