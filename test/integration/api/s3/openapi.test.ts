/**
 * registerS3 and registerPortal: valid OpenAPI 3.0 merged with S1, generated from the validating
 * schemas, and in step with the mounted S3, portal session and portal console (/api/portal/*) routes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import express from 'express';
import { buildOpenApiDocument } from '../../../../src/api/openapi/registry';
import { registerS1 } from '../../../../src/api/s1/schemas';
import { registerS3 } from '../../../../src/api/s3/openapi';
import { createS3Router } from '../../../../src/api/s3/router';
import { createPortalRouter } from '../../../../src/api/portal/router';
import { createPortalConsoleRouter } from '../../../../src/api/portal/console';
import { PORTAL_AUDIT_BASE_PATH, registerPortal } from '../../../../src/api/portal/openapi';
import { CreatePortalKeySchema, PortalScreeningRequestSchema } from '../../../../src/api/portal/schemas';
import { createAuditHistoryRouter } from '../../../../src/api/monitoring/history-router';
import { S3SowRequestSchema } from '../../../../src/api/s3/schemas';
import { securitySchemes } from '../../../../src/api/openapi/common';
import { systemClock } from '../../../../src/shared/clock';

/** Every method + path a router mounts, walking the routers it nests (`router.use(otherRouter)`). */
function mounted(router: express.Router): Set<string> {
  const out = new Set<string>();
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) if (method !== '_all') out.add(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((router as any).stack);
  return out;
}

function documented(registrations: Parameters<typeof buildOpenApiDocument>[0]): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries<any>(buildOpenApiDocument(registrations).paths)) {
    for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
  }
  return out;
}

describe('S3 OpenAPI', () => {
  const document: any = buildOpenApiDocument([registerS1, registerS3, registerPortal]);

  it('is valid OpenAPI 3.0 with S1 and S3 merged on shared paths', async () => {
    const result = await new Validator().validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    const cdd = document.paths['/api/v1/screening/cdd'].post;
    assert.deepEqual(cdd.security, [{ [securitySchemes.s1Bearer]: [] }, { [securitySchemes.s3ApiKey]: [] }]);
    assert.ok(cdd.responses['201'].content['application/json'].schema.oneOf, 'S1 and S3 answers as oneOf');
    assert.deepEqual(document.paths['/api/v1/screening/sow'].post.security, [{ [securitySchemes.s3ApiKey]: [] }]);
    assert.ok(document['x-webhooks']['screening.completed']);
  });

  it('documents every S3 and portal route that is mounted, and nothing else', () => {
    const unused = undefined as never;
    const routes = new Set([
      ...mounted(createS3Router({ keys: unused, limits: unused, screenings: unused, usage: unused, store: unused, clock: systemClock, config: { screeningWaitMs: 1 }, batches: { service: unused, maxBytes: 1 }, watchlists: {} as never })),
      ...mounted(createPortalRouter({ accounts: unused, limits: unused, sessions: { lifetimeSeconds: 1 } as never, webhooks: unused, payments: unused, clock: systemClock, logger: unused, paymentWebhookSecret: undefined })),
    ]);
    assert.deepEqual([...documented([registerS3])].sort(), [...routes].sort());
  });

  it('documents every /api/portal route that is mounted (console and auditor history), and nothing else', () => {
    const unused = undefined as never;
    const routes = new Set([
      ...mounted(createPortalConsoleRouter({ auth: unused, watchlists: {} as never, accounts: unused, keys: unused, limits: unused, screenings: unused, store: unused, pool: unused, clock: systemClock, secrets: unused, allowPrivate: false, readModelsCaughtUp: unused, s2Webhooks: unused, s1MonthlyQuota: unused, s3MonthlyQuota: unused })),
      ...mounted(createAuditHistoryRouter({ audit: unused, basePath: PORTAL_AUDIT_BASE_PATH, principalOf: unused })),
    ]);
    assert.ok(routes.size >= 19, `found the mounted portal routes: ${[...routes].join(', ')}`);
    for (const route of routes) assert.match(route, /^[A-Z]+ \/api\/portal\//);
    assert.deepEqual([...documented([registerPortal])].sort(), [...routes].sort());
    // Everything under /api/portal in the whole document is the portal registration's.
    const portalInDocument = [...documented([registerS1, registerS3, registerPortal])].filter((r) => r.includes(' /api/portal/'));
    assert.deepEqual(portalInDocument.sort(), [...routes].sort());
  });

  it('describes the portal console: tag, JWT/cookie security, error envelope, event stream, PDF', () => {
    const portal = Object.entries<any>(document.paths).filter(([path]) => path.startsWith('/api/portal/'));
    const schemes = document.components.securitySchemes;
    assert.deepEqual([schemes[securitySchemes.s3PortalBearer].scheme, schemes[securitySchemes.s3PortalBearer].bearerFormat], ['bearer', 'JWT']);
    assert.deepEqual([schemes[securitySchemes.s3PortalCookie].in, schemes[securitySchemes.s3PortalCookie].name], ['cookie', 'token']);
    for (const [path, item] of portal) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.deepEqual(operation.tags, ['Portal'], where);
        if (where === 'GET /api/portal/session') {
          // The one question asked before signing in: whether there is a session, answered 200 either way.
          assert.deepEqual(operation.security, [{ [securitySchemes.s3PortalBearer]: [] }, { [securitySchemes.s3PortalCookie]: [] }, {}], where);
          assert.equal(operation.responses['401'], undefined, where);
        } else {
          assert.deepEqual(operation.security, [{ [securitySchemes.s3PortalBearer]: [] }, { [securitySchemes.s3PortalCookie]: [] }], where);
          assert.deepEqual(operation.responses['401'].content['application/json'].schema, { $ref: '#/components/schemas/S3Error' }, where);
          assert.ok(operation.responses['401'].headers['WWW-Authenticate'], where);
        }
        if (operation.responses['400']) assert.deepEqual(operation.responses['400'].content['application/json'].schema, { $ref: '#/components/schemas/S3ValidationError' }, where);
        const success = Object.keys(operation.responses).filter((s) => s.startsWith('2'));
        assert.ok(success.length > 0, where);
        for (const [name, param] of Object.entries<any>(operation.parameters ?? [])) if (param.in === 'path') assert.ok(path.includes(`{${param.name}}`), `${where} ${name}`);
      }
    }
    // The JSON answers are the portal envelope {data, meta}.
    const overview = document.paths['/api/portal/overview'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(overview.required, ['data', 'meta']);
    assert.deepEqual(overview.properties.meta, { $ref: '#/components/schemas/PortalMeta' });
    // The progress stream is text/event-stream with Last-Event-ID; the report is a PDF.
    const progress = document.paths['/api/portal/screenings/{id}/progress'].get;
    assert.deepEqual(Object.keys(progress.responses['200'].content), ['text/event-stream']);
    assert.ok(progress.parameters.some((p: any) => p.in === 'header' && p.name === 'Last-Event-ID'));
    for (const event of ['requested', 'phase_started', 'agent_finished', 'phase_completed', 'completed', 'failed', 'end']) assert.match(progress.description, new RegExp('`' + event + '`'));
    assert.ok(document.paths['/api/portal/screenings/{id}/report.pdf'].get.responses['200'].content['application/pdf']);
    assert.ok(document.paths['/api/portal/screenings/{id}/report.pdf'].get.responses['409']);
    // Account-level webhook routes name only the surfaces they accept.
    const surfaceParam = document.paths['/api/portal/webhooks/{surface}'].put.parameters.find((p: any) => p.name === 'surface');
    assert.deepEqual(surfaceParam.schema.enum, ['s2', 's3']);
  });

  it('is generated from the schemas the portal routes validate with', () => {
    const body = (path: string) => {
      const ref = document.paths[path].post.requestBody.content['application/json'].schema.$ref as string;
      return document.components.schemas[ref.split('/').pop()!];
    };
    const key = body('/api/portal/keys');
    assert.deepEqual(Object.keys(key.properties).sort(), Object.keys(CreatePortalKeySchema.shape).sort());
    assert.deepEqual(key.required.sort(), ['name', 'surface']);
    assert.deepEqual(key.properties.surface.enum, ['s1', 's2', 's3']);
    assert.equal(key.additionalProperties, false);
    const screening = body('/api/portal/screenings');
    assert.deepEqual(Object.keys(screening.properties).sort(), ['address', 'date_of_birth', 'declared', 'email', 'entity_type', 'identifiers', 'jurisdiction', 'kind', 'nationality', 'phone', 'query']);
    assert.deepEqual(screening.required, ['query']);
    assert.deepEqual([screening.properties.query.minLength, screening.properties.query.maxLength], [2, 300]);
    assert.equal(screening.properties.declared.additionalProperties, false);
    // The documented id pattern is the route's own check.
    const idPattern = new RegExp(document.paths['/api/portal/screenings/{id}'].get.parameters.find((p: any) => p.name === 'id').schema.pattern);
    for (const id of ['42', '0f8fad5b-d9cb-469f-a165-70867728950e', '0F8FAD5B-D9CB-469F-A165-70867728950E']) assert.ok(idPattern.test(id), id);
    for (const id of ['0', 'abc', '42; DROP']) assert.equal(idPattern.test(id), false, id);
    assert.ok(PortalScreeningRequestSchema.safeParse({ query: 'Kim Jong Un' }).success);
    const list = document.paths['/api/portal/screenings'].get.parameters.map((p: any) => p.name).sort();
    assert.deepEqual(list, ['limit', 'page', 'q', 'risk_level', 'type']);
  });

  it('is generated from the SOW schema the router validates with', () => {
    const ref = document.paths['/api/v1/screening/sow'].post.requestBody.content['application/json'].schema.$ref as string;
    const schema = document.components.schemas[ref.split('/').pop()!];
    assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(S3SowRequestSchema.shape).sort());
    assert.deepEqual(schema.required.sort(), ['declared_source_of_wealth', 'query', 'wealth_sources']);
    assert.equal(schema.additionalProperties, false);
  });
});
