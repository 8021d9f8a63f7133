import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { partitionForKey } from '../../../src/infrastructure/bus/partitioner';
import { DeferredBusMessage } from '../../../src/infrastructure/bus/port';
import { recordingLogger, waitFor } from '../../integration/bus/contract';

const msg = (key: string, value: string) => ({ key, value: Buffer.from(value), headers: {} });

describe('InProcessBus specifics', () => {
  it('encodes a deferred message only if a consumer reads its value, and then once for every group', async () => {
    const bus = new InProcessBus({ logger: recordingLogger(), defaultPartitions: 1 });
    const produced: string[] = [];
    const deferred = (key: string, value: string) =>
      new DeferredBusMessage(key, { 'x-event-type': value }, () => {
        produced.push(value);
        return Buffer.from(value);
      });
    await bus.publish('events', [deferred('s-1', 'Requested'), deferred('s-1', 'Completed')]);
    const headersOnly: string[] = [];
    const readers: string[][] = [[], []];
    const consumers = [
      await bus.subscribe({ groupId: 'by-header', topics: ['events'], fromBeginning: true }, async (m) => void headersOnly.push(m.headers['x-event-type']!)),
      ...readers.map((seen, i) =>
        bus.subscribe({ groupId: `reader-${i}`, topics: ['events'], fromBeginning: true }, async (m) => {
          if (m.headers['x-event-type'] === 'Requested') seen.push(m.value.toString());
        }),
      ),
    ];
    await waitFor(() => headersOnly.length === 2 && readers.every((seen) => seen.length === 1), 1000, 'all delivered');
    assert.deepEqual(readers, [['Requested'], ['Requested']]);
    assert.deepEqual(produced, ['Requested'], 'produced once, for the only message whose bytes were read');
    for (const c of await Promise.all(consumers)) await c.stop();
    await bus.close();
  });

  it('a batch consumer woken by one message takes the others published in the same turn of the event loop', async () => {
    const bus = new InProcessBus({ logger: recordingLogger(), defaultPartitions: 1 });
    const calls: string[][] = [];
    const c = await bus.subscribeInBatches({ groupId: 'results', topics: ['results'], maxBatch: 10 }, async (batch) => {
      calls.push(batch.map((m) => m.value.toString()));
    });
    // Three answers a few promise steps apart (as agents of one phase answer), none after a macrotask.
    const answer = async (value: string, steps: number) => {
      for (let i = 0; i < steps; i++) await Promise.resolve();
      await bus.publish('results', [msg('screening-1', value)]);
    };
    await Promise.all([answer('pep', 0), answer('media', 1), answer('sanctions', 6)]);
    await waitFor(() => calls.flat().length === 3, 1000, 'three answers');
    assert.deepEqual(calls, [['pep', 'media', 'sanctions']]);
    // A message published after a macrotask is another batch.
    await bus.publish('results', [msg('screening-1', 'late')]);
    await waitFor(() => calls.length === 2, 1000, 'the late answer');
    assert.deepEqual(calls[1], ['late']);
    await c.stop();
    await bus.close();
  });

  it('starts a new group at the end of the topic unless fromBeginning', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    await bus.publish('t', [msg('k', 'old')]);
    const seen: string[] = [];
    const c = await bus.subscribe({ groupId: 'latest', topics: ['t'] }, async (m) => {
      seen.push(m.value.toString());
    });
    await bus.publish('t', [msg('k', 'new')]);
    await waitFor(() => seen.length === 1, 1000, 'new message');
    assert.deepEqual(seen, ['new']);
    await c.stop();
    await bus.close();
  });

  it('stop() waits for the in-flight handler and commits it, so a later member does not redo it', async () => {
    const bus = new InProcessBus({ logger: recordingLogger(), defaultPartitions: 1 });
    await bus.publish('t', [msg('k', 'slow'), msg('k', 'next')]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first: string[] = [];
    const c1 = await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async (m) => {
      first.push(m.value.toString());
      await gate;
    });
    await waitFor(() => first.length === 1, 1000, 'slow handler started');
    let stopped = false;
    const stopping = c1.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(stopped, false, 'stop waits for the running handler');
    release();
    await stopping;
    const second: string[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async (m) => {
      second.push(m.value.toString());
    });
    await waitFor(() => second.length === 1, 1000, 'next message');
    assert.deepEqual(first, ['slow']);
    assert.deepEqual(second, ['next']);
    await bus.close();
  });

  it('spreads partitions over the members of a group and processes different keys concurrently', async () => {
    const bus = new InProcessBus({ logger: recordingLogger(), defaultPartitions: 4 });
    const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
    const byMember: Record<string, number> = { a: 0, b: 0 };
    let running = 0;
    let maxRunning = 0;
    const handler = (member: string) => async () => {
      byMember[member]!++;
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
    };
    await bus.subscribe({ groupId: 'g', topics: ['t'] }, handler('a'));
    await bus.subscribe({ groupId: 'g', topics: ['t'] }, handler('b'));
    await bus.publish('t', keys.map((k) => msg(k, k)));
    await waitFor(() => byMember.a! + byMember.b! === 40, 2000, 'all messages');
    assert.ok(byMember.a! > 0 && byMember.b! > 0, `both members worked: ${JSON.stringify(byMember)}`);
    assert.ok(maxRunning > 1, 'partitions are processed in parallel');
    await bus.close();
  });

  it('drops messages every group has consumed once the retention slack is exceeded, keeping offsets', async () => {
    const bus = new InProcessBus({ logger: recordingLogger(), defaultPartitions: 1, retainConsumed: 5 });
    const seen: string[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['t'] }, async (m) => {
      seen.push(m.offset);
    });
    await bus.publish('t', Array.from({ length: 30 }, (_, i) => msg('k', String(i))));
    await waitFor(() => seen.length === 30, 1000, 'thirty messages');
    assert.deepEqual(seen, Array.from({ length: 30 }, (_, i) => String(i)));
    // A group arriving now from the beginning sees only what is retained, with the original offsets.
    const late: string[] = [];
    await bus.subscribe({ groupId: 'late', topics: ['t'], fromBeginning: true }, async (m) => {
      late.push(m.offset);
    });
    await waitFor(() => late.length > 0, 1000, 'late group');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(late.length < 30 && late.length >= 5, `retained ${late.length}`);
    assert.equal(late.at(-1), '29');
    await bus.close();
  });

  it('rejects publishing after close and maps keys to stable partitions', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    await bus.close();
    await assert.rejects(bus.publish('t', [msg('k', 'v')]), /closed/);
    assert.equal(partitionForKey('screening-42', 8), partitionForKey('screening-42', 8));
    const spread = new Set(Array.from({ length: 100 }, (_, i) => partitionForKey(`s-${i}`, 8)));
    assert.equal(spread.size, 8);
  });
});
