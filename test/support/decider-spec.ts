/**
 * Given/When/Then specifications for pure deciders (the Emmett DeciderSpecification idea,
 * written here from scratch):
 *
 *   DeciderSpecification.for(decider).given(events).when(command).then(expectedEvents)
 *   DeciderSpecification.for(decider).given(events).when(command).thenThrows(NotFound, (e) => e.id === '7')
 *
 * `then` compares type and data of every emitted event (and the whole metadata when the
 * expected event spells it out), and always checks that emitted metadata is derived from the
 * command: eventId `${commandId}:${index}`, occurredAt = command now, causationId = commandId.
 */
import assert from 'node:assert/strict';
import type { Event, EventMetadata } from '../../src/shared/events';
import type { Command, Decider } from '../../src/commands/decider';

/** An event as a test writes it: metadata optional. */
export type GivenEvent<E extends Event> = E extends Event
  ? { type: E['type']; data: E['data']; metadata?: EventMetadata }
  : never;

let givenCounter = 0;

function complete<E extends Event>(event: GivenEvent<E>): E {
  if (event.metadata) return event as unknown as E;
  givenCounter += 1;
  return {
    ...event,
    metadata: { eventId: `given-${givenCounter}`, occurredAt: '2026-01-01T00:00:00.000Z' },
  } as unknown as E;
}

type ErrorClass<T extends Error> = abstract new (...args: never[]) => T;

export class DeciderSpecification<C extends Command, E extends Event, S> {
  private constructor(private readonly decider: Decider<C, E, S>) {}

  static for<C extends Command, E extends Event, S>(decider: Decider<C, E, S>): DeciderSpecification<C, E, S> {
    return new DeciderSpecification(decider);
  }

  given(events: GivenEvent<E>[] = []): When<C, E, S> {
    return new When(this.decider, events.map((e) => complete<E>(e)));
  }
}

class When<C extends Command, E extends Event, S> {
  constructor(
    private readonly decider: Decider<C, E, S>,
    private readonly history: E[],
  ) {}

  when(command: C): Then<C, E, S> {
    return new Then(this.decider, this.history, command);
  }
}

export class Then<C extends Command, E extends Event, S> {
  constructor(
    private readonly decider: Decider<C, E, S>,
    private readonly history: E[],
    private readonly command: C,
  ) {}

  private run(): { events: E[]; state: S } {
    const state = this.history.reduce((s, e) => this.decider.evolve(s, e), this.decider.initialState());
    const events = this.decider.decide(this.command, state);
    return { events, state };
  }

  /** Asserts the emitted events; returns them (and the state after applying them) for further checks. */
  then(expected: GivenEvent<E>[]): { events: E[]; stateAfter: S } {
    return this.verify((events) => {
      assert.deepEqual(
        events.map((e) => ({ type: e.type, data: e.data })),
        expected.map((e) => ({ type: e.type, data: e.data })),
      );
      events.forEach((event, index) => {
        const exp = expected[index];
        if (exp?.metadata) assert.deepEqual(event.metadata, exp.metadata);
      });
    });
  }

  /** Asserts only the types of the emitted events, in order (for tables; payloads are specified elsewhere). */
  thenTypes(types: E['type'][]): { events: E[]; stateAfter: S } {
    return this.verify((events) => assert.deepEqual(events.map((e) => e.type), types));
  }

  private verify(check: (events: E[]) => void): { events: E[]; stateAfter: S } {
    const { events, state } = this.run();
    check(events);
    events.forEach((event, index) => {
      const m = this.command.metadata;
      assert.equal(event.metadata.eventId, `${m.commandId}:${index}`, 'eventId derives from the command id');
      assert.equal(event.metadata.occurredAt, m.now, 'occurredAt is the command time');
      assert.equal(event.metadata.causationId, m.commandId, 'causationId is the command id');
      assert.deepEqual(event.metadata.actor, m.actor, 'actor is carried over');
      assert.equal(event.metadata.correlationId, m.correlationId, 'correlationId is carried over');
    });
    // Evolving must accept every emitted event (the exhaustive switch would throw otherwise).
    const stateAfter = events.reduce((s, e) => this.decider.evolve(s, e), state);
    return { events, stateAfter };
  }

  /** Asserts that nothing is emitted (idempotent repeat, no-op). */
  thenNothing(): void {
    this.then([]);
  }

  /** Asserts the decision throws an instance of `errorClass` (and satisfies the predicate). */
  thenThrows<T extends Error>(errorClass: ErrorClass<T>, predicate?: (error: T) => boolean): T {
    let caught: unknown;
    try {
      this.run();
    } catch (error) {
      caught = error;
    }
    assert.ok(caught !== undefined, `expected ${errorClass.name} but the decider emitted events`);
    assert.ok(
      caught instanceof errorClass,
      `expected ${errorClass.name}, got ${(caught as Error)?.name}: ${(caught as Error)?.message}`,
    );
    if (predicate) assert.ok(predicate(caught as T), `error did not satisfy predicate: ${(caught as Error).message}`);
    return caught as T;
  }
}
