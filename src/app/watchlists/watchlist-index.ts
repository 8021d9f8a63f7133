/**
 * Per-account screening index of internal watchlists (issue 21): built with the same engine as the
 * official lists from the read model, kept in memory and rebuilt only when the account's active
 * lists or their versions change (compared before every screening: active-versions.ts keeps that answer).
 *
 * `versions` pins exact versions (`watchlist-<id>@v<n>`): each is rebuilt from its event stream
 * (replay, `svc audit reproduce`), independent of the read model's current state.
 */
import { createHash } from 'node:crypto';
import type { InternalListIndex, InternalListSource } from '../../agents/lists/internal-lists';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListVersion } from '../../screening/model';
import { INTERNAL_LIST_SOURCE, parseWatchlistVersionId, toListEntity, watchlistVersionId, type Watchlist, type WatchlistEntry } from '../../screening/watchlists/model';
import { watchlistAtVersion, type WatchlistSnapshot, type WatchlistService } from './watchlist-service';
import type { ActiveWatchlistVersions } from './active-versions';

/** SHA-256 over a version's entries in entry-id order: the content hash a screening records. */
export function watchlistContentHash(entries: readonly WatchlistEntry[]): string {
  const hash = createHash('sha256');
  for (const e of [...entries].sort((a, b) => (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0))) hash.update(JSON.stringify(e)).update('\n');
  return hash.digest('hex');
}

export function buildInternalListIndex(snapshots: readonly WatchlistSnapshot[], loadedAt: string): InternalListIndex {
  const entities: ListEntity[] = [];
  const entries = new Map<string, { list: Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>; entry: WatchlistEntry }>();
  const versions: ListVersion[] = [];
  for (const { list, entries: listEntries } of snapshots) {
    for (const entry of listEntries) {
      const entity = toListEntity(list, entry);
      entities.push(entity);
      entries.set(entity.id, { list, entry });
    }
    versions.push({ id: watchlistVersionId(list.id, list.version), source: INTERNAL_LIST_SOURCE, contentHash: watchlistContentHash(listEntries), loadedAt, entityCount: listEntries.length, files: [] });
  }
  return {
    lists: snapshots.map(({ list }) => ({ id: list.id, name: list.name, severity: list.severity, version: list.version })),
    entries,
    engine: ScreeningEngine.build(entities, versions),
    versions,
  };
}

export class WatchlistIndexCache implements InternalListSource {
  private readonly cache = new Map<string, { key: string; index: InternalListIndex | undefined }>();

  constructor(
    private readonly deps: {
      watchlists: Pick<WatchlistService, 'activeVersions' | 'activeSnapshots'>;
      /** Where the per-screening version check asks (default: the watchlist service, a query each time; active-versions.ts keeps answers). */
      versions?: ActiveWatchlistVersions;
      store: Pick<EventStore, 'readStream'>;
      now: () => Date;
      maxAccounts?: number;
    },
  ) {}

  async indexFor(accountId: string, pinned?: readonly string[]): Promise<InternalListIndex | undefined> {
    if (pinned) return this.pinnedIndex(accountId, pinned);
    const active = await (this.deps.versions ?? this.deps.watchlists).activeVersions(accountId);
    if (active.length === 0) return undefined;
    const key = active.map((v) => `${v.id}@${v.version}`).join(',');
    const kept = this.cache.get(accountId);
    if (kept && kept.key === key) return kept.index;
    const snapshots = await this.deps.watchlists.activeSnapshots(accountId);
    // The read model moved between the two reads: index what was read, keyed by what it holds.
    const readKey = snapshots.map((s) => `${s.list.id}@${s.list.version}`).join(',');
    const index = snapshots.length ? buildInternalListIndex(snapshots, this.deps.now().toISOString()) : undefined;
    this.cache.delete(accountId);
    this.cache.set(accountId, { key: readKey, index });
    const max = this.deps.maxAccounts ?? 200;
    while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
    return index;
  }

  private async pinnedIndex(accountId: string, pinned: readonly string[]): Promise<InternalListIndex | undefined> {
    const snapshots: WatchlistSnapshot[] = [];
    for (const versionId of pinned) {
      const ref = parseWatchlistVersionId(versionId);
      if (!ref) throw new Error(`not an internal-list version: ${versionId}`);
      const snapshot = await watchlistAtVersion(this.deps.store, ref.watchlistId, ref.version);
      if (!snapshot || snapshot.list.accountId !== accountId) throw new Error(`internal-list version ${versionId} is not available`);
      snapshots.push(snapshot);
    }
    return snapshots.length ? buildInternalListIndex(snapshots, this.deps.now().toISOString()) : undefined;
  }
}
