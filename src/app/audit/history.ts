/**
 * The auditor's read of the immutable history: every event of one stream, in order, with who did it
 * (actor), why (causation/correlation) and its hash chain, verified as it is read. Generic by stream,
 * so one endpoint serves screenings, person checks, subject checks, accounts and keys.
 *
 * Only principals with the `auditor` role may read it (how a surface grants that role is the
 * surface's business: see docs/monitoring-and-audit.md), and only streams of their own account.
 */
import { Forbidden, NotFound } from '../../commands/errors';
import { verifyHashChain } from '../../infrastructure/eventstore/hashChain';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { RecordedEvent } from '../../shared/events';
import type { Principal } from '../services';

export interface AuditEventView {
  stream: string;
  position: number;
  global_position: string;
  event_id: string;
  type: string;
  occurred_at: string;
  recorded_at: string;
  actor: Record<string, unknown> | null;
  causation_id: string | null;
  correlation_id: string | null;
  data: Record<string, unknown>;
  previous_hash: string | null;
  hash: string | null;
}

export interface StreamHistory {
  stream: string;
  events: AuditEventView[];
  chain: { ok: boolean; head_hash: string | null; broken_at: number | null; reason: string | null };
}

export const AUDITOR_ROLE = 'auditor';
const STREAM_NAME = /^[a-z][a-z0-9-]{0,80}-[A-Za-z0-9_.:-]{1,120}$/;

/** The account a stream belongs to: from its name for account streams, else from its first event. */
export function streamOwner(streamName: string, events: readonly RecordedEvent[]): string | undefined {
  const byName = /^(?:account|account-keys)-([1-9][0-9]*)$/.exec(streamName) ?? /^webhook-endpoint-[a-z0-9]+-([1-9][0-9]*)$/.exec(streamName);
  if (byName) return byName[1];
  const first = events[0]?.data as { accountId?: unknown } | undefined;
  return typeof first?.accountId === 'string' || typeof first?.accountId === 'number' ? String(first.accountId) : undefined;
}

export function toAuditEvent(e: RecordedEvent): AuditEventView {
  return {
    stream: e.streamName,
    position: Number(e.streamPosition),
    global_position: e.globalPosition.toString(),
    event_id: e.metadata.eventId,
    type: e.type,
    occurred_at: e.metadata.occurredAt,
    recorded_at: e.recordedAt,
    actor: (e.metadata.actor as unknown as Record<string, unknown>) ?? null,
    causation_id: e.metadata.causationId ?? null,
    correlation_id: e.metadata.correlationId ?? null,
    data: e.data as Record<string, unknown>,
    previous_hash: e.metadata.previousHash ?? null,
    hash: e.metadata.hash ?? null,
  };
}

export class AuditTrailService {
  constructor(private readonly deps: { store: Pick<EventStore, 'readStream'> }) {}

  async history(principal: Principal, streamName: string): Promise<StreamHistory> {
    if (!principal.roles.includes(AUDITOR_ROLE)) throw new Forbidden('the event history is readable by auditors only');
    if (!STREAM_NAME.test(streamName)) throw new NotFound('stream', streamName);
    const events = await this.deps.store.readStream(streamName);
    if (events.length === 0 || streamOwner(streamName, events) !== principal.accountId) throw new NotFound('stream', streamName);
    const chain = verifyHashChain(events);
    return {
      stream: streamName,
      events: events.map(toAuditEvent),
      chain: chain.ok
        ? { ok: true, head_hash: chain.lastHash, broken_at: null, reason: null }
        : { ok: false, head_hash: null, broken_at: chain.index, reason: chain.reason },
    };
  }
}
