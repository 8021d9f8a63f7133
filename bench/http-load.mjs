/**
 * Closed-loop HTTP load generator for bench/http.ts, run as a separate process so the clients never
 * share the service's event loop or its CPU accounting. Reads a JSON job on stdin:
 *   { url, clients, requestsPerClient, warmupPerClient, keys: string[][] (per client), names: string[] }
 * Each client sends POST /api/v1/screening/cdd one after another on its own keep-alive connection,
 * moving to its next key every `requestsPerKey` requests (the S1 limit is 60/min per key).
 * Prints { latenciesMs: number[], elapsedMs, non2xx, statuses } for the measured requests only.
 */
import http from 'node:http';

const job = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => resolve(text));
}));

const target = new URL(job.url);
function post(agent, key, name) {
  const body = JSON.stringify({ query: name, entity_type: 'individual' });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { host: target.hostname, port: target.port, path: '/api/v1/screening/cdd', method: 'POST', agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${key}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function client(index, count, offset, record) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const keys = job.keys[index];
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    const key = keys[Math.floor(n / job.requestsPerKey) % keys.length];
    const result = await post(agent, key, job.names[(index * 7 + n) % job.names.length]);
    if (record) record(result);
  }
  agent.destroy();
}

// Warm-up (not measured): connections, JIT, caches.
await Promise.all(Array.from({ length: job.clients }, (_, c) => client(c, job.warmupPerClient, 0)));
const latenciesMs = [];
const statuses = {};
let non2xx = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: job.clients }, (_, c) =>
    client(c, job.requestsPerClient, job.warmupPerClient, (r) => {
      latenciesMs.push(r.ms);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status < 200 || r.status >= 300) non2xx++;
    }),
  ),
);
const elapsedMs = performance.now() - started;
process.stdout.write(JSON.stringify({ latenciesMs, elapsedMs, non2xx, statuses }));
