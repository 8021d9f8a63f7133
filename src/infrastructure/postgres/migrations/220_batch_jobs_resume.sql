-- S3 batch jobs resume after a restart, take JSON lines, and can be cancelled (src/app/batch-jobs,
-- docs/batch-screening.md "Durable state").
-- owner: the service instance holding the job's lease (NULL: released, free for any instance to claim).
-- checkpoint_*: the last point up to which every output file is complete and durable: every input row
-- starting at or before checkpoint_line is in results.csv / errors.csv (and results.jsonl), whose first
-- *_bytes bytes are exactly those rows; the counters at that point. A resumed job truncates its files
-- to these sizes and continues after checkpoint_line; downloads are cut at these sizes.
-- Rows from before this migration have NULL sizes: they cannot resume and are failed as interrupted.
ALTER TABLE batch_jobs DROP CONSTRAINT batch_jobs_status_check;
ALTER TABLE batch_jobs ADD CONSTRAINT batch_jobs_status_check CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled'));
ALTER TABLE batch_jobs
  ADD COLUMN input_format          text    NOT NULL DEFAULT 'csv' CHECK (input_format IN ('csv', 'jsonl')),
  ADD COLUMN owner                 text,
  ADD COLUMN resumes               integer NOT NULL DEFAULT 0,
  ADD COLUMN checkpoint_line       integer NOT NULL DEFAULT 0,
  ADD COLUMN checkpoint_rows_read  integer NOT NULL DEFAULT 0,
  ADD COLUMN checkpoint_screened   integer NOT NULL DEFAULT 0,
  ADD COLUMN checkpoint_flagged    integer NOT NULL DEFAULT 0,
  ADD COLUMN checkpoint_rejected   integer NOT NULL DEFAULT 0,
  ADD COLUMN results_bytes         bigint,
  ADD COLUMN jsonl_bytes           bigint,
  ADD COLUMN errors_bytes          bigint;
