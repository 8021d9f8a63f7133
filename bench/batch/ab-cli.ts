/**
 * The real batch CLI (`src/main.ts screen --file`, one worker per core) of two checkouts on the same
 * input, alternated A B B A … so the shared machine's drift hits both alike: wall, CPU (all threads,
 * /usr/bin/time) and screening names/s of each run, and a check that every run wrote the same CSV,
 * byte for byte. Each checkout starts from its own index cache, written by a 1-row run first.
 *   node --import tsx bench/batch/ab-cli.ts <checkout A> <checkout B> [rows=50000] [pairs=2]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { batchInput } from './input';

const [a, b] = [path.resolve(process.argv[2]), path.resolve(process.argv[3] ?? '.')];
const rows = Number(process.argv[4] ?? 50_000);
const pairs = Number(process.argv[5] ?? 2);
const workers = os.availableParallelism();
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ab-'));
const input = path.join(dir, 'input.csv');
writeFileSync(input, batchInput(rows));
const one = path.join(dir, 'one.csv');
writeFileSync(one, batchInput(1));

interface Run { wallS: number; cpuS: number; loadS: number; namesPerS: number; csv: string }
function run(repo: string, label: string, file = input, k = 0): Run {
  const out = path.join(dir, `out-${label}-${k}.csv`);
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu-seconds %U %S', process.execPath, '--import', 'tsx', 'src/main.ts', 'screen', '--file', file, '--out', out, '--workers', String(workers)], {
    encoding: 'utf8',
    cwd: repo,
    env: { ...process.env, LOG_LEVEL: 'warn', LISTS_DIR: path.resolve('lists'), INDEX_CACHE_DIR: path.join(dir, `cache-${label}`) },
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${label} failed (${r.status}): ${r.stderr}`);
  const m = /screened (\d+) names.*? at (\d+) names\/s .*? after ([\d.]+) (s|min) loading/.exec(r.stderr);
  const cpu = /cpu-seconds ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m || !cpu) throw new Error(`no summary in: ${r.stderr}`);
  return { wallS, cpuS: Number(cpu[1]) + Number(cpu[2]), loadS: Number(m[3]) * (m[4] === 'min' ? 60 : 1), namesPerS: Number(m[2]), csv: readFileSync(out, 'utf8') };
}

run(a, 'A', one);
run(b, 'B', one);
const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
for (let p = 0; p < pairs; p++) {
  const order: ('A' | 'B')[] = p % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  for (const label of order) {
    const r = run(label === 'A' ? a : b, label, input, p);
    runs[label].push(r);
    console.log(`${label} wall ${r.wallS.toFixed(1)} s, cpu ${r.cpuS.toFixed(1)} s, loading ${r.loadS} s, ${r.namesPerS} names/s screening, load avg ${os.loadavg()[0].toFixed(1)}`);
  }
}
const all = [...runs.A, ...runs.B];
const identical = all.every((r) => r.csv === all[0].csv);
const sum = (rs: Run[], f: (r: Run) => number) => rs.reduce((s, r) => s + f(r), 0);
const cpuA = sum(runs.A, (r) => r.cpuS);
const cpuB = sum(runs.B, (r) => r.cpuS);
const wallA = sum(runs.A, (r) => r.wallS);
const wallB = sum(runs.B, (r) => r.wallS);
console.log(
  `A ${a}: mean wall ${(wallA / pairs).toFixed(1)} s, CPU ${(cpuA / pairs).toFixed(1)} s (${((cpuA / pairs / rows) * 1000).toFixed(3)} ms/name)\n` +
    `B ${b}: mean wall ${(wallB / pairs).toFixed(1)} s, CPU ${(cpuB / pairs).toFixed(1)} s (${((cpuB / pairs / rows) * 1000).toFixed(3)} ms/name)\n` +
    `A/B: wall ${(wallA / wallB).toFixed(2)}x, CPU ${(cpuA / cpuB).toFixed(2)}x; identical CSVs (${all.length} runs): ${identical}`,
);
if (!identical) process.exitCode = 1;
