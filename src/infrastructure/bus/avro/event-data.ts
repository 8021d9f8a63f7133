/**
 * Typed event data: schemas/events/<aggregate>/<EventType>.avsc holds one record schema per domain
 * event type, named com.svc.events.<aggregate>.<EventType>. The relay puts the event's data, encoded
 * with that schema, in EventEnvelope.dataAvro (with dataSchema and dataFingerprint), next to the
 * JSON `data` every reader already uses. Data teams decode dataAvro with the typed schema and get
 * real fields instead of a JSON blob.
 *
 * TypeScript data -> Avro shape goes through avroShape (generic, schema-driven): absent optional
 * fields become null, free-form objects become JSON strings (logicalType "json").
 */
import type { RecordedEvent } from '../../../shared/events';
import { avroShape, type AvroShape } from './avro-shape';
import { EVENT_ENVELOPE, toEventEnvelope, type EventEnvelope } from './messages';
import { type AvroRegistry, InvalidMessageError, type RegisteredSchema, SCHEMA_FINGERPRINT_HEADER, SCHEMA_NAME_HEADER, UnknownSchemaError } from './registry';

export const EVENT_DATA_NAMESPACE = 'com.svc.events';

/** com.svc.events.<aggregate>.<EventType>, e.g. com.svc.events.screening.ScreeningRequested. */
export function eventDataSchemaName(aggregate: string, eventType: string): string {
  return `${EVENT_DATA_NAMESPACE}.${aggregate}.${eventType}`;
}

const TYPED_DATA_NAME = /^com\.svc\.events\.([A-Za-z_][A-Za-z0-9_]*)\.([A-Z][A-Za-z0-9_]*)$/;

const indexes = new WeakMap<AvroRegistry, Map<string, string>>();

/** Event type -> full name of its typed schema, for every typed schema the registry holds. */
export function eventDataSchemaIndex(registry: AvroRegistry): ReadonlyMap<string, string> {
  let index = indexes.get(registry);
  if (!index) {
    index = new Map();
    for (const name of registry.names()) {
      const match = TYPED_DATA_NAME.exec(name);
      if (!match) continue;
      const other = index.get(match[2]!);
      if (other) throw new Error(`event type ${match[2]} has two data schemas: ${other} and ${name}`);
      index.set(match[2]!, name);
    }
    indexes.set(registry, index);
  }
  return index;
}

/** The current typed schema of an event type, or undefined when it has none. */
export function eventDataSchemaFor(registry: AvroRegistry, eventType: string): RegisteredSchema | undefined {
  const name = eventDataSchemaIndex(registry).get(eventType);
  return name === undefined ? undefined : registry.current(name);
}

const shapes = new WeakMap<object, AvroShape>();

/** The (cached) converter of one schema version. */
export function shapeOf(schema: RegisteredSchema): AvroShape {
  let shape = shapes.get(schema.schema);
  if (!shape) {
    shape = avroShape(schema.schema);
    shapes.set(schema.schema, shape);
  }
  return shape;
}

export interface EncodedEventData {
  /** Full name of the typed schema. */
  schema: string;
  /** Fingerprint of the schema version written with. */
  fingerprint: string;
  /** Avro binary, no header. */
  bytes: Buffer;
}

/**
 * Encodes an event's data with its typed schema. Undefined when the type has no typed schema;
 * throws (AvroShapeError, InvalidMessageError naming the fields) when the data does not fit it.
 */
export function encodeEventData(registry: AvroRegistry, eventType: string, data: unknown): EncodedEventData | undefined {
  const schema = eventDataSchemaFor(registry, eventType);
  if (!schema) return undefined;
  const value = shapeOf(schema).toAvro(data ?? {});
  // Problems name paths and value kinds only: event data may hold hashes and ciphertexts, never logged.
  const problems: string[] = [];
  const valid = schema.type.isValid(value, {
    errorHook: (path, val) => problems.push(`${path.join('.') || '(root)'} (${val === undefined ? 'missing' : val === null ? 'null' : Array.isArray(val) ? 'array' : typeof val})`),
  });
  if (!valid) throw new InvalidMessageError(`data of ${eventType} does not match ${schema.fullName}: ${problems.join('; ')}`);
  return { schema: schema.fullName, fingerprint: schema.fingerprint, bytes: schema.type.toBuffer(value) };
}

/** The typed-data fields of an envelope (v2). */
export interface TypedDataRef {
  dataSchema?: string | null;
  dataFingerprint?: string | null;
  dataAvro?: Buffer | Uint8Array | null;
}

/**
 * Decodes dataAvro back to the event's data (TypeScript shape): resolves the writer version named
 * by dataFingerprint to this reader's current version of dataSchema. Undefined when the envelope
 * carries no typed data; throws UnknownSchemaError for a writer version this reader does not know.
 */
export function decodeEventData<T = Record<string, unknown>>(registry: AvroRegistry, envelope: TypedDataRef): T | undefined {
  if (!envelope.dataSchema || !envelope.dataAvro) return undefined;
  const headers: Record<string, string> = {};
  if (envelope.dataFingerprint) headers[SCHEMA_FINGERPRINT_HEADER] = envelope.dataFingerprint;
  const value = registry.decode(envelope.dataSchema, { value: Buffer.from(envelope.dataAvro), headers });
  return shapeOf(registry.current(envelope.dataSchema)).fromAvro(value) as T;
}

/**
 * EventEnvelope for an event with its typed data filled in when its type has a schema. Data that
 * does not fit its schema is a bug, but must not block the topic: the envelope then goes out
 * without typed data (dataSchema/dataAvro null) and `onTypedDataError` is told why.
 */
export function toTypedEventEnvelope(
  registry: AvroRegistry,
  event: RecordedEvent,
  onTypedDataError?: (error: Error, event: RecordedEvent) => void,
): EventEnvelope {
  const envelope = toEventEnvelope(event);
  try {
    const typed = encodeEventData(registry, event.type, event.data);
    if (typed) {
      envelope.dataSchema = typed.schema;
      envelope.dataFingerprint = typed.fingerprint;
      envelope.dataAvro = typed.bytes;
    }
  } catch (error) {
    onTypedDataError?.(error instanceof Error ? error : new Error(String(error)), event);
  }
  return envelope;
}

export interface DecodedTopicMessage {
  /** Full name of the message's schema (x-schema-name). */
  schema: string;
  /** The message decoded with the reader's current version of that schema. */
  value: Record<string, unknown>;
  /** For an EventEnvelope with typed data: dataAvro decoded with its typed schema. */
  typedData?: Record<string, unknown>;
}

/**
 * What a generic consumer of our topics does with one message: decode it with the schema its
 * headers name (resolving older writer versions), and for an event envelope carrying typed data,
 * decode dataAvro with its typed schema too.
 */
export function decodeTopicMessage(registry: AvroRegistry, message: { value: Buffer; headers: Record<string, string> }): DecodedTopicMessage {
  const schema = message.headers[SCHEMA_NAME_HEADER];
  if (!schema) throw new UnknownSchemaError(`message has no ${SCHEMA_NAME_HEADER} header`);
  const value = registry.decode<Record<string, unknown>>(schema, message);
  const decoded: DecodedTopicMessage = { schema, value };
  if (schema === EVENT_ENVELOPE) {
    const typedData = decodeEventData(registry, value as TypedDataRef);
    if (typedData !== undefined) decoded.typedData = typedData;
  }
  return decoded;
}
