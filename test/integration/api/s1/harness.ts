/** Starts the S1 surface on a real HTTP port over a MakeS1Services wiring, and a small fetch client. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpApp } from '../../../../src/api/http/app';
import { createS1Gate, createS1Router, defaultS1MonthlyQuota, type S1RouterDeps } from '../../../../src/api/s1/router';
import type { Plan } from '../../../../src/app/services';
import { createLogger } from '../../../../src/shared/logger';
import type { S1TestServices } from '../../../support/fake-services';

export interface RunningS1 {
  url: string;
  close(): Promise<void>;
}

export async function startS1(
  services: S1TestServices,
  config: Partial<S1RouterDeps['config']> = {},
): Promise<RunningS1> {
  const deps: S1RouterDeps = {
    keys: services.keys,
    limits: services.limits,
    screenings: services.screenings,
    clock: services.clock,
    config: {
      screeningWaitMs: config.screeningWaitMs ?? 20_000,
      monthlyQuota: config.monthlyQuota ?? ((plan: Plan) => defaultS1MonthlyQuota(plan)),
    },
  };
  const app = createHttpApp({
    logger: createLogger({ level: 'silent' }),
    health: { live: () => true, ready: async () => ({ ready: true, checks: {} }) },
    beforeBody: [createS1Gate(deps)],
    routers: [createS1Router(deps)],
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface CallOptions {
  key?: string;
  /** JSON-encoded unless `raw` is given. */
  body?: unknown;
  /** Sent verbatim with Content-Type application/json unless headers say otherwise. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  json: any;
  bytes: Buffer;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  const json = type.includes('application/json') && bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, json, bytes };
}
