/**
 * The embedded default against an older commit, alternated in one session (a script, not a test):
 *   BENCH_BASE=/path/to/checkout-of-cbc238a npx tsx bench/http-compare.ts
 *
 * Runs each checkout's own `bench/http.ts` (the service as `npm start` runs it, load from a separate
 * process) in the order BENCH_ORDER (default "b n n b b n": b = BENCH_BASE, n = this checkout, t = this
 * checkout with tracing on, m = BENCH_MAIN, a second reference such as main before a branch), at each of
 * BENCH_CLIENTS (default "16,1"), and appends a section to bench/RESULTS-http.md: every run with the load
 * average at its start, the ratio of each run of this checkout to the base run next to it, and the
 * medians per checkout with this checkout's ratios to them (screenings/s, and service and PostgreSQL CPU
 * per screening, which depend less on the machine's load). The other checkouts need their node_modules.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchScript } from './support/child';

const thisRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASE = process.env.BENCH_BASE;
const MAIN = process.env.BENCH_MAIN;
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
  const root = who === 'b' ? BASE! : who === 'm' ? MAIN! : thisRoot;
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

const NAMES: Record<string, string> = { b: 'base', n: 'this', t: 'this, tracing on', m: 'main' };

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Per checkout: the median of each figure over its runs, and this checkout's ratio to it. */
function medianRows(series: Run[]): string[] {
  const who = [...new Set(series.map((r) => r.who))];
  const med = (w: string, f: (x: HttpFigures) => number) => median(series.filter((r) => r.who === w).map((r) => f(r.figures)));
  const figures: [string, (x: HttpFigures) => number][] = [
    ['screenings/s', (x) => x.rps],
    ['service CPU ms / screening', (x) => x.service_cpu_ms_per_screening],
    ['PostgreSQL CPU ms / screening', (x) => x.postgres_cpu_ms_per_screening],
    ['round trips / screening', (x) => x.pg_round_trips_per_screening],
  ];
  const rows = [`| figure (median of runs) | ${who.map((w) => NAMES[w]).join(' | ')} | ${who.filter((w) => w !== 'n').map((w) => `this ÷ ${NAMES[w]}`).join(' | ')} |`, `|---|${who.map(() => '---|').join('')}${who.filter((w) => w !== 'n').map(() => '---|').join('')}`];
  for (const [name, f] of figures) {
    const mine = who.includes('n') ? med('n', f) : NaN;
    rows.push(`| ${name} | ${who.map((w) => round(med(w, f))).join(' | ')} | ${who.filter((w) => w !== 'n').map((w) => `${round(mine / med(w, f))}×`).join(' | ')} |`);
  }
  return rows;
}

async function main() {
  if (!BASE && ORDER.includes('b')) throw new Error('BENCH_BASE must name the checkout to compare with (e.g. a worktree of cbc238a with node_modules)');
  if (!MAIN && ORDER.includes('m')) throw new Error('BENCH_MAIN must name the second checkout to compare with (order letter m)');
  const started = new Date().toISOString();
  const runs: Run[] = [];
  for (const clients of CLIENTS) for (const who of ORDER) runs.push(await runOnce(who, clients));
  const lines = [
    '',
    `## bench/http-compare.ts, ${started}: ${BASE ? `base ${path.basename(BASE)}` : 'no base'}${MAIN ? `, main ${path.basename(MAIN)}` : ''} against this checkout, alternated`,
    '',
    `Machine: ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores. Order ${ORDER.join(' ')} at each of ${CLIENTS.join(' and ')} clients (b = base, n = this checkout, t = this checkout with tracing on, m = main).`,
    '',
    '| clients | run | load at start | screenings/s | median ms | service CPU ms / screening | PostgreSQL CPU ms / screening | round trips / screening | non-2xx | screenings/s ÷ the nearest base run |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const clients of CLIENTS) {
    const series = runs.filter((r) => r.clients === clients);
    series.forEach((run, i) => {
      // The base run beside it: the nearest base run in the order (the later one on a tie).
      const nearest = series
        .map((r, j) => ({ r, distance: Math.abs(j - i) + (j < i ? 0.5 : 0) }))
        .filter(({ r }) => r.who === 'b')
        .sort((x, y) => x.distance - y.distance)[0]?.r;
      const ratio = run.who !== 'b' && nearest ? `${round(run.figures.rps / nearest.figures.rps)}×` : '';
      const f = run.figures;
      lines.push(`| ${clients} | ${NAMES[run.who]} | ${run.load} | ${f.rps} | ${f.median_ms} | ${f.service_cpu_ms_per_screening} | ${f.postgres_cpu_ms_per_screening} | ${f.pg_round_trips_per_screening ?? '–'} | ${f.non2xx} | ${ratio} |`);
    });
  }
  for (const clients of CLIENTS) lines.push('', `${clients} clients, medians:`, '', ...medianRows(runs.filter((r) => r.clients === clients)));
  lines.push('');
  fs.appendFileSync(new URL('./RESULTS-http.md', import.meta.url), lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
