import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  AGENT_RESULT,
  AGENT_TASK,
  AvroRegistry,
  EVENT_ENVELOPE,
  InvalidMessageError,
  SCHEMA_FINGERPRINT_HEADER,
  SCHEMA_NAME_HEADER,
  UnknownSchemaError,
  fromEventEnvelope,
  toEventEnvelope,
  type AgentResult,
  type EventEnvelope,
} from '../../../src/infrastructure/bus/avro';
import type { RecordedEvent } from '../../../src/shared/events';

const event: RecordedEvent = {
  type: 'ScreeningRequested',
  data: { subject: { name: 'Ivan Petrov' }, lists: ['ofac'] },
  metadata: {
    eventId: 'evt-1',
    correlationId: 'corr-1',
    actor: { surface: 's1', accountId: '42', keyId: 'key-9' },
    occurredAt: '2026-11-22T10:00:00.000Z',
  },
  streamName: 'screening-42',
  streamPosition: 3n,
  globalPosition: 2n ** 60n,
  recordedAt: '2026-11-22T10:00:00.123Z',
};

describe('AvroRegistry with the repository schemas', () => {
  const registry = AvroRegistry.load();

  it('round-trips an event through EventEnvelope, with 64-bit positions and the fingerprint header', () => {
    const encoded = registry.encode(EVENT_ENVELOPE, toEventEnvelope(event));
    assert.equal(encoded.headers[SCHEMA_FINGERPRINT_HEADER], registry.current(EVENT_ENVELOPE).fingerprint);
    assert.match(encoded.headers[SCHEMA_FINGERPRINT_HEADER]!, /^[0-9a-f]{64}$/);
    assert.equal(encoded.headers[SCHEMA_NAME_HEADER], EVENT_ENVELOPE);
    const decoded = registry.decode<EventEnvelope>(EVENT_ENVELOPE, encoded);
    assert.equal(decoded.globalPosition, 2n ** 60n);
    assert.equal(decoded.causationId, null);
    assert.deepEqual({ ...decoded.actor }, { surface: 's1', accountId: '42', keyId: 'key-9', userId: null });
    assert.deepEqual(fromEventEnvelope(decoded), event);
  });

  it('encodes agent tasks and results', () => {
    const result: AgentResult = {
      taskId: 't-1',
      agent: 'sanctions',
      phase: 'lists',
      queried: false,
      error: 'source not configured',
      result: '{}',
      startedAt: '2026-11-22T10:00:00Z',
      finishedAt: '2026-11-22T10:00:01Z',
    };
    const message = registry.message(AGENT_RESULT, 't-1', result, { 'correlation-id': 'c' });
    assert.equal(message.key, 't-1');
    assert.equal(message.headers['correlation-id'], 'c');
    assert.deepEqual({ ...registry.decode<AgentResult>(AGENT_RESULT, message) }, result);
    assert.ok(registry.names().includes(AGENT_TASK));
  });

  it('names the offending fields of an invalid value', () => {
    assert.throws(
      () => registry.encode(EVENT_ENVELOPE, { ...toEventEnvelope(event), streamPosition: 3 }),
      (e: unknown) => e instanceof InvalidMessageError && /streamPosition: 3/.test(e.message),
    );
  });

  it('refuses bytes without or with an unknown fingerprint', () => {
    const encoded = registry.encode(EVENT_ENVELOPE, toEventEnvelope(event));
    assert.throws(() => registry.decode(EVENT_ENVELOPE, { value: encoded.value, headers: {} }), UnknownSchemaError);
    assert.throws(
      () => registry.decode(EVENT_ENVELOPE, { value: encoded.value, headers: { [SCHEMA_FINGERPRINT_HEADER]: 'ab'.repeat(32) } }),
      UnknownSchemaError,
    );
  });
});

describe('AvroRegistry resolving older writer versions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avro-registry-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const v1 = {
    type: 'record',
    name: 'Thing',
    namespace: 'com.svc.test',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'size', type: 'int' },
    ],
  };
  const v2 = {
    ...v1,
    fields: [
      { name: 'id', type: 'string' },
      { name: 'size', type: 'long' },
      { name: 'label', type: ['null', 'string'], default: null },
    ],
  };
  mkdirSync(join(dir, 'test'), { recursive: true });
  mkdirSync(join(dir, 'history', 'com.svc.test.Thing'), { recursive: true });
  writeFileSync(join(dir, 'history', 'com.svc.test.Thing', 'v1.avsc'), JSON.stringify(v1));
  writeFileSync(join(dir, 'test', 'Thing.avsc'), JSON.stringify(v2));

  it('decodes a v1 message with the v2 reader (defaults filled, int promoted to long)', () => {
    const registry = AvroRegistry.load(dir);
    const versions = registry.versions('com.svc.test.Thing');
    assert.deepEqual(versions.map((v) => [v.version, v.current]), [[1, false], [2, true]]);
    const old = versions[0]!;
    const value = old.type.toBuffer({ id: 'a', size: 7 });
    const decoded = registry.decode<{ id: string; size: bigint; label: string | null }>('com.svc.test.Thing', {
      value,
      headers: { [SCHEMA_FINGERPRINT_HEADER]: old.fingerprint },
    });
    assert.deepEqual({ ...decoded }, { id: 'a', size: 7n, label: null });
  });

  it('rejects history without a current schema', () => {
    mkdirSync(join(dir, 'history', 'com.svc.test.Orphan'), { recursive: true });
    assert.throws(() => AvroRegistry.load(dir), /Orphan has no current schema/);
    rmSync(join(dir, 'history', 'com.svc.test.Orphan'), { recursive: true });
  });
});
