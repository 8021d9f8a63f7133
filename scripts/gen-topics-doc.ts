/**
 * Generates docs/topics.md from schemas/ (topics.json + every .avsc) and the domain's event
 * catalogue (src/commands): each topic, its key, its schema with fields, fingerprint and versions,
 * the concrete svc.events.<category> topics with the typed data schema of every event type they
 * carry, and the compatibility rule.
 *   npx tsx scripts/gen-topics-doc.ts            write docs/topics.md
 *   npx tsx scripts/gen-topics-doc.ts --check    fail if docs/topics.md is out of date
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventTypesByAggregate, streamPrefixes } from '../src/commands';
import { eventDataSchemaFor, eventDataSchemaIndex } from '../src/infrastructure/bus/avro/event-data';
import { EVENT_ENVELOPE } from '../src/infrastructure/bus/avro/messages';
import { AvroRegistry } from '../src/infrastructure/bus/avro/registry';
import { defaultSchemasDir } from '../src/infrastructure/bus/avro/schema-files';
import { eventTopicForStream } from '../src/infrastructure/bus/topics';

export interface TopicEntry {
  topic: string;
  example: string;
  /** The value's schema; null for a topic that carries other topics' messages unchanged (the dead-letter topic). */
  schema: string | null;
  key: string;
  producer: string;
  description: string;
  compatibility: string;
}

export function readTopicCatalogue(dir = defaultSchemasDir): TopicEntry[] {
  const catalogue = JSON.parse(readFileSync(join(dir, 'topics.json'), 'utf8')) as { topics: TopicEntry[] };
  return catalogue.topics;
}

export interface EventTopic {
  topic: string;
  aggregates: { aggregate: string; streamPrefix: string; eventTypes: { type: string; dataSchema: string | undefined }[] }[];
}

/** The concrete svc.events.<category> topics: which aggregates' streams land there, with their event types. */
export function eventTopics(registry: AvroRegistry): EventTopic[] {
  const topics = new Map<string, EventTopic>();
  for (const [aggregate, types] of Object.entries(eventTypesByAggregate)) {
    const streamPrefix = streamPrefixes[aggregate as keyof typeof streamPrefixes];
    const topic = eventTopicForStream(`${streamPrefix}1`);
    const entry = topics.get(topic) ?? { topic, aggregates: [] };
    entry.aggregates.push({
      aggregate,
      streamPrefix,
      eventTypes: types.map((type) => ({ type, dataSchema: eventDataSchemaFor(registry, type)?.fullName })),
    });
    topics.set(topic, entry);
  }
  return [...topics.values()].sort((a, b) => a.topic.localeCompare(b.topic));
}

const anchor = (schemaName: string) => `#${schemaName.replace(/\./g, '').toLowerCase()}`;

function typeLabel(type: unknown): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.map(typeLabel).join(' | ');
  if (type && typeof type === 'object') {
    const t = type as { type: string; name?: string; items?: unknown; values?: unknown; logicalType?: string };
    if (t.type === 'record' || t.type === 'enum' || t.type === 'fixed') return t.name ?? t.type;
    if (t.type === 'array') return `array<${typeLabel(t.items)}>`;
    if (t.type === 'map') return `map<${typeLabel(t.values)}>`;
    return t.logicalType ? `${t.type} (${t.logicalType})` : t.type;
  }
  return String(type);
}

/** Markdown-safe text: pipes escaped for tables, angle brackets so placeholders like <id> are not taken for HTML. */
const text = (value: unknown) => String(value ?? '').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cell = (value: unknown) => text(value).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The record nested in a field type (directly, in a union, or as array items / map values), with the path suffix. */
function nestedRecord(type: unknown, suffix = ''): { record: Record<string, unknown>; suffix: string } | undefined {
  if (Array.isArray(type)) {
    for (const branch of type) {
      const found = nestedRecord(branch, suffix);
      if (found) return found;
    }
    return undefined;
  }
  if (!type || typeof type !== 'object') return undefined;
  const t = type as Record<string, unknown>;
  if (t.type === 'record') return { record: t, suffix };
  if (t.type === 'array') return nestedRecord(t.items, `${suffix}[]`);
  if (t.type === 'map') return nestedRecord(t.values, `${suffix}{}`);
  return undefined;
}

function fieldRows(schema: Record<string, unknown>, prefix = ''): string[] {
  const rows: string[] = [];
  for (const field of (schema.fields as Record<string, unknown>[]) ?? []) {
    const def = 'default' in field ? `\`${JSON.stringify(field.default)}\`` : 'required';
    rows.push(`| \`${prefix}${field.name}\` | \`${typeLabel(field.type).replace(/\|/g, '\\|')}\` | ${def} | ${cell(field.doc)} |`);
    const nested = nestedRecord(field.type);
    if (nested) rows.push(...fieldRows(nested.record, `${prefix}${field.name}${nested.suffix}.`));
  }
  return rows;
}

export function renderTopicsDoc(dir = defaultSchemasDir): string {
  const registry = AvroRegistry.load(dir);
  const topics = readTopicCatalogue(dir);
  for (const t of topics) if (t.schema !== null) registry.current(t.schema); // unknown schema names fail here
  const lines: string[] = [
    '# Kafka topics',
    '',
    '<!-- Generated by scripts/gen-topics-doc.ts from schemas/topics.json and schemas/**/*.avsc. Do not edit by hand. -->',
    '',
    'Every message value is Avro binary (no container header). Headers on every message:',
    '',
    '- `x-schema-fingerprint`: SHA-256 (hex) of the writer schema\'s Parsing Canonical Form. Readers look the',
    '  writer schema up by it (current or `schemas/history/<full name>/vN.avsc`) and resolve it to their own.',
    '- `x-schema-name`: the schema\'s full name.',
    '- `x-message-id`: the id consumers deduplicate on (event id, task id) through the inbox table.',
    '',
    'Compatibility is **BACKWARD** for every topic: a reader with the new schema reads data written with any',
    'older one (new fields need defaults). Deploy readers before writers. `test/unit/schemas/compatibility.test.ts`',
    'fails on a change that breaks this, against every historical version and the last committed one.',
    'Before changing a schema, copy the current file to `schemas/history/<full name>/v<N>.avsc`.',
    'The rule covers the typed event-data schemas (`schemas/events/<aggregate>/<EventType>.avsc`) too.',
    '',
    '## Producing and consuming',
    '',
    '- Code uses the `MessageBus` port (`src/infrastructure/bus/port.ts`): kafkajs in scaled mode (`KAFKA_BROKERS`),',
    '  the in-process bus in the embedded default, both passing `test/integration/bus/contract.ts`.',
    '- Encode with `AvroRegistry.message(schemaName, key, value, headers)`, decode with',
    '  `AvroRegistry.decode(schemaName, message)` (`src/infrastructure/bus/avro`). Avro `long` is a JS `bigint`.',
    '- Events reach `svc.events.*` only through the relay (`src/infrastructure/relay`), which follows the event',
    '  store from its checkpoint in `relay_checkpoints` and publishes at least once (the checkpoint is written at',
    '  most every 100 ms, so after a crash up to that much is published again: deduplicate on `x-message-id`).',
    '- Consumers commit an offset only after their handler resolved; a handler that throws gets the message',
    '  again after a backoff, up to `BUS_MAX_ATTEMPTS` failures (default 5; per subscription: `retry.maxAttempts`).',
    '  Then the message goes to `svc.deadletter` and is committed, so its partition moves on. Connection errors',
    '  (database unreachable) never count. `docs/operations.md` describes inspecting and replaying dead letters.',
    '  Handlers with side effects wrap them in `processOnce` / `idempotentHandler`',
    '  (`src/infrastructure/inbox`): the effect and the inbox row commit in one PostgreSQL transaction.',
    '- Producers are not idempotent and Kafka transactions are not used: exactly-once effects come from the inbox.',
    '- Typed event data: `EventEnvelope.data` is JSON; `dataAvro` is the same data in Avro binary written with the',
    '  schema named by `dataSchema` (`com.svc.events.<aggregate>.<EventType>`), version `dataFingerprint`. In this',
    '  code base `decodeEventData(registry, envelope)` returns it (absent optional fields, parsed JSON fields);',
    '  elsewhere, look the writer schema up by `dataFingerprint` among `schemas/events/**` and their history and',
    '  resolve it to your reader version. Fields marked `logicalType: json` hold free-form JSON text (agent',
    '  results, list diffs, declarations). Timestamps are ISO 8601 UTC strings; numeric ids are strings.',
    '  Both are null when the event type has no typed schema, or (a bug, logged by the relay) its data did not fit.',
    '',
    '## Topics',
    '',
    '| Topic | Example | Key | Schema | Compatibility | Producer |',
    '|---|---|---|---|---|---|',
  ];
  for (const t of topics) {
    const schema = t.schema === null ? 'the original message\'s (`x-schema-name` header)' : `[\`${t.schema}\`](${anchor(t.schema)})`;
    lines.push(`| \`${t.topic}\` | \`${t.example}\` | ${cell(t.key)} | ${schema} | ${t.compatibility} | ${cell(t.producer)} |`);
  }
  lines.push('');
  for (const t of topics) {
    lines.push(`### \`${t.topic}\``, '', text(t.description), '');
  }
  const envelopeTopic = topics.find((t) => t.schema === EVENT_ENVELOPE);
  const events = eventTopics(registry);
  const typedSchemas = new Set(eventDataSchemaIndex(registry).values());
  lines.push(
    '## Event topics and typed data schemas',
    '',
    `Every \`svc.events.<category>\` topic carries [\`${EVENT_ENVELOPE}\`](${anchor(EVENT_ENVELOPE)}) messages keyed by`,
    'stream name; the envelope\'s `type` is the event type and `dataAvro` its data written with the typed schema below.',
    `Compatibility: ${envelopeTopic?.compatibility ?? 'BACKWARD'} for the envelope and for every data schema.`,
    'Events of streams outside these categories still reach `svc.events.<their category>`, with JSON `data` only.',
    '',
    '| Topic | Key (stream name) | Aggregate | Event type | Data schema |',
    '|---|---|---|---|---|',
  );
  for (const t of events) {
    for (const a of t.aggregates) {
      for (const e of a.eventTypes) {
        const schema = e.dataSchema ? `[\`${e.dataSchema}\`](${anchor(e.dataSchema)})` : 'none (JSON `data` only)';
        lines.push(`| \`${t.topic}\` | \`${a.streamPrefix}…\` | ${a.aggregate} | ${e.type} | ${schema} |`);
      }
    }
  }
  lines.push('');
  lines.push('## Schemas', '');
  const topicsOf = (name: string): string => {
    const direct = topics.filter((t) => t.schema === name).map((t) => `\`${t.topic}\``);
    if (direct.length > 0) return direct.join(', ');
    if (!typedSchemas.has(name)) return 'none yet';
    const carrying = events.filter((t) => t.aggregates.some((a) => a.eventTypes.some((e) => e.dataSchema === name)));
    return `${carrying.map((t) => `\`${t.topic}\``).join(', ')}, in \`${EVENT_ENVELOPE}.dataAvro\``;
  };
  for (const name of registry.names()) {
    const current = registry.current(name);
    const versions = registry.versions(name);
    lines.push(`### ${name}`, '');
    if (typeof current.schema.doc === 'string') lines.push(text(current.schema.doc), '');
    lines.push(
      `- File: \`schemas/${current.path}\` (version ${current.version}${versions.length > 1 ? `; earlier: ${versions.filter((v) => !v.current).map((v) => `\`schemas/${v.path}\``).join(', ')}` : ''})`,
      `- Fingerprint: \`${current.fingerprint}\``,
      `- Topics: ${topicsOf(name)}`,
      '',
      '| Field | Type | Default | Description |',
      '|---|---|---|---|',
      ...fieldRows(current.schema),
      '',
    );
  }
  return lines.join('\n');
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const out = resolve(defaultSchemasDir, '..', 'docs', 'topics.md');
  const text = renderTopicsDoc();
  if (process.argv.includes('--check')) {
    if (!existsSync(out) || readFileSync(out, 'utf8') !== text) {
      console.error('docs/topics.md is out of date: run npx tsx scripts/gen-topics-doc.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
