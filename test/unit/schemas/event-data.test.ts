/**
 * Typed event-data schemas (schemas/events/<aggregate>/<EventType>.avsc) and EventEnvelope v2:
 * every domain event type has one, real decider events round-trip through it, the relay carries
 * it in dataAvro, and v1/v2 envelope readers and writers resolve each other.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import avro from 'avsc';
import { allEventTypes, eventTypesByAggregate } from '../../../src/commands';
import {
  AGENT_TASK,
  AvroRegistry,
  avroShape,
  AvroShapeError,
  decodeEventData,
  decodeTopicMessage,
  encodeEventData,
  EVENT_ENVELOPE,
  eventDataSchemaFor,
  eventDataSchemaIndex,
  eventDataSchemaName,
  type EventEnvelope,
  fromEventEnvelope,
  InvalidMessageError,
  SCHEMA_FINGERPRINT_HEADER,
  toTypedEventEnvelope,
} from '../../../src/infrastructure/bus/avro';
import { defaultSchemasDir, readSchemaFiles } from '../../../src/infrastructure/bus/avro/schema-files';
import { relayMessage } from '../../../src/infrastructure/relay/relay';
import type { Event, RecordedEvent } from '../../../src/shared/events';
import { deciderEvents } from './decider-events';

const registry = AvroRegistry.load();
const events = deciderEvents();
const NOW_ISO = '2026-03-01T10:00:30.000Z';
/** What a JSON consumer sees: absent optional fields, no undefined. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

function recorded(event: Event, position: bigint): RecordedEvent {
  return { ...event, streamName: 'screening-501', streamPosition: position, globalPosition: position + 1000n, recordedAt: '2026-03-01T10:00:03.000Z' };
}

describe('typed event-data schemas', () => {
  it('every event type has exactly one schema com.svc.events.<aggregate>.<Type> in schemas/events/<aggregate>/', () => {
    for (const [aggregate, types] of Object.entries(eventTypesByAggregate)) {
      for (const type of types) {
        const schema = eventDataSchemaFor(registry, type);
        assert.ok(schema, `${type} has no typed schema`);
        assert.equal(schema.fullName, eventDataSchemaName(aggregate, type));
        assert.equal(schema.path, join('events', aggregate, `${type}.avsc`));
        assert.ok(existsSync(join(defaultSchemasDir, schema.path)));
        assert.equal(typeof schema.schema.doc, 'string', `${type} documents itself`);
      }
    }
    assert.deepEqual([...eventDataSchemaIndex(registry).keys()].sort(), [...allEventTypes].sort(), 'no schema for an event type that does not exist');
  });

  it('all typed schemas load together into one Avro name space (nested record names do not collide)', () => {
    const shared: Record<string, avro.Type> = {};
    for (const name of eventDataSchemaIndex(registry).values()) {
      avro.Type.forSchema(registry.current(name).schema as avro.Schema, { registry: shared, wrapUnions: false });
    }
    assert.ok(Object.keys(shared).length > allEventTypes.length, 'nested records registered too');
  });

  it('the scenarios produce every event type from the real deciders', () => {
    assert.deepEqual([...new Set(events.map((e) => e.type))].sort(), [...allEventTypes].sort());
  });

  it('every decider event encodes with its schema and decodes back to the same data', () => {
    for (const event of events) {
      const encoded = encodeEventData(registry, event.type, event.data);
      assert.ok(encoded, event.type);
      const decoded = decodeEventData(registry, { dataSchema: encoded.schema, dataFingerprint: encoded.fingerprint, dataAvro: encoded.bytes });
      assert.deepEqual(decoded, asJson(event.data), `${event.type} ${event.metadata.eventId}`);
    }
  });

  it('the scenarios exercise every optional field both ways (present in some event)', () => {
    const present = new Map<string, Set<string>>();
    const optional = new Map<string, Set<string>>();
    const visit = (type: string, schema: unknown, value: unknown, path: string) => {
      const s = schema as { type?: unknown; fields?: { name: string; type: unknown }[]; items?: unknown };
      if (!s || typeof s !== 'object' || Array.isArray(s)) return;
      if (s.type === 'array') return void (Array.isArray(value) ? value : []).forEach((v) => visit(type, s.items, v, `${path}[]`));
      if (s.type !== 'record') return visit(type, s.type, value, path);
      for (const field of s.fields ?? []) {
        const v = (value as Record<string, unknown> | undefined)?.[field.name];
        const p = `${path}${field.name}`;
        if (Array.isArray(field.type)) {
          optional.set(type, (optional.get(type) ?? new Set()).add(p));
          if (v !== undefined) present.set(type, (present.get(type) ?? new Set()).add(p));
          visit(type, field.type.find((t) => t !== 'null'), v, `${p}.`);
        } else visit(type, field.type, v, `${p}.`);
      }
    };
    for (const event of events) visit(event.type, eventDataSchemaFor(registry, event.type)!.schema, event.data, '');
    const never = [...optional].flatMap(([type, paths]) => [...paths].filter((p) => !present.get(type)?.has(p)).map((p) => `${type}.${p}`));
    assert.deepEqual(never, []);
  });

  it('free-form fields travel as JSON text and optional fields as null on the wire', () => {
    const event = events.find((e) => e.type === 'AgentResultRecorded' && (e.data as { queried: boolean }).queried)!;
    const encoded = encodeEventData(registry, event.type, event.data)!;
    const raw = registry.current(encoded.schema).type.fromBuffer(encoded.bytes) as Record<string, unknown>;
    assert.equal(raw.error, null);
    assert.equal(typeof raw.result, 'string');
    assert.deepEqual(JSON.parse(raw.result as string), (event.data as { result: unknown }).result);
  });

  it('data that does not fit its schema is refused, naming the field but not the value', () => {
    const event = events.find((e) => e.type === 'ApiKeyCreated')!;
    assert.throws(() => encodeEventData(registry, 'ApiKeyCreated', { ...event.data, tenant: 'x' }), (e: Error) => e instanceof AvroShapeError && /tenant/.test(e.message));
    assert.throws(
      () => encodeEventData(registry, 'ApiKeyCreated', { ...event.data, keyHash: 12345678 }),
      (e: Error) => e instanceof InvalidMessageError && /keyHash \(number\)/.test(e.message) && !e.message.includes('12345678'),
    );
    assert.throws(() => encodeEventData(registry, 'ApiKeyCreated', { ...event.data, keyId: undefined }), /keyId \(missing\)/);
    assert.equal(encodeEventData(registry, 'SomethingHappened', {}), undefined, 'types without a schema have no typed data');
  });
});

describe('schema-driven shape conversion', () => {
  const schema = {
    type: 'record',
    name: 'Node',
    namespace: 'com.svc.test',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'note', type: ['null', 'string'], default: null },
      { name: 'meta', type: { type: 'string', logicalType: 'json' } },
      { name: 'tags', type: { type: 'map', values: { type: 'array', items: 'string' } } },
      { name: 'children', type: { type: 'array', items: 'Node' } },
      { name: 'parent', type: ['null', 'com.svc.test.Node'], default: null },
    ],
  };
  const shape = avroShape(schema);
  const type = avro.Type.forSchema(schema as avro.Schema, { wrapUnions: false });
  const value = {
    id: 'root',
    meta: { a: [1, { b: null }] },
    tags: { x: ['1'] },
    children: [{ id: 'c', note: 'n', meta: 'text', tags: {}, children: [], parent: { id: 'p', meta: 7, tags: {}, children: [] } }],
  };

  it('turns absent optional fields into null and free-form values into JSON, recursively, and back', () => {
    const avroValue = shape.toAvro(value) as Record<string, unknown>;
    assert.ok(type.isValid(avroValue));
    assert.equal(avroValue.note, null);
    assert.equal(avroValue.meta, '{"a":[1,{"b":null}]}');
    const child = (avroValue.children as Record<string, unknown>[])[0]!;
    assert.equal(child.meta, '"text"');
    assert.equal((child.parent as Record<string, unknown>).note, null);
    assert.deepEqual(shape.fromAvro(type.fromBuffer(type.toBuffer(avroValue))), value);
  });

  it('refuses a field the schema does not know, with its path, also in nested records', () => {
    assert.throws(() => shape.toAvro({ ...value, extra: 1 }), /^AvroShapeError: extra is not a field of com\.svc\.test\.Node$/);
    assert.throws(() => shape.toAvro({ ...value, children: [{ ...value.children[0], oops: true }] }), /children\[0\]\.oops/);
    assert.doesNotThrow(() => shape.toAvro({ ...value, extra: undefined }), 'an undefined property is an absent one');
  });

  it('refuses unions it cannot map', () => {
    assert.throws(() => avroShape({ type: 'record', name: 'U', fields: [{ name: 'u', type: ['string', 'int'] }] }), AvroShapeError);
  });
});

describe('EventEnvelope v2', () => {
  const files = readSchemaFiles();
  const v1 = files.find((f) => f.fullName === EVENT_ENVELOPE && f.version === 1)!;
  const v2 = files.find((f) => f.fullName === EVENT_ENVELOPE && f.current)!;
  /** A consumer still on v1 that fetched the v2 writer schema by its fingerprint. */
  const v1Reader = new AvroRegistry([{ ...v2, current: false }, { ...v1, current: true }]);
  const event = recorded(events.find((e) => e.type === 'ScreeningCompleted')!, 7n);

  it('keeps v1 in schemas/history and adds optional typed-data fields', () => {
    assert.ok(v1 && v2 && v2.version === 2, 'v1 in history, v2 current');
    const added = (v2.schema.fields as { name: string; default?: unknown }[]).filter((f) => !(v1.schema.fields as { name: string }[]).some((o) => o.name === f.name));
    assert.deepEqual(added.map((f) => [f.name, f.default]), [['dataSchema', null], ['dataFingerprint', null], ['dataAvro', null]]);
  });

  it('the relay message carries the data both as JSON and as typed Avro', () => {
    const message = relayMessage(registry, event);
    const envelope = registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
    assert.equal(envelope.dataSchema, 'com.svc.events.screening.ScreeningCompleted');
    assert.equal(envelope.dataFingerprint, registry.current('com.svc.events.screening.ScreeningCompleted').fingerprint);
    assert.deepEqual(decodeEventData(registry, envelope), asJson(event.data));
    assert.deepEqual(fromEventEnvelope(envelope), event, 'the JSON path is unchanged');
  });

  it('a relay message whose data does not fit is still published, without typed data, and the error reported', () => {
    const broken = { ...event, data: { ...event.data, riskScore: 'thirty' } };
    const errors: string[] = [];
    const envelope = registry.decode<EventEnvelope>(EVENT_ENVELOPE, relayMessage(registry, broken, (error, e) => errors.push(`${e.type}: ${error.message}`)));
    assert.equal(envelope.dataSchema, null);
    assert.equal(envelope.dataAvro, null);
    assert.deepEqual(JSON.parse(envelope.data), broken.data);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /^ScreeningCompleted: .*riskScore \(string\)/);
  });

  it('a v1 reader reads v2 messages (the new fields are dropped)', () => {
    const message = registry.message(EVENT_ENVELOPE, event.streamName, toTypedEventEnvelope(registry, event));
    assert.equal(message.headers[SCHEMA_FINGERPRINT_HEADER], registry.current(EVENT_ENVELOPE).fingerprint);
    const old = v1Reader.decode<Record<string, unknown>>(EVENT_ENVELOPE, message);
    assert.deepEqual(Object.keys(old), (v1.schema.fields as { name: string }[]).map((f) => f.name));
    assert.deepEqual(fromEventEnvelope(old as unknown as EventEnvelope), event);
  });

  it('a v2 reader reads v1 messages (typed-data fields null)', () => {
    const message = v1Reader.message(EVENT_ENVELOPE, event.streamName, toTypedEventEnvelope(v1Reader, event));
    assert.notEqual(message.headers[SCHEMA_FINGERPRINT_HEADER], registry.current(EVENT_ENVELOPE).fingerprint);
    const envelope = registry.decode<EventEnvelope>(EVENT_ENVELOPE, message);
    assert.equal(envelope.dataSchema, null);
    assert.equal(envelope.dataAvro, null);
    assert.equal(decodeEventData(registry, envelope), undefined);
    assert.deepEqual(fromEventEnvelope(envelope), event);
  });
});

describe('decodeTopicMessage (what scripts/example-consumer.ts prints)', () => {
  it('decodes an event envelope and its typed data; other messages have no typedData', () => {
    const event = recorded(events.find((e) => e.type === 'PersonCheckCompleted')!, 3n);
    const decoded = decodeTopicMessage(registry, relayMessage(registry, event));
    assert.equal(decoded.schema, EVENT_ENVELOPE);
    assert.equal(decoded.value.type, 'PersonCheckCompleted');
    assert.deepEqual(decoded.typedData, asJson(event.data));

    const task = { taskId: 't-1', screeningId: '501', subjectKind: 'individual', agent: 'pep', phase: '1', input: '{}', deadline: NOW_ISO, correlationId: 'c' };
    const plain = decodeTopicMessage(registry, registry.message(AGENT_TASK, '501', task));
    assert.deepEqual(plain, { schema: AGENT_TASK, value: plain.value });
    assert.equal(plain.value.taskId, 't-1');
  });

  it('refuses a message without a schema name', () => {
    const message = relayMessage(registry, recorded(events[0]!, 1n));
    const headers = { ...message.headers };
    delete headers['x-schema-name'];
    assert.throws(() => decodeTopicMessage(registry, { value: message.value, headers }), /x-schema-name/);
  });
});
