/**
 * Watchlist monitoring as a durable, store-driven process manager (issue 21): it follows the global
 * log from its own checkpoint (table process_checkpoints), and for each committed change of a list's
 * entries (EntryAdded / EntryChanged / EntryRemoved, an import's entries; stream `watchlist-<id>`)
 * reverse-matches the owning account's monitored subjects (WatchlistMonitoring.onChange).
 *
 * The checkpoint moves only after a batch's alerts are recorded. The alerts are idempotent (id
 * `watchlist-<id>@v<n>:<kind>:<entity>`, recorded once by the screening decider), so a crash or a
 * failure between a change and its alerts replays the change on restart (or on the retry) and
 * raises each alert exactly once. A failed batch stops the subscription; it is resumed from the
 * stored checkpoint after `retryDelayMs`, so a transient fault is caught up without a restart.
 *
 * The API waits (bounded) for the process to pass the change it committed, so an answer still
 * normally comes with its alerts; a failure there never fails the committed change.
 */
import type pg from 'pg';
import type { EntriesImported, ListImported, WatchlistEvent } from '../../commands/watchlist';
import { importChunks } from './watchlist-service';
import { subscribeInBatches, type EventStore, type Subscription } from '../../infrastructure/eventstore/port';
import type { RecordedEvent } from '../../shared/events';
import { systemTimer, type Timer } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { WatchlistMonitoring } from './watchlist-monitoring';

export const WATCHLIST_MONITORING_PROCESS = 'watchlist_monitoring';
const IDLE_CHECKPOINT_EVERY = 5_000n;
const ENTRY_EVENTS: ReadonlySet<string> = new Set(['EntryAdded', 'EntryChanged', 'EntryRemoved']);

export interface WatchlistMonitoringProcessDeps {
  store: EventStore;
  pool: pg.Pool;
  monitoring: Pick<WatchlistMonitoring, 'onChange'>;
  /** The read models (monitored subjects, live hits) reflect the log through a position. */
  readModelsCaughtUp: (through?: bigint) => Promise<void>;
  logger: Logger;
  /** Resume after a failed batch (ms). */
  retryDelayMs?: number;
  /** How long the API waits for its change to be monitored (ms). */
  waitMs?: number;
  pollIntervalMs?: number;
  /** Measures the wait (the injected monotonic timer; the system one by default). */
  timer?: Timer;
}

/** Consecutive entry events of one list version: one reverse-match each (an import's rows together). */
export function changeGroups(events: readonly RecordedEvent[]): { accountId: string; watchlistId: string; events: WatchlistEvent[]; imported?: ListImported['data'] }[] {
  const groups: { key: string; accountId: string; watchlistId: string; events: WatchlistEvent[]; imported?: ListImported['data'] }[] = [];
  for (const e of events) {
    if (e.type === 'ListImported' && e.streamName.startsWith('watchlist-') && (e.data as ListImported['data']).stagingStream) {
      // A streamed import: its entries are the chunks it names, read when the group is handled.
      const data = e.data as ListImported['data'];
      groups.push({ key: `${data.watchlistId}@${data.version}:import`, accountId: data.accountId, watchlistId: data.watchlistId, events: [], imported: data });
      continue;
    }
    if (!e.streamName.startsWith('watchlist-') || !ENTRY_EVENTS.has(e.type)) continue;
    const data = e.data as { watchlistId: string; accountId: string; version: number };
    const key = `${data.watchlistId}@${data.version}`;
    const last = groups[groups.length - 1];
    if (last?.key === key) last.events.push(e as unknown as WatchlistEvent);
    else groups.push({ key, accountId: data.accountId, watchlistId: data.watchlistId, events: [e as unknown as WatchlistEvent] });
  }
  return groups.map(({ accountId, watchlistId, events: grouped, imported }) => ({ accountId, watchlistId, events: grouped, ...(imported ? { imported } : {}) }));
}

export async function readProcessCheckpoint(pool: pg.Pool, name: string): Promise<bigint> {
  const { rows } = await pool.query<{ position: string }>('SELECT position FROM process_checkpoints WHERE name = $1', [name]);
  return rows[0] ? BigInt(rows[0].position) : 0n;
}

export class WatchlistMonitoringProcess {
  private subscription: Subscription | undefined;
  private stopped = true;
  private retry: NodeJS.Timeout | undefined;
  /** Which subscription is current: a late error of an older one is ignored. */
  private generation = 0;
  private written = 0n;

  constructor(private readonly deps: WatchlistMonitoringProcessDeps) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.follow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop().catch(() => undefined);
  }

  /** Waits (at most waitMs) until the changes through `position` are monitored; never throws. */
  async caughtUp(position: bigint | undefined): Promise<boolean> {
    const waitMs = this.deps.waitMs ?? 10_000;
    const monotonic = this.deps.timer ?? systemTimer;
    const deadline = monotonic.nowMs() + waitMs;
    while (!this.stopped && monotonic.nowMs() < deadline) {
      const subscription = this.subscription;
      if (subscription) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), Math.max(1, deadline - monotonic.nowMs()));
        });
        try {
          const done = await Promise.race([subscription.caughtUp(position).then(() => true as const), timeout]);
          if (done) return true;
        } catch {
          // the subscription failed: it resumes from its checkpoint; wait for the next one
        } finally {
          clearTimeout(timer);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    this.deps.logger.warn({ position: position === undefined ? undefined : String(position) }, 'watchlist change committed; its monitoring is not done yet (it will be caught up)');
    return false;
  }

  private async follow(): Promise<void> {
    if (this.stopped) return;
    const after = await readProcessCheckpoint(this.deps.pool, WATCHLIST_MONITORING_PROCESS);
    this.written = after;
    const generation = ++this.generation;
    this.subscription = subscribeInBatches(this.deps.store, (batch) => this.handle(batch), {
      after,
      ...(this.deps.pollIntervalMs ? { pollIntervalMs: this.deps.pollIntervalMs } : {}),
      onError: (error) => {
        if (generation !== this.generation || this.stopped) return;
        this.deps.logger.error({ err: error }, 'watchlist monitoring failed; resuming from its checkpoint');
        const failed = this.subscription;
        this.subscription = undefined;
        void failed?.stop().catch(() => undefined);
        this.retry = setTimeout(() => {
          this.follow().catch((err: unknown) => {
            this.deps.logger.error({ err }, 'watchlist monitoring could not resume');
            this.retry = setTimeout(() => void this.follow().catch(() => undefined), this.deps.retryDelayMs ?? 1000);
          });
        }, this.deps.retryDelayMs ?? 1000);
        this.retry.unref?.();
      },
    });
  }

  private async handle(batch: RecordedEvent[]): Promise<void> {
    const groups = changeGroups(batch);
    const through = batch[batch.length - 1]!.globalPosition;
    // Without a change the checkpoint is written now and then only (a restart re-reads a little).
    if (groups.length === 0 && through - this.written < IDLE_CHECKPOINT_EVERY) return;
    if (groups.length > 0) await this.deps.readModelsCaughtUp(through);
    for (const g of groups) {
      if (!g.imported) {
        await this.deps.monitoring.onChange(g.accountId, g.watchlistId, g.events);
        continue;
      }
      // One reverse match per chunk (alerts are idempotent by id, so a chunk replayed after a crash raises nothing twice).
      for await (const chunk of importChunks(this.deps.store, g.imported)) await this.deps.monitoring.onChange(g.accountId, g.watchlistId, chunkAsEntryEvents(chunk));
    }
    this.written = through;
    await this.deps.pool.query(
      `INSERT INTO process_checkpoints (name, position) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET position = GREATEST(process_checkpoints.position, EXCLUDED.position), updated_at = now()`,
      [WATCHLIST_MONITORING_PROCESS, String(through)],
    );
  }
}

/** A streamed import's chunk as the entry events the reverse match takes (same version, same entries). */
export function chunkAsEntryEvents(chunk: EntriesImported): WatchlistEvent[] {
  const d = chunk.data;
  const ids = { watchlistId: d.watchlistId, accountId: d.accountId, version: d.version, importId: d.importId };
  return [
    ...d.added.map((entry): WatchlistEvent => ({ type: 'EntryAdded', data: { ...ids, entry }, metadata: chunk.metadata })),
    ...d.changed.map((entry): WatchlistEvent => ({ type: 'EntryChanged', data: { ...ids, entry, changedAt: d.importedAt }, metadata: chunk.metadata })),
    ...d.removed.map((r): WatchlistEvent => ({ type: 'EntryRemoved', data: { ...ids, entryId: r.entryId, primaryName: r.primaryName, reason: r.reason, removedAt: d.importedAt }, metadata: chunk.metadata })),
  ];
}
