/**
 * `npm run bench`: every benchmark in one run, on this machine, one after the other
 * (they must not compete for the 2 cores). Each script prints JSON and writes its RESULTS file.
 */
import { spawnSync } from 'node:child_process';

const scripts = ['bench/screening/run.ts', 'bench/watchlists/run.ts', 'bench/batch/run.ts', 'bench/eventstore.ts', 'bench/bus.ts', 'bench/http.ts'];
let failed = 0;
for (const script of scripts) {
  process.stdout.write(`\n=== ${script}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`${script} failed with status ${result.status}\n`);
  }
}
process.exit(failed ? 1 : 0);
