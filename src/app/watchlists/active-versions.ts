/**
 * Which internal watchlists an account has active, and at which versions: what the screening index
 * cache (watchlist-index.ts) compares before every screening. Asked once per screening, so the
 * answer is kept in memory per account and dropped when a watchlist event of that account reaches
 * the read model, instead of a query per screening (which also made the sanctions agent answer a
 * round trip after the others, so its result took an append of its own).
 *
 * Consistency: an answer is the read model's rows together with the watchlists read model's
 * checkpoint, read in one statement (one snapshot: the runner moves the checkpoint in the
 * transaction that applies the events). An answer read as of checkpoint C is kept only while no
 * event of that account after C has been handled by this process's projection runner, which calls
 * `observe` with each batch before applied() counts it. So whoever waited for the read models (the
 * watchlist service does, before answering a change) never gets an older answer here than from
 * the read model. Without a runner in this process (`follow` never called) every call queries.
 */
import type pg from 'pg';
import { streamName as watchlistStream, watchlistEventTypes } from '../../commands/watchlist';
import { projectionSchema, quoteIdent } from '../../projections/projection';
import type { RecordedEvent } from '../../shared/events';

export interface WatchlistVersion {
  id: string;
  version: number;
}

/** The small interface the screening index asks (the cache below, or the watchlist service itself). */
export interface ActiveWatchlistVersions {
  activeVersions(accountId: string): Promise<WatchlistVersion[]>;
}

/** Something that reports each batch of events its read models have handled (the projection runner). */
export interface HandledBatches {
  onBatchHandled(listener: (batch: readonly RecordedEvent[]) => void): void;
}

const WATCHLIST_EVENTS: ReadonlySet<string> = new Set(watchlistEventTypes);

interface Kept {
  asOf: bigint;
  versions: WatchlistVersion[];
}

export class CachedActiveWatchlistVersions implements ActiveWatchlistVersions {
  private readonly kept = new Map<string, Kept>();
  /** Per account, the position of the latest watchlist event the runner handled (an older answer is stale). */
  private readonly changedAt = new Map<string, bigint>();
  /** A watchlist event whose account could not be told: every answer up to it is stale. */
  private allChangedAt = -1n;
  private following = false;
  private readonly maxAccounts: number;

  constructor(private readonly deps: { pool: Pick<pg.Pool, 'query'>; maxAccounts?: number }) {
    this.maxAccounts = deps.maxAccounts ?? 10_000;
  }

  /** Starts keeping answers, dropped as the runner reports watchlist events (call once the runner runs). */
  follow(source: HandledBatches): void {
    source.onBatchHandled((batch) => this.observe(batch));
    this.following = true;
  }

  async activeVersions(accountId: string): Promise<WatchlistVersion[]> {
    const kept = this.kept.get(accountId);
    if (kept && !this.staleAfter(accountId, kept.asOf)) return kept.versions;
    // Kept only if the runner was already reporting when the read began (no change can slip between).
    const keepable = this.following;
    const { rows } = await this.deps.pool.query<{ as_of: string; watchlist_id: string | null; version: number | null }>(
      `SELECT c.position::text AS as_of, w.watchlist_id, w.version
         FROM projection_checkpoints c
         LEFT JOIN ${quoteIdent(projectionSchema('watchlists'))}.watchlists w ON w.account_id = $1 AND w.status = 'active'
        WHERE c.name = 'watchlists'
        ORDER BY w.watchlist_id`,
      [accountId],
    );
    const versions = rows.flatMap((r) => (r.watchlist_id === null ? [] : [{ id: r.watchlist_id, version: r.version! }]));
    const asOf = rows[0] ? BigInt(rows[0].as_of) : -1n;
    // No checkpoint row (read model not set up): nothing to keep an answer against.
    if (keepable && rows[0] && !this.staleAfter(accountId, asOf)) this.keep(accountId, { asOf, versions });
    return versions;
  }

  /** Drops the answers a batch of handled events made stale. */
  observe(batch: readonly RecordedEvent[]): void {
    for (const event of batch) {
      if (!WATCHLIST_EVENTS.has(event.type)) continue;
      const data = event.data as { watchlistId?: unknown; accountId?: unknown } | undefined;
      if (typeof data?.watchlistId !== 'string' || event.streamName !== watchlistStream(data.watchlistId)) continue; // another aggregate's event type of the same name
      if (typeof data.accountId !== 'string') {
        this.allChangedAt = event.globalPosition;
        this.kept.clear();
        continue;
      }
      const before = this.changedAt.get(data.accountId);
      if (before === undefined || event.globalPosition > before) {
        this.changedAt.delete(data.accountId);
        this.changedAt.set(data.accountId, event.globalPosition);
      }
      const kept = this.kept.get(data.accountId);
      if (kept && kept.asOf < event.globalPosition) this.kept.delete(data.accountId);
    }
    // Bounded: forgetting when accounts changed is safe only together with forgetting every answer.
    if (this.changedAt.size > this.maxAccounts) {
      this.allChangedAt = [...this.changedAt.values()].reduce((a, b) => (a > b ? a : b), this.allChangedAt);
      this.changedAt.clear();
      this.kept.clear();
    }
  }

  private staleAfter(accountId: string, asOf: bigint): boolean {
    return asOf < this.allChangedAt || asOf < (this.changedAt.get(accountId) ?? -1n);
  }

  private keep(accountId: string, kept: Kept): void {
    this.kept.delete(accountId);
    this.kept.set(accountId, kept);
    while (this.kept.size > this.maxAccounts) this.kept.delete(this.kept.keys().next().value!);
  }
}
