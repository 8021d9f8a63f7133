/**
 * Per-account screening index of internal watchlists (issue 21): built with the same engine as the
 * official lists, kept in memory, and brought up to date **incrementally** when the account's active
 * lists or their versions change (compared before every screening: active-versions.ts keeps that
 * answer): the entries a list's
 * events touched since the indexed version are read (their ids from the list's stream and the
 * committed import chunks, their content from the read model) and only those are prepared; the rest
 * of the index is reused (ScreeningEngine.rebased). Entities are kept in one canonical order (list id,
 * then entry id, by code unit), the order a fresh build also uses, so the incremental index answers
 * exactly as a fresh build would (test/unit/watchlists/watchlist-index-incremental.test.ts). Anything
 * inconsistent (the read model moved between two reads) falls back to a fresh build.
 *
 * `versions` pins exact versions (`watchlist-<id>@v<n>`): each is rebuilt from its event stream
 * (replay, `svc audit reproduce`), independent of the read model's current state.
 */
import { createHash } from 'node:crypto';
import type { InternalListIndex, InternalListSource } from '../../agents/lists/internal-lists';
import { streamName } from '../../commands/watchlist/decider';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { RecordedEvent } from '../../shared/events';
import { ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListVersion } from '../../screening/model';
import { combinedFacts, entryFactKeys, WatchlistFactIndex } from '../../screening/watchlists/fact-index';
import { INTERNAL_LIST_SOURCE, parseWatchlistVersionId, relistEntity, toListEntity, watchlistVersionId, type Watchlist, type WatchlistEntry } from '../../screening/watchlists/model';
import { importChunks, watchlistAtVersion, type WatchlistSnapshot, type WatchlistService } from './watchlist-service';
import type { ActiveWatchlistVersions } from './active-versions';

type ListHeader = Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** SHA-256 over a version's entries in entry-id order: the content hash a screening records. */
export function watchlistContentHash(entries: readonly WatchlistEntry[]): string {
  return sortedContentHash([...entries].sort((a, b) => byCodeUnit(a.entryId, b.entryId)));
}

/**
 * Each entry's serialisation, kept while the entry object lives (an indexed list's entries do): a
 * list whose version moves is hashed again whole (the hash is over the sequence), but its unchanged
 * entries are not serialised again.
 */
const serialised = new WeakMap<WatchlistEntry, string>();

function sortedContentHash(sorted: readonly WatchlistEntry[]): string {
  const hash = createHash('sha256');
  for (const e of sorted) {
    let line = serialised.get(e);
    if (line === undefined) serialised.set(e, (line = JSON.stringify(e) + '\n'));
    hash.update(line);
  }
  return hash.digest('hex');
}

/** Each entry's fact keys (document, phone, e-mail, date of birth), kept while the entry object lives, like its serialisation. */
const factKeys = new WeakMap<WatchlistEntry, readonly string[]>();

function keysOf(entry: WatchlistEntry): readonly string[] {
  let keys = factKeys.get(entry);
  if (keys === undefined) factKeys.set(entry, (keys = entry.status === 'inactive' ? [] : entryFactKeys(entry)));
  return keys;
}

/** One list as indexed: its entries in entry-id order, their engine entities (same order) and its fact index. */
interface IndexedList {
  list: ListHeader;
  entries: WatchlistEntry[];
  entities: ListEntity[];
  facts: WatchlistFactIndex;
  version: ListVersion;
}

function indexedList(list: ListHeader, sortedEntries: WatchlistEntry[], entities: ListEntity[], loadedAt: string): IndexedList {
  const version: ListVersion = { id: watchlistVersionId(list.id, list.version), source: INTERNAL_LIST_SOURCE, contentHash: sortedContentHash(sortedEntries), loadedAt, entityCount: sortedEntries.length, files: [] };
  const facts = WatchlistFactIndex.build(sortedEntries.map((e, i) => [entities[i]!.id, keysOf(e)] as const));
  return { list, entries: sortedEntries, entities, facts, version };
}

function header(list: Watchlist | ListHeader): ListHeader {
  return { id: list.id, name: list.name, severity: list.severity, version: list.version };
}

function toIndex(lists: readonly IndexedList[], engine: ScreeningEngine): InternalListIndex {
  const entries = new Map<string, { list: ListHeader; entry: WatchlistEntry }>();
  for (const l of lists) for (let i = 0; i < l.entries.length; i++) entries.set(l.entities[i]!.id, { list: l.list, entry: l.entries[i]! });
  const versions = lists.map((l) => l.version);
  return { lists: lists.map((l) => l.list), entries, engine, facts: combinedFacts(lists.map((l) => l.facts)), versions };
}

/** Same engine names: the entity's prepared names can be reused. */
function sameNames(a: ListEntity, b: ListEntity): boolean {
  if (a.schema !== b.schema || a.primaryName !== b.primaryName || a.names.length !== b.names.length) return false;
  for (let i = 0; i < a.names.length; i++) if (a.names[i]!.value !== b.names[i]!.value || a.names[i]!.kind !== b.names[i]!.kind) return false;
  return true;
}

interface Built {
  lists: IndexedList[];
  engine: ScreeningEngine;
  index: InternalListIndex;
}

function buildFresh(snapshots: readonly WatchlistSnapshot[], loadedAt: string): Built {
  const lists = [...snapshots]
    .sort((a, b) => byCodeUnit(a.list.id, b.list.id))
    .map(({ list, entries }) => {
      const sorted = [...entries].sort((a, b) => byCodeUnit(a.entryId, b.entryId));
      const h = header(list);
      return indexedList(h, sorted, sorted.map((e) => toListEntity(h, e)), loadedAt);
    });
  const engine = ScreeningEngine.build(
    lists.flatMap((l) => l.entities),
    lists.map((l) => l.version),
  );
  return { lists, engine, index: toIndex(lists, engine) };
}

/** The index over these lists, built whole (replay, reproduce, monitoring, the cache's first build). */
export function buildInternalListIndex(snapshots: readonly WatchlistSnapshot[], loadedAt: string): InternalListIndex {
  return buildFresh(snapshots, loadedAt).index;
}

/**
 * The index `previous` brought to `lists`: each list whose version moved gets `deltas` (entry id →
 * its entry now, or null: removed; a list new to the index has every entry in its delta); the
 * entities of untouched entries are reused, and only the touched entries' names are prepared.
 */
export function updateInternalListIndex(
  previous: Built,
  lists: readonly ListHeader[],
  deltas: ReadonlyMap<string, ReadonlyMap<string, WatchlistEntry | null>>,
  loadedAt: string,
): Built {
  const before = new Map<string, { indexed: IndexedList; offset: number }>();
  let offset = 0;
  for (const l of previous.lists) {
    before.set(l.list.id, { indexed: l, offset });
    offset += l.entities.length;
  }
  const next: IndexedList[] = [];
  const prev: number[] = [];
  for (const list of [...lists].sort((a, b) => byCodeUnit(a.id, b.id))) {
    const old = before.get(list.id);
    const delta = deltas.get(list.id);
    if (old && old.indexed.list.version === list.version && !delta) {
      next.push(old.indexed);
      for (let i = 0; i < old.indexed.entities.length; i++) prev.push(old.offset + i);
      continue;
    }
    const h = header(list);
    const oldEntries = old?.indexed.entries ?? [];
    const oldEntities = old?.indexed.entities ?? [];
    const keys = delta ? [...delta.keys()].sort(byCodeUnit) : [];
    const entries: WatchlistEntry[] = [];
    const entities: ListEntity[] = [];
    // the untouched entries keep their entity (its list-dependent fields those of the list now)
    const sameList = old !== undefined && old.indexed.list.version === list.version && old.indexed.list.name === list.name && old.indexed.list.severity === list.severity;
    const carried = (i: number) => (sameList ? oldEntities[i]! : relistEntity(h, oldEntities[i]!));
    let i = 0;
    let j = 0;
    while (i < oldEntries.length || j < keys.length) {
      const cmp = j >= keys.length ? -1 : i >= oldEntries.length ? 1 : byCodeUnit(oldEntries[i]!.entryId, keys[j]!);
      if (cmp < 0) {
        entries.push(oldEntries[i]!);
        entities.push(carried(i));
        prev.push(old!.offset + i);
        i++;
        continue;
      }
      const now = delta!.get(keys[j]!) ?? null;
      if (now) {
        const entity = toListEntity(h, now);
        entries.push(now);
        entities.push(entity);
        prev.push(cmp === 0 && sameNames(oldEntities[i]!, entity) ? old!.offset + i : -1);
      }
      if (cmp === 0) i++;
      j++;
    }
    next.push(indexedList(h, entries, entities, loadedAt));
  }
  const engine = previous.engine.rebased(
    next.flatMap((l) => l.entities),
    next.map((l) => l.version),
    Int32Array.from(prev),
  );
  return { lists: next, engine, index: toIndex(next, engine) };
}

function sameVersions(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((v) => set.has(v));
}

export class WatchlistIndexCache implements InternalListSource {
  private readonly cache = new Map<string, { key: string; built: Built | undefined }>();
  /** How the last index of each account was made (benches and tests read it). */
  readonly lastBuild = new Map<string, { mode: 'fresh' | 'incremental'; prepared: number; ms: number }>();

  constructor(
    private readonly deps: {
      watchlists: Pick<WatchlistService, 'activeVersions' | 'activeLists' | 'activeSnapshots' | 'entriesById' | 'entriesOf'>;
      /** Where the per-screening version check asks (default: the watchlist service, a query each time; active-versions.ts keeps answers). */
      versions?: ActiveWatchlistVersions;
      store: Pick<EventStore, 'readStream'>;
      now: () => Date;
      maxAccounts?: number;
    },
  ) {}

  async indexFor(accountId: string, pinned?: readonly string[]): Promise<InternalListIndex | undefined> {
    const active = await (this.deps.versions ?? this.deps.watchlists).activeVersions(accountId);
    // Versions pinned by a request that are still the active ones are the kept index (no rebuild from the events).
    if (pinned && !sameVersions(pinned, active.map((v) => watchlistVersionId(v.id, v.version)))) return this.pinnedIndex(accountId, pinned);
    if (active.length === 0) return undefined;
    const key = active.map((v) => `${v.id}@${v.version}`).join(',');
    const kept = this.cache.get(accountId);
    if (kept && kept.key === key) return kept.built?.index;
    const t0 = performance.now();
    let built: Built | undefined;
    let readKey = key;
    if (kept?.built) {
      // the lists' headers as the read model holds them now (their versions may be newer than `active`)
      const lists = await this.deps.watchlists.activeLists(accountId);
      readKey = lists.map((v) => `${v.id}@${v.version}`).join(',');
      const deltas = lists.length ? await this.deltas(accountId, lists, kept.built) : undefined;
      if (deltas) {
        built = updateInternalListIndex(kept.built, lists, deltas, this.deps.now().toISOString());
        let prepared = 0;
        for (const d of deltas.values()) prepared += d.size;
        this.lastBuild.set(accountId, { mode: 'incremental', prepared, ms: performance.now() - t0 });
      }
    }
    if (!built) {
      const snapshots = await this.deps.watchlists.activeSnapshots(accountId);
      // The read model moved between the two reads: index what was read, keyed by what it holds.
      readKey = snapshots.map((s) => `${s.list.id}@${s.list.version}`).join(',');
      built = snapshots.length ? buildFresh(snapshots, this.deps.now().toISOString()) : undefined;
      this.lastBuild.set(accountId, { mode: 'fresh', prepared: built?.engine.listedEntities().length ?? 0, ms: performance.now() - t0 });
    }
    this.cache.delete(accountId);
    this.cache.set(accountId, { key: readKey, built });
    const max = this.deps.maxAccounts ?? 200;
    while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
    return built?.index;
  }

  /**
   * What changed in each list whose version moved since `built` (a list new to the index: since
   * version 0): the entry ids the list's events (and committed import chunks) touched after the
   * indexed version up to the read model's, with their content from the read model. undefined when
   * the read model is not exactly at that version for one of them (it moved): build afresh.
   */
  private async deltas(accountId: string, active: readonly Watchlist[], built: Built): Promise<Map<string, Map<string, WatchlistEntry | null>> | undefined> {
    const indexed = new Map(built.lists.map((l) => [l.list.id, l]));
    const out = new Map<string, Map<string, WatchlistEntry | null>>();
    for (const list of active) {
      const old = indexed.get(list.id);
      const from = old?.list.version ?? 0;
      if (from === list.version) continue;
      if (from > list.version) return undefined;
      const events = (await this.deps.store.readStream(streamName(list.id))).filter((e) => {
        const v = (e.data as { version: number }).version;
        return v > from && v <= list.version;
      });
      if ((events.at(-1)?.data as { version: number } | undefined)?.version !== list.version) return undefined;
      // a list new to the index, or imports that touch much of it: the list is read whole from the read model
      let imported = 0;
      for (const e of events) if (e.type === 'ListImported') imported += (e.data as { rows: number }).rows;
      const delta = !old || imported > Math.max(1000, old.entries.length / 4) ? await this.wholeListDelta(accountId, list, old) : await this.touchedDelta(accountId, list, events);
      if (!delta) return undefined;
      out.set(list.id, delta);
    }
    return out;
  }

  /** The entries the events touched (ids from the events, content from the read model, which must be at exactly their versions). */
  private async touchedDelta(accountId: string, list: Watchlist, events: readonly RecordedEvent[]): Promise<Map<string, WatchlistEntry | null> | undefined> {
    const touched = new Map<string, { version: number; removed: boolean }>();
    for (const event of events) {
      const data = event.data as { version: number; entryId?: string; entry?: WatchlistEntry; stagingStream?: string; chunks?: number };
      switch (event.type) {
        case 'EntryAdded':
        case 'EntryChanged':
          touched.set(data.entry!.entryId, { version: data.version, removed: false });
          break;
        case 'EntryRemoved':
          touched.set(data.entryId!, { version: data.version, removed: true });
          break;
        case 'ListImported':
          for await (const chunk of importChunks(this.deps.store, data)) {
            for (const e of chunk.data.added) touched.set(e.entryId, { version: data.version, removed: false });
            for (const e of chunk.data.changed) touched.set(e.entryId, { version: data.version, removed: false });
            for (const r of chunk.data.removed) touched.set(r.entryId, { version: data.version, removed: true });
          }
          break;
        default:
          break;
      }
    }
    const rows = await this.deps.watchlists.entriesById(accountId, list.id, [...touched.keys()]);
    const delta = new Map<string, WatchlistEntry | null>();
    for (const [entryId, t] of touched) {
      const row = rows.get(entryId);
      if (t.removed) {
        if (row) return undefined;
        delta.set(entryId, null);
      } else {
        if (!row || row.version !== t.version) return undefined;
        delta.set(entryId, row.entry);
      }
    }
    return delta;
  }

  /**
   * The list read whole: entries written after the indexed version are the delta, indexed entries
   * missing are removed. Consistent only if no row is newer than the list's version and the list is
   * still at that version after the read.
   */
  private async wholeListDelta(accountId: string, list: Watchlist, old: IndexedList | undefined): Promise<Map<string, WatchlistEntry | null> | undefined> {
    const from = old?.list.version ?? 0;
    const rows = await this.deps.watchlists.entriesOf(accountId, list.id);
    const still = (await this.deps.watchlists.activeLists(accountId)).find((l) => l.id === list.id);
    if (still?.version !== list.version) return undefined;
    const before = new Set(old?.entries.map((e) => e.entryId));
    const delta = new Map<string, WatchlistEntry | null>();
    for (const row of rows) {
      if (row.version > list.version) return undefined;
      if (row.version > from) delta.set(row.entry.entryId, row.entry);
      else if (!before.delete(row.entry.entryId)) return undefined;
    }
    for (const gone of before) if (!delta.has(gone)) delta.set(gone, null);
    return delta;
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
