/**
 * The Telemetry object: off, a hop costs a histogram observation and never a span or a context; on,
 * spans nest through the active span, cross a boundary as a W3C traceparent, and the traced event
 * store stamps the append span's context on the events it appends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { Registry } from 'prom-client';
import { Telemetry, traceIdOf } from '../../../src/infrastructure/telemetry/telemetry';
import { tracedEventStore } from '../../../src/infrastructure/telemetry/traced-store';
import type { EventStore } from '../../../src/infrastructure/eventstore/port';
import type { Event } from '../../../src/shared/events';
import { ManualClock } from '../../../src/shared/clock';

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const telemetry = new Telemetry({ tracer: provider.getTracer('test'), clock: new ManualClock('2026-03-01T00:00:00Z') });
  return { telemetry, spans: () => exporter.getFinishedSpans() };
}

const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function histogram(telemetry: Telemetry, name: string): Promise<string> {
  const registry = new Registry();
  telemetry.registerMetrics(registry);
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith(name)).join('\n');
}

/** An event store that only records what it was asked to append (the decorator under test forwards to it). */
function recordingStore(): EventStore & { appended: Event[][]; headPosition(): Promise<bigint> } {
  const appended: Event[][] = [];
  return {
    appended,
    async appendToStream(_stream, events) {
      appended.push(events);
      return { nextExpectedRevision: BigInt(events.length - 1), lastGlobalPosition: 1n, written: true };
    },
    readStream: async () => [],
    readAll: async () => [],
    subscribeToAll: () => ({ stop: async () => {}, caughtUp: async () => {} }),
    close: async () => {},
    headPosition: async () => 42n,
  };
}

const event = (type: string, traceparent?: string): Event => ({ type, data: {}, metadata: { eventId: type, occurredAt: '2026-03-01T00:00:00Z', ...(traceparent ? { traceparent } : {}) } });

describe('Telemetry off', () => {
  it('gives no trace context but counts every hop in the duration histogram', async () => {
    const telemetry = Telemetry.off(new ManualClock());
    assert.equal(telemetry.enabled, false);
    const result = await telemetry.traced('agent', 'agent sanctions', {}, async (span) => {
      assert.equal(span.traceparent, undefined);
      assert.equal(telemetry.activeTraceparent(), undefined);
      return 7;
    });
    assert.equal(result, 7);
    await assert.rejects(telemetry.traced('append', 'append screening', {}, async () => { throw new Error('boom'); }), /boom/);
    const text = await histogram(telemetry, 'svc_hop_duration_seconds_count');
    assert.match(text, /svc_hop_duration_seconds_count\{hop="agent"\} 1/);
    assert.match(text, /svc_hop_duration_seconds_count\{hop="append"\} 1/);
    assert.deepEqual(Object.keys(telemetry.messageHeaders()), ['x-published-at']);
  });

  it('measures how long a message waited on the bus from its publication header', async () => {
    const clock = new ManualClock('2026-03-01T00:00:10Z');
    const telemetry = Telemetry.off(clock);
    const options = telemetry.received({ 'x-published-at': String(Date.parse('2026-03-01T00:00:09.750Z')) });
    assert.equal(options.parent, undefined);
    assert.equal(options.attributes?.['svc.bus_wait_ms'], 250);
    assert.equal(telemetry.waited('relay', Number.NaN), undefined, 'a missing or broken time is not observed');
    const text = await histogram(telemetry, 'svc_hop_wait_seconds');
    assert.match(text, /svc_hop_wait_seconds_sum\{wait="bus"\} 0\.25/);
    assert.match(text, /svc_hop_wait_seconds_count\{wait="bus"\} 1/);
    assert.doesNotMatch(text, /wait="relay"\} [1-9]/);
  });
});

describe('Telemetry on', () => {
  it('nests spans through the active span and continues a trace from a traceparent', async () => {
    const { telemetry, spans } = tracing();
    let carried: string | undefined;
    await telemetry.traced('http', 'POST /x', {}, async () => {
      await telemetry.traced('append', 'append screening', {}, async () => {
        carried = telemetry.messageHeaders().traceparent;
      });
    });
    assert.ok(carried && traceIdOf(carried), 'the active span travels in the message headers');
    // Another process takes the message: its consume span is the child of the span that published.
    await telemetry.traced('consume', 'consume svc.events.screening', telemetry.received({ traceparent: carried! }), async () => {});
    const [append, http, consume] = [spans().find((s) => s.name === 'append screening')!, spans().find((s) => s.name === 'POST /x')!, spans().find((s) => s.name.startsWith('consume'))!];
    assert.equal(parentId(http), undefined);
    assert.equal(parentId(append), http.spanContext().spanId);
    assert.equal(parentId(consume), append.spanContext().spanId);
    assert.equal(new Set(spans().map((s) => s.spanContext().traceId)).size, 1, 'one trace');
    assert.equal(consume.attributes['svc.hop'], 'consume');
  });

  it('marks a span failed when its work throws, and starts a new trace from a malformed traceparent', async () => {
    const { telemetry, spans } = tracing();
    await assert.rejects(telemetry.traced('agent', 'agent pep', { parent: 'not-a-traceparent' }, async () => { throw new Error('source down'); }));
    const [span] = spans();
    assert.equal(span!.status.code, 2); // ERROR
    assert.equal(span!.status.message, 'source down');
    assert.equal(parentId(span!), undefined);
  });

  it('links a batch span to the other traces it serves', async () => {
    const { telemetry, spans } = tracing();
    const a = telemetry.start('agent', 'a');
    const b = telemetry.start('agent', 'b');
    a.end();
    b.end();
    telemetry.start('consume', 'batch', { parent: a.traceparent, links: [b.traceparent, undefined] }).end();
    const batch = spans().find((s) => s.name === 'batch')!;
    assert.equal(batch.links.length, 1);
    assert.equal(batch.links[0]!.context.traceId, traceIdOf(b.traceparent));
  });
});

describe('the traced event store', () => {
  it('stamps the append span on events without a trace context and keeps the ones they carry', async () => {
    const { telemetry, spans } = tracing();
    const inner = recordingStore();
    const store = tracedEventStore(inner, telemetry);
    const foreign = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await telemetry.traced('http', 'POST /screenings', {}, () => store.appendToStream('screening-1', [event('A'), event('B', foreign)]));
    const [stamped, kept] = inner.appended[0]!;
    const append = spans().find((s) => s.name === 'append screening')!;
    assert.equal(traceIdOf(stamped!.metadata.traceparent), append.spanContext().traceId);
    assert.ok(stamped!.metadata.traceparent!.includes(append.spanContext().spanId));
    assert.equal(kept!.metadata.traceparent, foreign);
    assert.equal(await (store as typeof inner).headPosition(), 42n, 'other methods reach the store itself');
  });

  it('appends the events untouched when tracing is off', async () => {
    const inner = recordingStore();
    const store = tracedEventStore(inner, Telemetry.off(new ManualClock()));
    const events = [event('A')];
    await store.appendToStream('screening-1', events);
    assert.equal(inner.appended[0], events);
  });
});
