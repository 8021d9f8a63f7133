/**
 * The service's PostgreSQL for operator commands that run beside it (`svc deadletters` in the
 * embedded default): DATABASE_URL when set; otherwise the embedded cluster under DATA_DIR/postgres,
 * reached through its postmaster.pid when the service runs (a second postmaster cannot start on
 * the same data directory), or started for the command and stopped after it when it does not.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import { isLivePostgres, startEmbeddedPostgres } from '../infrastructure/postgres/embedded';
import { createPool } from '../infrastructure/postgres/pool';
import { migrate } from '../infrastructure/postgres/migrate';

export interface OperatorDatabase {
  pool: pg.Pool;
  /** Where it came from: 'external' (DATABASE_URL), 'running' (the serving process's cluster), 'started'. */
  source: 'external' | 'running' | 'started';
  stop(): Promise<void>;
}

/**
 * Connection URL of a live embedded cluster on dataDir, read from its postmaster.pid (line 1: pid,
 * line 4: port); undefined when none runs there. Embedded clusters use the default superuser
 * postgres/postgres, over TCP on 127.0.0.1 only.
 */
export function runningEmbeddedUrl(dataDir: string, database = 'postgres'): string | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || port > 65_535) return undefined;
  if (!isLivePostgres(pid)) return undefined;
  return `postgres://postgres:postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

export async function openOperatorDatabase(config: Config, logger: Logger): Promise<OperatorDatabase> {
  const open = async (connectionString: string, source: OperatorDatabase['source'], after: () => Promise<void>) => {
    const pool = createPool({ connectionString, max: 2, logger });
    try {
      // Idempotent and under the migrator's advisory lock: a no-op when the service migrated already.
      await migrate(pool, { logger });
    } catch (error) {
      await pool.end();
      await after();
      throw error;
    }
    return { pool, source, stop: async () => { await pool.end(); await after(); } };
  };
  if (config.DATABASE_URL) return open(config.DATABASE_URL, 'external', async () => {});
  const dataDir = path.resolve(config.DATA_DIR, 'postgres');
  const running = runningEmbeddedUrl(dataDir);
  if (running) return open(running, 'running', async () => {});
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(`no database at ${dataDir}: the service has never run with DATA_DIR=${config.DATA_DIR} (and DATABASE_URL is not set)`);
  }
  const embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, logger });
  return open(embedded.url('postgres'), 'started', () => embedded.stop());
}
