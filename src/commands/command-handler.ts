import type { Command, Decider } from './decider';
import type { EventStore } from '../infrastructure/eventstore/port';
import { StreamRevisionConflictError } from '../infrastructure/eventstore/port';
import type { Event, RecordedEvent } from '../shared/events';

export interface HandledCommand<E extends Event, S> {
  /** The events this command appended (empty when the decision produced none). */
  events: E[];
  /** State after the command. */
  state: S;
  /** Global position of the last appended event (or of the last one an earlier attempt recorded), to wait for read models. */
  lastGlobalPosition: bigint | null;
  /**
   * The stream already held this command's events (an earlier attempt of the same request, e.g. a
   * retry under an Idempotency-Key after a crash): nothing was decided or appended, and `events` is empty.
   */
  alreadyRecorded?: boolean;
}

/**
 * Runs one command against one stream: read, fold, decide, append with the expected revision.
 * A concurrent writer makes the append fail with a revision conflict; the command is then
 * decided again on the fresh state (a bounded number of times), so deciders see every event.
 * Event ids derive from the command id, so a retried HTTP request appends nothing twice; and a
 * command whose events the stream already holds (caused by its command id) is not decided again:
 * its outcome stands, answered as `alreadyRecorded` with the position of its last event.
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
  let earlier: RecordedEvent[] = [];
  const handled = await handleStep(
    store,
    decider,
    streamName,
    (state, recorded) => {
      earlier = recorded.filter((event) => event.metadata.causationId === command.metadata.commandId);
      return earlier.length > 0 ? [] : decider.decide(command, state);
    },
    {
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.newStream ? { history: [] } : {}),
    },
  );
  if (earlier.length > 0) return { events: [], state: handled.state, lastGlobalPosition: earlier[earlier.length - 1]!.globalPosition, alreadyRecorded: true };
  if (handled.written || handled.events.length === 0) return handled;
  // Decided on a history that did not show them (newStream), the events' ids were all in the stream
  // already: the same answer as above, from the stream as it is.
  const { state, events } = await loadAggregate(store, decider, streamName);
  const recorded = events.filter((event) => event.metadata.causationId === command.metadata.commandId);
  return { events: [], state, lastGlobalPosition: recorded[recorded.length - 1]?.globalPosition ?? handled.lastGlobalPosition, alreadyRecorded: true };
}

/** What a step appended, and whether the store wrote it (false: every event id was already there). */
export interface HandledStep<E extends Event, S> extends HandledCommand<E, S> {
  written: boolean;
}

/**
 * The load–decide–append loop every command goes through, for a decision that is a step rather
 * than one command: the workflow runner (src/agents/workflow) decides several commands in a row,
 * with the agents it runs in this process in between, and appends them together. The step gets
 * the folded state and the history it was folded from; on a conflict it runs again on a fresh read.
 */
export async function handleStep<E extends Event, S>(
  store: EventStore,
  decider: Pick<Decider<Command, E, S>, 'evolve' | 'initialState'>,
  streamName: string,
  step: (state: S, recorded: RecordedEvent[]) => E[] | Promise<E[]>,
  options: {
    maxAttempts?: number;
    /** The history as the caller already knows it, used instead of a read on the first attempt. */
    history?: RecordedEvent[];
    /** Errors that mean "the view was stale: decide again" (default: a revision conflict). */
    retryOn?: (error: unknown) => boolean;
  } = {},
): Promise<HandledStep<E, S>> {
  const maxAttempts = options.maxAttempts ?? 10;
  const retryOn = options.retryOn ?? ((error: unknown) => error instanceof StreamRevisionConflictError);
  for (let attempt = 1; ; attempt++) {
    const recorded = options.history !== undefined && attempt === 1 ? options.history : await store.readStream(streamName);
    let state = decider.initialState();
    for (const event of recorded) state = decider.evolve(state, event as unknown as E);
    const events = await step(state, recorded);
    if (events.length === 0) return { events, state, lastGlobalPosition: null, written: false };
    const expectedRevision = recorded.length === 0 ? ('no_stream' as const) : recorded[recorded.length - 1]!.streamPosition;
    try {
      const result = await store.appendToStream(streamName, events, { expectedRevision });
      for (const event of events) state = decider.evolve(state, event);
      return { events, state, lastGlobalPosition: result.lastGlobalPosition, written: result.written };
    } catch (error) {
      if (retryOn(error) && attempt < maxAttempts) {
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
