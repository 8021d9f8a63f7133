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
