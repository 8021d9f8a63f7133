/**
 * Soak: memory and latency of the service under bounded load above what the pipeline absorbs
 * (issue 19, backpressure). The service runs as its own process (test/support/crash-service.ts:
 * `svc serve` wiring, embedded PostgreSQL under a fresh DATA_DIR, all agents, SCREENING_WAIT_MS=0
 * so clients are answered 202 at once and could pile work up without bound); this process is the
 * load: SOAK_CLIENTS concurrent S1 clients (default 32) submitting CDD screenings over loopback
 * in a loop, each honouring Retry-After on 503/429. Every SOAK_SAMPLE_SECONDS it samples the
 * service process's RSS (node) and its PostgreSQL processes' PSS, and the window's accepted and
 * refused requests and latency. Memory is flat when the last samples' RSS stays within a small
 * ratio of the first minute's (the figure reported: ratio last/first-minute, same run).
 *
 *   npx tsx bench/soak.ts                               5 minutes, 32 clients
 *   SOAK_SECONDS=120 SOAK_CLIENTS=64 npx tsx bench/soak.ts
 *   SOAK_MAX_INFLIGHT=16                                 the service's MAX_INFLIGHT_SCREENINGS (default 64)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startChild } from '../test/support/crash-round';

const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const clients = Number(process.env.SOAK_CLIENTS ?? 32);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 15);
const maxInflight = process.env.SOAK_MAX_INFLIGHT ?? '64';
// S1 keys allow 60 requests a minute each: enough keys that the rate limit is not what refuses.
const keyCount = Number(process.env.SOAK_KEYS ?? Math.max(8, clients * 2));

function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Proportional set size (shared pages divided among the processes sharing them), in kB. */
function pssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The service's PostgreSQL: every postgres process descending from the service process, by PSS
 * (summing RSS would count the shared buffers once per backend that touched them).
 */
function postgresPssKb(servicePid: number): number {
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' });
  } catch {
    return 0;
  }
  const rows = out.trim().split('\n').map((l) => l.trim().split(/\s+/)).map(([pid, ppid, rss, comm]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), comm: comm ?? '' }));
  const children = new Map<number, typeof rows>();
  for (const r of rows) children.set(r.ppid, [...(children.get(r.ppid) ?? []), r]);
  let total = 0;
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      if (c.comm.startsWith('postgres')) total += pssKb(c.pid);
      walk(c.pid);
    }
  };
  walk(servicePid);
  return total;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-soak-'));
fs.chmodSync(dataDir, 0o755);
const { child, ready } = startChild(dataDir, { SCREENING_WAIT_MS: '0', MAX_INFLIGHT_SCREENINGS: maxInflight, TEST_SERVICE_KEYS: String(keyCount) });
try {
  const { url, keys, pid } = await ready;
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}; shared with other work: absolute figures are noisy`);
  console.log(`soak: ${seconds} s, ${clients} clients, ${keys.length} keys, MAX_INFLIGHT_SCREENINGS=${maxInflight}, service pid ${pid}`);
  const endAt = Date.now() + seconds * 1000;
  let window = { accepted: 0, refused503: 0, refused429: 0, other: 0, latencies: [] as number[] };
  const total = { accepted: 0, refused503: 0, refused429: 0, other: 0 };
  let n = 0;
  const client = async (c: number) => {
    while (Date.now() < endAt) {
      const key = keys[(c + n++) % keys.length]!;
      const started = performance.now();
      try {
        const res = await fetch(`${url}/api/v1/screening/cdd`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `Soak Subject ${c} ${n}`, entity_type: n % 3 === 0 ? 'company' : 'individual' }),
        });
        await res.arrayBuffer();
        window.latencies.push(performance.now() - started);
        if (res.status === 201 || res.status === 202) window.accepted++;
        else if (res.status === 503 || res.status === 429) {
          if (res.status === 503) window.refused503++;
          else window.refused429++;
          const retryAfter = Number(res.headers.get('retry-after') ?? 1);
          await new Promise((r) => setTimeout(r, Math.min(retryAfter, 5) * 1000));
        } else window.other++;
      } catch {
        window.other++;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  const samples: { t: number; rssMb: number; heapMb: number; pgMb: number; inFlight: number }[] = [];
  const sampler = setInterval(async () => {
    const metrics = await fetch(`${url}/metrics`).then((r) => r.text(), () => '');
    const inFlight = Number(/^svc_screenings_in_flight (\d+)$/m.exec(metrics)?.[1] ?? -1);
    const heapMb = Number(/^nodejs_heap_used_bytes (\d+)$/m.exec(metrics)?.[1] ?? 0) / 2 ** 20;
    const s = { heapMb, t: Math.round((seconds * 1000 - (endAt - Date.now())) / 1000), rssMb: rssKb(pid) / 1024, pgMb: postgresPssKb(pid) / 1024, inFlight };
    samples.push(s);
    const lat = [...window.latencies].sort((a, b) => a - b);
    console.log(
      `t=${String(s.t).padStart(4)} s  rss ${s.rssMb.toFixed(0)} MB  heap ${s.heapMb.toFixed(0)} MB  pg ${s.pgMb.toFixed(0)} MB  in flight ${s.inFlight}  ` +
        `accepted ${(window.accepted / sampleSeconds).toFixed(1)}/s  503 ${(window.refused503 / sampleSeconds).toFixed(1)}/s  429 ${window.refused429}  other ${window.other}  ` +
        `p50 ${pct(lat, 50).toFixed(0)} ms  p99 ${pct(lat, 99).toFixed(0)} ms`,
    );
    total.accepted += window.accepted;
    total.refused503 += window.refused503;
    total.refused429 += window.refused429;
    total.other += window.other;
    window = { accepted: 0, refused503: 0, refused429: 0, other: 0, latencies: [] };
  }, sampleSeconds * 1000);
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  clearInterval(sampler);
  // Two ratios, same run: against the first minute (includes warm-up: JIT, caches filling, the V8
  // heap growing to its working size) and against the second minute (after warm-up).
  const firstMinute = samples.filter((s) => s.t <= 60);
  const secondMinute = samples.filter((s) => s.t > 60 && s.t <= 120);
  const last = samples.slice(-Math.max(1, Math.floor(60 / sampleSeconds)));
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const ratio = (pick: (s: (typeof samples)[number]) => number, base: typeof samples) => (avg(last.map(pick)) / avg(base.map(pick))).toFixed(3);
  console.log(`totals: accepted ${total.accepted}, 503 ${total.refused503}, 429 ${total.refused429}, other ${total.other}; max in flight seen ${Math.max(...samples.map((s) => s.inFlight))}`);
  console.log(`service RSS, last minute / first minute ${ratio((s) => s.rssMb, firstMinute)}, / second minute ${ratio((s) => s.rssMb, secondMinute)}`);
  console.log(`service V8 heap used, last minute / first minute ${ratio((s) => s.heapMb, firstMinute)}, / second minute ${ratio((s) => s.heapMb, secondMinute)}`);
  console.log(`PostgreSQL PSS, last minute / first minute ${ratio((s) => s.pgMb, firstMinute)}, / second minute ${ratio((s) => s.pgMb, secondMinute)}`);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
