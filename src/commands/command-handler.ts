import type { Command, Decider } from './decider';
import type { EventStore } from '../infrastructure/eventstore/port';
import { StreamRevisionConflictError } from '../infrastructure/eventstore/port';
import type { Event, RecordedEvent } from '../shared/events';

export interface HandledCommand<E extends Event, S> {
  /** The events this command appended (empty when the decision produced none). */
  events: E[];
  /** State after the command. */
  state: S;
  /** Global position of the last appended event, to wait for read models. */
  lastGlobalPosition: bigint | null;
}

/**
 * Runs one command against one stream: read, fold, decide, append with the expected revision.
 * A concurrent writer makes the append fail with a revision conflict; the command is then
 * decided again on the fresh state (a bounded number of times), so deciders see every event.
 * Event ids derive from the command id, so a retried HTTP request appends nothing twice.
 */
export async function handleCommand<C extends Command, E extends Event, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  streamName: string,
  command: C,
  options: {
    maxAttempts?: number;
    /**
     * The stream cannot exist yet (its id was just drawn from a sequence): decide on the empty
     * history without reading it. Should it exist after all, the append's `no_stream` expectation
     * fails and the retry reads it as usual.
     */
    newStream?: boolean;
  } = {},
): Promise<HandledCommand<E, S>> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const recorded = options.newStream && attempt === 1 ? [] : await store.readStream(streamName);
    let state = decider.initialState();
    for (const event of recorded) state = decider.evolve(state, event as unknown as E);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, lastGlobalPosition: null };
    const expectedRevision = recorded.length === 0 ? ('no_stream' as const) : recorded[recorded.length - 1]!.streamPosition;
    try {
      const result = await store.appendToStream(streamName, events, { expectedRevision });
      for (const event of events) state = decider.evolve(state, event);
      return { events, state, lastGlobalPosition: result.lastGlobalPosition };
    } catch (error) {
      if (error instanceof StreamRevisionConflictError && attempt < maxAttempts) {
        // Many writers on one stream (e.g. an account's keys): back off with jitter so they spread out.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
        continue;
      }
      throw error;
    }
  }
}

/** Reads a stream and folds it, for queries that need the aggregate's own view. */
export async function loadAggregate<C extends Command, E extends Event, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  streamName: string,
): Promise<{ state: S; events: RecordedEvent[] }> {
  const events = await store.readStream(streamName);
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event as unknown as E);
  return { state, events };
}
