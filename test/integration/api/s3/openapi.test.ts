/** registerS3: valid OpenAPI 3.0 merged with S1, generated from the validating schemas, and in step with the mounted S3 and portal routes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import express from 'express';
import { buildOpenApiDocument } from '../../../../src/api/openapi/registry';
import { registerS1 } from '../../../../src/api/s1/schemas';
import { registerS3 } from '../../../../src/api/s3/openapi';
import { createS3Router } from '../../../../src/api/s3/router';
import { createPortalRouter } from '../../../../src/api/portal/router';
import { S3SowRequestSchema } from '../../../../src/api/s3/schemas';
import { securitySchemes } from '../../../../src/api/openapi/common';
import { systemClock } from '../../../../src/shared/clock';

function mounted(router: express.Router): Set<string> {
  const out = new Set<string>();
  for (const layer of (router as any).stack) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) out.add(`${method.toUpperCase()} ${layer.route.path}`);
  }
  return out;
}

describe('S3 OpenAPI', () => {
  const document: any = buildOpenApiDocument([registerS1, registerS3]);

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
      ...mounted(createS3Router({ keys: unused, limits: unused, screenings: unused, usage: unused, store: unused, clock: systemClock, config: { screeningWaitMs: 1 } })),
      ...mounted(createPortalRouter({ accounts: unused, limits: unused, sessions: { lifetimeSeconds: 1 } as never, webhooks: unused, payments: unused, clock: systemClock, logger: unused, paymentWebhookSecret: undefined })),
    ]);
    const documented = new Set<string>();
    const s3Doc = buildOpenApiDocument([registerS3]);
    for (const [path, item] of Object.entries<any>(s3Doc.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
    }
    assert.deepEqual([...documented].sort(), [...routes].sort());
  });

  it('is generated from the SOW schema the router validates with', () => {
    const ref = document.paths['/api/v1/screening/sow'].post.requestBody.content['application/json'].schema.$ref as string;
    const schema = document.components.schemas[ref.split('/').pop()!];
    assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(S3SowRequestSchema.shape).sort());
    assert.deepEqual(schema.required.sort(), ['declared_source_of_wealth', 'query', 'wealth_sources']);
    assert.equal(schema.additionalProperties, false);
  });
});
