/**
 * Where a screening's time goes: one OpenTelemetry trace per request across every hop (HTTP, the
 * command append, the relay, the bus, each agent, the read models, the webhook), and a prom-client
 * histogram of each hop's duration and of the time messages wait between hops.
 *
 * One Telemetry per service, passed down (no global provider, no global context manager: tests run
 * several services in one process). The trace context crosses process boundaries as a W3C
 * `traceparent`: in event metadata (`metadata.traceparent`, stamped by the traced event store), in
 * bus message headers (`traceparent`) and in webhook outbox rows. Inside a process the active span is
 * kept in an AsyncLocalStorage of this object, used only while tracing is on.
 *
 * Off (the default, no exporter configured): no span objects, no context storage; a hop costs two
 * reads of the monotonic timer and a histogram observation (bench/http.ts BENCH_TRACING measures it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Histogram, type Registry } from 'prom-client';
import { systemTimer, type Clock, type Timer } from '../../shared/clock';

/** The hops of a screening, as spans name them and as the histograms label them. */
export const HOPS = ['http', 'append', 'relay_publish', 'consume', 'agent', 'projection_batch', 'webhook_delivery'] as const;
export type Hop = (typeof HOPS)[number];

/** Where a message or an event waited before the next hop took it (svc_hop_wait_seconds). */
export type Wait = 'relay' | 'bus';

/** Header (bus messages) and metadata field (events) carrying the W3C trace context. */
export const TRACEPARENT = 'traceparent';
/** Bus header: when the message was published (epoch ms, the producer's clock), for the wait histogram. */
export const PUBLISHED_AT_HEADER = 'x-published-at';

const KIND: Record<Hop, SpanKind> = {
  http: SpanKind.SERVER,
  append: SpanKind.INTERNAL,
  relay_publish: SpanKind.PRODUCER,
  consume: SpanKind.CONSUMER,
  agent: SpanKind.INTERNAL,
  projection_batch: SpanKind.INTERNAL,
  webhook_delivery: SpanKind.CLIENT,
};

export interface SpanOptions {
  /** The parent's traceparent (an event's metadata, a message header); default: the active span. */
  parent?: string | undefined;
  /** Other traces this span also belongs to (a batch of several screenings' messages). */
  links?: readonly (string | undefined)[];
  attributes?: Attributes;
  /**
   * False: not counted in the duration histogram (the second and later spans of one batch that
   * belongs to several traces: the batch is one hop).
   */
  observe?: boolean;
}

/** One hop in flight. */
export interface HopSpan {
  /** W3C traceparent of this span; undefined when tracing is off. */
  readonly traceparent: string | undefined;
  setAttribute(key: string, value: string | number | boolean): void;
  /** Renames the span (an HTTP span learns its route at the end). */
  rename(name: string): void;
  /** Ends the span (an error marks it failed) and observes the hop's duration. */
  end(error?: unknown): void;
}

export interface TelemetryOptions {
  /** A tracer of the service's own provider; absent: tracing off. */
  tracer?: Tracer;
  /** Flushes and stops the provider (service stop). */
  shutdown?: () => Promise<void>;
  /** Exports the spans ended so far (tests, benches). */
  flush?: () => Promise<void>;
  /** Business clock, for the epoch times of waits. */
  clock: Clock;
  timer?: Timer;
}

const propagator = new W3CTraceContextPropagator();
const SECOND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class Telemetry {
  readonly enabled: boolean;
  private readonly tracer: Tracer | undefined;
  private readonly active = new AsyncLocalStorage<Context>();
  private readonly timer: Timer;
  private readonly durations = new Histogram({
    name: 'svc_hop_duration_seconds',
    help: 'Duration of each hop of the pipeline: http (a request), append (an event-store append), relay_publish, consume (a bus message handled), agent (one agent run), projection_batch, webhook_delivery.',
    labelNames: ['hop'],
    buckets: SECOND_BUCKETS,
    registers: [],
  });
  private readonly waits = new Histogram({
    name: 'svc_hop_wait_seconds',
    help: 'Time between hops: relay (event committed to published on the bus), bus (published to taken by a consumer; producer and consumer clocks).',
    labelNames: ['wait'],
    buckets: SECOND_BUCKETS,
    registers: [],
  });

  /** The histograms' children per label, bound once: an observation then skips hashing its labels. */
  private readonly durationOf: Record<Hop, { observe(value: number): void }> = {
    http: this.durations.labels({ hop: 'http' }),
    append: this.durations.labels({ hop: 'append' }),
    relay_publish: this.durations.labels({ hop: 'relay_publish' }),
    consume: this.durations.labels({ hop: 'consume' }),
    agent: this.durations.labels({ hop: 'agent' }),
    projection_batch: this.durations.labels({ hop: 'projection_batch' }),
    webhook_delivery: this.durations.labels({ hop: 'webhook_delivery' }),
  };
  private readonly waitOf = { relay: this.waits.labels({ wait: 'relay' }), bus: this.waits.labels({ wait: 'bus' }) } satisfies Record<Wait, { observe(value: number): void }>;

  constructor(private readonly options: TelemetryOptions) {
    this.tracer = options.tracer;
    this.enabled = options.tracer !== undefined;
    this.timer = options.timer ?? systemTimer;
  }

  /** Tracing off: histograms only. */
  static off(clock: Clock): Telemetry {
    return new Telemetry({ clock });
  }

  registerMetrics(registry: Registry): void {
    registry.registerMetric(this.durations);
    registry.registerMetric(this.waits);
  }

  /** Starts a hop; without `parent` it is a child of the active span (or a new trace). */
  start(hop: Hop, name: string, options: SpanOptions = {}): HopSpan {
    const started = this.timer.nowMs();
    const observe = options.observe === false ? () => undefined : () => this.durationOf[hop].observe((this.timer.nowMs() - started) / 1000);
    if (!this.tracer) return untracedSpan(observe);
    const parent = options.parent !== undefined ? contextOf(options.parent) : this.active.getStore() ?? ROOT_CONTEXT;
    const links = (options.links ?? []).flatMap((l): Link[] => {
      const context = l === undefined ? undefined : trace.getSpanContext(contextOf(l));
      return context ? [{ context }] : [];
    });
    const span = this.tracer.startSpan(name, { kind: KIND[hop], attributes: { 'svc.hop': hop, ...options.attributes }, ...(links.length ? { links } : {}) }, parent);
    return new TracedSpan(span, observe);
  }

  /** Times one hop for the histogram only (a batch whose spans, one per trace, are not counted). */
  stopwatch(hop: Hop): () => void {
    const started = this.timer.nowMs();
    return () => this.durationOf[hop].observe((this.timer.nowMs() - started) / 1000);
  }

  /** Runs fn with `span` active: spans started inside (and events appended) are its children. */
  within<T>(span: HopSpan, fn: () => T): T {
    if (!this.tracer || !(span instanceof TracedSpan)) return fn();
    return this.active.run(trace.setSpan(this.active.getStore() ?? ROOT_CONTEXT, span.span), fn);
  }

  /** start + within + end: the span ends when fn settles, failed if it throws. */
  async traced<T>(hop: Hop, name: string, options: SpanOptions, fn: (span: HopSpan) => Promise<T>): Promise<T> {
    const span = this.start(hop, name, options);
    try {
      const result = await this.within(span, () => fn(span));
      span.end();
      return result;
    } catch (error) {
      span.end(error);
      throw error;
    }
  }

  /** The active span's traceparent (undefined when off or outside any span). */
  activeTraceparent(): string | undefined {
    if (!this.tracer) return undefined;
    const context = this.active.getStore();
    return context ? traceparentOf(context) : undefined;
  }

  /** How long a message waited (its publication time, epoch ms, from a header or an event's recordedAt). */
  waited(wait: Wait, sinceEpochMs: number | undefined): number | undefined {
    if (sinceEpochMs === undefined || !Number.isFinite(sinceEpochMs)) return undefined;
    const ms = Math.max(0, this.options.clock.now().getTime() - sinceEpochMs);
    this.waitOf[wait].observe(ms / 1000);
    return ms;
  }

  /** Headers of a message published now: the active trace context and the publication time. */
  messageHeaders(): Record<string, string> {
    const traceparent = this.activeTraceparent();
    return { [PUBLISHED_AT_HEADER]: String(this.nowEpochMs()), ...(traceparent ? { [TRACEPARENT]: traceparent } : {}) };
  }

  /**
   * A consumer took a message: observes how long it waited on the bus; the options of its consume
   * span (child of the message's trace context, the wait as an attribute).
   */
  received(headers: Readonly<Record<string, string>>, attributes: Attributes = {}): SpanOptions & { parent: string | undefined } {
    const publishedAt = headers[PUBLISHED_AT_HEADER];
    const waitedMs = publishedAt !== undefined ? this.waited('bus', Number(publishedAt)) : undefined;
    return { parent: headers[TRACEPARENT], attributes: waitedMs !== undefined ? { ...attributes, 'svc.bus_wait_ms': waitedMs } : attributes };
  }

  /** Epoch ms now, for PUBLISHED_AT_HEADER. */
  nowEpochMs(): number {
    return this.options.clock.now().getTime();
  }

  /** Exports every span ended so far. */
  async flush(): Promise<void> {
    await this.options.flush?.();
  }

  async shutdown(): Promise<void> {
    await this.options.shutdown?.();
  }
}

class TracedSpan implements HopSpan {
  readonly traceparent: string | undefined;
  constructor(
    readonly span: Span,
    private readonly observe: () => void,
  ) {
    this.traceparent = traceparentOf(trace.setSpan(ROOT_CONTEXT, span));
  }
  setAttribute(key: string, value: string | number | boolean): void {
    this.span.setAttribute(key, value);
  }
  rename(name: string): void {
    this.span.updateName(name);
  }
  end(error?: unknown): void {
    if (error !== undefined) {
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    }
    this.span.end();
    this.observe();
  }
}

function untracedSpan(observe: () => void): HopSpan {
  return { traceparent: undefined, setAttribute: () => undefined, rename: () => undefined, end: () => observe() };
}

/** A context whose remote parent is this traceparent (an invalid one gives the root: a new trace). */
function contextOf(traceparent: string): Context {
  return propagator.extract(ROOT_CONTEXT, { [TRACEPARENT]: traceparent }, defaultTextMapGetter);
}

function traceparentOf(context: Context): string | undefined {
  const carrier: Record<string, string> = {};
  propagator.inject(context, carrier, defaultTextMapSetter);
  return carrier[TRACEPARENT];
}

/** The trace id of a traceparent (32 hex), or undefined when it is not one. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  return traceparent === undefined ? undefined : /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(traceparent)?.[1];
}
