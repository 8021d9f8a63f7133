/** HTTP: idempotency, the surfaces' routers, /metrics and the health probes, and the listening server. */
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createHttpApp } from '../api/http/app';
import { createIdempotency } from '../api/http/idempotency';
import { PgIdempotencyStore } from '../app/idempotency/idempotency-store';
import { BatchJobService } from '../app/batch-jobs/batch-job-service';
import { createS1Gate } from '../api/s1/router';
import { createS3Gate } from '../api/s3/router';
import { createPaymentWebhookBodyReader } from '../api/portal/router';
import { createS2Gate } from '../api/s2/router';
import { healthChecks, serviceMetrics } from './probes';
import { surfaceRouters, type HttpDeps } from './routers';


export async function startHttp(deps: HttpDeps): Promise<{ server: Server; url: string | undefined }> {
  const { config, logger, clock, stops } = deps;
  const { keys, limits, sessions, accounts } = deps.services;
  // Idempotency-Key on every create route: one store, one middleware, each surface's envelope. The
  // lease outlasts the longest create answer (a screening waits up to SCREENING_WAIT_MS).
  const idempotencyStore = new PgIdempotencyStore(deps.pool);
  const idempotent = createIdempotency({ store: idempotencyStore, clock, leaseMs: config.IDEMPOTENCY_LEASE_MS ?? Math.max(60_000, 2 * config.SCREENING_WAIT_MS) });
  // Records past their 24 h are already ignored; the hourly sweep keeps the table small.
  const idempotencySweep = setInterval(() => {
    idempotencyStore.sweep(clock.now()).catch((err: unknown) => logger.warn({ err }, 'idempotency sweep failed'));
  }, 3_600_000);
  idempotencySweep.unref();
  stops.push(async () => clearInterval(idempotencySweep));
  // Asynchronous batch screening jobs (S3 POST /api/v1/batches): the batch engine of `svc screen --file`.
  const batchJobs = new BatchJobService({
    pool: deps.pool,
    clock,
    logger,
    dataDir: config.DATA_DIR,
    maxBytes: config.BATCH_MAX_BYTES,
    maxQueued: config.BATCH_MAX_QUEUED,
    workers: config.BATCH_WORKERS,
    engine: () => deps.lists.engine(),
    lists: () => deps.lists.entities(),
    verdictContext: () => ({ countryRisk: deps.lists.countryRisk(), countrySanctions: (iso2) => deps.lists.countrySanctions(iso2) }),
  });
  await batchJobs.start();
  stops.push(() => batchJobs.stop());
  const app = createHttpApp({
    logger,
    // The portal's built assets (web/dist: `npm run build:web`, run by `npm start` and the tests).
    staticDir: fileURLToPath(new URL('../../web/dist', import.meta.url)),
    // Authenticate and rate-limit S1 before the body is parsed: a broken or huge body still counts.
    beforeBody: [createS1Gate({ keys, limits }), createS3Gate({ keys, limits, clock }), createPaymentWebhookBodyReader(), createS2Gate({ keys, sessions, accounts })],
    metrics: serviceMetrics(deps),
    telemetry: deps.telemetry,
    health: healthChecks(deps),
    routers: surfaceRouters(deps, idempotent, batchJobs),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const url = typeof address === 'object' && address ? `http://${config.HOST}:${address.port}` : undefined;
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        // In-flight requests finish; idle keep-alive sockets are closed.
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  logger.info({ url }, 'HTTP server listening');
  return { server, url };
}
