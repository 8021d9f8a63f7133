/**
 * The HTTP hop: a server span per request (continuing the caller's `traceparent` header when it sends
 * one), named by its route once the route is known, ended when the answer is sent. Everything the
 * request does (the command append, and through the event the whole pipeline) is its child.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { TRACEPARENT, type HopSpan, type Telemetry } from '../../infrastructure/telemetry/telemetry';

const UNTRACED = new Set(['/metrics', '/healthz', '/readyz']);

/**
 * Two middlewares: `start` (first) opens the span; `resume` (after body parsing) makes it active again,
 * since the parser calls on from the socket's stream events, outside the context `start` entered.
 */
export function requestTracing(telemetry: Telemetry): { start: RequestHandler; resume: RequestHandler } {
  const spans = new WeakMap<Request, HopSpan>();
  return {
    start(req: Request, res: Response, next: NextFunction) {
      if (UNTRACED.has(req.path)) return next();
      const incoming = req.headers[TRACEPARENT];
      const span = telemetry.start('http', `${req.method}`, {
        ...(typeof incoming === 'string' ? { parent: incoming } : {}),
        attributes: { 'http.request.method': req.method },
      });
      spans.set(req, span);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        const route = (req.route as { path?: unknown } | undefined)?.path;
        if (typeof route === 'string') span.rename(`${req.method} ${req.baseUrl}${route}`);
        span.setAttribute('http.response.status_code', res.statusCode);
        span.end(res.statusCode >= 500 ? new Error(`HTTP ${res.statusCode}`) : undefined);
      };
      res.once('finish', end);
      res.once('close', end);
      telemetry.within(span, next);
    },
    resume(req: Request, _res: Response, next: NextFunction) {
      const span = spans.get(req);
      if (span) telemetry.within(span, next);
      else next();
    },
  };
}
