/**
 * The process managers' supervisor: nothing in flight stays running past its deadline.
 *
 * A screening phase's agent tasks live on the bus; in the embedded default that is process memory,
 * so a crash (kill -9) loses them while the relay has already moved past the events that sent them.
 * The same crash stops a person check mid-phase, or a subject check whose deadline timer lived in
 * memory. Nothing would ever look at that work again.
 *
 * The supervisor is driven by the store, not by memory: every interval (and once at start) it asks
 * the read models for work still running that is old enough to be overdue, and each process manager
 * then decides from the item's own stream whether it is past its deadline (recorded in its events)
 * and what to do: re-dispatch within the retry budget, or record the missing agents as not queried
 * so the work completes with the data gap shown. Running it in several processes at once is safe:
 * every append carries the expected revision and a command id derived from the step.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';

export const supervisedKinds = ['screening', 'person_check', 'subject_check'] as const;
export type SupervisedKind = (typeof supervisedKinds)[number];

/** What a process manager found for one item: on time, ended meanwhile, or overdue and acted on. */
export type SupervisionResult = 'on_time' | 'ended' | 'retried' | 'gave_up' | 'resumed';

export interface SupervisedWork {
  kind: SupervisedKind;
  /**
   * Ids of work the read model shows running and started at or before `startedBefore` (no item
   * started later can be overdue). The read model may lag: the stream decides.
   */
  candidates(startedBefore: Date, limit: number): Promise<string[]>;
  /** The earliest an item can be overdue, after its start. */
  minAgeMs: number;
  /** Looks at one item's stream and acts when it is overdue. */
  supervise(id: string): Promise<SupervisionResult>;
}

export interface WorkSupervisorOptions {
  work: SupervisedWork[];
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  /** Items looked at per kind and pass (the rest wait for the next pass). */
  batchSize?: number;
}

const ACTIONS = ['retried', 'gave_up', 'resumed'] as const;

export class WorkSupervisor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private lastOverdue: Record<SupervisedKind, number> = { screening: 0, person_check: 0, subject_check: 0 };
  private readonly actions = new Map<string, number>();
  private passes = 0;

  constructor(private readonly options: WorkSupervisorOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then(() => undefined)
        .catch((err: unknown) => this.options.logger.error({ err }, 'supervisor pass failed'))
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  /** One look at every kind of work; resolves when every overdue item found was acted on. */
  async pass(): Promise<Record<SupervisedKind, number>> {
    const overdue: Record<SupervisedKind, number> = { screening: 0, person_check: 0, subject_check: 0 };
    const now = this.options.clock.now().getTime();
    for (const work of this.options.work) {
      const ids = await work.candidates(new Date(now - work.minAgeMs), this.options.batchSize ?? 500);
      // A few at a time: a burst of overdue work after a restart must not flood the store.
      for (let i = 0; i < ids.length && !this.stopped; i += 8) {
        const results = await Promise.allSettled(ids.slice(i, i + 8).map((id) => work.supervise(id)));
        results.forEach((r, j) => {
          if (r.status === 'rejected') {
            overdue[work.kind]++;
            this.options.logger.error({ err: r.reason, kind: work.kind, id: ids[i + j] }, 'overdue work could not be handled (next pass retries)');
            return;
          }
          if (r.value === 'on_time' || r.value === 'ended') return;
          overdue[work.kind]++;
          const key = `${work.kind}/${r.value}`;
          this.actions.set(key, (this.actions.get(key) ?? 0) + 1);
        });
      }
    }
    this.lastOverdue = overdue;
    this.passes++;
    return overdue;
  }

  /** Work found past its deadline at the last pass (acted on then; a pass later it should be back to 0). */
  overdue(): Record<SupervisedKind, number> {
    return { ...this.lastOverdue };
  }

  /** Registers this supervisor's metrics for GET /metrics (read at each scrape). */
  registerMetrics(registry: Registry): void {
    const supervisor = this;
    new Gauge({
      name: 'svc_overdue_work',
      help: "Running screenings, person checks and subject checks found past their deadline at the supervisor's last pass.",
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        for (const kind of supervisedKinds) this.set({ kind }, supervisor.lastOverdue[kind]);
      },
    });
    new Counter({
      name: 'svc_supervisor_actions_total',
      help: 'Overdue work the supervisor acted on: re-dispatched, given up (agents recorded as not queried) or resumed.',
      labelNames: ['kind', 'action'],
      registers: [registry],
      collect() {
        this.reset();
        for (const kind of supervisedKinds) for (const action of ACTIONS) this.inc({ kind, action }, supervisor.actions.get(`${kind}/${action}`) ?? 0);
      },
    });
    new Counter({
      name: 'svc_supervisor_passes_total',
      help: 'Supervisor passes completed.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(supervisor.passes);
      },
    });
  }
}
