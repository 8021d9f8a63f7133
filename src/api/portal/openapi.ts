/**
 * Over 500 lines on purpose: the OpenAPI registration of every portal route (declarations only, one
 * block per route), kept in one file so the portal's document reads in route order.
 *
 * registerPortal: the portal's console API (/api/portal/*, portal JWT) in the one OpenAPI document:
 * overview, keys of every surface, webhooks and their delivery log, screenings (with the
 * server-sent-events progress stream, the PDF and dispositions) and the auditor's event history.
 *
 * Requests are documented with the zod schemas the routes validate with (./schemas); answers with
 * the portal envelope `{data, meta}` and the portal error shapes of src/api/http/errors.ts (the S3
 * ones: `{error, details}` on 400/413/415, `{error}` otherwise). Sign-in/out (/api/session) and the
 * S3 webhook endpoint routes are registered by registerS3, the person-check form routes
 * (/api/person-checks) by registerPersonChecks.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { HitConfirmationSchema, ListVersionAgeSchema, ListWarningsSchema, MatchAssessmentSchema, MatchStrengthSchema, RiskFlagsSchema, RiskReasonSchema, S3ErrorSchema, S3ValidationErrorSchema, securitySchemes } from '../openapi/common';
import { MATCH_ASSESSMENTS } from '../../reports/confirmation';
import { z } from '../openapi/zod';
import { AuditEventSchema } from '../monitoring/schemas';
import { CountryRiskSchema, HitSchema } from '../s1/schemas';
import { registerWatchlistPaths } from '../s3/watchlist-openapi';
import {
  CreatePortalKeySchema,
  PortalDeliveryParamsSchema,
  PortalDeliveryQuerySchema,
  PortalDispositionSchema,
  PortalKeyIdParamsSchema,
  PortalAssignmentSchema,
  PortalBulkDispositionSchema,
  PortalQueueQuerySchema,
  PortalReportPdfQuerySchema,
  PortalScreeningListSchema,
  PortalScreeningParamsSchema,
  PortalScreeningRequestSchema,
  PortalSessionQuerySchema,
  PortalSubjectCheckListSchema,
  PortalSubjectCheckParamsSchema,
  portalSubjectCheckStatuses,
  PortalWebhookKeyParamsSchema,
  PortalWebhookSurfaceParamsSchema,
  PortalWebhookUrlSchema,
} from './schemas';

/** Where the composition root mounts the auditor's event history for the portal. */
export const PORTAL_AUDIT_BASE_PATH = '/api/portal/audit';

const TAG = 'Portal';
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const portalSecurity: Record<string, string[]>[] = [{ [securitySchemes.s3PortalBearer]: [] }, { [securitySchemes.s3PortalCookie]: [] }];

const PortalMetaSchema = z
  .object({
    request_id: z.string().uuid().openapi({ description: 'Same value as the x-request-id header.' }),
    timestamp: z.string().openapi({ description: 'ISO 8601 UTC.' }),
    pagination: z
      .object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() })
      .optional()
      .openapi({ description: 'Paginated lists only (GET /api/portal/screenings, GET /api/portal/subject-checks).' }),
  })
  .openapi('PortalMeta');
const envelope = (data: z.ZodType) => z.object({ data, meta: PortalMetaSchema });
const ok = (description: string, data: z.ZodType, headers?: ResponseConfig['headers']): ResponseConfig => ({
  description,
  ...(headers ? { headers } : {}),
  content: json(envelope(data)),
});

const wwwAuthenticate = { 'WWW-Authenticate': { description: '`Bearer realm="portal"`.', schema: { type: 'string' as const } } } as ResponseConfig['headers'];

/** The portal's error answers: every route can answer 401 and 500; `extra` adds route-specific ones. */
const errors = (extra: { 400?: string; 403?: string; 404?: string; 409?: string } = {}): Record<number, ResponseConfig> => {
  const out: Record<number, ResponseConfig> = {
    401: {
      description: 'No portal token (`Authentication required`), or a bad, expired or signed-out one.',
      headers: wwwAuthenticate,
      content: json(S3ErrorSchema),
    },
    500: { description: 'Unhandled exception (`Internal error (request <id>)`).', content: json(S3ErrorSchema) },
  };
  if (extra[400]) out[400] = { description: `${extra[400]} Body \`{error, details}\` (details: messages by field).`, content: json(S3ValidationErrorSchema) };
  for (const status of [403, 404, 409] as const) {
    const description = extra[status];
    if (description) out[status] = { description, content: json(S3ErrorSchema) };
  }
  return out;
};
const bodyErrors = {
  413: { description: 'Body too large: `{error, details}`.', content: json(S3ValidationErrorSchema) },
  415: { description: 'Unsupported body encoding: `{error, details}`.', content: json(S3ValidationErrorSchema) },
} satisfies Record<number, ResponseConfig>;

// ---------------------------------------------------------------- answers

const surface = z.enum(['s1', 's2', 's3']);

const PortalOverviewSchema = z
  .object({
    account: z.object({ id: z.string(), name: z.string().nullable(), plan: z.enum(['starter', 'essentials', 'professional', 'enterprise']), created_at: z.string().nullable(), user_id: z.string().nullable() }),
    month: z.string().openapi({ example: '2025-06' }),
    quota_resets_at: z.string().openapi({ description: '1st of next month, 00:00 UTC.' }),
    quotas: z.array(
      z.object({
        quota: z.enum(['s1_screenings', 's3_requests', 's3_offshore_leak_checks']).openapi({
          description: 's3_offshore_leak_checks only on plans with that cap (Enterprise: 100 a month; used up, S3 screenings run without the offshore-leak search).',
        }),
        surface: z.enum(['s1', 's3']),
        name: z.string(),
        limit: z.number().int().nullable().openapi({ description: 'null: unlimited.' }),
        used: z.number().int(),
        resets_at: z.string().openapi({ description: '1st of next month, 00:00 UTC.' }),
        warning: z
          .object({
            level: z.enum(['approaching', 'reached']).openapi({ description: 'approaching from 80 % used; reached when used up.' }),
            message: z.string().openapi({ description: 'What is used and what happens once (or now that) it is used up, until the reset.' }),
          })
          .nullable()
          .openapi({ description: 'null below 80 % used, and on unlimited quotas.' }),
      }),
    ),
    screenings_this_month: z.object({ total: z.number().int(), by_surface: z.record(z.string(), z.number().int()) }),
    rate_limits: z.array(
      z.object({
        surface: z.enum(['s1', 's2']),
        description: z.string(),
        limit: z.number().int(),
        window_seconds: z.number().int(),
        keys: z
          .array(z.object({ key_id: z.string(), name: z.string(), prefix: z.string(), remaining: z.number().int(), resets_at: z.string() }))
          .optional()
          .openapi({ description: 'S1: the window of each active key.' }),
        remaining: z.number().int().optional().openapi({ description: 'S2: left in the account\'s window now.' }),
        resets_at: z.string().optional(),
      }),
    ),
    keys: z.record(
      surface,
      z.object({ active: z.number().int(), cap: z.number().int().nullable(), cap_scope: z.enum(['account', 'user']).nullable() }),
    ),
    features: z.object({ person_checks: z.boolean(), dispositions: z.boolean(), s3_webhooks: z.boolean() }),
  })
  .openapi('PortalOverview');

const PortalKeySchema = z
  .object({
    id: z.string(),
    surface,
    name: z.string(),
    prefix: z.string().openapi({ description: 'The first characters of the key (masked view).', example: 'svc_1a2b' }),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    webhook_url: z.string().nullable().optional().openapi({ description: 'S1 keys only.' }),
  })
  .openapi('PortalKey');

const PortalScreeningSchema = z
  .object({
    id: z.number().int().openapi({ description: 'Numeric id (the S1 id).' }),
    uuid: z.string().uuid().openapi({ description: 'The S3 id of the same screening.' }),
    kind: z.enum(['cdd', 'edd', 'ma', 'sow']),
    surface: z.enum(['s1', 's2', 's3', 'portal']).openapi({ description: 'Where it was requested.' }),
    accountId: z.string().openapi({ description: 'The owning account: always the signed-in one.' }),
    search_query: z.string(),
    entity_type: z.string(),
    jurisdiction: z.string().nullable(),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']).nullable(),
    risk_score: z.number().int().nullable(),
    status: z.enum(['running', 'completed', 'failed']),
    sanctions_hits: z.number().int(),
    pep_hits: z.number().int(),
    adverse_media_hits: z.number().int(),
    offshore_leaks_hits: z.number().int(),
    summary: z.string().nullable(),
    edd_analysis: z.string().nullable(),
    ma_analysis: z.string().nullable(),
    sow_analysis: z.string().nullable(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    list_warnings: ListWarningsSchema.optional(),
    risk_flags: RiskFlagsSchema.optional(),
    risk_reason: RiskReasonSchema.optional(),
    offshore_leaks_search: z
      .object({ searched: z.boolean().nullable(), reason: z.string().nullable() })
      .optional()
      .openapi({
        description:
          'Whether the offshore-leak check ran (null until it answered) and, if not, why: e.g. `monthly offshore-leak quota used: 100 of 100, resets 2026-12-01` on an S3 screening once the month\'s offshore-leak checks are used up. Absent on list pages.',
      }),
  })
  .openapi('PortalScreening');

const PortalHitSchema = z
  .object({
    hit_id: z.string(),
    category: z.enum(['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment']),
    list: z.string(),
    list_version: z.string(),
    entity_id: z.string(),
    entity_name: z.string(),
    entity_type: z.string(),
    matched_name: z.string(),
    matched_name_kind: z.string().openapi({ description: 'Which of the entity\'s names matched (primary, alias, …).' }),
    score: z.number(),
    match_strength: MatchStrengthSchema,
    match_assessment: MatchAssessmentSchema,
    standing: z.enum(['analyst_confirmed', 'dismissed', ...MATCH_ASSESSMENTS]).openapi({ description: "The hit as it stands now: the machine's assessment with the analyst's decision applied (`analyst_confirmed` after a true match, `dismissed` after a false positive; needs more information decides nothing)." }),
    machine_standing: MatchAssessmentSchema.openapi({ description: "The machine's assessment alone, the analyst's decision left out: shown apart from the decision." }),
    assessment_label: z.string().openapi({ description: 'The machine\'s assessment in words: "strong name match", "identity corroborated", "name match", "identity contradicted".' }),
    standing_label: z.string().openapi({ description: 'The standing in words: "analyst-confirmed", "dismissed", or the machine\'s assessment while undecided.' }),
    confirmation: HitConfirmationSchema,
    explanation: z.string(),
    qualifiers: z.array(
      z.object({ kind: z.string(), effect: z.number(), detail: z.string(), words: z.string().openapi({ description: 'The adjustment in words with its points on the 0-100 score: "date of birth agrees (+5 points)".' }) }),
    ),
    programs: z.array(z.string()),
    source_url: z.string().nullable(),
    disposition: z
      .object({
        status: z.enum(['true_match', 'false_positive', 'needs_more_information']),
        reason: z.string(),
        analyst: z.string().openapi({ description: 'The stable identity recorded with the decision (`user:<id>`, `key:<id>`).' }),
        analyst_name: z.string().openapi({ description: 'Who that is, as people know them: the user\'s e-mail or the API key\'s name (the identity when neither is known).' }),
        at: z.string(),
      })
      .nullable(),
    // one hit per real-world entity, with what its list rows say (as on S1)
    sources: HitSchema.shape.sources,
    date_of_birth: HitSchema.shape.date_of_birth,
    nationality: HitSchema.shape.nationality,
    identifiers: z
      .array(z.object({ type: z.string(), value: z.string(), country: z.string().nullable(), words: z.string().openapi({ description: 'The identifier in words: "Passport 123456 (RU)".' }) }))
      .optional()
      .openapi({ description: 'Documents and registration numbers only (passport, national id, tax id, registration, IMO, LEI, SWIFT/BIC…): list remarks, e-mails, websites and telephone numbers are left out (the S1 and S3 APIs give them all).' }),
    aliases: HitSchema.shape.aliases,
    type_mismatch: HitSchema.shape.type_mismatch,
    why: z.string().openapi({ description: '`explanation` in words: without the name score, token kinds and raw score (the page shows the score as a percentage).' }),
    internal_list: z
      .object({
        watchlist_id: z.string(),
        name: z.string(),
        severity: z.enum(['block', 'review', 'note']),
        version: z.number().int(),
        as_of: z.string().nullable().openapi({ description: 'When the version screened against was in service (loaded).' }),
      })
      .optional()
      .openapi({ description: 'A hit on one of the account\'s own lists: which list, its severity and the version screened.' }),
  })
  .openapi('PortalHit');

const PortalAssigneeSchema = z
  .object({ email: z.string(), me: z.boolean().openapi({ description: 'The signed-in user holds it.' }) })
  .openapi('PortalAssignee');

const PortalQueueListSchema = z
  .object({
    id: z.string().openapi({ description: 'What the `list` filter takes: a list id (ofac_sdn) or internal_list:<watchlist id>.' }),
    name: z.string().openapi({ description: 'The list\'s name (an internal list by the name the account gave it).' }),
  })
  .openapi('PortalQueueList');

const PortalCaseHistoryEntrySchema = z
  .object({
    at: z.string(),
    kind: z.enum(['requested', 'completed', 'failed', 'disposition', 'assigned', 'unassigned', 'risk_changed', 'monitoring_alert', 'reopened']),
    by: z.string().optional().openapi({ description: 'Who did it: an e-mail or an API key\'s name.' }),
    hit_id: z.string().optional(),
    decision: z.enum(['true_match', 'false_positive', 'needs_more_information']).optional(),
    previous: z.enum(['true_match', 'false_positive', 'needs_more_information']).optional().openapi({ description: 'The hit\'s disposition before this one.' }),
    reason: z.string().optional().openapi({ description: 'The analyst\'s comment, or why a screening failed.' }),
    assignee: z.string().optional(),
    previous_assignee: z.string().optional(),
    risk_level: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    risk_score: z.number().int().optional(),
    alert: z.string().optional().openapi({ description: 'new_hit, changed_hit or removed_hit.' }),
    list_version: z.string().optional(),
  })
  .strict()
  .openapi('PortalCaseHistoryEntry');

const PortalScreeningDetailSchema = z
  .object({
    ...PortalScreeningSchema.shape,
    subject: z
      .object({
        date_of_birth: z.string().nullable(),
        nationality: z.string().nullable(),
        identifiers: z.array(z.object({ type: z.string(), value: z.string(), words: z.string().openapi({ description: 'In words, e.g. "Registration number 1027700132195".' }) })),
        phone: z.string().nullable(),
        email: z.string().nullable(),
      })
      .openapi({ description: 'What the request gave to tell the subject from namesakes.' }),
    hits: z.array(PortalHitSchema),
    sources: z
      .array(z.object({ agent: z.string(), phase: z.string(), queried: z.boolean(), error: z.string().nullable(), duration_ms: z.number().int().nullable() }))
      .openapi({ description: 'Every source of the pipeline, searched or not and why.' }),
    country_risk: CountryRiskSchema.nullable().openapi({ description: 'The subject\'s jurisdiction (as on S1).' }),
    country_risks: z
      .array(CountryRiskSchema.extend({ basis: z.enum(['jurisdiction', 'nationality']).openapi({ description: 'Which of the subject\'s countries this is.' }) }))
      .openapi({
        description:
          'Every country of the subject: its jurisdiction and its nationality (when another country), each with its FATF status and the sanctions programmes targeting it. The jurisdiction is scored; the nationality is shown for the analyst and adds no points.',
      }),
    list_versions: z.array(z.object({ ...ListVersionAgeSchema.shape, label: z.string().openapi({ description: 'The list\'s name.' }) }).openapi('PortalListVersionAge')),
    list_warnings: ListWarningsSchema.optional(),
    matcher_version: z.string().nullable(),
    assignee: PortalAssigneeSchema.nullable()
      .optional()
      .openapi({ description: 'Who holds the case (a user of the account, by e-mail); null when nobody does. Absent while running.' }),
    case_history: z
      .array(PortalCaseHistoryEntrySchema)
      .optional()
      .openapi({ description: 'The case\'s timeline, oldest first: requested, completed, every disposition (needs more information included), risk level changes, assignments, monitoring alerts. People by e-mail (or API key name), never an internal id. Absent while running.' }),
  })
  .openapi('PortalScreeningDetail');

const PortalSubjectCheckSchema = z
  .object({
    id: z.number().int().openapi({ description: 'The S2 subject_check_id.' }),
    name: z.string().openapi({ description: 'First, middle and last name.' }),
    year_of_birth: z.string().nullable().openapi({ description: 'The year only; the full date of birth is never shown.' }),
    countries: z.array(z.string()),
    status: z.enum(portalSubjectCheckStatuses),
    overall_result: z.string().nullable().openapi({ description: 'clean, inconclusive, adverse_found; null while running.' }),
    confidence_level: z.string().nullable(),
    findings_count: z.number().int().nullable(),
    red_flag_count: z.number().int().nullable(),
    warning_count: z.number().int().nullable(),
    sources_searched: z.number().int().nullable(),
    sources_total: z.number().int(),
    monitoring: z.boolean().openapi({ description: 'Enrolled in ongoing monitoring.' }),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .openapi('PortalSubjectCheck');

const PortalSubjectCheckDetailSchema = z
  .object({
    ...PortalSubjectCheckSchema.shape,
    summary: z.string().openapi({ description: 'One sentence: status, result, counts, coverage, review or investigation.' }),
    review_reason: z.string().nullable(),
    resolved_by: z.string().nullable(),
    investigation_id: z.string().nullable(),
    priority: z.string().nullable(),
    error_message: z.string().nullable(),
    tier_scores: z.record(z.string(), z.number()).nullable().openapi({ description: 'Score by tier, once reviewed or escalated.' }),
    sources: z
      .array(z.object({ agent: z.string(), tier: z.string(), queried: z.boolean(), error: z.string().nullable(), hits: z.number().int() }))
      .openapi({ description: 'Every source recorded so far, searched or not and why.' }),
    monitoring_alerts: z.number().int().openapi({ description: 'How many alerts ongoing monitoring has raised on the check.' }),
  })
  .openapi('PortalSubjectCheckDetail');

const PortalWebhookEndpointSchema = z
  .object({
    id: z.string(),
    surface,
    key_id: z.string().nullable().openapi({ description: 'S1: the key the webhook belongs to; null for S2/S3.' }),
    key_name: z.string().nullable(),
    key_revoked: z.boolean(),
    url: z.string(),
    enabled: z.boolean(),
    consecutive_failures: z.number().int(),
    disabled_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('PortalWebhookEndpoint');

const PortalWebhookSecretSchema = z
  .object({
    surface,
    key_id: z.string().optional().openapi({ description: 'S1 only.' }),
    url: z.string(),
    signing_secret: z.string().openapi({ description: 'Shown once, in this answer only.' }),
  })
  .openapi('PortalWebhookSecret');

const PortalTestDeliverySchema = z
  .object({
    status: z.enum(['enqueued', 'dropped', 'duplicate']).openapi({ description: '`dropped`: the endpoint is disabled (re-enable it first).' }),
    delivery_id: z.string().optional(),
    reason: z.string().optional(),
  })
  .openapi('PortalTestDelivery');

const PortalDeliverySchema = z
  .object({
    deliveryId: z.string(),
    endpointId: z.string(),
    surface,
    event: z.string(),
    status: z.enum(['pending', 'delivering', 'succeeded', 'failed', 'dropped']),
    attemptCount: z.number().int(),
    maxAttempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    retryOf: z.string().nullable(),
    subjectRef: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    body: z.string().openapi({ description: 'The exact stored body (S1: unsigned; each attempt\'s signature is in its X-Service-Signature header).' }),
    payload: z.unknown().openapi({ description: 'The body parsed.' }),
    attempts: z.array(
      z.object({
        attemptNumber: z.number().int(),
        startedAt: z.string(),
        finishedAt: z.string().nullable(),
        durationMs: z.number().int().nullable(),
        statusCode: z.number().int().nullable(),
        error: z.string().nullable(),
        outcome: z.enum(['in_flight', 'succeeded', 'retryable', 'terminal', 'interrupted']),
        requestHeaders: z.record(z.string(), z.string()),
      }),
    ),
  })
  .openapi('PortalWebhookDelivery');

const PortalEventHistorySchema = z
  .object({
    stream: z.string(),
    events: z.array(AuditEventSchema),
    chain: z
      .object({ ok: z.boolean(), head_hash: z.string().nullable(), broken_at: z.number().int().nullable(), reason: z.string().nullable() })
      .openapi({ description: 'The stream\'s hash chain, verified when it was read.' }),
  })
  .openapi('PortalEventHistory');

export const PORTAL_PROGRESS_DESCRIPTION = [
  'Server-sent events (`text/event-stream`) for the stored events of the stream `screening-<id>`, `id:` = the stored event\'s stream position, so a client reconnecting with `Last-Event-ID` resumes after the last one it saw. One message per stored event, except `PhaseStarted`, which is followed by an `agent_finished` (same `id:`) for each source the deployment could not query, and `PhaseSkipped` (a phase none of whose sources the deployment can query, with the phases right after it skipped the same way), which gives, for each phase it records, `phase_started`, an `agent_finished` for each of its sources and `phase_completed`, all with its `id:`; a `PhaseCompleted` that records its phase whole (the finalisation, phase 5: its agents\' results in the event) gives likewise `phase_started`, an `agent_finished` for each of its agents, in order, and `phase_completed`. The stream starts with `retry: 2000`.',
  '',
  'Events (`data:` is JSON):',
  '- `requested`: `{query, entity_type, kind, at, phases: [{phase, name, mode, agents: [{agent, label}]}]}`',
  '- `phase_started`: `{phase, name, at}`',
  '- `agent_finished`: `{phase, agent, label, queried, error, duration_ms}` (also for the sources this deployment cannot query, recorded when their phase starts or is skipped)',
  '- `phase_completed`: `{phase, queried, not_queried, at}`',
  '- `completed`: `{risk_level, risk_score, counts: {sanctions, pep, adverse_media, offshore_leaks, debarment}, at}` or `failed`: `{reason, at}`',
  '- `end`: `{}`, then the server closes the stream.',
  '',
  'The route replays the stream and then polls it (every 250 ms) until completion; a `: keep-alive` comment every 15 s without events; at most 10 minutes per connection. Browsers read it with `fetch` (to send the bearer token) or `EventSource` (with the `token` cookie).',
].join('\n');

export function registerPortal(registry: OpenAPIRegistry): void {
  // ---------------------------------------------------------------- internal watchlists (issue 21)
  registerWatchlistPaths(registry, { base: '/api/portal/watchlists', tag: TAG, security: portalSecurity, surface: 'Portal' });
  // ---------------------------------------------------------------- session status
  registry.registerPath({
    method: 'get',
    path: '/api/portal/session',
    tags: [TAG],
    summary: 'Portal: whether the request carries a valid portal session',
    description:
      'Always 200 (no 401): `signed_in` true when the bearer token or the `token` cookie is a valid, unexpired, not signed-out portal session of an existing account. The page asks it when it opens without a token of its own, before loading the overview.',
    security: [...portalSecurity, {}],
    request: { query: PortalSessionQuerySchema },
    responses: {
      200: ok('Signed in or not.', z.object({ signed_in: z.boolean() })),
      400: { description: 'A query parameter was given (the route takes none): `{error, details}`.', content: json(S3ValidationErrorSchema) },
      500: { description: 'Unhandled exception (`Internal error (request <id>)`).', content: json(S3ErrorSchema) },
    },
  });

  // ---------------------------------------------------------------- overview
  registry.registerPath({
    method: 'get',
    path: '/api/portal/overview',
    tags: [TAG],
    summary: 'Portal: the signed-in account at a glance',
    description: 'Plan, this month\'s quota use (S1 screenings, S3 requests) with the reset time, the rate limits and what is left of them now (per S1 key, S2 per account), active keys against their caps, and which optional features are wired. Counters are read without being consumed.',
    security: portalSecurity,
    responses: { 200: ok('The overview.', PortalOverviewSchema), ...errors() },
  });

  // ---------------------------------------------------------------- keys
  registry.registerPath({
    method: 'get',
    path: '/api/portal/keys',
    tags: [TAG],
    summary: 'Portal: the account\'s keys of every surface (masked, revoked ones too)',
    security: portalSecurity,
    responses: {
      200: ok(
        'Keys by surface and the active-key caps (S1 10 per account, S3 5 per user, S2 none).',
        z.object({
          keys: z.object({ s1: z.array(PortalKeySchema), s2: z.array(PortalKeySchema), s3: z.array(PortalKeySchema) }),
          caps: z.object({ s1: z.number().int(), s2: z.number().int().nullable(), s3: z.number().int() }),
        }),
      ),
      ...errors(),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/portal/keys',
    tags: [TAG],
    summary: 'Portal: create a key of S1 (`svc_`), S2 (`svca_`) or S3 (`svcc_live_`)',
    description: 'The plaintext key (and an S1 key\'s webhook signing secret) is answered once and never again. Starter plans have no API access (403). Over the active-key cap: 400.',
    security: portalSecurity,
    request: { body: { required: true, content: json(CreatePortalKeySchema) } },
    responses: {
      201: ok(
        'Created.',
        z.object({
          key: PortalKeySchema,
          plaintext: z.string().openapi({ description: 'The full key, shown once.' }),
          webhook_signing_secret: z.string().optional().openapi({ description: 'S1 key with webhook_url: the signing secret, shown once.' }),
          notice: z.string(),
        }),
      ),
      ...errors({ 400: 'Invalid body, webhook_url on an S2/S3 key, a URL the SSRF guard refuses, or the active-key cap reached.', 403: 'Starter plan: no API access.' }),
      ...bodyErrors,
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/portal/keys/{id}',
    tags: [TAG],
    summary: 'Portal: revoke a key (it stops working at once; revoking again changes nothing)',
    security: portalSecurity,
    request: { params: PortalKeyIdParamsSchema },
    responses: {
      200: ok('The revoked key (`revoked_at` set).', z.object({ key: PortalKeySchema })),
      ...errors({ 400: 'id is not a positive integer.', 404: 'No such key, or another account\'s.' }),
    },
  });

  // ---------------------------------------------------------------- webhooks
  registry.registerPath({
    method: 'get',
    path: '/api/portal/webhooks',
    tags: [TAG],
    summary: 'Portal: the account\'s webhook endpoints (S1 one per key; S2, S3 one per account; never a secret)',
    security: portalSecurity,
    responses: { 200: ok('Endpoints.', z.object({ endpoints: z.array(PortalWebhookEndpointSchema), s3_available: z.boolean() })), ...errors() },
  });
  registry.registerPath({
    method: 'put',
    path: '/api/portal/webhooks/s1/{keyId}',
    tags: [TAG],
    summary: 'Portal: set the webhook URL of an S1 key (new signing secret, shown once)',
    security: portalSecurity,
    request: { params: PortalWebhookKeyParamsSchema, body: { required: true, content: json(PortalWebhookUrlSchema) } },
    responses: {
      200: ok('Configured.', PortalWebhookSecretSchema),
      ...errors({ 400: 'keyId not a positive integer, invalid body, or a URL the SSRF guard refuses.', 404: 'No such S1 key of this account.' }),
      ...bodyErrors,
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/api/portal/webhooks/{surface}',
    tags: [TAG],
    summary: 'Portal: register or update the S2 or S3 webhook endpoint (signing secret shown once)',
    security: portalSecurity,
    request: { params: PortalWebhookSurfaceParamsSchema, body: { required: true, content: json(PortalWebhookUrlSchema) } },
    responses: {
      200: ok('Updated.', PortalWebhookSecretSchema),
      201: ok('Registered (first time).', PortalWebhookSecretSchema),
      ...errors({ 400: 'Invalid body or a URL the SSRF guard refuses.', 404: 'Not s2/s3, or S3 webhooks are not available on this deployment.' }),
      ...bodyErrors,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/portal/webhooks/s1/{keyId}/test',
    tags: [TAG],
    summary: 'Portal: send a `webhook.test` delivery to an S1 key\'s webhook',
    security: portalSecurity,
    request: { params: PortalWebhookKeyParamsSchema },
    responses: {
      202: ok('Enqueued (or dropped: the endpoint is disabled); follow it in the delivery log.', PortalTestDeliverySchema),
      ...errors({ 400: 'keyId is not a positive integer.', 404: 'No such S1 key, or it has no webhook.' }),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/portal/webhooks/{surface}/test',
    tags: [TAG],
    summary: 'Portal: send a `webhook.test` delivery to the S2 or S3 endpoint',
    security: portalSecurity,
    request: { params: PortalWebhookSurfaceParamsSchema },
    responses: { 202: ok('Enqueued (or dropped: the endpoint is disabled).', PortalTestDeliverySchema), ...errors({ 404: 'Not s2/s3, or no endpoint is configured.' }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/portal/webhooks/s1/{keyId}/reenable',
    tags: [TAG],
    summary: 'Portal: re-enable an S1 key\'s auto-disabled webhook',
    security: portalSecurity,
    request: { params: PortalWebhookKeyParamsSchema },
    responses: {
      200: ok('The state now.', z.object({ surface: z.literal('s1'), key_id: z.string(), enabled: z.boolean() })),
      ...errors({ 400: 'keyId is not a positive integer.', 404: 'No such S1 key, or it has no webhook.' }),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/portal/webhooks/{surface}/reenable',
    tags: [TAG],
    summary: 'Portal: re-enable the auto-disabled S2 or S3 endpoint',
    security: portalSecurity,
    request: { params: PortalWebhookSurfaceParamsSchema },
    responses: { 200: ok('The state now.', z.object({ surface: z.enum(['s2', 's3']), enabled: z.boolean() })), ...errors({ 404: 'Not s2/s3, or no endpoint is configured.' }) },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/webhooks/deliveries',
    tags: [TAG],
    summary: 'Portal: the delivery log of one surface, newest first',
    security: portalSecurity,
    request: { query: PortalDeliveryQuerySchema },
    responses: {
      200: ok('A page; `next_cursor` is null on the last one.', z.object({ deliveries: z.array(PortalDeliverySchema), next_cursor: z.string().nullable() })),
      ...errors({ 400: 'Invalid query (unknown parameter, limit out of 1-100, unknown status, bad cursor).' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/webhooks/deliveries/{deliveryId}',
    tags: [TAG],
    summary: 'Portal: one delivery with every attempt and the exact stored body',
    security: portalSecurity,
    request: { params: PortalDeliveryParamsSchema },
    responses: { 200: ok('The delivery.', PortalDeliverySchema), ...errors({ 404: 'No such delivery, or another account\'s.' }) },
  });

  // ---------------------------------------------------------------- screenings
  registry.registerPath({
    method: 'post',
    path: '/api/portal/screenings',
    tags: [TAG],
    summary: 'Portal: start a CDD, EDD or M&A screening (answers at once, running)',
    description: 'Follow it with GET /api/portal/screenings/{id}/progress.',
    security: portalSecurity,
    request: { body: { required: true, content: json(PortalScreeningRequestSchema) } },
    responses: {
      201: ok('Started.', z.object({ screening: PortalScreeningSchema }), {
        Location: { description: '/api/portal/screenings/{id}', schema: { type: 'string' } },
      }),
      ...errors({ 400: 'Invalid body (a declared field of another kind included).', 403: 'The plan does not allow this kind (EDD: Professional+, M&A: Enterprise).' }),
      ...bodyErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/sources',
    tags: [TAG],
    summary: 'Portal: what this deployment searches (lists with their dates, outside sources configured or not)',
    description: 'Lists in service with their publication date and age in days (from the service clock); every pipeline source with whether it is configured and, when it is not, what an operator sets to enable it (`enable_with`, null when this release has no adapter for it).',
    security: portalSecurity,
    responses: {
      200: ok(
        'The lists and sources.',
        z.object({
          lists: z.array(
            z.object({
              list: z.string(),
              label: z.string(),
              version: z.string(),
              published_at: z.string().nullable(),
              published_at_source: z.enum(['file', 'manifest', 'download', 'file_date']).nullable().openapi({ description: 'Where the publication date comes from.' }),
              age_days: z.number().int().nullable(),
              max_age_days: z.number().int().nullable().openapi({ description: 'LISTS_MAX_AGE_DAYS, the list\'s own default (docs/lists.md) or LISTS_MAX_AGE; null: no maximum (turned off by the operator).' }),
              stale: z.boolean(),
              loaded_at: z.string(),
              entity_count: z.number().int(),
            }),
          ),
          sources: z.array(z.object({ agent: z.string(), label: z.string(), configured: z.boolean(), enable_with: z.string().nullable() })),
        }),
      ),
      ...errors({}),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/queue',
    tags: [TAG],
    summary: 'Portal: the work queue, completed screenings with undecided hits, most severe first, then oldest',
    description:
      'A screening is in the queue while at least one of its hits is undecided: from the pipeline, or added or re-opened by a monitoring alert; a hit marked "needs more information" is still undecided (counted in `needs_more_information_hits`, filter `needs_more_information=true`). Filter `assignee`: me, unassigned, or a user\'s e-mail. Filter `list`: a case whose undecided hit\'s entity is on that list, whichever of its lists the hit is filed under. `counts` are open cases per risk level before the level filter; `lists` the lists among undecided hits (choices of the list filter), by name.',
    security: portalSecurity,
    request: { query: PortalQueueQuerySchema },
    responses: {
      200: ok(
        'A page; `meta.pagination` has page, limit, total and pages.',
        z.object({
          items: z.array(
            z.object({
              screening_id: z.number().int(),
              search_query: z.string(),
              entity_type: z.string(),
              kind: z.string(),
              surface: z.string(),
              risk_level: z.string().nullable(),
              risk_score: z.number().int().nullable(),
              open_hits: z.number().int().openapi({ description: 'Hits nobody has decided yet (waiting for more information included).' }),
              needs_more_information_hits: z.number().int().openapi({ description: 'Of those, hits an analyst marked "needs more information".' }),
              assignee: PortalAssigneeSchema.nullable().openapi({ description: 'Who holds the case, by e-mail; null when nobody does.' }),
              lists: z.array(PortalQueueListSchema).openapi({ description: 'Every list the entities of those hits are on (a merged hit under each of its lists), by name.' }),
              monitoring: z.boolean(),
              completed_at: z.string(),
              age_days: z.number().int().openapi({ description: 'Whole days since completion.' }),
            }),
          ),
          counts: z.object({ critical: z.number().int(), high: z.number().int(), medium: z.number().int(), low: z.number().int() }),
          lists: z.array(PortalQueueListSchema).openapi({ description: 'The lists among undecided hits (the list filter\'s choices), by name.' }),
          assignees: z.array(PortalAssigneeSchema).openapi({ description: 'The account\'s users (choices of the assignee filter).' }),
        }),
      ),
      ...errors({ 400: 'Invalid query (unknown parameter, page or limit out of range, unknown level, surface or list id, assignee neither me, unassigned nor an e-mail).' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/screenings',
    tags: [TAG],
    summary: 'Portal: the account\'s screenings (all surfaces), newest first, searched and filtered',
    security: portalSecurity,
    request: { query: PortalScreeningListSchema },
    responses: {
      200: ok('A page; `meta.pagination` has page, limit, total and pages.', z.object({ screenings: z.array(PortalScreeningSchema) })),
      ...errors({ 400: 'Invalid query (unknown parameter, page or limit out of range, unknown risk level or type).' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/screenings/{id}',
    tags: [TAG],
    summary: 'Portal: the report view of a screening (hits, sources, audit)',
    security: portalSecurity,
    request: { params: PortalScreeningParamsSchema },
    responses: {
      200: ok('The screening.', z.object({ screening: PortalScreeningDetailSchema, dispositions_enabled: z.boolean() })),
      ...errors({ 400: 'id is neither a numeric id nor a uuid.', 404: 'No such screening, or another account\'s.' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/screenings/{id}/progress',
    tags: [TAG],
    summary: 'Portal: live progress of a screening as server-sent events',
    description: PORTAL_PROGRESS_DESCRIPTION,
    security: portalSecurity,
    request: {
      params: PortalScreeningParamsSchema,
      headers: z.object({
        'Last-Event-ID': z.string().optional().openapi({ description: 'Resume after this stream position (the `id:` of the last message seen; digits, else ignored).' }),
      }),
    },
    responses: {
      200: {
        description: 'The event stream (`Cache-Control: private, no-cache`), closed by the server after `end`.',
        content: {
          'text/event-stream': {
            schema: z.string().openapi({
              description: 'Messages `id: <position>\\nevent: <name>\\ndata: <json>\\n\\n`.',
              example: 'id: 0\nevent: requested\ndata: {"query":"Kim Jong Un","kind":"cdd","phases":[…]}\n\n',
            }),
          },
        },
      },
      ...errors({ 400: 'id is neither a numeric id nor a uuid.', 404: 'No such screening, or another account\'s.' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/screenings/{id}/report.pdf',
    tags: [TAG],
    summary: 'Portal: the PDF report',
    description: 'The report an officer files: times in `time_zone` (the portal sends the reader\'s), analysts by e-mail, codes and agent internals in a short audit appendix.',
    security: portalSecurity,
    request: { params: PortalScreeningParamsSchema, query: PortalReportPdfQuerySchema },
    responses: {
      200: {
        description: 'The PDF.',
        headers: { 'Content-Disposition': { description: '`attachment; filename="screening-<id>.pdf"`.', schema: { type: 'string' } } },
        content: { 'application/pdf': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
      },
      ...errors({ 400: 'id is neither a numeric id nor a uuid, or time_zone is not an IANA time zone.', 404: 'No such screening, or another account\'s.', 409: 'Still running.' }),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/portal/screenings/{id}/hits/{hitId}/disposition',
    tags: [TAG],
    summary: 'Portal: record a hit as true match, false positive or needs more information, with a mandatory comment',
    description:
      'The signed-in user is the analyst; the risk is recomputed and the updated screening answered. `needs_more_information` leaves the hit undecided: it still counts toward risk (the level does not drop) and the case stays in the work queue until the hit is decided true match or false positive.',
    security: portalSecurity,
    request: {
      params: PortalScreeningParamsSchema.extend({ hitId: z.string().openapi({ description: 'A hit_id of the screening.' }) }),
      body: { required: true, content: json(PortalDispositionSchema) },
    },
    responses: {
      200: ok('The screening after the disposition.', z.object({ screening: PortalScreeningDetailSchema })),
      ...errors({ 400: 'Invalid id or body.', 404: 'No such screening or hit, or dispositions are not available on this deployment.', 409: 'The screening has not completed, or the hit was removed by monitoring.' }),
      ...bodyErrors,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/portal/screenings/{id}/dispositions',
    tags: [TAG],
    summary: 'Portal: one decision with one comment on several hits of a case (bulk decision)',
    description:
      'For example every hit on a bank\'s subsidiaries: false positive, "not the bank onboarded". All or nothing, in one append to the screening\'s stream: one HitDispositioned per hit whose decision changes (each with the comment and the signed-in user as the analyst), then one RiskRecomputed. A hit already at that decision records nothing; a hit of another screening, an unknown one or a repeated one refuses the whole request (400 on `hit_ids`, nothing written).',
    security: portalSecurity,
    request: { params: PortalScreeningParamsSchema, body: { required: true, content: json(PortalBulkDispositionSchema) } },
    responses: {
      200: ok('The screening after the decisions.', z.object({ screening: PortalScreeningDetailSchema })),
      ...errors({ 400: 'Invalid id or body, or a hit id that is not one of this screening\'s.', 404: 'No such screening, or another account\'s; or dispositions are not available on this deployment.', 409: 'The screening has not completed, or a hit was removed by monitoring.' }),
      ...bodyErrors,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/portal/assignees',
    tags: [TAG],
    summary: 'Portal: the users of the account a case can be assigned to',
    security: portalSecurity,
    responses: {
      200: ok('The account\'s users by e-mail (never an id).', z.object({
          assignees: z.array(
            z.object({ email: z.string(), role: z.string().openapi({ description: 'owner, analyst or auditor.' }), me: z.boolean().openapi({ description: 'The signed-in user.' }) }).openapi('PortalAccountUser'),
          ),
        })),
      ...errors({ 404: 'Case assignment is not available on this deployment.' }),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/api/portal/screenings/{id}/assignee',
    tags: [TAG],
    summary: 'Portal: assign a case to a user of the account, reassign it, or unassign it (null)',
    description:
      'Recorded on the screening stream as CaseAssigned / CaseUnassigned with who (the signed-in user) and when. Only users of the same account can be assignees: any other e-mail is a 400 on `assignee`, and nothing is written. Assigning the current assignee again records nothing.',
    security: portalSecurity,
    request: { params: PortalScreeningParamsSchema, body: { required: true, content: json(PortalAssignmentSchema) } },
    responses: {
      200: ok('The screening after the assignment.', z.object({ screening: PortalScreeningDetailSchema })),
      ...errors({ 400: 'Invalid id or body, or the assignee is not a user of this account.', 404: 'No such screening, or another account\'s; or assignment is not available.', 409: 'The screening has not completed.' }),
      ...bodyErrors,
    },
  });

  // ---------------------------------------------------------------- S2 subject checks
  registry.registerPath({
    method: 'get',
    path: '/api/portal/subject-checks',
    tags: [TAG],
    summary: 'Portal: the account\'s S2 subject checks, newest first, searched and filtered',
    description: 'Started through the S2 API (`svca_` keys). Name, year of birth and countries only: never the full date of birth, the stated purpose or the key and batch ids.',
    security: portalSecurity,
    request: { query: PortalSubjectCheckListSchema },
    responses: {
      200: ok('A page; `meta.pagination` has page, limit, total and pages.', z.object({ subject_checks: z.array(PortalSubjectCheckSchema) })),
      ...errors({ 400: 'Invalid query (unknown parameter, page or limit out of range, unknown status).', 404: 'Subject checks are not available on this deployment.' }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/portal/subject-checks/{id}',
    tags: [TAG],
    summary: 'Portal: one S2 subject check (summary, status, tier scores, sources, monitoring)',
    security: portalSecurity,
    request: { params: PortalSubjectCheckParamsSchema },
    responses: {
      200: ok('The subject check.', z.object({ subject_check: PortalSubjectCheckDetailSchema })),
      ...errors({ 400: 'id is not a positive integer.', 404: 'No such subject check, or another account\'s.' }),
    },
  });

  // ---------------------------------------------------------------- auditor's event history
  const auditorOnly = 'The signed-in user\'s account role is not auditor.';
  registry.registerPath({
    method: 'get',
    path: `${PORTAL_AUDIT_BASE_PATH}/screenings/{id}/events`,
    tags: [TAG],
    summary: 'Portal (auditors): the event history of a screening, with its hash chain verified',
    security: portalSecurity,
    request: { params: z.object({ id: z.string().regex(/^[1-9][0-9]{0,15}$/).openapi({ description: 'Numeric screening id.' }) }) },
    responses: { 200: ok('The history.', PortalEventHistorySchema), ...errors({ 400: 'id is not a positive integer.', 403: auditorOnly, 404: 'No such stream of this account.' }) },
  });
  registry.registerPath({
    method: 'get',
    path: `${PORTAL_AUDIT_BASE_PATH}/streams/{stream}/events`,
    tags: [TAG],
    summary: 'Portal (auditors): the event history of any stream of the account',
    security: portalSecurity,
    request: { params: z.object({ stream: z.string().openapi({ description: 'A stream name, e.g. `screening-42`, `account-7`.', example: 'screening-42' }) }) },
    responses: { 200: ok('The history.', PortalEventHistorySchema), ...errors({ 403: auditorOnly, 404: 'No such stream of this account.' }) },
  });
}
