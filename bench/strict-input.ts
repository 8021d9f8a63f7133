/**
 * Strict-input cost benchmark (a script, not a test): npx tsx bench/strict-input.ts
 *
 * What every JSON body now pays before it is parsed: the UTF-8 check and the duplicate-key scan
 * (verifyJsonBody), as a ratio to JSON.parse of the same bytes (the baseline, measured in the same run).
 * Bodies: a typical CDD request (~60 B), an EDD request with long free text (~25 kB), and a 100 kB
 * S2 batch-like array of objects. BENCH_ROUNDS (default 5) rounds, median reported.
 */
import os from 'node:os';
import { verifyJsonBody } from '../src/api/http/strict-input';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const bodies: Record<string, Buffer> = {
  'cdd (small)': Buffer.from(JSON.stringify({ query: 'Margaret Thistlewood', entity_type: 'individual', jurisdiction: 'GB' })),
  'edd (25 kB text)': Buffer.from(JSON.stringify({ query: 'Ada Quill', source_of_wealth: 'Salary and an inherited house. '.repeat(800) })),
  'batch (100 kB objects)': Buffer.from(
    JSON.stringify({ subjects: Array.from({ length: 900 }, (_, i) => ({ first_name: 'Margaret', last_name: `Smith${i}`, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment' })) }),
  ),
};

function timePerOp(fn: () => void, minMs = 300): number {
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return (elapsed * 1000) / n; // µs per op
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}, node ${process.version}; shared machine, absolute times are noisy`);
for (const [name, buf] of Object.entries(bodies)) {
  const parse: number[] = [];
  const verify: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    parse.push(timePerOp(() => JSON.parse(buf.toString('utf8'))));
    verify.push(timePerOp(() => verifyJsonBody(buf)));
  }
  const p = median(parse);
  const v = median(verify);
  console.log(`${name.padEnd(24)} ${String(buf.length).padStart(7)} B  JSON.parse ${p.toFixed(1)} µs  verify ${v.toFixed(1)} µs  verify/parse ${(v / p).toFixed(2)}`);
}
