/**
 * The OpenTelemetry tracer provider of one service: its own provider (never registered globally),
 * spans batched to an exporter (OTLP over HTTP in production; any SpanExporter in tests and benches),
 * a parent-based sampler so that a trace started by one process is kept or dropped as a whole.
 */
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';

export interface TracingSetup {
  serviceName: string;
  /** OTLP/HTTP traces endpoint (e.g. http://collector:4318/v1/traces), or an exporter of your own. */
  exporter: { otlpUrl: string } | SpanExporter;
  /** Share of new traces kept (children follow their parent's decision). */
  sampleRatio: number;
  /** How long spans wait in the batch before export (ms, default 1000). */
  exportDelayMs?: number;
}

export function startTracing(setup: TracingSetup): { tracer: Tracer; shutdown(): Promise<void>; flush(): Promise<void> } {
  const exporter = 'otlpUrl' in setup.exporter ? new OTLPTraceExporter({ url: setup.exporter.otlpUrl }) : setup.exporter;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': setup.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(setup.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: setup.exportDelayMs ?? 1000, maxQueueSize: 8192, maxExportBatchSize: 1024 })],
  });
  return {
    tracer: provider.getTracer('compliance-screening-service'),
    shutdown: () => provider.shutdown(),
    flush: () => provider.forceFlush(),
  };
}
