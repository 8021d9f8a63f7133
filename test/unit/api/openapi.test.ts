/**
 * The OpenAPI description: valid OpenAPI 3.0, generated from the request schemas, and in step with the
 * routes actually mounted (every mounted /api route documented, every documented path mounted).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Express } from 'express';
import { createHttpApp } from '../../../src/api/http/app';
import { securitySchemes } from '../../../src/api/openapi/common';
import { buildOpenApiDocument } from '../../../src/api/openapi/registry';
import { z } from '../../../src/api/openapi/zod';
import { createS1Router, defaultS1MonthlyQuota } from '../../../src/api/s1/router';
import { CddRequestSchema, registerS1 } from '../../../src/api/s1/schemas';
import { createLogger } from '../../../src/shared/logger';
import { ManualClock } from '../../../src/shared/clock';
import { makeFakeS1Services } from '../../support/fake-services';

async function validate(document: object): Promise<{ valid: boolean; errors?: unknown }> {
  const validator = new Validator();
  // Validate a copy: the validator may annotate what it is given.
  return validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
}

/** Every method + path mounted on an express app, walking nested routers mounted at the root. */
function mountedRoutes(app: Express): Set<string> {
  const routes = new Set<string>();
  const walk = (stack: any[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths: string[] = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const method of Object.keys(layer.route.methods)) {
            if (method === '_all') continue;
            routes.add(`${method.toUpperCase()} ${prefix}${path}`);
          }
        }
      } else if (layer.handle?.stack) {
        const mount = layer.slash ? '' : String(layer.rawPath ?? '');
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((app as any).router.stack, '');
  return routes;
}

function documentedRoutes(document: any): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) {
        routes.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
      }
    }
  }
  return routes;
}

describe('OpenAPI description', () => {
  const document: any = buildOpenApiDocument([registerS1]);

  it('is a valid OpenAPI 3.0 document', async () => {
    const result = await validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    assert.equal(document.openapi, '3.0.3');
  });

  it('documents exactly the /api routes the S1 router mounts', async () => {
    const services = await makeFakeS1Services();
    const app = createHttpApp({
      logger: createLogger({ level: 'silent' }),
      health: { live: () => true, ready: async () => ({ ready: true, checks: {} }) },
      routers: [
        createS1Router({
          keys: services.keys,
          limits: services.limits,
          screenings: services.screenings,
          clock: new ManualClock(),
          config: { screeningWaitMs: 1000, monthlyQuota: defaultS1MonthlyQuota },
        }),
      ],
    });
    const mounted = [...mountedRoutes(app)].filter((r) => r.split(' ')[1]!.startsWith('/api/')).sort();
    const documented = [...documentedRoutes(document)].sort();
    assert.ok(mounted.length >= 7, `found the mounted routes: ${mounted.join(', ')}`);
    assert.deepEqual(documented, mounted);
  });

  it('is generated from the request schemas the router validates with', () => {
    const cdd = document.paths['/api/v1/screening/cdd'].post.requestBody.content['application/json'].schema;
    const ref = cdd.$ref as string;
    const schema = document.components.schemas[ref.split('/').pop()!];
    assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(CddRequestSchema.shape).sort());
    assert.deepEqual(schema.required, ['query']);
    assert.equal(schema.properties.query.minLength, 2);
    assert.deepEqual(schema.properties.entity_type.enum, ['individual', 'company', 'organization']);
    assert.equal(schema.properties.entity_type.default, 'individual');
    assert.equal(schema.additionalProperties, false);
  });

  it('describes the security schemes of all three surfaces', () => {
    const schemes = document.components.securitySchemes;
    assert.deepEqual(schemes[securitySchemes.s1Bearer], {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'svc_<token>',
      description: schemes[securitySchemes.s1Bearer].description,
    });
    assert.equal(schemes[securitySchemes.s2Bearer].bearerFormat, 'svca_<token>');
    assert.deepEqual([schemes[securitySchemes.s2Session].in, schemes[securitySchemes.s2Session].name], ['cookie', 'auth_token']);
    assert.deepEqual([schemes[securitySchemes.s3ApiKey].in, schemes[securitySchemes.s3ApiKey].name], ['header', 'X-API-Key']);
    assert.equal(schemes[securitySchemes.s3PortalBearer].bearerFormat, 'JWT');
    assert.deepEqual([schemes[securitySchemes.s3PortalCookie].in, schemes[securitySchemes.s3PortalCookie].name], ['cookie', 'token']);
    for (const name of ['S1Error', 'S2Error', 'S2SessionError', 'S3Error', 'S3ValidationError', 'S3RateLimitError']) {
      assert.ok(document.components.schemas[name], name);
    }
    assert.deepEqual(document.paths['/api/v1/openapi.json'].get.security, []);
    assert.deepEqual(document.paths['/api/v1/screenings'].get.security, [{ [securitySchemes.s1Bearer]: [] }]);
  });

  it('documents the 202 extension, the 400/422 rule, rate-limit headers and Retry-After on 429', () => {
    const post = document.paths['/api/v1/screening/cdd'].post;
    for (const status of ['201', '202', '400', '401', '402', '403', '413', '422', '429', '500']) assert.ok(post.responses[status], status);
    assert.ok(post.responses['202'].headers.Location);
    const running = document.components.schemas.S1ScreeningRunning;
    assert.deepEqual(running.required.sort(), ['screening', 'status', 'success', 'url']);
    assert.match(document.info.description, /400 `invalid_request`.*422 `validation_failed`/s);
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const operation of Object.values<any>(item)) {
        if (path === '/api/v1/openapi.json') continue;
        assert.ok(operation.responses['200'] ?? operation.responses['201'], path);
        const ok = operation.responses['200'] ?? operation.responses['201'];
        assert.ok(ok.headers['X-RateLimit-Reset'], `rate-limit headers on ${path}`);
        assert.ok(operation.responses['429'].headers['Retry-After'], `Retry-After on ${path}`);
        assert.equal(operation.responses['401'].headers, undefined, `no rate-limit headers on 401 of ${path}`);
      }
    }
    const report = document.paths['/api/v1/screening/{id}/report'].get.responses['200'];
    assert.ok(report.content['application/pdf']);
    assert.ok(report.headers['Content-Disposition']);
  });

  it('designs the hit detail records of GET /screening/{id}', () => {
    const hit = document.components.schemas.S1Hit;
    for (const field of ['list', 'entity_id', 'matched_name', 'score', 'explanation', 'programs', 'source_url']) {
      assert.ok(hit.properties[field], field);
    }
    // The detail extends the Screening: allOf [S1Screening, the detail fields].
    const detail = document.components.schemas.S1ScreeningDetail;
    assert.deepEqual(detail.allOf[0], { $ref: '#/components/schemas/S1Screening' });
    const hits = detail.allOf[1].properties.hits;
    assert.deepEqual(Object.keys(hits.properties).sort(), ['adverse_media', 'debarment', 'offshore_leaks', 'pep', 'sanctions']);
    assert.deepEqual(hits.properties.offshore_leaks.items, { $ref: '#/components/schemas/S1Hit' });
  });

  it('describes the S1 webhooks under x-webhooks with their headers, payloads and signing rule', () => {
    const webhooks = document['x-webhooks'];
    assert.deepEqual(Object.keys(webhooks).sort(), ['cdd.completed', 'edd.completed', 'ma.completed', 'monitoring.alert', 'person_check.completed']);
    const post = webhooks['cdd.completed'].post;
    const headers = post.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name).sort();
    assert.deepEqual(headers, ['X-Service-Event', 'X-Service-Signature', 'X-Service-Timestamp']);
    assert.match(post.description, /X-Service-Timestamp header's exact digits \+ "\." \+ the unsigned body/);
    assert.match(post.description, /5 minutes/);
    assert.match(post.description, /30 s, 5 min and 30 min/);
    assert.deepEqual(post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/S1ScreeningWebhook' });
    const payload = document.components.schemas.S1ScreeningWebhook;
    assert.deepEqual(Object.keys(payload.properties), ['event', 'screening_id', 'screening', 'timestamp', 'signature']);
    assert.deepEqual(payload.required.sort(), ['event', 'screening', 'screening_id', 'signature', 'timestamp']);
    assert.deepEqual(Object.keys(payload.properties.screening.properties), ['id', 'search_query', 'risk_level', 'risk_score', 'status', 'created_at']);
    assert.ok(document.components.schemas.S1PersonCheckWebhook.properties.person_check_id);
    assert.equal(Object.keys(document.paths).some((p) => p.includes('webhook')), false);
  });

  it('merges another surface on a shared path: both credentials, both bodies, still valid', async () => {
    const S3CddBody = z.object({ query: z.string(), options: z.object({ monitor: z.boolean() }).optional() }).openapi('S3CddRequest');
    const merged: any = buildOpenApiDocument([
      registerS1,
      (registry) => {
        registry.registerPath({
          method: 'post',
          path: '/api/v1/screening/cdd',
          summary: 'S3: CDD screening',
          security: [{ [securitySchemes.s3ApiKey]: [] }],
          request: { body: { content: { 'application/json': { schema: S3CddBody } } } },
          responses: { 201: { description: 'S3 envelope', content: { 'application/json': { schema: z.object({ data: z.object({}) }) } } } },
        });
      },
    ]);
    const result = await validate(merged);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    const post = merged.paths['/api/v1/screening/cdd'].post;
    assert.deepEqual(post.security, [{ [securitySchemes.s1Bearer]: [] }, { [securitySchemes.s3ApiKey]: [] }]);
    const refs = post.requestBody.content['application/json'].schema.oneOf.map((s: any) => s.$ref);
    assert.deepEqual(refs, ['#/components/schemas/S1CddRequest', '#/components/schemas/S3CddRequest']);
    assert.equal(post.responses['201'].content['application/json'].schema.oneOf.length, 2);
    assert.ok(post.responses['202'], 'S1-only responses are kept');
  });

  it('refuses two different components under one name', () => {
    assert.throws(
      () =>
        buildOpenApiDocument([
          registerS1,
          (registry) => {
            registry.register('S1Hit', z.object({ other: z.string() }));
          },
        ]),
      /S1Hit/,
    );
  });
});
