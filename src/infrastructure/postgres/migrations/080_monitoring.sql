-- Ongoing monitoring (engineer L): the list version each list was last monitored at. A list update
-- made by another process (`svc lists update`) or while the service was down is caught up from here:
-- the delta is computed between this version (kept by ListRegistry under its data dir) and the one in
-- service, and only that delta is matched against the enrolled subjects.
CREATE TABLE IF NOT EXISTS monitoring_list_versions (
  source        text        PRIMARY KEY,
  version_id    text        NOT NULL,
  monitored_at  timestamptz NOT NULL,
  alerts        integer     NOT NULL DEFAULT 0
);
