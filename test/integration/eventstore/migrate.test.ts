import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { loadMigrations, migrate, MigrationError } from '../../../src/infrastructure/postgres/migrate';
import { createPool } from '../../../src/infrastructure/postgres/pool';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

describe('migration runner', () => {
  let host: TestDatabase;
  const pools: pg.Pool[] = [];
  const dirs: string[] = [];
  let counter = 0;

  before(async () => {
    host = await createTestDatabase();
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await host.drop(); // FORCE-drops nothing of ours; the bare databases go with the cluster
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** A bare database (no migrations) on the same server. */
  async function bareDatabase(): Promise<string> {
    const name = `bare_${process.pid}_${++counter}`;
    await host.pool.query(`CREATE DATABASE ${name}`);
    const url = new URL(host.url);
    url.pathname = `/${name}`;
    return url.toString();
  }
  function pool(url: string): pg.Pool {
    const p = createPool({ connectionString: url, max: 2 });
    pools.push(p);
    return p;
  }
  function migrationsDir(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migrations-'));
    dirs.push(dir);
    for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
    return dir;
  }

  it('the project migrations load in number order with unique numbers', () => {
    const versions = loadMigrations().map((m) => m.version);
    assert.ok(versions.includes(1) && versions.includes(2));
    assert.deepEqual(versions, [...versions].sort((a, b) => a - b));
  });

  it('applies files in number order once, each recorded, and is a no-op the second time', async () => {
    const db = pool(await bareDatabase());
    const dir = migrationsDir({
      '010_second.sql': 'INSERT INTO trail (step) VALUES (10);',
      '002_first.sql': 'CREATE TABLE trail (id serial PRIMARY KEY, step int NOT NULL); INSERT INTO trail (step) VALUES (2);',
    });
    assert.deepEqual(await migrate(db, { dir }), { applied: ['002_first.sql', '010_second.sql'], alreadyApplied: 0 });
    assert.deepEqual(await migrate(db, { dir }), { applied: [], alreadyApplied: 2 });
    assert.deepEqual((await db.query('SELECT step FROM trail ORDER BY id')).rows, [{ step: 2 }, { step: 10 }]);
    assert.deepEqual((await db.query('SELECT version, name FROM schema_migrations ORDER BY version')).rows, [
      { version: 2, name: 'first' },
      { version: 10, name: 'second' },
    ]);
  });

  it('concurrent starters apply each migration exactly once (advisory lock)', async () => {
    const url = await bareDatabase();
    const dir = migrationsDir({
      '001_t.sql': 'CREATE TABLE once (n int); SELECT pg_sleep(0.05);',
      '002_u.sql': 'INSERT INTO once VALUES (1);',
    });
    const results = await Promise.all([1, 2, 3, 4].map(() => migrate(pool(url), { dir })));
    assert.equal(results.flatMap((r) => r.applied).length, 2);
    const check = pool(url);
    assert.deepEqual((await check.query('SELECT count(*)::int AS n FROM once')).rows, [{ n: 1 }]);
  });

  it('a failing migration is rolled back whole and reported with its file name', async () => {
    const db = pool(await bareDatabase());
    const dir = migrationsDir({
      '001_ok.sql': 'CREATE TABLE a (n int);',
      '002_bad.sql': 'CREATE TABLE b (n int); SELECT * FROM no_such_table;',
    });
    await assert.rejects(migrate(db, { dir }), (err) => err instanceof MigrationError && /002_bad\.sql/.test(err.message));
    assert.equal((await db.query("SELECT to_regclass('b') AS t")).rows[0].t, null, 'half of 002 is not left behind');
    assert.deepEqual((await db.query('SELECT version FROM schema_migrations')).rows, [{ version: 1 }]);
  });

  it('refuses an applied migration whose file changed, and badly named files', async () => {
    const db = pool(await bareDatabase());
    const dir = migrationsDir({ '001_a.sql': 'CREATE TABLE a (n int);' });
    await migrate(db, { dir });
    fs.writeFileSync(path.join(dir, '001_a.sql'), '-- a comment-only edit is not a change\n\nCREATE TABLE a (n int);\n');
    assert.deepEqual(await migrate(db, { dir }), { applied: [], alreadyApplied: 1 });
    fs.writeFileSync(path.join(dir, '001_a.sql'), 'CREATE TABLE a (n bigint);');
    await assert.rejects(migrate(db, { dir }), /001_a\.sql was changed/);
    assert.throws(() => loadMigrations(migrationsDir({ 'create-things.sql': 'SELECT 1' })), /NNN_name\.sql/);
    assert.throws(() => loadMigrations(migrationsDir({ '001_a.sql': 'SELECT 1', '001_b.sql': 'SELECT 1' })), /share number 1/);
  });
});
