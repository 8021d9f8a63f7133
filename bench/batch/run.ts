/**
 * Batch screening throughput: `node --import tsx bench/batch/run.ts [rows]` (default 50,000).
 *
 * Runs the real CLI (`src/main.ts screen --file`) end to end on the same deterministic input
 * (bench/batch/input.ts) with one worker (screening in the main thread: the baseline) and with one
 * worker per core, each in its own process so peak RSS is each run's own. Reports wall time (lists
 * loaded and engine built included), screening names/s, peak RSS, and checks that both runs wrote
 * identical results. Writes bench/batch/RESULTS.md.
 *
 * `--baseline <dir>`: also runs the CLI of another checkout of this repository (e.g. the commit
 * before a speed change, `git archive <commit> | tar -x -C <dir>` plus a node_modules link) on the
 * same input with one worker per core, in the same run, and checks its results are identical.
 * `--sample <n>`: rows of the in-process pool comparison (default 2000; 0 skips it).
 * The runs of this checkout start from the index cache (src/screening/index-snapshot.ts) in a fresh
 * directory, written by a 1-row run first: a warm start. `--no-cache`: INDEX_CACHE=false (cold: the
 * lists parsed and the index built in every run). bench/batch/startup.ts measures the start-up alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { Readable, Writable } from 'node:stream';
import { inProcessScreener, runBatch, startWorkerPool, type ChunkScreener } from '../../src/app/batch-screening/batch';
import { ScreeningEngine } from '../../src/screening/engine';
import { loadAllLists } from '../../src/screening/lists';
import { loadConfig } from '../../src/config/config';
import { listsConfigFor } from '../../src/bootstrap/lists-config';
import { parseScreeningInput } from '../../src/screening/query-input';
import { batchInput } from './input';

const argv = process.argv.slice(2);
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const rows = Number(argv.find((a, i) => /^\d+$/.test(a) && !argv[i - 1]?.startsWith('--')) ?? process.env.BATCH_ROWS ?? 50_000);
const baselineDir = flag('--baseline') ? path.resolve(flag('--baseline')!) : undefined;
const sampleRows = Number(flag('--sample') ?? 2000);
const noCache = argv.includes('--no-cache');
const cores = os.availableParallelism();
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-batch-'));
const input = path.join(dir, 'input.csv');
writeFileSync(input, batchInput(rows));

interface Run {
  workers: number;
  /** CPU seconds of the whole run, every thread (user + system). */
  cpuS: number;
  wallS: number;
  loadS: number;
  screenS: number;
  namesPerS: number;
  endToEndNamesPerS: number;
  peakRssMb: number;
  flagged: number;
  out: string;
}

const cacheEnv = noCache ? { INDEX_CACHE: 'false' } : { INDEX_CACHE_DIR: path.join(dir, 'index-cache') };

function run(workers: number, repo = '.', file = input): Run {
  const out = path.join(dir, `out-${workers}${repo === '.' ? '' : '-baseline'}.csv`);
  const t0 = performance.now();
  // /usr/bin/time gives the run's CPU time (all threads), steadier than wall time on a shared machine
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu-seconds %U %S', process.execPath, '--import', 'tsx', 'src/main.ts', 'screen', '--file', file, '--out', out, '--workers', String(workers)], {
    encoding: 'utf8',
    cwd: repo,
    env: { ...process.env, LOG_LEVEL: 'warn', LISTS_DIR: path.resolve('lists'), ...cacheEnv },
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`workers=${workers} failed (${r.status}): ${r.stderr}`);
  const m = /screened (\d+) names, (\d+) flagged.*?; ([\d.]+) (s|min) at (\d+) names\/s on (\d+) worker\(s\) after ([\d.]+) (s|min) loading; peak RSS (\d+) MB/.exec(r.stderr);
  if (!m) throw new Error(`no summary line in: ${r.stderr}`);
  const screened = Number(m[1]);
  if (file === input && screened !== rows) throw new Error(`screened ${screened} of ${rows}`);
  const namesPerS = Number(m[5]);
  const cpu = /cpu-seconds ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return {
    workers,
    cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN,
    wallS,
    loadS: Number(m[7]) * (m[8] === 'min' ? 60 : 1),
    screenS: screened / namesPerS,
    namesPerS,
    endToEndNamesPerS: Math.round(screened / wallS),
    peakRssMb: Number(m[9]),
    flagged: Number(m[2]),
    out,
  };
}

/**
 * In one process, on one set of loaded lists, alternated so the shared machine's drift hits both
 * sides alike: runBatch with 1 worker against the pool of one worker per core, with the CPU time
 * the process got, so "the machine did not give us the cores" can be told from "the pool does not scale".
 */
async function inProcess(sample: number, rounds: number) {
  const lists = await loadAllLists(listsConfigFor(loadConfig({ ...process.env, LISTS_DIR: 'lists' }), { persist: false }), { progressBar: false });
  const engine = ScreeningEngine.build(lists.entities, lists.versions);
  const today = new Date().toISOString().slice(0, 10);
  const lines = readFileSync(input, 'utf8').split('\n');
  const sampleCsv = `${lines.slice(0, sample + 1).join('\n')}\n`;
  const records = (parse(sampleCsv, { columns: true }) as Record<string, string>[]);
  records.forEach((r, i) => {
    const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, today);
    if (!p.ok) throw new Error(`bench input row ${i + 2} is invalid`);
  });
  const options = { threshold: engine.defaultThreshold, jsonl: false };
  const pool = await startWorkerPool({ entities: lists.entities, versions: lists.versions, options, workers: cores });
  const single = inProcessScreener(engine, options);
  const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
  const timed = async (f: () => unknown) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    const c = process.cpuUsage(c0);
    return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
  };
  const batch = (screener: ChunkScreener) => () => runBatch({ input: Readable.from([sampleCsv]), screener, results: sink(), errors: sink(), today });
  const acc = { one: { ms: 0, cpuMs: 0 }, all: { ms: 0, cpuMs: 0 } };
  // one unmeasured round each: every worker thread compiles the matcher's hot code for itself
  await batch(single)();
  await batch(pool)();
  for (let i = 0; i < rounds; i++) {
    for (const [key, screener] of [['one', single], ['all', pool]] as const) {
      const t = await timed(batch(screener));
      acc[key].ms += t.ms;
      acc[key].cpuMs += t.cpuMs;
    }
  }
  await pool.close();
  const rate = (ms: number) => Math.round((rounds * sample) / (ms / 1000));
  return {
    sample,
    rounds,
    pool: {
      oneWorkerNamesPerS: rate(acc.one.ms),
      allWorkersNamesPerS: rate(acc.all.ms),
      speedup: Number((acc.one.ms / acc.all.ms).toFixed(2)),
      coresObtainedOne: Number((acc.one.cpuMs / acc.one.ms).toFixed(2)),
      coresObtainedAll: Number((acc.all.cpuMs / acc.all.ms).toFixed(2)),
      namesPerCpuSecondOne: rate(acc.one.cpuMs),
      namesPerCpuSecondAll: rate(acc.all.cpuMs),
    },
  };
}

const load = os.loadavg();
if (!noCache) {
  // the index cache of this checkout's runs, written once
  const one = path.join(dir, 'one-row.csv');
  writeFileSync(one, batchInput(1));
  run(1, '.', one);
}
const measured = sampleRows > 0 ? await inProcess(Math.min(rows, sampleRows), 2) : undefined;
const single = run(1);
const parallel = run(cores);
const baseline = baselineDir ? run(cores, baselineDir) : undefined;
const identical = readFileSync(single.out, 'utf8') === readFileSync(parallel.out, 'utf8');
const baselineIdentical = baseline ? readFileSync(baseline.out, 'utf8') === readFileSync(parallel.out, 'utf8') : undefined;
const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${cores} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, load average at start ${load.map((l) => l.toFixed(1)).join(' / ')}, at end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`;
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
const result = {
  rows,
  machine,
  single: { ...single, out: undefined },
  parallel: { ...parallel, out: undefined },
  baseline: baseline ? { dir: baselineDir, ...baseline, out: undefined } : undefined,
  inProcess: measured,
  screeningSpeedup: ratio(parallel.namesPerS, single.namesPerS),
  wallSpeedup: ratio(single.wallS, parallel.wallS),
  identicalResults: identical,
  vsBaseline: baseline
    ? { wall: ratio(baseline.wallS, parallel.wallS), cpu: ratio(baseline.cpuS, parallel.cpuS), screening: ratio(parallel.namesPerS, baseline.namesPerS), loading: ratio(baseline.loadS, parallel.loadS), identical: baselineIdentical }
    : undefined,
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

const row = (r: Run, label = String(r.workers)) =>
  `| ${label} | ${r.wallS.toFixed(1)} | ${r.cpuS.toFixed(1)} | ${r.loadS.toFixed(1)} | ${r.screenS.toFixed(1)} | ${r.namesPerS} | ${r.endToEndNamesPerS} | ${r.peakRssMb} |`;
const vs = result.vsBaseline;
writeFileSync(
  'bench/batch/RESULTS.md',
  `# Batch screening throughput (\`svc screen --file\`)

Reproduce: \`node --import tsx bench/batch/run.ts ${rows}${baselineDir ? ' --baseline <checkout of the previous code>' : ''}\` (input: bench/batch/input.ts, ${rows.toLocaleString('en')} rows, seed 20:
about 1 in 10 names from the OFAC SDN list, some with a typo, the rest US given names and surnames; 30 % with a DOB, 30 % a country).

Machine: ${machine}.
**Shared machine**: other jobs were running; absolute times are noisy, compare the ratios of this one run.
CPU s is the whole run's CPU time over all threads (/usr/bin/time), steadier than wall time when the cores are shared.
${noCache ? 'Index cache off (INDEX_CACHE=false): every run parses the lists and builds the index.' : 'This checkout starts from the index cache (written by a 1-row run before): a warm start; `--no-cache` for a cold one.'}

| workers | wall s (all) | CPU s | loading s (lists + engine) | screening s | screening names/s | end-to-end names/s | peak RSS MB |
|---|---|---|---|---|---|---|---|
${row(single)}
${row(parallel)}
${baseline ? `${row(baseline, `${cores}, previous code`)}\n` : ''}
- Screening speed-up with ${cores} workers: **${result.screeningSpeedup}x**; wall-clock speed-up: **${result.wallSpeedup}x**.
- Results identical between the two runs: **${identical ? 'yes' : 'NO'}** (${single.flagged} rows flagged).
${vs ? `- Against the previous code (${cores} workers each, same input, same run): wall **${vs.wall}x** faster, CPU time **${vs.cpu}x** less, screening **${vs.screening}x**, loading **${vs.loading}x**; results identical: **${vs.identical ? 'yes' : 'NO'}**.\n` : ''}${
    measured
      ? `- Alternated in one process (first ${measured.sample} rows, ${measured.rounds} rounds, lists loaded once): runBatch with 1 worker ${measured.pool.oneWorkerNamesPerS} names/s, with ${cores} workers ${measured.pool.allWorkersNamesPerS} names/s: **${measured.pool.speedup}x**. Cores the process actually got: ${measured.pool.coresObtainedOne} with 1 worker, ${measured.pool.coresObtainedAll} with ${cores} (CPU time / wall time); names per CPU-second ${measured.pool.namesPerCpuSecondOne} vs ${measured.pool.namesPerCpuSecondAll} (the pool's overhead: equal figures mean it scales with the cores it is given).\n`
      : ''
  }- 1 worker loads, builds and screens in the main thread (the baseline); with ${cores} workers the lists are shared out among the workers (largest first), each worker parses its share and passes it to the others through shared memory, and each builds its own engine from all of them, so peak RSS grows by about one engine per worker.
`,
);
if (!identical || baselineIdentical === false) process.exitCode = 1;
