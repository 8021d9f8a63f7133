-- Process managers that follow the event store (e.g. watchlist monitoring, issue 21): how far each
-- has handled the global log. Written after the handled events' effects, which are idempotent
-- (alert ids), so a crash between the two replays the events and records nothing twice.
CREATE TABLE IF NOT EXISTS process_checkpoints (
  name       text        PRIMARY KEY,
  position   bigint      NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
