/**
 * Candidate lookup alone (NameIndex.candidates, src/screening/matching/name-index.ts) on the batch
 * bench's names, from one index snapshot file, for one or two checkouts in one process: candidates
 * per query (returned, distinct prepared names to compare), CPU µs per lookup, and a digest of every
 * candidate list (two checkouts must print the same). With two checkouts the rounds alternate
 * (A B B A …) so the shared machine's drift hits both alike; the ratio is what counts.
 *   node --import tsx bench/batch/lookup.ts <snapshot .v8 file> <checkout> [<checkout>] [--rows 3000] [--rounds 6]
 * The snapshot's key is read from the file, so both checkouts decode the same lists and index.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize } from 'node:v8';

type Index = { candidates(q: unknown, limit: number, share: number): { nameIndex: number; weight: number }[]; names: { preparedId: number }[] };
const argv = process.argv.slice(2);
const flag = (name: string, d: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : d);
const positional = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const [file, ...repos] = positional;
const n = flag('--rows', 3000);
const rounds = flag('--rounds', 6);
const bytes = readFileSync(file!);
const key = (deserialize(bytes) as { key: string }).key;

const sides = [];
for (const r of repos.length ? repos : ['.']) {
  const repo = path.resolve(r);
  const snap = await import(path.join(repo, 'src/screening/index-snapshot.ts'));
  const { prepareName } = await import(path.join(repo, 'src/screening/matching/prepare.ts'));
  const { batchInput } = await import(path.join(repo, 'bench/batch/input.ts'));
  const restored = snap.decodeSnapshot(bytes, key);
  if (!restored) throw new Error(`snapshot not readable by ${repo}`);
  const index = (restored.engine as unknown as { index: Index }).index;
  const names = (batchInput(n) as string)
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split(',')[0]);
  // prepared once, outside the timing (query preparation is not the lookup)
  const queries = names.map((nm) => prepareName(nm, undefined));
  const hash = createHash('sha256');
  let returned = 0;
  let distinct = 0;
  for (const q of queries) {
    const c = index.candidates(q, 150, 0.5);
    returned += c.length;
    distinct += new Set(c.map((x) => index.names[x.nameIndex].preparedId)).size;
    for (const x of c) hash.update(`${x.nameIndex}:${x.weight};`);
    hash.update('\n');
  }
  sides.push({ repo, index, queries, returned, distinct, digest: hash.digest('hex').slice(0, 16), cpuUs: 0 });
}

// PROFILE=<file>: a CPU profile of the timed rounds alone
const session = process.env.PROFILE ? new (await import('node:inspector/promises')).Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
for (let r = 0; r < rounds; r++) {
  for (const side of r % 2 ? [...sides].reverse() : sides) {
    const c0 = process.cpuUsage();
    for (const q of side.queries) side.index.candidates(q, 150, 0.5);
    const c = process.cpuUsage(c0);
    side.cpuUs += c.user + c.system;
  }
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
}
const out = sides.map((s) => ({
  repo: s.repo,
  queries: s.queries.length,
  returnedPerQuery: +(s.returned / s.queries.length).toFixed(2),
  distinctPreparedPerQuery: +(s.distinct / s.queries.length).toFixed(2),
  cpuUsPerLookup: +(s.cpuUs / (rounds * s.queries.length)).toFixed(1),
  digest: s.digest,
}));
console.log(JSON.stringify(out));
if (sides.length === 2) console.log(`first/second CPU per lookup: ${(sides[0].cpuUs / sides[1].cpuUs).toFixed(2)}x; same candidates: ${sides[0].digest === sides[1].digest}`);
