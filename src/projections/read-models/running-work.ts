/**
 * Queries of the read models for work still running (the supervisor's candidates, see
 * src/agents/orchestrator/supervisor.ts): each answers ids of items the read model shows running
 * and started at or before a time, oldest first. The read model may lag the store; the supervisor
 * reads each item's stream before acting.
 */
import type pg from 'pg';
import { projectionSchema, quoteIdent } from '../projection';

export type RunningWorkQuery = (startedBefore: Date, limit: number) => Promise<string[]>;

function query(pool: pg.Pool, sql: string): RunningWorkQuery {
  return async (startedBefore, limit) => {
    const result = await pool.query<{ id: string }>(sql, [startedBefore.toISOString(), limit]);
    return result.rows.map((r) => r.id);
  };
}

export function runningWorkQueries(pool: pg.Pool): { screenings: RunningWorkQuery; personChecks: RunningWorkQuery; subjectChecks: RunningWorkQuery } {
  const screenings = quoteIdent(projectionSchema('screenings'));
  const personChecks = quoteIdent(projectionSchema('person_checks'));
  const subjectChecks = quoteIdent(projectionSchema('subject_checks'));
  return {
    screenings: query(pool, `SELECT screening_id::text AS id FROM ${screenings}.screenings WHERE status = 'running' AND created_at <= $1 ORDER BY created_at LIMIT $2`),
    personChecks: query(pool, `SELECT person_check_id::text AS id FROM ${personChecks}.person_checks WHERE status = 'running' AND created_at <= $1 ORDER BY created_at LIMIT $2`),
    subjectChecks: query(pool, `SELECT subject_check_id::text AS id FROM ${subjectChecks}.subject_checks WHERE status = 'running' AND processing_at <= $1 ORDER BY processing_at LIMIT $2`),
  };
}
