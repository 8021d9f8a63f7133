import { z } from 'zod';

/**
 * Every environment variable the service reads, validated once at start-up.
 * A bad value gives one clear line naming the variable (see formatConfigError) and a non-zero exit.
 * docker-compose.yml may only set variables listed here (a test checks it).
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** HTTP listen port of the API and portal. */
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Where the embedded default keeps its PostgreSQL cluster, list versions and downloads. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL of the scaled mode. Unset: an embedded PostgreSQL is started under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Port of the embedded PostgreSQL (0 = any free port). */
  EMBEDDED_PG_PORT: port.default(0),
  /** Comma-separated Kafka brokers of the scaled mode. Unset: the in-process bus. */
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+(,[^,\s]+)*$/, 'comma-separated host:port list')
    .optional(),
  KAFKA_CLIENT_ID: z.string().min(1).default('svc'),
  /**
   * Consumer-group session timeout (ms): how long the group waits for a member that stopped
   * heartbeating (a killed worker) before its partitions go to the others. Heartbeats are sent every
   * tenth of it. Lower: faster failover, but a long GC pause or a busy core can look like a death.
   */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /**
   * How long a connection to a broker may take to open (ms) before kafkajs counts a failed attempt
   * (it retries five times, backing off, then the process stops). kafkajs's own default, 1 s, is
   * shorter than a busy host's start-up pause: a worker parsing its lists while it connects timed out
   * and, on a loaded 2-core machine, ran out of retries. 10 s is the Java client's setup timeout.
   */
  KAFKA_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Longest time a broker may hold a consumer's fetch that finds no message (ms). A Kafka broker
   * answers as soon as a message arrives, so this only spaces the fetches of idle topics (the Java
   * client's default, 500). librdkafka's mock broker holds an empty fetch for the whole wait even when
   * a message arrives meanwhile: the tests and benches on it set 10 (docs/scaling.md).
   */
  KAFKA_FETCH_MAX_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(500),
  /**
   * Partitions of one consumer handled at the same time (each in order). A handler waits on PostgreSQL
   * and the broker; several partitions at once keep a worker busy while one waits.
   */
  KAFKA_PARTITIONS_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /**
   * Failed handler attempts (not counting connection errors) after which a bus consumer publishes the
   * message to the dead-letter topic svc.deadletter and moves on (docs/operations.md).
   */
  BUS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(5),
  /**
   * OpenTelemetry traces (docs/operations.md, Tracing): the OTLP/HTTP traces endpoint of a collector,
   * e.g. http://otel-collector:4318/v1/traces. Unset: tracing is off (the hop histograms of /metrics
   * stay on; a hop then costs two timer reads and an observation).
   */
  TRACING_OTLP_ENDPOINT: z.string().url().optional(),
  /** Share of new traces kept, 0 to 1 (a trace begun elsewhere follows its parent's decision). */
  TRACING_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
  /** service.name of this process's spans (default svc-serve, or svc-worker for `svc worker`). */
  TRACING_SERVICE_NAME: z.string().min(1).max(100).optional(),
  /** EventStoreDB/KurrentDB connection string. Unset: the PostgreSQL event store. */
  ESDB_URL: z.string().min(1).optional(),
  /**
   * Minimum spacing of the PostgreSQL event store's read fences (ms). Lower: subscriptions see new
   * events sooner (latency); higher: fewer pauses for concurrent writers. Live subscribers share one
   * fence per read (the store's tail), so 1 ms costs little: bench/http.ts measured the median at 1
   * client 30 -> 22 ms going from 5 to 0-1 ms, with the same 16-client throughput.
   */
  EVENTSTORE_FENCE_INTERVAL_MS: z.coerce.number().int().min(0).max(1000).default(1),
  /**
   * Deep-freeze every event read from the event store, so a fold, read model or decider that writes
   * into a recorded event throws at once instead of changing what later readers see. Unset: on in
   * development and test, off in production (the walk costs time on every read: docs/operations.md).
   */
  FREEZE_EVENTS: booleanFlag.optional(),
  /**
   * Named prepared statements for parameterised queries (one Parse per connection and statement).
   * Turn off behind a transaction-pooling proxy that does not track them (PgBouncer before 1.21).
   */
  PG_PREPARED_STATEMENTS: booleanFlag.default(true),
  /** Which agents this process runs: "all", "none" (API only), or a comma list (sanctions,pep,…). */
  AGENTS: z.string().min(1).default('all'),
  /** Directory of the list snapshot to load (default: the bundled ./lists). */
  LISTS_DIR: z.string().min(1).default('./lists'),
  /**
   * Maximum age in days of a sanctions or export-control list's publication before results that
   * used it carry a staleness warning and readiness reports degraded (docs/lists.md). FATF (180),
   * ICIJ (730) and PEP lists (30) have their own defaults; LISTS_MAX_AGE overrides any list.
   */
  LISTS_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(100_000).default(7),
  /** Per-list maximum ages overriding LISTS_MAX_AGE_DAYS: `ofac_sdn=3,fatf=180,icij_offshore=off`. */
  LISTS_MAX_AGE: z
    .string()
    .regex(/^\s*[a-z0-9_]+\s*=\s*(\d+|off)\s*(,\s*[a-z0-9_]+\s*=\s*(\d+|off)\s*)*$/, 'comma-separated list=days (or list=off)')
    .optional()
    .transform((v) => {
      const out: Record<string, number | null> = {};
      for (const part of (v ?? '').split(',').filter((p) => p.trim())) {
        const [k, d] = part.split('=').map((x) => x.trim());
        out[k] = d === 'off' ? null : Number(d);
      }
      return out;
    }),
  /** On a stale list: `warn` (answer, with a warning on the result) or `refuse` (503 lists_stale, nothing written). */
  LISTS_STALE_POLICY: z.enum(['warn', 'refuse']).default('warn'),
  /** Optional OpenSanctions data directory (CC BY-NC 4.0: not bundled, commercial use needs a licence). */
  OPENSANCTIONS_DIR: z.string().min(1).optional(),
  /** Secret for portal/session JWTs (HS256). Required in production. */
  JWT_SECRET: z.string().min(32).optional(),
  /** Key that encrypts webhook signing secrets at rest (32+ chars). Required in production. */
  SECRETS_KEY: z.string().min(32).optional(),
  /** Allow webhook URLs on private/loopback addresses and plain http (local testing only). */
  WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
  /** How long a synchronous screening request waits for ScreeningCompleted before answering 202. */
  SCREENING_WAIT_MS: z.coerce.number().int().min(0).max(300_000).default(20_000),
  /**
   * How long an Idempotency-Key reservation holds before a retry with the same key and body may take
   * it over (ms): the time a key stays blocked after its process died mid-request. Unset:
   * max(60 s, 2 × SCREENING_WAIT_MS). Keep it above the longest a create request may take (a
   * screening waits up to SCREENING_WAIT_MS), so that a live request is never taken over.
   */
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).optional(),
  /** Per-agent timeout inside a pipeline phase. */
  AGENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * Deadline of a pipeline phase (screenings), recorded in PhaseStarted, and the time a person or
   * subject check may go without progress. Past it the supervisor re-dispatches the phase's pending
   * agents (PhaseRetried, with a new deadline) up to PIPELINE_RETRY_BUDGET times, then records them
   * as not queried (the data gap) so the work completes. Keep it above AGENT_TIMEOUT_MS.
   */
  PIPELINE_PHASE_DEADLINE_MS: z.coerce.number().int().min(100).max(3_600_000).default(45_000),
  /** Re-dispatches of an overdue phase before its missing agents are recorded as not queried. */
  PIPELINE_RETRY_BUDGET: z.coerce.number().int().min(0).max(10).default(1),
  /** How often the supervisor looks for overdue work (it also looks once at start). */
  SUPERVISOR_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  /**
   * Screenings this process accepts while earlier ones it accepted are still running. Past it, new
   * screening requests are refused with 503 and Retry-After in the surface's envelope (backpressure):
   * queues and latency stay bounded instead of growing with the load. 0 = no limit.
   */
  MAX_INFLIGHT_SCREENINGS: z.coerce.number().int().min(0).max(100_000).default(64),
  /** The same bound for person checks (S1 and portal): past it, 503 with Retry-After, nothing written. 0 = no limit. */
  MAX_INFLIGHT_PERSON_CHECKS: z.coerce.number().int().min(0).max(100_000).default(64),
  /**
   * The same bound for S2 subject checks (a check holds its slot until its pipeline ends: completed,
   * needs review, escalated or failed). A batch needs a slot for each valid subject or is refused whole.
   */
  MAX_INFLIGHT_SUBJECT_CHECKS: z.coerce.number().int().min(0).max(100_000).default(128),
  /** Largest CSV accepted by S3 POST /api/v1/batches (bytes; streamed to DATA_DIR/batches, never held in memory). */
  BATCH_MAX_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 ** 3).default(100 * 1024 ** 2),
  /** Worker threads a batch job screens with (each builds its own engine from the lists); 0 = in the server's thread. */
  BATCH_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  /** Batch jobs queued or running per process past which a new upload is refused (503 with Retry-After). */
  BATCH_MAX_QUEUED: z.coerce.number().int().min(1).max(1000).default(4),
  /** Largest internal-watchlist import body (CSV or JSON lines), bytes; past it the import is refused with 413. */
  WATCHLIST_IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).max(1_073_741_824).default(64 * 1024 * 1024),
  /** Optional OpenAI-compatible chat endpoint for EDD/M&A analysis. */
  LLM_BASE_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  /** Stripe-style payment webhook signing secret; unset means every inbound payment event is refused. */
  PAYMENT_WEBHOOK_SECRET: z.string().min(1).optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().email().default('receipts@svc.example'),
  /** Timeout of one LLM call (ms); the rules-based analysis answers past it. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(20_000),

  // The lists (docs/lists.md).
  /** Only these lists are loaded: `ofac_sdn,un_sc`. Unset: every list of the snapshot. */
  LISTS_ONLY: z
    .string()
    .regex(/^\s*[a-z0-9_]+\s*(,\s*[a-z0-9_]+\s*)*$/, 'comma-separated list names')
    .optional()
    .transform((v) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()))),
  /** Where loaded list versions are kept for audit re-runs (default: DATA_DIR/lists). */
  LISTS_DATA_DIR: z.string().min(1).optional(),
  /**
   * Cache the loaded lists and the built screening index on disk (one file per list set, keyed by the
   * lists' content and the matcher's code): a start-up or `svc screen` reads it back in 1-2 s instead of
   * parsing and indexing every list (src/screening/index-snapshot.ts).
   */
  INDEX_CACHE: booleanFlag.default(true),
  /** Where that cache lives (default: DATA_DIR/cache; under NODE_ENV=test no cache unless this is set). */
  INDEX_CACHE_DIR: z.string().min(1).optional(),
  /** Lists downloaded by `svc lists update` (default ~/.svc/lists-downloads); a complete download wins over the snapshot. */
  LISTS_DOWNLOAD_DIR: z.string().min(1).optional(),
  /**
   * Download URL overrides, one variable each: LIST_URL_<SOURCE>_<FILE> (e.g.
   * LIST_URL_UN_SC_UN_CONSOLIDATED_XML). loadConfig gathers every LIST_URL_* variable here.
   */
  LIST_URLS: z.record(z.string().regex(/^LIST_URL_[A-Z0-9_]+$/), z.string().url()).default({}),

  // The outside sources (docs/sources.md, docs/person-checks.md): each is off until its variables are set.
  SCREENING_API_URL: z.string().url().optional(),
  SCREENING_API_KEY: z.string().min(1).optional(),
  SCREENING_API_DATASET: z.string().min(1).optional(),
  NEWS_SEARCH_URL: z.string().url().optional(),
  NEWS_SEARCH_API_KEY: z.string().min(1).optional(),
  NEWS_SEARCH_QUERY_TEMPLATE: z.string().min(1).optional(),
  NEWS_SEARCH_QUERY_PARAM: z.string().min(1).optional(),
  NEWS_SEARCH_EXTRA_PARAMS: z.string().min(1).optional(),
  NEWS_SEARCH_AUTH_HEADER: z.string().min(1).optional(),
  ICIJ_RECONCILE_URL: z.string().url().optional(),
  ICIJ_INVESTIGATIONS: z.string().min(1).optional(),
  OPENCORPORATES_API_URL: z.string().url().optional(),
  OPENCORPORATES_API_TOKEN: z.string().min(1).optional(),
  COMPANIES_HOUSE_API_URL: z.string().url().optional(),
  COMPANIES_HOUSE_API_KEY: z.string().min(1).optional(),
  GLEIF_API_URL: z.string().url().optional(),
  COURTLISTENER_API_URL: z.string().url().optional(),
  COURTLISTENER_API_TOKEN: z.string().min(1).optional(),
  PERSON_CHECK_RDAP_URL: z.string().url().optional(),
  PERSON_CHECK_ENCYCLOPEDIA_URL: z.string().url().optional(),

  /** Password of the owner made by `svc accounts create` when --password is not given. */
  SVC_PASSWORD: z.string().min(1).optional(),
});

export type Config = z.infer<typeof configSchema>;

const LIST_URL_PREFIX = 'LIST_URL_';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates the environment; the message is one line per bad variable, naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant: Record<string, unknown> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const listUrls = Object.entries(env).filter(([key, value]) => key.startsWith(LIST_URL_PREFIX) && value !== undefined && value !== '');
  relevant.LIST_URLS = Object.fromEntries(listUrls);
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      // A LIST_URL_* variable is named as itself, not as a key of LIST_URLS.
      const name = (issue.path[0] === 'LIST_URLS' && issue.path.length > 1 ? String(issue.path[1]) : issue.path.join('.')) || '(environment)';
      return `invalid configuration: ${name}: ${issue.message}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production') {
    for (const required of ['JWT_SECRET', 'SECRETS_KEY'] as const) {
      if (!config[required]) throw new ConfigError(`invalid configuration: ${required}: required in production`);
    }
  }
  return config;
}

/** Whether events read from the store are deep-frozen (FREEZE_EVENTS; by default everywhere but production). */
export function eventsFrozen(config: Pick<Config, 'FREEZE_EVENTS' | 'NODE_ENV'>): boolean {
  return config.FREEZE_EVENTS ?? config.NODE_ENV !== 'production';
}

/** Names of every variable the service reads (used by the docker-compose test); LIST_URL_* are matched by prefix. */
export const knownConfigVariables: readonly string[] = Object.keys(configSchema.shape).filter((key) => key !== 'LIST_URLS');

/** Whether `name` is a variable the service reads (a known name, or a LIST_URL_* override). */
export function isConfigVariable(name: string): boolean {
  return knownConfigVariables.includes(name) || name.startsWith(LIST_URL_PREFIX);
}

/** The variables of the outside sources and the LLM, as the source adapters take them (docs/sources.md). */
const SOURCE_VARIABLES = [
  'SCREENING_API_URL',
  'SCREENING_API_KEY',
  'SCREENING_API_DATASET',
  'NEWS_SEARCH_URL',
  'NEWS_SEARCH_API_KEY',
  'NEWS_SEARCH_QUERY_TEMPLATE',
  'NEWS_SEARCH_QUERY_PARAM',
  'NEWS_SEARCH_EXTRA_PARAMS',
  'NEWS_SEARCH_AUTH_HEADER',
  'ICIJ_RECONCILE_URL',
  'ICIJ_INVESTIGATIONS',
  'OPENCORPORATES_API_URL',
  'OPENCORPORATES_API_TOKEN',
  'COMPANIES_HOUSE_API_URL',
  'COMPANIES_HOUSE_API_KEY',
  'GLEIF_API_URL',
  'COURTLISTENER_API_URL',
  'COURTLISTENER_API_TOKEN',
  'PERSON_CHECK_RDAP_URL',
  'PERSON_CHECK_ENCYCLOPEDIA_URL',
  'LLM_BASE_URL',
  'LLM_API_KEY',
  'LLM_MODEL',
  'LLM_TIMEOUT_MS',
] as const satisfies readonly (keyof Config)[];

/** The validated source settings, by variable name (what the adapters in src/agents/sources read). */
export function sourceSettings(config: Config): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of SOURCE_VARIABLES) {
    const value = config[key];
    if (value !== undefined) out[key] = String(value);
  }
  return out;
}
