import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApiDocument } from '../../../src/api/openapi/registry';
import { registerS1 } from '../../../src/api/s1/schemas';
import { registerMonitoringS1 } from '../../../src/api/monitoring/schemas';

test('the monitoring, disposition and audit endpoints are documented in a valid OpenAPI 3.0 document', async () => {
  const document: any = buildOpenApiDocument([registerS1, registerMonitoringS1]);
  const result = await new Validator().validate(structuredClone(document));
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  assert.deepEqual(Object.keys(document.paths['/api/v1/screening/{id}/monitoring']).sort(), ['delete', 'post']);
  const disposition = document.paths['/api/v1/screening/{id}/hits/{hitId}/disposition'].post;
  assert.deepEqual(disposition.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/S1DispositionRequest' });
  assert.deepEqual(document.components.schemas.S1DispositionRequest.properties.disposition.enum, ['true_match', 'false_positive']);
  const events = document.paths['/api/v1/screening/{id}/events'].get;
  assert.ok(events.parameters.some((p: any) => p.in === 'header' && p.name === 'x-auditor-token'));
  assert.ok(document.paths['/api/v1/audit/streams/{stream}/events'].get);
  assert.ok(document.paths['/api/v1/audit/token'].post);
});
