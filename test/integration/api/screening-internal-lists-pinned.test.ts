/**
 * S1/S3 screenings and the account's own lists, over real HTTP on the whole wired service (issue 21,
 * the side gaps of issue 27's last round):
 * - a screening pins the account's internal-list versions at request time (ScreeningRequested
 *   .internalListVersions), and a run of it after the list changed screens exactly those versions;
 * - `svc audit reproduce` re-runs a screening with every fact it was requested with: a hit the phone
 *   and e-mail found on an internal list comes out again (it used to be "only recorded").
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../../support/service';
import { call, envelopeData } from './s3/helpers';
import { handleCommand } from '../../../src/commands/command-handler';
import { screeningDecider, streamName } from '../../../src/commands/screening';
import { reproduceScreening } from '../../../src/app/audit/reproduce';
import { ListRegistry } from '../../../src/screening/lists/registry';
import { listsConfigFor } from '../../../src/bootstrap/lists-config';

let svc: TestService;
let s3Key: string;
let s1Key: string;
let accountId: string;
let listId: string;

const addEntry = async (body: Record<string, unknown>) =>
  envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${listId}/entries`, { key: s3Key, body: { entity_type: 'person', ...body } }), 201);

before(async () => {
  svc = await startTestService({ env: { LISTS_ONLY: 'ofac_sdn', SCREENING_WAIT_MS: '60000' } });
  const a = await svc.createAccount('enterprise');
  accountId = a.accountId;
  s3Key = (await svc.createKey(a.accountId, 's3', { userId: a.userId })).key;
  s1Key = (await svc.createKey(a.accountId, 's1', { userId: a.userId })).key;
  listId = envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key: s3Key, body: { name: 'Mule accounts', purpose: 'exited mules', severity: 'block', owner: 'fincrime@acme.test' } }), 201).id;
  await addEntry({
    entry_id: 'M-1', primary_name: 'Octavia Pennywhistle', dates_of_birth: ['1968-09-12'],
    identifiers: [{ kind: 'phone', value: '+44 20 7946 0958' }, { kind: 'email', value: 'octavia@pennywhistle.test' }], reason: 'mule account',
  });
});
after(async () => {
  await svc?.stop();
});

async function screenS1(body: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${svc.url}/api/v1/screening/cdd`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s1Key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity_type: 'individual', ...body }),
  });
  const json = (await res.json()) as any;
  assert.equal(res.status, 201, JSON.stringify(json));
  return json.screening;
}
const eventsOf = (id: number | string) => svc.service.store.readStream(streamName(String(id)));
const requestedOf = async (id: number | string) => (await eventsOf(id)).find((e) => e.type === 'ScreeningRequested')!.data as any;
const sanctionsResultOf = async (id: number | string) =>
  ((await eventsOf(id)).find((e) => e.type === 'AgentResultRecorded' && (e.data as any).agent === 'sanctions')?.data as any)?.result;
const internalHits = (result: any) => (result?.hits ?? []).filter((h: any) => h.internalList);

describe("screenings pin the account's internal-list versions and reproduce with every fact", () => {
  it('given an account with one list at version 2, when it screens, then the request pins that version and the sanctions agent screened exactly it', async () => {
    const s = await screenS1({ query: 'Octavia Pennywhistle', phone: '020 7946 0958' });
    assert.deepEqual((await requestedOf(s.id)).internalListVersions, [`watchlist-${listId}@v2`]);
    const result = await sanctionsResultOf(s.id);
    assert.deepEqual(result.internalLists.map((l: any) => l.versionId), [`watchlist-${listId}@v2`]);
    const completed = (await eventsOf(s.id)).find((e) => e.type === 'ScreeningCompleted')!.data as any;
    assert.ok(completed.listVersions.some((v: any) => v.id === `watchlist-${listId}@v2`), 'the completion records the pinned version');
  });

  it('given a screening requested against version 2, when it runs after the list moved to version 3, then it screens version 2: the entry added later is not found; a screening requested now is', async () => {
    const pinned = `watchlist-${listId}@v2`;
    await addEntry({ entry_id: 'M-2', primary_name: 'Lucinda Farthingale', dates_of_birth: ['1975-07-07'], reason: 'added after the request' });
    // recorded against version 2 as if requested before the change, run only now (as after a restart)
    const id = String((await screenS1({ query: 'Someone Unrelated' })).id);
    const next = String(BigInt(id) + 1_000_000n);
    await handleCommand(svc.service.store, screeningDecider, streamName(next), {
      type: 'RequestScreening',
      data: {
        screeningId: next, uuid: randomUUID(), kind: 'cdd', surface: 's1', accountId, plan: 'enterprise',
        subject: { query: 'Lucinda Farthingale', entityType: 'individual', dateOfBirth: '1975-07-07' }, internalListVersions: [pinned],
      },
      metadata: { now: new Date().toISOString(), actor: { accountId, surface: 's1' }, commandId: randomUUID() },
    });
    let result: any;
    for (let i = 0; i < 600 && !result; i++) {
      if ((await eventsOf(next)).some((e) => e.type === 'ScreeningCompleted')) result = await sanctionsResultOf(next);
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(result, 'the screening completed');
    assert.deepEqual(result.internalLists.map((l: any) => l.versionId), [pinned], 'screened the pinned version, not the current one');
    assert.deepEqual(internalHits(result), [], 'the entry added after the request is not in the pinned version');

    const now = await screenS1({ query: 'Lucinda Farthingale', date_of_birth: '1975-07-07' });
    assert.deepEqual((await requestedOf(now.id)).internalListVersions, [`watchlist-${listId}@v3`]);
    assert.ok(internalHits(await sanctionsResultOf(now.id)).some((h: any) => h.internalList.entryId === 'M-2'));
  });

  it('given a screening whose internal-list hit the phone and e-mail found, when svc audit reproduce re-runs it after the entry was removed, then it gives the same result', async () => {
    const s = await screenS1({ query: 'Octavia Pennywhistle', phone: '020 7946 0958', email: 'Octavia@Pennywhistle.test' });
    const found = internalHits(await sanctionsResultOf(s.id));
    assert.ok(found.some((h: any) => h.internalList.entryId === 'M-1'), 'the phone and e-mail found the entry');
    const nameOnly = await screenS1({ query: 'Octavia Pennywhistle' });
    assert.deepEqual(internalHits(await sanctionsResultOf(nameOnly.id)), [], 'the name alone does not');
    const removed = await call(svc.url, 'DELETE', `/api/v1/watchlists/${listId}/entries/M-1`, { key: s3Key });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    // another process's registry, as `svc audit reproduce` opens it
    const lists = new ListRegistry(listsConfigFor(svc.service.config, { persist: true }));
    // the service writes each loaded version to its data dir in the background: wait for the official one
    const completed = (await eventsOf(s.id)).find((e) => e.type === 'ScreeningCompleted')!.data as any;
    const official = completed.listVersions.find((v: any) => v.source === 'ofac_sdn').id;
    for (let i = 0; i < 300 && !(await lists.getVersion(official)); i++) await new Promise((r) => setTimeout(r, 100));
    const report = await reproduceScreening({ store: svc.service.store, lists }, String(s.id));
    assert.equal(report.error, undefined, JSON.stringify(report));
    assert.ok(report.listVersions.some((v) => v.source === 'internal_list' && v.available), JSON.stringify(report.listVersions));
    assert.deepEqual(report.onlyRecorded, [], 'nothing recorded is missing from the re-run');
    assert.equal(report.same, true, JSON.stringify(report));
    assert.ok(report.recordedListHits >= 1);
  });
});
