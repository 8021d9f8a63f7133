/** Tracing and the hop histograms: one Telemetry per service (TRACING_* in the config; off by default). */
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Config } from '../config/config';
import type { Clock } from '../shared/clock';
import { startTracing } from '../infrastructure/telemetry/provider';
import { Telemetry } from '../infrastructure/telemetry/telemetry';
import type { Stops } from './lifecycle';

export interface TelemetryOptions {
  /** service.name when TRACING_SERVICE_NAME is not set. */
  defaultServiceName: string;
  /** Spans go here instead of OTLP (tests, benches); tracing is then on whatever the config says. */
  spanExporter?: SpanExporter;
}

export function startTelemetry(config: Config, clock: Clock, options: TelemetryOptions, stops: Stops): Telemetry {
  const exporter = options.spanExporter ?? (config.TRACING_OTLP_ENDPOINT ? { otlpUrl: config.TRACING_OTLP_ENDPOINT } : undefined);
  if (!exporter) return Telemetry.off(clock);
  const tracing = startTracing({ serviceName: config.TRACING_SERVICE_NAME ?? options.defaultServiceName, exporter, sampleRatio: config.TRACING_SAMPLE_RATIO });
  const telemetry = new Telemetry({ tracer: tracing.tracer, shutdown: () => tracing.shutdown(), flush: () => tracing.flush(), clock });
  // Pushed first, so it runs last: the spans of the shutdown itself are exported too.
  stops.push(() => telemetry.shutdown());
  return telemetry;
}
