/**
 * The scaled mode's throughput, latency and cost per screening against the number of worker
 * processes, next to the embedded default in the same run (a script, not a test):
 *   npx tsx bench/scale.ts
 *
 * Env: BENCH_SCREENINGS per throughput step (default 500), BENCH_CLIENTS (default 16),
 * BENCH_LATENCY_SCREENINGS (default 60, one client), BENCH_WORKERS (steps, default 1,2,4,1),
 * BENCH_SVC_ROOT (run the service of another checkout, e.g. an older commit; default this one),
 * BENCH_NO_WRITE=1 (print the JSON only: bench/scale-compare.ts runs this script per checkout),
 * BENCH_EMBEDDED=0 (leave out the embedded run), BENCH_FETCH_WAIT_MS (the consumers' fetch wait; default the harness's),
 * BENCH_STEP_WARMUP (screenings before each step, not measured, default 60: the step's new workers are warm).
 *
 * In order:
 * 1. the embedded default at BENCH_CLIENTS clients: that checkout's `bench/http.ts` (the service as
 *    `npm start` runs it), its screenings/s and CPU per screening;
 * 2. one topology, all separate OS processes (test/support/scaled.ts): the librdkafka mock broker (8
 *    partitions per topic), PostgreSQL (pinned embedded binaries, fsync off), one `svc serve`
 *    (AGENTS=none) and `svc worker --agents all` processes, bundled lists;
 *    - latency: BENCH_LATENCY_SCREENINGS screenings one after the other with one worker (a CDD answer
 *      waits for its screening to complete: the median is one screening end to end);
 *    - throughput: BENCH_SCREENINGS screenings from BENCH_CLIENTS closed-loop clients per step, with
 *      1, 2, 4 workers and back to 1 (a control for drift), timed until the event store holds every
 *      completion; CPU seconds per process kind (from /proc) per screening.
 * Writes bench/RESULTS-scale.md (unless BENCH_NO_WRITE=1) and prints the figures as JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  allFinished,
  provisionS1Keys,
  runScreenings,
  screeningEvidence,
  startScaledCluster,
  type ScaledCluster,
} from '../test/support/scaled';
import { percentile } from './support/hops';
import { runBenchScript } from './support/child';

const N = Number(process.env.BENCH_SCREENINGS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const LATENCY_N = Number(process.env.BENCH_LATENCY_SCREENINGS ?? 60);
const STEPS = (process.env.BENCH_WORKERS ?? '1,2,4,1').split(',').map(Number);
/** Screenings run before each step, not measured (BENCH_STEP_WARMUP, default 60): they warm the workers started for it. */
const STEP_WARMUP = Number(process.env.BENCH_STEP_WARMUP ?? 60);
/** The consumers' fetch wait, if not the harness's (KAFKA_FETCH_MAX_WAIT_MS in test/support/scaled.ts). */
const FETCH_WAIT = process.env.BENCH_FETCH_WAIT_MS;
/** How long each step first measures the processes idle. */
const IDLE_MS = 5_000;
const thisRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(process.env.BENCH_SVC_ROOT ?? thisRoot);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** CPU ms used so far by a process and, with children, by its whole tree (PostgreSQL backends). */
function cpuMs(pid: number, withChildren = false): number {
  let ticks = 0;
  const pids = [pid];
  if (withChildren) {
    for (const d of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ');
        if (Number(stat[1]) === pid) pids.push(Number(d));
      } catch {
        // gone meanwhile
      }
    }
  }
  for (const p of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / 100;
}

export interface Step {
  workers: number;
  screenings: number;
  seconds: number;
  perSecond: number;
  non2xx: number;
  /** CPU ms per screening of each process kind (workers: all of them together). */
  cpuMsPerScreening: { serve: number; workers: number; postgres: number; broker: number };
  /**
   * The same less what the processes use idle (measured just before the step, scaled to its length):
   * the cost of the screenings themselves, apart from the fixed cost of polling and timers.
   */
  marginalCpuMsPerScreening: { serve: number; workers: number; postgres: number; broker: number };
  /** CPU ms per second the processes of each kind use idle (all workers together). */
  idleCpuMsPerSecond: { serve: number; workers: number; postgres: number; broker: number };
  load: number;
}

export interface ScaleRun {
  root: string;
  commit: string;
  embedded: { rps: number; service_cpu_ms_per_screening: number; postgres_cpu_ms_per_screening: number; load: number } | undefined;
  latency: { screenings: number; medianMs: number; p99Ms: number; load: number };
  steps: Step[];
  machine: string;
}

async function step(cluster: ScaledCluster, keys: Awaited<ReturnType<typeof provisionS1Keys>>, offset: number): Promise<Step> {
  const workers = cluster.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  const load = os.loadavg()[0]!;
  const before = await screeningEvidence(cluster.pool);
  const cpu = () => ({
    serve: cpuMs(cluster.serve().child.pid!),
    workers: workers.reduce((sum, w) => sum + cpuMs(w.child.pid!), 0),
    postgres: cpuMs(cluster.postgresPid(), true),
    broker: cpuMs(cluster.kafkaPid()),
  });
  // Idle first: what the processes use with nothing to do (polling, heartbeats, timers).
  const idle0 = cpu();
  const idleStarted = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const idle1 = cpu();
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  const cpu0 = cpu();
  const started = performance.now();
  const outcomes = await runScreenings(cluster.url, keys, N, { concurrency: CLIENTS, offset });
  const evidence = await allFinished(cluster.pool, 900_000);
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = cpu();
  if (evidence.requested - before.requested !== N) throw new Error(`expected ${N} new screenings, the store has ${evidence.requested - before.requested}`);
  if (evidence.duplicated.length) throw new Error(`duplicated events: ${JSON.stringify(evidence.duplicated.slice(0, 3))}`);
  const perScreening = (k: keyof typeof cpu0) => round((cpu1[k] - cpu0[k]) / N, 1);
  const idlePerSecond = (k: keyof typeof cpu0) => (idle1[k] - idle0[k]) / idleSeconds;
  const marginal = (k: keyof typeof cpu0) => round(Math.max(0, cpu1[k] - cpu0[k] - idlePerSecond(k) * seconds) / N, 1);
  return {
    workers: workers.length,
    screenings: N,
    seconds: round(seconds, 1),
    perSecond: round(N / seconds),
    non2xx: outcomes.filter((o) => o.kind !== 'answered' || o.status >= 300).length,
    cpuMsPerScreening: { serve: perScreening('serve'), workers: perScreening('workers'), postgres: perScreening('postgres'), broker: perScreening('broker') },
    marginalCpuMsPerScreening: { serve: marginal('serve'), workers: marginal('workers'), postgres: marginal('postgres'), broker: marginal('broker') },
    idleCpuMsPerSecond: { serve: round(idlePerSecond('serve'), 1), workers: round(idlePerSecond('workers'), 1), postgres: round(idlePerSecond('postgres'), 1), broker: round(idlePerSecond('broker'), 1) },
    load: round(load, 1),
  };
}

/** The checkout's own bench/http.ts at BENCH_CLIENTS clients, as a child process; its JSON report. */
async function embeddedRun(): Promise<ScaleRun['embedded']> {
  const load = os.loadavg()[0]!;
  const report = await runBenchScript<{ http: { clients: number; rps: number; service_cpu_ms_per_screening: number; postgres_cpu_ms_per_screening: number }[] }>(ROOT, 'bench/http.ts', {
    BENCH_CLIENTS: String(CLIENTS),
    BENCH_NO_WRITE: '1',
  });
  const run = report.http.find((r) => r.clients === CLIENTS)!;
  return { rps: run.rps, service_cpu_ms_per_screening: run.service_cpu_ms_per_screening, postgres_cpu_ms_per_screening: run.postgres_cpu_ms_per_screening, load: round(load, 1) };
}

function commitOf(root: string): string {
  try {
    const head = fs.readFileSync(path.join(root, '.git'), 'utf8');
    const gitDir = head.startsWith('gitdir:') ? head.slice(7).trim() : path.join(root, '.git');
    const ref = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!ref.startsWith('ref:')) return ref.slice(0, 7);
    const commonDir = fs.existsSync(path.join(gitDir, 'commondir')) ? path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    const refFile = [gitDir, commonDir].map((d) => path.join(d, ref.slice(5).trim())).find((f) => fs.existsSync(f));
    if (refFile) return fs.readFileSync(refFile, 'utf8').trim().slice(0, 7);
    const packed = fs.readFileSync(path.join(commonDir, 'packed-refs'), 'utf8').split('\n').find((l) => l.endsWith(` ${ref.slice(5).trim()}`));
    return packed?.slice(0, 7) ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function measure(): Promise<ScaleRun> {
  const embedded = process.env.BENCH_EMBEDDED === '0' ? undefined : await embeddedRun();
  const cluster = await startScaledCluster({ partitions: 8, svcRoot: ROOT, env: { KAFKA_SESSION_TIMEOUT_MS: '6000', SCREENING_WAIT_MS: '60000', ...(FETCH_WAIT ? { KAFKA_FETCH_MAX_WAIT_MS: FETCH_WAIT } : {}) } });
  const steps: Step[] = [];
  let latency: ScaleRun['latency'];
  try {
    await Promise.all([cluster.startServe(), cluster.startWorker()]);
    // S1 allows 60 requests per minute per key: enough keys that the limiter never decides the figure.
    const keyCount = Math.max(8, Math.ceil((N * STEPS.length + LATENCY_N + 40 + STEP_WARMUP * STEPS.length) / 25));
    const keys = await provisionS1Keys(cluster, Array.from({ length: keyCount }, () => ({})), 4);
    // Warm-up (JIT, connections, first joins), not measured.
    await runScreenings(cluster.url, keys, 40, { concurrency: CLIENTS });
    await allFinished(cluster.pool, 600_000);
    let offset = 40;
    const latencyLoad = os.loadavg()[0]!;
    const sequential = await runScreenings(cluster.url, keys, LATENCY_N, { concurrency: 1, offset });
    offset += LATENCY_N;
    const ms = sequential.flatMap((o) => (o.kind === 'answered' && o.status < 300 && o.ms !== undefined ? [o.ms] : []));
    latency = { screenings: ms.length, medianMs: round(percentile(ms, 50), 1), p99Ms: round(percentile(ms, 99), 1), load: round(latencyLoad, 1) };
    process.stderr.write(`latency ${JSON.stringify(latency)}\n`);
    for (const workers of STEPS) {
      while (cluster.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).length < workers) await cluster.startWorker();
      for (const extra of cluster.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).slice(workers)) await extra.stop();
      await settleRebalance();
      // Warm-up of the step's workers, not measured: a worker started for this step is cold (JIT, caches,
      // connections), and its first screenings cost several times its later ones; a long-running
      // deployment pays that once, so the step measures workers that have screened before, as the first one has.
      await runScreenings(cluster.url, keys, STEP_WARMUP, { concurrency: CLIENTS, offset });
      await allFinished(cluster.pool, 600_000);
      offset += STEP_WARMUP;
      const result = await step(cluster, keys, offset);
      offset += N;
      steps.push(result);
      process.stderr.write(`${JSON.stringify(result)}\n`);
    }
  } finally {
    await cluster.stop();
  }
  const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  return { root: ROOT, commit: commitOf(ROOT), embedded, latency, steps, machine };
}

/** Joins and leaves rebalance the groups; the mock broker completes a rebalance only when its timer fires (session timeout minus one second), and may make a new member restart once (docs/operations.md): let that settle before measuring. */
function settleRebalance(): Promise<void> {
  return new Promise((r) => setTimeout(r, 15_000));
}

export function stepTable(run: ScaleRun): string[] {
  const base = run.steps[0]!;
  return [
    'CPU ms per screening of each kind of process (workers: all together), then the same less what the processes use idle (the screenings\' own cost), and the idle use (CPU ms per second).',
    '',
    '| step | workers | screenings | seconds | screenings/s | ratio to 1 worker | non-2xx | serve | workers | PostgreSQL | broker | worker ratio to 1 worker | less idle: serve | workers | PostgreSQL | broker | worker ratio | idle ms/s: serve | workers | PostgreSQL | broker | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...run.steps.map((s, i) => {
      const c = s.cpuMsPerScreening;
      const m = s.marginalCpuMsPerScreening;
      const idle = s.idleCpuMsPerSecond;
      return `| ${i + 1} | ${s.workers} | ${s.screenings} | ${s.seconds} | ${s.perSecond} | ${round(s.perSecond / base.perSecond)}× | ${s.non2xx} | ${c.serve} | ${c.workers} | ${c.postgres} | ${c.broker} | ${round(c.workers / base.cpuMsPerScreening.workers)}× | ${m.serve} | ${m.workers} | ${m.postgres} | ${m.broker} | ${round(m.workers / base.marginalCpuMsPerScreening.workers)}× | ${idle.serve} | ${idle.workers} | ${idle.postgres} | ${idle.broker} | ${s.load} |`;
    }),
  ];
}

async function main() {
  const load0 = os.loadavg()[0]!;
  const run = await measure();
  const load1 = os.loadavg()[0]!;
  process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  if (process.env.BENCH_NO_WRITE === '1') return;
  const oneWorker = run.steps[0]!;
  const lines = [
    '# Scaled mode: screenings/s, latency and CPU per screening against worker processes',
    '',
    `Machine: ${run.machine}. Measured ${new Date().toISOString()} with \`npx tsx bench/scale.ts\` (commit ${run.commit}; ${N} CDD screenings per step, ${CLIENTS} closed-loop clients).`,
    `Load average (1 min) at start ${round(load0, 1)}, at end ${round(load1, 1)}.`,
    '',
    'Topology, every part its own OS process: librdkafka mock broker (8 partitions per topic), PostgreSQL (embedded binaries, fsync off),',
    'one `svc serve` (AGENTS=none: API, relay, read models, webhooks), N × `svc worker --agents all` (agents and process managers), bundled lists.',
    'Throughput: first request to the last ScreeningCompleted in the event store. CPU: ms per screening of each kind of process during the step.',
    '',
    ...stepTable(run),
    '',
    `One worker, one client, ${run.latency.screenings} screenings one after the other: end-to-end median ${run.latency.medianMs} ms, p99 ${run.latency.p99Ms} ms (load ${run.latency.load}).`,
    run.embedded
      ? `Embedded default in the same run (bench/http.ts, ${CLIENTS} clients): ${run.embedded.rps} screenings/s (load ${run.embedded.load}); one scaled worker gives ${round(oneWorker.perSecond / run.embedded.rps)}× that.`
      : '',
    '',
  ];
  fs.writeFileSync(new URL('./RESULTS-scale.md', import.meta.url), lines.join('\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
