/** `svc deadletters list|replay` over a real bus (in-process; the Kafka adapter passes the same bus contract). */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { DLQ_HEADERS, DLQ_REPLAY_HEADER, DeadLetterCounter } from '../../../src/infrastructure/bus/dead-letter';
import type { ConsumedMessage } from '../../../src/infrastructure/bus/port';
import { registerDeadLetterCommands } from '../../../src/cli/deadletters';
import { openOperatorBus } from '../../../src/bootstrap/service';
import { loadConfig } from '../../../src/config/config';
import { createLogger } from '../../../src/shared/logger';
import { recordingLogger, waitFor } from './contract';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('svc deadletters', () => {
  const logger = recordingLogger();
  const counter = new DeadLetterCounter();
  const bus = new InProcessBus({ logger, redeliveryBackoff: { initialMs: 5, maxMs: 20 }, retry: { maxAttempts: 2 }, deadLetters: counter });
  let broken = true;
  const handled: ConsumedMessage[] = [];

  async function run(...args: string[]): Promise<string> {
    const out = capture();
    const program = new Command().exitOverride();
    program.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    // The CLI's bus client is stopped after each command: here it is the shared bus, kept open.
    registerDeadLetterCommands(program, { open: async () => ({ kind: 'topic' as const, bus, stop: async () => {} }), stdout: out.stream });
    await program.parseAsync(['node', 'svc', 'deadletters', ...args, '--idle-ms', '200']);
    return out.text();
  }

  before(async () => {
    await bus.subscribe({ groupId: 'orders-consumer', topics: ['orders'], fromBeginning: true }, async (m) => {
      if (broken && m.value.toString() !== 'fine') throw new Error(`cannot parse ${m.key}`);
      handled.push(m);
    });
    await bus.subscribe({ groupId: 'refunds-consumer', topics: ['refunds'], fromBeginning: true }, async () => {
      throw new Error('refunds are broken');
    });
    await bus.publish('orders', [
      { key: 'order-1', value: Buffer.from('bad-1'), headers: { 'x-message-id': 'm-1', 'x-schema-name': 'com.example.Order' } },
      { key: 'order-1', value: Buffer.from('fine'), headers: {} },
      { key: 'order-2', value: Buffer.from('bad-2'), headers: { 'x-message-id': 'm-2' } },
    ]);
    await bus.publish('refunds', [{ key: 'refund-1', value: Buffer.from('r'), headers: {} }]);
    await waitFor(() => counter.total() >= 3, 5_000, 'three dead letters');
  });
  after(() => bus.close());

  it('counts dead letters per group and topic', () => {
    assert.equal(counter.total({ group: 'orders-consumer', topic: 'orders' }), 2);
    assert.equal(counter.total({ group: 'refunds-consumer', topic: 'refunds' }), 1);
    assert.deepEqual(handled.map((m) => m.value.toString()), ['fine']);
  });

  it('lists dead letters with where they came from and why', async () => {
    const text = await run('list');
    assert.match(text, /3 dead letter\(s\)/);
    assert.match(text, /orders-consumer {2}orders\[\d+\]@\d+ {2}key=order-1 {2}attempts=2 {2}5 bytes com\.example\.Order\n {4}error: cannot parse order-1/);
    assert.match(text, /refunds-consumer {2}refunds\[\d+\]@\d+ {2}key=refund-1/);
    const json = JSON.parse(await run('list', '--json', '--group', 'orders-consumer')) as Record<string, unknown>[];
    assert.equal(json.length, 2);
    assert.deepEqual(json.map((l) => l.key).sort(), ['order-1', 'order-2']);
    assert.equal(Buffer.from(String(json.find((l) => l.key === 'order-1')!.value), 'base64').toString(), 'bad-1');
    assert.equal((JSON.parse(await run('list', '--json', '--topic', 'refunds')) as unknown[]).length, 1);
    assert.equal(await run('list', '--group', 'nobody'), 'no dead letters\n');
  });

  it('replays a dead letter to its original topic with its original headers', async () => {
    broken = false;
    const letters = JSON.parse(await run('list', '--json', '--group', 'orders-consumer')) as { id: string; key: string }[];
    const first = letters.find((l) => l.key === 'order-1')!;
    const text = await run('replay', first.id);
    assert.match(text, new RegExp(`replayed ${first.id} to orders \\(key order-1\\)`));
    await waitFor(() => handled.length >= 2, 2_000, 'the replayed message');
    const replayed = handled[1]!;
    assert.equal(replayed.key, 'order-1');
    assert.equal(replayed.value.toString(), 'bad-1');
    assert.equal(replayed.headers['x-message-id'], 'm-1');
    assert.equal(replayed.headers[DLQ_REPLAY_HEADER], '1');
    assert.equal(replayed.headers[DLQ_HEADERS.group], undefined, 'no dead-letter headers on the replayed message');

    assert.match(await run('replay', '--all', '--topic', 'orders'), /2 dead letter\(s\) replayed/);
    await waitFor(() => handled.length >= 4, 2_000, 'both orders replayed');
    assert.deepEqual(handled.slice(2).map((m) => m.key).sort(), ['order-1', 'order-2']);
  });

  it('rejects bad input', async () => {
    await assert.rejects(run('replay'), /ids from `svc deadletters list`\) or pass --all/);
    await assert.rejects(run('replay', 'abc'), /not a dead-letter id/);
    await assert.rejects(run('replay', '0:1', '--all'), /either ids or --all/);
    await assert.rejects(run('replay', '3:999999'), /no such dead letter: 3:999999/);
    const out = capture();
    const program = new Command().exitOverride();
    registerDeadLetterCommands(program, { open: async () => ({ kind: 'topic' as const, bus, stop: async () => {} }), stdout: out.stream });
    await assert.rejects(program.parseAsync(['node', 'svc', 'deadletters', 'list', '--idle-ms', '5']), /--idle-ms must be an integer/);
  });

  it('explains that the operator bus needs Kafka (the embedded default uses the dead_letters table)', () => {
    assert.throws(() => openOperatorBus(loadConfig({ NODE_ENV: 'test' }), createLogger({ level: 'silent' })), /set KAFKA_BROKERS/);
  });
});
