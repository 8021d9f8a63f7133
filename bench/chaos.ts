/**
 * The fault-injection soak of issue 29 (a script, not a test): a mixed workload for CHAOS_MINUTES
 * (default 10) against the embedded default and the multi-process scaled mode, with a process killed
 * by SIGKILL and restarted every CHAOS_KILL_EVERY_MS (default 3000-9000 after the previous restart is up, drawn uniformly), then the
 * invariants checked and printed as a table (test/support/chaos.ts says what each one means).
 *
 *   npx tsx bench/chaos.ts                      both modes, 10 minutes each
 *   CHAOS_MODE=embedded CHAOS_MINUTES=2 npx tsx bench/chaos.ts
 *
 * CHAOS_MIN_KILLS (default 20): the workload goes on past CHAOS_MINUTES until that many kills have landed
 * (restarts are slower on a loaded machine; the table says how long it ran).
 * CHAOS_CLIENTS (default 4) closed-loop clients; CHAOS_WORKERS (default 2) worker processes in the scaled
 * mode (the embedded mode has none apart: its agents run in serve and die with it).
 *
 * Deadlines are configurable because the machine may be loaded: CHAOS_REQUEST_DEADLINE_MS (how long a
 * client keeps retrying one request, default 300000), CHAOS_SETTLE_MS (how long, after the load,
 * every workflow and delivery may take to finish, default 300000). The invariants are never relaxed.
 * Appends each mode's tables to bench/RESULTS-chaos.md (CHAOS_RESULTS=0: print only). Exit 1 if any
 * invariant fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chaosTable, runChaos, type ChaosMode } from '../test/support/chaos';

const minutes = Number(process.env.CHAOS_MINUTES ?? 10);
const modes = (process.env.CHAOS_MODE ?? 'embedded,scaled').split(',').map((m) => m.trim()) as ChaosMode[];
const [killMin, killMax] = (process.env.CHAOS_KILL_EVERY_MS ?? '3000-9000').split('-').map(Number) as [number, number];
const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS-chaos.md');
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

let failed = false;
for (const mode of modes) {
  const loadNow = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
  const load = loadNow();
  const startedAt = new Date().toISOString().slice(0, 16);
  const result = await runChaos({
    mode,
    durationMs: minutes * 60_000,
    killEveryMs: [killMin, killMax],
    minKills: Number(process.env.CHAOS_MIN_KILLS ?? 20),
    clients: Number(process.env.CHAOS_CLIENTS ?? 4),
    requestDeadlineMs: Number(process.env.CHAOS_REQUEST_DEADLINE_MS ?? 300_000),
    settleDeadlineMs: Number(process.env.CHAOS_SETTLE_MS ?? 300_000),
    workers: Number(process.env.CHAOS_WORKERS ?? 2),
    log,
  });
  const table = chaosTable(result, `; ${os.cpus().length} cores, load average ${load} at the start and ${loadNow()} at the end, started ${startedAt}Z`);
  process.stdout.write(`\n${table}\n`);
  if (process.env.CHAOS_RESULTS !== '0') fs.appendFileSync(results, `${table}\n`);
  if (!result.ok) failed = true;
}
process.exit(failed ? 1 : 0);
