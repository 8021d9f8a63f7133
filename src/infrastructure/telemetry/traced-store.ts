/**
 * The event store with the append hop traced: each append is a span (child of the active one: the
 * HTTP request, the bus message being handled) and stamps that span's traceparent in the metadata of
 * the events it appends that carry none, so the relay, the read models and the webhooks continue the
 * same trace. The store itself is unchanged: every other method goes straight to it.
 */
import type { Event } from '../../shared/events';
import type { EventStore } from '../eventstore/port';
import { streamCategory } from '../bus/topics';
import { TRACEPARENT, type Telemetry } from './telemetry';

type Append = EventStore['appendToStream'];

export function tracedEventStore<S extends EventStore>(store: S, telemetry: Telemetry): S {
  const append: Append = (streamName, events, options) =>
    telemetry.traced('append', `append ${streamCategory(streamName)}`, { attributes: { 'svc.stream': streamName, 'svc.events': events.length } }, (span) =>
      store.appendToStream(streamName, span.traceparent === undefined ? events : events.map((event) => stamped(event, span.traceparent!)), options),
    );
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'appendToStream') return append;
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      // Methods run on the store itself (its fields are its own), bound once.
      let method = bound.get(property);
      if (!method) bound.set(property, (method = (value as (...args: unknown[]) => unknown).bind(target)));
      return method;
    },
  });
}

function stamped(event: Event, traceparent: string): Event {
  if (event.metadata.traceparent !== undefined) return event;
  return { ...event, metadata: { ...event.metadata, [TRACEPARENT]: traceparent } };
}
