/**
 * What an S3 Enterprise screening pays for its offshore-leak check (issue 33), in one run on one
 * PostgreSQL (the tests' embedded cluster, fsync off): npx tsx bench/offshore-quota.ts
 *
 * - before: the S3 router's old admission, one limit_counters consume (PgLimitService.consume);
 * - after: the workflow's use on the quota aggregate (EventSourcedOffshoreLeakChecks.use): read the
 *   account-month stream (up to 100 events), decide, append with the expected revision.
 * Sequential, alternated in blocks (A B B A …) over fresh account-months that each fill from 0 to 100
 * used (the stream's whole life), so both sides see the same load. Also: 20 uses at once on one stream
 * (the contention the expected revision resolves by deciding again). Prints the load average.
 * Env: BENCH_MONTHS (account-months per side, default 6). Writes bench/RESULTS-offshore-quota.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import { PgLimitService } from '../src/app/limits';
import { EventSourcedOffshoreLeakChecks } from '../src/app/usage/offshore-leak-checks';
import { PostgresEventStore } from '../src/infrastructure/eventstore/postgres/store';
import { systemClock } from '../src/shared/clock';
import { createLogger } from '../src/shared/logger';
import { createTestDatabase } from '../test/support/postgres';

const MONTHS = Number(process.env.BENCH_MONTHS ?? 6);
const LIMIT = 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

const db = await createTestDatabase();
const logger = createLogger({ level: 'silent' });
const store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 1000, logger });
const limits = new PgLimitService(db.pool, systemClock);
const checks = new EventSourcedOffshoreLeakChecks({ store, clock: systemClock });
let screening = 1;

async function timeEach(run: () => Promise<unknown>, times: number[]): Promise<void> {
  const started = performance.now();
  await run();
  times.push(performance.now() - started);
}

/** One account-month from 0 to 100 used (and 5 refused after), each call timed. */
const sides = {
  before: async (account: string, times: number[]) => {
    for (let i = 0; i < LIMIT + 5; i++) await timeEach(() => limits.consume(`s3:offshore:${account}:2026-11`, LIMIT, 31 * 86_400, { align: 'utc_month' }), times);
  },
  after: async (account: string, times: number[]) => {
    for (let i = 0; i < LIMIT + 5; i++) await timeEach(() => checks.use({ accountId: account, month: '2026-11', screeningId: String(screening++), limit: LIMIT }), times);
  },
};

const times = { before: [] as number[], after: [] as number[] };
let account = 1;
await sides.before(String(account++), []); // warm-up of both paths
await sides.after(String(account++), []);
for (let m = 0; m < MONTHS; m++) {
  const order: (keyof typeof sides)[] = m % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const side of order) await sides[side](String(account++), times[side]);
}

// Contention: 20 screenings of one account starting at once with 90 used.
const contended = String(account++);
for (let i = 0; i < 90; i++) await checks.use({ accountId: contended, month: '2026-11', screeningId: String(screening++), limit: LIMIT });
const started = performance.now();
const outcomes = await Promise.all(Array.from({ length: 20 }, () => checks.use({ accountId: contended, month: '2026-11', screeningId: String(screening++), limit: LIMIT })));
const contendedMs = performance.now() - started;

const fmt = (xs: number[]) => `median ${median(xs).toFixed(2)} ms, p95 ${p95(xs).toFixed(2)} ms (${xs.length} calls)`;
const lines = [
  `machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${new Date().toISOString()})`,
  `before (limit_counters consume): ${fmt(times.before)}`,
  `after  (quota aggregate use):    ${fmt(times.after)}`,
  `ratio after/before (median): ${(median(times.after) / median(times.before)).toFixed(2)}`,
  `20 concurrent uses at 90 used: ${outcomes.filter((o) => o.used).length} used, ${outcomes.filter((o) => !o.used).length} refused, ${contendedMs.toFixed(0)} ms for all`,
];
console.log(lines.join('\n'));
fs.writeFileSync(
  new URL('./RESULTS-offshore-quota.md', import.meta.url),
  `# Offshore-leak check per S3 Enterprise screening (bench/offshore-quota.ts)\n\nBefore: the S3 router's limit_counters consume. After: the workflow's use on the quota aggregate (read the account-month stream, append with the expected revision). Alternated blocks over account-months filled 0 → 100 (+5 refused).\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`,
);
await store.close();
await db.drop();
