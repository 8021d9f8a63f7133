/**
 * What the batch engine costs around the matcher: `node --import tsx bench/batch/input-overhead.ts
 * [rows] [--baseline <dir>]` (default 100,000 rows of bench/batch/input.ts).
 *
 * Runs `runBatch` with a screener that only writes each row's line (no matching), so the time is the
 * reading, row validation, chunking and writing. Reports rows/s for the CSV input and for the same rows
 * as JSON lines, as ratios to the CSV run of this checkout; with `--baseline <dir>` (another checkout:
 * `git archive <commit> src | tar -x -C <dir>` plus a node_modules link) also that checkout's CSV run, in
 * the same process, alternating rounds. Matching costs about 1,000 times more per row (bench/batch/RESULTS.md).
 */
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { runBatch as current, type ChunkScreener } from '../../src/app/batch-screening/batch';
import { batchInput } from './input';

const argv = process.argv.slice(2);
const rows = Number(argv.find((a, i) => /^\d+$/.test(a) && argv[i - 1] !== '--baseline') ?? 100_000);
const baselineDir = argv.includes('--baseline') ? path.resolve(argv[argv.indexOf('--baseline') + 1]!) : undefined;
const csv = batchInput(rows);
const records = parse(csv, { columns: true }) as Record<string, string>[];
const jsonl = `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

const screener: ChunkScreener = {
  workers: 1,
  screen: async (chunk) => ({ csv: chunk.map((r) => `${r.line}\n`).join(''), jsonl: '', screened: chunk.length, flagged: 0 }),
  close: async () => {},
};
const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
type Run = typeof current;

async function time(run: Run, text: string, format?: 'csv' | 'jsonl'): Promise<number> {
  const t0 = performance.now();
  const summary = await run({ input: Readable.from([Buffer.from(text)]), ...(format ? { format } : {}), screener, results: sink(), errors: sink(), today: '2026-11-26' });
  if (summary.read !== rows) throw new Error(`read ${summary.read} of ${rows}`);
  return rows / ((performance.now() - t0) / 1000);
}

const baseline: Run | undefined = baselineDir ? (await import(path.join(baselineDir, 'src/app/batch-screening/batch.ts'))).runBatch : undefined;
const rates: Record<string, number[]> = { csv: [], jsonl: [], 'baseline csv': [] };
for (let round = 0; round < 5; round++) {
  if (baseline) rates['baseline csv']!.push(await time(baseline, csv));
  rates.csv!.push(await time(current, csv, 'csv'));
  rates.jsonl!.push(await time(current, jsonl, 'jsonl'));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ref = median(rates.csv!);
console.log(`${rows} rows, ${os.cpus()[0]?.model ?? 'cpu'} x${os.availableParallelism()}, node ${process.version}; median of 5 rounds (first round included)`);
for (const [name, xs] of Object.entries(rates)) if (xs.length) console.log(`${name.padEnd(14)} ${Math.round(median(xs)).toString().padStart(8)} rows/s  ratio to this csv ${(median(xs) / ref).toFixed(2)}`);
