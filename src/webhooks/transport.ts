/**
 * One HTTP(S) POST of a webhook: SSRF check at delivery time, socket pinned to the vetted address,
 * a hard deadline covering connect, headers and body, no redirects followed.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkWebhookUrl, createPinnedLookup, type Resolver } from './url-guard';
import type { AttemptResult } from './policy';

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Extra trusted CA certificates (PEM), e.g. a test receiver's self-signed certificate. */
  ca?: string | Buffer | Array<string | Buffer>;
}

const SNIPPET_BYTES = 512;

export async function postWebhook(options: PostOptions): Promise<AttemptResult & { durationMs: number }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  const checked = await checkWebhookUrl(options.url, { allowPrivate: options.allowPrivate, resolver: options.resolver });
  if (!checked.ok) {
    const kind = checked.error.code === 'unresolvable_host' ? 'transport' : 'blocked';
    return { kind, error: `${checked.error.code}: ${checked.error.message}`, durationMs: elapsed() };
  }
  const { url, hostname, addresses } = checked;
  const pinned = addresses[0]!;
  const isHttps = url.protocol === 'https:';
  const requestOptions: https.RequestOptions = {
    method: 'POST',
    protocol: url.protocol,
    hostname,
    port: url.port || (isHttps ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: { ...options.headers, 'Content-Length': String(options.body.length) },
    lookup: createPinnedLookup(pinned),
    agent: false,
  };
  if (isHttps) {
    if (options.ca) requestOptions.ca = options.ca;
    if (!isIP(hostname)) requestOptions.servername = hostname;
  }

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = (isHttps ? https : http).request(requestOptions, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () =>
        finish({
          kind: 'response',
          statusCode: res.statusCode ?? 0,
          snippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8'),
        }),
      );
      res.on('error', (err) => finish({ kind: 'transport', error: err.message }));
    });
    const deadline = setTimeout(() => {
      finish({ kind: 'timeout', error: `no complete response within ${options.timeoutMs} ms` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'transport', error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(options.body);
  });
}
