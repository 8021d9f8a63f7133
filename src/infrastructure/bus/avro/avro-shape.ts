/**
 * Converts between the TypeScript shape of a value and its Avro shape, driven only by the schema
 * (no per-type code), so one function serves every typed event schema:
 *
 *   TypeScript                          Avro
 *   optional field absent (undefined)   null in a ["null", T] union
 *   free-form object                    string with "logicalType": "json" (JSON text)
 *   nested object / array / map         nested record / array / map, converted recursively
 *
 * toAvro refuses (AvroShapeError) a field the schema does not know: the typed payload must carry
 * everything the JSON one does, so a field added to an event type without a schema change is caught
 * instead of silently dropped. Type mismatches are left to avsc's validation, which names the path.
 * fromAvro is the inverse: nulls of optional fields become absent fields, JSON strings are parsed.
 * Only ["null", T] unions (or single-branch unions) are supported: that is what the event schemas use.
 */

export class AvroShapeError extends Error {
  override readonly name = 'AvroShapeError';
}

export interface AvroShape {
  toAvro(value: unknown): unknown;
  fromAvro(value: unknown): unknown;
}

type Schema = string | Schema[] | { [key: string]: unknown };

interface Node {
  to(value: unknown, path: string): unknown;
  from(value: unknown): unknown;
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const identity: Node = { to: (value) => value, from: (value) => value };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

function fullNameOf(name: string, namespace: string | undefined): string {
  return name.includes('.') || !namespace ? name : `${namespace}.${name}`;
}

/** Compiles the converter of one schema (a parsed .avsc object). */
export function avroShape(schema: object): AvroShape {
  // Named types (records, enums, fixed) by full name, filled as they are compiled; references are
  // resolved lazily so a type may refer to itself.
  const named = new Map<string, Node>();

  function compile(s: Schema, namespace: string | undefined): Node {
    if (typeof s === 'string') {
      if (PRIMITIVES.has(s)) return identity;
      const name = fullNameOf(s, namespace);
      return {
        to: (value, path) => resolveNamed(name, s).to(value, path),
        from: (value) => resolveNamed(name, s).from(value),
      };
    }
    if (Array.isArray(s)) return compileUnion(s, namespace);
    const type = s.type as Schema;
    if (typeof type !== 'string') return compile(type, namespace); // {"type": {...}} or {"type": [...]}
    switch (type) {
      case 'record':
      case 'error':
        return compileRecord(s, namespace);
      case 'enum':
      case 'fixed': {
        const ns = typeof s.namespace === 'string' ? s.namespace : namespace;
        named.set(fullNameOf(String(s.name), ns), identity);
        return identity;
      }
      case 'array': {
        const items = compile(s.items as Schema, namespace);
        return {
          to: (value, path) => (Array.isArray(value) ? value.map((v, i) => items.to(v, `${path}[${i}]`)) : value),
          from: (value) => (Array.isArray(value) ? value.map((v) => items.from(v)) : value),
        };
      }
      case 'map': {
        const values = compile(s.values as Schema, namespace);
        return {
          to: (value, path) =>
            isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, values.to(v, `${path}.${k}`)])) : value,
          from: (value) => (isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, values.from(v)])) : value),
        };
      }
      case 'string':
        return s.logicalType === 'json' ? jsonString : identity;
      default:
        if (PRIMITIVES.has(type)) return identity;
        return compile(type, namespace); // {"type": "SomeNamedType"}
    }
  }

  function resolveNamed(name: string, as: string): Node {
    const node = named.get(name);
    if (!node) throw new AvroShapeError(`unknown type ${as} (${name})`);
    return node;
  }

  function compileUnion(branches: Schema[], namespace: string | undefined): Node {
    const others = branches.filter((b) => b !== 'null');
    if (others.length !== 1 || branches.length > 2) {
      throw new AvroShapeError(`only ["null", T] unions are supported, got ${JSON.stringify(branches)}`);
    }
    const inner = compile(others[0]!, namespace);
    const nullable = branches.length === 2;
    return {
      to: (value, path) => (nullable && (value === undefined || value === null) ? null : inner.to(value, path)),
      from: (value) => (nullable && value === null ? undefined : inner.from(value)),
    };
  }

  function compileRecord(s: { [key: string]: unknown }, enclosing: string | undefined): Node {
    const name = String(s.name);
    const namespace = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : typeof s.namespace === 'string' ? s.namespace : enclosing;
    const fullName = fullNameOf(name, namespace);
    const fields: { name: string; node: Node }[] = [];
    const known = new Set<string>();
    const node: Node = {
      to(value, path) {
        if (!isPlainObject(value)) return value;
        for (const key of Object.keys(value)) {
          if (!known.has(key) && value[key] !== undefined) {
            throw new AvroShapeError(`${path ? `${path}.` : ''}${key} is not a field of ${fullName}`);
          }
        }
        const out: Record<string, unknown> = {};
        for (const field of fields) out[field.name] = field.node.to(value[field.name], path ? `${path}.${field.name}` : field.name);
        return out;
      },
      from(value) {
        if (!isPlainObject(value)) return value;
        const out: Record<string, unknown> = {};
        for (const field of fields) {
          const converted = field.node.from(value[field.name]);
          if (converted !== undefined) out[field.name] = converted;
        }
        return out;
      },
    };
    named.set(fullName, node); // before the fields: they may refer to this record
    for (const field of (s.fields as { name: string; type: Schema }[]) ?? []) {
      known.add(field.name);
      fields.push({ name: field.name, node: compile(field.type, namespace) });
    }
    return node;
  }

  const root = compile(schema as Schema, undefined);
  return { toAvro: (value) => root.to(value, ''), fromAvro: (value) => root.from(value) };
}

/** A free-form value carried as JSON text. */
const jsonString: Node = {
  to: (value) => (value === undefined ? value : JSON.stringify(value)),
  from: (value) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value),
};
