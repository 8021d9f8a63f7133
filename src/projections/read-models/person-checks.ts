import type pg from 'pg';
import type { PersonCheckEvent } from '../../commands/person-check';
import type { RecordedEvent } from '../../shared/events';
import { quoteIdent, type Projection } from '../projection';

/**
 * Person checks as the list endpoints read them (S1 GET /api/v1/person-checks, portal
 * GET /api/person-checks). One row per check; findings and the source audit trail are read from
 * the stream itself by the get endpoints. No identifier or date of birth is copied here.
 */
export const personChecksProjection: Projection = {
  name: 'person_checks',
  version: 1,
  handles: ['PersonCheckRequested', 'PersonCheckCompleted', 'PersonCheckFailed'],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.person_checks (
        person_check_id text PRIMARY KEY,
        account_id text NOT NULL,
        surface text NOT NULL,
        full_name text NOT NULL,
        purpose text NOT NULL,
        status text NOT NULL,
        result text,
        confidence text,
        risk_score integer,
        risk_level text,
        red_flag_count integer NOT NULL DEFAULT 0,
        warning_count integer NOT NULL DEFAULT 0,
        findings_count integer NOT NULL DEFAULT 0,
        sources_checked integer NOT NULL DEFAULT 0,
        sources_total integer NOT NULL DEFAULT 0,
        failure_reason text,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        global_position bigint NOT NULL,
        stream_position bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS person_checks_account ON ${s}.person_checks (account_id, created_at DESC, global_position DESC);`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const s = quoteIdent(schema);
    const event = recorded as unknown as PersonCheckEvent & RecordedEvent;
    const position = recorded.streamPosition.toString();
    switch (event.type) {
      case 'PersonCheckRequested': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.person_checks (person_check_id, account_id, surface, full_name, purpose, status, created_at, global_position, stream_position)
           VALUES ($1,$2,$3,$4,$5,'running',$6,$7,$8) ON CONFLICT (person_check_id) DO NOTHING`,
          [d.personCheckId, d.accountId, d.surface, d.fullName, d.purpose, d.requestedAt, recorded.globalPosition.toString(), position],
        );
        return;
      }
      case 'PersonCheckCompleted': {
        const d = event.data;
        await client.query(
          `UPDATE ${s}.person_checks SET status = 'completed', result = $3, confidence = $4, risk_score = $5, risk_level = $6,
             red_flag_count = $7, warning_count = $8, findings_count = $9, sources_checked = $10, sources_total = $11,
             completed_at = $12, stream_position = $2
           WHERE person_check_id = $1 AND stream_position < $2`,
          [d.personCheckId, position, d.result, d.confidence, d.riskScore, d.riskLevel, d.redFlagCount, d.warningCount, d.findingsCount, d.sourcesChecked, d.sourcesTotal, d.completedAt],
        );
        return;
      }
      case 'PersonCheckFailed':
        await client.query(
          `UPDATE ${s}.person_checks SET status = 'failed', failure_reason = $3, completed_at = $4, stream_position = $2
           WHERE person_check_id = $1 AND stream_position < $2`,
          [event.data.personCheckId, position, event.data.reason, event.data.failedAt],
        );
        return;
      default:
        return;
    }
  },
};
