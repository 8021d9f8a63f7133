/**
 * The embedded default against an older commit, alternated in one session (a script, not a test):
 *   BENCH_BASE=/path/to/checkout-of-cbc238a npx tsx bench/http-compare.ts
 *
 * Runs each checkout's own `bench/http.ts` (the service as `npm start` runs it, load from a separate
 * process) in the order BENCH_ORDER (default "b n n b b n": b = BENCH_BASE, n = this checkout, t = this
 * checkout with tracing on), at each of BENCH_CLIENTS (default "16,1"), and appends a section to
 * bench/RESULTS-http.md: every run with the load average at its start, and the ratio of each run of this
 * checkout to the base run next to it. The base checkout needs its node_modules (npm ci there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchScript } from './support/child';

const thisRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASE = process.env.BENCH_BASE;
const ORDER = (process.env.BENCH_ORDER ?? 'b n n b b n').split(/\s+/).filter(Boolean);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '16,1').split(',').map(Number);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

interface HttpFigures {
  rps: number;
  median_ms: number;
  service_cpu_ms_per_screening: number;
  postgres_cpu_ms_per_screening: number;
  pg_round_trips_per_screening: number;
  non2xx: number;
}

interface Run {
  who: string;
  clients: number;
  load: number;
  figures: HttpFigures;
}

async function runOnce(who: string, clients: number): Promise<Run> {
  const root = who === 'b' ? BASE! : thisRoot;
  const load = os.loadavg()[0]!;
  const report = await runBenchScript<{ http: (HttpFigures & { clients: number })[] }>(root, 'bench/http.ts', {
    BENCH_CLIENTS: String(clients),
    BENCH_NO_WRITE: '1',
    BENCH_TRACING: who === 't' ? '1' : '0',
  });
  const figures = report.http.find((r) => r.clients === clients)!;
  const run = { who, clients, load: round(load, 1), figures };
  process.stderr.write(`${JSON.stringify(run)}\n`);
  return run;
}

const NAMES: Record<string, string> = { b: 'base', n: 'this', t: 'this, tracing on' };

async function main() {
  if (!BASE && ORDER.includes('b')) throw new Error('BENCH_BASE must name the checkout to compare with (e.g. a worktree of cbc238a with node_modules)');
  const started = new Date().toISOString();
  const runs: Run[] = [];
  for (const clients of CLIENTS) for (const who of ORDER) runs.push(await runOnce(who, clients));
  const lines = [
    '',
    `## bench/http-compare.ts, ${started}: ${BASE ? `base ${path.basename(BASE)}` : 'no base'} against this checkout, alternated`,
    '',
    `Machine: ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores. Order ${ORDER.join(' ')} at each of ${CLIENTS.join(' and ')} clients (b = base, n = this checkout, t = this checkout with tracing on).`,
    '',
    '| clients | run | load at start | screenings/s | median ms | service CPU ms / screening | PostgreSQL CPU ms / screening | round trips / screening | non-2xx | screenings/s ÷ the base run beside it |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const clients of CLIENTS) {
    const series = runs.filter((r) => r.clients === clients);
    series.forEach((run, i) => {
      // The base run beside it: the nearest one in the order (the next, else the previous).
      const neighbours = [series[i + 1], series[i - 1]].filter((r): r is Run => r?.who === 'b');
      const ratio = run.who !== 'b' && neighbours[0] ? `${round(run.figures.rps / neighbours[0].figures.rps)}×` : '';
      const f = run.figures;
      lines.push(`| ${clients} | ${NAMES[run.who]} | ${run.load} | ${f.rps} | ${f.median_ms} | ${f.service_cpu_ms_per_screening} | ${f.postgres_cpu_ms_per_screening} | ${f.pg_round_trips_per_screening ?? '–'} | ${f.non2xx} | ${ratio} |`);
    });
  }
  lines.push('');
  fs.appendFileSync(new URL('./RESULTS-http.md', import.meta.url), lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
