/**
 * The Idempotency-Key documentation: every create route that mounts the middleware documents the header,
 * the replay header and the 409/422 answers in the one OpenAPI description, which stays valid.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { IDEMPOTENT_CREATE_ROUTES } from '../../../src/api/http/idempotency';
import { registerMonitoringS1 } from '../../../src/api/monitoring/schemas';
import { registerMonitoringS2 } from '../../../src/api/monitoring/s2-openapi';
import { registerMonitoringS3 } from '../../../src/api/monitoring/s3-openapi';
import { buildOpenApiDocument } from '../../../src/api/openapi/registry';
import { registerPersonChecks } from '../../../src/api/person-checks/schemas';
import { registerPortal } from '../../../src/api/portal/openapi';
import { registerS1 } from '../../../src/api/s1/schemas';
import { registerS2 } from '../../../src/api/s2/schemas';
import { registerS3 } from '../../../src/api/s3/openapi';

describe('OpenAPI: Idempotency-Key', () => {
  // The same registrations the service serves at /api/v1/openapi.json (src/bootstrap/routers.ts).
  const document: any = buildOpenApiDocument([registerS1, registerS3, registerS2, registerPersonChecks, registerMonitoringS1, registerMonitoringS3, registerMonitoringS2, registerPortal]);

  it('stays a valid OpenAPI 3.0 document', async () => {
    const result = await new Validator().validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  it('documents the header, the replay header and 409/422 on every idempotent create route', () => {
    for (const path of IDEMPOTENT_CREATE_ROUTES) {
      const operation = document.paths[path]?.post;
      assert.ok(operation, `POST ${path} is documented`);
      const header = operation.parameters.find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
      assert.ok(header, `POST ${path} documents Idempotency-Key`);
      assert.equal(header.schema.maxLength, 255);
      assert.match(operation.responses['422'].description, /idempotency_key_reused/, path);
      assert.match(operation.responses['409'].description, /idempotency_key_in_progress/, path);
      assert.ok(operation.responses['409'].headers['Retry-After'], path);
      const created = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      assert.ok(created.length > 0, path);
      for (const [status, response] of created) assert.ok((response as any).headers['Idempotent-Replayed'], `${path} ${status}`);
    }
  });

  it('documents the header nowhere else', () => {
    const listed = new Set<string>(IDEMPOTENT_CREATE_ROUTES);
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (method === 'post' && listed.has(path)) continue;
        const has = (operation?.parameters ?? []).some((p: any) => p.name === 'Idempotency-Key');
        assert.equal(has, false, `${method.toUpperCase()} ${path}`);
      }
    }
  });

  it('names the S1 codes in the S1 error envelope', () => {
    const codes = document.components.schemas.S1Error.properties.code.enum;
    assert.ok(codes.includes('idempotency_key_reused'));
    assert.ok(codes.includes('idempotency_key_in_progress'));
  });
});
