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
 *
 * Embedded default (in-process bus): dead letters are rows of the dead_letters table
 * (src/infrastructure/bus/dead-letter-table.ts); ids are row numbers. `list` reads the table;
 * `replay` marks rows replay_requested_at and the serving process, which owns the bus, republishes
 * them within a few seconds (it sets replayed_at). `--all` there requests every matching dead letter
 * that was never replayed. --idle-ms and --dead-letter-topic only apply to the topic.
 */
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { BusMessage, ConsumedMessage, MessageBus } from '../infrastructure/bus/port';
import { DEAD_LETTER_TOPIC, DLQ_HEADERS, replayedMessage } from '../infrastructure/bus/dead-letter';
import { systemClock, systemTimer, type Clock, type Timer } from '../shared/clock';
import type { DeadLetterOrigin, PgDeadLetterTable, StoredDeadLetter } from '../infrastructure/bus/dead-letter-table';

export interface DeadLetter extends DeadLetterOrigin {
  /** `<partition>:<offset>` in the dead-letter topic: what replay takes. */
  id: string;
  error: string;
  deadLetteredAt: string;
  bytes: number;
  schema: string | undefined;
  messageId: string | undefined;
  message: ConsumedMessage;
  /** Table only (embedded default): how often it was replayed, when last, and an open request. */
  replayCount?: number;
  replayedAt?: string | null;
  replayRequestedAt?: string | null;
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
  options: { deadLetterTopic?: string; idleMs?: number; filter?: DeadLetterFilter; timer?: Timer } = {},
): Promise<DeadLetter[]> {
  const timer = options.timer ?? systemTimer;
  const letters: DeadLetter[] = [];
  let last = timer.nowMs();
  const consumer = await bus.subscribe(
    {
      groupId: `svc-deadletters-cli-${randomUUID()}`,
      topics: [options.deadLetterTopic ?? DEAD_LETTER_TOPIC],
      fromBeginning: true,
      // The reader itself must never dead-letter.
      retry: { maxAttempts: Number.POSITIVE_INFINITY },
    },
    async (message) => {
      last = timer.nowMs();
      letters.push(toDeadLetter(message));
    },
  );
  try {
    const idleMs = options.idleMs ?? 2_000;
    while (timer.nowMs() - last < idleMs) await new Promise((resolve) => setTimeout(resolve, Math.min(100, idleMs)));
  } finally {
    await consumer.stop();
  }
  return letters.filter((l) => matches(l, options.filter ?? {})).sort((a, b) => a.deadLetteredAt.localeCompare(b.deadLetteredAt));
}

/** A row of the dead_letters table in the shape `list` prints (id: the row number). */
export function fromTable(row: StoredDeadLetter): DeadLetter {
  const letter = toDeadLetter({ topic: 'dead_letters', partition: 0, offset: row.id, key: row.key, value: row.value, headers: row.headers });
  return {
    ...letter,
    id: row.id,
    originalTopic: row.originalTopic,
    originalPartition: row.originalPartition,
    originalOffset: row.originalOffset,
    key: row.key,
    group: row.group,
    attempts: row.attempts,
    error: row.error,
    deadLetteredAt: row.deadLetteredAt.toISOString(),
    replayCount: row.replayCount,
    replayedAt: row.replayedAt?.toISOString() ?? null,
    replayRequestedAt: row.replayRequestedAt?.toISOString() ?? null,
  };
}

/** The message as it was on its original topic, marked as replayed. */
export function replayMessage(letter: DeadLetter): BusMessage {
  return replayedMessage({ key: letter.key, value: letter.message.value, headers: letter.message.headers });
}

/** Republishes dead letters to their original topics, in the order given. */
export async function replayDeadLetters(bus: MessageBus, letters: DeadLetter[]): Promise<number> {
  for (const letter of letters) {
    if (!letter.originalTopic) throw new Error(`dead letter ${letter.id} has no ${DLQ_HEADERS.topic} header`);
    await bus.publish(letter.originalTopic, [replayMessage(letter)]);
  }
  return letters.length;
}

/** Where dead letters are: the dead-letter topic (Kafka, scaled mode) or the dead_letters table (embedded default). */
export type DeadLetterSource =
  | { kind: 'topic'; bus: MessageBus; stop(): Promise<void> }
  | { kind: 'table'; table: PgDeadLetterTable; stop(): Promise<void> };

export interface DeadLetterCommandDeps {
  /** Opens the dead letters of this deployment's mode (main.ts: KAFKA_BROKERS set or not). */
  open(): Promise<DeadLetterSource>;
  stdout?: Writable;
  /** The time a replay request records (default the system clock). */
  clock?: Clock;
  /** How long the topic reader has been idle (default the monotonic system timer). */
  timer?: Timer;
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

function replayState(l: DeadLetter): string {
  const parts: string[] = [];
  if (l.replayCount) parts.push(`replayed=${l.replayCount}`);
  if (l.replayRequestedAt) parts.push('replay requested');
  return parts.length ? `  ${parts.join('  ')}` : '';
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
      const env = await deps.open();
      try {
        const letters =
          env.kind === 'table'
            ? (await env.table.list(filterOf(opts))).map(fromTable)
            : await readDeadLetters(env.bus, { deadLetterTopic: opts.deadLetterTopic, idleMs, filter: filterOf(opts), ...(deps.timer ? { timer: deps.timer } : {}) });
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
              `attempts=${l.attempts}  ${l.bytes} bytes${l.schema ? ` ${l.schema}` : ''}${replayState(l)}\n    error: ${l.error}\n`,
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
      for (const id of ids) if (!/^\d+(:\d+)?$/.test(id)) throw new Error(`not a dead-letter id (<partition>:<offset>, or a row number in the embedded default): ${id}`);
      if (ids.length === 0 && !opts.all) throw new Error('name dead letters to replay (ids from `svc deadletters list`) or pass --all');
      if (ids.length > 0 && opts.all) throw new Error('pass either ids or --all, not both');
      const out = deps.stdout ?? process.stdout;
      const env = await deps.open();
      try {
        if (env.kind === 'table') {
          for (const id of ids) if (!/^\d{1,18}$/.test(id)) throw new Error(`not a dead-letter id (a row number from \`svc deadletters list\`): ${id}`);
          const at = (deps.clock ?? systemClock).now();
          const chosen = ids.length > 0 ? await env.table.requestReplay(ids, at) : await env.table.requestReplayAll(filterOf(opts), at);
          for (const l of chosen) out.write(`replay requested for ${l.id} to ${l.originalTopic} (key ${l.key})\n`);
          out.write(
            `${chosen.length} dead letter(s) queued for replay: the running service republishes them within a few seconds ` +
              '(`svc deadletters list` shows replayed=N once it has)\n',
          );
          return;
        }
        for (const id of ids) if (!/^\d+:\d+$/.test(id)) throw new Error(`not a dead-letter id (<partition>:<offset>): ${id}`);
        const letters = await readDeadLetters(env.bus, { deadLetterTopic: opts.deadLetterTopic, idleMs, filter: filterOf(opts), ...(deps.timer ? { timer: deps.timer } : {}) });
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
