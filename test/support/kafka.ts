/**
 * A real Kafka-protocol broker for tests: librdkafka's mock cluster (librdkafka-dev),
 * started through the small C launcher in ./kafka-mock. The launcher is compiled once
 * and cached under .tmp/ keyed by the hash of its source, so edits recompile it.
 */
import { spawn, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createInterface } from 'node:readline';

const execFileAsync = promisify(execFile);

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const launcherSource = join(here, 'kafka-mock', 'mock-broker.c');

export interface MockKafkaOptions {
  /** Topics created at start (the mock does not support CreateTopics from clients). */
  topics?: { name: string; partitions?: number }[];
  /** Number of brokers in the cluster (default 1). */
  brokers?: number;
  /** How long to wait for the bootstrap line (default 10 s; each topic takes the mock a moment). */
  startTimeoutMs?: number;
}

export interface MockKafka {
  /** host:port of every broker, for kafkajs's `brokers`. */
  brokers: string[];
  /** OS process id of the launcher (the whole mock cluster). */
  pid: number;
  stop(): Promise<void>;
}

let compiled: Promise<string> | undefined;

/** Compiles the launcher unless a binary for this exact source already exists. */
export function compileMockBroker(): Promise<string> {
  compiled ??= (async () => {
    const source = readFileSync(launcherSource);
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
    const dir = join(repoRoot, '.tmp', 'kafka-mock');
    const binary = join(dir, `mock-broker-${hash}`);
    if (existsSync(binary)) return binary;
    mkdirSync(dir, { recursive: true });
    let flags: string[];
    try {
      const { stdout } = await execFileAsync('pkg-config', ['--cflags', '--libs', 'rdkafka']);
      flags = stdout.trim().split(/\s+/).filter(Boolean);
    } catch (error) {
      throw new Error(
        'pkg-config cannot find rdkafka: install librdkafka-dev (scripts/install-test-deps.sh does it as root)',
        { cause: error },
      );
    }
    // Compile to a private name and rename: parallel test files may race to build it.
    const partial = `${binary}.${process.pid}.tmp`;
    await execFileAsync('cc', ['-O1', '-o', partial, launcherSource, ...flags]);
    renameSync(partial, binary);
    return binary;
  })();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

export async function startMockKafka(opts: MockKafkaOptions = {}): Promise<MockKafka> {
  const binary = await compileMockBroker();
  const args = ['--brokers', String(opts.brokers ?? 1)];
  for (const topic of opts.topics ?? []) args.push('--topic', `${topic.name}:${topic.partitions ?? 1}`);

  const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));

  const bootstrap = await new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timeoutMs = opts.startTimeoutMs ?? 10_000;
    const timer = setTimeout(() => reject(new Error(`mock broker did not start within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      resolveLine(line.trim());
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mock broker exited with ${code} before printing its bootstrap: ${stderr}`));
    });
  });

  let stopping: Promise<void> | undefined;
  return {
    brokers: bootstrap.split(',').filter(Boolean),
    pid: child.pid ?? -1,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.stdin.end(); // the launcher exits when stdin closes
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
