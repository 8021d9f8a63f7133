import type pg from 'pg';
import type { HitCategory, ScreeningEvent } from '../../commands/screening';
import type { RecordedEvent } from '../../shared/events';
import { columnsOf, firstPerKey, piecesOf } from '../batching';
import { quoteIdent, type Projection } from '../projection';

type Recorded = ScreeningEvent & RecordedEvent;

/** The column counting each category's hits (as ScreeningCompleted's counts fill them). */
const HIT_COUNT_COLUMNS: Record<HitCategory, string> = {
  sanctions: 'sanctions_hits',
  pep: 'pep_hits',
  adverse_media: 'adverse_media_hits',
  offshore_leaks: 'offshore_leaks_hits',
  debarment: 'debarment_hits',
};

const screeningOf = (event: RecordedEvent): string => (event.data as { screeningId: string }).screeningId;

/** New screenings, one statement for any number of requests; a screening already there is left as it is. */
async function insertRequests(client: pg.PoolClient, s: string, requests: readonly Extract<Recorded, { type: 'ScreeningRequested' }>[]): Promise<void> {
  if (requests.length === 0) return;
  const rows = requests.map((event) => {
    const d = event.data;
    return [d.screeningId, d.uuid, d.accountId, d.kind, d.surface, d.subject.query, d.subject.entityType, d.subject.jurisdiction ?? null,
      d.sow?.sowScreeningId ?? null, d.requestedAt, event.streamPosition.toString()];
  });
  await client.query(
    `INSERT INTO ${s}.screenings (screening_id, uuid, account_id, kind, surface, search_query, entity_type, jurisdiction,
       status, sow_screening_id, monitoring, created_at, stream_position)
     SELECT r.screening_id, r.uuid, r.account_id, r.kind, r.surface, r.search_query, r.entity_type, r.jurisdiction,
       'running', r.sow_screening_id, false, r.created_at, r.stream_position
       FROM unnest($1::bigint[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::timestamptz[], $11::bigint[])
         AS r(screening_id, uuid, account_id, kind, surface, search_query, entity_type, jurisdiction, sow_screening_id, created_at, stream_position)
     ON CONFLICT (screening_id) DO NOTHING`,
    columnsOf(rows, 11),
  );
}

/**
 * Completions of distinct screenings in one statement, each only over an older row (the stream
 * position guard every update of this read model has).
 */
async function updateCompletions(client: pg.PoolClient, s: string, completions: readonly Extract<Recorded, { type: 'ScreeningCompleted' }>[]): Promise<void> {
  const rows = completions.map((event) => {
    const d = event.data;
    return [d.screeningId, event.streamPosition.toString(), d.riskScore, d.riskLevel, d.counts.sanctionsHits, d.counts.pepHits,
      d.counts.adverseMediaHits, d.counts.offshoreLeaksHits, d.counts.debarmentHits, d.summary ?? null, d.analysis ?? null, d.completedAt,
      // As JSON text: one array per screening, which a two-dimensional SQL array cannot hold (lengths differ).
      JSON.stringify(d.hits.map((h) => h.hitId))];
  });
  await client.query(
    `UPDATE ${s}.screenings t SET status = 'completed', risk_score = c.risk_score, risk_level = c.risk_level,
       sanctions_hits = c.sanctions_hits, pep_hits = c.pep_hits, adverse_media_hits = c.adverse_media_hits,
       offshore_leaks_hits = c.offshore_leaks_hits, debarment_hits = c.debarment_hits, summary = c.summary, analysis = c.analysis,
       completed_at = c.completed_at, current_phase = NULL, stream_position = c.stream_position,
       hit_ids = ARRAY(SELECT json_array_elements_text(c.hit_ids::json))
     FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::text[], $5::integer[], $6::integer[], $7::integer[], $8::integer[],
                 $9::integer[], $10::text[], $11::text[], $12::timestamptz[], $13::text[])
       AS c(screening_id, stream_position, risk_score, risk_level, sanctions_hits, pep_hits, adverse_media_hits,
            offshore_leaks_hits, debarment_hits, summary, analysis, completed_at, hit_ids)
     WHERE t.screening_id = c.screening_id AND t.stream_position < c.stream_position`,
    columnsOf(rows, 13),
  );
}

/**
 * Whether the batch's ScreeningRequested may all be inserted before its other events: yes unless an
 * event of a screening comes before that screening's first request in the batch (never in global
 * order, where the request opens its stream; then the batch is applied one by one).
 */
function requestsMayGoFirst(events: readonly RecordedEvent[]): boolean {
  const requested = new Set<string>();
  const touched = new Set<string>();
  for (const event of events) {
    const screening = screeningOf(event);
    if (event.type !== 'ScreeningRequested') touched.add(screening);
    else if (!requested.has(screening) && touched.has(screening)) return false;
    else requested.add(screening);
  }
  return true;
}

/**
 * Screenings as the list and get endpoints read them (S1 numeric id, S3 uuid, both surfaces).
 * Detail records (hits with explanations, agent audit) are read from the stream itself.
 */
export const screeningsProjection: Projection = {
  name: 'screenings',
  // v2: the current phase is no longer kept here (the portal reads progress from the stream);
  // applying seven PhaseStarted per screening cost a transaction each.
  // v3: the case's assignee (CaseAssigned / CaseUnassigned), for the work queue's assignee filter.
  // v4: the per-category hit counts follow monitoring alerts (a new hit counts, a removed one no longer), as the
  // detail's do; hit_ids keeps what they count.
  version: 4,
  handles: [
    'ScreeningRequested',
    'ScreeningCompleted',
    'ScreeningFailed',
    'RiskRecomputed',
    'CaseAssigned',
    'CaseUnassigned',
    'MonitoringEnrolled',
    'MonitoringUnenrolled',
    'MonitoringAlertRaised',
  ],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.screenings (
        screening_id bigint PRIMARY KEY,
        uuid uuid NOT NULL UNIQUE,
        account_id bigint NOT NULL,
        kind text NOT NULL,
        surface text NOT NULL,
        search_query text NOT NULL,
        entity_type text NOT NULL,
        jurisdiction text,
        status text NOT NULL,
        current_phase text,
        risk_score integer,
        risk_level text,
        sanctions_hits integer NOT NULL DEFAULT 0,
        pep_hits integer NOT NULL DEFAULT 0,
        adverse_media_hits integer NOT NULL DEFAULT 0,
        offshore_leaks_hits integer NOT NULL DEFAULT 0,
        debarment_hits integer NOT NULL DEFAULT 0,
        -- The ids of the hits those counts count (ScreeningCompleted's, then monitoring's): an alert counts
        -- a hit once however often it is replayed or re-raised, as the report's fold does.
        hit_ids text[] NOT NULL DEFAULT '{}',
        summary text,
        analysis text,
        sow_screening_id text,
        monitoring boolean NOT NULL DEFAULT false,
        assignee_user_id text,
        assigned_at timestamptz,
        failure_reason text,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        stream_position bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS screenings_account ON ${s}.screenings (account_id, screening_id DESC);
      CREATE INDEX IF NOT EXISTS screenings_running ON ${s}.screenings (status) WHERE status = 'running';`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const s = quoteIdent(schema);
    const event = recorded as unknown as Recorded;
    const position = recorded.streamPosition.toString();
    const update = (sets: string, values: unknown[]) =>
      client.query(
        `UPDATE ${s}.screenings SET ${sets}, stream_position = $2 WHERE screening_id = $1 AND stream_position < $2`,
        [event.data.screeningId, position, ...values],
      );
    switch (event.type) {
      case 'ScreeningRequested':
        await insertRequests(client, s, [event]);
        return;
      case 'ScreeningCompleted':
        await updateCompletions(client, s, [event]);
        return;
      case 'ScreeningFailed':
        await update(`status = 'failed', failure_reason = $3, completed_at = $4`, [event.data.reason, event.data.failedAt]);
        return;
      case 'RiskRecomputed':
        // The summary as the hits stand after the decision or alert (issue 31 item 3); an event
        // recorded before re-scores carried it has none, and the last recorded summary stays.
        await update('risk_score = $3, risk_level = $4, summary = COALESCE($5, summary)', [event.data.riskScore, event.data.riskLevel, event.data.summary ?? null]);
        return;
      case 'CaseAssigned':
        await update('assignee_user_id = $3, assigned_at = $4', [event.data.assigneeUserId, event.data.assignedAt]);
        return;
      case 'CaseUnassigned':
        await update('assignee_user_id = NULL, assigned_at = NULL', []);
        return;
      case 'MonitoringEnrolled':
        await update('monitoring = true', []);
        return;
      case 'MonitoringUnenrolled':
        await update('monitoring = false', []);
        return;
      case 'MonitoringAlertRaised': {
        // The report's count of a category follows the alert (screening-report.ts): a hit it does not show
        // yet is added (a new hit), a removed one leaves; a hit it shows already counts once.
        const d = event.data;
        const column = HIT_COUNT_COLUMNS[d.category];
        if (!column) return;
        await update(
          d.kind === 'removed_hit'
            ? `${column} = GREATEST(0, ${column} - CASE WHEN $3 = ANY(hit_ids) THEN 1 ELSE 0 END), hit_ids = array_remove(hit_ids, $3)`
            : `${column} = ${column} + CASE WHEN $3 = ANY(hit_ids) THEN 0 ELSE 1 END,
               hit_ids = CASE WHEN $3 = ANY(hit_ids) THEN hit_ids ELSE array_append(hit_ids, $3) END`,
          [d.hitId],
        );
        return;
      }
      default:
        return;
    }
  },
  /**
   * A read batch in a few statements: every request in one insert (a request opens its stream, so it
   * may go first), then each run of completions of distinct screenings in one update; any other
   * event through apply(), in order.
   */
  async applyBatch(client, events, schema) {
    if (!requestsMayGoFirst(events)) {
      for (const event of events) await screeningsProjection.apply(client, event, schema);
      return;
    }
    const s = quoteIdent(schema);
    // A later request for the same screening finds the row the first one inserted: a no-op.
    const requests = firstPerKey(events.filter((event) => event.type === 'ScreeningRequested'), screeningOf);
    await insertRequests(client, s, requests as Extract<Recorded, { type: 'ScreeningRequested' }>[]);
    const rest = events.filter((event) => event.type !== 'ScreeningRequested');
    for (const piece of piecesOf(rest, 'ScreeningCompleted', screeningOf)) {
      if ('alone' in piece) await screeningsProjection.apply(client, piece.alone, schema);
      else await updateCompletions(client, s, piece.together as Extract<Recorded, { type: 'ScreeningCompleted' }>[]);
    }
  },
};
