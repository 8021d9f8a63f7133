/**
 * kill -9 recovery, repeated (issue 19's first "done when"): each round starts the embedded service
 * as a child process on a fresh DATA_DIR, fires a burst of concurrent S1 CDD requests, SIGKILLs the
 * service's process group (node and PostgreSQL) after the 5th answer, restarts it on the same
 * DATA_DIR and checks that no screening is stuck, lost or duplicated, every one ending within the
 * recovery bound (phase deadline + grace). Short deadlines are configured so a round takes seconds.
 *
 *   npx tsx scripts/crash-recovery.ts            5 rounds of 60 requests
 *   CRASH_ROUNDS=2 CRASH_REQUESTS=60 npx tsx scripts/crash-recovery.ts
 *
 * Exits non-zero if any round had a stuck, lost or duplicated screening.
 */
import os from 'node:os';
import { runCrashRound } from '../test/support/crash-round';
import { CRASH_ENV, CRASH_RECOVERY_BOUND_MS } from '../test/support/crash-env';

const rounds = Number(process.env.CRASH_ROUNDS ?? 5);
const requests = Number(process.env.CRASH_REQUESTS ?? 60);
console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}; ${rounds} rounds x ${requests} requests`);
console.log(`service env: ${JSON.stringify(CRASH_ENV)}; recovery bound ${CRASH_RECOVERY_BOUND_MS} ms`);
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  const started = Date.now();
  const r = await runCrashRound({ requests, env: CRASH_ENV, recoveryBoundMs: CRASH_RECOVERY_BOUND_MS, log: (line) => console.log(`  [${round}] ${line}`) });
  const bad = r.stuck + r.lost + r.duplicated;
  if (bad > 0) failed++;
  console.log(
    `round ${round}: ${bad === 0 ? 'OK' : 'FAILED'} — 2xx ${r.answered2xx}, other ${r.answeredOther}, cut ${r.cutByKill}; in store ${r.screeningsInStore}; ` +
      `stuck ${r.stuck}, lost ${r.lost}, duplicated ${r.duplicated}; data gap ${r.withDataGap}, phases retried ${r.retriedPhases}; ` +
      `all ended ${r.recoveredInMs} ms after restart; supervisor ${JSON.stringify(r.supervisorActions)}; /readyz overdue ${JSON.stringify(r.readyzOverdueAfter)}; round ${Math.round((Date.now() - started) / 1000)} s`,
  );
}
console.log(`${rounds - failed}/${rounds} rounds clean`);
process.exit(failed === 0 ? 0 : 1);
