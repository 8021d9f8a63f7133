import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  foldToVersion,
  ImportRejected,
  type ImportEntries,
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
const importCommand = (rows: ImportEntries['data']['rows'], mode: 'add' | 'replace' = 'add'): ImportEntries => ({
  type: 'ImportEntries',
  data: { ...ref, mode, rows, source: { fileName: 'exits.csv', sha256: sha, format: 'csv', bytes: 100 }, addedBy: 'key:3' },
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

  it('adds an entry with who and when; refuses an entry without a name, a bad date and a duplicate id', () => {
    spec.given([created]).when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: robert, addedBy: 'u-owner' }, metadata: meta() }).then([added('e-1', 2)]);
    spec
      .given([created])
      .when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: { ...robert, primaryName: '', datesOfBirth: ['1971-02-30'] }, addedBy: 'u-owner' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'primary_name'));
    spec
      .given([created])
      .when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: { ...robert, datesOfBirth: ['1971-02-30'], nationalities: ['gb'] }, addedBy: 'u-owner' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues.map((i) => i.field).join() === 'dates_of_birth[0],nationalities[0]');
    spec.given([created, added('e-1', 2)]).when({ type: 'AddEntry', data: { ...ref, entryId: 'e-1', entry: robert, addedBy: 'u-owner' }, metadata: meta() }).thenThrows(Conflict);
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

  it('an import adds, changes and (replace) removes, all at one version, closed by ListImported with counts', () => {
    const bare: WatchlistEntryInput = { entityType: 'organization', primaryName: 'Shellco Ltd', aliases: [], datesOfBirth: [], nationalities: [], addresses: [], identifiers: [], reason: '' };
    const { events, stateAfter } = spec
      .given([created, added('e-1', 2), added('e-2', 3, bare), added('e-3', 4, bare)])
      .when(
        importCommand(
          [
            { line: 2, entryId: 'e-1', entry: robert },
            { line: 3, entryId: 'e-2', entry: { ...bare, primaryName: 'Shellco Limited' } },
            { line: 4, entryId: 'e-9', entry: bare },
          ],
          'replace',
        ),
      )
      .thenTypes(['EntryChanged', 'EntryAdded', 'EntryRemoved', 'ListImported']); // rows in file order, then removals
    assert.ok(events.every((e) => e.data.version === 5));
    const imported = events[3]!;
    assert.equal(imported.type, 'ListImported');
    if (imported.type === 'ListImported') {
      assert.deepEqual(
        { rows: imported.data.rows, added: imported.data.added, changed: imported.data.changed, unchanged: imported.data.unchanged, removed: imported.data.removed, entryCount: imported.data.entryCount },
        { rows: 3, added: 1, changed: 1, unchanged: 1, removed: 1, entryCount: 3 },
      );
      assert.equal(imported.data.importId, 'imp-1');
    }
    assert.ok(stateAfter.status === 'active' && [...stateAfter.entries.keys()].sort().join() === 'e-1,e-2,e-9');
  });

  it('an import with bad rows is refused whole, naming each (line, field, reason)', () => {
    const error = spec
      .given([created])
      .when(
        importCommand([
          { line: 2, entryId: 'e-1', entry: robert },
          { line: 3, entryId: 'e-2', entry: { ...robert, primaryName: '' } },
          { line: 4, entryId: 'e-1', entry: { ...robert, datesOfBirth: ['03/04/1971'] } },
        ]),
      )
      .thenThrows(ImportRejected);
    assert.deepEqual(
      error.rows.map((r) => [r.line, r.field]),
      [
        [3, 'primary_name'],
        [4, 'dates_of_birth[0]'],
        [4, 'entry_id'],
      ],
    );
    assert.match(error.rows[2]!.reason, /duplicate of line 2/);
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
