/**
 * Where schemas live on disk:
 *   schemas/<area>/<Name>.avsc                    current version of a message type (one per type)
 *   schemas/history/<full.name>/v<N>.avsc          earlier versions, v1 oldest; current is v<N+1>
 *   schemas/topics.json                            topic catalogue (docs/topics.md is generated from it)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const defaultSchemasDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'schemas');

export interface SchemaFile {
  /** Namespace-qualified name, e.g. com.svc.events.EventEnvelope. */
  fullName: string;
  /** 1 = oldest. */
  version: number;
  current: boolean;
  /** Path relative to the schemas directory. */
  path: string;
  /** The parsed JSON schema. */
  schema: Record<string, unknown>;
}

export function fullNameOf(schema: Record<string, unknown>, file: string): string {
  const name = schema.name;
  if (schema.type !== 'record' || typeof name !== 'string') throw new Error(`${file}: a topic schema must be a named record`);
  if (name.includes('.')) return name;
  if (typeof schema.namespace !== 'string' || !schema.namespace) throw new Error(`${file}: schema ${name} needs a namespace`);
  return `${schema.namespace}.${name}`;
}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${file}: not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function walk(dir: string, skip: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== skip) files.push(...walk(path, skip));
    } else if (entry.name.endsWith('.avsc')) files.push(path);
  }
  return files.sort();
}

/** Every schema file, current and historical, checked for naming consistency. */
export function readSchemaFiles(dir: string = defaultSchemasDir): SchemaFile[] {
  const historyDir = join(dir, 'history');
  const currents = walk(dir, historyDir).map((file) => {
    const schema = readJson(file);
    return { file, schema, fullName: fullNameOf(schema, file) };
  });
  const seen = new Map<string, string>();
  for (const c of currents) {
    const other = seen.get(c.fullName);
    if (other) throw new Error(`${c.fullName} is defined twice: ${other} and ${c.file}`);
    seen.set(c.fullName, c.file);
  }
  const result: SchemaFile[] = [];
  for (const c of currents) {
    const versionsDir = join(historyDir, c.fullName);
    const history = existsSync(versionsDir)
      ? readdirSync(versionsDir)
          .map((name) => ({ name, match: /^v(\d+)\.avsc$/.exec(name) }))
          .filter((v) => v.match)
          .map((v) => ({ version: Number(v.match![1]), file: join(versionsDir, v.name) }))
          .sort((a, b) => a.version - b.version)
      : [];
    history.forEach((h, index) => {
      if (h.version !== index + 1) throw new Error(`${versionsDir}: versions must be v1..vN without gaps`);
      const schema = readJson(h.file);
      const name = fullNameOf(schema, h.file);
      if (name !== c.fullName) throw new Error(`${h.file} defines ${name}, expected ${c.fullName}`);
      result.push({ fullName: name, version: h.version, current: false, path: relative(dir, h.file), schema });
    });
    result.push({ fullName: c.fullName, version: history.length + 1, current: true, path: relative(dir, c.file), schema: c.schema });
  }
  if (existsSync(historyDir)) {
    for (const entry of readdirSync(historyDir, { withFileTypes: true })) {
      if (entry.isDirectory() && !seen.has(entry.name)) throw new Error(`schemas/history/${entry.name} has no current schema`);
    }
  }
  return result;
}
