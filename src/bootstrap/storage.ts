/** Storage: PostgreSQL (external, or embedded under DATA_DIR), its migrations, and the event store over it. */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type pg from 'pg';
import { eventsFrozen, type Config } from '../config/config';
import type { Logger } from '../shared/logger';
import { PostmasterRunningError, startEmbeddedPostgres, type EmbeddedPostgres } from '../infrastructure/postgres/embedded';
import { createPool } from '../infrastructure/postgres/pool';
import { migrate } from '../infrastructure/postgres/migrate';
import type { EventStore } from '../infrastructure/eventstore/port';
import { PostgresEventStore } from '../infrastructure/eventstore/postgres/store';
import { EsdbEventStore } from '../infrastructure/eventstore/esdb/store';
import type { Stops } from './lifecycle';

export interface Storage {
  pool: pg.Pool;
  store: EventStore;
  /** The embedded cluster, when DATABASE_URL is not set. */
  embedded: EmbeddedPostgres | undefined;
}

export async function startStorage(config: Config, logger: Logger, stops: Stops): Promise<Storage> {
  let connectionString = config.DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  if (!connectionString) {
    embedded = await startEmbedded(config, logger);
    const started = embedded;
    stops.push(() => started.stop());
    connectionString = embedded.url('postgres');
  }
  const pool = createPool({ connectionString, max: 20, logger, prepareStatements: config.PG_PREPARED_STATEMENTS });
  stops.push(() => pool.end());
  await migrate(pool, { logger });

  const freezeEvents = eventsFrozen(config);
  const store: EventStore = config.ESDB_URL
    ? new EsdbEventStore({ connectionString: config.ESDB_URL, logger, freezeEvents })
    : new PostgresEventStore({ pool, listenConnectionString: connectionString, pollIntervalMs: 500, minFenceIntervalMs: config.EVENTSTORE_FENCE_INTERVAL_MS, logger, freezeEvents });
  stops.push(() => store.close());
  return { pool, store, embedded };
}

async function startEmbedded(config: Config, logger: Logger): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(config.DATA_DIR, 'postgres');
  mkdirSync(path.dirname(dataDir), { recursive: true });
  try {
    const embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, logger });
    logger.info({ port: embedded.port, dataDir }, 'embedded PostgreSQL started');
    return embedded;
  } catch (error) {
    if (!(error instanceof PostmasterRunningError)) throw error;
    throw new Error(
      `a service already runs with DATA_DIR=${config.DATA_DIR} (its PostgreSQL is pid ${error.pid}): stop it first, or give this one ` +
        `another DATA_DIR; operator commands (svc accounts, audit, replay…) work beside it as they are`,
    );
  }
}
