/**
 * Spans gathered for tests and benches, from every process of a deployment: an OTLP/HTTP (JSON)
 * receiver the services export to (TRACING_OTLP_ENDPOINT), or a SpanExporter handed to a service
 * started in this process. Both give the same CollectedSpan records.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** service.name of the process that recorded it. */
  service: string;
  /** svc.hop (http, append, relay_publish, consume, agent, projection_batch, webhook_delivery). */
  hop: string | undefined;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  /** Trace ids this span is linked to (a batch serving several traces). */
  links: string[];
}

export class SpanCollection {
  readonly spans: CollectedSpan[] = [];
  add(spans: CollectedSpan[]): void {
    this.spans.push(...spans);
  }
  clear(): void {
    this.spans.length = 0;
  }
  byTrace(): Map<string, CollectedSpan[]> {
    const traces = new Map<string, CollectedSpan[]>();
    for (const span of this.spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
    return traces;
  }
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: { key: string; value: AnyValue }[];
  links?: { traceId: string }[];
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: { key: string; value: AnyValue }[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const valueOf = (v: AnyValue): string | number | boolean => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? '';
const attributesOf = (list: { key: string; value: AnyValue }[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

export function fromOtlpJson(body: OtlpRequest): CollectedSpan[] {
  const out: CollectedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? 'unknown');
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const attributes = attributesOf(span.attributes);
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          service,
          hop: typeof attributes['svc.hop'] === 'string' ? attributes['svc.hop'] : undefined,
          startMs: Number(BigInt(span.startTimeUnixNano) / 1000n) / 1000,
          endMs: Number(BigInt(span.endTimeUnixNano) / 1000n) / 1000,
          attributes,
          links: (span.links ?? []).map((l) => l.traceId),
        });
      }
    }
  }
  return out;
}

const hrMs = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

export function fromReadableSpan(span: ReadableSpan): CollectedSpan {
  const attributes = Object.fromEntries(Object.entries(span.attributes).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))) as CollectedSpan['attributes'];
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    service: String(span.resource.attributes['service.name'] ?? 'unknown'),
    hop: typeof attributes['svc.hop'] === 'string' ? attributes['svc.hop'] : undefined,
    startMs: hrMs(span.startTime),
    endMs: hrMs(span.endTime),
    attributes,
    links: span.links.map((l) => l.context.traceId),
  };
}

/** A SpanExporter that adds to a collection (a service started in this process). */
export function collectingExporter(collection: SpanCollection): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      collection.add(spans.map(fromReadableSpan));
      done({ code: 0 });
    },
    async shutdown() {},
    async forceFlush() {},
  };
}

/** An OTLP/HTTP receiver on loopback (JSON, gzip or not): POST <url> with ExportTraceServiceRequest. */
export async function startOtlpReceiver(collection: SpanCollection): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
        if (!String(req.headers['content-type'] ?? '').includes('json')) throw new Error(`expected OTLP JSON, got ${req.headers['content-type']}`);
        collection.add(fromOtlpJson(JSON.parse(body.toString('utf8')) as OtlpRequest));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
