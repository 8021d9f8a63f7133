/**
 * Where a screening's time goes, hop by hop, from its traces (a script, not a test):
 *   npx tsx bench/hops.ts            (BENCH_SCREENINGS per mode, default 100; BENCH_CLIENTS default 1)
 *
 * The same CDD screenings over S1 in the two modes, in one run, tracing on:
 * - embedded: the service in this process as `npm start` runs it (embedded PostgreSQL, in-process bus),
 *   its spans handed to an in-memory exporter;
 * - scaled: the topology of bench/scale.ts (mock Kafka broker, PostgreSQL, `svc serve`, one
 *   `svc worker`, each its own process), every process exporting OTLP/HTTP to a receiver in this one.
 * For each hop (HTTP request = end to end, append, relay publish, bus consume per topic, agents,
 * projection batches, webhook deliveries) and each wait between hops (relay: committed -> published;
 * bus: published -> consumed), p50 and p99 in ms and how many one screening makes.
 * BENCH_MODES=embedded or =scaled runs one. BENCH_SVC_ROOT runs the scaled processes from another
 * checkout (an older commit; the embedded mode is always this one's). BENCH_OUT writes the table
 * there instead of bench/RESULTS-hops.md. BENCH_SPANS_DUMP=<prefix> also writes each mode's spans
 * to <prefix>-<mode>.json (for a look at single traces). Writes bench/RESULTS-hops.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { startService } from '../src/bootstrap/service';
import { createLogger } from '../src/shared/logger';
import { accountHelpers } from '../test/support/service';
import { allFinished, provisionS1Keys, runScreenings, startScaledCluster, type ProvisionedKey } from '../test/support/scaled';
import { collectingExporter, SpanCollection, startOtlpReceiver } from '../test/support/span-collector';
import { criticalPathRows, hopRows, screeningTraces, sideBySide, type HopRow } from './support/hops';

const N = Number(process.env.BENCH_SCREENINGS ?? 100);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1);
const WARMUP = 20;
const MODES = (process.env.BENCH_MODES ?? 'embedded,scaled').split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ModeResult {
  name: string;
  rows: HopRow[];
  /** One screening's critical path, segment by segment (criticalPathRows). */
  path: HopRow[];
  screenings: number;
}

/** Keys enough that S1's 60 requests per minute per key never decide the figure. */
const keyCount = (screenings: number) => Math.max(4, Math.ceil(screenings / 25));

async function embedded(): Promise<ModeResult> {
  const collection = new SpanCollection();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-hops-'));
  fs.chmodSync(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCREENING_WAIT_MS: '20000' });
  const service = await startService({ config, logger: createLogger({ level: 'silent' }), http: true, agents: 'all', projections: true, spanExporter: collectingExporter(collection) });
  try {
    await service.monitoring?.lists.flush();
    const helpers = accountHelpers(service);
    const keys: ProvisionedKey[] = [];
    for (let i = 0; i < keyCount(N + WARMUP); i++) {
      const { accountId } = await helpers.createAccount('enterprise');
      keys.push({ accountId, key: (await helpers.createKey(accountId, 's1')).key });
    }
    await runScreenings(service.url!, keys, WARMUP, { concurrency: CLIENTS });
    await settle(service.telemetry.flush.bind(service.telemetry));
    collection.clear();
    await runScreenings(service.url!, keys, N, { concurrency: CLIENTS, offset: WARMUP });
    await settle(() => service.runner!.caughtUp().then(() => service.telemetry.flush()));
    dumpSpans('embedded', collection);
    const traces = screeningTraces(collection);
    return { name: 'embedded', rows: hopRows(traces), path: criticalPathRows(traces), screenings: traces.length };
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function scaled(): Promise<ModeResult> {
  const collection = new SpanCollection();
  const receiver = await startOtlpReceiver(collection);
  const cluster = await startScaledCluster({ partitions: 8, ...(process.env.BENCH_SVC_ROOT ? { svcRoot: process.env.BENCH_SVC_ROOT } : {}), env: { KAFKA_SESSION_TIMEOUT_MS: '6000', SCREENING_WAIT_MS: '60000', TRACING_OTLP_ENDPOINT: receiver.url } });
  try {
    await Promise.all([cluster.startServe(), cluster.startWorker()]);
    const keys = await provisionS1Keys(cluster, Array.from({ length: keyCount(N + WARMUP) }, () => ({})), 4);
    await runScreenings(cluster.url, keys, WARMUP, { concurrency: CLIENTS });
    await allFinished(cluster.pool, 300_000);
    await sleep(3000); // the processes export their spans every second
    collection.clear();
    await runScreenings(cluster.url, keys, N, { concurrency: CLIENTS, offset: WARMUP });
    await allFinished(cluster.pool, 600_000);
    await sleep(3000);
    dumpSpans('scaled', collection);
    const traces = screeningTraces(collection);
    return { name: 'scaled (1 worker)', rows: hopRows(traces), path: criticalPathRows(traces), screenings: traces.length };
  } finally {
    await cluster.stop();
    await receiver.close();
  }
}

function dumpSpans(mode: string, collection: SpanCollection): void {
  const prefix = process.env.BENCH_SPANS_DUMP;
  if (prefix) fs.writeFileSync(`${prefix}-${mode}.json`, JSON.stringify(collection.spans));
}

/** Lets the read models catch up (the detail model lags up to a second) and the spans be exported. */
async function settle(flush: () => Promise<void>): Promise<void> {
  await sleep(1500);
  await flush();
}

async function main() {
  const load0 = os.loadavg()[0]!;
  const results: ModeResult[] = [];
  if (MODES.includes('embedded')) results.push(await embedded());
  if (MODES.includes('scaled')) results.push(await scaled());
  const load1 = os.loadavg()[0]!;
  const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const lines = [
    '# Where a screening\'s time goes, hop by hop (traces)',
    '',
    `Machine: ${machine}. Measured ${new Date().toISOString()} with \`npx tsx bench/hops.ts\` (${N} CDD screenings per mode after ${WARMUP} of warm-up, ${CLIENTS} closed-loop client${CLIENTS > 1 ? 's' : ''}, tracing on).`,
    `Load average (1 min) at start ${load0.toFixed(1)}, at end ${load1.toFixed(1)}.`,
    '',
    'Embedded: one process, in-process bus. Scaled: mock Kafka broker, PostgreSQL, `svc serve` (AGENTS=none) and one `svc worker`, each its own process, exporting OTLP.',
    'A hop\'s figures are span durations; "per screening" counts its spans in one screening\'s trace. A CDD request waits for its screening to complete, so the HTTP span is the screening end to end.',
    '',
    ...sideBySide(results),
    '',
    'One screening\'s critical path, segment by segment (consecutive, from the request to its answer; medians over the screenings, so they add up to about the median end to end):',
    '',
    ...sideBySide(results.map((r) => ({ name: r.name, rows: r.path, screenings: r.screenings }))).slice(0, -2),
    '',
  ];
  fs.writeFileSync(process.env.BENCH_OUT ?? new URL('./RESULTS-hops.md', import.meta.url), lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
