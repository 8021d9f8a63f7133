/** `svc audit verify|reproduce` and `svc replay --to` as commands, on a real store. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { registerAuditCommands } from '../../../src/cli/audit';
import { registerReplayCommand } from '../../../src/cli/replay';
import { screeningsProjection } from '../../../src/projections/read-models/screenings';

let db: TestDatabase;
let store: PostgresEventStore;
before(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: db.pool });
});
after(async () => {
  await store?.close();
  await db?.drop();
});

function capture() {
  let text = '';
  const stream = new Writable({ write(chunk, _enc, done) { text += chunk.toString(); done(); } });
  return { stream, text: () => text };
}

async function run(args: string[]) {
  const out = capture();
  const program = new Command().exitOverride();
  const open = async () => ({ store, pool: db.pool, lists: { getVersion: async () => undefined }, projections: [screeningsProjection], stop: async () => undefined });
  registerAuditCommands(program, { open, stdout: out.stream });
  registerReplayCommand(program, { open, stdout: out.stream });
  process.exitCode = 0;
  await program.parseAsync(['node', 'svc', ...args]);
  const code = process.exitCode;
  process.exitCode = 0;
  return { out: out.text(), code };
}

test('svc audit verify prints OK, then the tampered stream and position with exit code 1', async () => {
  const stream = `cli-${randomUUID().slice(0, 8)}`;
  for (let i = 0; i < 3; i++) await store.appendToStream(stream, [{ type: 'Noted', data: { i }, metadata: { eventId: randomUUID(), occurredAt: new Date().toISOString() } }]);
  const ok = await run(['audit', 'verify']);
  assert.match(ok.out, /^OK: 3 events in 1 streams verified/);
  assert.equal(ok.code, 0);
  await db.pool.query(`UPDATE events SET data = '{"i": 42}' WHERE stream_name = $1 AND stream_position = 2`, [stream]);
  const bad = await run(['audit', 'verify']);
  assert.equal(bad.code, 1);
  assert.match(bad.out, new RegExp(`ALTERED ${stream} position 2 \\(global \\d+\\)`));
  const json = JSON.parse((await run(['audit', 'verify', '--json'])).out);
  assert.deepEqual(json.problems.map((p: any) => [p.kind, p.stream, p.position]), [['altered', stream, 2]]);
});

test('svc audit reproduce and svc replay report what they did', async () => {
  const missing = await run(['audit', 'reproduce', '424242']);
  assert.match(missing.out, /CANNOT REPRODUCE: screening 424242 does not exist/);
  assert.equal(missing.code, 1);
  const replay = await run(['replay', '--to', '2020-01-01T00:00:00Z']);
  assert.match(replay.out, /read models as of 2020-01-01T00:00:00.000Z: 0 events/);
  assert.match(replay.out, /screenings: schema replay_20200101t000000_screenings/);
  await assert.rejects(run(['replay', '--to', 'yesterday']), /ISO 8601/);
});
