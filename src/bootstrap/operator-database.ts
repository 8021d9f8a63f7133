/**
 * The service's PostgreSQL for operator commands that run beside it (`svc accounts create`, `svc audit
 * verify`, `svc deadletters`…): DATABASE_URL when set; otherwise the embedded cluster under
 * DATA_DIR/postgres, reached through the running service's discovery file (DATA_DIR/service.json,
 * mode 0600, written by `svc serve`) or the cluster's own postmaster.pid (a second postmaster cannot
 * start on the same data directory), or started for the command and stopped after it when no
 * service runs; the command says so on stderr, since starting a cluster takes seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import { isLivePostgres, startEmbeddedPostgres } from '../infrastructure/postgres/embedded';
import { createPool } from '../infrastructure/postgres/pool';
import { migrate } from '../infrastructure/postgres/migrate';
import type { Clock } from '../shared/clock';
import type { Stops } from './lifecycle';

export interface OperatorDatabase {
  pool: pg.Pool;
  /** The connection string the pool uses (the store's LISTEN connection needs it too). */
  connectionString: string;
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

/** What `svc serve` in the embedded default leaves under DATA_DIR while it runs. */
export interface ServiceDiscovery {
  pid: number;
  databaseUrl: string;
  httpUrl?: string;
  startedAt: string;
}

export function discoveryFilePath(dataDir: string): string {
  return path.resolve(dataDir, 'service.json');
}

/** Written with mode 0600: it names the database, whose superuser is reachable on loopback. */
export function writeDiscoveryFile(dataDir: string, discovery: ServiceDiscovery): void {
  const file = discoveryFilePath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(discovery, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Removed on a clean stop; only when it is still this process's (a newer service may have replaced it). */
export function removeDiscoveryFile(dataDir: string, pid = process.pid): void {
  const found = readDiscoveryFile(dataDir);
  if (found && found.pid === pid) fs.rmSync(discoveryFilePath(dataDir), { force: true });
}

export function readDiscoveryFile(dataDir: string): ServiceDiscovery | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(discoveryFilePath(dataDir), 'utf8')) as Partial<ServiceDiscovery>;
    if (typeof parsed.pid !== 'number' || typeof parsed.databaseUrl !== 'string' || typeof parsed.startedAt !== 'string') return undefined;
    return { pid: parsed.pid, databaseUrl: parsed.databaseUrl, startedAt: parsed.startedAt, ...(typeof parsed.httpUrl === 'string' ? { httpUrl: parsed.httpUrl } : {}) };
  } catch {
    return undefined;
  }
}

function isLiveProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The database of a service running on this DATA_DIR, if one runs: its discovery file when its process
 * is alive (a file left by a killed service is ignored), else a live embedded cluster's postmaster.pid.
 */
export function runningServiceDatabaseUrl(config: Pick<Config, 'DATA_DIR'>): string | undefined {
  const discovery = readDiscoveryFile(config.DATA_DIR);
  if (discovery && isLiveProcess(discovery.pid)) return discovery.databaseUrl;
  return runningEmbeddedUrl(path.resolve(config.DATA_DIR, 'postgres'));
}

export interface OperatorDatabaseOptions {
  /** One line for the operator (stderr), e.g. that a cluster is being started for this command. */
  notice?: (line: string) => void;
}

export async function openOperatorDatabase(config: Config, logger: Logger, options: OperatorDatabaseOptions = {}): Promise<OperatorDatabase> {
  const open = async (connectionString: string, source: OperatorDatabase['source'], after: () => Promise<void>) => {
    const pool = createPool({ connectionString, max: 2, logger });
    try {
      // Idempotent and under the migrator's advisory lock; a running service of this DATA_DIR has migrated
      // its database already, so a command beside it skips the check (a round trip per migration file).
      if (source !== 'running') await migrate(pool, { logger });
    } catch (error) {
      await pool.end();
      await after();
      throw error;
    }
    return { pool, connectionString, source, stop: async () => { await pool.end(); await after(); } };
  };
  if (config.DATABASE_URL) return open(config.DATABASE_URL, 'external', async () => {});
  const dataDir = path.resolve(config.DATA_DIR, 'postgres');
  const running = runningServiceDatabaseUrl(config);
  if (running) return open(running, 'running', async () => {});
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(`no database at ${dataDir}: the service has never run with DATA_DIR=${config.DATA_DIR} (and DATABASE_URL is not set)`);
  }
  options.notice?.(`the service is not running: starting the embedded PostgreSQL under ${dataDir} for this command (a few seconds)`);
  const embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, logger });
  return open(embedded.url('postgres'), 'started', () => embedded.stop());
}

/** Operator commands beside this process find its database through this file (removed when the process stops). */
export function publishDiscovery(dataDir: string, databaseUrl: string, httpUrl: string | undefined, clock: Clock, stops: Stops): void {
  writeDiscoveryFile(dataDir, { pid: process.pid, databaseUrl, ...(httpUrl ? { httpUrl } : {}), startedAt: clock.now().toISOString() });
  stops.push(async () => removeDiscoveryFile(dataDir));
}
