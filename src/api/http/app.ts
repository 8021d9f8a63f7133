import { hashIdempotentBodies } from './idempotency';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Logger } from '../../shared/logger';
import { ctxOf, requestContext } from './context';
import { ApiError, sendError } from './errors';
import { toApiError } from './error-mapping';
import { rejectDuplicateCredentialHeaders, verifyJsonBody } from './strict-input';
import { requestTracing } from './tracing';
import type { Telemetry } from '../../infrastructure/telemetry/telemetry';

export interface HealthProbe {
  /** Liveness: the process serves requests. */
  live(): boolean;
  /** Readiness: store, bus and lists are usable; the failing parts are named. */
  ready(): Promise<{ ready: boolean; checks: Record<string, boolean>; degraded?: string[]; detail?: Record<string, unknown>; overdue?: Record<string, number> }>;
  /** GET /lists: every list in service with its publication date, age and maximum age. */
  lists?: () => Record<string, unknown>;
}

export interface HttpAppOptions {
  logger: Logger;
  health: HealthProbe;
  /** Mounted in order at the root; each router owns its full paths. */
  routers: Router[];
  /**
   * Mounted before body parsing (e.g. the S1 gate: authentication and rate limit), so a request with a
   * malformed or oversized body is authenticated and counted first and an unauthenticated one is refused unread.
   */
  beforeBody?: RequestHandler[];
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** Serves static files (the portal) when given. */
  staticDir?: string;
  /** Prometheus text exposition for GET /metrics (operators scrape it from the private network). */
  metrics?: () => Promise<string>;
  /** The HTTP hop's span and histogram (api/http/tracing.ts). */
  telemetry?: Telemetry;
}

export function createHttpApp(options: HttpAppOptions): express.Express {
  const app = express();
  // First, synchronously inside the 'request' event, before the parser pushes any body chunk: a
  // streamed body under an Idempotency-Key is hashed as it arrives (api/http/idempotency.ts).
  app.use(hashIdempotentBodies());
  const tracing = options.telemetry ? requestTracing(options.telemetry) : undefined;
  if (tracing) app.use(tracing.start);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(options.logger));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.status(options.health.live() ? 200 : 503).json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const state = await options.health.ready();
    // Degraded (e.g. a list older than its maximum age) still serves: 200, with the reasons in the body.
    const status = !state.ready ? 'not_ready' : state.degraded?.length ? 'degraded' : 'ready';
    res.status(state.ready ? 200 : 503).json({
      status,
      checks: state.checks,
      ...(state.degraded?.length ? { degraded: state.degraded } : {}),
      ...(state.overdue ? { overdue: state.overdue } : {}),
      ...(state.detail ?? {}),
    });
  });
  if (options.health.lists) {
    const lists = options.health.lists;
    app.get('/lists', (_req, res) => {
      res.status(200).json(lists());
    });
  }

  // A credential header sent twice is ambiguous: refused before any gate reads the first one.
  app.use(rejectDuplicateCredentialHeaders());
  for (const middleware of options.beforeBody ?? []) app.use(middleware);

  if (options.metrics) {
    const metrics = options.metrics;
    app.get('/metrics', async (_req, res, next) => {
      try {
        res.type('text/plain; version=0.0.4').send(await metrics());
      } catch (error) {
        next(error);
      }
    });
  }

  // Body parsing: raw bytes are kept (payment-provider signatures are computed over them). Before the
  // parse, the bytes must be valid UTF-8 and no object may name a key twice (strict-input.ts).
  app.use(
    express.json({
      limit: options.bodyLimit ?? '256kb',
      strict: true,
      verify: (req, _res, buf) => {
        (req as Request & { rawBody?: Buffer }).rawBody = buf;
        verifyJsonBody(buf);
      },
    }),
  );

  if (tracing) app.use(tracing.resume);
  for (const router of options.routers) app.use(router);

  if (options.staticDir) {
    app.use(express.static(options.staticDir, { index: 'index.html', fallthrough: true }));
  }

  app.use((req: Request, res: Response) => {
    sendError(res, ctxOf(res).surface, new ApiError('not_found', `No route for ${req.method} ${req.path}`), ctxOf(res).requestId);
  });

  // The one error handler: every failure is rendered in the caller's surface envelope.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const ctx = ctxOf(res);
    const apiError = toApiError(error);
    if (apiError.kind === 'internal') ctx.log.error({ err: error }, 'unhandled error');
    else if (apiError.kind === 'unavailable') ctx.log.warn({ err: error }, 'dependency unavailable; answered 503 with Retry-After');
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, ctx.surface, apiError, ctx.requestId);
  });
  return app;
}

/** Wraps an async handler so rejections reach the error handler. */
export function handle(fn: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    fn(req, res).catch(next);
  };
}
