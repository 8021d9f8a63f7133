/**
 * HTTP requests with exact bytes and exact header lines (node:http, not fetch): a header given as an
 * array is sent as that many header lines, and a Buffer body is sent unchanged (invalid UTF-8 included).
 */
import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON, or undefined when the answer is not JSON. */
  body: any;
}

export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string | string[]>; body?: Buffer | string; json?: unknown } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
  let payload: Buffer | undefined;
  if (options.json !== undefined) payload = Buffer.from(JSON.stringify(options.json), 'utf8');
  else if (options.body !== undefined) payload = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body;
  if (payload) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
