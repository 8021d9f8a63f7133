/**
 * The fault-injection soak (issue 29): a mixed workload against the embedded default or the scaled
 * mode while processes are killed with SIGKILL at random moments and restarted, then the invariants
 * that make "exactly once" true, checked against the event store, the read models, the outbox and
 * what signed webhook receivers got. bench/chaos.ts runs it for minutes; test/e2e/chaos.test.ts runs
 * a short one in the suite.
 *
 * Workload (closed-loop clients, each request through `careful`, a client that retries with the same
 * Idempotency-Key until it gets an answer, as a careful integrator would): S1 and S3 CDD screenings
 * (S3 ones enrolled in monitoring), S2 subject checks (callbacks to the S2 receiver), S1 person checks,
 * watchlist entry edits (add with a key, change, remove) and imports, whose names are those of
 * monitored subjects (monitoring on a list delta), S2 key rotations, and analysts' decisions on hits.
 *
 * Faults: embedded, the service's process group (node and its PostgreSQL, as a power loss) or its
 * PostgreSQL alone (then the service, which cannot restart its embedded database, is restarted too);
 * scaled, `svc serve`, a worker, PostgreSQL, or the broker (the mock keeps nothing: a new one, and
 * every process restarted onto it).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startChild, type Ready } from './crash-round';
import { testIndexCacheEnv } from './index-cache';
import { startHttpsReceiver, type HttpsReceiver } from './https-receiver';
import { rawRequest, type RawAnswer } from './raw-http';
import { enrolSurfaces, type Enroller, type SurfaceCredentials } from './surface-credentials';
import { startScaledCluster, waitUntil, type ScaledCluster } from './scaled';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type ChaosMode = 'embedded' | 'scaled';
export type KillKind = 'serve' | 'postgres' | 'worker' | 'broker';

export interface ChaosOptions {
  mode: ChaosMode;
  /** How long the workload runs while faults are injected. */
  durationMs: number;
  /** A kill every [min, max] ms, uniformly drawn (after the previous restart is up). */
  killEveryMs: [number, number];
  /**
   * Kills to land at the least: the workload goes on past durationMs until they have (on a loaded
   * machine a restart takes longer, so a fixed duration alone holds fewer faults). Default 0.
   */
  minKills?: number;
  /** Concurrent clients. */
  clients?: number;
  /** How long one request may keep retrying before the client gives up on it (reported, never hidden). */
  requestDeadlineMs?: number;
  /** After the workload: how long every workflow and delivery may take to finish (a stuck one fails the check). */
  settleDeadlineMs?: number;
  /** Scaled mode: worker processes. */
  workers?: number;
  log?: (line: string) => void;
}

export interface Invariant {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ChaosResult {
  mode: ChaosMode;
  minutes: number;
  kills: Partial<Record<KillKind, number>>;
  killCount: number;
  requests: { kind: string; requests: number; acknowledged: number; retries: number; gaveUp: number }[];
  rotations: { acknowledged: number; lost: number };
  /** Counts of telling events in the store at the end (monitoring alerts, decisions, phase retries…). */
  exercised: string[];
  invariants: Invariant[];
  ok: boolean;
}

// ------------------------------------------------------------------------------------------------
// Topologies

interface Topology {
  url(): string;
  databaseUrl(): string;
  creds: SurfaceCredentials;
  kinds: { kind: KillKind; weight: number }[];
  /** SIGKILL and restart; resolves once the topology serves again (a worker's restart may still be under way). */
  kill(kind: KillKind): Promise<void>;
  /** Resolves once every restart begun is done (before the invariants are checked). */
  restarted(): Promise<void>;
  /** Environment for `svc` operator commands against this topology's database. */
  operatorEnv(): Record<string, string>;
  stop(): Promise<void>;
}

/** Deadlines short enough for a soak, long enough for a loaded 2-core machine (docs/operations.md). */
const SOAK_ENV: Record<string, string> = {
  AGENT_TIMEOUT_MS: '4000',
  PIPELINE_PHASE_DEADLINE_MS: '8000',
  PIPELINE_RETRY_BUDGET: '1',
  SUPERVISOR_INTERVAL_MS: '1000',
  SCREENING_WAIT_MS: '3000',
  IDEMPOTENCY_LEASE_MS: '8000',
  LISTS_DIR: 'test/fixtures/lists',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  SECRETS_KEY: 'chaos-soak-secrets-key-0123456789abcdef',
};

function caFile(receivers: HttpsReceiver[]): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-chaos-ca-'));
  const file = path.join(dir, 'ca.pem');
  fs.writeFileSync(file, receivers.map((r) => r.ca).join('\n'));
  return { dir, file };
}

async function embeddedTopology(receivers: Receivers, log: (line: string) => void): Promise<Topology> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-chaos-'));
  fs.chmodSync(dataDir, 0o755); // the unprivileged postgres OS user must reach the data dir inside
  const ca = caFile(Object.values(receivers));
  const env = {
    ...SOAK_ENV,
    NODE_EXTRA_CA_CERTS: ca.file,
    TEST_SURFACES: '0',
    TEST_WEBHOOKS: JSON.stringify({ s1: receivers.s1.url, s2: receivers.s2.url, s3: receivers.s3.url }),
  };
  let child: ChildProcess | undefined;
  let ready: Ready;
  const boot = async () => {
    const started = startChild(dataDir, env);
    child = started.child;
    ready = await started.ready;
  };
  const killGroup = async () => {
    const proc = child!;
    const exited = new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve())));
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
    // Its PostgreSQL is in the group too; wait until the postmaster is gone before the restart.
    await waitUntil(() => !postmasterAlive(dataDir), 30_000, 'the embedded postmaster to end', 100);
  };
  await boot();
  return {
    url: () => ready.url,
    databaseUrl: () => ready.databaseUrl,
    creds: ready!.surfaces!,
    kinds: [
      { kind: 'serve', weight: 3 },
      { kind: 'postgres', weight: 2 },
    ],
    async kill(kind) {
      if (kind === 'postgres') {
        const pid = postmasterPid(dataDir);
        if (pid) process.kill(pid, 'SIGKILL');
        log(`killed PostgreSQL (pid ${pid}); the service answers without its database for a moment`);
        await new Promise((r) => setTimeout(r, 3000));
      }
      await killGroup();
      await boot();
    },
    operatorEnv: () => ({ DATABASE_URL: ready.databaseUrl }),
    restarted: async () => undefined,
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => void killGroup().then(resolve), 30_000);
          child!.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (postmasterAlive(dataDir)) await killGroup().catch(() => undefined);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(ca.dir, { recursive: true, force: true });
    },
  };
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function postmasterAlive(dataDir: string): boolean {
  const pid = postmasterPid(dataDir);
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Accounts and keys made by an operator's in-process service beside the cluster (it publishes nothing), read back from serve's read models. */
async function clusterEnroller(cluster: ScaledCluster): Promise<{ enroller: Enroller; stop(): Promise<void> }> {
  const { loadConfig } = await import('../../src/config/config');
  const { startService } = await import('../../src/bootstrap/service');
  const { createLogger } = await import('../../src/shared/logger');
  const dataDir = path.join(cluster.dir, 'data-operator');
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: cluster.databaseUrl, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', SECRETS_KEY: SOAK_ENV.SECRETS_KEY, LISTS_DIR: SOAK_ENV.LISTS_DIR, ...testIndexCacheEnv() });
  const service = await startService({ config, logger: createLogger({ level: 'silent' }), http: false, agents: 'none', projections: false });
  const system = () => ({ actor: { surface: 'system' as const }, correlationId: randomUUID(), commandId: randomUUID() });
  const enroller: Enroller = {
    url: cluster.url,
    async createAccount() {
      const email = `chaos-${randomUUID()}@example.test`;
      const password = `pw-${randomUUID()}`;
      const created = await service.services.accounts.create({ name: `Chaos ${email}`, email, password, plan: 'enterprise' }, system());
      await waitUntil(async () => (await cluster.pool.query('SELECT 1 FROM proj_accounts.users WHERE user_id = $1', [created.userId])).rowCount === 1, 60_000, 'account projected by serve');
      return { ...created, email, password };
    },
    async createKey(accountId, surface, options = {}) {
      const created = await service.services.keys.create(
        { accountId, plan: 'enterprise', roles: ['owner'], surface: 'portal', ...(options.userId ? { userId: options.userId } : {}) },
        { surface, name: `chaos ${surface}`, ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}) },
        system(),
      );
      const hash = createHash('sha256').update(created.plaintext).digest('hex');
      await waitUntil(async () => (await cluster.pool.query('SELECT 1 FROM proj_api_keys.api_keys WHERE key_hash = $1', [hash])).rowCount === 1, 60_000, 'key projected by serve');
      return { key: created.plaintext, ...(created.webhookSecret ? { webhookSecret: created.webhookSecret } : {}) };
    },
  };
  return { enroller, stop: () => service.stop() };
}

async function scaledTopology(receivers: Receivers, workers: number, log: (line: string) => void): Promise<Topology> {
  const ca = caFile(Object.values(receivers));
  // PostgreSQL is killed with SIGKILL: its commits must be written out before they are answered, as in
  // any deployment (synchronous_commit on; fsync may stay off, the kernel keeps what a killed process wrote).
  const cluster = await startScaledCluster({ partitions: 4, extraCaFile: ca.file, env: { ...SOAK_ENV, KAFKA_SESSION_TIMEOUT_MS: '6000' }, postgresSettings: { synchronous_commit: 'on' } });
  try {
    await cluster.startServe();
    for (let i = 0; i < workers; i++) await cluster.startWorker();
    const operator = await clusterEnroller(cluster);
    let creds: SurfaceCredentials;
    try {
      creds = await enrolSurfaces(operator.enroller, { spareS2Keys: 0, webhooks: { s1: receivers.s1.url, s2: receivers.s2.url, s3: receivers.s3.url } });
    } finally {
      await operator.stop();
    }
    const live = () => cluster.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    // A worker's restart (lists, consumer groups: up to a minute on a loaded machine) goes on while
    // the next faults come; the API is what clients wait for.
    const starting = new Set<Promise<unknown>>();
    const up = new Set<string>(cluster.workers.map((w) => w.name));
    const restartWorker = () => {
      const started = cluster.startWorker().then(
        (w) => up.add(w.name),
        (error: unknown) => {
          if (!/exited before/.test((error as Error).message)) log(`a worker did not start: ${(error as Error).message.slice(0, 300)}`);
        },
      );
      starting.add(started);
      void started.finally(() => starting.delete(started));
    };
    return {
      url: () => cluster.url,
      databaseUrl: () => cluster.databaseUrl,
      creds,
      kinds: [
        { kind: 'serve', weight: 3 },
        { kind: 'worker', weight: 3 },
        { kind: 'postgres', weight: 3 },
        { kind: 'broker', weight: 1 },
      ],
      async kill(kind) {
        switch (kind) {
          case 'serve':
            await cluster.serve().kill();
            await cluster.startServe();
            return;
          case 'worker': {
            // A worker that is up (one still starting is spared, unless none is up).
            const running = live().filter((w) => up.has(w.name));
            const pool = running.length > 0 ? running : live();
            const victim = pool[Math.floor(Math.random() * pool.length)];
            if (victim) await victim.kill();
            log(`killed ${victim?.name ?? 'no worker (none running)'}; its replacement starts`);
            restartWorker();
            return;
          }
          case 'postgres': {
            const pid = cluster.postgresPid();
            process.kill(pid, 'SIGKILL');
            await waitUntil(() => !alive(pid), 30_000, 'the postmaster to end', 100);
            // Its backends notice the postmaster's death and leave; until then its shared memory is in use.
            await waitUntil(async () => {
              await cluster.startPostgres();
              return true;
            }, 60_000, 'PostgreSQL to start again', 1000);
            return;
          }
          case 'broker': {
            await cluster.replaceKafka();
            log('broker replaced: restarting serve and the workers onto it');
            const running = live();
            await Promise.all([cluster.serve().kill(), ...running.map((w) => w.kill())]);
            for (let i = 0; i < Math.max(running.length, workers); i++) restartWorker();
            await cluster.startServe();
            return;
          }
          default:
            throw new Error(`scaled mode cannot kill ${kind}`);
        }
      },
      operatorEnv: () => ({ DATABASE_URL: cluster.databaseUrl }),
      async restarted() {
        while (starting.size > 0) await Promise.all([...starting]);
      },
      async stop() {
        await cluster.stop();
        fs.rmSync(ca.dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------------------------------------
// The careful client

type Receivers = Record<'s1' | 's2' | 's3', HttpsReceiver>;

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  json?: unknown;
  body?: string;
  contentType?: string;
  /** Sent with an Idempotency-Key (every create). */
  idempotent?: boolean;
  /**
   * A 404 or 409 whose text matches is a state that passes (enrolling a screening still running, or
   * not yet in the read model another surface reads after a restart): retried.
   */
  passes?: RegExp;
}

interface Outcome {
  answer?: RawAnswer;
  attempts: number;
  gaveUp?: string;
}

/**
 * Sends until an answer that is not a transient failure: a cut connection or a refused one (the
 * service is down), 5xx, 409 idempotency_key_in_progress and 429 are retried after a pause (its
 * Retry-After, at most 5 s) with the same Idempotency-Key and body; anything else is the answer.
 */
async function careful(topology: Topology, call: Call, deadlineMs: number): Promise<Outcome> {
  const key = call.idempotent ? `chaos-${randomUUID()}` : undefined;
  const started = Date.now();
  for (let attempts = 1; ; attempts++) {
    let pause = 500;
    try {
      const headers = { ...call.headers, ...(key ? { 'idempotency-key': key } : {}) };
      const answer = call.json !== undefined || call.body === undefined
        ? await rawRequest(topology.url(), call.method, call.path, { headers, ...(call.json !== undefined ? { json: call.json } : {}) })
        : await rawRequest(topology.url(), call.method, call.path, { headers: { ...headers, 'content-type': call.contentType ?? 'text/csv' }, body: call.body });
      // 409: the key's first request still runs, or an import met a concurrent change of its list ("send the file again").
      const transient =
        answer.status >= 500 || answer.status === 429 || (answer.status === 409 && /in_progress|still being processed|send the file again/.test(answer.text)) ||
        ((answer.status === 404 || answer.status === 409) && call.passes?.test(answer.text) === true);
      if (!transient) return { answer, attempts };
      pause = Math.min(5000, Math.max(250, Number(answer.headers['retry-after'] ?? 1) * 1000));
    } catch {
      // cut or refused: the service is down or restarting
    }
    if (Date.now() - started > deadlineMs) return { attempts, gaveUp: `${call.method} ${call.path}: no answer within ${deadlineMs} ms` };
    await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
  }
}

// ------------------------------------------------------------------------------------------------
// The workload

/** Names the fixture lists hold (hits for the analysts to decide on) and names they do not. */
const NAMES = ['Saddam Hussein Al-Tikriti', 'Alexander Vladimirovich Petrov', 'Example Bank PJSC', 'North Star Shipping Ltd', 'Margaret Thistlewood', 'Anglo-Caribbean Co', 'John Smithers'];

/** A person's name no list holds, from a counter (letters only). */
const innocent = (n: number) => `Orla ${n.toString(26).replace(/./g, (c) => String.fromCharCode(97 + parseInt(c, 26)))}ridge`;

interface Acknowledged {
  kind: string;
  ids: string[];
}

interface Workload {
  acknowledged: Acknowledged[];
  gaveUp: { kind: string; reason: string }[];
  refused: { kind: string; status: number; text: string }[];
  /** Per kind: requests made and attempts they took (a retry is an attempt past the first). */
  calls: Map<string, { requests: number; attempts: number }>;
  rotations: { acknowledged: number; lost: number };
}

async function runWorkload(topology: Topology, options: Required<Pick<ChaosOptions, 'clients' | 'requestDeadlineMs'>>, until: () => boolean): Promise<Workload> {
  const w: Workload = { acknowledged: [], gaveUp: [], refused: [], calls: new Map(), rotations: { acknowledged: 0, lost: 0 } };
  const count = (kind: string, attempts: number) => {
    const c = w.calls.get(kind) ?? { requests: 0, attempts: 0 };
    w.calls.set(kind, { requests: c.requests + 1, attempts: c.attempts + attempts });
  };
  const c = topology.creds;
  const s1 = { authorization: `Bearer ${c.s1Key}` };
  const s2 = { authorization: `Bearer ${c.s2Key}` };
  const s3 = { 'x-api-key': c.s3Key };
  const portal = { authorization: `Bearer ${c.portalToken}` };
  let rotationKey = c.rotation.key;
  const s1Screenings: string[] = [];
  const monitored: { name: string; dob: string }[] = [];
  const entries: string[] = [];
  let n = 0;

  const run = async (kind: string, call: Call): Promise<RawAnswer | undefined> => {
    const outcome = await careful(topology, call, options.requestDeadlineMs);
    count(kind, outcome.attempts);
    if (outcome.gaveUp) {
      w.gaveUp.push({ kind, reason: outcome.gaveUp });
      return undefined;
    }
    const answer = outcome.answer!;
    if (answer.status >= 400) {
      w.refused.push({ kind, status: answer.status, text: answer.text.slice(0, 300) });
      return undefined;
    }
    return answer;
  };
  const ack = (kind: string, ids: string[]) => w.acknowledged.push({ kind, ids });

  const actions: { weight: number; act(): Promise<void> }[] = [
    {
      weight: 5,
      async act() {
        const query = Math.random() < 0.5 ? NAMES[n % NAMES.length]! : innocent(n);
        const a = await run('S1 screening', { method: 'POST', path: '/api/v1/screening/cdd', headers: s1, json: { query }, idempotent: true });
        if (!a) return;
        ack('S1 screening', [String(a.body.screening.id)]);
        s1Screenings.push(String(a.body.screening.id));
      },
    },
    {
      weight: 2,
      async act() {
        const a = await run('S3 screening', { method: 'POST', path: '/api/v1/screening/cdd', headers: s3, json: { query: Math.random() < 0.5 ? NAMES[n % NAMES.length]! : innocent(n) }, idempotent: true });
        if (a) ack('S3 screening', [String(a.body.data.id)]);
      },
    },
    {
      weight: 2,
      async act() {
        // A subject with a date of birth (the portal takes one), enrolled in monitoring: an entry with the
        // same name and date of birth on the firm's list is a hit, so adding one must raise one alert.
        const subject = { name: innocent(n), dob: `19${50 + (n % 40)}-0${1 + (n % 9)}-1${n % 10}` };
        const a = await run('portal screening', { method: 'POST', path: '/api/portal/screenings', headers: portal, json: { kind: 'cdd', query: subject.name, date_of_birth: subject.dob }, idempotent: true });
        if (!a) return;
        ack('portal screening', [String(a.body.data.screening.uuid)]);
        if (await run('monitoring enrolment', { method: 'POST', path: `/api/v1/screening/${a.body.data.screening.uuid}/monitoring`, headers: s3, json: {}, passes: /complet|running|not found/i })) monitored.push(subject);
      },
    },
    {
      weight: 3,
      async act() {
        const a = await run('S2 subject check', {
          method: 'POST',
          path: '/api/v1/compliance/subject-checks',
          headers: s2,
          json: { first_name: 'Margaret', last_name: `${innocent(n).split(' ')[1]}`, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true } },
          idempotent: true,
        });
        if (a) ack('S2 subject check', [String(a.body.subject_check_id)]);
      },
    },
    {
      weight: 2,
      async act() {
        const a = await run('S1 person check', { method: 'POST', path: '/api/v1/person-checks', headers: s1, json: { full_name: innocent(n), purpose: 'employment', fcra_consent: true }, idempotent: true });
        if (a) ack('S1 person check', [String(a.body.person_check.id)]);
      },
    },
    {
      weight: 3,
      async act() {
        // A monitored subject's name on the firm's list: a list delta that monitoring must alert on once.
        const subject = monitored.length > 0 && Math.random() < 0.7 ? monitored[Math.floor(Math.random() * monitored.length)]! : { name: innocent(n), dob: '1971-04-03' };
        const a = await run('watchlist entry', { method: 'POST', path: `/api/v1/watchlists/${c.lists.s3}/entries`, headers: s3, json: { primary_name: subject.name, dates_of_birth: [subject.dob] }, idempotent: true });
        if (!a) return;
        ack('watchlist entry', [String(a.body.data.entry.entry_id)]);
        entries.push(String(a.body.data.entry.entry_id));
      },
    },
    {
      weight: 1,
      async act() {
        // Taken out of the pool while it is edited, as one integrator's records would be: otherwise another
        // client may remove it while this change is still retrying through a restart (a 404 that is right).
        const entry = entries.splice(Math.floor(Math.random() * entries.length), 1)[0];
        if (!entry) return;
        if (Math.random() < 0.5) {
          await run('entry change', { method: 'PATCH', path: `/api/v1/watchlists/${c.lists.s3}/entries/${entry}`, headers: s3, json: { reason: `changed ${n}` } });
          entries.push(entry);
          return;
        }
        // DELETE is idempotent for a careful client: a retry that finds the entry gone (404) is the same outcome.
        const outcome = await careful(topology, { method: 'DELETE', path: `/api/v1/watchlists/${c.lists.s3}/entries/${entry}`, headers: s3 }, options.requestDeadlineMs);
        count('entry removal', outcome.attempts);
        if (outcome.gaveUp) w.gaveUp.push({ kind: 'entry removal', reason: outcome.gaveUp });
        else if (outcome.answer!.status !== 200 && !(outcome.answer!.status === 404 && outcome.attempts > 1)) w.refused.push({ kind: 'entry removal', status: outcome.answer!.status, text: outcome.answer!.text.slice(0, 300) });
      },
    },
    {
      weight: 1,
      async act() {
        const rows = [{ name: innocent(n), dob: '1980-01-10' }, monitored[monitored.length - 1] ?? { name: innocent(n + 1), dob: '1981-02-11' }].map((r) => `${r.name},${r.dob}`);
        const a = await run('watchlist import', {
          method: 'POST',
          path: `/api/v1/watchlists/${c.lists.s3}/imports?file_name=chaos-${n}.csv`,
          headers: s3,
          body: `full_name,date_of_birth\n${rows.join('\n')}\n`,
          contentType: 'text/csv',
          idempotent: true,
        });
        if (a) ack('watchlist import', [String(a.body.data.import.import_id)]);
      },
    },
    {
      weight: 1,
      async act() {
        // A rotation revokes the key a retry would carry: if its answer is lost the client mints a new key with its session.
        const outcome = await careful(topology, { method: 'POST', path: '/api/v1/compliance/api-keys/rotate', headers: { authorization: `Bearer ${rotationKey}` } }, options.requestDeadlineMs);
        count('S2 key rotation', outcome.attempts);
        if (outcome.answer?.status === 201) {
          rotationKey = outcome.answer.body.key;
          w.rotations.acknowledged++;
          ack('S2 key rotation', [String(outcome.answer.body.token_prefix)]);
          return;
        }
        w.rotations.lost++;
        const minted = await run('S2 key (after a lost rotation)', { method: 'POST', path: '/api/account/api-keys', headers: { cookie: `auth_token=${c.rotation.sessionCookie}` }, json: { name: `chaos ${n}` }, idempotent: true });
        if (minted) rotationKey = minted.body.key ?? minted.body.data?.key ?? rotationKey;
      },
    },
    {
      weight: 2,
      async act() {
        const id = s1Screenings[Math.floor(Math.random() * s1Screenings.length)];
        if (!id) return;
        const detail = await run('screening read', { method: 'GET', path: `/api/v1/screening/${id}`, headers: s1 });
        const hits = detail ? Object.values((detail.body.screening?.hits ?? {}) as Record<string, { hit_id?: string }[]>).flat().filter((h) => h?.hit_id) : [];
        if (hits.length === 0 || detail?.body.screening?.status !== 'completed') return;
        const hit = hits[Math.floor(Math.random() * hits.length)]!;
        await run('analyst decision', {
          method: 'POST',
          path: `/api/v1/screening/${id}/hits/${encodeURIComponent(hit.hit_id!)}/disposition`,
          headers: s1,
          json: { disposition: Math.random() < 0.5 ? 'false_positive' : 'true_match', reason: 'chaos soak decision' },
        });
      },
    },
  ];
  const total = actions.reduce((sum, a) => sum + a.weight, 0);
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (!until()) {
        n++;
        let pick = Math.random() * total;
        const action = actions.find((a) => (pick -= a.weight) < 0) ?? actions[0]!;
        await action.act();
      }
    }),
  );
  return w;
}

// ------------------------------------------------------------------------------------------------
// The invariants

/** What the store says was created, per acknowledged kind, for the soak's own account. */
async function createdIds(db: pg.Pool, accountId: string): Promise<Map<string, string[]>> {
  const q = async (sql: string) => (await db.query<{ id: string }>(sql, [accountId])).rows.map((r) => r.id);
  return new Map([
    ['S1 screening', await q(`SELECT data->>'screeningId' AS id FROM events WHERE event_type = 'ScreeningRequested' AND data->>'accountId' = $1 AND data->>'surface' = 's1'`)],
    ['S3 screening', await q(`SELECT data->>'uuid' AS id FROM events WHERE event_type = 'ScreeningRequested' AND data->>'accountId' = $1 AND data->>'surface' = 's3'`)],
    ['portal screening', await q(`SELECT data->>'uuid' AS id FROM events WHERE event_type = 'ScreeningRequested' AND data->>'accountId' = $1 AND data->>'surface' = 'portal'`)],
    ['S2 subject check', await q(`SELECT data->>'subjectCheckId' AS id FROM events WHERE event_type = 'SubjectCheckStarted' AND data->>'accountId' = $1`)],
    ['S1 person check', await q(`SELECT data->>'personCheckId' AS id FROM events WHERE event_type = 'PersonCheckRequested' AND data->>'accountId' = $1`)],
    // Entries added one by one (with a key), not an import's rows.
    ['watchlist entry', await q(`SELECT data->'entry'->>'entryId' AS id FROM events WHERE event_type = 'EntryAdded' AND data->>'accountId' = $1 AND data->>'importId' IS NULL`)],
    ['watchlist import', await q(`SELECT data->>'importId' AS id FROM events WHERE event_type = 'ListImported' AND data->>'accountId' = $1`)],
    // Rotations are made on an account of their own; the new key's prefix names each.
    ['S2 key rotation', await q(`SELECT data->>'prefix' AS id FROM events WHERE event_type = 'ApiKeyRotated' AND data->>'accountId' <> $1`)],
  ]);
}

function operator(topology: Topology, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.tmpdir(), NODE_ENV: 'test', LOG_LEVEL: 'silent', LISTS_ONLY: 'fatf', ...testIndexCacheEnv(), ...topology.operatorEnv() },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A delivery as the receiver tells it apart: its id (S1, S3), or its exact body (S2 sends no id). */
function deliveryKey(surface: 's1' | 's2' | 's3', r: HttpsReceiver['requests'][number]): string {
  return surface === 's2' ? `body:${createHash('sha256').update(r.rawBody).digest('hex')}` : String(r.headers['x-service-delivery']);
}

async function checkInvariants(topology: Topology, receivers: Receivers, workload: Workload, settleDeadlineMs: number, log: (line: string) => void, exercised: string[]): Promise<Invariant[]> {
  const db = new pg.Pool({ connectionString: topology.databaseUrl(), max: 2 });
  db.on('error', () => undefined);
  const out: Invariant[] = [];
  const add = (name: string, ok: boolean, detail: string) => {
    out.push({ name, ok, detail });
    log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
  };
  try {
    // Nothing stuck: every workflow ends and every delivery is made within the settle deadline.
    const running = async () =>
      (
        await db.query<{ kind: string; n: number }>(`
          SELECT 'screening' AS kind, count(*)::int AS n FROM events r WHERE r.event_type = 'ScreeningRequested'
             AND NOT EXISTS (SELECT 1 FROM events c WHERE c.stream_name = r.stream_name AND c.event_type IN ('ScreeningCompleted', 'ScreeningFailed'))
          UNION ALL SELECT 'person check', count(*)::int FROM events r WHERE r.event_type = 'PersonCheckRequested'
             AND NOT EXISTS (SELECT 1 FROM events c WHERE c.stream_name = r.stream_name AND c.event_type IN ('PersonCheckCompleted', 'PersonCheckFailed'))
          UNION ALL SELECT 'subject check', count(*)::int FROM events r WHERE r.event_type = 'SubjectCheckStarted'
             AND NOT EXISTS (SELECT 1 FROM events c WHERE c.stream_name = r.stream_name AND c.event_type IN ('SubjectCheckCompleted', 'SubjectCheckReviewRequired', 'SubjectCheckEscalated', 'SubjectCheckFailed'))
          UNION ALL SELECT 'webhook delivery', count(*)::int FROM webhook_outbox WHERE status IN ('pending', 'delivering')`)
      ).rows;
    const settleStart = Date.now();
    let left = await running();
    while (left.some((r) => r.n > 0) && Date.now() - settleStart < settleDeadlineMs) {
      await new Promise((r) => setTimeout(r, 1000));
      left = await running().catch(() => left);
    }
    add('nothing stuck past its deadline', left.every((r) => r.n === 0), `${left.map((r) => `${r.kind} ${r.n}`).join(', ')} unfinished ${Math.round((Date.now() - settleStart) / 1000)} s after the load stopped (deadline ${settleDeadlineMs / 1000} s)`);

    // Every acknowledged request visible exactly once, and nothing created that no request was answered for.
    const created = await createdIds(db, topology.creds.accountId);
    const problems: string[] = [];
    let acknowledged = 0;
    for (const [kind, ids] of created) {
      const acked = workload.acknowledged.filter((a) => a.kind === kind).flatMap((a) => a.ids);
      acknowledged += acked.length;
      const count = new Map<string, number>();
      for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
      const missing = acked.filter((id) => (count.get(id) ?? 0) === 0);
      const twice = [...count].filter(([, n]) => n > 1);
      const ackedTwice = acked.length - new Set(acked).size;
      const orphans = ids.filter((id) => !acked.includes(id));
      // A rotation whose answer a kill cut may have happened (its key is then revoked, unknown to the client).
      const gaveUp = workload.gaveUp.filter((g) => g.kind === kind).length + (kind === 'S2 key rotation' ? workload.rotations.lost : 0);
      if (missing.length || twice.length || ackedTwice || orphans.length > gaveUp) problems.push(`${kind}: ${missing.length} missing, ${twice.length} created twice, ${ackedTwice} answered twice, ${orphans.length} not answered (${gaveUp} given up)`);
    }
    add('every acknowledged request visible exactly once', problems.length === 0, problems.join('; ') || `${acknowledged} acknowledged creates, each found once`);

    // No duplicate resource, event or delivery id.
    const dup = (await db.query<{ what: string; n: number }>(`
      SELECT 'event id' AS what, count(*)::int AS n FROM (SELECT event_id FROM events GROUP BY event_id HAVING count(*) > 1) d
      UNION ALL SELECT 'event kind in a workflow stream', count(*)::int FROM (
        SELECT stream_name, event_type, data->>'phase', data->>'agent' FROM events
         WHERE (stream_name LIKE 'screening-%' OR stream_name LIKE 'person-check-%' OR stream_name LIKE 'subject-check-%')
           AND event_type NOT IN ('PhaseRetried', 'HitDispositioned', 'HitReopened', 'RiskRecomputed', 'MonitoringAlertRaised', 'SubjectCheckMonitoringAlertRaised', 'MonitoringEnrolled', 'MonitoringUnenrolled', 'CaseAssigned', 'CaseUnassigned', 'PersonCheckResumed')
         GROUP BY 1, 2, 3, 4 HAVING count(*) > 1) d
      UNION ALL SELECT 'monitoring alert', count(*)::int FROM (SELECT data->>'alertId' FROM events WHERE event_type IN ('MonitoringAlertRaised', 'SubjectCheckMonitoringAlertRaised') GROUP BY 1 HAVING count(*) > 1) d
      UNION ALL SELECT 'webhook delivery id', count(*)::int FROM (SELECT delivery_id FROM webhook_outbox GROUP BY 1 HAVING count(*) > 1) d
      UNION ALL SELECT 'webhook per event', count(*)::int FROM (SELECT dedup_key FROM webhook_outbox WHERE dedup_key IS NOT NULL GROUP BY 1 HAVING count(*) > 1) d`)).rows;
    add('no duplicate resource, event or webhook delivery id', dup.every((d) => d.n === 0), dup.map((d) => `${d.what} ${d.n}`).join(', '));

    // Hash chains.
    const audit = operator(topology, ['audit', 'verify', '--json']);
    let auditOk = false;
    let auditDetail = audit.stderr.slice(0, 300);
    try {
      const report = JSON.parse(audit.stdout) as { ok: boolean; streams?: number; events?: number; problems?: unknown[] };
      auditOk = report.ok === true && audit.status === 0;
      auditDetail = `${report.streams ?? '?'} streams, ${report.events ?? '?'} events verified${report.problems?.length ? `; ${JSON.stringify(report.problems.slice(0, 3))}` : ''}`;
    } catch {
      // the detail is stderr
    }
    add('every hash chain verifies', auditOk, auditDetail);

    // Read models against a fresh rebuild.
    const rebuilt = operator(topology, ['projections', 'rebuild', 'all', '--scratch', '--json']);
    let modelsOk = false;
    let modelsDetail = rebuilt.stderr.slice(0, 300);
    try {
      const results = JSON.parse(rebuilt.stdout) as { projection: string; equal: boolean; tables: { table: string; liveRows: number; onlyLive: number; onlyRebuilt: number; examples: string[] }[] }[];
      modelsOk = rebuilt.status === 0 && results.every((r) => r.equal);
      const rows = results.reduce((sum, r) => sum + r.tables.reduce((s, t) => s + t.liveRows, 0), 0);
      const differing = results.filter((r) => !r.equal).map((r) => `${r.projection}: ${r.tables.filter((t) => t.onlyLive || t.onlyRebuilt).map((t) => `${t.table} ${t.onlyLive}/${t.onlyRebuilt} ${t.examples[0] ?? ''}`.slice(0, 300)).join('; ')}`);
      modelsDetail = differing.length ? differing.join(' | ') : `${results.length} read models, ${rows} rows, each equal to a rebuild`;
    } catch {
      // the detail is stderr
    }
    add('every read model equals a fresh rebuild', modelsOk, modelsDetail);

    // Webhooks: every delivery the outbox says succeeded was received (signature verified), and the
    // receiver, deduplicating by delivery id, counts exactly one per outbox row.
    const outbox = (await db.query<{ surface: 's1' | 's2' | 's3'; delivery_id: string; body: Buffer }>(`SELECT surface, delivery_id, body FROM webhook_outbox WHERE status = 'succeeded'`)).rows;
    const hookProblems: string[] = [];
    let seen = 0;
    let unique = 0;
    for (const surface of ['s1', 's2', 's3'] as const) {
      const valid = receivers[surface].requests.filter((r) => r.signatureValid);
      const got = new Map<string, number>();
      for (const r of valid) got.set(deliveryKey(surface, r), (got.get(deliveryKey(surface, r)) ?? 0) + 1);
      seen += valid.length;
      unique += got.size;
      const rows = outbox.filter((o) => o.surface === surface);
      // S2 bodies are the stored body bytes; S1 adds the signature member, so S1 and S3 are matched by id.
      const expected = new Set(rows.map((o) => (surface === 's2' ? `body:${createHash('sha256').update(o.body).digest('hex')}` : o.delivery_id)));
      const missed = [...expected].filter((k) => !got.has(k)).length;
      const unknown = [...got.keys()].filter((k) => !expected.has(k)).length;
      if (missed || unknown || got.size !== expected.size) hookProblems.push(`${surface}: ${expected.size} delivered per the outbox, ${got.size} distinct received, ${missed} never received, ${unknown} not in the outbox`);
    }
    add('each webhook delivery received at least once, exactly once by its id', hookProblems.length === 0, hookProblems.join('; ') || `${outbox.length} deliveries, ${seen} requests received (${seen - unique} redelivered), ${unique} after deduplication`);

    // What the run exercised, from the store (context for the table, not an invariant).
    const facts = (await db.query<{ event_type: string; n: number }>(
      `SELECT event_type, count(*)::int AS n FROM events WHERE event_type = ANY($1::text[]) GROUP BY 1 ORDER BY 1`,
      [['MonitoringAlertRaised', 'HitDispositioned', 'HitReopened', 'PhaseRetried', 'ListImported', 'ApiKeyRotated', 'PersonCheckResumed', 'ScreeningCompleted', 'SubjectCheckCompleted']],
    )).rows;
    exercised.push(...facts.map((f) => `${f.event_type} ${f.n}`));

    add('no request refused', workload.refused.length === 0, workload.refused.length ? JSON.stringify(workload.refused.slice(0, 3)) : 'every request got a 2xx (or, for a repeated removal, the 404 that confirms it)');
    add('no request given up', workload.gaveUp.length === 0, workload.gaveUp.length ? JSON.stringify(workload.gaveUp.slice(0, 3)) : 'every request answered within its deadline');
  } finally {
    await db.end();
  }
  return out;
}

// ------------------------------------------------------------------------------------------------

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const receivers = {} as Receivers;
  for (const surface of ['s1', 's2', 's3'] as const) receivers[surface] = await startHttpsReceiver({ surface, secret: 'set-after-enrolment' });
  let topology: Topology | undefined;
  try {
    topology = options.mode === 'embedded' ? await embeddedTopology(receivers, log) : await scaledTopology(receivers, options.workers ?? 2, log);
    for (const surface of ['s1', 's2', 's3'] as const) receivers[surface].setSecret(topology.creds.webhookSecrets[surface]!);
    log(`${options.mode}: up at ${topology.url()}; workload for ${Math.round(options.durationMs / 1000)} s with kills every ${options.killEveryMs.join('-')} ms`);
    const started = Date.now();
    const end = started + options.durationMs;
    const kills: Partial<Record<KillKind, number>> = {};
    let landed = 0;
    const done = () => Date.now() >= end && landed >= (options.minKills ?? 0);
    const killer = (async () => {
      const t = topology!;
      const total = t.kinds.reduce((s, k) => s + k.weight, 0);
      for (;;) {
        const [min, max] = options.killEveryMs;
        await new Promise((r) => setTimeout(r, min + Math.random() * (max - min)));
        if (done()) return;
        let pick = Math.random() * total;
        const kind = t.kinds.find((k) => (pick -= k.weight) < 0)?.kind ?? 'serve';
        const at = Math.round((Date.now() - started) / 1000);
        await t.kill(kind);
        kills[kind] = (kills[kind] ?? 0) + 1;
        landed++;
        log(`t+${at}s kill -9 ${kind} (#${landed}), back up after ${Math.round((Date.now() - started) / 1000) - at} s`);
      }
    })();
    const workload = await runWorkload(topology, { clients: options.clients ?? 4, requestDeadlineMs: options.requestDeadlineMs ?? 300_000 }, done);
    await killer;
    await topology.restarted();
    log(`workload stopped: ${workload.acknowledged.length} creates acknowledged; checking`);
    const exercised: string[] = [];
    const invariants = await checkInvariants(topology, receivers, workload, options.settleDeadlineMs ?? 300_000, log, exercised);
    const kinds = [...workload.calls.keys()].sort();
    return {
      mode: options.mode,
      minutes: Math.round(((Date.now() - started) / 60_000) * 10) / 10,
      kills,
      killCount: Object.values(kills).reduce((s, n) => s + n, 0),
      requests: kinds.map((kind) => {
        const calls = workload.calls.get(kind)!;
        return { kind, requests: calls.requests, acknowledged: workload.acknowledged.filter((a) => a.kind === kind).length, retries: calls.attempts - calls.requests, gaveUp: workload.gaveUp.filter((g) => g.kind === kind).length };
      }),
      rotations: workload.rotations,
      exercised,
      invariants,
      ok: invariants.every((i) => i.ok),
    };
  } finally {
    await topology?.stop().catch(() => undefined);
    for (const r of Object.values(receivers)) await r.close().catch(() => undefined);
  }
}

/** The result as Markdown tables. */
export function chaosTable(result: ChaosResult, note = ''): string {
  const lines = [
    `### ${result.mode === 'embedded' ? 'Embedded default' : 'Scaled mode'}: ${result.minutes} min, ${result.killCount} kills (${Object.entries(result.kills).map(([k, n]) => `${k} ${n}`).join(', ')})${note}`,
    '',
    '| Invariant | Holds | Evidence |',
    '| --- | --- | --- |',
    ...result.invariants.map((i) => `| ${i.name} | ${i.ok ? 'yes' : '**NO**'} | ${i.detail.replace(/\|/g, '\\|')} |`),
    '',
    '| Requests | Made | Creates acknowledged | Retries (same key) | Given up |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...result.requests.map((r) => `| ${r.kind} | ${r.requests} | ${r.acknowledged} | ${r.retries} | ${r.gaveUp} |`),
    '',
    `Key rotations: ${result.rotations.acknowledged} answered, ${result.rotations.lost} lost to a kill (the client then minted a key with its S2 session).`,
    '',
    `In the store at the end: ${result.exercised.join(', ')}.`,
    '',
  ];
  return lines.join('\n');
}

