/**
 * The composition root: the one place where adapters are chosen and everything is wired.
 * Embedded default: embedded PostgreSQL, PostgreSQL event store, in-process bus, bundled lists.
 * Scaled: DATABASE_URL, ESDB_URL and KAFKA_BROKERS select the real adapters.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import { systemClock, type Clock } from '../shared/clock';
import { PostmasterRunningError, startEmbeddedPostgres, type EmbeddedPostgres } from '../infrastructure/postgres/embedded';
import { removeDiscoveryFile, writeDiscoveryFile } from './operator-database';
import { createPool } from '../infrastructure/postgres/pool';
import { migrate } from '../infrastructure/postgres/migrate';
import type { EventStore } from '../infrastructure/eventstore/port';
import { PostgresEventStore } from '../infrastructure/eventstore/postgres/store';
import { EsdbEventStore } from '../infrastructure/eventstore/esdb/store';
import type { MessageBus } from '../infrastructure/bus/port';
import { InProcessBus } from '../infrastructure/bus/inprocess/inprocess-bus';
import { KafkaBus } from '../infrastructure/bus/kafka/kafka-bus';
import { DeadLetterCounter } from '../infrastructure/bus/dead-letter';
import { DeadLetterReplayer, PgDeadLetterTable } from '../infrastructure/bus/dead-letter-table';
import { AvroRegistry } from '../infrastructure/bus/avro';
import { EventRelay } from '../infrastructure/relay/relay';
import { ProjectionRunner } from '../projections/runner';
import type { Projection } from '../projections/projection';
import { accountsProjection } from '../projections/read-models/accounts';
import { apiKeysProjection } from '../projections/read-models/api-keys';
import { screeningsProjection } from '../projections/read-models/screenings';
import { createWebhookProjector } from '../webhooks/projector';
import { createWebhookDispatcher, type WebhookDispatcher } from '../webhooks/dispatcher';
import { createSecretBox, type SecretBox } from '../webhooks/secrets';
import { checkWebhookUrl } from '../webhooks/url-guard';
import { ListRegistry } from '../screening/lists/registry';
import { defaultListsConfig } from '../screening/lists/config';
import { listsFreshness, ListsStaleError, type FreshnessPolicy, type ListFreshness } from '../screening/lists/freshness';

import { ScreeningEngine } from '../screening/engine';
import type { CountryRisk } from '../screening/model';
import { createExternalSources } from '../agents/sources';
import { createAgentCatalog } from '../agents/catalog';
import { startAgentWorkers } from '../agents/runtime/worker';
import { ScreeningOrchestrator } from '../agents/orchestrator/screening-orchestrator';
import { analyseEdd, analyseMa, analyseSow, llmConfigFromEnv } from '../agents/analysis';
import { createHttpApp } from '../api/http/app';
import { presentListFreshness } from '../api/http/list-freshness';
import { createIdempotency } from '../api/http/idempotency';
import { PgIdempotencyStore } from './idempotency/idempotency-store';
import { ApiError } from '../api/http/errors';
import { createS1Gate, createS1Router, defaultS1MonthlyQuota } from '../api/s1/router';
import { buildOpenApiDocument } from '../api/openapi/registry';
import { registerOperations } from '../api/http/operations-openapi';
import { registerS1 } from '../api/s1/schemas';
import { createS3Gate, createS3Router } from '../api/s3/router';
import { S3_OFFSHORE_CHECKS_PER_MONTH, s3MonthlyRequestQuota } from '../api/s3/gate';
import { registerS3 } from '../api/s3/openapi';
import { createPaymentWebhookBodyReader, createPortalRouter, PORTAL_SESSION_SECONDS } from '../api/portal/router';
import { S3WebhookService } from '../api/portal/s3-webhook-service';
import { usageProjection } from '../projections/read-models/usage';
import type { DeliveryFinished } from '../webhooks/dispatcher';
import { DEV_JWT_SECRET as PORTAL_DEV_JWT_SECRET, JwtSessionService as PortalSessionService } from './sessions/session-service';
import { PgUsageService } from './usage/usage-service';
import { IdBlocks } from './ids';
import { PaymentService } from './payments/payment-service';
import { createSmtpMailer, unconfiguredMailer } from './payments/mailer';
import { sowDeclarationLoader } from './sow/sow-view';
import { createS2AccountRouter, createS2Gate, createS2Router } from '../api/s2/router';
import { registerS2 } from '../api/s2/schemas';
import { subjectChecksProjection } from '../projections/read-models/subject-checks';
import { SubjectCheckOrchestrator } from '../agents/orchestrator/subject-check-orchestrator';
import { PgSubjectCheckService } from './subject-checks/subject-check-service';
import { S2WebhookService } from './subject-checks/webhook-service';
import { DEV_JWT_SECRET, JwtSessionService } from './sessions/session-service';
import { PgLimitService } from './limits';
import { PgAccountService } from './accounts/account-service';
import { PgKeyService } from './keys/key-service';
import { CompletionNotifier, PgScreeningService } from './screenings/screening-service';
import { PgWorkQueue } from './screenings/work-queue';
import { pgAnalystNames } from './accounts/analyst-names';
import { PgPersonCheckService } from './person-checks/person-check-service';
import { personChecksProjection } from '../projections/read-models/person-checks';
import { PersonCheckOrchestrator } from '../agents/orchestrator/person-check-orchestrator';
import { WorkSupervisor } from '../agents/orchestrator/supervisor';
import { ScreeningAdmission } from './screenings/admission';
import { runningWorkQueries } from '../projections/read-models/running-work';
import { createPersonAgents } from '../agents/person/agents';
import { createS1PersonCheckRouter } from '../api/person-checks/router';
import { registerPersonChecks } from '../api/person-checks/schemas';
import type { ListVersionRef } from '../commands/screening';
import { fileURLToPath } from 'node:url';
import { createPortalAuthenticator } from '../api/portal/auth';
import { createPortalConsoleRouter } from '../api/portal/console';
import { createPersonCheckPortalRouter } from '../api/person-checks/router';
import { monitoringProjection } from '../projections/read-models/monitoring';
import { watchlistsProjection } from '../projections/read-models/watchlists';
import { WatchlistService } from './watchlists/watchlist-service';
import { WatchlistIndexCache } from './watchlists/watchlist-index';
import { catchUpLists, MonitoringService, recordMonitoringBaseline, type MonitoringRunResult } from './monitoring/monitoring-service';
import { AuditTrailService } from './audit/history';
import { AuditorTokens } from './audit/auditor-token';
import { createS1MonitoringRouter } from '../api/monitoring/s1-router';
import { createAuditHistoryRouter } from '../api/monitoring/history-router';
import { createS3MonitoringRouter } from '../api/monitoring/s3-router';
import { createS2MonitoringRouter } from '../api/monitoring/s2-router';
import { sendPortalData } from '../api/portal/auth';
import { registerMonitoringS1 } from '../api/monitoring/schemas';
import { registerMonitoringS3 } from '../api/monitoring/s3-openapi';
import { registerMonitoringS2 } from '../api/monitoring/s2-openapi';
import { PORTAL_AUDIT_BASE_PATH, registerPortal } from '../api/portal/openapi';
import { SubjectCheckMonitoring } from './monitoring/subject-check-monitoring';

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** Start the HTTP server (serve) or not (worker). */
  http: boolean;
  /** Agents this process runs: 'all', 'none', or names. */
  agents: 'all' | 'none' | string[];
  /** Run projections, the relay and the webhook dispatcher here (the API process does). */
  projections: boolean;
  /** Extra CA certificates the webhook dispatcher trusts (receivers with private certificates, tests). */
  webhookCa?: string | Buffer | Array<string | Buffer>;
}

export interface RunningService {
  config: Config;
  pool: pg.Pool;
  store: EventStore;
  bus: MessageBus;
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
  reloadLists(): Promise<Awaited<ReturnType<ListRegistry['loadAll']>>>;
  stop(): Promise<void>;
  /** Ongoing monitoring, dispositions and the auditor's services (docs/monitoring-and-audit.md). */
  monitoring?: {
    service: MonitoringService;
    /** S2 subject checks' enrolment and their share of list updates. */
    subjectChecks: SubjectCheckMonitoring;
    audit: AuditTrailService;
    auditorTokens: AuditorTokens;
    lists: ListRegistry;
    lastRuns: () => MonitoringRunResult[];
    /** Matches the delta of every list updated since it was last monitored (e.g. by `svc lists update`). */
    catchUp: () => Promise<MonitoringRunResult[]>;
  };
  /** S3 and portal services (usage, payments, the S3 webhook endpoint, portal sessions). */
  s3?: { usage: PgUsageService; payments: PaymentService; webhooks: S3WebhookService; portalSessions: PortalSessionService };
}

/** Every read model the API process keeps, in one list (the runner and `svc projections rebuild` share it). */
export function readModelProjections(clock: Clock, logger: Logger): Projection[] {
  return [
    accountsProjection,
    apiKeysProjection,
    screeningsProjection,
    usageProjection,
    subjectChecksProjection,
    personChecksProjection,
    monitoringProjection,
    watchlistsProjection,
    createWebhookProjector({ clock, logger }),
  ];
}

/**
 * Recent queries whose candidates the engine keeps: the four list agents of a screening ask for the
 * same name in turn, and a few hundred covers every screening in flight.
 */
const RECENT_QUERIES = 256;

const devSecret = 'embedded-development-secret-change-me-0123456789';

/**
 * A bus client for operator tools (`svc deadletters` in scaled mode): the Kafka cluster. The
 * embedded in-process bus lives inside the serving process; its dead letters are in the
 * dead_letters table (src/app/operator-database.ts opens it).
 */
export function openOperatorBus(config: Config, logger: Logger): MessageBus {
  if (!config.KAFKA_BROKERS) {
    throw new Error(
      'no Kafka to read svc.deadletter from (set KAFKA_BROKERS in scaled mode); the embedded in-process bus ' +
        'records its dead letters in the dead_letters table instead',
    );
  }
  return new KafkaBus({ brokers: config.KAFKA_BROKERS.split(','), clientId: `${config.KAFKA_CLIENT_ID}-operator`, logger });
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const env = options.env ?? process.env;
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        logger.error({ err: error }, 'error during shutdown');
      }
    }
  };

  try {
    // 1. PostgreSQL: external, or an embedded cluster under DATA_DIR.
    let connectionString = config.DATABASE_URL;
    let embedded: EmbeddedPostgres | undefined;
    if (!connectionString) {
      const dataDir = path.resolve(config.DATA_DIR, 'postgres');
      mkdirSync(path.dirname(dataDir), { recursive: true });
      try {
        embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, logger });
      } catch (error) {
        if (!(error instanceof PostmasterRunningError)) throw error;
        throw new Error(
          `a service already runs with DATA_DIR=${config.DATA_DIR} (its PostgreSQL is pid ${error.pid}): stop it first, or give this one ` +
            `another DATA_DIR; operator commands (svc accounts, audit, replay…) work beside it as they are`,
        );
      }
      stops.push(() => embedded!.stop());
      connectionString = embedded.url('postgres');
      logger.info({ port: embedded.port, dataDir }, 'embedded PostgreSQL started');
    }
    const pool = createPool({ connectionString, max: 20, logger, prepareStatements: config.PG_PREPARED_STATEMENTS });
    stops.push(() => pool.end());
    await migrate(pool, { logger });

    // 2. Event store and bus.
    const store: EventStore = config.ESDB_URL
      ? new EsdbEventStore({ connectionString: config.ESDB_URL, logger })
      : new PostgresEventStore({ pool, listenConnectionString: connectionString, pollIntervalMs: 500, minFenceIntervalMs: config.EVENTSTORE_FENCE_INTERVAL_MS, logger });
    stops.push(() => store.close());
    const deadLetters = new DeadLetterCounter();
    const busRetry = { maxAttempts: config.BUS_MAX_ATTEMPTS };
    const bus: MessageBus = config.KAFKA_BROKERS
      ? new KafkaBus({
          brokers: config.KAFKA_BROKERS.split(','),
          clientId: config.KAFKA_CLIENT_ID,
          logger,
          retry: busRetry,
          deadLetters,
          consumer: { sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS, heartbeatInterval: Math.floor(config.KAFKA_SESSION_TIMEOUT_MS / 10) },
        })
      : new InProcessBus({ logger, retry: busRetry, deadLetters, deadLetterSink: new PgDeadLetterTable(pool) });
    stops.push(() => bus.close());
    const registry = AvroRegistry.load();

    // 3. Lists and the screening engine.
    // List versions are kept on disk under DATA_DIR so auditors can re-run a screening against them.
    const listRegistry = new ListRegistry(
      defaultListsConfig({
        ...env,
        LISTS_DIR: config.LISTS_DIR,
        LISTS_DATA_DIR: env.LISTS_DATA_DIR ?? path.resolve(config.DATA_DIR, 'lists'),
        ...(config.OPENSANCTIONS_DIR ? { OPENSANCTIONS_DIR: config.OPENSANCTIONS_DIR } : {}),
      }),
    );
    const loaded = await listRegistry.loadAll({ progressBar: Boolean(process.stdout.isTTY) && config.NODE_ENV !== 'test' });
    for (const failure of loaded.failures) logger.error({ failure }, 'list failed to load: previous version (if any) stays in service');
    let engine = ScreeningEngine.build(loaded.entities, loaded.versions, { recentQueries: RECENT_QUERIES });
    let countryRisk: CountryRisk[] = loaded.countryRisk;
    logger.info({ entities: loaded.entities.length, lists: loaded.versions.map((v) => v.id) }, 'lists loaded');
    // How old each list is, by the injected clock; a stale list warns (or refuses, LISTS_STALE_POLICY).
    const freshnessPolicy: FreshnessPolicy = { sanctionsMaxAgeDays: config.LISTS_MAX_AGE_DAYS, perList: config.LISTS_MAX_AGE };
    const listStatus = () => listsFreshness(engine.versions, clock.now(), freshnessPolicy);
    const listGate = {
      assertUsable: () => {
        if (config.LISTS_STALE_POLICY !== 'refuse') return;
        const stale = listStatus().filter((f) => f.stale);
        if (stale.length) throw new ListsStaleError(stale);
      },
    };
    const listsInService = () => {
      const status = listStatus();
      return {
        lists_in_service: status.map((f) => ({ list: f.source, version: f.versionId, published_at: f.publishedAt, age_days: f.ageDays, max_age_days: f.maxAgeDays, stale: f.stale })),
        list_warnings: status.flatMap((f) => (f.warning ? [f.warning] : [])),
      };
    };
    const engineVersions = (): { listVersions: ListVersionRef[]; matcherVersion: string } => {
      const fresh = new Map(listStatus().map((f) => [f.versionId, f]));
      return {
        listVersions: engine.versions.map((v) => {
          const f = fresh.get(v.id)!;
          return {
            id: v.id,
            source: v.source,
            contentHash: v.contentHash,
            ...(v.publishedAt ? { publishedAt: v.publishedAt } : {}),
            ...(v.publishedAtSource ? { publishedAtSource: v.publishedAtSource } : {}),
            loadedAt: v.loadedAt,
            ...(f.ageDays !== null ? { ageDays: f.ageDays } : {}),
            ...(f.maxAgeDays !== null ? { maxAgeDays: f.maxAgeDays } : {}),
            stale: f.stale,
          };
        }),
        matcherVersion: engine.matcherVersion,
      };
    };

    const secrets: SecretBox = createSecretBox(config.SECRETS_KEY ?? devSecret);
    const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE;

    // 4. Agents and the process manager.
    const sources = createExternalSources(env);
    // The accounts' own lists, read from the watchlists read model and indexed per account (issue 21).
    const watchlistIndex = new WatchlistIndexCache({ watchlists: new WatchlistService({ store, pool, clock, readModelsCaughtUp: async () => {} }), store, now: () => clock.now() });
    const catalog = createAgentCatalog({
      internalLists: watchlistIndex,
      screener: () => engine,
      sources,
      hasPepList: () => engine.versions.some((v) => v.source === 'opensanctions_peps'),
      loadSowDeclaration: sowDeclarationLoader(store),
    });
    const agentLabels = Object.fromEntries([...catalog.values()].map((a) => [a.name, a.label]));
    const llm = llmConfigFromEnv(env);
    let supervisor: WorkSupervisor | undefined;
    if (options.agents !== 'none') {
      const wanted = options.agents === 'all' ? [...catalog.keys()] : options.agents;
      const unknown = wanted.filter((name) => !catalog.has(name));
      if (unknown.length) throw new Error(`unknown agents: ${unknown.join(', ')} (known: ${[...catalog.keys()].join(', ')})`);
      const workers = await startAgentWorkers({
        bus,
        registry,
        agents: wanted.map((name) => catalog.get(name)!),
        timeoutMs: config.AGENT_TIMEOUT_MS,
        clock,
        logger,
      });
      stops.push(() => workers.stop());
      const orchestrator = new ScreeningOrchestrator({
        store,
        bus,
        registry,
        clock,
        logger,
        remoteAgents: new Set([...catalog.values()].filter((a) => a.configured?.() !== false).map((a) => a.name)),
        localAgents: new Map([...catalog.values()].filter((a) => a.configured?.() === false).map((a) => [a.name, a])),
        finalisation: {
          countryRisk: () => countryRisk,
          sowScreener: () => engine,
          analyse: async (kind, report) => {
            const analyser = kind === 'edd' ? analyseEdd : kind === 'ma' ? analyseMa : analyseSow;
            const result = await analyser(report, { ...(llm ? { llm } : {}) });
            return { markdown: result.markdown, generatedBy: result.generatedBy };
          },
        },
        agentLabels,
        engineVersions,
        agentTimeoutMs: config.AGENT_TIMEOUT_MS,
        phaseDeadlineMs: config.PIPELINE_PHASE_DEADLINE_MS,
        retryBudget: config.PIPELINE_RETRY_BUDGET,
      });
      await orchestrator.start();
      stops.push(() => orchestrator.stop());
      const subjectCheckOrchestrator = new SubjectCheckOrchestrator({ store, bus, registry, clock, logger, agentTimeoutMs: config.AGENT_TIMEOUT_MS });
      await subjectCheckOrchestrator.start();
      stops.push(() => subjectCheckOrchestrator.stop());
      // Person checks: the seven phases run in this process, beside the engine their list agents use.
      const personCheckOrchestrator = new PersonCheckOrchestrator({
        store,
        bus,
        registry,
        clock,
        logger,
        agents: createPersonAgents({
          screener: () => engine,
          hasPepList: () => engine.versions.some((v) => v.source === 'opensanctions_peps'),
          env,
          newsSource: sources.find((s) => s.name === 'adverse_media_search'),
        }),
        agentTimeoutMs: config.AGENT_TIMEOUT_MS,
        stallDeadlineMs: config.PIPELINE_PHASE_DEADLINE_MS,
      });
      await personCheckOrchestrator.start();
      stops.push(() => personCheckOrchestrator.stop());

      // Nothing in flight stays running: phases past their deadline (recorded in the store) are
      // re-dispatched or closed with the data gap, after a crash as well as while running.
      const running = runningWorkQueries(pool);
      supervisor = new WorkSupervisor({
        clock,
        logger,
        intervalMs: config.SUPERVISOR_INTERVAL_MS,
        work: [
          { kind: 'screening', candidates: running.screenings, minAgeMs: config.PIPELINE_PHASE_DEADLINE_MS, supervise: (id) => orchestrator.supervise(id) },
          { kind: 'person_check', candidates: running.personChecks, minAgeMs: config.PIPELINE_PHASE_DEADLINE_MS, supervise: (id) => personCheckOrchestrator.supervise(id) },
          { kind: 'subject_check', candidates: running.subjectChecks, minAgeMs: config.AGENT_TIMEOUT_MS, supervise: (id) => subjectCheckOrchestrator.supervise(id) },
        ],
      });
      supervisor.start();
      stops.push(() => supervisor!.stop());
    }

    // 5. Relay, read models, webhooks (the API process).
    let runner: ProjectionRunner | undefined;
    let relay: EventRelay | undefined;
    let dispatcher: WebhookDispatcher | undefined;
    // Per-delivery outcomes feed the endpoint aggregates (S3: failure streak, auto-disable event).
    const deliveryHooks: ((finished: DeliveryFinished) => Promise<void>)[] = [];
    if (options.projections) {
      relay = new EventRelay({ store, bus, pool, registry, logger, pollIntervalMs: 500 });
      relay.start();
      stops.push(() => relay!.stop());
      runner = new ProjectionRunner({
        pool,
        store,
        projections: readModelProjections(clock, logger),
        logger,
        pollIntervalMs: 500,
      });
      await runner.start();
      stops.push(() => runner!.stop());
      dispatcher = createWebhookDispatcher({
        pool,
        clock,
        secrets,
        allowPrivate,
        logger,
        ...(options.webhookCa ? { ca: options.webhookCa } : {}),
        onDeliveryFinished: async (finished) => {
          for (const hook of deliveryHooks) await hook(finished).catch((err: unknown) => logger.error({ err, deliveryId: finished.deliveryId }, 'delivery outcome not recorded'));
        },
      });
      dispatcher.start(500);
      stops.push(() => dispatcher!.stop());
    }
    const readModelsCaughtUp = async (through?: bigint) => {
      if (runner) await runner.applied(through);
    };

    const notifier = new CompletionNotifier(store as EventStore & { headPosition?: () => Promise<bigint> });
    await notifier.start();
    stops.push(() => notifier.stop());

    const limits = new PgLimitService(pool, clock);
    const accounts = new PgAccountService({ store, pool, clock, readModelsCaughtUp });
    const keys = new PgKeyService({
      store,
      pool,
      clock,
      secrets,
      readModelsCaughtUp,
      checkWebhookUrl: async (url) => {
        // Refuse before anything is stored: https only, no private/loopback/metadata addresses.
        const checked = await checkWebhookUrl(url, { allowPrivate });
        if (!checked.ok) throw new ApiError('validation', `webhook_url: ${checked.error.message}`, { errors: [`webhook_url: ${checked.error.message}`] });
      },
    });
    const ids = new IdBlocks(pool);
    const subjectChecks = new PgSubjectCheckService({ store, pool, clock, readModelsCaughtUp, ids, listGate, listsInService });
    const s2Webhooks = new S2WebhookService({ store, pool, clock, secrets, allowPrivate, readModelsCaughtUp });
    // S2 session cookies (auth_token): 12 h.
    const sessions = new JwtSessionService({ pool, clock, secret: config.JWT_SECRET ?? DEV_JWT_SECRET, audience: 's2_session', lifetimeSeconds: 12 * 3600 });
    const personChecks = new PgPersonCheckService({ store, pool, clock, readModelsCaughtUp, listGate, listsInService });
    const analystNames = pgAnalystNames(pool);
    // Backpressure: a bounded number of screenings in flight per process (MAX_INFLIGHT_SCREENINGS).
    const admission = new ScreeningAdmission({ limit: config.MAX_INFLIGHT_SCREENINGS, clock });
    notifier.onEnd((stream) => admission.ended(stream));
    const screenings = new PgScreeningService({
      analystNames,
      store,
      pool,
      clock,
      notifier,
      admission,
      ids,
      reportContext: () => ({ agentLabels, matcherVersion: engine.matcherVersion }),
      readModelsCaughtUp,
      listGate,
    });

    // Ongoing monitoring, dispositions, the auditor's history and auditor tokens (S1 keys carry no role).
    // S2 subject checks take part in the same list-update monitoring (their own index and tables).
    const subjectCheckMonitoring = new SubjectCheckMonitoring({ store, pool, clock, logger });
    const monitoring = new MonitoringService({ store, pool, clock, logger, countryRisk: () => countryRisk, readModelsCaughtUp, subjectChecks: subjectCheckMonitoring });
    const audit = new AuditTrailService({ store });
    const watchlists = new WatchlistService({ store, pool, clock, readModelsCaughtUp });
    const auditorTokens = new AuditorTokens({ secret: config.JWT_SECRET ?? DEV_JWT_SECRET, clock, accounts });
    let lastMonitoringRuns: MonitoringRunResult[] = [];
    await recordMonitoringBaseline(pool, listRegistry, clock);
    if (options.projections) {
      // Lists updated while the service was down (or by `svc lists update`): their deltas are matched now, in the background.
      const startupCatchUp = catchUpLists(monitoring, { pool, lists: listRegistry, engine, clock, logger }).then(
        (runs) => {
          if (runs.length) lastMonitoringRuns = runs;
        },
        (err: unknown) => logger.error({ err }, 'monitoring catch-up at start failed'),
      );
      stops.push(() => startupCatchUp);
    }

    // S3 (X-API-Key), the portal (JWT, 7 days) and payment-provider events.
    const usage = new PgUsageService({
      pool,
      clock,
      keys,
      limits,
      monthlyQuota: s3MonthlyRequestQuota,
      offshoreChecksPerMonth: (plan) => (plan === 'enterprise' ? S3_OFFSHORE_CHECKS_PER_MONTH : null),
      readModelsCaughtUp,
    });
    const portalSessions = new PortalSessionService({ pool, clock, secret: config.JWT_SECRET ?? PORTAL_DEV_JWT_SECRET, audience: 'portal', lifetimeSeconds: PORTAL_SESSION_SECONDS });
    const portalAuth = createPortalAuthenticator({ sessions: portalSessions, accounts });
    const s3Webhooks = new S3WebhookService({ store, pool, clock, secrets, allowPrivate, readModelsCaughtUp });
    deliveryHooks.push((finished) => s3Webhooks.recordDeliveryFinished(finished));
    const payments = new PaymentService({
      store,
      pool,
      clock,
      readModelsCaughtUp,
      mailer: config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) : unconfiguredMailer,
    });

    // 6. HTTP.
    let server: Server | undefined;
    let url: string | undefined;
    if (options.http) {
      const openApi = (() => {
        let cached: object | undefined;
        return () => (cached ??= buildOpenApiDocument([registerS1, registerS3, registerS2, registerPersonChecks, registerMonitoringS1, registerMonitoringS3, registerMonitoringS2, registerPortal, registerOperations]));
      })();
      // Idempotency-Key on every create route: one store, one middleware, each surface's envelope. The
      // lease outlasts the longest create answer (a screening waits up to SCREENING_WAIT_MS).
      const idempotencyStore = new PgIdempotencyStore(pool);
      const idempotent = createIdempotency({ store: idempotencyStore, clock, leaseMs: Math.max(60_000, 2 * config.SCREENING_WAIT_MS) });
      // Records past their 24 h are already ignored; the hourly sweep keeps the table small.
      const idempotencySweep = setInterval(() => {
        idempotencyStore.sweep(clock.now()).catch((err: unknown) => logger.warn({ err }, 'idempotency sweep failed'));
      }, 3_600_000);
      idempotencySweep.unref();
      stops.push(async () => clearInterval(idempotencySweep));
      const app = createHttpApp({
        logger,
        // The portal's built assets (web/dist: `npm run build:web`, run by `npm start` and the tests).
        staticDir: fileURLToPath(new URL('../../web/dist', import.meta.url)),
        // Authenticate and rate-limit S1 before the body is parsed: a broken or huge body still counts.
        beforeBody: [createS1Gate({ keys, limits }), createS3Gate({ keys, limits, clock }), createPaymentWebhookBodyReader(), createS2Gate({ keys, sessions, accounts })],
        metrics: async () => {
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
          for (const v of engine.versions) lines.push(`svc_list_entities{list="${v.source}",version="${v.id}"} ${v.entityCount}`);
          lines.push(...deadLetters.metricLines());
          if (supervisor) lines.push(...supervisor.metricLines());
          lines.push(
            '# HELP svc_screenings_in_flight Screenings this process accepted that have not completed or failed yet (refused past svc_screenings_in_flight_limit).',
            '# TYPE svc_screenings_in_flight gauge',
            `svc_screenings_in_flight ${admission.inFlight}`,
            '# TYPE svc_screenings_in_flight_limit gauge',
            `svc_screenings_in_flight_limit ${admission.limit}`,
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
        },
        health: {
          live: () => true,
          ready: async () => {
            const checks: Record<string, boolean> = {};
            checks.database = await pool.query('SELECT 1').then(() => true, () => false);
            checks.store = await store.readStream('$readiness-probe').then(() => true, () => false);
            checks.lists = engine.versions.length > 0;
            // Unreachable database: not ready, with the failing checks named (not an error page).
            checks.projections = runner ? await runner.lag().then((lags) => lags.every((l) => l.status === 'running'), () => false) : true;
            const lists = listStatus();
            const stale = lists.filter((f) => f.stale);
            // Overdue work does not make the process unready (the supervisor is closing it): it is shown.
            return {
              ready: Object.values(checks).every(Boolean),
              checks,
              ...(stale.length ? { degraded: stale.map((f) => f.warning!) } : {}),
              ...(supervisor ? { overdue: supervisor.overdue() } : {}),
              detail: { lists_stale_policy: config.LISTS_STALE_POLICY, lists: lists.map(presentListFreshness) },
            };
          },
          lists: () => ({ stale_policy: config.LISTS_STALE_POLICY, lists: listStatus().map(presentListFreshness) }),
        },
        routers: [
          createS1Router({
            keys,
            limits,
            screenings,
            clock,
            config: { screeningWaitMs: config.SCREENING_WAIT_MS, monthlyQuota: defaultS1MonthlyQuota },
            openApiDocument: openApi,
            idempotent,
          }),
          createS1MonitoringRouter({ monitoring, audit, auditorTokens }),
          createS3Router({ keys, limits, screenings, usage, store, clock, idempotent, watchlists, config: { screeningWaitMs: config.SCREENING_WAIT_MS, watchlistImportMaxBytes: config.WATCHLIST_IMPORT_MAX_BYTES } }),
          createS3MonitoringRouter({ monitoring, audit, auditorTokens, screenings, clock }),
          createPortalRouter({ accounts, limits, sessions: portalSessions, webhooks: s3Webhooks, payments, clock, logger, paymentWebhookSecret: config.PAYMENT_WEBHOOK_SECRET }),
          // The portal's console API (/api/portal/*) and person-check form routes, both on the portal JWT.
          createPortalConsoleRouter({
            auth: portalAuth,
            idempotent,
            watchlists,
            watchlistImportMaxBytes: config.WATCHLIST_IMPORT_MAX_BYTES,
            accounts,
            keys,
            limits,
            screenings,
            store,
            pool,
            clock,
            secrets,
            allowPrivate,
            readModelsCaughtUp,
            s2Webhooks,
            s3Webhooks,
            subjectChecks,
            personChecks: true,
            workQueue: new PgWorkQueue(pool),
            sourceStatus: {
              lists: () => listStatus().map((f) => ({ ...f, entityCount: engine.versions.find((v) => v.id === f.versionId)?.entityCount ?? 0 })),
              agents: () =>
                [...catalog.values()].map((a) => ({ name: a.name, label: a.label, configured: a.configured?.() !== false, ...(a.enableWith ? { enableWith: a.enableWith } : {}) })),
            },
            analystNames,
            // The analyst on a portal disposition is the signed-in user.
            dispositions: {
              disposition: (principal, input, ctx) =>
                monitoring.disposition(
                  principal,
                  { screeningId: input.screeningId, hitId: input.hitId, disposition: input.status, reason: input.reason, analyst: principal.userId ? `user:${principal.userId}` : `account-${principal.accountId}` },
                  ctx,
                ),
            },
            s1MonthlyQuota: defaultS1MonthlyQuota,
            s3MonthlyQuota: s3MonthlyRequestQuota,
            agentLabels,
          }),
          createPersonCheckPortalRouter({ personChecks, idempotent, authenticate: (req) => portalAuth.authenticate(req), waitMs: config.SCREENING_WAIT_MS }),
          // The auditor's event history on the portal: a signed-in user whose account role is auditor.
          createAuditHistoryRouter({ audit, basePath: PORTAL_AUDIT_BASE_PATH, principalOf: (req, res) => portalAuth.require(req, res), present: (res, body) => sendPortalData(res, 200, body, clock.now()) }),
          createS1PersonCheckRouter({ personChecks, idempotent, waitMs: config.SCREENING_WAIT_MS }),
          createS2MonitoringRouter({ audit, auditorTokens, subjectChecks: subjectCheckMonitoring }),
          createS2Router({ keys, limits, accounts, sessions, subjectChecks, webhooks: s2Webhooks, clock, idempotent }),
          createS2AccountRouter({ keys, limits, accounts, sessions, subjectChecks, webhooks: s2Webhooks, clock, idempotent }),
        ],
      });
      server = await new Promise<Server>((resolve, reject) => {
        const s = app.listen(config.PORT, config.HOST, () => resolve(s));
        s.once('error', reject);
      });
      const address = server.address();
      url = typeof address === 'object' && address ? `http://${config.HOST}:${address.port}` : undefined;
      stops.push(
        () =>
          new Promise<void>((resolve) => {
            // In-flight requests finish; idle keep-alive sockets are closed.
            server!.close(() => resolve());
            server!.closeIdleConnections();
          }),
      );
      logger.info({ url }, 'HTTP server listening');
    }

    // Operator commands beside this process find its database here (src/app/operator-database.ts).
    if (embedded && options.http) {
      writeDiscoveryFile(config.DATA_DIR, {
        pid: process.pid,
        databaseUrl: embedded.url('postgres'),
        ...(url ? { httpUrl: url } : {}),
        startedAt: clock.now().toISOString(),
      });
      stops.push(async () => removeDiscoveryFile(config.DATA_DIR));
    }

    // 7. Replays of the embedded default's dead letters, requested by `svc deadletters replay` in the
    //    table, published on this process's in-process bus (only where its consumers run, last so
    //    that they have subscribed).
    if (!config.KAFKA_BROKERS && (options.http || options.agents !== 'none')) {
      const replayer = new DeadLetterReplayer({ table: new PgDeadLetterTable(pool), bus, logger });
      replayer.start();
      stops.push(() => replayer.stop());
    }

    return {
      config,
      pool,
      store,
      bus,
      engine: () => engine,
      runner,
      relay,
      dispatcher,
      server,
      url,
      services: { accounts, keys, screenings, limits, subjectChecks, sessions, personChecks },
      s3: { usage, payments, webhooks: s3Webhooks, portalSessions },
      monitoring: {
        service: monitoring,
        subjectChecks: subjectCheckMonitoring,
        audit,
        auditorTokens,
        lists: listRegistry,
        lastRuns: () => lastMonitoringRuns,
        catchUp: async () => {
          const runs = await catchUpLists(monitoring, { pool, lists: listRegistry, engine, clock, logger });
          if (runs.length) lastMonitoringRuns = runs;
          return runs;
        },
      },
      stop: stopAll,
      reloadLists: async () => {
        // Keep the versions in service in memory until their deltas are computed (monitoring).
        const previous = listRegistry.currentVersions();
        const releases = previous.map((v) => listRegistry.retain(v.id));
        try {
          const result = await listRegistry.loadAll({ progressBar: false });
          engine = ScreeningEngine.build(result.entities, result.versions, { recentQueries: RECENT_QUERIES });
          countryRisk = result.countryRisk;
          // Each list whose version changed since it was last monitored: only its delta is matched.
          lastMonitoringRuns = await catchUpLists(monitoring, { pool, lists: listRegistry, engine, clock, logger });
          return result;
        } finally {
          for (const release of releases) release();
        }
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
