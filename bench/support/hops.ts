/**
 * Per-hop figures from the spans of screenings (bench/hops.ts, bench/scale.ts): for each hop its
 * duration, and the time a message waited before it (relay: committed -> published; bus: published ->
 * taken by a consumer), p50 and p99, and how many of each one screening makes.
 */
import type { CollectedSpan, SpanCollection } from '../../test/support/span-collector';

export interface HopRow {
  what: string;
  /** Spans (or waits) per screening. */
  perScreening: number;
  p50: number;
  p99: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const HOP_ORDER = ['http', 'append', 'relay_publish', 'consume', 'agent', 'projection_batch', 'webhook_delivery'];

/** The traces of screening requests (an HTTP span POST …/screening/… at the root). */
export function screeningTraces(collection: SpanCollection): CollectedSpan[][] {
  return [...collection.byTrace().values()].filter((spans) => spans.some((s) => s.hop === 'http' && s.parentSpanId === undefined && /^POST .*screening/.test(s.name)));
}

/** Rows: end to end, each hop's duration (consume split by topic family), and the waits. */
export function hopRows(traces: CollectedSpan[][]): HopRow[] {
  const n = traces.length;
  if (n === 0) return [];
  const spans = traces.flat();
  const rows: HopRow[] = [];
  const add = (what: string, values: number[]) => {
    if (values.length) rows.push({ what, perScreening: values.length / n, p50: percentile(values, 50), p99: percentile(values, 99) });
  };
  const ms = (s: CollectedSpan) => s.endMs - s.startMs;
  add('end to end (HTTP request)', spans.filter((s) => s.hop === 'http').map(ms));
  for (const hop of HOP_ORDER.slice(1)) {
    const ofHop = spans.filter((s) => s.hop === hop);
    if (hop === 'consume') {
      const family = (s: CollectedSpan) => s.name.replace(/^consume /, '').replace(/^svc\.agents\.tasks\..*/, 'svc.agents.tasks.*');
      for (const topic of [...new Set(ofHop.map(family))].sort()) add(`consume ${topic}`, ofHop.filter((s) => family(s) === topic).map(ms));
    } else if (hop === 'agent') {
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const onWorkers = (s: CollectedSpan) => byId.get(s.parentSpanId ?? '')?.name.startsWith('consume svc.agents.tasks.') === true;
      add('agent (list agents, on workers)', ofHop.filter(onWorkers).map(ms));
      add('agent (finalisers, in the orchestrator)', ofHop.filter((s) => !onWorkers(s)).map(ms));
    } else add(hop, ofHop.map(ms));
  }
  const attr = (name: string) => spans.flatMap((s) => (typeof s.attributes[name] === 'number' ? [s.attributes[name] as number] : []));
  add('wait: relay (committed -> published)', attr('svc.relay_wait_ms'));
  add('wait: bus (published -> consumed)', attr('svc.bus_wait_ms'));
  return rows;
}

const fmt = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));

/** A markdown table of several modes side by side (rows matched by name). */
export function sideBySide(modes: { name: string; rows: HopRow[]; screenings: number }[]): string[] {
  const names: string[] = [];
  for (const mode of modes) for (const row of mode.rows) if (!names.includes(row.what)) names.push(row.what);
  const header = `| hop | ${modes.map((m) => `${m.name}: p50 ms | p99 ms | per screening`).join(' | ')} |`;
  const rule = `|---|${modes.map(() => '---|---|---').join('|')}|`;
  const lines = names.map((what) => {
    const cells = modes.map((m) => {
      const row = m.rows.find((r) => r.what === what);
      return row ? `${fmt(row.p50)} | ${fmt(row.p99)} | ${row.perScreening.toFixed(1)}` : '– | – | –';
    });
    return `| ${what} | ${cells.join(' | ')} |`;
  });
  return [header, rule, ...lines, '', `Screenings traced: ${modes.map((m) => `${m.name} ${m.screenings}`).join(', ')}.`];
}

/**
 * One screening's critical path, cut into consecutive segments that add up to its end to end (the
 * HTTP span): the request's append, the relay (wait, publish), each bus hop to the next consume, the
 * workflow steps, the agents, and what the request does after the completion was appended (its waiter
 * wakes, the read models catch up, the answer). A segment absent from a mode (no relay in the
 * embedded one, no agent tasks when every agent answers in the process manager) is left out. Medians
 * of segments do not add up to the median end to end exactly; each is a median over the screenings.
 */
export function criticalPathRows(traces: CollectedSpan[][]): HopRow[] {
  const segments = new Map<string, number[]>();
  const add = (what: string, ms: number) => segments.set(what, [...(segments.get(what) ?? []), Math.max(0, ms)]);
  for (const spans of traces) {
    const http = spans.find((s) => s.hop === 'http' && s.parentSpanId === undefined);
    if (!http) continue;
    const byStart = (a: CollectedSpan, b: CollectedSpan) => a.startMs - b.startMs;
    const requestAppend = spans.filter((s) => s.hop === 'append' && s.service === http.service && s.startMs >= http.startMs).sort(byStart)[0];
    const started = spans.filter((s) => s.hop === 'consume' && s.name === 'consume svc.events.screening').sort(byStart)[0];
    const results = spans.filter((s) => s.hop === 'consume' && s.name === 'consume svc.agents.results').sort(byStart);
    const tasks = spans.filter((s) => s.hop === 'consume' && s.name.startsWith('consume svc.agents.tasks.')).sort(byStart);
    const completion = results[results.length - 1];
    if (!requestAppend || !started || !completion) continue;
    // The relay's publish of the request's event: the first publish span that starts after its append.
    const relay = spans.filter((s) => s.hop === 'relay_publish' && s.startMs >= requestAppend.startMs && s.startMs <= started.startMs).sort(byStart)[0];
    add('request in, up to its append', requestAppend.startMs - http.startMs);
    add('append ScreeningRequested', requestAppend.endMs - requestAppend.startMs);
    let at = requestAppend.endMs;
    if (relay) {
      add('relay wait (committed -> publish starts)', relay.startMs - at);
      add('relay publish (produce, ack)', relay.endMs - relay.startMs);
      at = relay.endMs;
    }
    add('bus: ScreeningRequested -> workflow consumes it', started.startMs - at);
    add('workflow step: start phase, dispatch tasks', started.endMs - started.startMs);
    at = started.endMs;
    if (tasks.length > 0) {
      add('bus: tasks -> agents consume them', tasks[0]!.startMs - at);
      const agentsDone = Math.max(...tasks.map((t) => t.endMs));
      add('agents (first task taken -> last answered)', agentsDone - tasks[0]!.startMs);
      at = agentsDone;
    }
    if (results.length > 1) {
      add('bus and earlier result steps, up to the last results consume', completion.startMs - at);
    } else add('bus: results -> workflow consumes them', completion.startMs - at);
    add('workflow step: record results, finalise, complete', completion.endMs - completion.startMs);
    add('completion appended -> answer (waiter, read models, response)', http.endMs - completion.endMs);
    add('end to end', http.endMs - http.startMs);
  }
  return [...segments].map(([what, values]) => ({ what, perScreening: values.length / traces.length, p50: percentile(values, 50), p99: percentile(values, 99) }));
}
