/**
 * Backpressure for screening requests (and, one instance each, person checks and subject checks). Every screening this process accepts holds a slot until the
 * process sees it complete or fail (CompletionNotifier, which follows the store). With all slots
 * held, a new request is refused at once (Overloaded: 503 with Retry-After in the caller's
 * envelope) instead of queueing work the pipeline cannot absorb, so latency and memory stay
 * bounded whatever the number of clients. A slot whose end was never seen (e.g. the process lost
 * its store subscription) is given back after `maxHoldMs`, so the limit cannot leak shut.
 */
import type { Clock } from '../../shared/clock';

export class Overloaded extends Error {
  override readonly name = 'Overloaded';
  readonly code = 'overloaded';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export interface AdmissionSlot {
  /** Ties the slot to the screening it admitted: released when that stream ends. */
  bind(stream: string): void;
  /** Gives the slot back (the request failed before anything was recorded). */
  release(): void;
}

export interface ScreeningAdmissionOptions {
  /** Screenings in flight at once (0 = no limit). */
  limit: number;
  clock: Clock;
  /** Retry-After when refused (seconds). */
  retryAfterSeconds?: number;
  /** A held slot is given back after this long even if its end was not seen (default 15 min). */
  maxHoldMs?: number;
  /** What is in flight, for the refusal's message (default "screenings"). */
  noun?: string;
}

export class ScreeningAdmission {
  /** Slot → when it was taken (ms); streams once bound. Insertion order = age. */
  private readonly held = new Map<object | string, number>();

  constructor(private readonly options: ScreeningAdmissionOptions) {}

  get inFlight(): number {
    return this.held.size;
  }

  get limit(): number {
    return this.options.limit;
  }

  /** Takes a slot or throws Overloaded. */
  acquire(): AdmissionSlot {
    return this.acquireMany(1)[0]!;
  }

  /** Takes `count` slots at once (a batch) or, when fewer are free, none: throws Overloaded. */
  acquireMany(count: number): AdmissionSlot[] {
    const now = this.options.clock.now().getTime();
    this.expire(now);
    if (this.options.limit > 0 && this.held.size + count > this.options.limit) {
      throw new Overloaded(
        `The service is at capacity (${this.options.limit} ${this.options.noun ?? 'screenings'} in progress${count > 1 ? `; ${count} asked for, ${Math.max(0, this.options.limit - this.held.size)} free` : ''}); retry after the Retry-After delay`,
        this.options.retryAfterSeconds ?? 2,
      );
    }
    return Array.from({ length: count }, () => this.slot(now));
  }

  private slot(now: number): AdmissionSlot {
    let key: object | string = {};
    this.held.set(key, now);
    return {
      bind: (stream) => {
        const since = this.held.get(key);
        if (since === undefined) return;
        this.held.delete(key);
        key = stream;
        this.held.set(stream, since);
      },
      release: () => {
        this.held.delete(key);
      },
    };
  }

  /** The stream completed or failed (its slot, if this process admitted it, is free). */
  ended(stream: string): void {
    this.held.delete(stream);
  }

  private expire(now: number): void {
    const maxHold = this.options.maxHoldMs ?? 15 * 60_000;
    for (const [key, since] of this.held) {
      if (now - since < maxHold) break; // insertion order: the rest are younger
      this.held.delete(key);
    }
  }
}
