/**
 * Start-up cost of a batch: `node --import tsx bench/batch/startup.ts --baseline <checkout> [--rounds 3] [--workers N] [--rows 100]`.
 *
 * Runs the real CLI (`src/main.ts screen --file`) on a small input (default 100 rows), so the process's
 * wall time is the time to the first screened name (node start, lists, engines, one name, exit), and
 * its peak RSS and CPU time are the start-up's. Variants, alternated round by round so the shared
 * machine's drift hits them alike:
 *   baseline  another checkout (the code before the index cache; it ignores INDEX_CACHE*)
 *   nocache   this code with INDEX_CACHE=false (lists parsed, index built, as before)
 *   cold      this code with an empty cache directory (parse, build, and the snapshot written)
 *   warm      this code with the cache written by a previous run (snapshot read, nothing built)
 * Every variant's results must be identical (checked). Prints a JSON summary and a Markdown table
 * with medians and ratios against the baseline (append it to bench/batch/RESULTS.md by hand).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { batchInput } from './input';

const argv = process.argv.slice(2);
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const baselineDir = flag('--baseline') ? path.resolve(flag('--baseline')!) : undefined;
const rounds = Number(flag('--rounds') ?? 3);
const workers = Number(flag('--workers') ?? os.availableParallelism());
const rows = Number(flag('--rows') ?? 100);
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
const input = path.join(dir, 'input.csv');
writeFileSync(input, batchInput(rows));
const warmCache = path.join(dir, 'cache-warm');
const listsDir = path.resolve('lists');

interface Sample {
  wallS: number;
  cpuS: number;
  peakRssMb: number;
  out: string;
}

function run(variant: string, repo: string, env: Record<string, string>, round: number): Sample {
  const out = path.join(dir, `out-${variant}-${round}.csv`);
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'time %U %S %M', process.execPath, '--import', 'tsx', 'src/main.ts', 'screen', '--file', input, '--out', out, '--workers', String(workers)], {
    encoding: 'utf8',
    cwd: repo,
    env: { ...process.env, LOG_LEVEL: 'warn', LISTS_DIR: listsDir, DATA_DIR: path.join(dir, `data-${variant}`), ...env },
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${variant} failed (${r.status}): ${r.stderr}`);
  const m = /time ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no /usr/bin/time line in ${r.stderr}`);
  return { wallS, cpuS: Number(m[1]) + Number(m[2]), peakRssMb: Math.round(Number(m[3]) / 1024), out };
}

const variants: { name: string; repo: string; env: (round: number) => Record<string, string> }[] = [
  ...(baselineDir ? [{ name: 'baseline', repo: baselineDir, env: () => ({}) }] : []),
  { name: 'nocache', repo: '.', env: () => ({ INDEX_CACHE: 'false' }) },
  {
    name: 'cold',
    repo: '.',
    env: (round: number) => {
      const d = path.join(dir, `cache-cold-${round}`);
      rmSync(d, { recursive: true, force: true });
      return { INDEX_CACHE_DIR: d };
    },
  },
  { name: 'warm', repo: '.', env: () => ({ INDEX_CACHE_DIR: warmCache }) },
];

const load = os.loadavg();
// the warm variant's cache, written once before the measured rounds
run('prepare', '.', { INDEX_CACHE_DIR: warmCache }, 0);
const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
for (let round = 1; round <= rounds; round++) {
  for (const v of variants) samples.get(v.name)!.push(run(v.name, v.repo, v.env(round), round));
}
const reference = readFileSync(samples.get(variants[0].name)![0].out, 'utf8');
const identical = [...samples.values()].every((ss) => ss.every((s) => readFileSync(s.out, 'utf8') === reference));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = variants.map((v) => {
  const ss = samples.get(v.name)!;
  return { variant: v.name, wallS: median(ss.map((s) => s.wallS)), cpuS: median(ss.map((s) => s.cpuS)), peakRssMb: median(ss.map((s) => s.peakRssMb)), walls: ss.map((s) => Number(s.wallS.toFixed(1))) };
});
const base = summary[0];
const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.availableParallelism()} cores, node ${process.version}, load average at start ${load.map((l) => l.toFixed(1)).join(' / ')}, at end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`;
process.stdout.write(`${JSON.stringify({ rows, workers, rounds, machine, identical, summary }, null, 2)}\n\n`);
const r2 = (x: number) => x.toFixed(2);
process.stdout.write(
  `Machine: ${machine}. ${rows} row(s), --workers ${workers}, ${rounds} rounds alternated, medians; ratios against ${base.variant}. Results identical across variants: **${identical ? 'yes' : 'NO'}**.\n\n` +
    `| variant | time to first name (process wall) s | ratio | CPU s | ratio | peak RSS MB | ratio | walls s |\n|---|---|---|---|---|---|---|---|\n` +
    summary
      .map((s) => `| ${s.variant} | ${s.wallS.toFixed(1)} | ${r2(s.wallS / base.wallS)} | ${s.cpuS.toFixed(1)} | ${r2(s.cpuS / base.cpuS)} | ${s.peakRssMb} | ${r2(s.peakRssMb / base.peakRssMb)} | ${s.walls.join(', ')} |`)
      .join('\n') +
    '\n',
);
rmSync(dir, { recursive: true, force: true });
if (!identical) process.exitCode = 1;
