/**
 * What an operator command needs, without starting the service: the service's database (the running
 * service's, or one started for the command), an event store over it, the read models it may have to
 * bring up to date, and the kept list versions. No relay, no agents, no webhook dispatcher and no
 * list loading: a command that only appends an event or reads the history returns in well under a
 * second beside a running service instead of starting a second one.
 */
import type pg from 'pg';
import { eventsFrozen, type Config } from '../config/config';
import type { Logger } from '../shared/logger';
import type { EventStore } from '../infrastructure/eventstore/port';
import { PostgresEventStore } from '../infrastructure/eventstore/postgres/store';
import { ProjectionRunner } from '../projections/runner';
import type { Projection } from '../projections/projection';
import type { ListVersionSource } from '../app/audit/reproduce';
import { openOperatorDatabase, type OperatorDatabase } from './operator-database';

export interface OperatorContext {
  pool: pg.Pool;
  /** The database URL in use (for a command that must start a full engine on the same database). */
  connectionString: string;
  store: EventStore;
  /** Where the database came from: DATABASE_URL, the running service's cluster, or started for this command. */
  database: OperatorDatabase['source'];
  /**
   * Applies every committed event to these read models, then returns. Safe beside a running service:
   * each read model's checkpoint row is locked while a batch is applied, so no event is applied twice.
   */
  catchUp(projections: Projection[]): Promise<void>;
  /** The list versions kept under DATA_DIR/lists (read on demand; nothing is loaded up front). */
  listVersions(): ListVersionSource;
  stop(): Promise<void>;
}

export interface OperatorContextOptions {
  notice?: (line: string) => void;
}

export async function openOperatorContext(config: Config, logger: Logger, options: OperatorContextOptions = {}): Promise<OperatorContext> {
  const db = await openOperatorDatabase(config, logger, options.notice ? { notice: options.notice } : {});
  // The EventStoreDB client (gRPC) is loaded only where it is used: it is most of a command's start-up.
  const store: EventStore = config.ESDB_URL
    ? new (await import('../infrastructure/eventstore/esdb/store')).EsdbEventStore({ connectionString: config.ESDB_URL, logger, freezeEvents: eventsFrozen(config) })
    : new PostgresEventStore({ pool: db.pool, listenConnectionString: db.connectionString, pollIntervalMs: 500, logger, freezeEvents: eventsFrozen(config) });
  return {
    pool: db.pool,
    connectionString: db.connectionString,
    store,
    database: db.source,
    catchUp: async (projections) => {
      // A short poll: a one-shot catch-up otherwise waits up to one interval for its first read.
      const runner = new ProjectionRunner({ pool: db.pool, store, projections, logger, pollIntervalMs: 20 });
      await runner.start();
      try {
        await runner.caughtUp();
      } finally {
        await runner.stop();
      }
    },
    // The list parsers load only when a kept version is read (svc audit reproduce), not for every command.
    listVersions: () => {
      const registry = (async () => {
        const [{ ListRegistry }, { listsConfigFor }] = await Promise.all([import('../screening/lists/registry'), import('./lists-config')]);
        return new ListRegistry(listsConfigFor(config, { persist: true }));
      })();
      return { getVersion: async (versionId) => (await registry).getVersion(versionId) };
    },
    stop: async () => {
      await store.close();
      await db.stop();
    },
  };
}
