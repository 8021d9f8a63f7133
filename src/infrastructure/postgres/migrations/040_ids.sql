-- Numeric ids the API surfaces expose (S1 screening ids, key ids, account ids, S2 check ids).
-- Allocated by command handlers before deciding; a gap after a failed command is harmless.
CREATE SEQUENCE IF NOT EXISTS account_id_seq START 1001;
CREATE SEQUENCE IF NOT EXISTS user_id_seq START 1;
CREATE SEQUENCE IF NOT EXISTS api_key_id_seq START 1;
CREATE SEQUENCE IF NOT EXISTS screening_id_seq START 1;
CREATE SEQUENCE IF NOT EXISTS subject_check_id_seq START 1;

-- Last use of an API key: telemetry, not a business fact, so it is not an event.
CREATE TABLE IF NOT EXISTS api_key_last_use (
  key_id bigint PRIMARY KEY,
  last_used_at timestamptz NOT NULL
);
