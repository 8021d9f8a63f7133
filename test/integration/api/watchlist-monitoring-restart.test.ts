/**
 * Watchlist monitoring is durable (issue 21): the reverse match of a list change runs in a process
 * manager that follows the event store from its own checkpoint. A change whose monitoring step
 * fails (fault injected in the alert recording) is committed and answered; after a restart on the
 * same database the change is caught up with exactly one alert, and replaying the log from the
 * start (checkpoint reset) raises nothing twice. The alert's hit carries its list and severity, so
 * the scorer counts it by the list's severity at once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningService } from '../../../src/bootstrap/service';
import { readProcessCheckpoint, WATCHLIST_MONITORING_PROCESS } from '../../../src/app/watchlists/watchlist-monitoring-process';
import { buildScreeningReport } from '../../../src/projections/screening-report';
import { computeRiskScore } from '../../../src/reports/risk-score';
import { accountHelpers, startServiceOn } from '../../support/service';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { rawRequest } from '../../support/raw-http';

let db: TestDatabase;
let dataDir: string;
let service: RunningService | undefined;

const start = (): Promise<RunningService> => startServiceOn(db, dataDir);

before(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'watchlist-monitoring-'));
});
after(async () => {
  await service?.stop();
  await db?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const alertsOf = async (svc: RunningService, screeningId: string) =>
  (await svc.store.readStream(`screening-${screeningId}`)).filter((e) => e.type === 'MonitoringAlertRaised').map((e) => e.data as { alertId: string; kind: string; entityId: string; internalList?: Record<string, unknown> });

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('watchlist monitoring across a failure and a restart', () => {
  it('a change whose monitoring failed is caught up after the restart with exactly one alert', async () => {
    service = await start();
    const account = await accountHelpers(service).createAccount('enterprise');
    const key = (await accountHelpers(service).createKey(account.accountId, 's3', { userId: account.userId })).key;
    const signIn = await rawRequest(service.url!, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
    const portal = { authorization: `Bearer ${signIn.body.data.token}` };
    const created = await rawRequest(service.url!, 'POST', '/api/v1/watchlists', { headers: { 'x-api-key': key }, json: { name: 'Fraud exits', purpose: 'exits', severity: 'block', owner: 'fincrime' } });
    assert.equal(created.status, 201, created.text);
    const listId = created.body.data.id as string;

    const screened = await rawRequest(service.url!, 'POST', '/api/portal/screenings', { headers: portal, json: { kind: 'cdd', query: 'Bob Smith', entity_type: 'individual', date_of_birth: '1971-04-03' } });
    assert.equal(screened.status, 201, screened.text);
    const screeningId = String(screened.body.data.screening.id);
    const svc1 = service;
    await until('the screening', async () => {
      const got = await rawRequest(svc1.url!, 'GET', `/api/portal/screenings/${screeningId}`, { headers: portal });
      return got.body.data.screening.status === 'running' ? undefined : true;
    });
    const enrolled = await rawRequest(service.url!, 'POST', `/api/v1/screening/${screened.body.data.screening.uuid}/monitoring`, { headers: { 'x-api-key': key } });
    assert.equal(enrolled.status, 200, enrolled.text);

    // The fault: recording alerts fails (the store unreachable for it) in this process.
    service.monitoring!.service.raiseAlerts = async () => {
      throw new Error('injected fault: alert store unavailable');
    };
    const added = await rawRequest(service.url!, 'POST', `/api/v1/watchlists/${listId}/entries`, {
      headers: { 'x-api-key': key },
      json: { entry_id: 'TARGET-1', primary_name: 'Robert Smith', dates_of_birth: ['1971-04-03'], reason: 'card fraud' },
    });
    assert.equal(added.status, 201, added.text);
    assert.deepEqual(await alertsOf(service, screeningId), [], 'the monitoring step failed: no alert yet');
    const changePosition = (await service.store.readStream(`watchlist-${listId}`)).at(-1)!.globalPosition;
    assert.ok((await readProcessCheckpoint(service.pool, WATCHLIST_MONITORING_PROCESS)) < changePosition, 'the checkpoint did not pass the failed change');
    await service.stop();

    service = await start();
    const svc2 = service;
    const caught = await until('the caught-up alert', async () => {
      const alerts = await alertsOf(svc2, screeningId);
      return alerts.length > 0 ? alerts : undefined;
    });
    assert.deepEqual(
      caught.map((a) => [a.kind, a.entityId, a.alertId]),
      [['new_hit', `internal_list:${listId}:TARGET-1`, `watchlist-${listId}@v2:new_hit:internal_list:${listId}:TARGET-1`]],
    );
    // The alert's hit carries its list (severity block): the scorer counts it as an internal-list hit at once.
    assert.deepEqual(caught[0]!.internalList, { watchlistId: listId, name: 'Fraud exits', version: 2, severity: 'block', entryId: 'TARGET-1', reason: 'card fraud' });
    const events = await service.store.readStream(`screening-${screeningId}`);
    const report = buildScreeningReport(events, { agentLabels: {} })!;
    const reported = report.hits.sanctions.find((h) => h.entityId === `internal_list:${listId}:TARGET-1`)!;
    assert.equal(reported.sourceLabel, 'internal list: Fraud exits');
    const rules = computeRiskScore({ hits: report.hits }).breakdown.map((c) => c.rule);
    assert.ok(rules.some((r) => r.startsWith('internal_list.block.')), JSON.stringify(rules));
    assert.ok(!rules.some((r) => r.startsWith('sanctions.')), JSON.stringify(rules));
    const recomputed = events.filter((e) => e.type === 'RiskRecomputed').at(-1)!.data as { riskLevel: string };
    assert.equal(recomputed.riskLevel, 'high', 'a potential hit on a block list sets the level high (floor)');
    await until('the checkpoint', async () => ((await readProcessCheckpoint(svc2.pool, WATCHLIST_MONITORING_PROCESS)) >= changePosition ? true : undefined));

    // Replaying the whole log (checkpoint reset, restart) raises nothing twice.
    await service.stop();
    await db.pool.query('UPDATE process_checkpoints SET position = 0 WHERE name = $1', [WATCHLIST_MONITORING_PROCESS]);
    service = await start();
    const svc3 = service;
    await until('the replay', async () => ((await readProcessCheckpoint(svc3.pool, WATCHLIST_MONITORING_PROCESS)) >= changePosition ? true : undefined));
    assert.equal((await alertsOf(service, screeningId)).length, 1);
  });
});
