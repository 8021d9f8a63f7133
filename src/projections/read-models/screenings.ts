import type pg from 'pg';
import type { ScreeningEvent } from '../../commands/screening';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/**
 * Screenings as the list and get endpoints read them (S1 numeric id, S3 uuid, both surfaces).
 * Detail records (hits with explanations, agent audit) are read from the stream itself.
 */
export const screeningsProjection: Projection = {
  name: 'screenings',
  // v2: the current phase is no longer kept here (the portal reads progress from the stream);
  // applying seven PhaseStarted per screening cost a transaction each.
  version: 2,
  handles: ['ScreeningRequested', 'ScreeningCompleted', 'ScreeningFailed', 'RiskRecomputed', 'MonitoringEnrolled', 'MonitoringUnenrolled'],
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
        summary text,
        analysis text,
        sow_screening_id text,
        monitoring boolean NOT NULL DEFAULT false,
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
    const event = recorded as unknown as ScreeningEvent & RecordedEvent;
    const position = recorded.streamPosition.toString();
    const update = (sets: string, values: unknown[]) =>
      client.query(
        `UPDATE ${s}.screenings SET ${sets}, stream_position = $2 WHERE screening_id = $1 AND stream_position < $2`,
        [event.data.screeningId, position, ...values],
      );
    switch (event.type) {
      case 'ScreeningRequested': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.screenings (screening_id, uuid, account_id, kind, surface, search_query, entity_type, jurisdiction,
             status, sow_screening_id, monitoring, created_at, stream_position)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,'running',$9,false,$10,$11) ON CONFLICT (screening_id) DO NOTHING`,
          [d.screeningId, d.uuid, d.accountId, d.kind, d.surface, d.subject.query, d.subject.entityType, d.subject.jurisdiction ?? null,
            d.sow?.sowScreeningId ?? null, d.requestedAt, position],
        );
        return;
      }
      case 'ScreeningCompleted': {
        const d = event.data;
        await update(
          `status = 'completed', risk_score = $3, risk_level = $4, sanctions_hits = $5, pep_hits = $6, adverse_media_hits = $7,
           offshore_leaks_hits = $8, debarment_hits = $9, summary = $10, analysis = $11, completed_at = $12, current_phase = NULL`,
          [d.riskScore, d.riskLevel, d.counts.sanctionsHits, d.counts.pepHits, d.counts.adverseMediaHits, d.counts.offshoreLeaksHits,
            d.counts.debarmentHits, d.summary ?? null, d.analysis ?? null, d.completedAt],
        );
        return;
      }
      case 'ScreeningFailed':
        await update(`status = 'failed', failure_reason = $3, completed_at = $4`, [event.data.reason, event.data.failedAt]);
        return;
      case 'RiskRecomputed':
        await update('risk_score = $3, risk_level = $4', [event.data.riskScore, event.data.riskLevel]);
        return;
      case 'MonitoringEnrolled':
        await update('monitoring = true', []);
        return;
      case 'MonitoringUnenrolled':
        await update('monitoring = false', []);
        return;
      default:
        return;
    }
  },
};
