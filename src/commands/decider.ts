import type { Actor, Event, EventIdempotency, EventMetadata } from '../shared/events';

/** Metadata every command carries: time, who, and ids for idempotency and tracing. */
export interface CommandMetadata {
  /** The handler's clock reading, ISO 8601 UTC. Deciders never read the clock themselves. */
  now: string;
  actor: Actor;
  /** Unique per command; events derive their ids from it, so a retried command appends nothing new. */
  commandId: string;
  correlationId?: string;
  /** A create sent with an Idempotency-Key: recorded on every event it appends (and its commandId derives from the key). */
  idempotency?: EventIdempotency;
}

export interface Command<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
  metadata: CommandMetadata;
}

/** The Emmett decider triple: pure, no I/O, no clock, no random ids. */
export interface Decider<C extends Command, E extends Event, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

/** Folds a stream's events into state. */
export function foldEvents<C extends Command, E extends Event, S>(decider: Decider<C, E, S>, events: readonly E[]): S {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}

type Bare<E extends Event> = E extends Event ? { type: E['type']; data: E['data'] } : never;

/**
 * Stamps metadata on the events a decision produced: ids derived from the command id and the
 * event's index (`${commandId}:${index}`), time from the command, causation = the command.
 */
export function stamp<E extends Event>(command: Command, events: Bare<E>[]): E[] {
  return events.map((event, index) => {
    const metadata: EventMetadata = {
      eventId: `${command.metadata.commandId}:${index}`,
      occurredAt: command.metadata.now,
      causationId: command.metadata.commandId,
      actor: command.metadata.actor,
    };
    if (command.metadata.correlationId !== undefined) metadata.correlationId = command.metadata.correlationId;
    if (command.metadata.idempotency !== undefined) metadata.idempotency = command.metadata.idempotency;
    return { type: event.type, data: event.data, metadata } as E;
  });
}

// ---- small pure validators shared by the deciders ----

export const NUMERIC_ID = /^[1-9][0-9]{0,18}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const SHA256_HEX = /^[0-9a-f]{64}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function isIsoInstant(value: unknown): value is string {
  return typeof value === 'string' && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

/** A real calendar date YYYY-MM-DD (rejects 2023-02-30). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function isNonEmptyText(value: unknown, max = 500): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= max;
}

/** HTTPS URL syntax only; SSRF checks (DNS, private ranges) belong to the handler, which does I/O. */
export function isHttpsUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export function addHours(iso: string, hours: number): string {
  return new Date(Date.parse(iso) + hours * 3_600_000).toISOString();
}

export function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** One agent's answer in a pipeline phase: the fields a RecordAgentResult command carries and its event records. */
export type AgentAnswer<Phase> = {
  phase: Phase;
  agent: string;
  queried: boolean;
  error?: string;
  result: Record<string, unknown>;
  startedAt: string;
  finishedAt: string;
};

/** An answer's fields as its AgentResultRecorded-style event records them (`error` only when there is one). */
export function recordedAnswer<Phase>(d: AgentAnswer<Phase>): AgentAnswer<Phase> {
  return {
    phase: d.phase,
    agent: d.agent,
    queried: d.queried,
    ...(d.error !== undefined ? { error: d.error } : {}),
    result: d.result,
    startedAt: d.startedAt,
    finishedAt: d.finishedAt,
  };
}
