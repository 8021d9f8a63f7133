-- Event store (engineer A). global_position is drawn at insert time, so positions can commit out
-- of order; readers never skip one because they read only up to a horizon taken behind the append
-- fence (advisory locks, see src/infrastructure/eventstore/postgres/store.ts). Rolled-back appends
-- leave gaps in the numbers, never holes that fill in later.
CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream_name     text        NOT NULL,
  stream_position bigint      NOT NULL,
  event_id        text        NOT NULL,
  event_type      text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL,
  -- kept for audits of the ordering guarantee and for diagnosis
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT events_event_id_unique UNIQUE (event_id),
  CONSTRAINT events_stream_position_unique UNIQUE (stream_name, stream_position)
);

CREATE INDEX events_event_type_idx ON events (event_type, global_position);

-- One row per stream: its last revision and the hash chain head.
CREATE TABLE streams (
  stream_name          text   PRIMARY KEY,
  stream_position      bigint NOT NULL,
  last_hash            text   NOT NULL,
  last_global_position bigint NOT NULL
);
