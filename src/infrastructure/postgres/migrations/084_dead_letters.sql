-- Dead letters of the embedded default (in-process bus): a message a consumer group gave up on
-- (src/infrastructure/bus/dead-letter.ts) is recorded here instead of an in-memory topic, so it
-- survives a restart and `svc deadletters list|replay` (another process) can see it. In Kafka mode
-- dead letters go to the svc.deadletter topic and this table stays empty.
-- headers: the dead letter's headers (the original message's own plus the x-dlq-* ones);
-- value: the original message's bytes, unchanged.
-- Replay is a request: the CLI sets replay_requested_at, the serving process (which owns the
-- in-process bus) republishes the row to its original topic, then clears the request, sets
-- replayed_at and counts replay_count (docs/operations.md).
CREATE TABLE dead_letters (
  id                  bigserial PRIMARY KEY,
  original_topic      text        NOT NULL,
  original_partition  integer     NOT NULL,
  original_offset     text        NOT NULL,
  original_key        text        NOT NULL,
  consumer_group      text        NOT NULL,
  attempts            integer     NOT NULL,
  error_name          text,
  error_message       text        NOT NULL,
  headers             jsonb       NOT NULL,
  value               bytea       NOT NULL,
  dead_lettered_at    timestamptz NOT NULL,
  replay_requested_at timestamptz,
  replayed_at         timestamptz,
  replay_count        integer     NOT NULL DEFAULT 0
);

CREATE INDEX dead_letters_dead_lettered_at ON dead_letters (dead_lettered_at, id);
-- The replayer's poll: only the (few) rows with an open request.
CREATE INDEX dead_letters_replay_requested ON dead_letters (replay_requested_at, id) WHERE replay_requested_at IS NOT NULL;
