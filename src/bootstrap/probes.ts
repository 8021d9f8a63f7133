/** /metrics (Prometheus text) and the health probes (/healthz, /readyz, the lists' freshness). */
import type pg from 'pg';
import type { Config } from '../config/config';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { DeadLetterCounter } from '../infrastructure/bus/dead-letter';
import { presentListFreshness } from '../api/http/list-freshness';
import type { ListsInService } from './lists';
import type { Agents } from './agents';
import type { ReadSide } from './read-side';
import type { ApplicationServices } from './services';

interface ProbeDeps {
  config: Config;
  pool: pg.Pool;
  store: EventStore;
  deadLetters: DeadLetterCounter;
  lists: ListsInService;
  agents: Agents;
  readSide: ReadSide;
  services: ApplicationServices;
}

export async function metricsText({ readSide: { runner, relay }, lists, deadLetters, agents: { supervisor }, services: { admission, personCheckAdmission, subjectCheckAdmission } }: ProbeDeps): Promise<string> {
  const lines: string[] = [
    '# HELP svc_projection_lag_events Events committed to the store that a read model has not processed yet.',
    '# TYPE svc_projection_lag_events gauge',
  ];
  for (const lag of runner ? await runner.lag() : []) {
    lines.push(`svc_projection_lag_events{projection="${lag.name}",status="${lag.status}"} ${lag.lag}`);
  }
  lines.push('# HELP svc_relay_position Global position of the last event the relay published to the bus.', '# TYPE svc_relay_position gauge');
  lines.push(`svc_relay_position ${relay ? relay.position : 0n}`);
  lines.push('# HELP svc_list_entities Entities loaded per list version.', '# TYPE svc_list_entities gauge');
  for (const v of lists.engine().versions) lines.push(`svc_list_entities{list="${v.source}",version="${v.id}"} ${v.entityCount}`);
  lines.push(...deadLetters.metricLines());
  if (supervisor) lines.push(...supervisor.metricLines());
  lines.push(
    '# HELP svc_screenings_in_flight Screenings this process accepted that have not completed or failed yet (refused past svc_screenings_in_flight_limit).',
    '# TYPE svc_screenings_in_flight gauge',
    `svc_screenings_in_flight ${admission.inFlight}`,
    '# TYPE svc_screenings_in_flight_limit gauge',
    `svc_screenings_in_flight_limit ${admission.limit}`,
    '# HELP svc_checks_in_flight Person and subject checks this process accepted whose pipeline has not ended (refused past svc_checks_in_flight_limit).',
    '# TYPE svc_checks_in_flight gauge',
    `svc_checks_in_flight{kind="person_check"} ${personCheckAdmission.inFlight}`,
    `svc_checks_in_flight{kind="subject_check"} ${subjectCheckAdmission.inFlight}`,
    '# TYPE svc_checks_in_flight_limit gauge',
    `svc_checks_in_flight_limit{kind="person_check"} ${personCheckAdmission.limit}`,
    `svc_checks_in_flight_limit{kind="subject_check"} ${subjectCheckAdmission.limit}`,
  );
  const memory = process.memoryUsage();
  lines.push(
    '# HELP process_resident_memory_bytes Resident set size of the service process.',
    '# TYPE process_resident_memory_bytes gauge',
    `process_resident_memory_bytes ${memory.rss}`,
    '# HELP nodejs_heap_used_bytes V8 heap in use (live objects and not yet collected garbage).',
    '# TYPE nodejs_heap_used_bytes gauge',
    `nodejs_heap_used_bytes ${memory.heapUsed}`,
    '# TYPE nodejs_heap_total_bytes gauge',
    `nodejs_heap_total_bytes ${memory.heapTotal}`,
    '# TYPE nodejs_external_memory_bytes gauge',
    `nodejs_external_memory_bytes ${memory.external + memory.arrayBuffers}`,
  );
  return `${lines.join('\n')}\n`;
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
