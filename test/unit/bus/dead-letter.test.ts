import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { describe, it } from 'node:test';
import {
  DLQ_HEADERS,
  DeadLetterCounter,
  FailureTracker,
  deadLetterMessage,
  defaultRetryPolicy,
  resolveRetryPolicy,
} from '../../../src/infrastructure/bus/dead-letter';

const backoff = { initialMs: 10, maxMs: 40 };
const connectionError = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('retry policy', () => {
  it('defaults to 5 attempts and svc.deadletter; the subscription overrides the bus default', () => {
    assert.deepEqual(resolveRetryPolicy(undefined, undefined), { maxAttempts: 5, deadLetterTopic: 'svc.deadletter' });
    assert.deepEqual(resolveRetryPolicy({ maxAttempts: 8 }, { deadLetterTopic: 'x.dlq' }), { maxAttempts: 8, deadLetterTopic: 'x.dlq' });
    assert.equal(resolveRetryPolicy({ maxAttempts: 8 }, { maxAttempts: 2 }).maxAttempts, 2);
    assert.throws(() => resolveRetryPolicy(undefined, { maxAttempts: 0 }), /maxAttempts/);
    assert.throws(() => resolveRetryPolicy(undefined, { maxAttempts: Number.NaN }), /maxAttempts/);
    assert.throws(() => resolveRetryPolicy(undefined, { deadLetterTopic: '' }), /deadLetterTopic/);
  });

  it('dead-letters on the Nth non-transient failure, with a doubling capped backoff before that', () => {
    const tracker = new FailureTracker(backoff);
    const policy = { ...defaultRetryPolicy, maxAttempts: 3 };
    assert.deepEqual(tracker.failed(new Error('bad'), policy), { action: 'retry', delayMs: 10, attempts: 1, transient: false });
    assert.deepEqual(tracker.failed(new Error('bad'), policy), { action: 'retry', delayMs: 20, attempts: 2, transient: false });
    assert.deepEqual(tracker.failed(new Error('bad'), policy), { action: 'dead-letter', attempts: 3 });
    tracker.reset();
    assert.deepEqual(tracker.failed(new Error('bad'), policy), { action: 'retry', delayMs: 10, attempts: 1, transient: false });
  });

  it('does not count connection errors, but backs off on them', () => {
    const tracker = new FailureTracker(backoff);
    const policy = { ...defaultRetryPolicy, maxAttempts: 1 };
    for (let i = 0; i < 10; i++) assert.equal(tracker.failed(connectionError(), policy).action, 'retry');
    const pgShutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const decision = tracker.failed(pgShutdown, policy);
    assert.deepEqual(decision, { action: 'retry', delayMs: 40, attempts: 0, transient: true });
    assert.equal(tracker.failed(new Error('bad data'), policy).action, 'dead-letter');
  });

  it('never gives up with maxAttempts Infinity', () => {
    const tracker = new FailureTracker(backoff);
    const policy = { ...defaultRetryPolicy, maxAttempts: Number.POSITIVE_INFINITY };
    for (let i = 0; i < 100; i++) assert.equal(tracker.failed(new Error('bad'), policy).action, 'retry');
  });
});

describe('dead letters', () => {
  it('keep the original key, bytes and headers and add where they came from and why', () => {
    const value = Buffer.from([0, 1, 2, 255]);
    const letter = deadLetterMessage(
      { topic: 'svc.agents.results', partition: 2, offset: '41', key: 'screening-9', value, headers: { 'x-message-id': 't-1:result' } },
      { groupId: 'svc-screening-orchestrator', attempts: 5, error: new TypeError('x'.repeat(5_000)), at: new Date('2026-01-02T03:04:05Z') },
    );
    assert.equal(letter.key, 'screening-9');
    assert.equal(letter.value, value);
    assert.equal(letter.headers['x-message-id'], 't-1:result');
    assert.equal(letter.headers[DLQ_HEADERS.topic], 'svc.agents.results');
    assert.equal(letter.headers[DLQ_HEADERS.partition], '2');
    assert.equal(letter.headers[DLQ_HEADERS.offset], '41');
    assert.equal(letter.headers[DLQ_HEADERS.key], 'screening-9');
    assert.equal(letter.headers[DLQ_HEADERS.group], 'svc-screening-orchestrator');
    assert.equal(letter.headers[DLQ_HEADERS.attempts], '5');
    assert.equal(letter.headers[DLQ_HEADERS.errorName], 'TypeError');
    assert.equal(letter.headers[DLQ_HEADERS.error]?.length, 1_000, 'long error messages are cut');
    assert.equal(letter.headers[DLQ_HEADERS.at], '2026-01-02T03:04:05.000Z');
  });

  it('are counted per group and topic in Prometheus text', async () => {
    const counter = new DeadLetterCounter();
    // What GET /metrics shows of this counter (its own registry each time).
    const metricLines = async () => {
      const registry = new Registry();
      counter.registerMetrics(registry);
      return (await registry.metrics()).trimEnd().split('\n');
    };
    assert.deepEqual((await metricLines()).slice(2), []);
    counter.record({ groupId: 'g2', topic: 't' });
    counter.record({ groupId: 'g1', topic: 't"x' });
    counter.record({ groupId: 'g2', topic: 't' });
    assert.equal(counter.total(), 3);
    assert.equal(counter.total({ group: 'g2' }), 2);
    const lines = await metricLines();
    assert.match(lines[0]!, /^# HELP svc_bus_dead_letters_total /);
    assert.equal(lines[1], '# TYPE svc_bus_dead_letters_total counter');
    assert.deepEqual(lines.slice(2), ['svc_bus_dead_letters_total{group="g1",topic="t\\"x"} 1', 'svc_bus_dead_letters_total{group="g2",topic="t"} 2']);
  });
});
