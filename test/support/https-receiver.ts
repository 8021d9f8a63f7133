/**
 * A real HTTPS webhook receiver for tests: listens on 127.0.0.1 with a fresh self-signed
 * certificate (callers trust it through the dispatcher's `ca` option, never by turning TLS
 * verification off), verifies every delivery's signature over the raw bytes in constant time the
 * way docs/webhooks.md tells integrators to, records every request, and can be told to fail.
 *
 * The verification here is written independently of src/webhooks/signing.ts on purpose: a signer
 * bug mirrored in a shared verifier would otherwise go unnoticed.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import selfsigned from 'selfsigned';

export type ReceiverSurface = 's1' | 's2' | 's3';

/** How the receiver answers: a status code, or never answering (the sender times out). */
export type ReceiverBehaviour = { status: number } | 'hang';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** Parsed JSON, only when the signature was valid (receivers must not parse before verifying). */
  json: Record<string, unknown> | undefined;
  signatureValid: boolean;
  failure?: 'missing_signature' | 'bad_signature' | 'missing_timestamp' | 'stale_timestamp';
  answeredWith: number | 'hang';
}

export interface HttpsReceiverOptions {
  surface: ReceiverSurface;
  secret: string;
  /** Receiver's clock for the S1 replay window (defaults to real time). */
  nowSeconds?: () => number;
  /** S1 replay window in seconds (default 300). */
  toleranceSeconds?: number;
  path?: string;
}

export interface HttpsReceiver {
  url: string;
  port: number;
  /** PEM certificate to trust (pass as the dispatcher's `ca`). */
  ca: string;
  requests: ReceivedRequest[];
  setSecret(secret: string): void;
  /** Default answer for every request not covered by `queue`. Starts as 200. */
  respondWith(behaviour: ReceiverBehaviour): void;
  /** One-shot answers consumed in order before the default applies. */
  queue(...behaviours: ReceiverBehaviour[]): void;
  /** Stop accepting connections (senders get ECONNREFUSED) until `resume`. */
  stopListening(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Verification as documented for integrators (docs/webhooks.md). */
function verify(
  options: HttpsReceiverOptions,
  secret: string,
  raw: Buffer,
  headers: Record<string, string | string[] | undefined>,
): ReceivedRequest['failure'] | undefined {
  const signature = header(headers['x-service-signature']);
  if (!signature) return 'missing_signature';
  if (options.surface !== 's1') {
    const expected = 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
    return constantTimeEqual(expected, signature) ? undefined : 'bad_signature';
  }
  const timestamp = header(headers['x-service-timestamp']);
  if (!timestamp || !/^\d+$/.test(timestamp)) return 'missing_timestamp';
  const now = options.nowSeconds ? options.nowSeconds() : Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return 'stale_timestamp';
  const text = raw.toString('utf8');
  const suffix = /,"signature":"(sha256=[0-9a-f]{64})"\}$/.exec(text);
  if (!suffix) return 'missing_signature';
  const unsigned = text.slice(0, suffix.index) + '}';
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${unsigned}`).digest('hex');
  return constantTimeEqual(expected, signature) && constantTimeEqual(expected, suffix[1]!) ? undefined : 'bad_signature';
}

export async function startHttpsReceiver(options: HttpsReceiverOptions): Promise<HttpsReceiver> {
  // A unique subject per receiver: with several self-signed certificates in one trust list,
  // OpenSSL looks issuers up by subject name, so identical names would shadow each other.
  const pems = await selfsigned.generate([{ name: 'commonName', value: `webhook-receiver-${randomBytes(6).toString('hex')}` }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate: new Date(Date.now() + 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 2, value: 'webhooks.test' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  let secret = options.secret;
  let fallback: ReceiverBehaviour = { status: 200 };
  const queued: ReceiverBehaviour[] = [];
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const path = options.path ?? '/hooks';

  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const failure = verify(options, secret, rawBody, req.headers);
      const behaviour = queued.shift() ?? fallback;
      // Rule 1 of the spec: a receiver answers 400 to a delivery whose signature fails.
      const answer: number | 'hang' = failure ? 400 : behaviour === 'hang' ? 'hang' : behaviour.status;
      let json: Record<string, unknown> | undefined;
      if (!failure) {
        try {
          json = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
      }
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: { ...req.headers },
        rawBody,
        json,
        signatureValid: failure === undefined,
        failure,
        answeredWith: answer,
      });
      if (answer === 'hang') return; // never answer; the socket is destroyed on close
      res.writeHead(answer, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ received: answer >= 200 && answer < 300 }));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });

  await listen(0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `https://127.0.0.1:${port}${path}`,
    port,
    ca: pems.cert,
    requests,
    setSecret(next) {
      secret = next;
    },
    respondWith(behaviour) {
      fallback = behaviour;
    },
    queue(...behaviours) {
      queued.push(...behaviours);
    },
    stopListening: stop,
    resume: () => listen(port),
    close: stop,
  };
}
