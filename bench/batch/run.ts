/**
 * Batch screening throughput: `node --import tsx bench/batch/run.ts [rows]` (default 50,000).
 *
 * Runs the real CLI (`src/main.ts screen --file`) end to end on the same deterministic input
 * (bench/batch/input.ts) with one worker (screening in the main thread: the baseline) and with one
 * worker per core, each in its own process so peak RSS is each run's own. Reports wall time (lists
 * loaded and engine built included), screening names/s, peak RSS, and checks that both runs wrote
 * identical results. Writes bench/batch/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { screenChunk, type BatchRow } from '../../src/app/batch-screening/rows';
import { ScreeningEngine } from '../../src/screening/engine';
import { loadAllLists } from '../../src/screening/lists';
import { defaultListsConfig } from '../../src/screening/lists/config';
import { parseScreeningInput } from '../../src/screening/query-input';
import { batchInput } from './input';

const rows = Number(process.argv[2] ?? process.env.BATCH_ROWS ?? 50_000);
const cores = os.availableParallelism();
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-batch-'));
const input = path.join(dir, 'input.csv');
writeFileSync(input, batchInput(rows));

interface Run {
  workers: number;
  wallS: number;
  loadS: number;
  screenS: number;
  namesPerS: number;
  endToEndNamesPerS: number;
  peakRssMb: number;
  flagged: number;
  out: string;
}

function run(workers: number): Run {
  const out = path.join(dir, `out-${workers}.csv`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'screen', '--file', input, '--out', out, '--workers', String(workers)], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`workers=${workers} failed (${r.status}): ${r.stderr}`);
  const m = /screened (\d+) names, (\d+) flagged.*?; ([\d.]+) (s|min) at (\d+) names\/s on (\d+) worker\(s\) after ([\d.]+) (s|min) loading; peak RSS (\d+) MB/.exec(r.stderr);
  if (!m) throw new Error(`no summary line in: ${r.stderr}`);
  const screened = Number(m[1]);
  if (screened !== rows) throw new Error(`screened ${screened} of ${rows}`);
  const namesPerS = Number(m[5]);
  return {
    workers,
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
 * Per-name work in one thread on the same engine and rows: the previous batch loop (every row
 * screened at 0.5 with limit 1, to print a top score for non-matches) against the current one
 * (screened at the threshold, every hit kept, risk and explanation shaped). Alternated twice.
 */
async function perNameWork(sample: number) {
  const lists = await loadAllLists(defaultListsConfig({ ...process.env, LISTS_DIR: 'lists' }), { progressBar: false });
  const engine = ScreeningEngine.build(lists.entities, lists.versions);
  const records = (parse(readFileSync(input, 'utf8'), { columns: true }) as Record<string, string>[]).slice(0, sample);
  const rowsIn: BatchRow[] = records.map((r, i) => {
    const p = parseScreeningInput({ name: r.name, dob: r.dob, country: r.country, type: r.entity_type }, new Date().toISOString().slice(0, 10));
    if (!p.ok) throw new Error(`bench input row ${i + 2} is invalid`);
    return { line: i + 2, input: { name: r.name, entity_type: r.entity_type, dob: r.dob, country: r.country }, query: p.query };
  });
  const previous = () => {
    for (const row of rowsIn) engine.screen(row.query, { threshold: 0.5, limit: 1 });
  };
  const current = () => screenChunk(engine, rowsIn, { threshold: engine.defaultThreshold, jsonl: false });
  const time = (f: () => unknown) => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  let prevMs = 0;
  let curMs = 0;
  for (let i = 0; i < 2; i++) {
    prevMs += time(previous);
    curMs += time(current);
  }
  return { sample, previousNamesPerS: Math.round((2 * sample) / (prevMs / 1000)), currentNamesPerS: Math.round((2 * sample) / (curMs / 1000)), ratio: Number((prevMs / curMs).toFixed(2)) };
}

const load = os.loadavg();
const perName = await perNameWork(Math.min(rows, 3000));
const single = run(1);
const parallel = run(cores);
const identical = readFileSync(single.out, 'utf8') === readFileSync(parallel.out, 'utf8');
const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${cores} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, load average at start ${load.map((l) => l.toFixed(1)).join(' / ')}`;
const result = {
  rows,
  machine,
  single: { ...single, out: undefined },
  parallel: { ...parallel, out: undefined },
  perNameWork: perName,
  screeningSpeedup: Number((parallel.namesPerS / single.namesPerS).toFixed(2)),
  wallSpeedup: Number((single.wallS / parallel.wallS).toFixed(2)),
  identicalResults: identical,
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

const row = (r: Run) =>
  `| ${r.workers} | ${r.wallS.toFixed(1)} | ${r.loadS.toFixed(1)} | ${r.screenS.toFixed(1)} | ${r.namesPerS} | ${r.endToEndNamesPerS} | ${r.peakRssMb} |`;
writeFileSync(
  'bench/batch/RESULTS.md',
  `# Batch screening throughput (\`svc screen --file\`)

Reproduce: \`node --import tsx bench/batch/run.ts ${rows}\` (input: bench/batch/input.ts, ${rows.toLocaleString('en')} rows, seed 20:
about 1 in 10 names from the OFAC SDN list, some with a typo, the rest US given names and surnames; 30 % with a DOB, 30 % a country).

Machine: ${machine}.
**Shared machine**: other jobs were running; absolute times are noisy, compare the ratios of this one run.

| workers | wall s (all) | loading s (lists + engine) | screening s | screening names/s | end-to-end names/s | peak RSS MB |
|---|---|---|---|---|---|---|
${row(single)}
${row(parallel)}

- Screening speed-up with ${cores} workers: **${result.screeningSpeedup}x**; wall-clock speed-up: **${result.wallSpeedup}x**.
- Results identical between the two runs: **${identical ? 'yes' : 'NO'}** (${single.flagged} rows flagged).
- Per-name work in one thread, first ${perName.sample} rows, same engine, alternated: the previous batch loop (every row screened at 0.5, limit 1, to show a top score for non-matches) ${perName.previousNamesPerS} names/s; the current one (screened at the threshold, every hit, risk level and explanation) ${perName.currentNamesPerS} names/s: **${perName.ratio}x**.
- 1 worker screens in the main thread (the baseline); ${cores} workers each build their own engine, in parallel, from the lists the main thread loaded once, so peak RSS grows by about one engine per worker.
`,
);
if (!identical) process.exitCode = 1;
