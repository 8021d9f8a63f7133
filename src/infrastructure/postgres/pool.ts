import pg from 'pg';
import { silentLogger, type InfraLogger } from './log';

export interface PoolOptions {
  connectionString: string;
  /** Maximum clients (default 10). */
  max?: number;
  applicationName?: string;
  /** Per-statement timeout in ms (0 / unset: none). */
  statementTimeoutMs?: number;
  logger?: InfraLogger;
}

/**
 * A pg Pool with an error listener, so an idle client dropped by the server (restart, admin kill)
 * is logged instead of crashing the process. int8 columns stay strings; adapters turn them into bigint.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const logger = options.logger ?? silentLogger;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'svc',
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  pool.on('error', (err) => logger.warn({ err: { message: err.message } }, 'idle PostgreSQL client error'));
  return pool;
}

/** Runs fn inside BEGIN/COMMIT on one client; rolls back and rethrows on any error. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
