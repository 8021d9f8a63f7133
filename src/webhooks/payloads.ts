/**
 * Webhook payload builders, one per surface and event, producing the exact body bytes that are
 * stored in the outbox and sent (S1: the body before its `signature` member is appended at
 * attempt time, see signing.ts).
 *
 * Each payload has a strict zod schema: a builder refuses to emit a body with a missing,
 * wrongly typed or unexpected field, and the key order of the schema is the key order on the wire.
 */
import { z } from 'zod';

export type WebhookSurface = 's1' | 's2' | 's3';

/** A payload ready for the outbox. */
export interface WebhookMessage {
  surface: WebhookSurface;
  event: string;
  /** Exact JSON bytes (UTF-8). For S1 this is the unsigned body. */
  body: string;
}

const isoMillis = z.iso.datetime({ precision: 3 });
const isoTime = z.iso.datetime({ offset: true });
const riskLevel = z.enum(['low', 'medium', 'high', 'critical']);
const score100 = z.number().int().min(0).max(100);
const count = z.number().int().min(0);
const positiveId = z.number().int().positive();
const alertKind = z.enum(['new_hit', 'changed_hit', 'removed_hit']);
/** What an S2 or S3 monitoring alert says about the hit (S1 nests its own `alert` object). */
const alertFacts = {
  alert_kind: alertKind,
  entity_id: z.string().min(1),
  list: z.string().min(1),
  matched_name: z.string().min(1),
  score: score100,
  detected_at: isoTime,
};

// ------------------------------------------------------------------ S1

export const s1ScreeningEvents = ['cdd.completed', 'edd.completed', 'ma.completed'] as const;
export type S1ScreeningEvent = (typeof s1ScreeningEvents)[number];

const s1ScreeningObject = z
  .object({
    id: positiveId,
    search_query: z.string().min(1),
    risk_level: riskLevel,
    risk_score: score100,
    status: z.literal('completed'),
    created_at: isoTime,
  })
  .strict();

export const s1Schemas = {
  screeningCompleted: z
    .object({
      event: z.enum(s1ScreeningEvents),
      screening_id: positiveId,
      screening: s1ScreeningObject,
      timestamp: isoMillis,
    })
    .strict(),
  personCheckCompleted: z
    .object({
      event: z.literal('person_check.completed'),
      person_check_id: z.string().regex(/^SVC-[0-9a-f]{8}-P$/i),
      person_check: z
        .object({
          id: z.string().regex(/^SVC-[0-9a-f]{8}-P$/i),
          full_name: z.string().min(1),
          result: z.enum(['clean', 'adverse_found', 'inconclusive']),
          confidence: z.enum(['high', 'medium', 'low']),
          status: z.literal('completed'),
          created_at: isoTime,
        })
        .strict(),
      timestamp: isoMillis,
    })
    .strict(),
  monitoringAlert: z
    .object({
      event: z.literal('monitoring.alert'),
      screening_id: positiveId,
      alert: z
        .object({
          kind: alertKind,
          entity_id: z.string().min(1),
          list: z.string().min(1),
          matched_name: z.string().min(1),
          score: score100,
          detected_at: isoTime,
        })
        .strict(),
      timestamp: isoMillis,
    })
    .strict(),
};

export type S1Screening = z.infer<typeof s1ScreeningObject>;

function message(surface: WebhookSurface, event: string, payload: unknown): WebhookMessage {
  return { surface, event, body: JSON.stringify(payload) };
}

/** cdd.completed / edd.completed / ma.completed. `timestamp` is when the screening completed (ms precision). */
export function s1ScreeningCompleted(input: { event: S1ScreeningEvent; screening: S1Screening; timestamp: string }): WebhookMessage {
  const payload = s1Schemas.screeningCompleted.parse({
    event: input.event,
    screening_id: input.screening.id,
    screening: input.screening,
    timestamp: input.timestamp,
  });
  return message('s1', payload.event, payload);
}

export function s1PersonCheckCompleted(input: {
  personCheck: z.infer<typeof s1Schemas.personCheckCompleted>['person_check'];
  timestamp: string;
}): WebhookMessage {
  const payload = s1Schemas.personCheckCompleted.parse({
    event: 'person_check.completed',
    person_check_id: input.personCheck.id,
    person_check: input.personCheck,
    timestamp: input.timestamp,
  });
  return message('s1', payload.event, payload);
}

export interface MonitoringAlertInput {
  kind: 'new_hit' | 'changed_hit' | 'removed_hit';
  entity_id: string;
  list: string;
  matched_name: string;
  score: number;
  detected_at: string;
}

export function s1MonitoringAlert(input: { screeningId: number; alert: MonitoringAlertInput; timestamp: string }): WebhookMessage {
  const payload = s1Schemas.monitoringAlert.parse({
    event: 'monitoring.alert',
    screening_id: input.screeningId,
    alert: input.alert,
    timestamp: input.timestamp,
  });
  return message('s1', payload.event, payload);
}

// ------------------------------------------------------------------ S2

const s2Base = { subject_check_id: positiveId, account_id: positiveId };

export const s2Schemas = {
  'subject_check.processing': z
    .object({ event: z.literal('subject_check.processing'), ...s2Base, status: z.literal('running'), processing_at: isoTime })
    .strict(),
  'subject_check.review_required': z
    .object({
      event: z.literal('subject_check.review_required'),
      ...s2Base,
      status: z.literal('needs_review'),
      overall_result: z.string().min(1),
      confidence_level: z.string().min(1),
      findings_count: count,
      red_flag_count: count,
      warning_count: count,
      sources_searched: count,
      sources_total: count,
      review_reason: z.string().min(1),
      review_required_at: isoTime,
    })
    .strict(),
  'subject_check.escalated': z
    .object({
      event: z.literal('subject_check.escalated'),
      ...s2Base,
      status: z.literal('escalated'),
      investigation_id: z.string().min(1),
      triggering_tiers: z.array(z.string().min(1)),
      tier_scores: z.record(z.string(), z.number()),
      requested_scope: z.string().min(1),
      priority: z.string().min(1),
      escalated_at: isoTime,
      investigation_created_at: isoTime.optional(),
      sla_due_at: isoTime.optional(),
    })
    .strict(),
  'subject_check.completed': z
    .object({
      event: z.literal('subject_check.completed'),
      ...s2Base,
      status: z.literal('completed'),
      overall_result: z.string().min(1),
      confidence_level: z.string().min(1),
      findings_count: count,
      completed_at: isoTime,
    })
    .strict(),
  'subject_check.failed': z
    .object({
      event: z.literal('subject_check.failed'),
      ...s2Base,
      status: z.literal('failed'),
      error_message: z.string().min(1),
      failed_at: isoTime,
    })
    .strict(),
  'subject_check.retry': z
    .object({
      event: z.literal('subject_check.retry'),
      subject_check_id: positiveId,
      retried_at: isoTime,
      previous_delivery_id: z.uuid(),
      attempt_number: z.number().int().min(1),
    })
    .strict(),
  'webhook.test': z
    .object({
      event: z.literal('webhook.test'),
      delivered_at: isoTime,
      subject: z.object({ id: z.string(), name: z.string(), first_name: z.string(), last_name: z.string() }).strict(),
    })
    .strict(),
  // Ongoing monitoring of a subject check; named like the other callbacks about a check (S1 and S3 call theirs monitoring.alert).
  'subject_check.monitoring_alert': z
    .object({
      event: z.literal('subject_check.monitoring_alert'),
      ...s2Base,
      alert_id: z.string().min(1),
      ...alertFacts,
      risk_level: riskLevel
        .nullable()
        .describe(
          "Extension (issue 27): the level this hit gives on its own once assessed on the check's own facts: a common name alone high on a sanctions list, a namesake whose date of birth the listing contradicts at most medium, the listed date of birth critical. null for a removal and for alerts recorded before assessments were kept.",
        ),
      match_strength: z.enum(['confirmed', 'potential']).nullable().describe('Extension (issue 27): confirmed only when an identity fact agrees (or the exact name is distinctive); null for a removal.'),
      identity_note: z.string().min(1).optional().describe('Extension (issue 27): which fact confirmed or contradicted the hit, or that nothing did.'),
    })
    .strict(),
};

export type S2Event = keyof typeof s2Schemas;
export const s2Events = Object.keys(s2Schemas) as S2Event[];
/** The fields of an S2 payload other than `event`, exactly as on the wire. */
export type S2Fields<E extends S2Event> = Omit<z.input<(typeof s2Schemas)[E]>, 'event'>;

/** Builds any S2 body: `{event, ...fields}` with exactly the spec's fields (unknown or missing fields throw). */
export function s2Payload<E extends S2Event>(event: E, fields: S2Fields<E>): WebhookMessage {
  return checkedPayload('s2', s2Schemas[event], event, fields);
}

/** `{event, ...fields}` parsed by the event's schema (strict: an unknown or missing field throws). */
function checkedPayload(surface: WebhookSurface, schema: unknown, event: string, fields: object): WebhookMessage {
  return message(surface, event, (schema as z.ZodType).parse({ event, ...fields }));
}

// ------------------------------------------------------------------ S3

export const s3Schemas = {
  'screening.completed': z
    .object({
      event: z.literal('screening.completed'),
      screening_id: z.uuid(),
      screening_type: z.enum(['CDD', 'EDD', 'SOW', 'MA']),
      risk_score: z.number().min(0).max(100),
      risk_level: z.string().min(1),
      sow_screening_id: z.uuid().nullable(),
      completed_at: isoTime,
    })
    .strict(),
  'monitoring.alert': z
    .object({
      event: z.literal('monitoring.alert'),
      screening_id: z.uuid(),
      ...alertFacts,
    })
    .strict(),
};

export type S3Event = keyof typeof s3Schemas;
export type S3Fields<E extends S3Event> = Omit<z.input<(typeof s3Schemas)[E]>, 'event'>;

export function s3Payload<E extends S3Event>(event: E, fields: S3Fields<E>): WebhookMessage {
  return checkedPayload('s3', s3Schemas[event], event, fields);
}
