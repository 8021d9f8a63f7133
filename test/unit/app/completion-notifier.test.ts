/**
 * CompletionNotifier: waiters are woken by a screening's end, and an end seen before anyone waited
 * is remembered (the request path then reads the stream at once instead of polling).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionNotifier } from '../../../src/app/screenings/screening-service';
import type { EventHandler, EventStore, Subscription } from '../../../src/infrastructure/eventstore/port';
import type { RecordedEvent } from '../../../src/shared/events';

function fakeStore(): { store: EventStore; deliver(event: RecordedEvent): Promise<void> } {
  let handler: EventHandler | undefined;
  const subscription: Subscription = { stop: async () => {}, caughtUp: async () => {} };
  const store = {
    subscribeToAll: (h: EventHandler) => {
      handler = h;
      return subscription;
    },
  } as unknown as EventStore;
  return { store, deliver: (event) => handler!(event) };
}

const ended = (stream: string, type = 'ScreeningCompleted'): RecordedEvent =>
  ({ type, data: {}, metadata: { eventId: `${stream}-end` }, streamName: stream, streamPosition: 5n, globalPosition: 9n, recordedAt: '' }) as unknown as RecordedEvent;

test('wakes the waiters of a stream when it completes or fails, and only them', async () => {
  const { store, deliver } = fakeStore();
  const notifier = new CompletionNotifier(store);
  await notifier.start();
  const mine = notifier.wait('screening-1', 5_000);
  const other = notifier.wait('screening-2', 50);
  await deliver(ended('screening-1'));
  assert.equal(await mine.promise, true);
  assert.equal(await other.promise, false, 'another stream times out');
  const failed = notifier.wait('screening-3', 5_000);
  await deliver(ended('screening-3', 'ScreeningFailed'));
  assert.equal(await failed.promise, true);
  await deliver({ ...ended('screening-4'), type: 'PhaseCompleted' } as RecordedEvent);
  assert.equal(notifier.ended('screening-4'), false, 'other events are not an end');
  await notifier.stop();
});

test('remembers the last 1,000 ends for waiters that come late, forgetting the oldest first', async () => {
  const { store, deliver } = fakeStore();
  const notifier = new CompletionNotifier(store);
  await notifier.start();
  assert.equal(notifier.ended('screening-0'), false);
  for (let i = 0; i <= 1_000; i++) await deliver(ended(`screening-${i}`));
  assert.equal(notifier.ended('screening-0'), false, 'the oldest is forgotten');
  assert.equal(notifier.ended('screening-1'), true);
  assert.equal(notifier.ended('screening-1000'), true);
  await notifier.stop();
});
