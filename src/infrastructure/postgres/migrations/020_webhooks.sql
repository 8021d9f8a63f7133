-- Webhook delivery: endpoints, a transactional outbox and a log of every attempt.
-- All timestamps are written from the application's injected clock, never now(), so that
-- retry schedules can be driven by a manual clock in tests.

CREATE TABLE webhook_endpoints (
  id                   bigserial PRIMARY KEY,
  account_id           text        NOT NULL,
  surface              text        NOT NULL CHECK (surface IN ('s1', 's2', 's3')),
  -- S1 configures the webhook with an API key; S2 and S3 have one endpoint per account ('').
  key_id               text        NOT NULL DEFAULT '',
  url                  text        NOT NULL,
  -- AES-256-GCM sealed signing secret (src/webhooks/secrets.ts); never stored or logged in clear.
  secret_ciphertext    text        NOT NULL,
  enabled              boolean     NOT NULL DEFAULT true,
  consecutive_failures integer     NOT NULL DEFAULT 0,
  disabled_at          timestamptz NULL,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  UNIQUE (surface, account_id, key_id)
);

CREATE TABLE webhook_outbox (
  delivery_id      uuid        PRIMARY KEY,
  endpoint_id      bigint      NOT NULL REFERENCES webhook_endpoints (id),
  account_id       text        NOT NULL,
  surface          text        NOT NULL CHECK (surface IN ('s1', 's2', 's3')),
  event_type       text        NOT NULL,
  -- Exact body bytes (S1: the unsigned body; the signature member is added per attempt).
  body             bytea       NOT NULL,
  -- Idempotency key of the producer (e.g. source event id): a replayed projection enqueues nothing twice.
  dedup_key        text        NULL UNIQUE,
  -- subject_check_id / screening id the payload is about, for the delivery log filters.
  subject_ref      text        NULL,
  status           text        NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed', 'dropped')),
  attempt_count    integer     NOT NULL DEFAULT 0,
  max_attempts     integer     NOT NULL,
  next_attempt_at  timestamptz NULL,
  -- Lease of the dispatcher that claimed the row; an expired lease makes the row claimable again.
  locked_until     timestamptz NULL,
  last_status_code integer     NULL,
  last_error       text        NULL,
  -- Delivery this one re-sends (S2 manual retry-now).
  retry_of         uuid        NULL REFERENCES webhook_outbox (delivery_id),
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  finished_at      timestamptz NULL
);

CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_outbox_leased ON webhook_outbox (locked_until) WHERE status = 'delivering';
CREATE INDEX webhook_outbox_by_account ON webhook_outbox (account_id, surface, created_at DESC);
CREATE INDEX webhook_outbox_by_endpoint ON webhook_outbox (endpoint_id, status);

CREATE TABLE webhook_attempts (
  delivery_id      uuid        NOT NULL REFERENCES webhook_outbox (delivery_id),
  attempt_number   integer     NOT NULL,
  started_at       timestamptz NOT NULL,
  finished_at      timestamptz NULL,
  duration_ms      integer     NULL,
  status_code      integer     NULL,
  error            text        NULL,
  outcome          text        NOT NULL CHECK (outcome IN ('in_flight', 'succeeded', 'retryable', 'terminal', 'interrupted')),
  -- Headers as sent (no secrets: the signature is not secret); S1 bodies differ per attempt only by
  -- their signature member, which equals the X-Service-Signature header recorded here.
  request_headers  jsonb       NOT NULL DEFAULT '{}'::jsonb,
  response_snippet text        NULL,
  PRIMARY KEY (delivery_id, attempt_number)
);
