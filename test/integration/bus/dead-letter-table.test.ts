/**
 * The embedded default's dead letters: the running service (in-process bus, real PostgreSQL)
 * records a poison message in the dead_letters table, `svc deadletters list` reads it from another
 * connection, and `svc deadletters replay` is a request the service picks up and republishes once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { startTestService, type TestService } from '../../support/service';
import { DLQ_HEADERS, DLQ_REPLAY_HEADER } from '../../../src/infrastructure/bus/dead-letter';
import { PgDeadLetterTable } from '../../../src/infrastructure/bus/dead-letter-table';
import type { ConsumedMessage } from '../../../src/infrastructure/bus/port';
import { registerDeadLetterCommands } from '../../../src/cli/deadletters';
import { openOperatorDatabase, runningEmbeddedUrl, type OperatorDatabase } from '../../../src/bootstrap/operator-database';
import { loadConfig } from '../../../src/config/config';
import { createLogger } from '../../../src/shared/logger';
import { waitFor } from './contract';

const TOPIC = 'dlq.table.test';
const GROUP = 'dlq-table-test-consumer';
const VALUE = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f]);

interface Row {
  id: string;
  original_topic: string;
  original_key: string;
  consumer_group: string;
  attempts: number;
  error_name: string | null;
  error_message: string;
  headers: Record<string, string>;
  value: Buffer;
  replay_requested_at: Date | null;
  replayed_at: Date | null;
  replay_count: number;
}

describe('dead letters in the dead_letters table (embedded default)', () => {
  let svc: TestService;
  let operator: OperatorDatabase;
  let broken = true;
  let attempts = 0;
  const handled: ConsumedMessage[] = [];
  const rows = async () => (await svc.service.pool.query<Row>('SELECT *, id::text AS id FROM dead_letters ORDER BY dead_letters.id')).rows;

  async function run(...args: string[]): Promise<string> {
    const chunks: string[] = [];
    const stdout = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const program = new Command().exitOverride();
    program.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    // As main.ts wires it in the embedded default, on a connection of its own (the operator's process).
    registerDeadLetterCommands(program, { open: async () => ({ kind: 'table', table: new PgDeadLetterTable(operator.pool), stop: async () => {} }), stdout });
    await program.parseAsync(['node', 'svc', 'deadletters', ...args]);
    return chunks.join('');
  }

  before(async () => {
    svc = await startTestService({ env: { BUS_MAX_ATTEMPTS: '2' }, agents: 'none' });
    operator = await openOperatorDatabase(loadConfig({ NODE_ENV: 'test', DATABASE_URL: svc.db.url }), createLogger({ level: 'silent' }));
    assert.equal(operator.source, 'external');
    await svc.service.bus.subscribe({ groupId: GROUP, topics: [TOPIC], fromBeginning: true }, async (message) => {
      if (broken) {
        attempts++;
        throw new TypeError(`cannot decode ${message.key}`);
      }
      handled.push(message);
    });
    await svc.service.bus.publish(TOPIC, [
      { key: 'poison-1', value: VALUE, headers: { 'x-message-id': 'msg-1', 'x-schema-name': 'com.example.Poison' } },
    ]);
    await waitFor(() => attempts >= 2, 10_000, 'two failed attempts');
    const deadline = Date.now() + 10_000;
    while ((await rows()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  after(async () => {
    await operator?.stop();
    await svc?.stop();
  });

  it('records the poison message with its headers and bytes, not on an in-memory topic', async () => {
    const [row, ...others] = await rows();
    assert.ok(row, 'one dead letter row');
    assert.equal(others.length, 0);
    assert.equal(attempts, 2, 'BUS_MAX_ATTEMPTS=2');
    assert.equal(row.original_topic, TOPIC);
    assert.equal(row.original_key, 'poison-1');
    assert.equal(row.consumer_group, GROUP);
    assert.equal(row.attempts, 2);
    assert.equal(row.error_name, 'TypeError');
    assert.equal(row.error_message, 'cannot decode poison-1');
    assert.deepEqual(row.value, VALUE, 'the original bytes, unchanged');
    assert.equal(row.headers['x-message-id'], 'msg-1');
    assert.equal(row.headers['x-schema-name'], 'com.example.Poison');
    assert.equal(row.headers[DLQ_HEADERS.topic], TOPIC);
    assert.equal(row.headers[DLQ_HEADERS.group], GROUP);
    assert.equal(row.replayed_at, null);
    assert.equal(row.replay_count, 0);
    assert.equal(svc.service.config.KAFKA_BROKERS, undefined);
  });

  it('lists it with the same output, filters and --json as the topic', async () => {
    const [row] = await rows();
    const text = await run('list');
    assert.match(
      text,
      new RegExp(`^${row!.id}  \\S+Z  ${GROUP}  dlq\\.table\\.test\\[\\d+\\]@\\d+  key=poison-1  attempts=2  5 bytes com\\.example\\.Poison\\n {4}error: cannot decode poison-1\\n1 dead letter\\(s\\)\\n$`),
    );
    const json = JSON.parse(await run('list', '--json', '--group', GROUP)) as Record<string, unknown>[];
    assert.equal(json.length, 1);
    assert.equal(json[0]!.id, row!.id);
    assert.equal(json[0]!.originalTopic, TOPIC);
    assert.equal(json[0]!.messageId, 'msg-1');
    assert.equal(json[0]!.replayCount, 0);
    assert.deepEqual(Buffer.from(String(json[0]!.value), 'base64'), VALUE);
    assert.equal((JSON.parse(await run('list', '--json', '--topic', TOPIC)) as unknown[]).length, 1);
    assert.equal(await run('list', '--group', 'nobody'), 'no dead letters\n');
    assert.equal(await run('list', '--topic', 'no.such.topic'), 'no dead letters\n');
  });

  it('replays on request: the service republishes it once to the original topic and marks the row', async () => {
    broken = false;
    const [row] = await rows();
    const text = await run('replay', row!.id);
    assert.match(text, new RegExp(`replay requested for ${row!.id} to dlq\\.table\\.test \\(key poison-1\\)\\n1 dead letter\\(s\\) queued for replay`));
    assert.match(await run('list'), /replay requested/);
    await waitFor(() => handled.length >= 1, 15_000, 'the replayed message');
    const replayed = handled[0]!;
    assert.equal(replayed.key, 'poison-1');
    assert.deepEqual(replayed.value, VALUE);
    assert.equal(replayed.headers['x-message-id'], 'msg-1');
    assert.equal(replayed.headers[DLQ_REPLAY_HEADER], '1');
    assert.deepEqual(Object.keys(replayed.headers).filter((h) => h.startsWith('x-dlq-') && h !== DLQ_REPLAY_HEADER), []);

    const deadline = Date.now() + 5_000;
    let marked = (await rows())[0]!;
    while (marked.replayed_at === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      marked = (await rows())[0]!;
    }
    assert.ok(marked.replayed_at instanceof Date);
    assert.equal(marked.replay_requested_at, null);
    assert.equal(marked.replay_count, 1);
    // Two more poll intervals: it is not republished again.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    assert.equal(handled.length, 1, 'republished once');
    assert.match(await run('list'), /replayed=1/);
    assert.doesNotMatch(await run('list'), /replay requested/);
    // --all asks only for dead letters never replayed.
    assert.match(await run('replay', '--all', '--topic', TOPIC), /^0 dead letter\(s\) queued for replay/);
  });

  it('rejects bad input without requesting anything', async () => {
    await assert.rejects(run('replay'), /ids from `svc deadletters list`\) or pass --all/);
    await assert.rejects(run('replay', 'abc'), /not a dead-letter id/);
    await assert.rejects(run('replay', '1:2'), /not a dead-letter id \(a row number/);
    await assert.rejects(run('replay', '1', '--all'), /either ids or --all/);
    await assert.rejects(run('list', '--idle-ms', 'soon'), /--idle-ms must be an integer/);
    const [row] = await rows();
    await assert.rejects(run('replay', row!.id, '999999'), /no such dead letter: 999999/);
    assert.equal((await rows())[0]!.replay_requested_at, null, 'the existing id was not requested either');
  });

  it('reaches a running embedded cluster through its postmaster.pid (the service owns it: no second postmaster)', async (t) => {
    if (process.env.TEST_DATABASE_URL) return t.skip('TEST_DATABASE_URL: the test server is not an embedded cluster of this machine');
    const { rows: settings } = await svc.service.pool.query<{ data_directory: string }>('SHOW data_directory');
    const database = new URL(svc.db.url).pathname.slice(1);
    const url = runningEmbeddedUrl(settings[0]!.data_directory, database);
    assert.ok(url, 'the test cluster is running');
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url });
    const attached = await openOperatorDatabase(config, createLogger({ level: 'silent' }));
    try {
      const listed = await new PgDeadLetterTable(attached.pool).list({ group: GROUP });
      assert.equal(listed.length, 1);
      assert.deepEqual(listed[0]!.value, VALUE);
    } finally {
      await attached.stop();
    }
  });

  it('finds no cluster where none runs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dlq-pid-'));
    try {
      assert.equal(runningEmbeddedUrl(dir), undefined, 'no postmaster.pid');
      // A pid file naming a process that is not postgres (this test process) is not a running cluster.
      fs.writeFileSync(path.join(dir, 'postmaster.pid'), `${process.pid}\n${dir}\n0\n5432\n${dir}\n127.0.0.1\n`);
      assert.equal(runningEmbeddedUrl(dir), undefined);
      fs.writeFileSync(path.join(dir, 'postmaster.pid'), 'garbage\n');
      assert.equal(runningEmbeddedUrl(dir), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
