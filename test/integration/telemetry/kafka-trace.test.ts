/**
 * One screening is one trace across the serve and the worker of the scaled mode, through a real
 * Kafka-protocol broker (librdkafka's mock cluster): serve (HTTP, relay, read models, AGENTS=none) and
 * a worker (agents and workflows, no HTTP) are two services that share only the broker and the
 * database, each with its own tracer (service.name svc-serve / svc-worker). The test follows the
 * parent-child chain from the HTTP request through each Kafka hop to the read models.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config/config';
import { startService, type RunningService } from '../../../src/bootstrap/service';
import { createLogger } from '../../../src/shared/logger';
import { startMockKafka, type MockKafka } from '../../support/kafka';
import { scaledModeTopics } from '../../support/scaled';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { testIndexCacheEnv } from '../../support/index-cache';
import { accountHelpers } from '../../support/service';
import { collectingExporter, SpanCollection, type CollectedSpan } from '../../support/span-collector';

let kafka: MockKafka;
let db: TestDatabase;
let serve: RunningService;
let worker: RunningService;
const spans = new SpanCollection();

async function start(role: 'serve' | 'worker'): Promise<RunningService> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_CLIENT_ID: `trace-${role}`,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    KAFKA_FETCH_MAX_WAIT_MS: '10',
    LISTS_DIR: 'test/fixtures/lists',
    ...testIndexCacheEnv(),
    PORT: '0',
    HOST: '127.0.0.1',
    SCREENING_WAIT_MS: '30000',
  });
  return startService({
    config,
    logger: createLogger({ level: config.LOG_LEVEL }),
    http: role === 'serve',
    agents: role === 'serve' ? 'none' : 'all',
    projections: role === 'serve',
    spanExporter: collectingExporter(spans),
  });
}

before(async () => {
  kafka = await startMockKafka({ topics: scaledModeTopics().map((name) => ({ name, partitions: 2 })), startTimeoutMs: 60_000 });
  db = await createTestDatabase();
  worker = await start('worker');
  serve = await start('serve');
});

after(async () => {
  await serve?.stop();
  await worker?.stop();
  await db?.drop();
  await kafka?.stop();
});

describe('a screening traced across serve and worker through Kafka', () => {
  it('is one trace whose spans chain from the HTTP request through every Kafka hop', async () => {
    const helpers = accountHelpers(serve);
    const { accountId } = await helpers.createAccount('enterprise');
    const { key } = await helpers.createKey(accountId, 's1');
    const response = await fetch(`${serve.url}/api/v1/screening/cdd`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Vladimir Putin', entity_type: 'individual' }),
    });
    const body = (await response.json()) as { screening: { id: number; status: string } };
    assert.equal(response.status, 201);
    assert.equal(body.screening.status, 'completed');
    await serve.runner!.caughtUp();
    await worker.telemetry.flush();
    await serve.telemetry.flush();

    const stream = `screening-${body.screening.id}`;
    const http = spans.spans.find((s) => s.hop === 'http' && s.name === 'POST /api/v1/screening/cdd')!;
    assert.ok(http, 'the HTTP request has a span named by its route');
    assert.equal(http.parentSpanId, undefined, 'the request starts the trace');
    const trace = spans.spans.filter((s) => s.traceId === http.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const parentOf = (s: CollectedSpan) => byId.get(s.parentSpanId ?? '');
    const childrenOf = (s: CollectedSpan, name: string | RegExp) =>
      trace.filter((c) => c.parentSpanId === s.spanId && (typeof name === 'string' ? c.name === name : name.test(c.name)));

    // Every span of this screening's work, in either process, is in the request's trace.
    const ofScreening = spans.spans.filter((s) => s.attributes['svc.workflow'] === stream || s.attributes['svc.stream'] === stream);
    assert.ok(ofScreening.length >= 6);
    assert.deepEqual([...new Set(ofScreening.map((s) => s.traceId))], [http.traceId], 'one trace per screening');
    assert.deepEqual([...new Set(trace.map((s) => s.service))].sort(), ['svc-serve', 'svc-worker']);

    // serve: HTTP -> append -> relay publish (the event's metadata carried the append's context).
    const [requested] = childrenOf(http, 'append screening');
    assert.ok(requested, 'the command append is a child of the request');
    const [published] = childrenOf(requested, 'publish svc.events.screening');
    assert.equal(published?.service, 'svc-serve');
    assert.equal(published?.attributes['svc.event_type'], 'ScreeningRequested');

    // Kafka hop 1: the worker's workflow consumer is the child of serve's publish (message header).
    const [started] = childrenOf(published!, 'consume svc.events.screening');
    assert.equal(started?.service, 'svc-worker');
    assert.equal(typeof started?.attributes['svc.bus_wait_ms'], 'number');
    assert.equal(childrenOf(started!, 'append screening').length, 1, 'the phase start is appended in that step');

    // Kafka hop 2: the agent's task consumer is the child of the step that published the task.
    const [task] = childrenOf(started!, 'consume svc.agents.tasks.sanctions');
    assert.ok(task, 'the sanctions task continues the trace');
    assert.equal(childrenOf(task, 'agent sanctions').length, 1);

    // Kafka hop 3: the result's consumer (one per batch of results, linked to the others) records it.
    const recorded = trace.filter((s) => s.name === 'consume svc.agents.results');
    assert.ok(recorded.length >= 1);
    for (const consume of recorded) assert.match(parentOf(consume)?.name ?? '', /^consume svc\.agents\.tasks\./);
    const completion = recorded.flatMap((c) => childrenOf(c, 'append screening')).find((append) => childrenOf(append, 'publish svc.events.screening').some((p) => p.attributes['svc.event_type'] === 'ScreeningCompleted'));
    assert.ok(completion, "the completion's append is recorded under a result's consumer, and serve relays it in the same trace");
    assert.ok(recorded.some((c) => childrenOf(c, /^agent (risk_score|summary)$/).length > 0), 'the finalisers run in that step');

    // The read models applied the screening's events in the same trace (serve).
    const batches = trace.filter((s) => s.hop === 'projection_batch');
    assert.ok(batches.length >= 1 && batches.every((b) => b.service === 'svc-serve' && parentOf(b)?.hop === 'append'));
  });
});
