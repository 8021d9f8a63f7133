/**
 * GET of one screening's detail with 50 hits (a script, not a test): npx tsx bench/screening-detail.ts
 *
 * Starts the service as `npm start` does (embedded PostgreSQL, in-process bus, bundled lists, all
 * agents, read models), screens a name over S1, then gives the screening 50 hits in all: the list
 * agents' real hits for further names, recorded on its stream as one more agent result (the bench
 * appends that event itself, as the pipeline would), and two analyst dispositions through the API.
 * Then GET /api/v1/screening/:id over HTTP, in alternating rounds:
 *   - fold: the report folded from the whole stream on every GET (how every read worked before the
 *     screening-detail read model; the bench switches the service's get() to `from: 'stream'`);
 *   - read model: the stored fold of src/projections/read-models/screening-details.ts (the default).
 * Both answers are checked to be the same JSON first. Env: BENCH_ROUNDS (default 4), BENCH_GETS per
 * round and mode (default 55; S1's per-key limit caps HTTP GETs), BENCH_INPROCESS_ROUNDS (default 10, of 100 service.get calls). Prints JSON and writes bench/RESULTS-screening-detail.md.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createListAgents } from '../src/agents/lists/list-agents';
import { loadConfig } from '../src/config/config';
import { startService } from '../src/bootstrap/service';
import type { ReportHit } from '../src/reports/model';
import { createLogger } from '../src/shared/logger';
import { accountHelpers } from '../test/support/service';

const HITS = 50;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-detail-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as an unprivileged user when we are root
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCREENING_WAIT_MS: '20000' };
  const service = await startService({ config: loadConfig(env), logger: createLogger({ level: 'silent' }), http: true, agents: 'all', projections: true });
  try {
    await service.monitoring?.lists.flush();
    const { createAccount, createKey } = accountHelpers(service);
    const { accountId } = await createAccount('enterprise');
    // S1 allows 60 requests a minute per key and 10 active keys per account: the GETs rotate over 10 keys.
    const keys: string[] = [];
    for (let k = 0; k < 10; k++) keys.push((await createKey(accountId, 's1')).key);
    let calls = 0;
    const call = async (method: string, urlPath: string, body?: unknown) => {
      const key = keys[Math.floor(calls++ / 50) % keys.length]!;
      const res = await fetch(`${service.url}${urlPath}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, text: await res.text() };
    };

    // A screening, then real hits of further names until it has HITS in all.
    const created = await call('POST', '/api/v1/screening/cdd', { query: 'Ali Hassan', entity_type: 'individual' });
    if (created.status !== 201) throw new Error(`screening not created: ${created.status} ${created.text}`);
    const id = (JSON.parse(created.text) as { screening: { id: number } }).screening.id;
    const stream = `screening-${id}`;
    const current = await service.services.screenings.get(accountId, id);
    const have = new Set(current!.hits.map((h) => h.hit_id));
    const extra: ReportHit[] = [];
    const agents = createListAgents(() => service.engine());
    for (const name of ['Mohammed Ali', 'Kim Jong', 'Hassan Ahmed', 'Abdul Rahman', 'Ahmed Ali', 'Ali Mohammed', 'Hussein Ali', 'Omar Hassan', 'Ivanov', 'Petrov']) {
      for (const agent of agents) {
        const outcome = await agent.run({ workflow: stream, name, entityType: 'individual' }, { signal: new AbortController().signal });
        for (const hit of outcome.hits) {
          if (have.size + extra.length >= HITS || have.has(hit.hitId) || extra.some((h) => h.hitId === hit.hitId)) continue;
          extra.push(hit);
        }
      }
    }
    const events = await service.store.readStream(stream);
    const now = new Date().toISOString();
    await service.store.appendToStream(
      stream,
      [{ type: 'AgentResultRecorded', data: { screeningId: String(id), phase: 'lists', agent: 'sanctions', queried: true, result: { hits: extra }, startedAt: now, finishedAt: now }, metadata: { eventId: randomUUID(), occurredAt: now, correlationId: randomUUID() } }],
      { expectedRevision: events[events.length - 1]!.streamPosition },
    );
    const all = [...have, ...extra.map((h) => h.hitId)];
    for (const [hitId, disposition] of [[all[0]!, 'true_match'], [all[1]!, 'false_positive']] as const) {
      const res = await call('POST', `/api/v1/screening/${id}/hits/${encodeURIComponent(hitId)}/disposition`, { disposition, reason: 'bench' });
      if (res.status !== 200) throw new Error(`disposition: ${res.status} ${res.text}`);
    }
    await service.runner!.caughtUp();
    const streamLength = (await service.store.readStream(stream)).length;

    // The fold path, switched on for the "fold" rounds (the router calls this same object).
    const screenings = service.services.screenings;
    const readModelGet = screenings.get.bind(screenings);
    const use = (from: 'read_model' | 'stream') => {
      screenings.get = (account, screening) => readModelGet(account, screening, { from });
    };
    use('stream');
    const folded = await call('GET', `/api/v1/screening/${id}`);
    use('read_model');
    const projected = await call('GET', `/api/v1/screening/${id}`);
    if (folded.status !== 200 || folded.text !== projected.text) throw new Error('the read model and the fold answer differently');
    const hitCount = Object.values((JSON.parse(projected.text) as { screening: { hits: Record<string, unknown[]> } }).screening.hits).reduce((n, list) => n + list.length, 0);

    // Over HTTP at most 500 GETs in all (the keys' minute); in process (service.get, no HTTP or limiter) many more.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
    const gets = Number(process.env.BENCH_GETS ?? 55);
    const times: Record<'fold' | 'read_model', number[]> = { fold: [], read_model: [] };
    const cpu: Record<'fold' | 'read_model', number> = { fold: 0, read_model: 0 };
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 === 0 ? (['fold', 'read_model'] as const) : (['read_model', 'fold'] as const)) {
        use(mode === 'fold' ? 'stream' : 'read_model');
        for (let i = 0; i < 3; i++) await call('GET', `/api/v1/screening/${id}`); // warm-up
        const before = process.cpuUsage();
        for (let i = 0; i < gets; i++) {
          const t0 = performance.now();
          const res = await call('GET', `/api/v1/screening/${id}`);
          times[mode].push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`GET ${res.status}`);
        }
        const used = process.cpuUsage(before);
        cpu[mode] += (used.user + used.system) / 1000;
      }
    }
    use('read_model');
    // In process: the service's get() itself, both ways alternated, many more times.
    const inProcess: Record<'fold' | 'read_model', number[]> = { fold: [], read_model: [] };
    const inProcessRounds = Number(process.env.BENCH_INPROCESS_ROUNDS ?? 10);
    for (let r = 0; r < inProcessRounds; r++) {
      for (const mode of r % 2 === 0 ? (['fold', 'read_model'] as const) : (['read_model', 'fold'] as const)) {
        const from = mode === 'fold' ? 'stream' : 'read_model';
        for (let i = 0; i < 10; i++) await readModelGet(accountId, id, { from });
        for (let i = 0; i < 100; i++) {
          const t0 = performance.now();
          await readModelGet(accountId, id, { from });
          inProcess[mode].push(performance.now() - t0);
        }
      }
    }
    const summary = (mode: 'fold' | 'read_model') => ({
      median_ms: round(percentile(times[mode], 50), 3),
      p99_ms: round(percentile(times[mode], 99), 3),
      process_cpu_ms_per_get: round(cpu[mode] / times[mode].length, 3),
      in_process_median_ms: round(percentile(inProcess[mode], 50), 3),
      in_process_p99_ms: round(percentile(inProcess[mode], 99), 3),
    });
    const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
    const report = {
      machine,
      hits: hitCount,
      stream_events: streamLength,
      response_bytes: projected.text.length,
      gets_per_mode: times.fold.length,
      fold: summary('fold'),
      read_model: summary('read_model'),
    };
    const ratio = {
      median: round(report.fold.median_ms / report.read_model.median_ms),
      cpu: round(report.fold.process_cpu_ms_per_get / report.read_model.process_cpu_ms_per_get),
      in_process_median: round(report.fold.in_process_median_ms / report.read_model.in_process_median_ms),
    };
    console.log(JSON.stringify({ ...report, fold_over_read_model: ratio }, null, 2));
    const lines = [
      '# GET of a screening with 50 hits: fold of the stream vs the screening-detail read model',
      '',
      `Machine: ${machine}. Measured ${new Date().toISOString()} with \`npx tsx bench/screening-detail.ts\`: the service as \`npm start\` runs it`,
      `(embedded PostgreSQL, in-process bus, bundled lists), one S1 screening with ${report.hits} hits (${report.stream_events} events on its stream, two dispositions),`,
      `GET /api/v1/screening/:id over HTTP one at a time, ${rounds} alternating rounds of ${gets} per mode, same process, same answer (checked).`,
      'The machine is shared: absolute times are noisy, the ratio (same run, alternated) is the figure.',
      '',
      `In process: the service's get() alone (no HTTP, no limiter), ${inProcessRounds} alternating rounds of 100 per mode.`,
      '',
      '| mode | HTTP median ms | HTTP p99 ms | process CPU ms / HTTP GET (service and client) | in-process median ms | in-process p99 ms |',
      '|---|---|---|---|---|---|',
      `| fold of the stream (before) | ${report.fold.median_ms} | ${report.fold.p99_ms} | ${report.fold.process_cpu_ms_per_get} | ${report.fold.in_process_median_ms} | ${report.fold.in_process_p99_ms} |`,
      `| read model (after) | ${report.read_model.median_ms} | ${report.read_model.p99_ms} | ${report.read_model.process_cpu_ms_per_get} | ${report.read_model.in_process_median_ms} | ${report.read_model.in_process_p99_ms} |`,
      '',
      `Fold ÷ read model: HTTP median ${ratio.median}×, CPU ${ratio.cpu}×, in-process median ${ratio.in_process_median}×. Response ${report.response_bytes} bytes.`,
      '',
    ];
    fs.writeFileSync(new URL('./RESULTS-screening-detail.md', import.meta.url), lines.join('\n'));
  } finally {
    await service.stop();
    if (process.env.BENCH_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
