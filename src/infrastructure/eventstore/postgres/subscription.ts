import type { RecordedEvent } from '../../../shared/events';
import { backoffDelay } from '../../../shared/backoff';
import type { InfraLogger } from '../../postgres/log';
import type { EventBatchHandler, EventHandler, Subscription } from '../port';
import { CatchUpWaiters } from '../catch-up';

interface PgAllSubscriptionOptions {
  /** One of the two: per event, or per read batch. */
  handler?: EventHandler;
  batchHandler?: EventBatchHandler;
  after: bigint;
  pollIntervalMs: number;
  batchSize: number;
  read(after: bigint, maxCount: number): Promise<RecordedEvent[]>;
  head(): Promise<bigint>;
  onError?: (error: Error) => void;
  logger: InfraLogger;
  onStopped(subscription: PgAllSubscription): void;
}

/**
 * Catch-up then live: reads batches after the last delivered position, calls the handler one event
 * at a time (or once per batch), and when a read comes back short waits for a NOTIFY wake-up or the poll interval.
 * The position only moves after the handler resolved, so each event is delivered once, in order.
 */
export class PgAllSubscription implements Subscription {
  private position: bigint;
  private stopped = false;
  private failure: Error | undefined;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private pendingWake = false;
  private readonly waiters = new CatchUpWaiters(() => ({ failure: this.failure, stopped: this.stopped, position: this.position }));
  private readFailures = 0;

  constructor(private readonly options: PgAllSubscriptionOptions) {
    this.position = options.after;
  }

  /** Position of the last delivered event (or the starting checkpoint). */
  get checkpoint(): bigint {
    return this.position;
  }

  start(): void {
    this.loop = this.run();
  }

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  caughtUp(through?: bigint): Promise<void> {
    return this.waiters.until(through, () => this.options.head());
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.wakeUp?.();
      this.waiters.rejectAll(new Error('subscription stopped before catching up'));
    }
    await this.loop;
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped) {
        this.pendingWake = false;
        let batch: RecordedEvent[];
        try {
          batch = await this.options.read(this.position, this.options.batchSize);
          this.readFailures = 0;
        } catch (err) {
          if (!isTransient(err)) throw err;
          // The database being briefly unreachable (restart, failover) must not end the subscription:
          // retry the same read with a capped backoff. Handler errors, below, do end it.
          this.readFailures++;
          this.options.logger.warn(
            { err: { message: (err as Error).message }, attempt: this.readFailures },
            'event subscription read failed; retrying',
          );
          await this.sleep(backoffDelay({ initialMs: 2 * this.options.pollIntervalMs, maxMs: 5000 }, this.readFailures));
          continue;
        }
        if (this.options.batchHandler) {
          if (batch.length > 0) {
            if (this.stopped) return;
            await this.options.batchHandler(batch);
            this.position = batch[batch.length - 1]!.globalPosition;
            this.waiters.passed(this.position);
          }
        } else {
          for (const event of batch) {
            if (this.stopped) return;
            await this.options.handler!(event);
            this.position = event.globalPosition;
            this.waiters.passed(this.position);
          }
        }
        // Idle only after a read that found nothing new: a batch served from the store's shared tail
        // may predate the commit that woke us, so the next read (a fresh fence) must still happen.
        if (batch.length === 0 && !this.pendingWake) await this.idle();
      }
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.failure = error;
      this.stopped = true;
      this.waiters.rejectAll(error);
      this.options.logger.error({ err: { message: error.message }, position: String(this.position) }, 'event subscription failed and stopped');
      this.options.onError?.(error);
    } finally {
      this.options.onStopped(this);
    }
  }

  private idle(): Promise<void> {
    return this.sleep(this.options.pollIntervalMs);
  }

  /** Waits ms, or less when woken (NOTIFY, stop()). */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = undefined;
        resolve();
      }
      this.wakeUp = done;
    });
  }

}

/** Connection-level failures worth retrying: network errors, admin shutdown, too many connections. */
export function isTransient(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = String((err as { message?: unknown })?.message ?? '');
  return (
    /^(08|57P0[123]|53300)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code) ||
    /Connection terminated|timeout exceeded when trying to connect|encountered a connection error and is not queryable/i.test(message)
  );
}
