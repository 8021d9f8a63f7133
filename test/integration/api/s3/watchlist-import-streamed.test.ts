/**
 * The streamed import's all-or-nothing unit (issue 21) on the wired service with real PostgreSQL:
 * an attempt that dies between its chunks leaves nothing visible (read model, entries search, folds)
 * and the same file imported again succeeds; a list changed while an import's chunks were being
 * written refuses the commit (409) and shows nothing of it; a file with bad rows is refused before
 * anything is appended.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { startTestService, type TestService } from '../../../support/service';
import { call, envelopeData } from './helpers';
import { rawRequest } from '../../../support/raw-http';
import { spoolImport } from '../../../../src/app/watchlists/watchlist-import';
import { foldWatchlist, WatchlistService, watchlistAtVersion } from '../../../../src/app/watchlists/watchlist-service';
import { Conflict } from '../../../../src/commands/errors';
import type { EventStore } from '../../../../src/infrastructure/eventstore/port';
import { projectionSchema, quoteIdent } from '../../../../src/projections/projection';
import { systemClock } from '../../../../src/shared/clock';

let svc: TestService;
let key: string;
let accountId: string;

before(async () => {
  svc = await startTestService({ agents: 'none' });
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
});
after(async () => {
  await svc?.stop();
});

const csv = ['Customer Ref,Full Name,Date of Birth', 'C1,Robert Smith,1971-04-03', 'C2,Ada Quill,1980-02-01', 'C3,Margaret Thistlewood,1955-07-09', 'C4,Ivo Brand,1990-12-24', 'C5,Lena Ostrova,1966-03-15'].join('\n') + '\n';
const ctx = (commandId: string) => ({ actor: { surface: 's3' as const, keyId: 'k-test' }, correlationId: commandId, commandId });

async function newList(): Promise<string> {
  const list = envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: `Exits ${Math.random()}`, severity: 'block', owner: 'fincrime' } }), 201);
  envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { entry_id: 'keep-1', primary_name: 'Kept Person' } }), 201);
  return list.id as string;
}

/** The store, with a hook run before each append (to fail one, or to change the list meanwhile). */
function hooked(store: EventStore, before: (stream: string, n: number) => Promise<void>): EventStore {
  let n = 0;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'appendToStream') {
        return async (...args: Parameters<EventStore['appendToStream']>) => {
          await before(args[0], ++n);
          return target.appendToStream(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const readList = async (id: string) => envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${id}`, { key }), 200);
const entryIds = async (id: string) => (envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${id}/entries?limit=100`, { key }), 200).entries as { entry_id: string }[]).map((e) => e.entry_id).sort();

describe('streamed import: one all-or-nothing unit', () => {
  it('an attempt that dies between chunks shows nothing; the same file imported again commits every row', async () => {
    const id = await newList();
    const file = await spoolImport(Readable.from([csv]), { format: 'csv', maxBytes: 1 << 20, maxRows: 1000 });
    assert.equal(file.errorCount, 0);
    const dying = new WatchlistService({
      store: hooked(svc.service.store, async (stream, n) => {
        if (n === 3) throw new Error('process killed between chunks');
        assert.match(stream, /\.import-/, 'only staging chunks are appended before the commit');
      }),
      pool: svc.service.pool,
      clock: systemClock,
      readModelsCaughtUp: async () => undefined,
    });
    await assert.rejects(dying.importStaged(accountId, id, file, { mode: 'add', fileName: 'exits.csv', chunkSize: 2 }, ctx('imp-dead')), /process killed/);
    await file.dispose();
    // Two chunks (4 rows) are in an unreferenced staging stream: no fold, no read model sees them.
    const staged = (await svc.service.store.readAll()).filter((e) => e.type === 'EntriesImported' && (e.data as { importId: string }).importId === 'imp-dead');
    assert.equal(staged.length, 2);
    const state = await foldWatchlist(svc.service.store, id);
    assert.ok(state.status === 'active' && state.version === 2 && [...state.entries.keys()].join() === 'keep-1');

    // The same file again over HTTP: committed whole (its answer waits for the read model).
    const again = await rawRequest(svc.url, 'POST', `/api/v1/watchlists/${id}/imports?file_name=exits.csv`, { headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body: csv });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual([again.body.data.import.added, again.body.data.import.version, again.body.data.watchlist.entry_count], [5, 3, 6]);
    assert.deepEqual(await entryIds(id), ['C1', 'C2', 'C3', 'C4', 'C5', 'keep-1']);
    // The dead attempt's staged rows never reached the list (they wait apart until swept).
    const dead = await svc.service.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${quoteIdent(projectionSchema('watchlists'))}.watchlist_import_staged WHERE staging_stream = $1`,
      [staged[0]!.streamName],
    );
    assert.equal(dead.rows[0]!.n, 4);
    // Replay and reproduce fold the committed import's chunks, and only at its version.
    assert.equal((await watchlistAtVersion(svc.service.store, id, 3))!.entries.length, 6);
    assert.deepEqual((await watchlistAtVersion(svc.service.store, id, 2))!.entries.map((e) => e.entryId), ['keep-1']);
    // The decider sees imported entries: changing one works, adding its id again conflicts.
    envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${id}/entries/C2`, { key, body: { primary_name: 'Ada M Quill' } }), 200);
    assert.equal((await call(svc.url, 'POST', `/api/v1/watchlists/${id}/entries`, { key, body: { entry_id: 'C3', primary_name: 'Someone Else' } })).status, 409);
  });

  it('a list changed while the chunks were written refuses the commit: nothing of the import is visible', async () => {
    const id = await newList();
    const file = await spoolImport(Readable.from([csv]), { format: 'csv', maxBytes: 1 << 20, maxRows: 1000 });
    let changed = false;
    const racing = new WatchlistService({
      store: hooked(svc.service.store, async (stream) => {
        if (!changed && !stream.includes('.import-')) {
          changed = true; // the commit is next: another user adds an entry first
          envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${id}/entries`, { key, body: { entry_id: 'late-1', primary_name: 'Late Entry' } }), 201);
        }
      }),
      pool: svc.service.pool,
      clock: systemClock,
      readModelsCaughtUp: async () => undefined,
    });
    await assert.rejects(racing.importStaged(accountId, id, file, { mode: 'replace', fileName: 'exits.csv', chunkSize: 2 }, ctx('imp-race')), Conflict);
    await file.dispose();
    const list = await readList(id);
    assert.deepEqual([list.version, list.entry_count], [3, 2]);
    assert.deepEqual(await entryIds(id), ['keep-1', 'late-1']);
  });

  it('a file with one bad row appends nothing at all (no staging stream) and names the row', async () => {
    const id = await newList();
    const before = (await svc.service.store.readAll()).length;
    const bad = csv + 'C6,,1971-04-03\nC1,Robert Smith Again,1971-13-01\n';
    const answer = await rawRequest(svc.url, 'POST', `/api/v1/watchlists/${id}/imports`, { headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body: bad });
    assert.equal(answer.status, 422, answer.text);
    assert.deepEqual(
      (answer.body.details as { line: number; field: string }[]).map((d) => [d.line, d.field]),
      [
        [7, 'full_name'],
        [8, 'date_of_birth'],
      ],
    );
    assert.equal((await svc.service.store.readAll()).length, before);
    assert.deepEqual(await entryIds(id), ['keep-1']);
  });
});
