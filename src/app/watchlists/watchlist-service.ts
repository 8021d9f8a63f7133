/**
 * The firm's own lists (issue 21): commands through the watchlist decider, reads from the
 * `watchlists` read model, always scoped to the caller's account (another account's list is
 * "not found", never "forbidden": existence is not disclosed).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  beginImport,
  decideImportChunk,
  decideImportRemovals,
  evolve,
  importStagingStream,
  initialState,
  streamName,
  watchlistDecider,
  type EntriesImported,
  type ImportCounts,
  type ListImported,
  type WatchlistCommand,
  type WatchlistEvent,
  type WatchlistState,
} from '../../commands/watchlist';
import type { SpooledImport } from './watchlist-import';
import { NotFound } from '../../commands/errors';
import type { EventStore, ExpectedRevision } from '../../infrastructure/eventstore/port';
import type { RecordedEvent } from '../../shared/events';
import { projectionSchema, quoteIdent } from '../../projections/projection';
import type { Watchlist, WatchlistEntry, WatchlistEntryInput, WatchlistSeverity } from '../../screening/watchlists/model';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { handleCommand } from '../../commands/command-handler';
import { bindCreate, eventIdempotency, type CreateCommandMeta } from '../idempotency/binding';
import type { CommandContext } from '../services';

export interface WatchlistView extends Watchlist {
  entryCount: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  lastImport: Record<string, unknown> | null;
}

export interface WatchlistInput {
  name: string;
  purpose: string;
  severity: WatchlistSeverity;
  owner: string;
}

/** A list version with the entries it held: what the screening index is built from. */
export interface WatchlistSnapshot {
  list: Watchlist;
  entries: WatchlistEntry[];
}

export interface WatchlistServiceDeps {
  store: EventStore;
  pool: pg.Pool;
  clock: Clock;
  readModelsCaughtUp: (through?: bigint) => Promise<void>;
  logger?: Pick<Logger, 'error'>;
}

const table = (name: string) => `${quoteIdent(projectionSchema('watchlists'))}.${name}`;

interface ListRow {
  watchlist_id: string;
  account_id: string;
  name: string;
  purpose: string;
  severity: WatchlistSeverity;
  owner: string;
  status: 'active' | 'archived';
  version: number;
  entry_count: number;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  last_import: Record<string, unknown> | null;
}

function toView(r: ListRow): WatchlistView {
  return {
    id: r.watchlist_id,
    accountId: String(r.account_id),
    name: r.name,
    purpose: r.purpose,
    severity: r.severity,
    owner: r.owner,
    status: r.status,
    version: r.version,
    entryCount: r.entry_count,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    archivedAt: r.archived_at ? r.archived_at.toISOString() : null,
    lastImport: r.last_import,
  };
}

/** Who added an entry, as recorded: the user, else the API key. */
export function addedByOf(ctx: CommandContext): string {
  return ctx.actor.userId ?? (ctx.actor.keyId ? `key:${ctx.actor.keyId}` : `${ctx.actor.surface}`);
}

/** Called after a change is committed (monitoring reverse-matches the changed entries). */
export type WatchlistChangeListener = (accountId: string, watchlistId: string, events: readonly WatchlistEvent[], position: bigint | undefined) => Promise<unknown>;

export class WatchlistService {
  private readonly listeners: WatchlistChangeListener[] = [];
  /** The store as the decider must see a list: committed imports' chunks folded in (expandedStore). */
  private readonly expanding: EventStore;
  constructor(private readonly deps: WatchlistServiceDeps) {
    this.expanding = expandedStore(deps.store);
  }

  /** Registers a listener; its failure is logged and never undoes or fails the committed change. */
  onChange(listener: WatchlistChangeListener): void {
    this.listeners.push(listener);
  }

  /** `meta`: a create's command id and idempotency record (bindCreate); other commands use the request's command id. */
  private async run(command: Omit<WatchlistCommand, 'metadata'>, ctx: CommandContext, options: { newStream?: boolean; meta?: CreateCommandMeta } = {}) {
    const meta = options.meta ?? { commandId: ctx.commandId };
    const full = { ...command, metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, correlationId: ctx.correlationId, ...meta } } as WatchlistCommand;
    const handled = await handleCommand(this.expanding, watchlistDecider, streamName(full.data.watchlistId), full, options.newStream ? { newStream: true } : {});
    await this.deps.readModelsCaughtUp(handled.lastGlobalPosition ?? undefined);
    // A retry whose command an earlier attempt recorded waits too: that attempt may have died before.
    if (handled.events.length || handled.alreadyRecorded) {
      for (const listener of this.listeners) {
        await listener(full.data.accountId, full.data.watchlistId, handled.events, handled.lastGlobalPosition ?? undefined).catch((err: unknown) =>
          this.deps.logger?.error({ err, watchlistId: full.data.watchlistId }, 'watchlist change listener failed (the change is committed)'),
        );
      }
    }
    return handled;
  }

  /**
   * Under an Idempotency-Key the list's id is bound to the key before the append and the command id
   * derives from it: a retry (after a crash, or after a failure past the append) answers that list.
   */
  async create(accountId: string, input: WatchlistInput, ctx: CommandContext): Promise<WatchlistView> {
    const { id: watchlistId, meta } = await bindCreate(ctx, 'watchlist', async () => randomUUID());
    await this.run({ type: 'CreateWatchlist', data: { watchlistId, accountId, ...input } }, ctx, { newStream: true, meta });
    return this.found(accountId, watchlistId);
  }

  /** A list the caller's command just wrote (the read model has applied it): its view, or NotFound (never another tenant's). */
  private async found(accountId: string, watchlistId: string): Promise<WatchlistView> {
    const list = await this.get(accountId, watchlistId);
    if (!list) throw new NotFound('watchlist', watchlistId);
    return list;
  }

  async change(accountId: string, watchlistId: string, input: Partial<WatchlistInput>, ctx: CommandContext): Promise<WatchlistView> {
    await this.run({ type: 'ChangeWatchlist', data: { watchlistId, accountId, ...input } }, ctx);
    return (await this.get(accountId, watchlistId))!;
  }

  async archive(accountId: string, watchlistId: string, reason: string | undefined, ctx: CommandContext): Promise<WatchlistView> {
    const current = await this.get(accountId, watchlistId);
    if (!current) throw new NotFound('watchlist', watchlistId);
    // Archiving twice is the same as once.
    if (current.status === 'archived') return current;
    await this.run({ type: 'ArchiveWatchlist', data: { watchlistId, accountId, ...(reason !== undefined ? { reason } : {}) } }, ctx);
    return (await this.get(accountId, watchlistId))!;
  }

  /** Under an Idempotency-Key the entry's id (drawn, or the caller's) is bound to the key, as a list's is. */
  async addEntry(accountId: string, watchlistId: string, entryId: string | undefined, entry: WatchlistEntryInput, ctx: CommandContext): Promise<{ list: WatchlistView; entry: WatchlistEntry }> {
    const { id, meta } = await bindCreate(ctx, 'watchlist-entry', async () => entryId ?? randomUUID());
    await this.run({ type: 'AddEntry', data: { watchlistId, accountId, entryId: id, entry, addedBy: addedByOf(ctx) } }, ctx, { meta });
    const added = await this.entry(accountId, watchlistId, id);
    if (!added) throw new NotFound('watchlist entry', id);
    return { list: await this.found(accountId, watchlistId), entry: added };
  }

  async changeEntry(accountId: string, watchlistId: string, entryId: string, entry: WatchlistEntryInput, ctx: CommandContext): Promise<{ list: WatchlistView; entry: WatchlistEntry }> {
    await this.run({ type: 'ChangeEntry', data: { watchlistId, accountId, entryId, entry } }, ctx);
    return { list: (await this.get(accountId, watchlistId))!, entry: (await this.entry(accountId, watchlistId, entryId))! };
  }

  async removeEntry(accountId: string, watchlistId: string, entryId: string, reason: string | undefined, ctx: CommandContext): Promise<WatchlistView> {
    await this.run({ type: 'RemoveEntry', data: { watchlistId, accountId, entryId, ...(reason !== undefined ? { reason } : {}) } }, ctx);
    return (await this.get(accountId, watchlistId))!;
  }

  /**
   * Pass two of a streamed import (pass one, spoolImport, checked every row): the spooled rows are
   * decided in chunks against the list as it is now and appended, chunk by chunk, as EntriesImported
   * events to a staging stream of this attempt; one CommitImport then appends ListImported naming it.
   * Readers see nothing before that event (all-or-nothing); an attempt that dies half way leaves an
   * unreferenced staging stream (a retry uses a new one). A list changed meanwhile ⇒ Conflict.
   * Under an Idempotency-Key the import id is bound to the key: a retry that takes over a request
   * that died after its commit finds that import in the stream and answers it.
   */
  async importStaged(
    accountId: string,
    watchlistId: string,
    file: SpooledImport,
    options: { mode: 'add' | 'replace'; fileName: string; chunkSize?: number; skipBadRows?: boolean },
    ctx: CommandContext,
  ): Promise<{ list: WatchlistView; imported: Record<string, unknown> }> {
    if (ctx.idempotency) {
      const earlier = (await this.deps.store.readStream(streamName(watchlistId))).find((e) => e.type === 'ListImported' && (e.data as { importId?: string }).importId === ctx.commandId);
      if (earlier) {
        await this.deps.readModelsCaughtUp(earlier.globalPosition);
        const list = await this.get(accountId, watchlistId);
        if (!list) throw new NotFound('watchlist', watchlistId);
        return { list, imported: earlier.data as Record<string, unknown> };
      }
    }
    const addedBy = addedByOf(ctx);
    const now = this.deps.clock.now().toISOString();
    const state = await foldWatchlist(this.deps.store, watchlistId);
    const { base, ids } = beginImport(state, { watchlistId, accountId, mode: options.mode, source: { fileName: options.fileName }, addedBy });
    const basedOnVersion = base.version;
    const stagingId = randomUUID();
    const staging = importStagingStream(watchlistId, stagingId);
    const size = options.chunkSize ?? IMPORT_CHUNK_ENTRIES;
    // Event ids `<import>:<staging>:<chunk>:0`: unique per attempt, so a retry never collides with a dead one.
    const stampedBy = (chunk: number) => ({ type: 'StageImportChunk', data: {}, metadata: { now, actor: ctx.actor, commandId: `${ctx.commandId}:${stagingId}:${chunk}`, correlationId: ctx.correlationId } });
    const totals: ImportCounts = { rows: 0, added: 0, changed: 0, unchanged: 0, removed: 0 };
    let expected: ExpectedRevision = 'no_stream';
    let chunks = 0;
    const append = async (event: EntriesImported) => {
      const result = await this.deps.store.appendToStream(staging, [event], { expectedRevision: expected });
      expected = result.nextExpectedRevision;
      chunks += 1;
    };
    for await (const rows of file.chunks(size)) {
      const { event, counts } = decideImportChunk(base, ids, rows, { importId: ctx.commandId, chunk: chunks, addedBy, now, stampedBy: stampedBy(chunks) });
      for (const k of Object.keys(totals) as (keyof ImportCounts)[]) totals[k] += counts[k];
      await append(event);
    }
    if (options.mode === 'replace') {
      for (const event of decideImportRemovals(base, ids, file.entryIds, { importId: ctx.commandId, firstChunk: chunks, fileName: options.fileName, now, size, stampedBy })) {
        totals.removed += event.data.removed.length;
        await append(event);
      }
    }
    const handled = await this.run(
      {
        type: 'CommitImport',
        data: {
          watchlistId,
          accountId,
          importId: ctx.commandId,
          staging: { stream: staging, chunks },
          basedOnVersion,
          mode: options.mode,
          source: { fileName: options.fileName, sha256: file.sha256, format: file.format, bytes: file.bytes },
          counts: totals,
          ...(options.skipBadRows ? { skippedRows: file.badRows } : {}),
          dateOrders: Object.fromEntries(Object.entries(file.dateOrders).map(([column, o]) => [column, o.order])),
        },
      },
      ctx,
      // The import id is bound to the key by the route (with the file's digest); ListImported records the key.
      { meta: { commandId: ctx.commandId, ...(ctx.idempotency ? { idempotency: eventIdempotency(ctx.idempotency) } : {}) } },
    );
    const last = handled.events[handled.events.length - 1];
    const imported = last?.type === 'ListImported' ? (last.data as unknown as Record<string, unknown>) : {};
    return { list: (await this.get(accountId, watchlistId))!, imported };
  }

  async get(accountId: string, watchlistId: string): Promise<WatchlistView | undefined> {
    const { rows } = await this.deps.pool.query<ListRow>(`SELECT * FROM ${table('watchlists')} WHERE watchlist_id = $1 AND account_id = $2`, [watchlistId, accountId]);
    return rows[0] ? toView(rows[0]) : undefined;
  }

  async list(accountId: string, options: { status?: 'active' | 'archived'; page: number; limit: number }): Promise<{ items: WatchlistView[]; total: number }> {
    const params: unknown[] = [accountId];
    let where = 'account_id = $1';
    if (options.status) {
      params.push(options.status);
      where += ` AND status = $${params.length}`;
    }
    const total = await this.deps.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table('watchlists')} WHERE ${where}`, params);
    const { rows } = await this.deps.pool.query<ListRow>(
      `SELECT * FROM ${table('watchlists')} WHERE ${where} ORDER BY created_at, watchlist_id LIMIT ${options.limit} OFFSET ${(options.page - 1) * options.limit}`,
      params,
    );
    return { items: rows.map(toView), total: Number(total.rows[0]!.n) };
  }

  async entry(accountId: string, watchlistId: string, entryId: string): Promise<WatchlistEntry | undefined> {
    const { rows } = await this.deps.pool.query<{ entry: WatchlistEntry }>(
      `SELECT entry FROM ${table('watchlist_entries')} WHERE watchlist_id = $1 AND entry_id = $2 AND account_id = $3`,
      [watchlistId, entryId, accountId],
    );
    return rows[0]?.entry;
  }

  async entries(accountId: string, watchlistId: string, options: { page: number; limit: number; q?: string }): Promise<{ items: WatchlistEntry[]; total: number }> {
    const params: unknown[] = [watchlistId, accountId];
    let where = 'watchlist_id = $1 AND account_id = $2';
    if (options.q) {
      params.push(`%${options.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where += ` AND primary_name ILIKE $${params.length}`;
    }
    const total = await this.deps.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table('watchlist_entries')} WHERE ${where}`, params);
    const { rows } = await this.deps.pool.query<{ entry: WatchlistEntry }>(
      `SELECT entry FROM ${table('watchlist_entries')} WHERE ${where} ORDER BY entry_id LIMIT ${options.limit} OFFSET ${(options.page - 1) * options.limit}`,
      params,
    );
    return { items: rows.map((r) => r.entry), total: Number(total.rows[0]!.n) };
  }

  /** Every entry of a list, in pages of 1,000 (the CSV export streams them). */
  async *allEntries(accountId: string, watchlistId: string): AsyncGenerator<WatchlistEntry> {
    let after = '';
    for (;;) {
      const { rows } = await this.deps.pool.query<{ entry_id: string; entry: WatchlistEntry }>(
        `SELECT entry_id, entry FROM ${table('watchlist_entries')} WHERE watchlist_id = $1 AND account_id = $2 AND entry_id > $3 ORDER BY entry_id LIMIT 1000`,
        [watchlistId, accountId, after],
      );
      for (const r of rows) yield r.entry;
      if (rows.length < 1000) return;
      after = rows[rows.length - 1]!.entry_id;
    }
  }

  /** The account's active lists with their current entries (read model), for the screening index. */
  async activeSnapshots(accountId: string): Promise<WatchlistSnapshot[]> {
    const lists = await this.deps.pool.query<ListRow>(`SELECT * FROM ${table('watchlists')} WHERE account_id = $1 AND status = 'active' ORDER BY watchlist_id`, [accountId]);
    const out: WatchlistSnapshot[] = [];
    for (const r of lists.rows) {
      const { rows } = await this.deps.pool.query<{ entry: WatchlistEntry }>(`SELECT entry FROM ${table('watchlist_entries')} WHERE watchlist_id = $1 ORDER BY entry_id`, [r.watchlist_id]);
      const { entryCount: _c, createdAt: _cr, updatedAt: _u, archivedAt: _a, lastImport: _l, ...list } = toView(r);
      out.push({ list, entries: rows.map((x) => x.entry) });
    }
    return out;
  }

  /** The account's active lists (headers, no entries), by id: what the index cache compares and names. */
  async activeLists(accountId: string): Promise<Watchlist[]> {
    const { rows } = await this.deps.pool.query<ListRow>(`SELECT * FROM ${table('watchlists')} WHERE account_id = $1 AND status = 'active' ORDER BY watchlist_id`, [accountId]);
    return rows.map((r) => {
      const { entryCount: _c, createdAt: _cr, updatedAt: _u, archivedAt: _a, lastImport: _l, ...list } = toView(r);
      return list;
    });
  }

  /** Every entry of one of the account's lists, with the version that wrote it. */
  async entriesOf(accountId: string, watchlistId: string): Promise<{ entry: WatchlistEntry; version: number }[]> {
    const { rows } = await this.deps.pool.query<{ entry: WatchlistEntry; version: number }>(`SELECT entry, version FROM ${table('watchlist_entries')} WHERE watchlist_id = $1 AND account_id = $2`, [watchlistId, accountId]);
    return rows;
  }

  /** Given entries of one of the account's lists as the read model holds them, with the version that wrote each (absent: not in the list). */
  async entriesById(accountId: string, watchlistId: string, entryIds: readonly string[]): Promise<Map<string, { entry: WatchlistEntry; version: number }>> {
    const out = new Map<string, { entry: WatchlistEntry; version: number }>();
    for (let from = 0; from < entryIds.length; from += 10_000) {
      const { rows } = await this.deps.pool.query<{ entry_id: string; entry: WatchlistEntry; version: number }>(
        `SELECT entry_id, entry, version FROM ${table('watchlist_entries')} WHERE watchlist_id = $1 AND account_id = $2 AND entry_id = ANY($3::text[])`,
        [watchlistId, accountId, entryIds.slice(from, from + 10_000)],
      );
      for (const r of rows) out.set(r.entry_id, { entry: r.entry, version: r.version });
    }
    return out;
  }

  /** The account's active lists and their versions (cheap: the index cache compares them). */
  async activeVersions(accountId: string): Promise<{ id: string; version: number }[]> {
    const { rows } = await this.deps.pool.query<{ watchlist_id: string; version: number }>(
      `SELECT watchlist_id, version FROM ${table('watchlists')} WHERE account_id = $1 AND status = 'active' ORDER BY watchlist_id`,
      [accountId],
    );
    return rows.map((r) => ({ id: r.watchlist_id, version: r.version }));
  }
}

/**
 * One list at one version, rebuilt from its events (replay, `svc audit reproduce`): independent of
 * the read model, so an old screening is reproduced against exactly what it used.
 */
export async function watchlistAtVersion(store: Pick<EventStore, 'readStream'>, watchlistId: string, version: number): Promise<WatchlistSnapshot | undefined> {
  const state: WatchlistState = await foldWatchlist(store, watchlistId, version);
  if (state.status === 'none' || state.version !== version) return undefined;
  const { entries, ...list } = state;
  return { list: { id: list.id, accountId: list.accountId, name: list.name, purpose: list.purpose, severity: list.severity, owner: list.owner, status: list.status, version: list.version }, entries: [...entries.values()] };
}

/** A list's name, severity, status and version at a version, without its entries (imports' chunks are not read). */
export async function watchlistHeaderAtVersion(store: Pick<EventStore, 'readStream'>, watchlistId: string, version: number): Promise<{ list: Watchlist } | undefined> {
  let state = initialState();
  for (const event of (await store.readStream(streamName(watchlistId))) as unknown as WatchlistEvent[]) {
    if (event.data.version > version) break;
    if (event.type === 'EntryAdded' || event.type === 'EntryChanged' || event.type === 'EntryRemoved') {
      if (state.status !== 'none') state = { ...state, version: event.data.version };
      continue;
    }
    state = evolve(state, event);
  }
  if (state.status === 'none' || state.version !== version) return undefined;
  return { list: { id: state.id, accountId: state.accountId, name: state.name, purpose: state.purpose, severity: state.severity, owner: state.owner, status: state.status, version: state.version } };
}

/**
 * Entries per EntriesImported event of a streamed import. 250 (about 100 KB of JSON): each chunk is
 * held, written, read back and projected by several parts of the process at once, so the chunk is
 * what a 100k import has in flight (1,000 per chunk grew the peak RSS by about twice as much,
 * bench/watchlists/RESULTS-import.md).
 */
export const IMPORT_CHUNK_ENTRIES = 250;
/** Staging chunks read at a time when a committed import is folded. */
const CHUNKS_PER_READ = 20;

/** The EntriesImported chunks a committed ListImported names, read a few at a time. */
export async function* importChunks(store: Pick<EventStore, 'readStream'>, imported: Pick<ListImported['data'], 'stagingStream' | 'chunks'>): AsyncGenerator<RecordedEvent & EntriesImported> {
  if (!imported.stagingStream || !imported.chunks) return;
  for (let from = 0; from < imported.chunks; from += CHUNKS_PER_READ) {
    const events = await store.readStream(imported.stagingStream, { fromRevision: BigInt(from), maxCount: Math.min(CHUNKS_PER_READ, imported.chunks - from) });
    for (const e of events) if (e.type === 'EntriesImported') yield e as unknown as RecordedEvent & EntriesImported;
    if (events.length < Math.min(CHUNKS_PER_READ, imported.chunks - from)) throw new Error(`import staging stream ${imported.stagingStream} holds fewer chunks than its ListImported names`);
  }
}

/**
 * A list's state (up to a version): its stream folded, each committed streamed import's chunks
 * folded in just before the ListImported that commits them. Staging streams never committed are
 * never read.
 */
export async function foldWatchlist(store: Pick<EventStore, 'readStream'>, watchlistId: string, version?: number): Promise<WatchlistState> {
  let state = initialState();
  for (const event of (await store.readStream(streamName(watchlistId))) as unknown as (RecordedEvent & WatchlistEvent)[]) {
    if (version !== undefined && event.data.version > version) break;
    if (event.type === 'ListImported' && event.data.stagingStream) for await (const chunk of importChunks(store, event.data)) state = evolve(state, chunk);
    state = evolve(state, event);
  }
  return state;
}

/**
 * The store as a decider folding a list must see it: reading `watchlist-<id>` also returns each
 * committed import's chunks just before its ListImported (the last event, whose revision an append
 * expects, is still the list's own). Everything else passes through.
 */
export function expandedStore(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'readStream') {
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      }
      return async (name: string, options?: Parameters<EventStore['readStream']>[1]) => {
        const events = await target.readStream(name, options);
        if (!name.startsWith('watchlist-') || name.includes('.import-')) return events;
        const out: RecordedEvent[] = [];
        for (const e of events) {
          const data = e.data as { stagingStream?: string; chunks?: number };
          if (e.type === 'ListImported' && data.stagingStream) for await (const chunk of importChunks(target, data)) out.push(chunk);
          out.push(e);
        }
        return out;
      };
    },
  });
}
