/** What a started process has to stop, in reverse order of starting; shared by every wiring step. */
import type pg from 'pg';
import type { Config } from '../config/config';
import type { AvroRegistry } from '../infrastructure/bus/avro';
import type { MessageBus } from '../infrastructure/bus/port';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { Clock } from '../shared/clock';
import type { Logger } from '../shared/logger';
import type { Telemetry } from '../infrastructure/telemetry/telemetry';

export class Stops {
  private readonly stops: (() => Promise<void>)[] = [];
  constructor(private readonly logger: Logger) {}

  push(stop: () => Promise<void>): void {
    this.stops.push(stop);
  }

  /** Stops everything started so far, last first; a failing stop is logged and the rest still run. */
  async stopAll(): Promise<void> {
    for (const stop of this.stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        this.logger.error({ err: error }, 'error during shutdown');
      }
    }
  }
}

/** What every wiring step after storage and bus is given (service.ts's `base`). */
export interface CoreDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  pool: pg.Pool;
  store: EventStore;
  bus: MessageBus;
  registry: AvroRegistry;
  stops: Stops;
  /** Spans and hop histograms (off by default: histograms only). */
  telemetry: Telemetry;
}
