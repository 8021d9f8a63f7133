-- Fixed-window rate and quota counters (src/app/limits.ts).
-- One row per (bucket, window): a consume is a single INSERT … ON CONFLICT DO UPDATE … WHERE count < limit,
-- so the row lock serialises concurrent consumers of the same bucket across every API instance and a
-- denied request leaves the count unchanged.
CREATE TABLE IF NOT EXISTS limit_counters (
  bucket        text        NOT NULL,
  window_start  timestamptz NOT NULL,
  window_end    timestamptz NOT NULL,
  count         integer     NOT NULL CHECK (count >= 0),
  PRIMARY KEY (bucket, window_start),
  CHECK (window_end > window_start)
);

-- Expired windows are purged by bucket when a new window opens, and in bulk by purgeExpired().
CREATE INDEX IF NOT EXISTS limit_counters_window_end_idx ON limit_counters (window_end);
