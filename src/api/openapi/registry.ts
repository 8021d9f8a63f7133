/**
 * Builds the one OpenAPI 3.0 description of all three surfaces (served at GET /api/v1/openapi.json).
 *
 * Each surface contributes a registration `(registry) => void` (S1: registerS1 in src/api/s1/schemas.ts)
 * that registers its paths with the zod schemas its router validates with. Every registration gets its
 * own registry (pre-loaded with the shared security schemes and error envelopes of ./common) and is
 * generated on its own; the documents are then merged:
 * - components with the same name must be identical (two different schemas under one name is an error);
 * - S1 and S3 share paths (POST /api/v1/screening/cdd is S1 with a `svc_` bearer and S3 with X-API-Key),
 *   so operations on the same method and path are merged: alternative security requirements,
 *   request and response schemas combined with `oneOf`, descriptions kept per surface.
 * OpenAPI 3.0 has no `webhooks` object: webhooks registered with `registry.registerWebhook` (path = the
 * event name) are generated like operations and published under the root extension `x-webhooks`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { isDeepStrictEqual } from 'node:util';
import { registerCommon } from './common';
import { IDEMPOTENT_CREATE_ROUTES } from '../http/idempotency';

export type OpenApiRegistration = (registry: OpenAPIRegistry) => void;

// Loose JSON shapes: the merged document is plain data.
type Json = Record<string, any>;

const WEBHOOK_PREFIX = '/__webhook__/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const API_DESCRIPTION = [
  'One deployment serves three API surfaces; the credential a request carries selects the surface, and with it the envelope, errors and limits:',
  '- **S1** screening API: `Authorization: Bearer svc_…`, errors `{success:false, message, code}`.',
  '- **S2** subject-check API: `Authorization: Bearer svca_…` (and session cookie `auth_token` on /api/account), errors `{error:{code, message, errors?}}`.',
  '- **S3** enterprise API: `X-API-Key: svcc_live_…` (portal: JWT bearer or cookie `token`), envelope `{data, meta}`.',
  '- **Portal** console API (`/api/portal/*`, tag Portal): the portal JWT from `POST /api/session` as a bearer or cookie `token`, the S3 envelope and errors (`{error, details}` on 400, `{error}` otherwise).',
  '',
  'Where S1 and S3 share a path, the operation lists both security schemes and both bodies (`oneOf`); the credential decides which applies.',
  '',
  '**400 vs 422 (S1):** 400 `invalid_request` when the input cannot be read as this endpoint\'s input (not JSON, not an object, a required field missing, a field of the wrong JSON type, an unknown field, an id that is not a positive integer); 422 `validation_failed` when every field is present and well-typed but a value breaks a rule (too short or long, not one of the allowed values, control characters, out of range). S2 and S3 answer 400 for both.',
  '',
  'Webhooks are described under the root extension `x-webhooks` (OpenAPI 3.0 has no webhooks object).',
  '',
  '**Idempotent creates:** every POST that creates a resource takes an optional `Idempotency-Key` header (1-255 printable ASCII characters, no spaces; unique per request, e.g. a UUID). Keys belong to the account and credential (API key, or signed-in user) that sent them and are kept 24 hours. The same key with the same request (method, path and JSON body; key order and whitespace do not matter) answers the first request\'s status and body again, with `Idempotent-Replayed: true`, and creates nothing. The same key with a different request: 422 `idempotency_key_reused`. While the first request is still being answered, a duplicate waits for it (up to 10 s) and replays its answer, or gets 409 `idempotency_key_in_progress` with Retry-After. Only 2xx answers are kept: after a 4xx or 5xx the key may be used again. A malformed key or the header sent twice: 400.',
  '',
  '**Strict input:** JSON bodies must be valid UTF-8 and must not name a key twice in one object (400); a request with two Authorization or two X-API-Key headers is refused (400); bodies over 256 KB get 413. Each in the surface\'s own error envelope, with nothing written.',
].join('\n');

export interface BuildOptions {
  version?: string;
  serverUrl?: string;
}

export function buildOpenApiDocument(registrations: OpenApiRegistration[], options: BuildOptions = {}): Json {
  const merged: Json = {
    openapi: '3.0.3',
    info: {
      title: 'Compliance Screening Service API',
      version: options.version ?? '1.2.0',
      description: API_DESCRIPTION,
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'The service origin ({base_url})' }],
    paths: {},
    components: {},
  };
  const webhooks: Json = {};
  const all = registrations.length > 0 ? registrations : [() => undefined];
  for (const registration of all) {
    const registry = new OpenAPIRegistry();
    registerCommon(registry);
    registration(registry);
    const definitions = registry.definitions.map((definition) =>
      definition.type === 'webhook'
        ? { type: 'route' as const, route: { ...definition.webhook, path: WEBHOOK_PREFIX + definition.webhook.path } }
        : definition,
    );
    const generated = new OpenApiGeneratorV3(definitions).generateDocument({
      openapi: '3.0.3',
      info: { title: 'part', version: '0' },
    }) as Json;
    for (const [section, entries] of Object.entries((generated.components ?? {}) as Json)) {
      const target = (merged.components[section] ??= {});
      for (const [name, value] of Object.entries(entries as Json)) {
        if (name in target && !isDeepStrictEqual(target[name], value)) {
          throw new Error(`OpenAPI component ${section}.${name} is registered twice with different content`);
        }
        target[name] = value;
      }
    }
    for (const [path, item] of Object.entries((generated.paths ?? {}) as Json)) {
      if (path.startsWith(WEBHOOK_PREFIX)) {
        webhooks[path.slice(WEBHOOK_PREFIX.length)] = item;
        continue;
      }
      merged.paths[path] = mergePathItem(merged.paths[path], item as Json);
    }
  }
  if (Object.keys(webhooks).length > 0) merged['x-webhooks'] = webhooks;
  documentIdempotency(merged);
  return merged;
}

const IDEMPOTENCY_PARAMETER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retried create safe: the same key with the same request within 24 h answers the first response again (`Idempotent-Replayed: true`) and creates nothing. The resource is bound to the key before it is created, so even when the service stopped after creating it and before recording the answer, a retry with the key answers that same resource (its current state) rather than creating another; an API key is the exception: its secret is shown only once, so that retry gets 409 naming the key to revoke. 1-255 printable ASCII characters without spaces, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
};

/** The error envelope(s) of the surfaces that serve a path. */
function errorEnvelopesOf(path: string): Json {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  if (path.startsWith('/api/v1/compliance')) return ref('S2Error');
  if (path.startsWith('/api/account')) return ref('S2SessionError');
  if (path.startsWith('/api/v1/screening') || path === '/api/v1/person-checks') return { oneOf: [ref('S1Error'), ref('S3Error')] };
  return ref('S3Error');
}

/** The Idempotency-Key header, its 409/422 answers and the replay header on every idempotent create route. */
function documentIdempotency(doc: Json): void {
  for (const path of IDEMPOTENT_CREATE_ROUTES) {
    const operation = doc.paths[path]?.post as Json | undefined;
    if (!operation) continue;
    operation.parameters = [...(operation.parameters ?? []).filter((p: Json) => !(p.in === 'header' && p.name === IDEMPOTENCY_PARAMETER.name)), IDEMPOTENCY_PARAMETER];
    const responses = (operation.responses ??= {});
    for (const [status, response] of Object.entries(responses as Json)) {
      if (!status.startsWith('2')) continue;
      response.headers = { ...(response.headers ?? {}), 'Idempotent-Replayed': { description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } } };
    }
    const content = { 'application/json': { schema: errorEnvelopesOf(path) } };
    const add = (status: string, text: string, extraHeaders?: Json) => {
      const existing = responses[status] as Json | undefined;
      // A 400 is already documented with the surface's 400 body (S3: {error, details}), which is what a bad key gets.
      const body = status === '400' ? existing?.content : mergeContent(existing?.content, content);
      responses[status] = existing
        ? { ...existing, description: joinText(existing.description, text), ...(body ? { content: body } : {}), ...(extraHeaders ? { headers: { ...(existing.headers ?? {}), ...extraHeaders } } : {}) }
        : { description: text, content, ...(extraHeaders ? { headers: extraHeaders } : {}) };
    };
    add('422', 'idempotency_key_reused: this Idempotency-Key was used with a different request (another body or path) in the last 24 h.');
    add('409', 'idempotency_key_in_progress: the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds.', {
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
    });
    add('400', 'Also: a malformed Idempotency-Key, or the header sent twice.');
  }
}

function mergePathItem(existing: Json | undefined, incoming: Json): Json {
  if (!existing) return incoming;
  const result: Json = { ...existing };
  for (const [key, value] of Object.entries(incoming)) {
    if ((METHODS as readonly string[]).includes(key) && result[key]) {
      result[key] = mergeOperation(result[key], value as Json);
    } else if (key === 'parameters') {
      result.parameters = mergeParameters(result.parameters, value as Json[]);
    } else {
      result[key] = value;
    }
  }
  return result;
}

function mergeParameters(a: Json[] | undefined, b: Json[] | undefined): Json[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = [...a];
  for (const p of b) {
    const same = out.findIndex((q) => q.in === p.in && q.name === p.name);
    if (same < 0) out.push({ ...p, required: p.in === 'path' ? true : false });
    else if (p.in === 'path' && !isDeepStrictEqual(out[same]!.schema, p.schema)) {
      // One path, two surfaces with different id shapes (S1 numeric id, S3 uuid): either is valid.
      out[same] = { ...out[same], schema: oneOf(out[same]!.schema, p.schema), description: joinText(out[same]!.description, p.description) };
    } else if (p.in !== 'path' && !isDeepStrictEqual(out[same], p)) out[same] = { ...out[same], required: false };
  }
  // A query parameter only one surface declares cannot be required of the other.
  const names = new Set(b.map((p) => `${p.in}:${p.name}`));
  return out.map((p) => (p.in !== 'path' && !names.has(`${p.in}:${p.name}`) ? { ...p, required: false } : p));
}

function oneOf(a: Json | undefined, b: Json | undefined): Json | undefined {
  if (!a) return b;
  if (!b || isDeepStrictEqual(a, b)) return a;
  const left = Array.isArray(a.oneOf) ? a.oneOf : [a];
  const right = Array.isArray(b.oneOf) ? b.oneOf : [b];
  const combined = [...left];
  for (const s of right) if (!combined.some((c: Json) => isDeepStrictEqual(c, s))) combined.push(s);
  return { oneOf: combined };
}

function mergeContent(a: Json | undefined, b: Json | undefined): Json | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: Json = { ...a };
  for (const [type, media] of Object.entries(b)) {
    out[type] = out[type] ? { ...out[type], schema: oneOf(out[type].schema, (media as Json).schema) } : media;
  }
  return out;
}

function joinText(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b || a === b) return a;
  return `${a}\n\n${b}`;
}

function mergeOperation(a: Json, b: Json): Json {
  const out: Json = { ...a };
  out.summary = joinText(a.summary, b.summary)?.replace(/\n\n/g, ' / ');
  out.description = joinText(a.description, b.description);
  out.tags = [...new Set([...(a.tags ?? []), ...(b.tags ?? [])])];
  if (a.operationId || b.operationId) out.operationId = a.operationId ?? b.operationId;
  out.security = [...(a.security ?? []), ...(b.security ?? [])];
  out.parameters = mergeParameters(a.parameters, b.parameters);
  if (!out.parameters) delete out.parameters;
  if (a.requestBody || b.requestBody) {
    out.requestBody = {
      description: joinText(a.requestBody?.description, b.requestBody?.description),
      // A body only one surface needs cannot be required of the other.
      required: Boolean(a.requestBody?.required && b.requestBody?.required),
      content: mergeContent(a.requestBody?.content, b.requestBody?.content),
    };
    if (!out.requestBody.description) delete out.requestBody.description;
  }
  const responses: Json = { ...(a.responses ?? {}) };
  for (const [status, response] of Object.entries((b.responses ?? {}) as Json)) {
    const mine = responses[status];
    if (!mine) {
      responses[status] = response;
      continue;
    }
    const merged: Json = { ...mine, description: joinText(mine.description, response.description) };
    const content = mergeContent(mine.content, response.content);
    if (content) merged.content = content;
    if (mine.headers || response.headers) merged.headers = { ...(mine.headers ?? {}), ...(response.headers ?? {}) };
    responses[status] = merged;
  }
  out.responses = responses;
  return out;
}
