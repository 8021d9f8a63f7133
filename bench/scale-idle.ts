/**
 * The idle CPU of the scaled topology's processes over time (a script, not a test):
 *   npx tsx bench/scale-idle.ts
 *
 * Starts bench/scale.ts's topology (librdkafka mock broker with 8 partitions per topic, PostgreSQL, one
 * `svc serve` with AGENTS=none, BENCH_IDLE_WORKERS × `svc worker --agents all`, default 1), sends nothing,
 * and prints every 5 s (BENCH_IDLE_SAMPLES samples, default 12) the CPU ms per second of the workers
 * together, serve and the broker, with the load average. It answers whether the idle use bench/scale.ts
 * subtracts settles, and what a worker pays for polling (docs/scaling.md). BENCH_SVC_ROOT runs the
 * service of another checkout, as in bench/scale.ts; BENCH_FETCH_WAIT_MS sets the consumers' fetch wait.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScaledCluster } from '../test/support/scaled';

const thisRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(process.env.BENCH_SVC_ROOT ?? thisRoot);
const WORKERS = Number(process.env.BENCH_IDLE_WORKERS ?? 1);
const SAMPLES = Number(process.env.BENCH_IDLE_SAMPLES ?? 12);
/** The consumers' fetch wait, if not the harness's (KAFKA_FETCH_MAX_WAIT_MS, test/support/scaled.ts). */
const FETCH_WAIT = process.env.BENCH_FETCH_WAIT_MS;

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function main() {
  const cluster = await startScaledCluster({ partitions: 8, svcRoot: ROOT, env: { KAFKA_SESSION_TIMEOUT_MS: '6000', ...(FETCH_WAIT ? { KAFKA_FETCH_MAX_WAIT_MS: FETCH_WAIT } : {}) } });
  try {
    await Promise.all([cluster.startServe(), cluster.startWorker()]);
    for (let i = 1; i < WORKERS; i++) await cluster.startWorker();
    const workerPids = cluster.workers.map((w) => w.child.pid!);
    const read = () => ({
      workers: workerPids.reduce((sum, pid) => sum + cpuMs(pid), 0),
      serve: cpuMs(cluster.serve().child.pid!),
      broker: cpuMs(cluster.kafkaPid()),
      at: performance.now(),
    });
    const started = performance.now();
    let previous = read();
    for (let i = 0; i < SAMPLES; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const now = read();
      const seconds = (now.at - previous.at) / 1000;
      const perSecond = (k: 'workers' | 'serve' | 'broker') => Math.round((now[k] - previous[k]) / seconds);
      process.stdout.write(
        `${JSON.stringify({ secondsSinceLastWorker: Math.round((now.at - started) / 1000), workers: WORKERS, workersMsPerS: perSecond('workers'), serveMsPerS: perSecond('serve'), brokerMsPerS: perSecond('broker'), load: Math.round(os.loadavg()[0]! * 10) / 10 })}\n`,
      );
      previous = now;
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
