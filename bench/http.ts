/**
 * End-to-end CDD over HTTP in the embedded default (a script, not a test): npx tsx bench/http.ts
 *
 * Starts the whole service (embedded-style: in-process bus, bundled lists) on a fresh database,
 * then drives POST /api/v1/screening/cdd with autocannon at 1 and 16 concurrent clients, next to
 * the bare matcher time measured in the same run. The S1 rate limit (60/min per key) would stop a
 * load test after 60 requests, so each connection gets its own key and the run is bounded by
 * count, not time (one account and key per client): the figures measure the pipeline, not the limiter.
 * Writes bench/RESULTS-http.md.
 */
import os from 'node:os';
import fs from 'node:fs';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { startTestService } from '../test/support/service';

const names = ['Vladimir Putin', 'John Smithers', 'Kim Jong Un', 'Acme Trading Ltd', 'Margaret Thistlewood', 'Rosneft', 'Banco Nacional de Cuba', 'Ali Hassan'];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  const svc = await startTestService({ env: { LOG_LEVEL: 'silent', SCREENING_WAIT_MS: '20000' } });
  const engine = svc.service.engine();

  // Baseline: the bare matcher, in process, over the same names.
  const bare: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t0 = performance.now();
    engine.screen({ name: names[i % names.length]!, schema: 'person' }, { threshold: 0.8 });
    bare.push(performance.now() - t0);
  }

  const results: { connections: number; requests: number; non2xx: number; rps: number; latency_median_ms: number; latency_p99_ms: number }[] = [];
  for (const connections of [1, 16]) {
    // 55 requests per key keeps every key under its 60/min rate limit.
    const perConnection = 55;
    // One account per client: an account has at most 10 active S1 keys.
    const keys: { key: string }[] = [];
    for (let i = 0; i < connections; i++) keys.push(await svc.createKey((await svc.createAccount('enterprise')).accountId, 's1'));
    const amount = perConnection * connections;
    let counter = 0;
    const result = await autocannon({
      url: `${svc.url}/api/v1/screening/cdd`,
      connections,
      amount,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: Record<string, unknown>) => {
            const i = counter++;
            return {
              ...req,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[i % connections]!.key}` },
              body: JSON.stringify({ query: names[i % names.length], entity_type: 'individual' }),
            };
          },
        },
      ],
    });
    results.push({
      connections,
      requests: result.requests.total,
      non2xx: result.non2xx,
      rps: Math.round(result.requests.average * 10) / 10,
      latency_median_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
    });
  }
  await svc.stop();

  const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const bareMedian = percentile(bare, 50);
  const report = {
    machine,
    bare_matcher_median_ms: Math.round(bareMedian * 1000) / 1000,
    bare_matcher_p99_ms: Math.round(percentile(bare, 99) * 1000) / 1000,
    http: results.map((r) => ({ ...r, median_vs_bare_matcher: Math.round((r.latency_median_ms / bareMedian) * 10) / 10 })),
  };
  console.log(JSON.stringify(report, null, 2));
  const lines = [
    '# End-to-end CDD over HTTP (embedded default)',
    '',
    `Machine: ${machine}. Measured ${new Date().toISOString()} with \`npx tsx bench/http.ts\`.`,
    '',
    `Bare matcher (same run, same names): median ${report.bare_matcher_median_ms} ms, p99 ${report.bare_matcher_p99_ms} ms.`,
    '',
    '| clients | requests | non-2xx | req/s | median ms | p99 ms | median ÷ bare matcher |',
    '|---|---|---|---|---|---|---|',
    ...report.http.map((r) => `| ${r.connections} | ${r.requests} | ${r.non2xx} | ${r.rps} | ${r.latency_median_ms} | ${r.latency_p99_ms} | ${r.median_vs_bare_matcher}× |`),
    '',
  ];
  fs.writeFileSync(new URL('./RESULTS-http.md', import.meta.url), lines.join('\n'));
}

await main();
