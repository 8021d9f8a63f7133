/**
 * TypeScript shapes of the topic messages in schemas/, and the mapping between store events
 * and EventEnvelope. Optional Avro fields are `null` (never undefined) on the wire.
 */
import type { Actor, EventMetadata, RecordedEvent, Surface } from '../../../shared/events';

export const EVENT_ENVELOPE = 'com.svc.events.EventEnvelope';
export const AGENT_TASK = 'com.svc.agents.AgentTask';
export const AGENT_RESULT = 'com.svc.agents.AgentResult';

export interface EnvelopeActor {
  surface: string;
  accountId: string | null;
  keyId: string | null;
  userId: string | null;
}

export interface EventEnvelope {
  eventId: string;
  type: string;
  streamName: string;
  streamPosition: bigint;
  globalPosition: bigint;
  occurredAt: string;
  recordedAt: string;
  correlationId: string | null;
  causationId: string | null;
  actor: EnvelopeActor | null;
  /** JSON object string: the full metadata. */
  metadata: string;
  /** JSON object string: the event's data. */
  data: string;
  /** v2: full name of the typed data schema (com.svc.events.<aggregate>.<type>), null without typed data. */
  dataSchema?: string | null;
  /** v2: fingerprint of the typed schema version dataAvro was written with. */
  dataFingerprint?: string | null;
  /** v2: data in Avro binary with the typed schema (see event-data.ts). */
  dataAvro?: Buffer | null;
}

export interface AgentTask {
  taskId: string;
  screeningId: string;
  subjectKind: string;
  agent: string;
  phase: string;
  /** JSON string. */
  input: string;
  /** ISO 8601 UTC. */
  deadline: string;
  correlationId: string;
}

export interface AgentResult {
  taskId: string;
  agent: string;
  phase: string;
  queried: boolean;
  error: string | null;
  /** JSON string. */
  result: string;
  startedAt: string;
  finishedAt: string;
}

export function toEventEnvelope(event: RecordedEvent): EventEnvelope {
  const m = event.metadata;
  return {
    eventId: m.eventId,
    type: event.type,
    streamName: event.streamName,
    streamPosition: event.streamPosition,
    globalPosition: event.globalPosition,
    occurredAt: m.occurredAt,
    recordedAt: event.recordedAt,
    correlationId: m.correlationId ?? null,
    causationId: m.causationId ?? null,
    actor: m.actor
      ? {
          surface: m.actor.surface,
          accountId: m.actor.accountId ?? null,
          keyId: m.actor.keyId ?? null,
          userId: m.actor.userId ?? null,
        }
      : null,
    metadata: JSON.stringify(m),
    data: JSON.stringify(event.data ?? {}),
    dataSchema: null,
    dataFingerprint: null,
    dataAvro: null,
  };
}

/** Back to the store's event shape (metadata and data parsed from their JSON strings). */
export function fromEventEnvelope(envelope: EventEnvelope): RecordedEvent {
  const metadata = JSON.parse(envelope.metadata) as EventMetadata;
  if (!metadata.actor && envelope.actor) {
    const actor: Actor = { surface: envelope.actor.surface as Surface };
    if (envelope.actor.accountId !== null) actor.accountId = envelope.actor.accountId;
    if (envelope.actor.keyId !== null) actor.keyId = envelope.actor.keyId;
    if (envelope.actor.userId !== null) actor.userId = envelope.actor.userId;
    metadata.actor = actor;
  }
  return {
    type: envelope.type,
    data: JSON.parse(envelope.data) as Record<string, unknown>,
    metadata,
    streamName: envelope.streamName,
    streamPosition: envelope.streamPosition,
    globalPosition: envelope.globalPosition,
    recordedAt: envelope.recordedAt,
  };
}
