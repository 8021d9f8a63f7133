/** A batch job's row (table batch_jobs, migrations 131 and 220) and the view the S3 API answers with. */
import type { BatchInputFormat } from '../batch-screening/input';

export type BatchJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type BatchFile = 'results.csv' | 'results.jsonl' | 'errors.csv';
export const BATCH_FILES: readonly BatchFile[] = ['results.csv', 'results.jsonl', 'errors.csv'];
/** The states whose files can be downloaded (a cancelled job's: the rows up to its last checkpoint). */
export const BATCH_FILES_READY: readonly BatchJobStatus[] = ['completed', 'cancelled'];

export interface BatchJobView {
  id: string;
  status: BatchJobStatus;
  input_format: BatchInputFormat;
  threshold: number;
  input_bytes: number;
  /** Data rows in the upload, counted from its line breaks (a quoted line break makes it an estimate). */
  rows_estimated: number;
  progress: { rows_read: number; screened: number; flagged: number; rejected: number; names_per_second: number | null };
  /** Times the job was taken up again after its instance stopped or died (it continued from its checkpoint). */
  resumes: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface Row {
  job_id: string;
  account_id: string;
  status: BatchJobStatus;
  input_format: BatchInputFormat;
  threshold: number;
  input_bytes: string;
  input_sha256: string;
  rows_estimated: number;
  rows_read: number;
  screened: number;
  flagged: number;
  rejected: number;
  names_per_second: number | null;
  resumes: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  heartbeat_at: Date;
  owner: string | null;
  checkpoint_line: number;
  checkpoint_rows_read: number;
  checkpoint_screened: number;
  checkpoint_flagged: number;
  checkpoint_rejected: number;
  results_bytes: string | null;
  jsonl_bytes: string | null;
  errors_bytes: string | null;
}

export function view(row: Row): BatchJobView {
  return {
    id: row.job_id,
    status: row.status,
    input_format: row.input_format,
    threshold: Math.round(row.threshold * 1000) / 1000,
    input_bytes: Number(row.input_bytes),
    rows_estimated: row.rows_estimated,
    progress: {
      rows_read: row.rows_read,
      screened: row.screened,
      flagged: row.flagged,
      rejected: row.rejected,
      names_per_second: row.names_per_second === null ? null : Math.round(row.names_per_second),
    },
    resumes: row.resumes,
    error: row.error,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

