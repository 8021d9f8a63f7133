import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { EmbeddedPostgresError, PostmasterRunningError, startEmbeddedPostgres } from '../../../src/infrastructure/postgres/embedded';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  let root: string;
  let dataDir: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-embedded-test-'));
    fs.chmodSync(root, 0o755);
    dataDir = path.join(root, 'data');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('initialises a cluster once, keeps data across restarts and skips initdb when PG_VERSION exists', async () => {
    const first = await startEmbeddedPostgres({ dataDir, keepProcessAlive: false });
    try {
      assert.equal(first.initialised, true);
      assert.ok(first.port > 0);
      assert.deepEqual(await query(first.url(), "SELECT current_setting('data_directory') AS dir"), [{ dir: dataDir }]);
      await query(first.url(), 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
      if (process.getuid?.() === 0) {
        assert.notEqual(fs.statSync(dataDir).uid, 0, 'as root, the data directory belongs to the unprivileged OS user');
      }
    } finally {
      await first.stop();
    }
    assert.equal(fs.existsSync(path.join(dataDir, 'postmaster.pid')), false, 'fast shutdown removed the pid file');
    const second = await startEmbeddedPostgres({ dataDir, keepProcessAlive: false });
    try {
      assert.equal(second.initialised, false);
      assert.deepEqual(await query(second.url(), 'SELECT n FROM kept'), [{ n: 42 }]);
      await assert.rejects(startEmbeddedPostgres({ dataDir, keepProcessAlive: false }), (err) => {
        assert.ok(err instanceof PostmasterRunningError);
        assert.equal(err.pid, second.pid);
        assert.match(err.message, new RegExp(`postmaster\\.pid names pid ${second.pid}`));
        return true;
      });
    } finally {
      await second.stop();
    }
  });

  it('reports and removes a stale postmaster.pid whose process is gone, then starts on the configured port', async () => {
    fs.writeFileSync(path.join(dataDir, 'postmaster.pid'), `999999\n${dataDir}\n`);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (_: object, msg?: string) => void warnings.push(msg ?? '') };
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const cluster = await startEmbeddedPostgres({ dataDir, port, logger, keepProcessAlive: false });
    try {
      assert.equal(cluster.port, port);
      assert.ok(warnings.some((w) => w.includes('stale') && w.includes('999999') && w.includes('postmaster.pid')), warnings.join('\n'));
      assert.deepEqual(await query(cluster.url(), 'SELECT 1 AS one'), [{ one: 1 }]);
      // url() goes through the Unix-domain socket in the data directory (no server address), tcpUrl() through 127.0.0.1.
      assert.equal(cluster.socketDir, dataDir);
      assert.deepEqual(await query(cluster.url(), 'SELECT inet_server_addr() AS addr'), [{ addr: null }]);
      assert.deepEqual(await query(cluster.tcpUrl(), 'SELECT host(inet_server_addr()) AS addr'), [{ addr: '127.0.0.1' }]);
    } finally {
      await cluster.stop();
    }
  });

  it('creates missing parent directories traversable for the OS user', async () => {
    const nested = path.join(root, 'a', 'b', 'pg');
    const cluster = await startEmbeddedPostgres({ dataDir: nested, keepProcessAlive: false, initNoSync: true });
    try {
      assert.equal(cluster.initialised, true);
      assert.equal(fs.statSync(path.join(root, 'a')).mode & 0o005, 0o005, 'parents are world-traversable');
      assert.equal(fs.statSync(nested).mode & 0o777, 0o700, 'the cluster directory is private');
    } finally {
      await cluster.stop();
    }
  });

  it('refuses to initdb over a non-empty directory that is not a cluster', async () => {
    const other = path.join(root, 'not-a-cluster');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'notes.txt'), 'hello');
    await assert.rejects(startEmbeddedPostgres({ dataDir: other }), (err) => err instanceof EmbeddedPostgresError && /no PG_VERSION/.test(err.message));
  });
});
