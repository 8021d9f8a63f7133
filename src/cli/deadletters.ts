/**
 * `svc deadletters list|replay`: what bus consumers gave up on (svc.deadletter, see
 * src/infrastructure/bus/dead-letter.ts and docs/operations.md), and putting it back.
 *
 *   svc deadletters list [--group G] [--topic T] [--json]
 *   svc deadletters replay <partition:offset...> | --all [--group G] [--topic T]
 *
 * The dead-letter topic is read through a throwaway consumer group (svc-deadletters-cli-<uuid>)
 * from the beginning until it has been idle for --idle-ms. Replay publishes the original key, value
 * and headers (without the x-dlq-* ones, with x-dlq-replayed) to the original topic: every group of
 * that topic sees it again, and the ones that had handled it skip it through the inbox (same
 * x-message-id). A dead letter stays on the DLQ after a replay; a replayed message that fails again
 * comes back as a new dead letter.
 */
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { BusMessage, ConsumedMessage, MessageBus } from '../infrastructure/bus/port';
import { DEAD_LETTER_TOPIC, DLQ_HEADERS, DLQ_REPLAY_HEADER } from '../infrastructure/bus/dead-letter';

export interface DeadLetter {
  /** `<partition>:<offset>` in the dead-letter topic: what replay takes. */
  id: string;
  originalTopic: string;
  originalPartition: number;
  originalOffset: string;
  key: string;
  group: string;
  attempts: number;
  error: string;
  deadLetteredAt: string;
  bytes: number;
  schema: string | undefined;
  messageId: string | undefined;
  message: ConsumedMessage;
}

export interface DeadLetterFilter {
  group?: string;
  topic?: string;
}

export function toDeadLetter(message: ConsumedMessage): DeadLetter {
  const h = message.headers;
  return {
    id: `${message.partition}:${message.offset}`,
    originalTopic: h[DLQ_HEADERS.topic] ?? '',
    originalPartition: Number(h[DLQ_HEADERS.partition] ?? -1),
    originalOffset: h[DLQ_HEADERS.offset] ?? '',
    key: h[DLQ_HEADERS.key] ?? message.key,
    group: h[DLQ_HEADERS.group] ?? '',
    attempts: Number(h[DLQ_HEADERS.attempts] ?? 0),
    error: h[DLQ_HEADERS.error] ?? '',
    deadLetteredAt: h[DLQ_HEADERS.at] ?? '',
    bytes: message.value.length,
    schema: h['x-schema-name'],
    messageId: h['x-message-id'],
    message,
  };
}

const matches = (letter: DeadLetter, filter: DeadLetterFilter) =>
  (filter.group === undefined || letter.group === filter.group) && (filter.topic === undefined || letter.originalTopic === filter.topic);

/**
 * Every dead letter on the topic (oldest first per partition), read by a fresh consumer group until
 * no message arrived for idleMs.
 */
export async function readDeadLetters(
  bus: MessageBus,
  options: { deadLetterTopic?: string; idleMs?: number; filter?: DeadLetterFilter } = {},
): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = [];
  let last = Date.now();
  const consumer = await bus.subscribe(
    {
      groupId: `svc-deadletters-cli-${randomUUID()}`,
      topics: [options.deadLetterTopic ?? DEAD_LETTER_TOPIC],
      fromBeginning: true,
      // The reader itself must never dead-letter.
      retry: { maxAttempts: Number.POSITIVE_INFINITY },
    },
    async (message) => {
      last = Date.now();
      letters.push(toDeadLetter(message));
    },
  );
  try {
    const idleMs = options.idleMs ?? 2_000;
    while (Date.now() - last < idleMs) await new Promise((resolve) => setTimeout(resolve, Math.min(100, idleMs)));
  } finally {
    await consumer.stop();
  }
  return letters.filter((l) => matches(l, options.filter ?? {})).sort((a, b) => a.deadLetteredAt.localeCompare(b.deadLetteredAt));
}

/** The message as it was on its original topic, marked as replayed. */
export function replayMessage(letter: DeadLetter): BusMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(letter.message.headers)) {
    if (!name.startsWith('x-dlq-')) headers[name] = value;
  }
  headers[DLQ_REPLAY_HEADER] = String(Number(letter.message.headers[DLQ_REPLAY_HEADER] ?? 0) + 1);
  return { key: letter.key, value: letter.message.value, headers };
}

/** Republishes dead letters to their original topics, in the order given. */
export async function replayDeadLetters(bus: MessageBus, letters: DeadLetter[]): Promise<number> {
  for (const letter of letters) {
    if (!letter.originalTopic) throw new Error(`dead letter ${letter.id} has no ${DLQ_HEADERS.topic} header`);
    await bus.publish(letter.originalTopic, [replayMessage(letter)]);
  }
  return letters.length;
}

export interface DeadLetterCommandDeps {
  /** A bus client for the CLI (Kafka in scaled mode); throws with an explanation otherwise. */
  openBus(): Promise<{ bus: MessageBus; stop(): Promise<void> }>;
  stdout?: Writable;
}

interface CommonOptions {
  group?: string;
  topic?: string;
  idleMs: string;
  deadLetterTopic: string;
}

function idle(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 600_000) throw new Error('--idle-ms must be an integer between 100 and 600000');
  return n;
}

function filterOf(opts: CommonOptions): DeadLetterFilter {
  return { ...(opts.group ? { group: opts.group } : {}), ...(opts.topic ? { topic: opts.topic } : {}) };
}

export function registerDeadLetterCommands(program: Command, deps: DeadLetterCommandDeps): Command {
  const command = program.command('deadletters').description('messages bus consumers gave up on (svc.deadletter): list and replay');
  const common = (c: Command) =>
    c
      .option('--group <group>', 'only dead letters of this consumer group')
      .option('--topic <topic>', 'only dead letters from this original topic')
      .option('--idle-ms <ms>', 'stop reading the dead-letter topic after this long without a message', '2000')
      .option('--dead-letter-topic <topic>', 'the dead-letter topic', DEAD_LETTER_TOPIC);

  common(command.command('list').description('print the dead letters, oldest first'))
    .option('--json', 'print JSON (one object per dead letter, value in base64)')
    .action(async (opts: CommonOptions & { json?: boolean }) => {
      const idleMs = idle(opts.idleMs);
      const out = deps.stdout ?? process.stdout;
      const env = await deps.openBus();
      try {
        const letters = await readDeadLetters(env.bus, { deadLetterTopic: opts.deadLetterTopic, idleMs, filter: filterOf(opts) });
        if (opts.json) {
          const rows = letters.map(({ message, ...rest }) => ({ ...rest, value: message.value.toString('base64') }));
          out.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        if (letters.length === 0) {
          out.write('no dead letters\n');
          return;
        }
        for (const l of letters) {
          out.write(
            `${l.id}  ${l.deadLetteredAt}  ${l.group}  ${l.originalTopic}[${l.originalPartition}]@${l.originalOffset}  key=${l.key}  ` +
              `attempts=${l.attempts}  ${l.bytes} bytes${l.schema ? ` ${l.schema}` : ''}\n    error: ${l.error}\n`,
          );
        }
        out.write(`${letters.length} dead letter(s)\n`);
      } finally {
        await env.stop();
      }
    });

  common(command.command('replay [ids...]').description('republish dead letters (ids as <partition>:<offset> from list) to their original topics'))
    .option('--all', 'replay every dead letter that matches --group/--topic')
    .action(async (ids: string[], opts: CommonOptions & { all?: boolean }) => {
      const idleMs = idle(opts.idleMs);
      for (const id of ids) if (!/^\d+:\d+$/.test(id)) throw new Error(`not a dead-letter id (<partition>:<offset>): ${id}`);
      if (ids.length === 0 && !opts.all) throw new Error('name dead letters to replay (ids from `svc deadletters list`) or pass --all');
      if (ids.length > 0 && opts.all) throw new Error('pass either ids or --all, not both');
      const out = deps.stdout ?? process.stdout;
      const env = await deps.openBus();
      try {
        const letters = await readDeadLetters(env.bus, { deadLetterTopic: opts.deadLetterTopic, idleMs, filter: filterOf(opts) });
        let chosen = letters;
        if (ids.length > 0) {
          const byId = new Map(letters.map((l) => [l.id, l]));
          const missing = ids.filter((id) => !byId.has(id));
          if (missing.length > 0) throw new Error(`no such dead letter: ${missing.join(', ')}`);
          chosen = ids.map((id) => byId.get(id)!);
        }
        const count = await replayDeadLetters(env.bus, chosen);
        for (const l of chosen) out.write(`replayed ${l.id} to ${l.originalTopic} (key ${l.key})\n`);
        out.write(`${count} dead letter(s) replayed\n`);
      } finally {
        await env.stop();
      }
    });
  return command;
}
