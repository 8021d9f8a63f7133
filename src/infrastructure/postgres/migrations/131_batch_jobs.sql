-- Asynchronous batch screening jobs over HTTP (S3 POST /api/v1/batches; src/app/batch-jobs,
-- docs/batch-screening.md). The job's files (input, results, errors) live under DATA_DIR/batches/<id>/
-- on the instance that accepted it; this row is the job's durable state, read by every instance.
-- heartbeat_at: the accepting process refreshes it while the job is queued or running; a job whose
-- heartbeat stopped (the process died) is marked failed by whichever instance sees it, never left running.
CREATE TABLE batch_jobs (
  job_id           uuid        PRIMARY KEY,
  account_id       text        NOT NULL,
  key_id           text,
  status           text        NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  threshold        real        NOT NULL,
  input_bytes      bigint      NOT NULL,
  input_sha256     text        NOT NULL,
  rows_estimated   integer     NOT NULL,
  rows_read        integer     NOT NULL DEFAULT 0,
  screened         integer     NOT NULL DEFAULT 0,
  flagged          integer     NOT NULL DEFAULT 0,
  rejected         integer     NOT NULL DEFAULT 0,
  names_per_second real,
  error            text,
  created_at       timestamptz NOT NULL,
  started_at       timestamptz,
  finished_at      timestamptz,
  heartbeat_at     timestamptz NOT NULL
);

CREATE INDEX batch_jobs_account ON batch_jobs (account_id, created_at DESC);
CREATE INDEX batch_jobs_unfinished ON batch_jobs (heartbeat_at) WHERE status IN ('queued', 'running');
