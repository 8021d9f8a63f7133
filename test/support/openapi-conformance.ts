/**
 * Checks real HTTP answers against the served OpenAPI 3.0 document: finds the operation of a method
 * and concrete path, and checks a JSON value against a response schema. The checker covers the
 * subset the zod-to-openapi generator emits (type, nullable, enum, properties, required,
 * additionalProperties, items, $ref, allOf/anyOf/oneOf, minimum/maximum, minLength/maxLength); it
 * reports every mismatch with its JSON path so a failing test says what drifted. Stricter than JSON
 * Schema on purpose: a field in an answer that an object schema with `properties` does not name is
 * reported too (the document must describe what is sent).
 */
type Json = Record<string, any>;

/** The documented operation for `method path` (concrete paths win over templated ones), or undefined. */
export function operationFor(document: Json, method: string, path: string): { template: string; operation: Json } | undefined {
  const candidates: { template: string; operation: Json; params: number }[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    const operation = item[method.toLowerCase()];
    if (!operation) continue;
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) candidates.push({ template, operation, params: (template.match(/\{/g) ?? []).length });
  }
  candidates.sort((a, b) => a.params - b.params);
  return candidates[0];
}

function resolve(document: Json, schema: Json): Json {
  let current = schema;
  for (let i = 0; current?.$ref && i < 20; i++) {
    const parts = String(current.$ref).replace(/^#\//, '').split('/');
    current = parts.reduce<Json>((node, part) => node?.[part], document);
  }
  return current;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Mismatches of `value` against `schema` ([] when it conforms). */
export function checkSchema(document: Json, schema: Json | undefined, value: unknown, at = '$'): string[] {
  if (!schema) return [];
  const s = resolve(document, schema);
  if (!s || Object.keys(s).length === 0) return [];
  if (value === null) return s.nullable === true || s.type === undefined && !s.allOf && !s.anyOf && !s.oneOf ? [] : [`${at}: null but not nullable`];
  const problems: string[] = [];
  if (s.allOf) for (const part of s.allOf) problems.push(...checkSchema(document, part, value, at));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!s[key]) continue;
    const results = (s[key] as Json[]).map((part) => checkSchema(document, part, value, at));
    if (!results.some((r) => r.length === 0)) problems.push(`${at}: matches none of ${key}: ${results.map((r) => r.join('; ')).join(' | ')}`);
  }
  if (s.type) {
    const actual = typeOf(value);
    const fits = actual === s.type || (s.type === 'number' && actual === 'integer');
    if (!fits) return [...problems, `${at}: ${actual} where ${s.type} is documented`];
  }
  if (s.enum && !s.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(s.enum)}`);
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) problems.push(`${at}: ${value} < minimum ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) problems.push(`${at}: ${value} > maximum ${s.maximum}`);
  }
  if (typeof value === 'string') {
    if (s.minLength !== undefined && value.length < s.minLength) problems.push(`${at}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && value.length > s.maxLength) problems.push(`${at}: longer than ${s.maxLength}`);
  }
  if (Array.isArray(value) && s.items) value.forEach((item, i) => problems.push(...checkSchema(document, s.items, item, `${at}[${i}]`)));
  if (typeOf(value) === 'object') {
    const object = value as Json;
    for (const name of s.required ?? []) if (!(name in object)) problems.push(`${at}.${name}: required but missing`);
    for (const [name, child] of Object.entries(object)) {
      const documented = s.properties?.[name];
      if (documented) problems.push(...checkSchema(document, documented, child, `${at}.${name}`));
      else if (s.additionalProperties && typeof s.additionalProperties === 'object') problems.push(...checkSchema(document, s.additionalProperties, child, `${at}.${name}`));
      // An answer field the document does not name is drift, unless the schema is an open map.
      else if (s.properties && s.additionalProperties !== true) problems.push(`${at}.${name}: not documented`);
    }
  }
  return problems;
}
