-- Session tokens (src/app/sessions) are stateless HS256 JWTs; signing out must still end one at once,
-- so the token id (jti) of a signed-out session is kept here until the token would have expired anyway.
CREATE TABLE IF NOT EXISTS session_revocations (
  jti         text        PRIMARY KEY,
  audience    text        NOT NULL,
  revoked_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS session_revocations_expires_idx ON session_revocations (expires_at);

-- Numeric ids of S2/S3 webhook endpoint registrations (the id the registration answer returns).
CREATE SEQUENCE IF NOT EXISTS webhook_endpoint_id_seq START 1;
