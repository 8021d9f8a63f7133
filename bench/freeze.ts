/**
 * What deep-freezing the events read from the store costs (FREEZE_EVENTS; a script, not a test):
 *   npx tsx bench/freeze.ts          (BENCH_SCREENINGS, default 1000 screening streams of 14 events)
 *
 * One database (test/support/postgres.ts: an embedded cluster, or TEST_DATABASE_URL's server) seeded
 * with screening streams shaped as the pipeline writes them: ScreeningRequested, phase events, agent
 * results with hits (the sample report's), completion. Two read paths, each measured with
 * freezeEvents off (A) and on (B) in the order A B B A B A A B, on fresh stores (no tail reuse):
 * - detail: readStream of every screening and buildScreeningReport on it (what a detail read or a
 *   command's load does per stream);
 * - catch-up: readAll of the whole store in pages of 500 (what a projection runner or the relay does).
 * Measured as this process's CPU time (user + system), which other work on a shared machine disturbs
 * far less than wall time (the database's own CPU is the same on both sides); wall time is printed too.
 * Prints the mean of each side and the B/A ratio, with the load average.
 */
import os from 'node:os';
import { PostgresEventStore } from '../src/infrastructure/eventstore/postgres/store';
import { buildScreeningReport } from '../src/projections/screening-report';
import type { Event } from '../src/shared/events';
import { sampleReport } from '../test/unit/reports/sample-report';
import { createTestDatabase } from '../test/support/postgres';

const SCREENINGS = Number(process.env.BENCH_SCREENINGS ?? 1000);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const at = '2026-01-01T00:00:00.000Z';

function stream(i: number): Event[] {
  const ids = { screeningId: String(i), accountId: '1' };
  const hits = Object.values(sampleReport().hits).flat();
  const meta = (n: number) => ({ eventId: `bench-${i}-${n}`, occurredAt: at, actor: { surface: 'system' as const } });
  const events: Omit<Event, 'metadata'>[] = [
    { type: 'ScreeningRequested', data: { ...ids, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, kind: 'cdd', surface: 's1', plan: 'enterprise', requestedAt: at, subject: { query: 'Acme Trading Ltd', entityType: 'company' } } },
    ...['1a', '1b', '2', '3', '4', '5'].map((phase) => ({ type: 'PhaseStarted', data: { ...ids, phase, startedAt: at, deadline: at, agents: ['sanctions', 'pep'] } })),
    { type: 'AgentResultRecorded', data: { ...ids, phase: '1a', agent: 'sanctions', queried: true, result: { hits }, startedAt: at, finishedAt: at } },
    { type: 'AgentResultRecorded', data: { ...ids, phase: '1a', agent: 'pep', queried: true, result: { hits: hits.slice(0, 2) }, startedAt: at, finishedAt: at } },
    { type: 'AgentResultRecorded', data: { ...ids, phase: '1b', agent: 'country_risk', queried: true, result: { countryRisk: [] }, startedAt: at, finishedAt: at } },
    ...['1a', '1b', '2', '3'].map((phase) => ({ type: 'PhaseCompleted', data: { ...ids, phase, completedAt: at } })),
    { type: 'ScreeningCompleted', data: { ...ids, uuid: 'u', kind: 'cdd', surface: 's1', riskScore: 80, riskLevel: 'high', counts: {}, hits: [], listVersions: [], matcherVersion: 'm', completedAt: at } },
  ];
  return events.map((e, n) => ({ ...e, metadata: meta(n) }));
}

const db = await createTestDatabase();
try {
  const seeder = new PostgresEventStore({ pool: db.pool, batchAppends: false });
  for (let i = 1; i <= SCREENINGS; i++) await seeder.appendToStream(`screening-${i}`, stream(i), { expectedRevision: 'no_stream' });
  const events = SCREENINGS * stream(1).length;

  const detail = async (freezeEvents: boolean) => {
    const store = new PostgresEventStore({ pool: db.pool, freezeEvents });
    const started = process.cpuUsage();
    for (let i = 1; i <= SCREENINGS; i++) buildScreeningReport(await store.readStream(`screening-${i}`), { agentLabels: {} });
    return cpuMs(started);
  };
  const catchUp = async (freezeEvents: boolean) => {
    const store = new PostgresEventStore({ pool: db.pool, freezeEvents, minFenceIntervalMs: 0 });
    const started = process.cpuUsage();
    let after = 0n;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 500 });
      if (page.length === 0) break;
      after = page[page.length - 1]!.globalPosition;
    }
    return cpuMs(started);
  };
  // Warm-up, both sides: JIT, connections, the database's caches.
  for (const frozen of [false, true, false, true]) {
    await detail(frozen);
    await catchUp(frozen);
  }
  const order = [false, true, true, false, true, false, false, true, false, true, true, false];
  const times = { detail: { off: [] as number[], on: [] as number[] }, catchUp: { off: [] as number[], on: [] as number[] } };
  for (const frozen of order) {
    times.detail[frozen ? 'on' : 'off'].push(await detail(frozen));
    times.catchUp[frozen ? 'on' : 'off'].push(await catchUp(frozen));
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const line = (name: string, t: { off: number[]; on: number[] }, per: number) =>
    `${name}: CPU off ${mean(t.off).toFixed(0)} ms, on ${mean(t.on).toFixed(0)} ms (${((mean(t.on) - mean(t.off)) / per * 1000).toFixed(1)} µs per event), ratio on/off ${(mean(t.on) / mean(t.off)).toFixed(3)}; runs off ${t.off.map((x) => x.toFixed(0)).join(' ')}, on ${t.on.map((x) => x.toFixed(0)).join(' ')}`;
  process.stdout.write(`${SCREENINGS} screenings, ${events} events; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  process.stdout.write(`${line('detail (readStream + report per screening)', times.detail, events)}\n`);
  process.stdout.write(`${line('catch-up (readAll in pages of 500)', times.catchUp, events)}\n`);
} finally {
  await db.drop();
}
