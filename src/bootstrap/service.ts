/**
 * The composition root: the one place where adapters are chosen and everything is wired.
 * Embedded default: embedded PostgreSQL, PostgreSQL event store, in-process bus, bundled lists.
 * Scaled: DATABASE_URL, ESDB_URL and KAFKA_BROKERS select the real adapters.
 * `startService` is the list of wiring steps; each step is one module of src/bootstrap (docs/architecture.md).
 */
import type { Server } from 'node:http';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import { systemClock, type Clock } from '../shared/clock';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { MessageBus } from '../infrastructure/bus/port';
import type { EventRelay } from '../infrastructure/relay/relay';
import type { ProjectionRunner } from '../projections/runner';
import type { WebhookDispatcher } from '../webhooks/dispatcher';
import type { ScreeningEngine } from '../screening/engine';
import type { PgAccountService } from '../app/accounts/account-service';
import type { PgKeyService } from '../app/keys/key-service';
import type { PgScreeningService } from '../app/screenings/screening-service';
import type { PgLimitService } from '../app/limits';
import type { PgSubjectCheckService } from '../app/subject-checks/subject-check-service';
import type { JwtSessionService } from '../app/sessions/session-service';
import type { PgPersonCheckService } from '../app/person-checks/person-check-service';
import { Stops } from './lifecycle';
import { startStorage } from './storage';
import { startBus, startDeadLetterReplays } from './bus';
import { loadLists, type LoadResult } from './lists';
import { watchlistVersionId } from '../screening/watchlists/model';
import { startAgents } from './agents';
import { startReadSide, webhookSecrets } from './read-side';
import { createApplicationServices } from './services';
import { startMonitoring, startWatchlistMonitoring, type Monitoring } from './monitoring';
import { createPortalServices, type PortalServices } from './portal';
import { startHttp } from './http';
import { publishDiscovery } from './operator-database';
import { startTelemetry } from './telemetry';
import { tracedEventStore } from '../infrastructure/telemetry/traced-store';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Telemetry } from '../infrastructure/telemetry/telemetry';

export { readModelProjections } from './read-side';
export { openOperatorBus } from './bus';

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Start the HTTP server (serve) or not (worker). */
  http: boolean;
  /** Agents this process runs: 'all', 'none', or names. */
  agents: 'all' | 'none' | string[];
  /**
   * Run the process managers (workflows) and the supervisor beside the agents (default true). A worker
   * of slow outside sources runs without them (`svc worker --no-workflows`): its one consumer then never
   * holds a workflow step behind an outside call (src/agents/worker-consumer.ts).
   */
  workflows?: boolean;
  /** Run projections, the relay and the webhook dispatcher here (the API process does). */
  projections: boolean;
  /** Extra CA certificates the webhook dispatcher trusts (receivers with private certificates, tests). */
  webhookCa?: string | Buffer | Array<string | Buffer>;
  /** Spans go to this exporter (tracing on) instead of TRACING_OTLP_ENDPOINT: tests and benches. */
  spanExporter?: SpanExporter;
}

export interface RunningService {
  config: Config;
  pool: pg.Pool;
  store: EventStore;
  bus: MessageBus;
  telemetry: Telemetry;
  engine: () => ScreeningEngine;
  runner: ProjectionRunner | undefined;
  relay: EventRelay | undefined;
  dispatcher: WebhookDispatcher | undefined;
  server: Server | undefined;
  /** Bound address of the HTTP server. */
  url: string | undefined;
  services: {
    accounts: PgAccountService;
    keys: PgKeyService;
    screenings: PgScreeningService;
    limits: PgLimitService;
    subjectChecks: PgSubjectCheckService;
    sessions: JwtSessionService;
    personChecks: PgPersonCheckService;
  };
  /** Reloads every list, swaps the engine in service and runs monitoring on the deltas. */
  reloadLists(): Promise<LoadResult>;
  stop(): Promise<void>;
  /** Ongoing monitoring, dispositions and the auditor's services (docs/monitoring-and-audit.md). */
  monitoring?: Monitoring;
  /** S3 and portal services (usage, payments, the S3 webhook endpoint, portal sessions). */
  s3?: PortalServices;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const stops = new Stops(logger);
  try {
    const telemetry = startTelemetry(config, clock, { defaultServiceName: options.http ? 'svc-serve' : 'svc-worker', ...(options.spanExporter ? { spanExporter: options.spanExporter } : {}) }, stops);
    const storage = await startStorage(config, logger, stops);
    const { pool, embedded } = storage;
    const store = tracedEventStore(storage.store, telemetry);
    const { bus, deadLetters, registry } = startBus(config, logger, clock, pool, stops);
    const lists = await loadLists(config, logger, clock);
    const secrets = webhookSecrets(config);
    const base = { config, logger, clock, pool, store, bus, registry, secrets, lists, stops, telemetry };
    const agents = await startAgents(base, options.agents, { workflows: options.workflows ?? true });
    const readSide = await startReadSide({ ...base, ...(options.webhookCa ? { webhookCa: options.webhookCa } : {}) }, options.projections);
    const { readModelsCaughtUp } = readSide;
    if (readSide.runner) agents.watchlistVersions.follow(readSide.runner);
    // Its passes read the running-work read models: on a new database they exist only from here on.
    agents.supervisor?.start();
    const personCheckLists = {
      activeInternalLists: async (accountId: string) => (await agents.watchlistVersions.activeVersions(accountId)).map((v) => watchlistVersionId(v.id, v.version)),
      heldDocuments: agents.heldDocuments,
    };
    const services = await createApplicationServices({ ...base, agentLabels: agents.agentLabels, readModelsCaughtUp, followCompletions: options.http, personCheckLists });
    const monitoring = await startMonitoring({ ...base, accounts: services.accounts, readModelsCaughtUp }, options.projections);
    if (options.projections) await startWatchlistMonitoring({ ...base, readModelsCaughtUp }, monitoring.service, services.watchlists);
    const portal = createPortalServices({ ...base, services, readSide });
    const http = options.http ? await startHttp({ ...base, deadLetters, agents, readSide, services, monitoring, portal }) : undefined;
    if (embedded && options.http) publishDiscovery(config.DATA_DIR, embedded.url('postgres'), http?.url, clock, stops);
    startDeadLetterReplays(config, logger, pool, bus, options.http || options.agents !== 'none', stops);
    const { accounts, keys, screenings, limits, subjectChecks, sessions, personChecks } = services;
    return {
      config,
      pool,
      store,
      bus,
      telemetry,
      engine: () => lists.engine(),
      runner: readSide.runner,
      relay: readSide.relay,
      dispatcher: readSide.dispatcher,
      server: http?.server,
      url: http?.url,
      services: { accounts, keys, screenings, limits, subjectChecks, sessions, personChecks },
      s3: portal,
      monitoring,
      stop: () => stops.stopAll(),
      reloadLists: () => monitoring.reloadLists(),
    };
  } catch (error) {
    await stops.stopAll();
    throw error;
  }
}
