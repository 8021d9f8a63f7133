/**
 * Avro codec registry for topic messages.
 *
 * Writers encode with the current schema of a message type and put the schema's fingerprint
 * (SHA-256 of its Parsing Canonical Form, hex) in a header. Readers look the writer schema up
 * by that fingerprint among every version they know (current + history) and resolve it to
 * their reader schema, so data written with an older version stays readable (BACKWARD).
 * Avro longs are JavaScript bigints.
 */
import avro from 'avsc';
import { DeferredBusMessage, type BusMessage } from '../port';
import { defaultSchemasDir, readSchemaFiles, type SchemaFile } from './schema-files';

export const SCHEMA_FINGERPRINT_HEADER = 'x-schema-fingerprint';
export const SCHEMA_NAME_HEADER = 'x-schema-name';

/** Avro long <-> bigint, so positions beyond 2^53 survive. */
const bigintLong = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(n);
    return buf;
  },
  fromJSON: (n: number | string | bigint) => BigInt(n),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint' && n >= -(2n ** 63n) && n < 2n ** 63n,
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** Parses one schema in its own name registry (versions of one type must not collide). */
export function parseSchema(schema: object, options: { bigintLongs?: boolean } = {}): avro.Type {
  const registry: Record<string, avro.Type> = options.bigintLongs === false ? {} : { long: bigintLong };
  return avro.Type.forSchema(schema as avro.Schema, { registry, wrapUnions: false });
}

export function fingerprintOf(type: avro.Type): string {
  return type.fingerprint('sha256').toString('hex');
}

export interface RegisteredSchema extends SchemaFile {
  type: avro.Type;
  fingerprint: string;
}

export class UnknownSchemaError extends Error {
  override readonly name = 'UnknownSchemaError';
}

export class InvalidMessageError extends Error {
  override readonly name = 'InvalidMessageError';
}

export class AvroRegistry {
  private readonly byFingerprint = new Map<string, RegisteredSchema>();
  private readonly currentByName = new Map<string, RegisteredSchema>();
  private readonly versionsByName = new Map<string, RegisteredSchema[]>();
  private readonly resolvers = new Map<string, ReturnType<avro.Type["createResolver"]>>();

  constructor(files: SchemaFile[]) {
    for (const file of files) {
      const type = parseSchema(file.schema);
      const registered: RegisteredSchema = { ...file, type, fingerprint: fingerprintOf(type) };
      // Two identical versions share a fingerprint; either decodes the same bytes.
      if (!this.byFingerprint.has(registered.fingerprint)) this.byFingerprint.set(registered.fingerprint, registered);
      if (file.current) this.currentByName.set(file.fullName, registered);
      const versions = this.versionsByName.get(file.fullName) ?? [];
      versions.push(registered);
      this.versionsByName.set(file.fullName, versions);
    }
  }

  /** Loads every schema under schemas/ (or `dir`). */
  static load(dir: string = defaultSchemasDir): AvroRegistry {
    return new AvroRegistry(readSchemaFiles(dir));
  }

  names(): string[] {
    return [...this.currentByName.keys()].sort();
  }

  current(fullName: string): RegisteredSchema {
    const schema = this.currentByName.get(fullName);
    if (!schema) throw new UnknownSchemaError(`no schema named ${fullName} (known: ${this.names().join(', ')})`);
    return schema;
  }

  versions(fullName: string): RegisteredSchema[] {
    this.current(fullName);
    return [...this.versionsByName.get(fullName)!];
  }

  bySchemaFingerprint(fingerprint: string): RegisteredSchema | undefined {
    return this.byFingerprint.get(fingerprint);
  }

  /** Encodes with the current schema; throws InvalidMessageError naming the offending fields. */
  encode(fullName: string, value: unknown): { value: Buffer; headers: Record<string, string> } {
    const schema = this.current(fullName);
    const problems: string[] = [];
    const valid = schema.type.isValid(value, {
      errorHook: (path, val) => problems.push(`${path.join('.') || '(root)'}: ${describe(val)}`),
    });
    if (!valid) throw new InvalidMessageError(`value does not match ${fullName}: ${problems.join('; ')}`);
    return {
      value: schema.type.toBuffer(value),
      headers: { [SCHEMA_FINGERPRINT_HEADER]: schema.fingerprint, [SCHEMA_NAME_HEADER]: fullName },
    };
  }

  /**
   * A bus message encoded only when its bytes are first read (see DeferredBusMessage); the value is
   * built then too. The schema headers are known at once.
   */
  deferredMessage(fullName: string, key: string, value: () => unknown, headers: Record<string, string> = {}): BusMessage {
    const schema = this.current(fullName);
    return new DeferredBusMessage(
      key,
      { ...headers, [SCHEMA_FINGERPRINT_HEADER]: schema.fingerprint, [SCHEMA_NAME_HEADER]: fullName },
      () => this.encode(fullName, value()).value,
    );
  }

  /** A ready-to-publish bus message. */
  message(fullName: string, key: string, value: unknown, headers: Record<string, string> = {}): BusMessage {
    const encoded = this.encode(fullName, value);
    return { key, value: encoded.value, headers: { ...headers, ...encoded.headers } };
  }

  /** Decodes bytes written with any known version of a schema into the reader's (current) shape. */
  decode<T = Record<string, unknown>>(readerName: string, message: { value: Buffer; headers: Record<string, string> }): T {
    const reader = this.current(readerName);
    const fingerprint = message.headers[SCHEMA_FINGERPRINT_HEADER];
    if (!fingerprint) throw new UnknownSchemaError(`message has no ${SCHEMA_FINGERPRINT_HEADER} header`);
    const writer = this.byFingerprint.get(fingerprint);
    if (!writer) {
      throw new UnknownSchemaError(
        `unknown writer schema ${fingerprint} (${message.headers[SCHEMA_NAME_HEADER] ?? 'unnamed'}): deploy the newer schemas to this reader first`,
      );
    }
    if (writer.fingerprint === reader.fingerprint) return reader.type.fromBuffer(message.value) as T;
    const cacheKey = `${writer.fingerprint}>${reader.fingerprint}`;
    let resolver = this.resolvers.get(cacheKey);
    if (!resolver) {
      resolver = reader.type.createResolver(writer.type);
      this.resolvers.set(cacheKey, resolver);
    }
    return reader.type.fromBuffer(message.value, resolver) as T;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value === undefined) return 'missing';
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json.length > 60 ? `${json.slice(0, 57)}...` : json;
}
