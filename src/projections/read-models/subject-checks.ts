import type pg from 'pg';
import { subjectCheckEventTypes, type SubjectCheckEvent } from '../../commands/subject-check';
import { assertNever, type RecordedEvent } from '../../shared/events';
import { alertAssessmentView, findingsOf, MalformedAgentResult, riskOfFindings, unsearchedSources, type Finding } from '../../commands/subject-check/assessment';
import { quoteIdent, type Projection } from '../projection';

/**
 * S2 subject checks for reading and listing (GET /api/v1/compliance/subject-checks[/:id]): one row per
 * check with its lifecycle fields, the subject, every source's outcome and its findings, whether it is
 * monitored and the alerts monitoring raised. A row changes only for an event with a newer stream
 * position than the one stored, so re-applying is harmless.
 */
export const subjectChecksProjection: Projection = {
  name: 'subject_checks',
  // 3: each monitoring alert shows the assessment on the check's facts and the level it gives (issue 27).
  version: 3,
  // Every event of a subject check.
  handles: [...subjectCheckEventTypes],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.subject_checks (
        subject_check_id bigint PRIMARY KEY,
        account_id bigint NOT NULL,
        status text NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        middle_name text,
        date_of_birth text,
        locations jsonb NOT NULL,
        purpose text NOT NULL,
        consent_statement text,
        consent_certified_at timestamptz NOT NULL,
        batch_id text,
        key_id text,
        overall_result text,
        confidence_level text,
        findings_count integer,
        red_flag_count integer,
        warning_count integer,
        sources_searched integer,
        sources_total integer,
        review_reason text,
        investigation_id text,
        triggering_tiers jsonb,
        tier_scores jsonb,
        requested_scope text,
        priority text,
        investigation_created_at timestamptz,
        sla_due_at timestamptz,
        error_message text,
        resolved_by text,
        sources jsonb NOT NULL DEFAULT '[]'::jsonb,
        findings jsonb NOT NULL DEFAULT '[]'::jsonb,
        decisions jsonb NOT NULL DEFAULT '[]'::jsonb,
        monitoring boolean NOT NULL DEFAULT false,
        monitoring_alerts jsonb NOT NULL DEFAULT '[]'::jsonb,
        processing_at timestamptz NOT NULL,
        review_required_at timestamptz,
        escalated_at timestamptz,
        completed_at timestamptz,
        failed_at timestamptz,
        updated_at timestamptz NOT NULL,
        stream_position bigint NOT NULL
      );
      -- Risk from the shared scorer over the findings recorded so far (src/app/subject-checks/assessment.ts).
      ALTER TABLE ${s}.subject_checks ADD COLUMN IF NOT EXISTS risk_score integer;
      ALTER TABLE ${s}.subject_checks ADD COLUMN IF NOT EXISTS risk_level text;
      ALTER TABLE ${s}.subject_checks ADD COLUMN IF NOT EXISTS risk_reason text;
      CREATE INDEX IF NOT EXISTS subject_checks_account ON ${s}.subject_checks (account_id, subject_check_id DESC);
      CREATE INDEX IF NOT EXISTS subject_checks_batch ON ${s}.subject_checks (account_id, batch_id) WHERE batch_id IS NOT NULL;`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const s = quoteIdent(schema);
    const event = recorded as unknown as SubjectCheckEvent & RecordedEvent;
    const position = recorded.streamPosition.toString();
    const at = recorded.metadata.occurredAt;
    /** Updates the check's row when this event is newer than what the row reflects. */
    const update = async (sets: string, values: unknown[]) => {
      await client.query(
        `UPDATE ${s}.subject_checks SET ${sets}, updated_at = $2, stream_position = $3 WHERE subject_check_id = $1 AND stream_position < $3`,
        [event.data.subjectCheckId, at, position, ...values],
      );
    };
    /**
     * Re-score from the findings and sources columns alone, so replays give the same row. A sanctions
     * source that was not searched keeps the level at least high (issue 27 §4); one that has not
     * answered yet counts only once the check has concluded.
     */
    const rescore = async (concluded: boolean) => {
      const { rows } = await client.query<{ findings: Finding[]; sources: { agent: string; queried: boolean; error: string | null }[] }>(
        `SELECT findings, sources FROM ${s}.subject_checks WHERE subject_check_id = $1`,
        [event.data.subjectCheckId],
      );
      if (!rows[0]) return;
      const sources = rows[0].sources.map((x) => ({ agent: x.agent, queried: x.queried, ...(x.error ? { error: x.error } : {}) }));
      const risk = riskOfFindings(rows[0].findings, unsearchedSources(sources, concluded));
      await client.query(`UPDATE ${s}.subject_checks SET risk_score = $2, risk_level = $3, risk_reason = $4 WHERE subject_check_id = $1`, [
        event.data.subjectCheckId,
        risk.riskScore,
        risk.riskLevel,
        risk.reason,
      ]);
    };
    switch (event.type) {
      case 'SubjectCheckStarted': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.subject_checks (subject_check_id, account_id, status, first_name, last_name, middle_name, date_of_birth,
             locations, purpose, consent_statement, consent_certified_at, batch_id, key_id, processing_at, updated_at, stream_position)
           VALUES ($1,$2,'running',$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$13,$14) ON CONFLICT (subject_check_id) DO NOTHING`,
          [
            d.subjectCheckId,
            d.accountId,
            d.firstName,
            d.lastName,
            d.middleName ?? null,
            d.dateOfBirth ?? null,
            JSON.stringify(d.locations),
            d.purpose,
            d.consent.statement ?? null,
            d.consent.certifiedAt,
            d.batchId ?? null,
            recorded.metadata.actor?.keyId ?? null,
            d.processingAt,
            position,
          ],
        );
        return;
      }
      case 'SubjectCheckAgentResultRecorded': {
        const d = event.data;
        let findings: ReturnType<typeof findingsOf> = [];
        let malformed: string | undefined;
        try {
          findings = findingsOf(d);
        } catch (error) {
          if (!(error instanceof MalformedAgentResult)) throw error;
          malformed = error.message;
        }
        const source = {
          agent: d.agent,
          tier: d.tier ?? d.agent,
          queried: d.queried,
          error: d.error ?? malformed ?? null,
          hits: findings.length,
          started_at: d.startedAt,
          finished_at: d.finishedAt,
        };
        await update(`sources = sources || $4::jsonb, findings = findings || $5::jsonb`, [JSON.stringify([source]), JSON.stringify(findings)]);
        await rescore(false);
        return;
      }
      case 'SubjectCheckReviewRequired': {
        const d = event.data;
        await update(
          `status = 'needs_review', overall_result = $4, confidence_level = $5, findings_count = $6, red_flag_count = $7, warning_count = $8,
           sources_searched = $9, sources_total = $10, review_reason = $11, tier_scores = $12, review_required_at = $13`,
          [d.overallResult, d.confidenceLevel, d.findingsCount, d.redFlagCount, d.warningCount, d.sourcesSearched, d.sourcesTotal, d.reviewReason,
            JSON.stringify(d.tierScores), d.reviewRequiredAt],
        );
        await rescore(true);
        return;
      }
      case 'SubjectCheckEscalated': {
        const d = event.data;
        await update(
          `status = 'escalated', investigation_id = $4, triggering_tiers = $5, tier_scores = $6, requested_scope = $7, priority = $8,
           escalated_at = $9, investigation_created_at = $10, sla_due_at = $11,
           -- Counts are facts of the recorded results; a review's escalation keeps those of its conclusion.
           findings_count = COALESCE(findings_count, jsonb_array_length(findings)),
           red_flag_count = COALESCE(red_flag_count, (SELECT count(*)::int FROM jsonb_array_elements(findings) f WHERE f->>'severity' = 'red_flag')),
           warning_count = COALESCE(warning_count, (SELECT count(*)::int FROM jsonb_array_elements(findings) f WHERE f->>'severity' = 'warning')),
           sources_searched = COALESCE(sources_searched, (SELECT count(*)::int FROM jsonb_array_elements(sources) x WHERE (x->>'queried')::boolean)),
           sources_total = COALESCE(sources_total, jsonb_array_length(sources))`,
          [d.investigationId, JSON.stringify(d.triggeringTiers), JSON.stringify(d.tierScores), d.requestedScope, d.priority, d.escalatedAt,
            d.investigationCreatedAt ?? null, d.slaDueAt ?? null],
        );
        await rescore(true);
        return;
      }
      case 'SubjectCheckCompleted': {
        const d = event.data;
        await update(
          `status = 'completed', overall_result = $4, confidence_level = $5, findings_count = $6, red_flag_count = $7, warning_count = $8,
           sources_searched = $9, sources_total = $10, resolved_by = $11, completed_at = $12`,
          [d.overallResult, d.confidenceLevel, d.findingsCount, d.redFlagCount, d.warningCount, d.sourcesSearched, d.sourcesTotal,
            d.resolvedBy ?? 'automatic', d.completedAt],
        );
        await rescore(true);
        return;
      }
      case 'SubjectCheckFailed':
        await update(`status = 'failed', error_message = $4, failed_at = $5`, [event.data.errorMessage, event.data.failedAt]);
        return;
      case 'SubjectCheckReviewResolved': {
        const d = event.data;
        const decision = { kind: 'review', outcome: d.outcome, reviewer: d.reviewer, note: d.note, review_reason: d.reviewReason, at: d.resolvedAt };
        await update(`decisions = decisions || $4::jsonb`, [JSON.stringify([decision])]);
        return;
      }
      case 'SubjectCheckInvestigationClosed': {
        const d = event.data;
        const decision = { kind: 'investigation', outcome: d.outcome, reviewer: d.reviewer, note: d.note, investigation_id: d.investigationId, at: d.closedAt };
        await update(`decisions = decisions || $4::jsonb`, [JSON.stringify([decision])]);
        return;
      }
      case 'SubjectCheckMonitoringEnrolled':
        await update(`monitoring = true`, []);
        return;
      case 'SubjectCheckMonitoringUnenrolled':
        await update(`monitoring = false`, []);
        return;
      case 'SubjectCheckMonitoringAlertRaised': {
        const d = event.data;
        const alert = {
          alert_id: d.alertId,
          kind: d.kind,
          entity_id: d.entityId,
          tier: d.tier,
          list: d.source,
          matched_name: d.matchedName,
          score: Math.round(d.score * 1000) / 1000,
          list_version: d.listVersion,
          changes: d.diff,
          detected_at: d.raisedAt,
          ...alertAssessmentView(d),
        };
        await update(`monitoring_alerts = monitoring_alerts || $4::jsonb`, [JSON.stringify([alert])]);
        return;
      }
      default:
        return assertNever(event, 'subject check event');
    }
  },
};

