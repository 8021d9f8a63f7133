-- Idempotency-Key records of create requests (src/api/http/idempotency.ts; Stripe's semantics).
-- scope: the surface, account and credential the key belongs to (a key is never shared across them).
-- request_hash: SHA-256 of method, path and the canonical JSON body; the same key with another hash is refused.
-- A row is first a reservation (response_status NULL, locked_until = the lease); the first 2xx answer
-- completes it (response_* set, locked_until NULL). A reservation whose lease passed (the process crashed
-- mid-request) is taken over by the next request with the key, so a crash never blocks a key for good.
-- expires_at = created_at + 24 h; expired rows are ignored and overwritten, and swept by `DELETE … WHERE expires_at <= now`.
CREATE TABLE idempotency_keys (
  scope            text        NOT NULL,
  idempotency_key  text        NOT NULL,
  request_hash     text        NOT NULL,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  locked_until     timestamptz,
  owner_token      text        NOT NULL,
  response_status  integer,
  response_headers jsonb,
  response_body    jsonb,
  PRIMARY KEY (scope, idempotency_key)
);

CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
