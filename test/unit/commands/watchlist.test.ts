import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  beginImport,
  type CommitImport,
  decideImportChunk,
  decideImportRemovals,
  evolve,
  foldToVersion,
  importRowIssues,
  importStagingStream,
  streamName,
  watchlistDecider,
  type WatchlistEvent,
} from '../../../src/commands/watchlist';
import { Conflict, IllegalTransition, NotFound, ValidationFailed } from '../../../src/commands/errors';
import type { WatchlistEntryInput } from '../../../src/screening/watchlists/model';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(watchlistDecider);
const ref = { watchlistId: '0b6c2f1e-8d4a-4c1e-9a53-2f6d1b7e4c90', accountId: '42' };
const sha = 'a'.repeat(64);
const robert: WatchlistEntryInput = {
  entityType: 'person',
  primaryName: 'Robert Smith',
  aliases: [{ name: 'Bob Smith' }],
  datesOfBirth: ['1971-04-03'],
  nationalities: ['GB'],
  addresses: [{ line: '12 Baker Street', city: 'London', postalCode: 'NW1 6XE', country: 'GB' }],
  identifiers: [{ kind: 'passport', value: '123456789', country: 'GB' }],
  reason: 'exited for card fraud',
};
const created: GivenEvent<WatchlistEvent> = {
  type: 'WatchlistCreated',
  data: { ...ref, version: 1, name: 'Exited customers', purpose: 'fraud exits', severity: 'block', owner: 'fincrime', createdAt: NOW },
};
const added = (entryId: string, version: number, entry = robert): GivenEvent<WatchlistEvent> => ({
  type: 'EntryAdded',
  data: { ...ref, version, entry: { entryId, ...entry, addedBy: 'u-owner', addedAt: NOW } },
});
const staging = importStagingStream(ref.watchlistId, '9d1c0a4e-3b7f-4e2a-8c51-6f0e2d9b7a13');
const commitCommand = (basedOnVersion: number, counts: CommitImport['data']['counts'], mode: 'add' | 'replace' = 'add'): CommitImport => ({
  type: 'CommitImport',
  data: { ...ref, importId: 'imp-1', staging: { stream: staging, chunks: 2 }, basedOnVersion, mode, source: { fileName: 'exits.csv', sha256: sha, format: 'csv', bytes: 100 }, counts },
  metadata: meta({ commandId: 'imp-1' }),
});

describe('watchlist decider', () => {
  it('creates a list at version 1; the stream is watchlist-<id>', () => {
    spec
      .given([])
      .when({ type: 'CreateWatchlist', data: { ...ref, name: ' Exited customers ', purpose: 'fraud exits', severity: 'block', owner: 'fincrime' }, metadata: meta() })
      .then([created]);
    assert.equal(streamName(ref.watchlistId), `watchlist-${ref.watchlistId}`);
  });

  it('refuses a list without a name or with an unknown severity, and a second create', () => {
    spec
      .given([])
      .when({ type: 'CreateWatchlist', data: { ...ref, name: ' ', purpose: '', severity: 'critical' as never, owner: 'x' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues.map((i) => i.field).join() === 'name,severity');
    spec.given([created]).when({ type: 'CreateWatchlist', data: { ...ref, name: 'Again', purpose: '', severity: 'note', owner: 'x' }, metadata: meta() }).thenThrows(Conflict);
  });

  it('every change bumps the version; a change that changes nothing emits nothing', () => {
    const { stateAfter } = spec
      .given([created])
      .when({ type: 'ChangeWatchlist', data: { ...ref, name: 'Fraud exits', severity: 'review' }, metadata: meta() })
      .then([
        {
          type: 'WatchlistChanged',
          data: { ...ref, version: 2, name: 'Fraud exits', purpose: 'fraud exits', severity: 'review', owner: 'fincrime', previousName: 'Exited customers', previousSeverity: 'block', changedAt: NOW },
        },
      ]);
    assert.equal(stateAfter.status === 'active' && stateAfter.version, 2);
    spec.given([created]).when({ type: 'ChangeWatchlist', data: { ...ref, name: 'Exited customers' }, metadata: meta() }).thenNothing();
  });

  it('adds an entry with who and when; refuses an entry with neither a name nor an identifier, a bad date and a duplicate id', () => {
    spec.given([created]).when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: robert, addedBy: 'u-owner' }, metadata: meta() }).then([added('e-1', 2)]);
    spec
      .given([created])
      .when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: { ...robert, primaryName: '', identifiers: [], datesOfBirth: ['1971-02-30'] }, addedBy: 'u-owner' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'primary_name'));
    // a fraudster's e-mail is listed without a name: found by that e-mail only
    const byEmail = { ...robert, primaryName: '', aliases: [], identifiers: [{ kind: 'email' as const, value: 'mule@example.com' }] };
    spec.given([created]).when({ type: 'AddEntry', data: { ...ref, entryId: 'e-2', entry: byEmail, addedBy: 'u-owner' }, metadata: meta() }).then([added('e-2', 2, byEmail)]);
    spec
      .given([created])
      .when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: { ...robert, datesOfBirth: ['1971-02-30'], nationalities: ['gb'] }, addedBy: 'u-owner' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues.map((i) => i.field).join() === 'dates_of_birth[0],nationalities[0]');
    spec.given([created, added('e-1', 2)]).when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: robert, addedBy: 'u-owner' }, metadata: meta() }).thenThrows(Conflict);
  });

  it('an entry read back with its keys in another order (as the PostgreSQL store returns jsonb) is the same content: a re-import changes nothing', () => {
    const stored = { ...robert, addresses: [{ city: 'London', line: '12 Baker Street', country: 'GB', postalCode: 'NW1 6XE' }], identifiers: [{ kind: 'passport' as const, value: '123456789', country: 'GB' }] };
    spec.given([created, added('e-1', 2, stored)]).when({ type: 'ChangeEntry', data: { ...ref, entryId: 'e-1', entry: robert }, metadata: meta() }).then([]);
  });

  it('changes and removes entries; unknown entries are not found', () => {
    spec
      .given([created, added('e-1', 2)])
      .when({ type: 'ChangeEntry', data: { ...ref, entryId: 'e-1', entry: { ...robert, reason: 'fraud, 2024' } }, metadata: meta() })
      .then([{ type: 'EntryChanged', data: { ...ref, version: 3, entry: { entryId: 'e-1', ...robert, reason: 'fraud, 2024', addedBy: 'u-owner', addedAt: NOW }, changedAt: NOW } }]);
    spec.given([created, added('e-1', 2)]).when({ type: 'ChangeEntry', data: { ...ref, entryId: 'e-1', entry: robert }, metadata: meta() }).thenNothing();
    spec
      .given([created, added('e-1', 2)])
      .when({ type: 'RemoveEntry', data: { ...ref, entryId: 'e-1', reason: 'cleared' }, metadata: meta() })
      .then([{ type: 'EntryRemoved', data: { ...ref, version: 3, entryId: 'e-1', primaryName: 'Robert Smith', reason: 'cleared', removedAt: NOW } }]);
    spec.given([created]).when({ type: 'RemoveEntry', data: { ...ref, entryId: 'nope' }, metadata: meta() }).thenThrows(NotFound, (e) => e.id === 'nope');
  });

  it("another account's list is not found; an archived list takes no changes", () => {
    spec.given([created]).when({ type: 'AddEntry', data: { ...ref, accountId: '43', entryId: 'e-1', entry: robert, addedBy: 'u' }, metadata: meta() }).thenThrows(NotFound);
    const archived: GivenEvent<WatchlistEvent> = { type: 'WatchlistArchived', data: { ...ref, version: 2, archivedAt: NOW } };
    spec.given([created]).when({ type: 'ArchiveWatchlist', data: ref, metadata: meta() }).then([archived]);
    spec.given([created, archived]).when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: robert, addedBy: 'u' }, metadata: meta() }).thenThrows(IllegalTransition);
  });

  it('an import is decided in chunks (adds, changes, replace removes, all at one version) and committed by ListImported with counts', () => {
    const bare: WatchlistEntryInput = { entityType: 'organization', primaryName: 'Shellco Ltd', aliases: [], datesOfBirth: [], nationalities: [], addresses: [], identifiers: [], reason: '' };
    const history = [created, added('e-1', 2), added('e-2', 3, bare), added('e-3', 4, bare)].map((e) => ({ ...e, metadata: { eventId: 'x', occurredAt: NOW } })) as WatchlistEvent[];
    const state = foldToVersion(history);
    const { base, ids } = beginImport(state, { ...ref, mode: 'replace', source: { fileName: 'exits.csv' }, addedBy: 'key:3' });
    assert.equal(ids.version, 5);
    const stampedBy = (chunk: number) => ({ type: 'StageImportChunk', data: {}, metadata: meta({ commandId: `imp-1:s:${chunk}` }) });
    const first = decideImportChunk(base, ids, [{ entryId: 'e-1', entry: robert }, { entryId: 'e-2', entry: { ...bare, primaryName: 'Shellco Limited' } }], { importId: 'imp-1', chunk: 0, addedBy: 'key:3', now: NOW, stampedBy: stampedBy(0) });
    const second = decideImportChunk(base, ids, [{ entryId: 'e-9', entry: bare }], { importId: 'imp-1', chunk: 1, addedBy: 'key:3', now: NOW, stampedBy: stampedBy(1) });
    assert.deepEqual(first.counts, { rows: 2, added: 0, changed: 1, unchanged: 1, removed: 0 });
    assert.deepEqual(second.counts, { rows: 1, added: 1, changed: 0, unchanged: 0, removed: 0 });
    assert.deepEqual(first.event.data.changed.map((e) => [e.entryId, e.primaryName, e.addedBy]), [['e-2', 'Shellco Limited', 'u-owner']]);
    assert.equal(second.event.data.added[0]!.addedBy, 'key:3');
    const removals = [...decideImportRemovals(base, ids, new Set(['e-1', 'e-2', 'e-9']), { importId: 'imp-1', firstChunk: 2, fileName: 'exits.csv', now: NOW, size: 1000, stampedBy })];
    assert.deepEqual(removals.map((e) => [e.data.chunk, e.data.removed.map((r) => r.entryId)]), [[2, ['e-3']]]);
    assert.ok([first.event, second.event, ...removals].every((e) => e.data.version === 5));
    assert.notEqual(first.event.metadata.eventId, second.event.metadata.eventId);

    const { events, stateAfter } = spec
      .given(history)
      .when(commitCommand(4, { rows: 3, added: 1, changed: 1, unchanged: 1, removed: 1 }, 'replace'))
      .thenTypes(['ListImported']);
    const imported = events[0]!;
    if (imported.type !== 'ListImported') throw new Error('not ListImported');
    assert.deepEqual(
      { version: imported.data.version, rows: imported.data.rows, added: imported.data.added, removed: imported.data.removed, entryCount: imported.data.entryCount, stagingStream: imported.data.stagingStream, chunks: imported.data.chunks },
      { version: 5, rows: 3, added: 1, removed: 1, entryCount: 3, stagingStream: staging, chunks: 2 },
    );
    // Folded with its chunks before it (as the service reads it): the import's entries at version 5.
    let folded = foldToVersion(history);
    for (const chunk of [first.event, second.event, ...removals]) folded = evolve(folded, chunk);
    folded = evolve(folded, imported);
    assert.ok(stateAfter.status === 'active' && stateAfter.version === 5);
    assert.ok(folded.status === 'active' && folded.version === 5 && [...folded.entries.keys()].sort().join() === 'e-1,e-2,e-9');
  });

  it('an import commit is refused when the list moved since its chunks were decided, or names another stream', () => {
    spec.given([created, added('e-1', 2)]).when(commitCommand(1, { rows: 1, added: 1, changed: 0, unchanged: 0, removed: 0 })).thenThrows(Conflict);
    const other = commitCommand(2, { rows: 1, added: 1, changed: 0, unchanged: 0, removed: 0 });
    other.data.staging = { stream: importStagingStream('1c7d3a2f-9e5b-4d2f-8b64-3a7e2c8f5d01', 'x'), chunks: 1 };
    spec.given([created, added('e-1', 2)]).when(other).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'staging'));
    const badCounts = commitCommand(2, { rows: 2, added: 1, changed: 0, unchanged: 0, removed: 0 });
    spec.given([created, added('e-1', 2)]).when(badCounts).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'counts'));
    assert.throws(() => beginImport(foldToVersion([]), { ...ref, mode: 'add', source: { fileName: 'x.csv' }, addedBy: 'k' }), NotFound);
  });

  it('import rows: each problem named by (line, field, reason), duplicates by the first line', () => {
    const seen = new Map<string, number>();
    const rows = [
      { line: 2, entryId: 'e-1', entry: robert },
      { line: 3, entryId: 'e-2', entry: { ...robert, primaryName: '', identifiers: [] } },
      { line: 4, entryId: 'e-1', entry: { ...robert, datesOfBirth: ['03/04/1971'] } },
    ];
    const issues = rows.flatMap((row) => importRowIssues(row, seen));
    assert.deepEqual(
      issues.map((r) => [r.line, r.field]),
      [
        [3, 'primary_name'],
        [4, 'dates_of_birth[0]'],
        [4, 'entry_id'],
      ],
    );
    assert.match(issues[2]!.reason, /duplicate of line 2/);
  });

  it('folding to a version rebuilds the entries a screening at that version used', () => {
    const removed: GivenEvent<WatchlistEvent> = { type: 'EntryRemoved', data: { ...ref, version: 4, entryId: 'e-1', primaryName: 'Robert Smith', removedAt: NOW } };
    const history = [created, added('e-1', 2), added('e-2', 3), removed].map((e) => ({ ...e, metadata: { eventId: 'x', occurredAt: NOW } })) as WatchlistEvent[];
    const at3 = foldToVersion(history, 3);
    const latest = foldToVersion(history);
    assert.ok(at3.status === 'active' && at3.version === 3 && at3.entries.has('e-1'));
    assert.ok(latest.status === 'active' && latest.version === 4 && !latest.entries.has('e-1'));
  });
});
