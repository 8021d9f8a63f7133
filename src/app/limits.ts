/**
 * Fixed-window rate and quota limits in PostgreSQL (table `limit_counters`, migration 030_limits.sql).
 *
 * A consume is one statement: INSERT … ON CONFLICT DO UPDATE SET count = count + 1 WHERE count < limit
 * RETURNING count. PostgreSQL locks the conflicting row and re-checks the WHERE clause on its latest
 * version, so concurrent requests — from any number of API instances — are counted exactly, and a
 * request that is denied (no row returned) leaves the count as it was. Time comes from the injected
 * Clock, never from the database, so tests drive windows with a ManualClock.
 */
import type pg from 'pg';
import type { Clock } from '../shared/clock';
import type { LimitDecision, LimitService, LimitWindowOptions } from './services';

export interface LimitWindow {
  start: Date;
  end: Date;
}

/** The window `now` falls in: epoch-aligned `windowSeconds`, or the UTC calendar month. */
export function limitWindowAt(now: Date, windowSeconds: number, options: LimitWindowOptions = {}): LimitWindow {
  if (options.align === 'utc_month') {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    return { start, end };
  }
  if (!Number.isInteger(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  }
  const size = windowSeconds * 1000;
  const startMs = Math.floor(now.getTime() / size) * size;
  return { start: new Date(startMs), end: new Date(startMs + size) };
}

/** The decision for a window after a consume attempt (count: the window's count after it). */
export function limitDecision(now: Date, window: LimitWindow, limit: number, count: number, allowed: boolean): LimitDecision {
  const resetAt = Math.ceil(window.end.getTime() / 1000);
  const result: LimitDecision = { allowed, limit, remaining: Math.max(0, limit - count), resetAt };
  if (!allowed) result.retryAfterSeconds = Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
  return result;
}

/** What a count returns: the window's count after it, and whether this count opened the window. */
export interface WindowCount {
  count: number;
  inserted: boolean;
}

/**
 * The fixed-window count as one SQL statement: `source` gives the row (bucket, window_start,
 * window_end, 1); the window's count goes up by one unless it has reached `limit` (an SQL
 * expression). PostgreSQL locks the conflicting row and re-checks the WHERE clause on its latest
 * version, so concurrent counts are exact and a refused one changes nothing (no row returned).
 * consume() runs it alone; the key lookup runs it inside its own statement.
 */
export function countInWindowSql(source: string, limit: string): string {
  return `INSERT INTO limit_counters AS c (bucket, window_start, window_end, count)
       ${source}
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + 1
         WHERE c.count < ${limit}
       RETURNING c.count, (xmax = 0) AS inserted`;
}

/** The decision after countInWindowSql (no count: refused, the window is full and stays as it was). */
export async function settleCount(
  db: Pick<pg.Pool, 'query'>,
  at: { now: Date; window: LimitWindow; limit: number; bucket: string },
  counted: WindowCount | undefined,
): Promise<LimitDecision> {
  if (!counted) return limitDecision(at.now, at.window, at.limit, at.limit, false);
  if (counted.inserted) {
    // A new window opened for this bucket: drop its expired windows so the table stays small.
    await db.query('DELETE FROM limit_counters WHERE bucket = $1 AND window_end <= $2', [at.bucket, at.window.start]);
  }
  return limitDecision(at.now, at.window, at.limit, counted.count, true);
}

export class PgLimitService implements LimitService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async consume(bucket: string, limit: number, windowSeconds: number, options?: LimitWindowOptions): Promise<LimitDecision> {
    const now = this.clock.now();
    const window = limitWindowAt(now, windowSeconds, options);
    if (limit <= 0) {
      // Nothing can ever be allowed: do not write a row whose first insert would count as allowed.
      return limitDecision(now, window, limit, 0, false);
    }
    const { rows } = await this.pool.query<WindowCount>(countInWindowSql('VALUES ($1, $2, $3, 1)', '$4'), [bucket, window.start, window.end, limit]);
    return settleCount(this.pool, { now, window, limit, bucket }, rows[0]);
  }

  async peek(bucket: string, limit: number, windowSeconds: number, options?: LimitWindowOptions): Promise<LimitDecision> {
    const now = this.clock.now();
    const window = limitWindowAt(now, windowSeconds, options);
    const { rows } = await this.pool.query<{ count: number }>(
      'SELECT count FROM limit_counters WHERE bucket = $1 AND window_start = $2',
      [bucket, window.start],
    );
    const count = rows[0]?.count ?? 0;
    return limitDecision(now, window, limit, count, count < limit);
  }

  /** Deletes every window that ended before `before` (default: now). Returns how many rows went. */
  async purgeExpired(before: Date = this.clock.now()): Promise<number> {
    const result = await this.pool.query('DELETE FROM limit_counters WHERE window_end <= $1', [before]);
    return result.rowCount ?? 0;
  }
}
