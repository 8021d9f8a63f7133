/** /metrics (Prometheus text, prom-client) and the health probes (/healthz, /readyz, the lists' freshness). */
import type pg from 'pg';
import { Gauge, Registry } from 'prom-client';
import type { Config } from '../config/config';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { DeadLetterCounter } from '../infrastructure/bus/dead-letter';
import { presentListFreshness } from '../api/http/list-freshness';
import type { ListsInService } from './lists';
import type { Agents } from './agents';
import type { ReadSide } from './read-side';
import type { ApplicationServices } from './services';
import type { Telemetry } from '../infrastructure/telemetry/telemetry';

interface ProbeDeps {
  config: Config;
  telemetry: Telemetry;
  pool: pg.Pool;
  store: EventStore;
  deadLetters: DeadLetterCounter;
  lists: ListsInService;
  agents: Agents;
  readSide: ReadSide;
  services: ApplicationServices;
}

/**
 * GET /metrics: one prom-client registry per service (tests run several in one process), every value
 * read from the live parts at scrape time. No default process metrics: the names below are the ones
 * dashboards use.
 */
export function serviceMetrics({ readSide: { runner, relay }, lists, deadLetters, telemetry, agents: { supervisor }, services: { admission, personCheckAdmission, subjectCheckAdmission } }: ProbeDeps): () => Promise<string> {
  const registry = new Registry();
  const registers = [registry];
  new Gauge({
    name: 'svc_projection_lag_events',
    help: 'Events committed to the store that a read model has not processed yet.',
    labelNames: ['projection', 'status'],
    registers,
    async collect() {
      this.reset();
      for (const lag of runner ? await runner.lag() : []) this.set({ projection: lag.name, status: lag.status }, Number(lag.lag));
    },
  });
  gauge(registers, 'svc_relay_position', 'Global position of the last event the relay published to the bus.', () => Number(relay ? relay.position : 0n));
  new Gauge({
    name: 'svc_list_entities',
    help: 'Entities loaded per list version.',
    labelNames: ['list', 'version'],
    registers,
    collect() {
      this.reset();
      for (const v of lists.engine().versions) this.set({ list: v.source, version: v.id }, v.entityCount);
    },
  });
  deadLetters.registerMetrics(registry);
  telemetry.registerMetrics(registry);
  supervisor?.registerMetrics(registry);
  const inFlight = 'Screenings this process accepted that have not completed or failed yet (refused past svc_screenings_in_flight_limit).';
  gauge(registers, 'svc_screenings_in_flight', inFlight, () => admission.inFlight);
  gauge(registers, 'svc_screenings_in_flight_limit', 'Screenings accepted in flight before new ones are refused (MAX_INFLIGHT_SCREENINGS, 0 = no limit).', () => admission.limit);
  const checks = { person_check: personCheckAdmission, subject_check: subjectCheckAdmission };
  new Gauge({
    name: 'svc_checks_in_flight',
    help: 'Person and subject checks this process accepted whose pipeline has not ended (refused past svc_checks_in_flight_limit).',
    labelNames: ['kind'],
    registers,
    collect() {
      for (const [kind, admitted] of Object.entries(checks)) this.set({ kind }, admitted.inFlight);
    },
  });
  new Gauge({
    name: 'svc_checks_in_flight_limit',
    help: 'Person and subject checks accepted in flight before new ones are refused (0 = no limit).',
    labelNames: ['kind'],
    registers,
    collect() {
      for (const [kind, admitted] of Object.entries(checks)) this.set({ kind }, admitted.limit);
    },
  });
  gauge(registers, 'process_resident_memory_bytes', 'Resident set size of the service process.', () => process.memoryUsage.rss());
  gauge(registers, 'nodejs_heap_used_bytes', 'V8 heap in use (live objects and not yet collected garbage).', () => process.memoryUsage().heapUsed);
  gauge(registers, 'nodejs_heap_total_bytes', 'V8 heap reserved.', () => process.memoryUsage().heapTotal);
  gauge(registers, 'nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript objects, array buffers included.', () => {
    const memory = process.memoryUsage();
    return memory.external + memory.arrayBuffers;
  });
  return () => registry.metrics();
}

/** An unlabelled gauge whose value is read at each scrape. */
function gauge(registers: Registry[], name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers,
    collect() {
      this.set(read());
    },
  });
}

export function healthChecks({ config, pool, store, lists, readSide: { runner }, agents: { supervisor } }: ProbeDeps) {
  return {
    live: () => true,
    ready: async () => {
      const checks: Record<string, boolean> = {};
      checks.database = await pool.query('SELECT 1').then(() => true, () => false);
      checks.store = await store.readStream('$readiness-probe').then(() => true, () => false);
      checks.lists = lists.engine().versions.length > 0;
      // Unreachable database: not ready, with the failing checks named (not an error page).
      checks.projections = runner ? await runner.lag().then((lags) => lags.every((l) => l.status === 'running'), () => false) : true;
      const status = lists.status();
      const stale = status.filter((f) => f.stale);
      // Overdue work does not make the process unready (the supervisor is closing it): it is shown.
      return {
        ready: Object.values(checks).every(Boolean),
        checks,
        ...(stale.length ? { degraded: stale.map((f) => f.warning!) } : {}),
        ...(supervisor ? { overdue: supervisor.overdue() } : {}),
        detail: { lists_stale_policy: config.LISTS_STALE_POLICY, lists: status.map(presentListFreshness) },
      };
    },
    lists: () => ({ stale_policy: config.LISTS_STALE_POLICY, lists: lists.status().map(presentListFreshness) }),
  };
}
