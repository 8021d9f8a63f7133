/**
 * The firm's own lists (issue 21): commands through the watchlist decider, reads from the
 * `watchlists` read model, always scoped to the caller's account (another account's list is
 * "not found", never "forbidden": existence is not disclosed).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  foldToVersion,
  streamName,
  watchlistDecider,
  type ImportEntries,
  type WatchlistCommand,
  type WatchlistEvent,
  type WatchlistState,
} from '../../commands/watchlist';
import { NotFound } from '../../commands/errors';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { projectionSchema, quoteIdent } from '../../projections/projection';
import type { Watchlist, WatchlistEntry, WatchlistEntryInput, WatchlistSeverity } from '../../screening/watchlists/model';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { handleCommand } from '../../commands/command-handler';
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
  constructor(private readonly deps: WatchlistServiceDeps) {}

  /** Registers a listener; its failure is logged and never undoes or fails the committed change. */
  onChange(listener: WatchlistChangeListener): void {
    this.listeners.push(listener);
  }

  private async run(command: Omit<WatchlistCommand, 'metadata'>, ctx: CommandContext, options: { newStream?: boolean } = {}) {
    const full = { ...command, metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId } } as WatchlistCommand;
    const handled = await handleCommand(this.deps.store, watchlistDecider, streamName(full.data.watchlistId), full, options);
    await this.deps.readModelsCaughtUp(handled.lastGlobalPosition ?? undefined);
    if (handled.events.length) {
      for (const listener of this.listeners) {
        await listener(full.data.accountId, full.data.watchlistId, handled.events, handled.lastGlobalPosition ?? undefined).catch((err: unknown) =>
          this.deps.logger?.error({ err, watchlistId: full.data.watchlistId }, 'watchlist change listener failed (the change is committed)'),
        );
      }
    }
    return handled;
  }

  async create(accountId: string, input: WatchlistInput, ctx: CommandContext): Promise<WatchlistView> {
    const watchlistId = randomUUID();
    await this.run({ type: 'CreateWatchlist', data: { watchlistId, accountId, ...input } }, ctx, { newStream: true });
    return (await this.get(accountId, watchlistId))!;
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

  async addEntry(accountId: string, watchlistId: string, entryId: string | undefined, entry: WatchlistEntryInput, ctx: CommandContext): Promise<{ list: WatchlistView; entry: WatchlistEntry }> {
    const id = entryId ?? randomUUID();
    await this.run({ type: 'AddEntry', data: { watchlistId, accountId, entryId: id, entry, addedBy: addedByOf(ctx) } }, ctx);
    return { list: (await this.get(accountId, watchlistId))!, entry: (await this.entry(accountId, watchlistId, id))! };
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
   * All-or-nothing: the decider checks every row; the handler appends all the events in one append.
   * Under an Idempotency-Key the command id (the import id) is bound to the key: a retry that takes
   * over a request that died after its append finds that import in the stream and answers it.
   */
  async importEntries(accountId: string, watchlistId: string, data: Omit<ImportEntries['data'], 'watchlistId' | 'accountId' | 'addedBy'>, ctx: CommandContext): Promise<{ list: WatchlistView; imported: Record<string, unknown> }> {
    if (ctx.idempotency) {
      const earlier = (await this.deps.store.readStream(streamName(watchlistId))).find((e) => e.type === 'ListImported' && (e.data as { importId?: string }).importId === ctx.commandId);
      if (earlier) {
        await this.deps.readModelsCaughtUp(earlier.globalPosition);
        const list = await this.get(accountId, watchlistId);
        if (!list) throw new NotFound('watchlist', watchlistId);
        return { list, imported: earlier.data as Record<string, unknown> };
      }
    }
    const handled = await this.run({ type: 'ImportEntries', data: { watchlistId, accountId, ...data, addedBy: addedByOf(ctx) } }, ctx);
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
  const events = (await store.readStream(streamName(watchlistId))) as unknown as WatchlistEvent[];
  const state: WatchlistState = foldToVersion(events, version);
  if (state.status === 'none' || state.version !== version) return undefined;
  const { entries, ...list } = state;
  return { list: { id: list.id, accountId: list.accountId, name: list.name, purpose: list.purpose, severity: list.severity, owner: list.owner, status: list.status, version: list.version }, entries: [...entries.values()] };
}
