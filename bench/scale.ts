/**
 * The scaled mode's throughput against the number of worker processes (a script, not a test):
 *   npx tsx bench/scale.ts            (BENCH_SCREENINGS per step, default 500; BENCH_CLIENTS default 16)
 *
 * One run, one topology, all separate OS processes (test/support/scaled.ts): the librdkafka mock
 * broker (8 partitions per topic), PostgreSQL (pinned embedded binaries, fsync off), one `svc serve`
 * (AGENTS=none) and `svc worker --agents all` processes, with the bundled lists. Steps, in order:
 * 1 worker, 2 workers, 4 workers, then back to 1 (three stopped gracefully) as a control for drift
 * (a warmer JIT, a bigger database, other load on the machine). Each step posts BENCH_SCREENINGS CDD
 * screenings over S1 from BENCH_CLIENTS closed-loop clients and measures the time until the event
 * store holds a ScreeningCompleted for every one of them: screenings/s = N / that time. The figure
 * is the ratio to the 1-worker step of the same run. CPU seconds per process kind (from /proc) say
 * where the time went. Writes bench/RESULTS-scale.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import {
  allFinished,
  provisionS1Keys,
  runScreenings,
  screeningEvidence,
  startScaledCluster,
  type ScaledCluster,
} from '../test/support/scaled';

const N = Number(process.env.BENCH_SCREENINGS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
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

interface Step {
  workers: number;
  screenings: number;
  seconds: number;
  perSecond: number;
  non2xx: number;
  cpu: { serve: number; workers: number; postgres: number; broker: number };
}

async function step(cluster: ScaledCluster, keys: Awaited<ReturnType<typeof provisionS1Keys>>, offset: number): Promise<Step> {
  const workers = cluster.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  const before = await screeningEvidence(cluster.pool);
  const cpu = () => ({
    serve: cpuMs(cluster.serve().child.pid!),
    workers: workers.reduce((sum, w) => sum + cpuMs(w.child.pid!), 0),
    postgres: cpuMs(cluster.postgresPid(), true),
    broker: cpuMs(cluster.kafkaPid()),
  });
  const cpu0 = cpu();
  const started = performance.now();
  const outcomes = await runScreenings(cluster.url, keys, N, { concurrency: CLIENTS, offset });
  const evidence = await allFinished(cluster.pool, 600_000);
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = cpu();
  if (evidence.requested - before.requested !== N) throw new Error(`expected ${N} new screenings, the store has ${evidence.requested - before.requested}`);
  if (evidence.duplicated.length) throw new Error(`duplicated events: ${JSON.stringify(evidence.duplicated.slice(0, 3))}`);
  const non2xx = outcomes.filter((o) => o.kind !== 'answered' || o.status >= 300).length;
  const s = (k: keyof typeof cpu0) => round((cpu1[k] - cpu0[k]) / 1000, 1);
  return {
    workers: workers.length,
    screenings: N,
    seconds: round(seconds, 1),
    perSecond: round(N / seconds),
    non2xx,
    cpu: { serve: s('serve'), workers: s('workers'), postgres: s('postgres'), broker: s('broker') },
  };
}

async function main() {
  const load0 = os.loadavg();
  const cluster = await startScaledCluster({ partitions: 8, env: { KAFKA_SESSION_TIMEOUT_MS: '6000', SCREENING_WAIT_MS: '60000' } });
  const steps: Step[] = [];
  try {
    await Promise.all([cluster.startServe(), cluster.startWorker()]);
    // S1 allows 60 requests per minute per key: enough keys that the limiter never decides the figure.
    const keyCount = Math.max(8, Math.ceil(N / 25));
    const keys = await provisionS1Keys(cluster, Array.from({ length: keyCount }, () => ({})), 4);
    // Warm-up (JIT, connections, first joins), not measured.
    await runScreenings(cluster.url, keys, 40, { concurrency: CLIENTS });
    await allFinished(cluster.pool, 300_000);
    let offset = 40;
    const measure = async () => {
      const result = await step(cluster, keys, offset);
      offset += N;
      steps.push(result);
      process.stderr.write(`${JSON.stringify(result)}\n`);
    };
    await measure(); // 1 worker
    await cluster.startWorker();
    await settleRebalance();
    await measure(); // 2
    await Promise.all([cluster.startWorker(), cluster.startWorker()]);
    await settleRebalance();
    await measure(); // 4
    for (const w of cluster.workers.slice(1)) await w.stop();
    await settleRebalance();
    await measure(); // back to 1: the control
  } finally {
    await cluster.stop();
  }
  const load1 = os.loadavg();
  const base = steps[0]!.perSecond;
  const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const lines = [
    '# Scaled mode: screenings/s against worker processes',
    '',
    `Machine: ${machine}. Measured ${new Date().toISOString()} with \`npx tsx bench/scale.ts\` (${N} CDD screenings per step, ${CLIENTS} closed-loop clients).`,
    `Load average (1 min) at start ${round(load0[0]!, 1)}, at end ${round(load1[0]!, 1)}: the machine was shared with other work during the run.`,
    '',
    'Topology, every part its own OS process: librdkafka mock broker (8 partitions per topic), PostgreSQL (embedded binaries, fsync off),',
    'one `svc serve` (AGENTS=none: API, relay, read models, webhooks), N × `svc worker --agents all` (agents and process managers), bundled lists.',
    'Time = first request to the last ScreeningCompleted in the event store. CPU = seconds used by each kind of process during the step.',
    '',
    '| step | workers | screenings | seconds | screenings/s | ratio to 1 worker | non-2xx | CPU s serve | CPU s workers | CPU s PostgreSQL | CPU s broker | worker CPU ms / screening | share of the machine used |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...steps.map((s, i) => {
      const total = s.cpu.serve + s.cpu.workers + s.cpu.postgres + s.cpu.broker;
      const share = Math.round((100 * total) / (s.seconds * os.cpus().length));
      return `| ${i + 1} | ${s.workers} | ${s.screenings} | ${s.seconds} | ${s.perSecond} | ${round(s.perSecond / base)}× | ${s.non2xx} | ${s.cpu.serve} | ${s.cpu.workers} | ${s.cpu.postgres} | ${s.cpu.broker} | ${Math.round((1000 * s.cpu.workers) / s.screenings)} | ${share} % |`;
    }),
    '',
    'What this can show: that throughput does not collapse as workers are added (partitions are spread, rebalances settle, no',
    'duplicated work), and where the CPU goes. What it cannot show: scaling. All processes share 2 cores, so more workers compete',
    'for the same CPU as serve and PostgreSQL; the ratio stays near 1× (or below, from the extra processes) whatever the code does.',
    'On machines where each worker has its own cores, the worker CPU column is the part that spreads out; serve and PostgreSQL do not.',
    '',
  ];
  fs.writeFileSync(new URL('./RESULTS-scale.md', import.meta.url), lines.join('\n'));
  process.stdout.write(`${JSON.stringify({ steps, machine, load: { start: load0[0], end: load1[0] } }, null, 2)}\n`);
}

/** Joins and leaves rebalance every group; give them the session timeout to settle before measuring. */
function settleRebalance(): Promise<void> {
  return new Promise((r) => setTimeout(r, 8_000));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
