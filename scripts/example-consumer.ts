/**
 * Example consumer: reads one topic from KAFKA_BROKERS and prints every message decoded with the
 * published schemas (schemas/), one JSON line per message.
 *
 *   KAFKA_BROKERS=localhost:9092 npx tsx scripts/example-consumer.ts --topic svc.events.screening \
 *     [--group example-consumer] [--from-beginning] [--max 10]
 *
 * What a consumer of our topics does: find the writer schema by the x-schema-fingerprint header,
 * resolve it to the reader schema (so older messages still decode), decode an event envelope's
 * dataAvro with its typed schema (dataSchema/dataFingerprint) when present, printed as
 * `typedData`, and commit the offset only after the message was handled (autoCommit: false).
 * A real consumer would also deduplicate on x-message-id (see src/infrastructure/inbox).
 */
import { Kafka, logLevel } from 'kafkajs';
import { decodeTopicMessage } from '../src/infrastructure/bus/avro/event-data';
import { AvroRegistry } from '../src/infrastructure/bus/avro/registry';

interface Args {
  topic: string;
  group: string;
  fromBeginning: boolean;
  max: number | undefined;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { topic: '', group: 'example-consumer', fromBeginning: false, max: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--topic') args.topic = argv[++i] ?? '';
    else if (a === '--group') args.group = argv[++i] ?? '';
    else if (a === '--from-beginning') args.fromBeginning = true;
    else if (a === '--max') args.max = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!args.topic) throw new Error('--topic is required');
  if (args.max !== undefined && !(args.max > 0)) throw new Error('--max must be a positive number');
  return args;
}

/** bigints as decimal strings, bytes (dataAvro) as base64. */
const json = (value: unknown) =>
  JSON.stringify(value, function (this: Record<string, unknown>, key, v) {
    const raw = this[key];
    if (Buffer.isBuffer(raw)) return raw.toString('base64');
    return typeof v === 'bigint' ? v.toString() : v;
  });

async function main(): Promise<void> {
  const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
  if (!brokers?.length) throw new Error('KAFKA_BROKERS is not set (comma-separated host:port list)');
  const args = parseArgs(process.argv.slice(2));
  const registry = AvroRegistry.load();
  const kafka = new Kafka({ clientId: 'example-consumer', brokers, logLevel: logLevel.ERROR });
  const consumer = kafka.consumer({
    groupId: args.group,
    sessionTimeout: Number(process.env.KAFKA_SESSION_TIMEOUT_MS ?? 10_000),
    heartbeatInterval: 500,
  });
  let seen = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const shutdown = () => finish();
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await consumer.connect();
  await consumer.subscribe({ topics: [args.topic], fromBeginning: args.fromBeginning });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic, partition, message }) => {
      if (args.max !== undefined && seen >= args.max) return;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.headers ?? {})) {
        if (value !== undefined) headers[name] = String(Array.isArray(value) ? value[value.length - 1] : value);
      }
      let decoded;
      try {
        decoded = decodeTopicMessage(registry, { value: message.value ?? Buffer.alloc(0), headers });
      } catch (error) {
        throw new Error(`message at ${topic}/${partition}@${message.offset}: ${(error as Error).message}`, { cause: error });
      }
      const { schema, value, typedData } = decoded;
      const line = { topic, partition, offset: message.offset, key: message.key?.toString() ?? null, schema, headers, value, ...(typedData ? { typedData } : {}) };
      process.stdout.write(`${json(line)}\n`);
      await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
      seen++;
      if (args.max !== undefined && seen >= args.max) finish();
    },
  });
  await finished;
  await consumer.disconnect();
}

main().catch((error: unknown) => {
  console.error(`example-consumer: ${(error as Error).message}`);
  process.exit(1);
});
