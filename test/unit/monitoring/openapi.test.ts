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
  assert.deepEqual(document.components.schemas.S1DispositionRequest.properties.disposition.enum, ['true_match', 'false_positive', 'needs_more_information']);
  const events = document.paths['/api/v1/screening/{id}/events'].get;
  assert.ok(events.parameters.some((p: any) => p.in === 'header' && p.name === 'x-auditor-token'));
  assert.ok(document.paths['/api/v1/audit/streams/{stream}/events'].get);
  assert.ok(document.paths['/api/v1/audit/token'].post);
});

test('the S2 monitoring and audit routes mounted are exactly the ones documented, in a valid document with S2 and S1', async () => {
  const { createS2MonitoringRouter } = await import('../../../src/api/monitoring/s2-router');
  const { registerMonitoringS2 } = await import('../../../src/api/monitoring/s2-openapi');
  const { registerS2 } = await import('../../../src/api/s2/schemas');
  const unused = {} as never;
  const router = createS2MonitoringRouter({ audit: unused, auditorTokens: unused, subjectChecks: unused });
  const mounted = new Set<string>();
  for (const layer of (router as any).stack) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) mounted.add(`${method.toUpperCase()} ${layer.route.path}`);
  }
  const own: any = buildOpenApiDocument([registerMonitoringS2]);
  const documented = new Set<string>();
  for (const [p, item] of Object.entries(own.paths as Record<string, object>)) {
    for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1')}`);
  }
  assert.deepEqual([...mounted].sort(), [...documented].sort());
  assert.ok(mounted.has('POST /api/v1/compliance/subject-checks/:id/monitoring') && mounted.has('DELETE /api/v1/compliance/subject-checks/:id/monitoring'));

  const all: any = buildOpenApiDocument([registerS1, registerS2, registerMonitoringS1, registerMonitoringS2]);
  const result = await new Validator().validate(structuredClone(all));
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  // Each surface keeps its own callback: S1's monitoring.alert and S2's subject_check.monitoring_alert.
  assert.ok(all['x-webhooks']['monitoring.alert'].post.parameters.some((p: any) => p.name === 'X-Service-Timestamp'), 'S1 monitoring.alert untouched');
  const s2Alert = all['x-webhooks']['subject_check.monitoring_alert'].post;
  assert.ok(Object.keys(s2Alert.requestBody.content['application/json'].schema.properties).includes('alert_id'));
});
