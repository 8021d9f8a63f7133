/**
 * A fresh, fully migrated PostgreSQL database per call.
 *
 * With TEST_DATABASE_URL set, databases are created on that server (its URL must name a role that
 * may CREATE DATABASE). Otherwise one embedded cluster is started per test process (temp dir under
 * os.tmpdir(), fsync off) and stopped, and its directory removed, when the process ends, even by a signal.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/infrastructure/postgres/embedded';
import { migrate } from '../../src/infrastructure/postgres/migrate';
import { createPool } from '../../src/infrastructure/postgres/pool';

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** A pool on it (max 10); ended by drop(). */
  pool: pg.Pool;
  /** Ends the pool and drops the database (forcibly disconnecting leftovers). */
  drop(): Promise<void>;
}

interface TestServer {
  urlFor(database: string): string;
}

let serverPromise: Promise<TestServer> | undefined;
let counter = 0;

function testServer(): Promise<TestServer> {
  serverPromise ??= startServer();
  return serverPromise;
}

async function startServer(): Promise<TestServer> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    return {
      urlFor(database) {
        const url = new URL(external);
        url.pathname = `/${database}`;
        return url.toString();
      },
    };
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-pg-'));
  fs.chmodSync(root, 0o755); // the unprivileged postgres OS user must reach the data dir inside
  let cluster: EmbeddedPostgres;
  try {
    cluster = await startEmbeddedPostgres({
      dataDir: path.join(root, 'data'),
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
      initNoSync: true,
      stopOnProcessExit: false,
      keepProcessAlive: false,
    });
  } catch (err) {
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }
  // A detached reaper outlives this process however it ends (normal exit, test-runner SIGTERM,
  // SIGKILL): once our pid is gone it stops the cluster immediately and removes its directory.
  spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.2; done; kill -QUIT ${cluster.pid} 2>/dev/null; ` +
        `while kill -0 ${cluster.pid} 2>/dev/null; do sleep 0.1; done; rm -rf '${root}'`,
    ],
    { detached: true, stdio: 'ignore' },
  ).unref();
  process.once('exit', () => {
    // Exit hooks cannot wait: stop the throwaway cluster at once; the reaper removes the directory.
    try {
      process.kill(cluster.pid, 'SIGQUIT');
    } catch {
      /* already gone */
    }
  });
  return { urlFor: (database) => cluster.url(database) };
}

async function admin<T>(server: TestServer, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.urlFor('postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = await testServer();
  const name = `test_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  await admin(server, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = server.urlFor(name);
  const pool = createPool({ connectionString: url, max: 10, applicationName: 'svc-test' });
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end();
    await admin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    throw err;
  }
  let dropped = false;
  return {
    url,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end();
      await admin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
