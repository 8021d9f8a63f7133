-- Projection runner (engineer A): one checkpoint per projection, written in the same
-- transaction as the read-model change it records.
CREATE TABLE projection_checkpoints (
  name       text        PRIMARY KEY,
  position   bigint      NOT NULL DEFAULT 0,
  version    integer     NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
