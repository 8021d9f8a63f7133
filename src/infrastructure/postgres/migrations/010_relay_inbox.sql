-- Event relay and idempotent consumers (engineer B).

-- Where each relay (event store -> Kafka) has published up to: the global position of the last
-- event it published. Written only after the publish succeeded (at-least-once).
CREATE TABLE relay_checkpoints (
  relay_name text        PRIMARY KEY,
  position   bigint      NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Messages a consumer group has fully handled: the row is inserted in the same transaction as the
-- handler's own writes, so a redelivered message finds it and changes nothing.
CREATE TABLE inbox (
  consumer_group text        NOT NULL,
  message_id     text        NOT NULL,
  processed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer_group, message_id)
);

CREATE INDEX inbox_processed_at_idx ON inbox (processed_at);
