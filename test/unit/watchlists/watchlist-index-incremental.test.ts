/**
 * The account's internal-list index brought up to date incrementally (issue 21) answers exactly as
 * an index built afresh from the same lists: after each step of a sequence of adds, changes (name and
 * non-name), removals, a bulk import, a rename, a new list and an archived list, every query of a
 * varied set (exact names, misspellings, a surname shared by hundreds of entries so the candidate
 * cut applies, nicknames, organisations) gives the same results, scores and explanations; and only
 * the touched entries are new engine entities.
 */
import { combinedFacts } from '../../../src/screening/watchlists/fact-index';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildInternalListIndex, updateInternalListIndex } from '../../../src/app/watchlists/watchlist-index';
import { screenInternalLists, type InternalListIndex } from '../../../src/agents/lists/internal-lists';
import type { Watchlist, WatchlistEntry } from '../../../src/screening/watchlists/model';
import type { WatchlistSnapshot } from '../../../src/app/watchlists/watchlist-service';
import { ScreeningEngine } from '../../../src/screening/engine';
import type { AgentSubject } from '../../../src/agents/runtime/agent';

const GIVEN = ['Robert', 'Margaret', 'William', 'Elizabeth', 'James', 'Ada', 'Ivo', 'Lena', 'Mohammed', 'Catherine', 'John', 'Jon', 'Sean', 'Shaun'];
const SURNAMES = ['Smith', 'Smyth', 'Quill', 'Thistlewood', 'Brand', 'Ostrova', 'Al-Rashid', 'Okafor', 'Nguyen', 'Schmidt'];

let seed = 7;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};

function entry(id: string, name: string, extra: Partial<WatchlistEntry> = {}): WatchlistEntry {
  return {
    entryId: id,
    entityType: 'person',
    primaryName: name,
    aliases: [],
    datesOfBirth: [`19${50 + rnd(40)}-0${1 + rnd(9)}-1${rnd(9)}`],
    nationalities: ['GB'],
    addresses: [{ line: `${1 + rnd(90)} High Street`, city: 'Leeds', country: 'GB' }],
    identifiers: [],
    reason: 'fraud',
    addedBy: 'test',
    addedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

const list = (id: string, name: string, version: number): Watchlist => ({ id, accountId: '1', name, purpose: 'p', severity: 'block', owner: 'o', status: 'active', version });

/** What the index answers: engine results (ids, scores, explanations) and the agent's hits. */
function answers(index: InternalListIndex): unknown[] {
  const out: unknown[] = [];
  const queries = ['Robert Smith', 'Bob Smith', 'Smith', 'Margret Smyth', 'Ada Quill', 'Jon Smith', 'Mohamed Al Rashid', 'Catherine Thistlewood', 'Acme Trading Ltd', 'Lena Ostrowa', 'William Smith', 'Ivo Brandt', 'Sean Nguyen'];
  for (const name of queries) {
    out.push(index.engine.screen({ name }, { threshold: 0.72, limit: 50, sources: ['internal_list'] }).map((r) => [r.entity, r.score, r.explanation]));
    const subject: AgentSubject = { name, entityType: name.includes('Ltd') ? 'organization' : 'individual', birthDate: '1971-04-03', accountId: '1' } as AgentSubject;
    out.push(screenInternalLists(index, subject));
  }
  out.push(index.versions, index.lists);
  return out;
}

describe('incremental internal-list index', () => {
  it('equals a fresh build after every step of adds, changes, removals, an import, a rename, a new and an archived list', () => {
    const A = '11111111-1111-4111-8111-111111111111';
    const B = '22222222-2222-4222-8222-222222222222';
    const C = '33333333-3333-4333-8333-333333333333';
    // state of the lists, as the read model would hold them
    const lists = new Map<string, Watchlist>([[A, list(A, 'Exits', 1)], [B, list(B, 'Regulator letters', 1)]]);
    const entries = new Map<string, Map<string, WatchlistEntry>>([[A, new Map()], [B, new Map()]]);
    let n = 0;
    for (let i = 0; i < 400; i++) {
      const id = `e${String(rnd(100000)).padStart(6, '0')}-${n++}`;
      // many Smiths: a query for "Smith" has more candidates than the engine's cut
      const name = `${GIVEN[rnd(GIVEN.length)]} ${i % 2 ? 'Smith' : SURNAMES[rnd(SURNAMES.length)]}`;
      entries.get(i % 3 ? A : B)!.set(id, entry(id, name));
    }
    entries.get(B)!.set('org-1', entry('org-1', 'Acme Trading Limited', { entityType: 'organization', datesOfBirth: [] }));
    const snapshots = (): WatchlistSnapshot[] => [...lists.values()].filter((l) => l.status === 'active').map((l) => ({ list: l, entries: [...entries.get(l.id)!.values()] }));
    const fresh = (): InternalListIndex => buildInternalListIndex(snapshots(), 'T');

    // the cache's state: start from a fresh build, then apply deltas
    const first = ScreeningEngine.build([], []);
    let built = updateInternalListIndex({ lists: [], engine: first, index: { lists: [], entries: new Map(), engine: first, facts: combinedFacts([]), versions: [] } }, snapshots().map((s) => s.list), new Map(snapshots().map((s) => [s.list.id, new Map(s.entries.map((e) => [e.entryId, e]))])), 'T');
    assert.deepEqual(answers(built.index), answers(fresh()));

    const step = (changes: Map<string, Map<string, WatchlistEntry | null>>, headers?: () => void) => {
      for (const [listId, delta] of changes) {
        for (const [id, e] of delta) {
          if (e) entries.get(listId)!.set(id, e);
          else entries.get(listId)!.delete(id);
        }
        const l = lists.get(listId)!;
        lists.set(listId, { ...l, version: l.version + 1 });
      }
      headers?.();
      const active = [...lists.values()].filter((l) => l.status === 'active');
      built = updateInternalListIndex(built, active, changes, 'T');
      const before = built.engine.listedEntities().length;
      assert.equal(before, active.reduce((s, l) => s + entries.get(l.id)!.size, 0));
      assert.deepEqual(answers(built.index), answers(fresh()));
    };

    const aIds = () => [...entries.get(A)!.keys()];
    // one entry added, one whose name changes, one whose address only changes, one removed
    step(new Map([[A, new Map([['new-robert', entry('new-robert', 'Robert Smith', { datesOfBirth: ['1971-04-03'] })]])]]));
    const renamed = aIds()[5]!;
    step(new Map([[A, new Map([[renamed, { ...entries.get(A)!.get(renamed)!, primaryName: 'Bob Smyth' }]])]]));
    const moved = aIds()[9]!;
    step(new Map([[A, new Map([[moved, { ...entries.get(A)!.get(moved)!, addresses: [{ line: '3 Mill Lane', city: 'York', country: 'GB' }] }]])]]));
    step(new Map([[A, new Map<string, WatchlistEntry | null>([[aIds()[0]!, null], [aIds()[1]!, null], ['new-robert', null]])]]));
    // a bulk import into B: 300 added (interleaved ids), some changed, some removed (replace mode)
    const imported = new Map<string, WatchlistEntry | null>();
    for (let i = 0; i < 300; i++) imported.set(`e${String(rnd(100000)).padStart(6, '0')}-imp${i}`, entry(`imp${i}`, `${GIVEN[rnd(GIVEN.length)]} ${SURNAMES[rnd(SURNAMES.length)]}`));
    for (const [k, v] of imported) imported.set(k, { ...v!, entryId: k });
    const bIds = [...entries.get(B)!.keys()];
    for (let i = 0; i < 20; i++) imported.set(bIds[i]!, null);
    for (let i = 20; i < 30; i++) imported.set(bIds[i]!, { ...entries.get(B)!.get(bIds[i]!)!, aliases: [{ name: 'Jimmy Quill' }] });
    step(new Map([[B, imported]]));
    // a rename (header only: no entry touched) and a list that appears with entries
    step(new Map([[A, new Map()]]), () => lists.set(A, { ...lists.get(A)!, name: 'Former customers', severity: 'review' }));
    lists.set(C, list(C, 'Group blocklist', 0));
    entries.set(C, new Map());
    step(new Map([[C, new Map([['c1', entry('c1', 'Robert Smith')], ['c2', entry('c2', 'Ada Quill')]])]]));
    // a list archived: its entries leave the index
    lists.set(B, { ...lists.get(B)!, status: 'archived', version: lists.get(B)!.version + 1 });
    step(new Map());
  });

  it('a one-entry change gives a new engine over the new list version and leaves the earlier index as it was', () => {
    const A = '11111111-1111-4111-8111-111111111111';
    const base = Array.from({ length: 50 }, (_, i) => entry(`e${String(i).padStart(3, '0')}`, `${GIVEN[i % GIVEN.length]} ${SURNAMES[i % SURNAMES.length]}`));
    const first = ScreeningEngine.build([], []);
    const start = { lists: [], engine: first, index: { lists: [], entries: new Map(), engine: first, facts: combinedFacts([]), versions: [] } };
    const built = updateInternalListIndex(start, [list(A, 'Exits', 1)], new Map([[A, new Map(base.map((e) => [e.entryId, e]))]]), 'T');
    const next = updateInternalListIndex(built, [list(A, 'Exits', 2)], new Map([[A, new Map([['e025', entry('e025', 'Zebedee Quux')]])]]), 'T');
    const before = new Set(built.engine.listedEntities().map((e) => e.id));
    // a different object for every entity (new list version), the same ids, and the changed one's name
    assert.equal(next.engine.listedEntities().length, 50);
    assert.deepEqual(new Set(next.engine.listedEntities().map((e) => e.id)), before);
    assert.equal(next.engine.listedEntities()[25]!.primaryName, 'Zebedee Quux');
    assert.ok(next.engine.listedEntities().every((e) => e.listVersion.endsWith('@v2')));
    assert.equal(next.engine.screen({ name: 'Zebedee Quux' }, { threshold: 0.72 })[0]?.entity.id, `internal_list:${A}:e025`);
    assert.equal(built.engine.screen({ name: 'Zebedee Quux' }, { threshold: 0.72 }).length, 0, 'the earlier index is not changed');
    assert.equal(next.engine.stats().names, built.engine.stats().names);
  });
});
