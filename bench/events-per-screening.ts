/**
 * Events and stored bytes per CDD screening in the embedded default (a script, not a test; the figures
 * are counts, so the machine's load does not change them):
 *   npx tsx bench/events-per-screening.ts                          this checkout
 *   BENCH_ROOT=/path/to/other/checkout npx tsx bench/events-per-screening.ts   another one (its node_modules needed)
 *
 * Starts the service as bench/http.ts does (fresh DATA_DIR, embedded PostgreSQL, in-process bus, bundled
 * lists, all agents), sends bench/http.ts's eight names to POST /api/v1/screening/cdd one after another
 * (each answer waits for the screening to complete), then reads the screening streams' rows: events per
 * screening, and bytes per screening as `length(data::text) + length(metadata::text)`, in all and per
 * event type. Prints JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const names = ['Vladimir Putin', 'John Smithers', 'Kim Jong Un', 'Acme Trading Ltd', 'Margaret Thistlewood', 'Rosneft', 'Banco Nacional de Cuba', 'Ali Hassan'];
const root = path.resolve(process.env.BENCH_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));

interface Service {
  url: string | undefined;
  pool: { query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }> };
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-events-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as an unprivileged user when we are root
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCREENING_WAIT_MS: '20000' };
  const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
  const { loadConfig } = await load('src/config/config.ts');
  const { createLogger } = await load('src/shared/logger.ts');
  const { accountHelpers } = await load('test/support/service.ts');
  // The composition root moved to src/bootstrap after cbc238a.
  const composition = fs.existsSync(path.join(root, 'src/bootstrap/service.ts')) ? 'src/bootstrap/service.ts' : 'src/app/composition.ts';
  const { startService } = await load(composition);
  const service: Service = await startService({
    config: loadConfig(env),
    env: { ...process.env, ...env },
    logger: createLogger({ level: 'silent' }),
    http: true,
    agents: 'all',
    projections: true,
  });
  try {
    const { createAccount, createKey } = accountHelpers(service);
    const { accountId } = await createAccount('enterprise');
    const { key } = await createKey(accountId, 's1');
    for (const name of names) {
      const response = await fetch(`${service.url}/api/v1/screening/cdd`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: name, entity_type: 'individual' }),
      });
      const body = (await response.json()) as { screening?: { status?: string } };
      if (response.status >= 300 || body.screening?.status !== 'completed') throw new Error(`${name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    const { rows } = await service.pool.query<{ type: string; events: string; bytes: string }>(
      `SELECT event_type AS type, count(*) AS events, sum(length(data::text) + length(metadata::text)) AS bytes
         FROM events WHERE stream_name LIKE 'screening-%' GROUP BY event_type ORDER BY event_type`,
    );
    const screenings = names.length;
    const per = (n: number) => Math.round((n / screenings) * 100) / 100;
    const total = (field: 'events' | 'bytes') => rows.reduce((sum, r) => sum + Number(r[field]), 0);
    console.log(
      JSON.stringify(
        {
          root,
          screenings,
          events_per_screening: per(total('events')),
          bytes_per_screening: Math.round(total('bytes') / screenings),
          by_type: Object.fromEntries(rows.map((r) => [r.type, { events_per_screening: per(Number(r.events)), bytes_per_screening: Math.round(Number(r.bytes) / screenings) }])),
        },
        null,
        2,
      ),
    );
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
