/** Idempotent consumers against a real PostgreSQL: a redelivered message changes nothing. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { MESSAGE_ID_HEADER, idempotentHandler, processOnce, purgeInbox } from '../../../src/infrastructure/inbox/inbox';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { recordingLogger, waitFor } from './contract';

describe('processOnce (inbox)', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await db.pool.query('CREATE TABLE balances (account text PRIMARY KEY, amount integer NOT NULL)');
    await db.pool.query("INSERT INTO balances VALUES ('acct', 0)");
  });
  after(() => db.drop());

  const credit = (amount: number) => async (client: import('pg').PoolClient) => {
    await client.query("UPDATE balances SET amount = amount + $1 WHERE account = 'acct'", [amount]);
  };
  const balance = async () => (await db.pool.query<{ amount: number }>("SELECT amount FROM balances WHERE account = 'acct'")).rows[0]!.amount;

  it('applies the same message once, however often it is delivered', async () => {
    const before = await balance();
    assert.deepEqual(await processOnce(db.pool, 'ledger', 'msg-1', credit(10)), { processed: true });
    assert.deepEqual(await processOnce(db.pool, 'ledger', 'msg-1', credit(10)), { processed: false });
    assert.equal(await balance(), before + 10);
    // Another group has its own inbox entries.
    assert.deepEqual(await processOnce(db.pool, 'audit', 'msg-1', async () => {}), { processed: true });
  });

  it('records nothing when the handler fails, so the redelivery does the work', async () => {
    const before = await balance();
    await assert.rejects(
      processOnce(db.pool, 'ledger', 'msg-2', async (client) => {
        await credit(5)(client);
        throw new Error('crash after writing');
      }),
      /crash after writing/,
    );
    assert.equal(await balance(), before, 'the partial write was rolled back');
    assert.deepEqual(await processOnce(db.pool, 'ledger', 'msg-2', credit(5)), { processed: true });
    assert.equal(await balance(), before + 5);
  });

  it('lets exactly one of several concurrent deliveries through', async () => {
    const before = await balance();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        processOnce(db.pool, 'ledger', 'msg-3', async (client) => {
          await credit(1)(client);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }),
      ),
    );
    assert.equal(results.filter((r) => r.processed).length, 1);
    assert.equal(await balance(), before + 1);
  });

  it('makes a bus consumer idempotent across duplicates and a handler crash', async () => {
    const bus = new InProcessBus({ logger: recordingLogger(), redeliveryBackoff: { initialMs: 5, maxMs: 20 } });
    const before = await balance();
    let crashes = 1;
    const handled: string[] = [];
    await bus.subscribe(
      { groupId: 'ledger-consumer', topics: ['payments'], fromBeginning: true },
      idempotentHandler(db.pool, 'ledger-consumer', async (message, client) => {
        await client.query("UPDATE balances SET amount = amount + $1 WHERE account = 'acct'", [Number(message.value.toString())]);
        if (crashes-- > 0) throw new Error('crash before commit');
        handled.push(message.headers[MESSAGE_ID_HEADER]!);
      }),
    );
    const payment = (id: string, amount: number) => ({ key: 'acct', value: Buffer.from(String(amount)), headers: { [MESSAGE_ID_HEADER]: id } });
    // p-1 is published twice (an at-least-once producer retrying), p-2 once.
    await bus.publish('payments', [payment('p-1', 100), payment('p-1', 100), payment('p-2', 7)]);
    await waitFor(() => handled.includes('p-2'), 2000, 'p-2 handled');
    await bus.close();
    assert.deepEqual(handled, ['p-1', 'p-2']);
    assert.equal(await balance(), before + 107);
    const rows = await db.pool.query("SELECT message_id FROM inbox WHERE consumer_group = 'ledger-consumer' ORDER BY message_id");
    assert.deepEqual(rows.rows.map((r) => r.message_id), ['p-1', 'p-2']);
  });

  it('purges old inbox rows only', async () => {
    await db.pool.query("UPDATE inbox SET processed_at = now() - interval '30 days' WHERE message_id = 'msg-1'");
    const removed = await purgeInbox(db.pool, new Date(Date.now() - 7 * 86_400_000));
    assert.equal(removed, 2);
    const left = await db.pool.query("SELECT count(*)::int AS n FROM inbox WHERE message_id = 'msg-1'");
    assert.equal(left.rows[0].n, 0);
    const others = await db.pool.query('SELECT count(*)::int AS n FROM inbox');
    assert.ok(others.rows[0].n >= 3);
  });
});
