/**
 * The pool against a real PostgreSQL whose server ends a connection while a caller holds it between
 * two queries (what a restart or fail-over does to every connection): the process must survive, the
 * holder's next query fail with a connection error, and the pool go on with a fresh connection.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createPool } from '../../../src/infrastructure/postgres/pool';
import { isTransient } from '../../../src/infrastructure/eventstore/postgres/subscription';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db.drop();
});

it('a checked-out client whose connection the server terminates does not end the process; the pool recovers', async () => {
  const warnings: string[] = [];
  const logger = { warn: (_obj: unknown, msg: string) => void warnings.push(msg), info: () => undefined, error: () => undefined, debug: () => undefined };
  const pool = createPool({ connectionString: db.url, max: 2, logger: logger as never });
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => void uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const held = await pool.connect();
    const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    // Another session ends it: FATAL 57P01 arrives while no query of the holder is running.
    await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(uncaught, [], 'no unhandled error event');
    assert.ok(warnings.some((w) => /connection lost/.test(w)), `logged: ${warnings.join('; ')}`);

    const failed = await held.query('SELECT 1').then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failed instanceof Error, 'the holder learns of it at its next query');
    assert.equal(isTransient(failed), true, `a connection error: ${(failed as Error).message}`);
    held.release();

    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    assert.notEqual(rows[0]!.pid, pid, 'a fresh connection: the dead one was discarded');
  } finally {
    process.off('uncaughtException', onUncaught);
    await pool.end();
  }
});
