/**
 * Monitoring, dispositions and the auditor's history on the whole wired service over real HTTP:
 * screenings of names on a copy of the bundled OFAC SDN list, then a list update (one record changed,
 * one added, one removed) reloaded through the service's reloadLists hook.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { copySdnList, editSdnCsv } from '../../support/sdn-file';
import { startTestService, type TestService } from '../../support/service';
import { handleCommand } from '../../../src/commands/command-handler';
import { accountDecider, streamName as accountStream } from '../../../src/commands/account';
import { hashPassword } from '../../../src/app/accounts/passwords';
import type { MonitoringRunResult } from '../../../src/app/monitoring/monitoring-service';

let svc: TestService;
let key: string;
let otherKey: string;
let accountId: string;
let listsDir: string;
const auditor = { email: `auditor-${randomUUID()}@example.test`, password: `pw-${randomUUID()}` };
const analyst = { email: `analyst-${randomUUID()}@example.test`, password: `pw-${randomUUID()}` };


before(async () => {
  const lists = copySdnList('svc-monitoring-lists-');
  listsDir = lists.listsDir;
  svc = await startTestService({
    env: { ...lists.env, WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  key = (await svc.createKey(accountId, 's1', { webhookUrl: 'https://127.0.0.1:9/hooks/monitoring' })).key;
  otherKey = (await svc.createKey((await svc.createAccount('enterprise')).accountId, 's1')).key;
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
  if (listsDir) rmSync(listsDir, { recursive: true, force: true });
});

async function call(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}, bearer = key) {
  const res = await fetch(`${svc.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function screen(query: string, entityType: string) {
  const res = await call('POST', '/api/v1/screening/cdd', { query, entity_type: entityType });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.screening as { id: number; risk_score: number; risk_level: string; sanctions_hits: number };
}

async function streamTypes(id: number): Promise<string[]> {
  return (await svc.service.store.readStream(`screening-${id}`)).map((e) => e.type);
}

const editSdn = (edit: (lines: string[]) => string[]) => editSdnCsv(listsDir, edit);

test('enrol, disposition with recomputed risk, and alerts after a list update (new, changed re-opening a false positive, removed)', async () => {
  const banco = await screen('Banco Nacional de Cuba', 'company');
  const cimex = await screen('Cimex Iberica', 'company');
  const kestrel = await screen('Kestrel Zorriban', 'individual');
  assert.ok(banco.sanctions_hits >= 1 && cimex.sanctions_hits >= 1);
  assert.equal(kestrel.sanctions_hits, 0);

  // Enrolment (idempotent), unknown and foreign screenings.
  for (const s of [banco, cimex, kestrel]) {
    const res = await call('POST', `/api/v1/screening/${s.id}/monitoring`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { success: true, screening_id: s.id, monitoring: true });
  }
  assert.equal((await call('POST', `/api/v1/screening/${banco.id}/monitoring`)).body.monitoring, true);
  assert.equal((await call('POST', `/api/v1/screening/${banco.id}/monitoring`, undefined, {}, otherKey)).status, 404);
  assert.equal((await call('POST', '/api/v1/screening/999999/monitoring')).status, 404);
  assert.equal((await call('POST', '/api/v1/screening/abc/monitoring')).status, 400);
  assert.equal((await streamTypes(banco.id)).filter((t) => t === 'MonitoringEnrolled').length, 1);

  // Disposition: the analyst clears Banco's hit as a false positive; risk is recomputed from open hits.
  const detail = await call('GET', `/api/v1/screening/${banco.id}`);
  const hit = detail.body.screening.hits.sanctions.find((h: any) => h.entity_id === 'ofac_sdn:306');
  assert.ok(hit, JSON.stringify(detail.body.screening.hits.sanctions.map((h: any) => h.entity_id)));
  const otherHits = detail.body.screening.hits.sanctions.length - 1;
  const bad = await call('POST', `/api/v1/screening/${banco.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, { disposition: 'maybe', reason: 'x' });
  assert.equal(bad.status, 422);
  assert.equal((await call('POST', `/api/v1/screening/${banco.id}/hits/nope/disposition`, { disposition: 'false_positive', reason: 'x' })).status, 404);
  // Needs more information first: recorded, the hit still counts (same level), then decided.
  const asked = await call('POST', `/api/v1/screening/${banco.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, { disposition: 'needs_more_information', reason: 'Which branch is the customer?' });
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  assert.deepEqual([asked.body.disposition, asked.body.changed, asked.body.risk_level], ['needs_more_information', true, banco.risk_level]);
  const cleared = await call('POST', `/api/v1/screening/${banco.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, {
    disposition: 'false_positive',
    reason: 'Different entity: our customer is the Havana branch office',
  });
  assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
  assert.equal(cleared.body.changed, true);
  assert.match(cleared.body.analyst, /^(user|key):[\w-]+$/);
  if (otherHits === 0) assert.equal(cleared.body.risk_score, 0);
  assert.ok(cleared.body.risk_score < banco.risk_score, `risk ${banco.risk_score} → ${cleared.body.risk_score}`);
  const again = await call('POST', `/api/v1/screening/${banco.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, { disposition: 'false_positive', reason: 'again' });
  assert.equal(again.body.changed, false);
  const bancoEvents = await svc.service.store.readStream(`screening-${banco.id}`);
  const dispositioned = bancoEvents.filter((e) => e.type === 'HitDispositioned').at(-1)!;
  assert.equal((dispositioned.data as any).analyst, cleared.body.analyst);
  assert.equal((dispositioned.data as any).reason, 'Different entity: our customer is the Havana branch office');
  assert.equal((dispositioned.data as any).previousDisposition, 'needs_more_information');
  assert.equal(bancoEvents.filter((e) => e.type === 'RiskRecomputed').length, 2, 'one per disposition');
  await svc.service.runner!.caughtUp();
  const shown = await call('GET', `/api/v1/screening/${banco.id}`);
  assert.equal(shown.body.screening.risk_score, cleared.body.risk_score);
  assert.equal(shown.body.screening.hits.sanctions.find((h: any) => h.hit_id === hit.hit_id).disposition.status, 'false_positive');

  // The list update: 306 (Banco) gets new remarks, 536 (Cimex Iberica) is delisted, Kestrel Zorriban is listed.
  editSdn((lines) =>
    lines
      .filter((l) => !l.startsWith('536,'))
      .map((l) => (l.startsWith('306,') ? l.replace(`"a.k.a. 'BNC'."`, `"a.k.a. 'BNC'; a.k.a. 'BANCO NACIONAL'."`) : l))
      .concat(['99999001,"ZORRIBAN, Kestrel","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 01 Jan 1970."']),
  );
  const reload = svc.service.reloadLists;
  await reload();
  const runs: MonitoringRunResult[] = svc.service.monitoring!.lastRuns();
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.addedEntities, 1);
  assert.equal(runs[0]!.removedEntities, 1);
  assert.equal(runs[0]!.changedEntities, 1);
  assert.ok(runs[0]!.subjectsRescreened <= 2, `only the subjects the delta reaches are screened (${runs[0]!.subjectsRescreened})`);

  const bancoAfter = await svc.service.store.readStream(`screening-${banco.id}`);
  const reopened = bancoAfter.find((e) => e.type === 'HitReopened');
  assert.ok(reopened, `Banco's false positive re-opens: ${bancoAfter.map((e) => e.type).join(',')}`);
  assert.ok(Object.keys((reopened!.data as any).diff).includes('remarks'), 'the re-opening shows what changed');
  const changedAlert = bancoAfter.find((e) => e.type === 'MonitoringAlertRaised')!;
  assert.equal((changedAlert.data as any).kind, 'changed_hit');
  assert.ok(bancoAfter.at(-1)!.type === 'RiskRecomputed', 'the re-opened hit counts again');

  const kestrelAfter = await svc.service.store.readStream(`screening-${kestrel.id}`);
  const newAlert = kestrelAfter.find((e) => e.type === 'MonitoringAlertRaised')!;
  assert.equal((newAlert.data as any).kind, 'new_hit');
  assert.equal((newAlert.data as any).entityId, 'ofac_sdn:99999001');
  assert.ok(kestrelAfter.some((e) => e.type === 'RiskRecomputed' && (e.data as any).riskScore > 0));
  // The screening's detail now lists the hit monitoring found, with its origin.
  const kestrelDetail = await call('GET', `/api/v1/screening/${kestrel.id}`);
  const monitoredHit = kestrelDetail.body.screening.hits.sanctions.find((h: any) => h.entity_id === 'ofac_sdn:99999001');
  assert.ok(monitoredHit, JSON.stringify(kestrelDetail.body.screening.hits));
  assert.match(monitoredHit.explanation, /ongoing monitoring \(new hit\)/);

  const cimexAfter = await svc.service.store.readStream(`screening-${cimex.id}`);
  const removed = cimexAfter.filter((e) => e.type === 'MonitoringAlertRaised').map((e) => (e.data as any).kind);
  assert.ok(removed.includes('removed_hit'), removed.join(','));
  const cimexDetail = await call('GET', `/api/v1/screening/${cimex.id}`);
  assert.equal(cimexDetail.body.screening.hits.sanctions.length, 0, 'a hit removed from the list is no longer listed');

  // Each alert became a signed S1 monitoring.alert in the outbox for the key's webhook.
  await svc.service.runner!.caughtUp();
  const { rows } = await svc.db.pool.query<{ body: Buffer; subject_ref: string }>(
    `SELECT body, subject_ref FROM webhook_outbox WHERE event_type = 'monitoring.alert' AND account_id = $1`,
    [accountId],
  );
  const payloads = rows.map((r) => JSON.parse(r.body.toString('utf8')));
  const kinds = payloads.map((p) => `${p.screening_id}:${p.alert.kind}`).sort();
  assert.deepEqual(kinds, [`${banco.id}:changed_hit`, `${cimex.id}:removed_hit`, `${kestrel.id}:new_hit`].sort());

  // The same update run again alerts nobody twice; an unenrolled subject gets nothing.
  const before = (await svc.service.store.readStream(`screening-${kestrel.id}`)).length;
  assert.equal((await call('DELETE', `/api/v1/screening/${kestrel.id}/monitoring`)).body.monitoring, false);
  assert.equal((await call('DELETE', `/api/v1/screening/${kestrel.id}/monitoring`)).status, 200);
  editSdn((lines) => lines.concat(['99999002,"ZORRIBAN, Kestrel Junior","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ']));
  await reload();
  assert.equal((await svc.service.store.readStream(`screening-${kestrel.id}`)).length, before + 1, 'only MonitoringUnenrolled was added');
});

test('event history: auditors only, through an auditor token; foreign streams look missing', async () => {
  const s = await screen('Margaret Thistlewood', 'individual');
  // Without a token, with a non-auditor's credentials, with bad credentials.
  assert.equal((await call('GET', `/api/v1/screening/${s.id}/events`)).status, 403);
  const refused = await call('POST', '/api/v1/audit/token', analyst);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'forbidden', 'a missing role is not a plan matter');
  assert.equal((await call('POST', '/api/v1/audit/token', { ...auditor, password: 'wrong-password' })).status, 401);
  assert.equal((await call('POST', '/api/v1/audit/token', auditor, {}, otherKey)).status, 401, "another account's key");

  const issued = await call('POST', '/api/v1/audit/token', auditor);
  assert.equal(issued.status, 200, JSON.stringify(issued.body));
  const token = issued.body.auditor_token as string;
  const history = await call('GET', `/api/v1/screening/${s.id}/events`, undefined, { 'x-auditor-token': token });
  assert.equal(history.status, 200, JSON.stringify(history.body));
  assert.equal(history.body.stream, `screening-${s.id}`);
  assert.equal(history.body.events[0].type, 'ScreeningRequested');
  assert.ok(history.body.events.some((e: any) => e.type === 'ScreeningCompleted'));
  assert.deepEqual(history.body.events.map((e: any) => e.position), history.body.events.map((_: unknown, i: number) => i));
  assert.equal(history.body.chain.ok, true);
  assert.equal(history.body.chain.head_hash, history.body.events.at(-1).hash);
  assert.equal(history.body.events[1].previous_hash, history.body.events[0].hash);

  // Generic by stream: the account's own stream; another account's screening is not found.
  const account = await call('GET', `/api/v1/audit/streams/account-${accountId}/events`, undefined, { 'x-auditor-token': token });
  assert.equal(account.status, 200);
  assert.ok(account.body.events.some((e: any) => e.type === 'UserAdded'));
  const foreign = await call('POST', '/api/v1/screening/cdd', { query: 'Someone Else', entity_type: 'individual' }, {}, otherKey);
  assert.equal((await call('GET', `/api/v1/screening/${foreign.body.screening.id}/events`, undefined, { 'x-auditor-token': token })).status, 404);
  // The portal: a signed-in user whose account role is auditor reads the same history; an analyst may not.
  const portal = async (user: { email: string; password: string }, urlPath: string) => {
    const signIn = await fetch(`${svc.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    assert.equal(signIn.status, 200);
    const jwt = ((await signIn.json()) as any).data.token as string;
    const res = await fetch(`${svc.url}${urlPath}`, { headers: { authorization: `Bearer ${jwt}` } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const viaPortal = await portal(auditor, `/api/portal/audit/screenings/${s.id}/events`);
  assert.equal(viaPortal.status, 200, JSON.stringify(viaPortal.body));
  assert.equal(viaPortal.body.data.events.length, history.body.events.length);
  assert.equal(viaPortal.body.data.chain.ok, true);
  assert.equal((await portal(analyst, `/api/portal/audit/screenings/${s.id}/events`)).status, 403);

  // A token is bound to its account: presented with another account's key it is refused.
  assert.equal((await call('GET', `/api/v1/screening/${foreign.body.screening.id}/events`, undefined, { 'x-auditor-token': token }, otherKey)).status, 403);
});

test('the screening-detail read model answers as the fold of each stream (dispositions, re-opening, monitoring alerts, re-scores)', async () => {
  await svc.service.runner!.caughtUp();
  const screenings = svc.service.services.screenings;
  const { rows } = await svc.service.pool.query<{ screening_id: string; stream_position: string }>(
    'SELECT screening_id::text, stream_position::text FROM proj_screening_details.screening_details WHERE account_id = $1 ORDER BY screening_id',
    [accountId],
  );
  assert.ok(rows.length >= 4, `${rows.length} screenings`);
  const kinds = new Set<string>();
  for (const row of rows) {
    const events = await svc.service.store.readStream(`screening-${row.screening_id}`);
    for (const e of events) kinds.add(e.type);
    // The read model has folded the whole stream: the answer below is the stored fold's, not a fold of the stream.
    assert.equal(row.stream_position, String(events.length - 1));
    const id = Number(row.screening_id);
    assert.equal(JSON.stringify(await screenings.get(accountId, id)), JSON.stringify(await screenings.get(accountId, id, { from: 'stream' })), `detail of ${id}`);
    // The JSON report (S3, portal) too, but for the time it was generated at.
    const report = async (from: 'read_model' | 'stream') => JSON.stringify({ ...((await screenings.reportJson(accountId, id, { from })) as object), generated_at: null });
    assert.equal(await report('read_model'), await report('stream'), `report of ${id}`);
  }
  for (const type of ['HitDispositioned', 'HitReopened', 'MonitoringAlertRaised', 'RiskRecomputed']) assert.ok(kinds.has(type), `the set includes ${type}`);
  // Another account's screening stays unfound through the read model.
  assert.equal(await screenings.get('999999', Number(rows[0]!.screening_id)), undefined);
});
