/**
 * The MessageBus contract: every adapter (in-process, kafkajs) must pass these same tests.
 * Each test uses its own topic(s) and consumer groups, so the tests can run concurrently.
 */
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { DeferredBusMessage, type BusConsumer, type ConsumedMessage, type MessageBus } from '../../../src/infrastructure/bus/port';
import type { BusLogger } from '../../../src/infrastructure/bus/logger';
import { DLQ_HEADERS } from '../../../src/infrastructure/bus/dead-letter';

/** Topics the suite uses; a broker fixture that cannot auto-create topics creates these first. */
export const contractTopics = [
  'contract.stop-while-failing',
  'contract.keys-headers',
  'contract.two-groups',
  'contract.one-per-group',
  'contract.redelivery',
  'contract.resume',
  'contract.dead-letter',
  'contract.dead-letter.dlq',
  'contract.no-dead-letter',
  'contract.no-dead-letter.dlq',
  'contract.transient',
  'contract.transient.dlq',
  'contract.batches',
  'contract.batch-poison',
  'contract.batch-poison.dlq',
];

export interface RecordingLogger extends BusLogger {
  errors: { obj: object; msg?: string }[];
}

export function recordingLogger(): RecordingLogger {
  const errors: { obj: object; msg?: string }[] = [];
  return {
    errors,
    error: (obj, msg) => errors.push({ obj, msg }),
    warn: () => {},
    info: () => {},
    debug: () => {},
  };
}

export interface BusFixture {
  /** A bus connected to the same broker/state as every other bus this fixture hands out. */
  bus: MessageBus;
  logger: RecordingLogger;
  /** A second, independent client of the same broker (for "restart" tests); same as bus in-process. */
  newClient(): Promise<MessageBus>;
  close(): Promise<void>;
}

export interface ContractOptions {
  /** Upper bound for one delivery to be observed (ms): a first group join takes ~3 s on the mock. */
  deliveryTimeoutMs: number;
  /**
   * Prefix for every topic and group name. Empty on a fresh broker; a unique one per run against a
   * long-lived broker (KAFKA_BROKERS), where earlier runs left messages and committed offsets.
   */
  namePrefix?: string;
}

export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const text = (m: ConsumedMessage) => m.value.toString('utf8');
const msg = (key: string, value: string, headers: Record<string, string> = {}) => ({
  key,
  value: Buffer.from(value),
  headers,
});

export function busContract(name: string, createFixture: () => Promise<BusFixture>, options: ContractOptions): void {
  const p = options.namePrefix ?? '';
  describe(`MessageBus contract: ${name}`, { concurrency: true }, () => {
    let fixture: BusFixture;
    const consumers: BusConsumer[] = [];
    const track = (c: BusConsumer) => {
      consumers.push(c);
      return c;
    };

    before(async () => {
      fixture = await createFixture();
    });
    after(async () => {
      await Promise.all(consumers.map((c) => c.stop()));
      await fixture.close();
    });

    it('delivers keys, values and headers, keeping per-key order', async () => {
      const topic = `${p}contract.keys-headers`;
      const sent = [
        msg('acct-1', 'a1', { 'x-schema-fingerprint': 'f1', 'correlation-id': 'c-1' }),
        msg('acct-2', 'b1', { 'correlation-id': 'c-2' }),
        msg('acct-1', 'a2', { 'correlation-id': 'c-3' }),
        msg('acct-2', 'b2', {}),
        msg('acct-1', 'a3', { empty: '' }),
        // Bytes produced when first read (the relay's messages): delivered like any other.
        new DeferredBusMessage('acct-2', { deferred: 'yes' }, () => Buffer.from('b3')),
      ];
      await fixture.bus.publish(topic, sent.slice(0, 2));
      await fixture.bus.publish(topic, sent.slice(2));
      const received: ConsumedMessage[] = [];
      track(
        await fixture.bus.subscribe({ groupId: `${p}g-keys`, topics: [topic], fromBeginning: true }, async (m) => {
          received.push(m);
        }),
      );
      await waitFor(() => received.length >= sent.length, options.deliveryTimeoutMs, 'six messages');
      assert.equal(received.length, sent.length);
      const byValue = new Map(received.map((m) => [text(m), m]));
      for (const s of sent) {
        const got = byValue.get(s.value.toString());
        assert.ok(got, `message ${s.value} delivered`);
        assert.equal(got.key, s.key);
        assert.equal(got.topic, topic);
        assert.deepEqual(got.headers, s.headers);
        assert.match(got.offset, /^\d+$/);
      }
      assert.deepEqual(received.filter((m) => m.key === 'acct-1').map(text), ['a1', 'a2', 'a3']);
      assert.deepEqual(received.filter((m) => m.key === 'acct-2').map(text), ['b1', 'b2', 'b3']);
      // Same key → same partition.
      assert.equal(new Set(received.filter((m) => m.key === 'acct-1').map((m) => m.partition)).size, 1);
    });

    it('gives every message to each of two consumer groups', async () => {
      const topic = `${p}contract.two-groups`;
      const values = Array.from({ length: 10 }, (_, i) => `m${i}`);
      await fixture.bus.publish(topic, values.map((v, i) => msg(`k${i % 3}`, v)));
      const seenA: string[] = [];
      const seenB: string[] = [];
      const [a, b] = await Promise.all([
        fixture.bus.subscribe({ groupId: `${p}g-two-a`, topics: [topic], fromBeginning: true }, async (m) => {
          seenA.push(text(m));
        }),
        fixture.bus.subscribe({ groupId: `${p}g-two-b`, topics: [topic], fromBeginning: true }, async (m) => {
          seenB.push(text(m));
        }),
      ]);
      track(a);
      track(b);
      await waitFor(() => seenA.length >= 10 && seenB.length >= 10, options.deliveryTimeoutMs, 'both groups');
      assert.deepEqual([...seenA].sort(), [...values].sort());
      assert.deepEqual([...seenB].sort(), [...values].sort());
    });

    it('hands each message to only one member of a group', async () => {
      const topic = `${p}contract.one-per-group`;
      const handledBy = new Map<string, string[]>();
      const record = (member: string) => async (m: ConsumedMessage) => {
        handledBy.set(text(m), [...(handledBy.get(text(m)) ?? []), member]);
      };
      const [one, two] = await Promise.all([
        fixture.bus.subscribe({ groupId: `${p}g-shared`, topics: [topic], fromBeginning: true }, record('one')),
        fixture.bus.subscribe({ groupId: `${p}g-shared`, topics: [topic], fromBeginning: true }, record('two')),
      ]);
      track(one);
      track(two);
      const values = Array.from({ length: 20 }, (_, i) => `s${i}`);
      await fixture.bus.publish(topic, values.map((v, i) => msg(`key-${i}`, v)));
      await waitFor(() => handledBy.size >= 20, options.deliveryTimeoutMs, 'twenty messages');
      // Let any duplicate delivery show up before judging.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual([...handledBy.keys()].sort(), [...values].sort());
      for (const [value, members] of handledBy) assert.equal(members.length, 1, `${value} handled by ${members.join(',')}`);
      // The group shares the work: both members own partitions.
      const perMember = [...handledBy.values()].flat();
      assert.ok(perMember.includes('one') && perMember.includes('two'), 'both members handled messages');
    });

    it('redelivers a message whose handler threw, logs the error, and keeps later messages behind it', async () => {
      const topic = `${p}contract.redelivery`;
      const attempts: string[] = [];
      let failuresLeft = 2;
      track(
        await fixture.bus.subscribe({ groupId: `${p}g-redeliver`, topics: [topic], fromBeginning: true }, async (m) => {
          attempts.push(text(m));
          if (text(m) === 'poison-once' && failuresLeft > 0) {
            failuresLeft--;
            throw new Error('transient failure for the test');
          }
        }),
      );
      const errorsBefore = fixture.logger.errors.length;
      await fixture.bus.publish(topic, [msg('same-key', 'first'), msg('same-key', 'poison-once'), msg('same-key', 'after')]);
      await waitFor(() => attempts.includes('after'), options.deliveryTimeoutMs, 'the message after the failing one');
      assert.deepEqual(attempts, ['first', 'poison-once', 'poison-once', 'poison-once', 'after']);
      const logged = fixture.logger.errors.slice(errorsBefore).filter((e) => JSON.stringify(e.obj).includes('transient failure for the test'));
      assert.equal(logged.length, 2, 'each failure is logged, not swallowed');
    });

    it('leaves a message that never succeeded uncommitted when its consumer stops, for the next member', async () => {
      const topic = `${p}contract.stop-while-failing`;
      let attempts = 0;
      const failing = await fixture.bus.subscribe(
        // Never dead-lettered here: this test is about the uncommitted message, not the retry bound.
        { groupId: `${p}g-stop-failing`, topics: [topic], fromBeginning: true, retry: { maxAttempts: Number.POSITIVE_INFINITY } },
        async () => {
        attempts++;
        throw new Error('downstream is down');
        },
      );
      await fixture.bus.publish(topic, [msg('k', 'stuck')]);
      await waitFor(() => attempts >= 2, options.deliveryTimeoutMs, 'a few failed attempts');
      await failing.stop();
      const client = await fixture.newClient();
      const handled: string[] = [];
      track(
        await client.subscribe({ groupId: `${p}g-stop-failing`, topics: [topic], fromBeginning: true }, async (m) => {
          handled.push(text(m));
        }),
      );
      await waitFor(() => handled.length >= 1, options.deliveryTimeoutMs, 'redelivery to the next member');
      assert.deepEqual(handled, ['stuck']);
      if (client !== fixture.bus) await client.close();
    });

    it('resumes a restarted consumer from its committed offsets', async () => {
      const topic = `${p}contract.resume`;
      await fixture.bus.publish(topic, ['r1', 'r2', 'r3'].map((v) => msg('resume-key', v)));
      const firstRun: string[] = [];
      const first = await fixture.bus.subscribe({ groupId: `${p}g-resume`, topics: [topic], fromBeginning: true }, async (m) => {
        firstRun.push(text(m));
      });
      await waitFor(() => firstRun.length >= 3, options.deliveryTimeoutMs, 'first run');
      await first.stop();
      assert.deepEqual(firstRun, ['r1', 'r2', 'r3']);

      await fixture.bus.publish(topic, ['r4', 'r5'].map((v) => msg('resume-key', v)));
      // A fresh client, as after a process restart.
      const client = await fixture.newClient();
      const secondRun: string[] = [];
      const second = track(
        await client.subscribe({ groupId: `${p}g-resume`, topics: [topic], fromBeginning: true }, async (m) => {
          secondRun.push(text(m));
        }),
      );
      await waitFor(() => secondRun.length >= 2, options.deliveryTimeoutMs, 'second run');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(secondRun, ['r4', 'r5'], 'only the messages after the committed offset');
      await second.stop();
      if (client !== fixture.bus) await client.close();
    });

    it('hands a partition\'s ready messages over in batches, in order, at most maxBatch each, committing them', async () => {
      const topic = `${p}contract.batches`;
      const group = `${p}g-batches`;
      const values = Array.from({ length: 10 }, (_, i) => `b${i}`);
      // Published before anyone consumes, so they are all ready together.
      await fixture.bus.publish(topic, values.map((v) => msg('batch-key', v)));
      const calls: string[][] = [];
      const first = await fixture.bus.subscribeInBatches({ groupId: group, topics: [topic], fromBeginning: true, maxBatch: 4 }, async (batch) => {
        calls.push(batch.map(text));
      });
      await waitFor(() => calls.flat().length >= values.length, options.deliveryTimeoutMs, 'ten messages in batches');
      await first.stop();
      assert.deepEqual(calls.flat(), values, 'each message once, in order');
      assert.ok(calls.every((c) => c.length >= 1 && c.length <= 4), `no call over maxBatch: ${JSON.stringify(calls)}`);
      assert.ok(calls.some((c) => c.length > 1), `ready messages come together: ${JSON.stringify(calls)}`);

      // Committed: a restarted member gets only what came after.
      await fixture.bus.publish(topic, [msg('batch-key', 'b10')]);
      const client = await fixture.newClient();
      const again: string[] = [];
      track(
        await client.subscribeInBatches({ groupId: group, topics: [topic], fromBeginning: true, maxBatch: 4 }, async (batch) => {
          again.push(...batch.map(text));
        }),
      );
      await waitFor(() => again.length >= 1, options.deliveryTimeoutMs, 'the message after the restart');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(again, ['b10']);
      if (client !== fixture.bus) await client.close();
    });

    it('redelivers a failed batch one message at a time, so only the poison message is dead-lettered', async () => {
      const topic = `${p}contract.batch-poison`;
      const dlq = `${p}contract.batch-poison.dlq`;
      const group = `${p}g-batch-poison`;
      const letters: ConsumedMessage[] = [];
      track(
        await fixture.bus.subscribe({ groupId: `${p}g-batch-poison-reader`, topics: [dlq], fromBeginning: true }, async (m) => {
          letters.push(m);
        }),
      );
      await fixture.bus.publish(topic, ['ok-1', 'poison', 'ok-2'].map((v) => msg('poison-key', v)));
      const calls: string[][] = [];
      const handled: string[] = [];
      track(
        await fixture.bus.subscribeInBatches(
          { groupId: group, topics: [topic], fromBeginning: true, maxBatch: 10, retry: { maxAttempts: 2, deadLetterTopic: dlq } },
          async (batch) => {
            calls.push(batch.map(text));
            if (batch.some((m) => text(m) === 'poison')) throw new Error('poison in the batch');
            handled.push(...batch.map(text));
          },
        ),
      );
      await waitFor(() => handled.includes('ok-2') && letters.length >= 1, options.deliveryTimeoutMs, 'the good messages and the dead letter');
      assert.deepEqual(handled, ['ok-1', 'ok-2'], 'the good messages of the failed batch are handled, once each');
      assert.deepEqual(calls.slice(-4), [['ok-1'], ['poison'], ['poison'], ['ok-2']], 'after the batch failed: one per call, the poison twice (maxAttempts)');
      assert.equal(letters.length, 1);
      assert.equal(text(letters[0]!), 'poison');
      assert.equal(letters[0]!.headers[DLQ_HEADERS.attempts], '2');
    });

    it('dead-letters a message after N failed attempts with its origin in headers, and moves the partition on', async () => {
      const topic = `${p}contract.dead-letter`;
      const dlq = `${p}contract.dead-letter.dlq`;
      const group = `${p}g-dead-letter`;
      const letters: ConsumedMessage[] = [];
      track(
        await fixture.bus.subscribe({ groupId: `${p}g-dead-letter-reader`, topics: [dlq], fromBeginning: true }, async (m) => {
          letters.push(m);
        }),
      );
      const attempts: string[] = [];
      const first = await fixture.bus.subscribe(
        { groupId: group, topics: [topic], fromBeginning: true, retry: { maxAttempts: 3, deadLetterTopic: dlq } },
        async (m) => {
          attempts.push(text(m));
          if (text(m) === 'poison') throw new Error('cannot handle this one');
        },
      );
      await fixture.bus.publish(topic, [
        msg('dl-key', 'before'),
        msg('dl-key', 'poison', { 'x-message-id': 'poison-1', 'x-schema-name': 'com.example.Thing' }),
        msg('dl-key', 'after-1'),
        msg('dl-key', 'after-2'),
      ]);
      await waitFor(() => attempts.includes('after-2') && letters.length >= 1, options.deliveryTimeoutMs, 'the dead letter and the later messages');
      // Exactly N attempts, then the later messages of the same partition, in order.
      assert.deepEqual(attempts, ['before', 'poison', 'poison', 'poison', 'after-1', 'after-2']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(letters.length, 1, 'one dead letter');
      const letter = letters[0]!;
      assert.equal(letter.key, 'dl-key');
      assert.equal(text(letter), 'poison', 'the original bytes');
      assert.equal(letter.headers['x-message-id'], 'poison-1', 'original headers kept');
      assert.equal(letter.headers['x-schema-name'], 'com.example.Thing');
      assert.equal(letter.headers[DLQ_HEADERS.topic], topic);
      assert.match(letter.headers[DLQ_HEADERS.partition] ?? '', /^\d+$/);
      assert.match(letter.headers[DLQ_HEADERS.offset] ?? '', /^\d+$/);
      assert.equal(letter.headers[DLQ_HEADERS.key], 'dl-key');
      assert.equal(letter.headers[DLQ_HEADERS.group], group);
      assert.equal(letter.headers[DLQ_HEADERS.attempts], '3');
      assert.equal(letter.headers[DLQ_HEADERS.error], 'cannot handle this one');
      assert.ok(!Number.isNaN(Date.parse(letter.headers[DLQ_HEADERS.at] ?? '')), 'a timestamp');
      const logged = fixture.logger.errors.filter((e) => /dead-lettered/.test(e.msg ?? '') && JSON.stringify(e.obj).includes(group));
      assert.equal(logged.length, 1, 'the dead letter is logged at error level');

      // The poison message was committed: a restarted member of the group does not get it again.
      await first.stop();
      const client = await fixture.newClient();
      const again: string[] = [];
      track(
        await client.subscribe({ groupId: group, topics: [topic], fromBeginning: true, retry: { maxAttempts: 3, deadLetterTopic: dlq } }, async (m) => {
          again.push(text(m));
        }),
      );
      await fixture.bus.publish(topic, [msg('dl-key', 'after-3')]);
      await waitFor(() => again.includes('after-3'), options.deliveryTimeoutMs, 'a message after the restart');
      assert.deepEqual(again, ['after-3']);
      if (client !== fixture.bus) await client.close();
    });

    it('does not dead-letter a message whose handler fails fewer times than the limit', async () => {
      const topic = `${p}contract.no-dead-letter`;
      const dlq = `${p}contract.no-dead-letter.dlq`;
      const group = `${p}g-no-dead-letter`;
      const letters: ConsumedMessage[] = [];
      track(
        await fixture.bus.subscribe({ groupId: `${p}g-no-dead-letter-reader`, topics: [dlq], fromBeginning: true }, async (m) => {
          letters.push(m);
        }),
      );
      const attempts: string[] = [];
      let failuresLeft = 2;
      track(
        await fixture.bus.subscribe({ groupId: group, topics: [topic], fromBeginning: true, retry: { maxAttempts: 3, deadLetterTopic: dlq } }, async (m) => {
          attempts.push(text(m));
          if (text(m) === 'flaky' && failuresLeft > 0) {
            failuresLeft--;
            throw new Error('fails twice');
          }
        }),
      );
      await fixture.bus.publish(topic, [msg('nd-key', 'flaky'), msg('nd-key', 'next')]);
      await waitFor(() => attempts.includes('next'), options.deliveryTimeoutMs, 'the message after the flaky one');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(attempts, ['flaky', 'flaky', 'flaky', 'next']);
      assert.equal(letters.length, 0, 'nothing dead-lettered');
      assert.equal(fixture.logger.errors.filter((e) => /dead-lettered/.test(e.msg ?? '') && JSON.stringify(e.obj).includes(group)).length, 0);
    });

    it('does not count transient connection errors towards the limit', async () => {
      const topic = `${p}contract.transient`;
      const dlq = `${p}contract.transient.dlq`;
      const group = `${p}g-transient`;
      const attempts: string[] = [];
      let outageLeft = 4; // more than maxAttempts: the database is "down" for a while
      track(
        await fixture.bus.subscribe({ groupId: group, topics: [topic], fromBeginning: true, retry: { maxAttempts: 2, deadLetterTopic: dlq } }, async (m) => {
          attempts.push(text(m));
          if (outageLeft > 0) {
            outageLeft--;
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }
        }),
      );
      await fixture.bus.publish(topic, [msg('tr-key', 'during-outage'), msg('tr-key', 'later')]);
      await waitFor(() => attempts.includes('later'), options.deliveryTimeoutMs, 'the message after the outage');
      assert.deepEqual(attempts, ['during-outage', 'during-outage', 'during-outage', 'during-outage', 'during-outage', 'later']);
      assert.equal(fixture.logger.errors.filter((e) => /dead-lettered/.test(e.msg ?? '') && JSON.stringify(e.obj).includes(group)).length, 0);
    });
  });
}
