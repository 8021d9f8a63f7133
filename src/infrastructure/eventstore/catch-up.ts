/**
 * The callers of a subscription's caughtUp() (port.ts), for both event-store adapters: a call is
 * refused once the subscription failed or stopped, and otherwise resolves once the subscription
 * reports a position at or past its target (the store's head when none is given). Whoever still
 * waits when the subscription stops or fails is rejected.
 */
export interface CatchUpState {
  failure: Error | undefined;
  stopped: boolean;
  /** Position of the last event delivered. */
  position: bigint;
}

interface Waiter {
  target: bigint;
  resolve(): void;
  reject(err: Error): void;
}

export class CatchUpWaiters {
  private readonly waiters: Waiter[] = [];

  constructor(private readonly state: () => CatchUpState) {}

  async until(through: bigint | undefined, head: () => Promise<bigint>): Promise<void> {
    const before = this.state();
    if (before.failure) throw before.failure;
    if (before.stopped) throw new Error('subscription stopped before catching up');
    const target = through ?? (await head());
    const now = this.state();
    if (now.failure) throw now.failure;
    if (target <= now.position) return;
    await new Promise<void>((resolve, reject) => this.waiters.push({ target, resolve, reject }));
  }

  /** The subscription delivered everything through `position`. */
  passed(position: bigint): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (waiter.target <= position) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  rejectAll(err: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(err);
  }
}
