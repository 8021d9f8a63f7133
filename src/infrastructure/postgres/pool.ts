import { createHash } from 'node:crypto';
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
  /**
   * Prepare parameterised statements once per connection (default true), instead of having the
   * server parse and plan each one again: it cut PostgreSQL's CPU per screening by about a third
   * (bench/http.ts). Turn it off behind a transaction-pooling proxy (PgBouncer before 1.21), where
   * a connection's prepared statements are not there on the next transaction.
   */
  prepareStatements?: boolean;
}

/** Distinct statement texts prepared per pool; statements built beyond that (dynamic SQL) run unnamed. */
const MAX_PREPARED_TEXTS = 2_000;

type QueryArgs = [unknown, ...unknown[]];

/**
 * A pg Client that turns `query(text, values[, callback])` into a named prepared statement (the name
 * is a hash of the text, so every connection of the pool agrees). The server keeps the statement
 * per connection; pg sends Parse only the first time each connection sees it.
 */
function preparingClient(): typeof pg.Client {
  const names = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED_TEXTS) {
      name = `svc_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
  return class PreparingClient extends pg.Client {
    override query(...args: QueryArgs): never {
      const [text, values, callback] = args;
      const name = typeof text === 'string' && Array.isArray(values) ? nameFor(text) : undefined;
      if (name === undefined) return (super.query as (...a: unknown[]) => never)(...args);
      const config = { name, text: text as string, values };
      if (typeof callback === 'function') return (super.query as (...a: unknown[]) => never)(config, callback);
      return (super.query as (...a: unknown[]) => never)(config);
    }
  } as unknown as typeof pg.Client;
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
    ...(options.prepareStatements !== false ? { Client: preparingClient() } : {}),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  pool.on('error', (err) => logger.warn({ err: { message: err.message } }, 'idle PostgreSQL client error'));
  // A checked-out client between two queries has no listener of the pool's: a server that goes away
  // then (restart, fail-over: FATAL 57P01 to every connection) would emit an unhandled 'error' and end
  // the process. Logged instead: the holder's next query fails ("not queryable", a connection error
  // the callers retry or answer 503 for) and the pool discards the client when it is released.
  pool.on('connect', (client) => {
    client.on('error', (err: Error & { code?: string }) =>
      logger.warn({ err: { message: err.message, code: err.code } }, 'PostgreSQL connection lost; the client is discarded on release'),
    );
  });
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
