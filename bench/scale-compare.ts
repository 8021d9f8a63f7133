/**
 * bench/scale.ts for an older commit and this checkout, alternated in one session, and the
 * before/after tables of bench/RESULTS-scale.md (a script, not a test):
 *   BENCH_BASE=/path/to/checkout-of-the-older-commit npx tsx bench/scale-compare.ts
 *
 * BENCH_ORDER (default "b n": b = BENCH_BASE, n = this checkout) says which runs in which order; each
 * run is the whole of bench/scale.ts (the embedded default at 16 clients, the scaled topology's
 * one-client latency and its 1, 2, 4, 1 worker steps) with the other BENCH_* settings passed on. The
 * harness (test/support/scaled.ts) is this checkout's; the service processes are the checkout's own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stepTable, type ScaleRun } from './scale';
import { runBenchScript } from './support/child';

const thisRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASE = process.env.BENCH_BASE;
const ORDER = (process.env.BENCH_ORDER ?? 'b n').split(/\s+/).filter(Boolean);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function runOnce(who: string): Promise<ScaleRun & { who: string; loadAtStart: number }> {
  const loadAtStart = round(os.loadavg()[0]!, 1);
  const run = await runBenchScript<ScaleRun>(thisRoot, 'bench/scale.ts', { BENCH_SVC_ROOT: who === 'b' ? BASE! : thisRoot, BENCH_NO_WRITE: '1' });
  return { ...run, who, loadAtStart };
}

async function main() {
  if (!BASE && ORDER.includes('b')) throw new Error('BENCH_BASE must name the checkout to compare with');
  const started = new Date().toISOString();
  const runs = [];
  for (const who of ORDER) runs.push(await runOnce(who));
  const lines = [
    '# Scaled mode: screenings/s, latency and CPU per screening against worker processes',
    '',
    `Machine: ${runs[0]!.machine}. Measured ${started} with \`BENCH_BASE=… npx tsx bench/scale-compare.ts\` (order ${ORDER.join(' ')}: b = the base commit, n = this one), each run being \`bench/scale.ts\`.`,
    '',
    'Topology, every part its own OS process: librdkafka mock broker (8 partitions per topic), PostgreSQL (embedded binaries, fsync off),',
    'one `svc serve` (AGENTS=none: API, relay, read models, webhooks), N × `svc worker --agents all` (agents and process managers), bundled lists.',
    'Throughput: first request to the last ScreeningCompleted in the event store. CPU: ms per screening of each kind of process during the step',
    '(serve, all workers together, PostgreSQL with its backends, the broker). Latency: one worker, one client, screenings one after the other.',
    'Embedded: that commit\'s bench/http.ts at 16 clients, run just before its cluster.',
    '',
  ];
  for (const run of runs) {
    const one = run.steps[0]!;
    lines.push(
      `## ${run.who === 'b' ? 'Before' : 'After'}: commit ${run.commit} (load average ${run.loadAtStart} at the start of the run)`,
      '',
      ...stepTable(run),
      '',
      `- One worker, one client: end-to-end median ${run.latency.medianMs} ms, p99 ${run.latency.p99Ms} ms over ${run.latency.screenings} screenings (load ${run.latency.load}).`,
      run.embedded
        ? `- Embedded default, 16 clients, same run: ${run.embedded.rps} screenings/s (load ${run.embedded.load}); one scaled worker: ${one.perSecond}/s = ${round(one.perSecond / run.embedded.rps)}× the embedded figure.`
        : '- Embedded default: not run.',
      `- Worker CPU per screening with 4 workers ÷ with 1 worker: ${round((run.steps.find((s) => s.workers === 4)?.cpuMsPerScreening.workers ?? Number.NaN) / one.cpuMsPerScreening.workers)}× (less idle use: ${round((run.steps.find((s) => s.workers === 4)?.marginalCpuMsPerScreening?.workers ?? Number.NaN) / (one.marginalCpuMsPerScreening?.workers ?? Number.NaN))}×).`,
      '',
    );
  }
  fs.writeFileSync(new URL('./RESULTS-scale.md', import.meta.url), lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
