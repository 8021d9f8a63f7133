-- A streamed request body (an internal-list import) is not in request_hash, which is computed before
-- the body is read: its SHA-256, computed while the route streams it, is stored with the answer. A
-- retry under the same key is replayed only if its own body hashes the same (else 422).
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS content_hash text;
