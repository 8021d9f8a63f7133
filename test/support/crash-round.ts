/**
 * One kill -9 round (issue 19): the embedded service as a child process (test/support/crash-service.ts,
 * its own process group with its PostgreSQL), a burst of concurrent S1 CDD requests, SIGKILL of
 * the whole group after the Nth answer (the node process and PostgreSQL die at once, as in a power
 * loss), a restart on the same DATA_DIR, then a check of every screening in the event store:
 *
 * - stuck: still running once the recovery bound has passed (must be 0);
 * - lost: a 2xx answer whose screening is not in the store, or not ended (must be 0);
 * - duplicated: a request recorded as more than one screening, or a screening completed twice,
 *   or an agent result recorded twice for one phase (must be 0);
 * - with a data gap: completed with agents recorded as not queried because of the phase deadline.
 *
 * Used by test/e2e/crash-recovery.test.ts (one round) and scripts/crash-recovery.ts (several).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import type { SurfaceCredentials } from './surface-credentials';
import { testIndexCacheEnv } from './index-cache';
import { answersRecordedBy } from '../../src/commands/screening';

export interface CrashRoundOptions {
  requests?: number;
  /** SIGKILL after this many answers. */
  killAfterAnswers?: number;
  /** Extra environment of the service (deadlines). */
  env?: Record<string, string>;
  /** How long after the restart every screening must have ended (deadline + grace). */
  recoveryBoundMs: number;
  log?: (line: string) => void;
}

export interface CrashRoundResult {
  requests: number;
  answered2xx: number;
  answeredOther: number;
  cutByKill: number;
  screeningsInStore: number;
  stuck: number;
  lost: number;
  duplicated: number;
  withDataGap: number;
  retriedPhases: number;
  /** From the restart being ready to the last screening ending (ms). */
  recoveredInMs: number;
  readyzOverdueAfter: Record<string, number> | undefined;
  /** What the restarted process's supervisor did for screenings (/metrics svc_supervisor_actions_total). */
  supervisorActions: Record<string, number>;
}

export interface Ready {
  url: string;
  key: string;
  keys: string[];
  databaseUrl: string;
  pid: number;
  /** With TEST_SURFACES set: credentials on every surface. */
  surfaces?: SurfaceCredentials;
}

const serviceEntry = new URL('./crash-service.ts', import.meta.url).pathname;

export function startChild(dataDir: string, env: Record<string, string>): { child: ChildProcess; ready: Promise<Ready> } {
  const child = spawn(process.execPath, ['--import', 'tsx', serviceEntry], {
    detached: true, // its own process group: SIGKILL reaches PostgreSQL too
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: process.env.CRASH_LOG_LEVEL ?? 'silent', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...testIndexCacheEnv(), ...env },
  });
  const ready = new Promise<Ready>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)) as Ready);
    });
    child.once('exit', (code, signal) => reject(new Error(`service exited before ready (code ${code}, signal ${signal})`)));
  });
  return { child, ready };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

interface StreamFacts {
  stream: string;
  query: string;
  requested: number;
  completed: number;
  failed: number;
  duplicateResults: number;
  gap: boolean;
  retried: number;
  endedAt: number | undefined;
}

async function inspect(databaseUrl: string): Promise<StreamFacts[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ stream_name: string; event_type: string; data: Record<string, unknown>; recorded_at: Date }>(
      `SELECT stream_name, event_type, data, recorded_at FROM events WHERE stream_name LIKE 'screening-%' ORDER BY global_position`,
    );
    const byStream = new Map<string, StreamFacts & { results: Set<string> }>();
    for (const row of rows) {
      let facts = byStream.get(row.stream_name);
      if (!facts) {
        facts = { stream: row.stream_name, query: '', requested: 0, completed: 0, failed: 0, duplicateResults: 0, gap: false, retried: 0, endedAt: undefined, results: new Set() };
        byStream.set(row.stream_name, facts);
      }
      const d = row.data;
      switch (row.event_type) {
        case 'ScreeningRequested':
          facts.requested++;
          facts.query = (d.subject as { query: string }).query;
          break;
        case 'ScreeningCompleted':
          facts.completed++;
          facts.endedAt = row.recorded_at.getTime();
          break;
        case 'ScreeningFailed':
          facts.failed++;
          facts.endedAt = row.recorded_at.getTime();
          break;
        case 'PhaseRetried':
          facts.retried++;
          break;
        case 'AgentResultRecorded':
        case 'PhaseCompleted':
          // Each answer once per phase and agent, whether recorded alone or in its phase's completion (v2 results).
          for (const answer of answersRecordedBy({ type: row.event_type, data: d })) {
            const key = `${answer.phase}/${answer.agent}`;
            if (facts.results.has(key)) facts.duplicateResults++;
            facts.results.add(key);
            if (!answer.queried && String(answer.error).startsWith('no answer before the phase deadline')) facts.gap = true;
          }
          break;
      }
    }
    return [...byStream.values()];
  } finally {
    await client.end();
  }
}

export async function runCrashRound(options: CrashRoundOptions): Promise<CrashRoundResult> {
  const log = options.log ?? (() => {});
  const requests = options.requests ?? 60;
  const killAfter = options.killAfterAnswers ?? 5;
  const env = options.env ?? {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
  fs.chmodSync(dataDir, 0o755); // the unprivileged postgres OS user must reach the data dir inside
  let child: ChildProcess | undefined;
  try {
    // Boot 1 and the burst.
    const first = startChild(dataDir, env);
    child = first.child;
    const { url, key } = await first.ready;
    log(`service up at ${url}; firing ${requests} CDD requests`);
    const tag = Math.random().toString(36).slice(2, 8);
    let answers = 0;
    let killed = false;
    const ok: { query: string; id: number }[] = [];
    let other = 0;
    let cut = 0;
    const killNow = () => {
      if (killed) return;
      killed = true;
      process.kill(-first.child.pid!, 'SIGKILL');
    };
    await Promise.all(
      Array.from({ length: requests }, async (_, i) => {
        const query = `Crash Subject ${tag} ${String(i).padStart(3, '0')}`;
        try {
          const res = await fetch(`${url}/api/v1/screening/cdd`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query, entity_type: i % 3 === 0 ? 'company' : 'individual' }),
          });
          const body = (await res.json()) as { screening?: { id: number } };
          if (res.status >= 200 && res.status < 300 && body.screening) ok.push({ query, id: body.screening.id });
          else other++;
        } catch {
          cut++;
          return;
        }
        answers++;
        if (answers >= killAfter) killNow();
      }),
    );
    killNow();
    await exited(first.child);
    log(`killed after ${answers} answers (${ok.length} 2xx, ${other} other, ${cut} cut)`);

    // Boot 2 on the same DATA_DIR: recovery.
    const second = startChild(dataDir, env);
    child = second.child;
    const { url: url2, databaseUrl } = await second.ready;
    const restartedAt = Date.now();
    log('restarted; waiting for every screening to end');
    let facts = await inspect(databaseUrl);
    while (Date.now() - restartedAt < options.recoveryBoundMs && facts.some((f) => f.completed + f.failed === 0)) {
      await new Promise((r) => setTimeout(r, 250));
      facts = await inspect(databaseUrl);
    }
    const lastEnd = Math.max(restartedAt, ...facts.map((f) => f.endedAt ?? 0));
    // /readyz after recovery: the supervisor's next pass finds nothing overdue.
    const interval = Number(env.SUPERVISOR_INTERVAL_MS ?? 5_000);
    await new Promise((r) => setTimeout(r, interval * 2 + 200));
    const readyz = (await (await fetch(`${url2}/readyz`)).json()) as { overdue?: Record<string, number> };
    const metrics = await (await fetch(`${url2}/metrics`)).text();
    const supervisorActions: Record<string, number> = {};
    for (const m of metrics.matchAll(/^svc_supervisor_actions_total\{kind="screening",action="(\w+)"\} (\d+)$/gm)) supervisorActions[m[1]!] = Number(m[2]);

    const byQuery = new Map<string, number>();
    for (const f of facts) byQuery.set(f.query, (byQuery.get(f.query) ?? 0) + 1);
    const byId = new Map(facts.map((f) => [f.stream, f]));
    const result: CrashRoundResult = {
      requests,
      answered2xx: ok.length,
      answeredOther: other,
      cutByKill: cut,
      screeningsInStore: facts.length,
      stuck: facts.filter((f) => f.completed + f.failed === 0).length,
      lost: ok.filter((o) => {
        const f = byId.get(`screening-${o.id}`);
        return !f || f.query !== o.query || f.completed + f.failed === 0;
      }).length,
      duplicated:
        [...byQuery.values()].filter((n) => n > 1).length +
        facts.filter((f) => f.requested !== 1 || f.completed > 1 || f.completed + f.failed > 1 || f.duplicateResults > 0).length,
      withDataGap: facts.filter((f) => f.gap).length,
      retriedPhases: facts.reduce((n, f) => n + f.retried, 0),
      recoveredInMs: lastEnd - restartedAt,
      readyzOverdueAfter: readyz.overdue,
      supervisorActions,
    };
    second.child.kill('SIGTERM');
    await exited(second.child);
    child = undefined;
    return result;
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      await exited(child);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
