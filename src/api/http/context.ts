import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { IdempotencyBinding } from '../../app/idempotency/binding';
import type { Logger } from '../../shared/logger';
import { surfaceOf, type ApiSurface } from './surfaces';

/** What every handler knows about the request it serves. Attached as res.locals.ctx. */
export interface RequestContext {
  requestId: string;
  correlationId: string;
  surface: ApiSurface;
  log: Logger;
  /** Filled by the surface's authentication middleware. */
  auth?: AuthenticatedPrincipal;
  /** Set by the Idempotency-Key middleware when the request carries a key (handed to the commands). */
  idempotency?: IdempotencyBinding;
}

export interface AuthenticatedPrincipal {
  accountId: string;
  plan: string;
  keyId?: string;
  userId?: string;
  roles: string[];
  surface: ApiSurface;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const correlationHeader = req.headers['x-correlation-id'];
    const correlationId =
      typeof correlationHeader === 'string' && REQUEST_ID.test(correlationHeader) ? correlationHeader : requestId;
    const surface = surfaceOf(req);
    res.setHeader('x-request-id', requestId);
    const log = logger.child({ requestId, correlationId, surface });
    const ctx: RequestContext = { requestId, correlationId, surface, log };
    res.locals.ctx = ctx;
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      log.info(
        { method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'request',
      );
    });
    next();
  };
}

/** The request's Idempotency-Key binding, spread into a CommandContext (nothing when no key was sent). */
export function idempotencyOf(res: Response): { idempotency?: IdempotencyBinding } {
  const binding = ctxOf(res).idempotency;
  return binding ? { idempotency: binding } : {};
}

export function ctxOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}
