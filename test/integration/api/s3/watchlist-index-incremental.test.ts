/**
 * The account's internal-list index kept up to date incrementally on the wired service (issue 21):
 * real PostgreSQL store and read model, changes made through the S3 API (entries added, changed,
 * removed, a CSV import in replace mode, a rename, a second list, an archived list). After each,
 * the cache that held the previous index updates it from the delta (not a whole build) and answers
 * exactly as an index built afresh from the read model; another account's index never holds them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { call, envelopeData } from './helpers';
import { rawRequest } from '../../../support/raw-http';
import { WatchlistService } from '../../../../src/app/watchlists/watchlist-service';
import { buildInternalListIndex, WatchlistIndexCache } from '../../../../src/app/watchlists/watchlist-index';
import { screenInternalLists, type InternalListIndex } from '../../../../src/agents/lists/internal-lists';
import { systemClock } from '../../../../src/shared/clock';

let svc: TestService;
let key: string;
let otherKey: string;
let accountId: string;
let otherAccountId: string;
let readModel: WatchlistService;

before(async () => {
  svc = await startTestService({ agents: 'none' });
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const other = await svc.createAccount('enterprise');
  otherAccountId = other.accountId;
  otherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
  readModel = new WatchlistService({ store: svc.service.store, pool: svc.service.pool, clock: systemClock, readModelsCaughtUp: async () => undefined });
});
after(async () => {
  await svc?.stop();
});

const QUERIES = ['Robert Smith', 'Bob Smith', 'Smith', 'Ada Quill', 'Margaret Thistlewood', 'Ivo Brandt', 'Lena Ostrova', 'Acme Trading', 'Zora Vale', 'Jon Smyth'];

function answers(index: InternalListIndex | undefined): string {
  if (!index) return 'none';
  const out: unknown[] = [index.versions.map((v) => ({ ...v, loadedAt: undefined })), index.lists];
  for (const name of QUERIES) {
    out.push(index.engine.screen({ name }, { threshold: 0.72, limit: 50 }).map((r) => [r.entity.id, r.entity.listVersion, r.score, r.explanation]));
    out.push(screenInternalLists(index, { workflow: 't', accountId, name, entityType: 'individual', birthDate: '1971-04-03' }).map((h) => ({ ...h, sources: undefined })));
  }
  return JSON.stringify(out);
}

/** Waits until the read model shows the list at `version` (or gone from the active lists). */
async function settled(listId: string, version: number | 'archived'): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const lists = await readModel.activeLists(accountId);
    const l = lists.find((x) => x.id === listId);
    if (version === 'archived' ? !l : l?.version === version) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`read model did not reach ${listId}@${version}`);
}

async function listVersion(listId: string): Promise<number> {
  return envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${listId}`, { key }), 200).version as number;
}

describe('incremental internal-list index on the wired service', () => {
  it('updates from each change through the API and answers as a fresh build; another account never sees the entries', async () => {
    const cache = new WatchlistIndexCache({ watchlists: readModel, store: svc.service.store, now: () => new Date() });
    const fresh = async () => {
      const snapshots = await readModel.activeSnapshots(accountId);
      return snapshots.length ? buildInternalListIndex(snapshots, 'T') : undefined;
    };
    const check = async (listId: string, version: number | 'archived', expected: 'incremental' | 'fresh') => {
      await settled(listId, version);
      const index = await cache.indexFor(accountId);
      assert.equal(cache.lastBuild.get(accountId)?.mode, expected);
      assert.equal(answers(index), answers(await fresh()));
      return index;
    };

    const list = envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: 'Exits', severity: 'block', owner: 'fincrime' } }), 201).id as string;
    envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${list}/entries`, { key, body: { entry_id: 'm-1', primary_name: 'Margaret Thistlewood', dates_of_birth: ['1955-07-09'] } }), 201);
    await check(list, 2, 'fresh');

    envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${list}/entries`, { key, body: { entry_id: 'r-1', primary_name: 'Robert Smith', dates_of_birth: ['1971-04-03'] } }), 201);
    const withRobert = await check(list, 3, 'incremental');
    assert.equal(cache.lastBuild.get(accountId)?.prepared, 1);
    assert.ok(screenInternalLists(withRobert!, { workflow: 't', accountId, name: 'Bob Smith', entityType: 'individual', birthDate: '1971-04-03' }).some((h) => h.internalList?.entryId === 'r-1'));

    const csv = ['Customer Ref,Full Name,Date of Birth', ...Array.from({ length: 40 }, (_, i) => `c-${i},${['Ada Quill', 'Ivo Brand', 'Lena Ostrova', 'John Smith', 'Jon Smyth'][i % 5]} ${String.fromCharCode(65 + i)},19${60 + (i % 30)}-0${1 + (i % 9)}-1${i % 9}`), 'r-1,Robert Smith,1971-04-03'].join('\n') + '\n';
    // replace mode: m-1 is removed, r-1 unchanged, 40 added
    const imported = await rawRequest(svc.url, 'POST', `/api/v1/watchlists/${list}/imports?mode=replace&file_name=exits.csv`, { headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body: csv });
    assert.equal(imported.status, 201, imported.text);
    await check(list, await listVersion(list), 'incremental');
    assert.equal(cache.lastBuild.get(accountId)?.prepared, 41, '40 added and 1 removed');

    envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${list}/entries/c-3`, { key, body: { primary_name: 'Zora Vale' } }), 200);
    await check(list, await listVersion(list), 'incremental');
    envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${list}`, { key, body: { name: 'Former customers', severity: 'review' } }), 200);
    const renamed = await check(list, await listVersion(list), 'incremental');
    assert.equal(cache.lastBuild.get(accountId)?.prepared, 0);
    assert.ok(renamed!.lists.some((l) => l.name === 'Former customers' && l.severity === 'review'));
    const del = await call(svc.url, 'DELETE', `/api/v1/watchlists/${list}/entries/r-1`, { key });
    assert.ok(del.status === 200 || del.status === 204, String(del.status));
    await check(list, await listVersion(list), 'incremental');

    const second = envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: 'Group', severity: 'note', owner: 'group' } }), 201).id as string;
    envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${second}/entries`, { key, body: { entry_id: 'g-1', primary_name: 'Robert Smith', dates_of_birth: ['1971-04-03'] } }), 201);
    await check(second, 2, 'incremental');
    envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${list}/archive`, { key }), 200);
    const onlySecond = await check(list, 'archived', 'incremental');
    assert.deepEqual([...onlySecond!.entries.keys()], [`internal_list:${second}:g-1`]);

    // tenant isolation: the other account's index (same cache) holds none of this account's entries
    const theirs = envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key: otherKey, body: { name: 'Theirs', severity: 'block', owner: 'x' } }), 201).id as string;
    envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${theirs}/entries`, { key: otherKey, body: { entry_id: 't-1', primary_name: 'Robert Smith' } }), 201);
    for (let i = 0; i < 200 && !(await readModel.activeLists(otherAccountId)).some((l) => l.version === 2); i++) await new Promise((r) => setTimeout(r, 25));
    const other = await cache.indexFor(otherAccountId);
    assert.deepEqual([...other!.entries.keys()], [`internal_list:${theirs}:t-1`]);
    assert.deepEqual([...(await cache.indexFor(accountId))!.entries.keys()], [`internal_list:${second}:g-1`]);
  });
});
