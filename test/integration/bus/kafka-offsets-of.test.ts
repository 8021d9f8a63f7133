/**
 * A consumer group that replaces older ones (SubscribeOptions.offsetsOf, the worker's `svc-worker`
 * replacing `svc-agents` and `svc-workflows`): on the librdkafka mock cluster, a partition the new group
 * never committed starts where the old group had committed, a partition it did commit keeps its own
 * offset, and a topic the old group never read starts as fromBeginning says.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KafkaBus } from '../../../src/infrastructure/bus/kafka/kafka-bus';
import { startMockKafka } from '../../support/kafka';
import { recordingLogger, waitFor } from './contract';

/** The contract's logger, keeping the info lines too. */
function loggerWithInfo() {
  const info: string[] = [];
  return { ...recordingLogger(), info: (_obj: object, msg?: string) => void info.push(msg ?? ''), infoLines: info };
}

const settings = { sessionTimeout: 6_000, heartbeatInterval: 500, rebalanceTimeout: 3_000, maxWaitTimeInMs: 50 };
const message = (key: string) => ({ key, value: Buffer.from(key), headers: {} });

describe('kafkajs adapter: a group that replaces older groups', () => {
  it('starts each partition where the group it replaces had committed, unless it committed one itself', { skip: Boolean(process.env.KAFKA_BROKERS) }, async () => {
    const [tasks, events, fresh] = ['offsets.tasks', 'offsets.events', 'offsets.fresh'];
    const broker = await startMockKafka({ brokers: 1, topics: [tasks, events, fresh].map((name) => ({ name, partitions: 1 })) });
    const logger = loggerWithInfo();
    const make = () => new KafkaBus({ brokers: broker.brokers, logger, clientId: 'offsets-of', consumer: settings, joinTimeoutMs: 30_000 });
    const buses: KafkaBus[] = [];
    const bus = () => {
      const b = make();
      buses.push(b);
      return b;
    };
    try {
      const producer = bus();
      // The old groups read and committed: old-tasks up to t2, old-events up to e1.
      await producer.publish(tasks, [message('t1'), message('t2')]);
      await producer.publish(events, [message('e1')]);
      await producer.publish(fresh, [message('f1')]);
      const readBy = async (groupId: string, topic: string, count: number) => {
        const seen: string[] = [];
        const consumer = await bus().subscribe({ groupId, topics: [topic], fromBeginning: true }, async (m) => {
          seen.push(m.key);
        });
        await waitFor(() => seen.length >= count, 20_000, `${groupId} reads ${count}`);
        await consumer.stop();
        return seen;
      };
      assert.deepEqual(await readBy('old-tasks', tasks, 2), ['t1', 't2']);
      assert.deepEqual(await readBy('old-events', events, 1), ['e1']);
      // The new group itself has committed the events topic (up to e2), and nothing of the tasks topic.
      await producer.publish(events, [message('e2')]);
      assert.deepEqual(await readBy('new', events, 2), ['e1', 'e2']);
      // Meanwhile more arrives; the old events group never saw e2/e3 (its offset is behind the new group's).
      await producer.publish(tasks, [message('t3')]);
      await producer.publish(events, [message('e3')]);

      const seen: string[] = [];
      const consumer = await bus().subscribeInBatches(
        {
          groupId: 'new',
          topics: [tasks, events, fresh],
          fromBeginning: true,
          maxBatch: 64,
          offsetsOf: [
            { groupId: 'old-tasks', topics: [tasks] },
            { groupId: 'old-events', topics: [events, fresh] },
          ],
        },
        async (batch) => {
          seen.push(...batch.map((m) => m.key));
        },
      );
      await waitFor(() => seen.length >= 3, 20_000, 't3, e3 and f1');
      await new Promise((resolve) => setTimeout(resolve, 500)); // nothing older follows
      await consumer.stop();
      // tasks: from old-tasks' offset (after t2); events: the new group's own offset (after e2), not
      // old-events' (after e1); fresh: no group had committed it, so from the beginning.
      assert.deepEqual([...seen].sort(), ['e3', 'f1', 't3']);
      assert.ok(logger.infoLines.includes('consumer group starts where the groups it replaces had committed'), 'the carried-over offsets are logged');
      assert.deepEqual(logger.errors, []);

      // Restarted, the new group keeps its own offsets: nothing is read again.
      const again: string[] = [];
      await producer.publish(tasks, [message('t4')]);
      await bus().subscribeInBatches(
        { groupId: 'new', topics: [tasks, events, fresh], fromBeginning: true, maxBatch: 64, offsetsOf: [{ groupId: 'old-tasks', topics: [tasks] }] },
        async (batch) => {
          again.push(...batch.map((m) => m.key));
        },
      );
      await waitFor(() => again.length >= 1, 20_000, 't4');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(again, ['t4']);
    } finally {
      for (const b of buses) await b.close();
      await broker.stop();
    }
  });
});
