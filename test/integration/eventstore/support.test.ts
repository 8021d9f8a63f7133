import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../support/postgres';

test('createTestDatabase gives isolated, migrated databases that drop cleanly', async () => {
  const a = await createTestDatabase();
  const b = await createTestDatabase();
  try {
    assert.notEqual(a.url, b.url);
    const migrations = await a.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.ok(migrations.rows.some((r) => r.version === 1), 'event store migration applied');
    await a.pool.query("INSERT INTO projection_checkpoints (name, version) VALUES ('only_in_a', 1)");
    const inB = await b.pool.query("SELECT 1 FROM projection_checkpoints WHERE name = 'only_in_a'");
    assert.equal(inB.rowCount, 0);
  } finally {
    await a.drop();
    await b.drop();
  }
  await assert.rejects(a.pool.query('SELECT 1'));
});
