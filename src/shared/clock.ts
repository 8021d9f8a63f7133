/** Time is injected everywhere so tests can drive it (webhook retries, limits, SLAs). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: for tests of retries, windows and expiry. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
  }
}

/**
 * Elapsed time, for the deadline of a wait and the duration of a job (monotonic milliseconds). Kept
 * apart from the Clock on purpose: the Clock is the business time recorded in events (a test freezes or
 * moves it), while a wait must still end after its real timeout when a test has frozen business time.
 * Injected like the clock: a test drives it with a ManualTimer.
 */
export interface Timer {
  nowMs(): number;
}

export const systemTimer: Timer = { nowMs: () => performance.now() };

/** A timer that only moves when told to (tests of deadlines). */
export class ManualTimer implements Timer {
  constructor(private current = 0) {}
  nowMs(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** Starts measuring: the returned function gives the whole milliseconds elapsed since (for a job's `ms`). */
export function stopwatch(timer: Timer = systemTimer): () => number {
  const started = timer.nowMs();
  return () => Math.round(timer.nowMs() - started);
}
