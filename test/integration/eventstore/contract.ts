/**
 * The one contract every EventStore adapter passes. Call it from an adapter's test file with a
 * factory; each case gets its own store and uses its own stream names (an EventStoreDB server is
 * shared between runs, so reads are filtered to this case's streams).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Event, RecordedEvent } from '../../../src/shared/events';
import { verifyHashChain, GENESIS_HASH } from '../../../src/infrastructure/eventstore/hashChain';
import { StreamRevisionConflictError, type EventStore } from '../../../src/infrastructure/eventstore/port';
import { stamp, type Command } from '../../../src/commands/decider';
import { handleCommand } from '../../../src/commands/command-handler';

export interface ContractStore {
  store: EventStore;
  teardown(): Promise<void>;
}

export type StoreFactory = () => Promise<ContractStore>;

export function newEvent(type: string, data: Record<string, unknown> = {}, eventId: string = randomUUID()): Event {
  return {
    type,
    data,
    metadata: {
      eventId,
      occurredAt: '2026-01-02T03:04:05.000Z',
      correlationId: 'corr-1',
      actor: { surface: 'system' },
    },
  };
}

export function uniqueStream(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

async function withStore(factory: StoreFactory, fn: (store: EventStore) => Promise<void>): Promise<void> {
  const { store, teardown } = await factory();
  try {
    await fn(store);
  } finally {
    await store.close();
    await teardown();
  }
}

/** Resolves once predicate holds, polling every 10 ms; fails after timeoutMs. */
export async function eventually(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function eventStoreContract(name: string, factory: StoreFactory, options: { skip?: string | false } = {}): void {
  describe(`EventStore contract: ${name}`, { skip: options.skip ?? false }, () => {
    it('appends and reads a stream back in order, with positions and a verifiable hash chain', async () => {
      await withStore(factory, async (store) => {
        const stream = uniqueStream('account');
        const first = await store.appendToStream(stream, [newEvent('AccountOpened', { name: 'Acme' }), newEvent('KeyIssued', { keyId: 'k1' })], {
          expectedRevision: 'no_stream',
        });
        assert.equal(first.written, true);
        assert.equal(first.nextExpectedRevision, 1n);
        const second = await store.appendToStream(stream, [newEvent('KeyRevoked', { keyId: 'k1' })], { expectedRevision: 1n });
        assert.equal(second.nextExpectedRevision, 2n);
        assert.ok(second.lastGlobalPosition > first.lastGlobalPosition);

        const events = await store.readStream(stream);
        assert.deepEqual(events.map((e) => e.type), ['AccountOpened', 'KeyIssued', 'KeyRevoked']);
        assert.deepEqual(events.map((e) => e.streamPosition), [0n, 1n, 2n]);
        assert.deepEqual(events[0]!.data, { name: 'Acme' });
        assert.equal(events[0]!.streamName, stream);
        assert.equal(events[0]!.metadata.correlationId, 'corr-1');
        assert.deepEqual(events[0]!.metadata.actor, { surface: 'system' });
        assert.equal(events[2]!.globalPosition, second.lastGlobalPosition);
        assert.ok(!Number.isNaN(Date.parse(events[0]!.recordedAt)));

        assert.equal(events[0]!.metadata.previousHash, GENESIS_HASH);
        assert.equal(events[1]!.metadata.previousHash, events[0]!.metadata.hash);
        assert.deepEqual(verifyHashChain(events), { ok: true, lastHash: events[2]!.metadata.hash });
        const tampered = events.map((e, i) => (i === 1 ? { ...e, data: { keyId: 'k2' } } : e));
        assert.equal(verifyHashChain(tampered).ok, false);

        assert.deepEqual((await store.readStream(stream, { fromRevision: 1n, maxCount: 1 })).map((e) => e.type), ['KeyIssued']);
        assert.deepEqual(await store.readStream(uniqueStream('missing')), []);
      });
    });

    it('enforces every expected revision variant with a typed conflict', async () => {
      await withStore(factory, async (store) => {
        const stream = uniqueStream('rev');
        await assert.rejects(store.appendToStream(stream, [newEvent('A')], { expectedRevision: 'stream_exists' }), (err) => {
          assert.ok(err instanceof StreamRevisionConflictError);
          assert.equal(err.actual, 'no_stream');
          assert.equal(err.streamName, stream);
          return true;
        });
        await assert.rejects(store.appendToStream(stream, [newEvent('A')], { expectedRevision: 0n }), StreamRevisionConflictError);
        await store.appendToStream(stream, [newEvent('A')], { expectedRevision: 'no_stream' });
        await assert.rejects(store.appendToStream(stream, [newEvent('B')], { expectedRevision: 'no_stream' }), (err) => {
          assert.ok(err instanceof StreamRevisionConflictError);
          assert.equal(err.actual, 0n);
          return true;
        });
        await store.appendToStream(stream, [newEvent('B')], { expectedRevision: 'stream_exists' });
        await assert.rejects(store.appendToStream(stream, [newEvent('C')], { expectedRevision: 0n }), (err) => {
          assert.ok(err instanceof StreamRevisionConflictError);
          assert.equal(err.expected, 0n);
          assert.equal(err.actual, 1n);
          return true;
        });
        const ok = await store.appendToStream(stream, [newEvent('C')], { expectedRevision: 1n });
        assert.equal(ok.nextExpectedRevision, 2n);
        const any = await store.appendToStream(stream, [newEvent('D')], { expectedRevision: 'any' });
        assert.equal(any.nextExpectedRevision, 3n);
        const omitted = await store.appendToStream(stream, [newEvent('E')]);
        assert.equal(omitted.nextExpectedRevision, 4n);
        assert.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A', 'B', 'C', 'D', 'E']);
        assert.equal(verifyHashChain(await store.readStream(stream)).ok, true);
      });
    });

    it('treats re-appending existing event ids as an idempotent no-op', async () => {
      await withStore(factory, async (store) => {
        const stream = uniqueStream('idem');
        const batch = [newEvent('A', { n: 1 }), newEvent('B', { n: 2 })];
        const first = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        const retry = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        assert.equal(retry.written, false);
        assert.equal(retry.nextExpectedRevision, first.nextExpectedRevision);
        assert.equal(retry.lastGlobalPosition, first.lastGlobalPosition);
        const retryAny = await store.appendToStream(stream, batch);
        assert.equal(retryAny.written, false);
        assert.equal((await store.readStream(stream)).length, 2);
        const next = await store.appendToStream(stream, [newEvent('C')], { expectedRevision: first.nextExpectedRevision });
        assert.equal(next.written, true);
        assert.equal(next.nextExpectedRevision, 2n);
      });
    });

    it('hands out deep-frozen events from every read: a reader cannot change what the next one sees', async () => {
      await withStore(factory, async (store) => {
        const stream = uniqueStream('frozen');
        await store.appendToStream(stream, [newEvent('A', { hits: [{ score: 0.5, note: 'x' }] })]);
        const seen: RecordedEvent[] = [];
        const sub = store.subscribeToAll(async (e) => {
          if (e.streamName === stream) seen.push(e);
        });
        await sub.caughtUp();
        await sub.stop();
        const reads = [(await store.readStream(stream))[0]!, (await store.readAll()).find((e) => e.streamName === stream)!, seen[0]!];
        for (const event of reads) {
          const hit = (event.data.hits as { score: number }[])[0]!;
          assert.throws(() => {
            hit.score = 1;
          }, TypeError);
          assert.throws(() => (event.data.hits as unknown[]).push({}), TypeError);
          assert.throws(() => {
            event.metadata.eventId = 'other';
          }, TypeError);
        }
        assert.equal(((await store.readStream(stream))[0]!.data.hits as { score: number }[])[0]!.score, 0.5);
      });
    });

    it('a create under an Idempotency-Key (event ids derived from the key) is recorded once however often it is retried', async () => {
      await withStore(factory, async (store) => {
        const stream = uniqueStream('keyed');
        const decider = {
          initialState: () => ({ created: 0 }),
          evolve: (state: { created: number }) => ({ created: state.created + 1 }),
          decide: (command: Command<'Create', { name: string }>) => stamp(command, [{ type: 'Created', data: { name: command.data.name } }]),
        };
        const command: Command<'Create', { name: string }> = {
          type: 'Create',
          data: { name: 'one' },
          metadata: { now: '2026-01-02T03:04:05.000Z', actor: { surface: 's3' }, commandId: `idem-${randomUUID()}`, idempotency: { key: 'k'.repeat(64), request: 'r'.repeat(64) } },
        };
        const first = await handleCommand(store, decider, stream, command, { newStream: true });
        assert.equal(first.events.length, 1);
        assert.deepEqual((await store.readStream(stream))[0]!.metadata.idempotency, { key: 'k'.repeat(64), request: 'r'.repeat(64) }, 'the key and the fingerprint are in the event');
        const retried = await handleCommand(store, decider, stream, command, { newStream: true });
        assert.equal(retried.alreadyRecorded, true);
        assert.equal(retried.lastGlobalPosition, first.lastGlobalPosition);
        assert.deepEqual(retried.state, { created: 1 });
        // Even a retry that decides again and appends the same ids writes nothing.
        assert.equal((await store.appendToStream(stream, decider.decide(command))).written, false);
        assert.equal((await store.readStream(stream)).length, 1);
      });
    });

    it('reads all streams in one global order, with an exclusive checkpoint and a max count', async () => {
      await withStore(factory, async (store) => {
        const a = uniqueStream('all-a');
        const b = uniqueStream('all-b');
        const mine = (e: RecordedEvent) => e.streamName === a || e.streamName === b;
        const start = (await store.readAll()).reduce((max, e) => (e.globalPosition > max ? e.globalPosition : max), 0n);
        await store.appendToStream(a, [newEvent('A1')]);
        await store.appendToStream(b, [newEvent('B1'), newEvent('B2')]);
        await store.appendToStream(a, [newEvent('A2')]);
        const all = (await store.readAll({ after: start })).filter(mine);
        assert.deepEqual(all.map((e) => e.type), ['A1', 'B1', 'B2', 'A2']);
        for (let i = 1; i < all.length; i++) assert.ok(all[i]!.globalPosition > all[i - 1]!.globalPosition, 'strictly increasing');
        const afterSecond = (await store.readAll({ after: all[1]!.globalPosition })).filter(mine);
        assert.deepEqual(afterSecond.map((e) => e.type), ['B2', 'A2']);
        const limited = await store.readAll({ after: all[0]!.globalPosition, maxCount: 2 });
        assert.equal(limited.length, 2);
        assert.equal(limited[0]!.type, 'B1');
      });
    });

    it('subscription catches up from a checkpoint, then follows live appends exactly once, in order', async () => {
      await withStore(factory, async (store) => {
        const stream = uniqueStream('sub');
        const start = (await store.readAll()).reduce((max, e) => (e.globalPosition > max ? e.globalPosition : max), 0n);
        await store.appendToStream(stream, [newEvent('E1'), newEvent('E2'), newEvent('E3')]);
        const seen: RecordedEvent[] = [];
        const sub = store.subscribeToAll(
          async (e) => {
            if (e.streamName === stream) seen.push(e);
          },
          { after: start, pollIntervalMs: 50 },
        );
        await sub.caughtUp();
        assert.deepEqual(seen.map((e) => e.type), ['E1', 'E2', 'E3']);
        await store.appendToStream(stream, [newEvent('E4')]);
        await store.appendToStream(stream, [newEvent('E5')]);
        await eventually(() => seen.length >= 5, 5000, 'live events');
        await sub.caughtUp();
        assert.deepEqual(seen.map((e) => e.type), ['E1', 'E2', 'E3', 'E4', 'E5']);
        await sub.stop();
        await store.appendToStream(stream, [newEvent('E6')]);
        await new Promise((r) => setTimeout(r, 150));
        assert.equal(seen.length, 5, 'nothing delivered after stop()');

        const resumed: string[] = [];
        const sub2 = store.subscribeToAll(
          async (e) => {
            if (e.streamName === stream) resumed.push(e.type);
          },
          { after: seen[2]!.globalPosition, pollIntervalMs: 50 },
        );
        await sub2.caughtUp();
        assert.deepEqual(resumed, ['E4', 'E5', 'E6']);
        await sub2.stop();
      });
    });

    it('caughtUp() resolves on an empty or fully delivered store and only after delivery', async () => {
      await withStore(factory, async (store) => {
        const start = (await store.readAll()).reduce((max, e) => (e.globalPosition > max ? e.globalPosition : max), 0n);
        const delivered: bigint[] = [];
        const sub = store.subscribeToAll(
          async (e) => {
            await new Promise((r) => setTimeout(r, 20)); // slow handler: caughtUp must wait for it
            delivered.push(e.globalPosition);
          },
          { after: start, pollIntervalMs: 50 },
        );
        await sub.caughtUp();
        const stream = uniqueStream('cu');
        const appended = await store.appendToStream(stream, [newEvent('X'), newEvent('Y'), newEvent('Z')]);
        await sub.caughtUp();
        assert.ok(delivered.includes(appended.lastGlobalPosition), 'caughtUp waited for the last committed event');
        await sub.stop();
      });
    });

    it('a failing handler stops the subscription, reports the error and rejects caughtUp()', async () => {
      await withStore(factory, async (store) => {
        const start = (await store.readAll()).reduce((max, e) => (e.globalPosition > max ? e.globalPosition : max), 0n);
        const stream = uniqueStream('fail');
        await store.appendToStream(stream, [newEvent('Ok'), newEvent('Boom'), newEvent('Never')]);
        const handled: string[] = [];
        let reported: Error | undefined;
        const sub = store.subscribeToAll(
          async (e) => {
            if (e.streamName !== stream) return;
            if (e.type === 'Boom') throw new Error('projection bug');
            handled.push(e.type);
          },
          { after: start, pollIntervalMs: 50, onError: (err) => (reported = err) },
        );
        await assert.rejects(sub.caughtUp(), /projection bug/);
        await eventually(() => reported !== undefined, 2000, 'onError');
        assert.equal(reported!.message, 'projection bug');
        assert.deepEqual(handled, ['Ok']);
        await sub.stop();
      });
    });
  });
}
