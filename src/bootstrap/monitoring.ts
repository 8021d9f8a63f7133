/**
 * Ongoing monitoring, dispositions, the auditor's history and auditor tokens (S1 keys carry no role).
 * S2 subject checks take part in the same list-update monitoring (their own index and tables).
 */
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import type { Clock } from '../shared/clock';
import type { EventStore } from '../infrastructure/eventstore/port';
import { catchUpLists, MonitoringService, recordMonitoringBaseline, type MonitoringRunResult } from '../app/monitoring/monitoring-service';
import { SubjectCheckMonitoring } from '../app/monitoring/subject-check-monitoring';
import { AuditTrailService } from '../app/audit/history';
import { AuditorTokens } from '../app/audit/auditor-token';
import { DEV_JWT_SECRET } from '../app/sessions/session-service';
import type { PgAccountService } from '../app/accounts/account-service';
import type { ListRegistry } from '../screening/lists/registry';
import type { ListsInService, LoadResult } from './lists';
import type { Stops } from './lifecycle';
import { WatchlistMonitoringProcess } from '../app/watchlists/watchlist-monitoring-process';
import { WatchlistMonitoring } from '../app/watchlists/watchlist-monitoring';
import type { WatchlistService } from '../app/watchlists/watchlist-service';

export interface MonitoringDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  pool: pg.Pool;
  store: EventStore;
  lists: ListsInService;
  accounts: PgAccountService;
  readModelsCaughtUp: (through?: bigint) => Promise<void>;
  stops: Stops;
}

export interface Monitoring {
  service: MonitoringService;
  /** S2 subject checks' enrolment and their share of list updates. */
  subjectChecks: SubjectCheckMonitoring;
  audit: AuditTrailService;
  auditorTokens: AuditorTokens;
  lists: ListRegistry;
  lastRuns: () => MonitoringRunResult[];
  /** Matches the delta of every list updated since it was last monitored (e.g. by `svc lists update`). */
  catchUp: () => Promise<MonitoringRunResult[]>;
}

export interface MonitoringWiring extends Monitoring {
  /** Reloads every list, swaps the engine in service and runs monitoring on the deltas. */
  reloadLists(): Promise<LoadResult>;
}

/** Starts monitoring; where the read side runs here, lists updated while the service was down are matched now, in the background. */
export async function startMonitoring(deps: MonitoringDeps, catchUpAtStart: boolean): Promise<MonitoringWiring> {
  const { config, logger, clock, pool, store, lists } = deps;
  const subjectChecks = new SubjectCheckMonitoring({ store, pool, clock, logger });
  const service = new MonitoringService({ store, pool, clock, logger, countryRisk: () => lists.countryRisk(), readModelsCaughtUp: deps.readModelsCaughtUp, subjectChecks });
  const audit = new AuditTrailService({ store });
  const auditorTokens = new AuditorTokens({ secret: config.JWT_SECRET ?? DEV_JWT_SECRET, clock, accounts: deps.accounts });
  let lastRuns: MonitoringRunResult[] = [];
  const catchUp = async () => {
    const runs = await catchUpLists(service, { pool, lists: lists.registry, engine: lists.engine(), clock, logger });
    if (runs.length) lastRuns = runs;
    return runs;
  };
  await recordMonitoringBaseline(pool, lists.registry, clock);
  if (catchUpAtStart) {
    const startupCatchUp = catchUp().then(
      () => undefined,
      (err: unknown) => logger.error({ err }, 'monitoring catch-up at start failed'),
    );
    deps.stops.push(() => startupCatchUp);
  }
  const reloadLists = async (): Promise<LoadResult> => {
    // Keep the versions in service in memory until their deltas are computed (monitoring).
    const releases = lists.registry.currentVersions().map((v) => lists.registry.retain(v.id));
    try {
      const result = await lists.reload();
      // Each list whose version changed since it was last monitored: only its delta is matched.
      lastRuns = await catchUpLists(service, { pool, lists: lists.registry, engine: lists.engine(), clock, logger });
      return result;
    } finally {
      for (const release of releases) release();
    }
  };
  return { service, subjectChecks, audit, auditorTokens, lists: lists.registry, lastRuns: () => lastRuns, catchUp, reloadLists };
}

/**
 * A change to an account's own list reverse-matches that account's monitored subjects (issue 21): a
 * process manager on the store, where the read side runs; the API waits for it (bounded) after a change.
 */
export async function startWatchlistMonitoring(
  deps: Pick<MonitoringDeps, 'logger' | 'clock' | 'pool' | 'store' | 'readModelsCaughtUp' | 'stops'>,
  monitoring: MonitoringService,
  watchlists: WatchlistService,
): Promise<void> {
  const { logger, clock, pool, store, readModelsCaughtUp, stops } = deps;
  const process = new WatchlistMonitoringProcess({
    store,
    pool,
    monitoring: new WatchlistMonitoring({ store, monitoring, now: () => clock.now() }),
    readModelsCaughtUp,
    logger,
  });
  await process.start();
  stops.push(() => process.stop());
  watchlists.onChange((_accountId, _watchlistId, _events, position) => process.caughtUp(position));
}
