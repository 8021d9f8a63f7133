/** What a started process has to stop, in reverse order of starting; shared by every wiring step. */
import type { Logger } from '../shared/logger';

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
