/**
 * The scaled mode as separate OS processes on this machine, for the multi-process test and
 * bench/scale.ts: a Kafka-protocol broker (librdkafka's mock cluster, ./kafka.ts), a PostgreSQL server
 * (the pinned embedded binaries, its own postmaster on a fixed port so that it can be restarted),
 * one `svc serve` with AGENTS=none and any number of `svc worker --agents all`, each a child
 * `node src/main.ts …` exactly as bin/svc starts it, configured only through the environment.
 *
 * Every child writes its JSON log to <dir>/<name>.log; the harness reads those files to know when a
 * process is up (`svc listening on …`, `worker running`) and to gather evidence after a run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/infrastructure/postgres/embedded';
import { AGENT_RESULTS_TOPIC, agentTaskTopic } from '../../src/infrastructure/bus/topics';
import { createAgentCatalog } from '../../src/agents/catalog';
import { startMockKafka, type MockKafka } from './kafka';
import { testIndexCacheEnv } from './index-cache';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const mainScript = path.join(repoRoot, 'src', 'main.ts');

/** Every topic the service uses, so the mock (which cannot create topics for clients) has them all with `partitions`. */
export function scaledModeTopics(): string[] {
  const agents = [...createAgentCatalog({ screener: () => ({}) as never, sources: [], hasPepList: () => false }).keys()];
  return [
    ...['screening', 'account', 'webhook', 'person', 'subject', 'payment', 'monitoring'].map((c) => `svc.events.${c}`),
    ...agents.map(agentTaskTopic),
    AGENT_RESULTS_TOPIC,
    'svc.deadletter',
  ];
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface SvcProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly logFile: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Parsed JSON log lines so far (non-JSON lines are kept as {msg: line}). */
  log(): Record<string, unknown>[];
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (graceful stop), SIGKILL after 20 s. */
  stop(): Promise<void>;
}

function spawnSvc(name: string, args: string[], env: Record<string, string>, dir: string, svcRoot = repoRoot): SvcProcess {
  const logFile = path.join(dir, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const script = svcRoot === repoRoot ? mainScript : path.join(svcRoot, 'src', 'main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: svcRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dir, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  // However the test process ends, its children end with it (an orphaned serve would keep a port).
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    logFile,
    exited,
    log() {
      const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          try {
            return JSON.parse(line) as Record<string, unknown>;
          } catch {
            return { msg: line };
          }
        });
    },
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitForLog(proc: SvcProcess, match: (line: Record<string, unknown>) => boolean, what: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = proc.log().find(match);
    if (found) return found;
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`${proc.name} exited before ${what}:\n${fs.readFileSync(proc.logFile, 'utf8').slice(-3000)}`);
    }
    if (Date.now() > deadline) throw new Error(`${proc.name}: no ${what} within ${timeoutMs} ms:\n${fs.readFileSync(proc.logFile, 'utf8').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ScaledClusterOptions {
  /** Partitions of every topic (make it ≥ the largest number of workers). Default 4. */
  partitions?: number;
  /** PEM file of a CA the serve process trusts for webhook deliveries (NODE_EXTRA_CA_CERTS). */
  extraCaFile?: string;
  /** Extra environment for every svc process (e.g. SCREENING_WAIT_MS). */
  env?: Record<string, string>;
  /** LOG_LEVEL of the svc processes (default info: the harness reads the start-up lines). */
  logLevel?: string;
  /** Keep the log directory after stop (default: only when KEEP_SCALED_LOGS=1). */
  keepLogs?: boolean;
  /** Another checkout whose `src/main.ts` the svc processes run (benches against an older commit). */
  svcRoot?: string;
  /**
   * PostgreSQL settings over the throwaway defaults (no fsync, no synchronous commit). A test that
   * SIGKILLs PostgreSQL needs `synchronous_commit: 'on'`: without it a commit is answered before its WAL
   * leaves PostgreSQL's memory, so the kill loses acknowledged transactions, which no deployment allows.
   */
  postgresSettings?: Record<string, string>;
}

export interface ScaledCluster {
  readonly dir: string;
  readonly kafka: MockKafka;
  /** DATABASE_URL of the svc processes. */
  readonly databaseUrl: string;
  /** A pool for the test's own queries (evidence); survives a PostgreSQL restart by reconnecting. */
  readonly pool: pg.Pool;
  /** Base URL of the serve process (the same port across restarts). */
  readonly url: string;
  serve(): SvcProcess;
  readonly workers: SvcProcess[];
  /** Starts `svc serve` (AGENTS=none) and waits until it listens. */
  startServe(): Promise<SvcProcess>;
  /** Starts one `svc worker --agents all` and waits until its consumers joined their groups. */
  startWorker(): Promise<SvcProcess>;
  /** Stops the PostgreSQL server (fast shutdown); startPostgres() brings it back on the same port and data. */
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** OS process ids of the postmaster and of the broker (for CPU accounting). */
  postgresPid(): number;
  kafkaPid(): number;
  /**
   * SIGKILL of the broker and a new one in its place (the mock keeps nothing on disk: topics are made
   * again, empty, on new ports). Processes started afterwards get the new brokers; running ones must
   * be restarted by the caller (the chaos soak does).
   */
  replaceKafka(): Promise<void>;
  stop(): Promise<void>;
}

export async function startScaledCluster(options: ScaledClusterOptions = {}): Promise<ScaledCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-scaled-'));
  fs.chmodSync(dir, 0o755); // the unprivileged postgres OS user must reach the data dir inside
  const partitions = options.partitions ?? 4;
  const cleanups: (() => Promise<void>)[] = [];
  let workerCount = 0;
  let serveCount = 0;
  const workers: SvcProcess[] = [];
  let serveProcess: SvcProcess | undefined;

  // A detached reaper outlives this process however it ends (a test runner's SIGTERM runs no exit
  // hooks): once our pid is gone it kills every process listed in pids (svc processes, postmaster).
  const pidFile = path.join(dir, 'pids');
  fs.writeFileSync(pidFile, '');
  // Only live processes are listed (a pid is removed when its process ends), so the reaper never
  // kills a pid the system has since given to someone else.
  const live = new Set<number>();
  const writePids = () => {
    if (fs.existsSync(dir)) fs.writeFileSync(pidFile, [...live].map((p) => `${p}\n`).join(''));
  };
  const track = (pid: number | undefined, exited: Promise<unknown>) => {
    if (!pid || pid < 0) return;
    live.add(pid);
    writePids();
    void exited.then(() => {
      live.delete(pid);
      writePids();
    });
  };
  /** Resolves when a process that is not our child (the postmaster) has ended. */
  const ended = (pid: number) =>
    new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch {
          clearInterval(timer);
          resolve();
        }
      }, 250);
      timer.unref();
    });
  spawn(
    'sh',
    ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; for p in $(cat '${pidFile}'); do kill -9 $p 2>/dev/null; done`],
    { detached: true, stdio: 'ignore' },
  ).unref();

  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    live.clear();
    writePids();
    if (!(options.keepLogs ?? process.env.KEEP_SCALED_LOGS === '1')) fs.rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`scaled-mode logs kept in ${dir}\n`);
  };

  try {
    const startKafka = async () => {
      const started = await startMockKafka({ brokers: 1, topics: scaledModeTopics().map((name) => ({ name, partitions })), startTimeoutMs: 120_000 });
      track(started.pid, ended(started.pid));
      return started;
    };
    let kafka = await startKafka();
    cleanups.push(() => kafka.stop());

    const pgPort = await freePort();
    const pgDir = path.join(dir, 'postgres');
    let postgres: EmbeddedPostgres | undefined;
    const startPostgres = async () => {
      postgres = await startEmbeddedPostgres({
        dataDir: pgDir,
        port: pgPort,
        unixSocket: false,
        // A throwaway cluster: no fsync; max_connections above the pools of every process (20 each).
        settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '200', ...options.postgresSettings },
        initNoSync: true,
        stopOnProcessExit: true,
        keepProcessAlive: false,
      });
      track(postgres.pid, ended(postgres.pid));
    };
    await startPostgres();
    cleanups.push(async () => {
      await postgres?.stop();
    });
    const admin = new pg.Client({ connectionString: postgres!.tcpUrl('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE svc');
    await admin.end();
    const databaseUrl = postgres!.tcpUrl('svc');
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    pool.on('error', () => undefined); // dropped by a PostgreSQL restart: the next query reconnects
    cleanups.push(() => pool.end());

    // Chosen now and bound by serve seconds later; if another process took it meanwhile (an outgoing
    // connection's ephemeral port), serve's first start picks another one (later starts keep it).
    let servePort = await freePort();
    const baseEnv = (name: string): Record<string, string> => {
      const dataDir = path.join(dir, `data-${name}`);
      fs.mkdirSync(dataDir, { recursive: true });
      return {
        NODE_ENV: 'test',
        LOG_LEVEL: options.logLevel ?? 'info',
        DATABASE_URL: databaseUrl,
        KAFKA_BROKERS: kafka.brokers.join(','),
        KAFKA_CLIENT_ID: `svc-${name}`,
        // The mock broker holds an empty fetch for the whole wait even when a message arrives meanwhile
        // (bench/fetch-wait.ts), so a message waits half the wait on average for an idle consumer. Only
        // the first hop of a screening (serve's relay to the worker) waits so: with one consumer per worker
        // the tasks and results inside it are already written when it fetches next. 25 ms instead of the
        // 10 ms two consumers needed (three waiting hops) cuts polling by 60 % for about the same latency.
        KAFKA_FETCH_MAX_WAIT_MS: '25',
        DATA_DIR: dataDir,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ...testIndexCacheEnv(),
        ...(options.extraCaFile ? { NODE_EXTRA_CA_CERTS: options.extraCaFile } : {}),
        ...options.env,
      };
    };
    cleanups.push(async () => {
      await Promise.all([...workers, ...(serveProcess ? [serveProcess] : [])].map((p) => p.stop()));
    });

    return {
      dir,
      get kafka() {
        return kafka;
      },
      databaseUrl,
      pool,
      get url() {
        return `http://127.0.0.1:${servePort}`;
      },
      workers,
      serve: () => {
        if (!serveProcess) throw new Error('serve is not started');
        return serveProcess;
      },
      async startServe() {
        const firstStart = serveCount === 0;
        for (let attempt = 1; ; attempt++) {
          const name = `serve-${++serveCount}`;
          const proc = spawnSvc(name, ['serve'], { ...baseEnv('serve'), AGENTS: 'none', HOST: '127.0.0.1', PORT: String(servePort) }, dir, options.svcRoot);
          serveProcess = proc;
          track(proc.child.pid, proc.exited);
          try {
            await waitForLog(proc, (l) => typeof l.msg === 'string' && l.msg.startsWith('svc listening on'), 'listening line', 300_000);
            return proc;
          } catch (error) {
            const portTaken = proc.log().some((l) => JSON.stringify(l).includes('EADDRINUSE'));
            if (!portTaken || !firstStart || attempt >= 3) throw error;
            servePort = await freePort();
          }
        }
      },
      async startWorker() {
        const name = `worker-${++workerCount}`;
        const proc = spawnSvc(name, ['worker', '--agents', 'all'], baseEnv(name), dir, options.svcRoot);
        workers.push(proc);
        track(proc.child.pid, proc.exited);
        await waitForLog(proc, (l) => l.msg === 'worker running', '"worker running"', 300_000);
        return proc;
      },
      stopPostgres: async () => {
        await postgres?.stop();
      },
      startPostgres,
      postgresPid: () => postgres?.pid ?? -1,
      kafkaPid: () => kafka.pid,
      async replaceKafka() {
        const old = kafka;
        try {
          process.kill(old.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await ended(old.pid);
        kafka = await startKafka();
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A fresh id for names so that repeated runs never collide. */
export const runId = () => randomUUID().slice(0, 8);

// ---------------------------------------------------------------------------------------------
// Accounts and keys, load, and the evidence read back from the store.

export interface ProvisionedKey {
  accountId: string;
  key: string;
  webhookSecret?: string;
}

/**
 * Creates accounts and S1 keys as an operator would, through the application services of an
 * in-process service on the same database (no HTTP, no agents, no relay: it publishes nothing), then
 * waits until the serve process has projected each key (a request with it is no longer 401).
 */
export async function provisionS1Keys(
  cluster: ScaledCluster,
  specs: { webhookUrl?: string }[],
  keysPerAccount = 2,
): Promise<ProvisionedKey[]> {
  const { loadConfig } = await import('../../src/config/config');
  const { startService } = await import('../../src/bootstrap/service');
  const { createLogger } = await import('../../src/shared/logger');
  const { accountHelpers } = await import('./service');
  const dataDir = path.join(cluster.dir, 'data-operator');
  fs.mkdirSync(dataDir, { recursive: true });
  // The operator's service only makes accounts and keys (no agents): the small fixture lists, not the bundled ones.
  const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: cluster.databaseUrl, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', LISTS_DIR: 'test/fixtures/lists', ...testIndexCacheEnv() };
  const config = loadConfig(env);
  const service = await startService({ config, logger: createLogger({ level: 'silent' }), http: false, agents: 'none', projections: false });
  try {
    const helpers = accountHelpers(service);
    const keys: ProvisionedKey[] = [];
    const hashes: string[] = [];
    let accountId: string | undefined;
    for (const [i, spec] of specs.entries()) {
      if (i % keysPerAccount === 0) {
        accountId = (await helpers.createAccount('enterprise')).accountId;
        // The key service reads the account's plan from the read model the serve process keeps.
        await waitUntil(async () => (await service.services.accounts.get(accountId!)) !== undefined, 30_000, 'account projected');
      }
      // Through the key service itself: its answer reads the key back from a read model this
      // process does not keep (serve does), so the key's row is awaited below instead.
      const created = await service.services.keys.create(
        { accountId: accountId!, plan: 'enterprise', roles: ['owner'], surface: 'portal' },
        { surface: 's1', name: `scaled ${i}`, ...(spec.webhookUrl ? { webhookUrl: spec.webhookUrl } : {}) },
        { actor: { surface: 'system' }, correlationId: randomUUID(), commandId: randomUUID() },
      );
      keys.push({ accountId: accountId!, key: created.plaintext, ...(created.webhookSecret ? { webhookSecret: created.webhookSecret } : {}) });
      hashes.push(createHash('sha256').update(created.plaintext).digest('hex'));
    }
    // Asked of the read model, not of the API: every S1 request counts against the key's 60 per minute.
    await waitUntil(
      async () => (await cluster.pool.query('SELECT count(*)::int AS n FROM proj_api_keys.api_keys WHERE key_hash = ANY($1)', [hashes])).rows[0].n === hashes.length,
      30_000,
      'keys projected by serve',
    );
    return keys;
  } finally {
    await service.stop();
  }
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet (e.g. the database is restarting)
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const NAMES = ['Vladimir Putin', 'John Smithers', 'Kim Jong Un', 'Acme Trading Ltd', 'Margaret Thistlewood', 'Rosneft', 'Banco Nacional de Cuba', 'Ali Hassan'];

export type RequestOutcome =
  /** ms: from sending the request to its answer (a CDD answer waits for the screening to complete). */
  | { kind: 'answered'; status: number; id?: number; screeningStatus?: string; ms?: number }
  /** The connection broke after the request may have reached the server: created or not, unknown. */
  | { kind: 'cut'; error: string };

/**
 * Closed-loop clients posting CDD screenings round-robin over the keys. A refused connection (the
 * serve process is down: nothing was sent) is retried every 250 ms; a connection cut mid-request is
 * not retried (without an Idempotency-Key a retry could create a second screening) and is reported.
 */
export async function runScreenings(
  url: string,
  keys: ProvisionedKey[],
  count: number,
  options: { concurrency?: number; onAnswer?: (answered: number) => void; offset?: number } = {},
): Promise<RequestOutcome[]> {
  const outcomes: RequestOutcome[] = [];
  let next = 0;
  let answered = 0;
  const one = async (i: number): Promise<RequestOutcome> => {
    const key = keys[(i + (options.offset ?? 0)) % keys.length]!;
    const name = NAMES[i % NAMES.length]!;
    for (;;) {
      try {
        const sent = performance.now();
        const res = await fetch(`${url}/api/v1/screening/cdd`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: name, entity_type: /Ltd|Rosneft|Banco/.test(name) ? 'company' : 'individual' }),
        });
        const body = (await res.json().catch(() => ({}))) as { screening?: { id?: number; status?: string } };
        const ms = performance.now() - sent;
        return { kind: 'answered', status: res.status, ms, ...(body.screening?.id !== undefined ? { id: body.screening.id } : {}), ...(body.screening?.status ? { screeningStatus: body.screening.status } : {}) };
      } catch (error) {
        const code = String((error as { cause?: { code?: unknown } }).cause?.code ?? '');
        if (code === 'ECONNREFUSED') {
          await new Promise((r) => setTimeout(r, 250));
          continue;
        }
        return { kind: 'cut', error: code || String(error) };
      }
    }
  };
  await Promise.all(
    Array.from({ length: options.concurrency ?? 8 }, async () => {
      for (let i = next++; i < count; i = next++) {
        outcomes[i] = await one(i);
        options.onAnswer?.(++answered);
      }
    }),
  );
  return outcomes;
}

export interface StoreEvidence {
  requested: number;
  completed: number;
  failed: number;
  /** Screening streams with more than one event of the same kind (type + phase + agent). */
  duplicated: { stream: string; kind: string; count: number }[];
  /** Screening streams with ScreeningRequested but no ScreeningCompleted/Failed. */
  unfinished: string[];
}

/** What the event store says about every screening: the ground truth of "exactly once". */
export async function screeningEvidence(pool: pg.Pool): Promise<StoreEvidence> {
  // One snapshot for the three queries: a screening completing between them must not count twice or never.
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return await evidenceIn(client);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

async function evidenceIn(pool: pg.PoolClient): Promise<StoreEvidence> {
  const counts = await pool.query<{ event_type: string; n: string }>(
    `SELECT event_type, count(*)::text AS n FROM events WHERE stream_name LIKE 'screening-%'
       AND event_type IN ('ScreeningRequested','ScreeningCompleted','ScreeningFailed') GROUP BY event_type`,
  );
  const n = (type: string) => Number(counts.rows.find((r) => r.event_type === type)?.n ?? 0);
  const duplicated = await pool.query<{ stream: string; kind: string; count: string }>(
    `SELECT stream_name AS stream,
            event_type || coalesce(':' || (data->>'phase'), '') || coalesce(':' || (data->>'agent'), '') AS kind,
            count(*)::text AS count
       FROM events WHERE stream_name LIKE 'screening-%'
      GROUP BY 1, 2 HAVING count(*) > 1`,
  );
  const unfinished = await pool.query<{ stream: string }>(
    `SELECT r.stream_name AS stream FROM events r
      WHERE r.event_type = 'ScreeningRequested' AND r.stream_name LIKE 'screening-%'
        AND NOT EXISTS (SELECT 1 FROM events c WHERE c.stream_name = r.stream_name AND c.event_type IN ('ScreeningCompleted','ScreeningFailed'))`,
  );
  return {
    requested: n('ScreeningRequested'),
    completed: n('ScreeningCompleted'),
    failed: n('ScreeningFailed'),
    duplicated: duplicated.rows.map((r) => ({ ...r, count: Number(r.count) })),
    unfinished: unfinished.rows.map((r) => r.stream),
  };
}

/** Waits until every requested screening has finished (the store says so); returns the evidence. */
export async function allFinished(pool: pg.Pool, timeoutMs: number): Promise<StoreEvidence> {
  let last: StoreEvidence | undefined;
  try {
    await waitUntil(
      async () => {
        last = await screeningEvidence(pool);
        return last.unfinished.length === 0;
      },
      timeoutMs,
      'every screening to finish',
      250,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}: ${JSON.stringify({ ...last, unfinished: last?.unfinished.slice(0, 5), unfinishedCount: last?.unfinished.length })}`);
  }
  return last!;
}
