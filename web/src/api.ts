/**
 * The portal's HTTP client. Sign-in returns a JWT: the server also sets it as an HttpOnly cookie,
 * and the page keeps a copy for this tab only (sessionStorage) to send as a bearer token, so the
 * portal works where a Secure cookie is not stored (plain http on a development host).
 */
const TOKEN_KEY = 'portal.token';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

let onUnauthenticated: () => void = () => undefined;
export function setUnauthenticatedHandler(fn: () => void): void {
  onUnauthenticated = fn;
}

export function token(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(value: string | null): void {
  try {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage disabled: the cookie still works */
  }
}

export function authHeaders(): Record<string, string> {
  const t = token();
  return t ? { authorization: `Bearer ${t}` } : {};
}

async function failureOf(res: Response): Promise<ApiFailure> {
  let message = `Request failed (${res.status})`;
  let fields: Record<string, string[]> = {};
  try {
    const body = (await res.json()) as Record<string, unknown>;
    const error = body.error;
    if (typeof error === 'string') message = error;
    else if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') message = (error as { message: string }).message;
    else if (typeof body.message === 'string') message = body.message;
    const details = body.details;
    if (details && typeof details === 'object' && !Array.isArray(details)) fields = details as Record<string, string[]>;
  } catch {
    /* not JSON */
  }
  return new ApiFailure(res.status, message, fields);
}

/** JSON request; unwraps the portal envelope `{data, meta}` when present. */
export async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ data: T; meta: any }> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...authHeaders() },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status === 401 && path !== '/api/session') {
    setToken(null);
    onUnauthenticated();
  }
  if (!res.ok) throw await failureOf(res);
  const json = (await res.json()) as any;
  if (json && typeof json === 'object' && 'data' in json && 'meta' in json) return { data: json.data as T, meta: json.meta };
  return { data: json as T, meta: {} };
}

/**
 * A request whose body is a file's text (an import), with its own content type and headers;
 * unwraps the envelope like `api`.
 */
export async function apiText<T = any>(method: string, path: string, body: string, headers: Record<string, string>): Promise<{ data: T; meta: any }> {
  const res = await fetch(path, { method, credentials: 'same-origin', headers: { accept: 'application/json', ...headers, ...authHeaders() }, body });
  if (res.status === 401) {
    setToken(null);
    onUnauthenticated();
  }
  if (!res.ok) throw await failureOf(res);
  const json = (await res.json()) as any;
  if (json && typeof json === 'object' && 'data' in json && 'meta' in json) return { data: json.data as T, meta: json.meta };
  return { data: json as T, meta: {} };
}

/** Downloads a file through fetch (so the bearer token is sent) and hands it to the browser. */
export async function download(path: string, filename: string): Promise<void> {
  const res = await fetch(path, { credentials: 'same-origin', headers: authHeaders() });
  if (!res.ok) throw await failureOf(res);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface ServerSentEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Reads a server-sent-events stream with fetch (EventSource cannot send the bearer header).
 * Resolves when the server ends the stream or `signal` aborts.
 */
export async function readEventStream(path: string, onEvent: (e: ServerSentEvent) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'text/event-stream', ...authHeaders() }, signal });
  if (!res.ok || !res.body) throw await failureOf(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let boundary: number;
    while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':') || line === '') continue;
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'id') id = val;
        else if (name === 'event') event = val;
        else if (name === 'data') data.push(val);
      }
      if (data.length) onEvent({ id, event, data: data.join('\n') });
    }
  }
}
