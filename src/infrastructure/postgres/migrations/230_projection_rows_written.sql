-- A read model that sends its last write in the round trip that commits its read batch
-- (src/projections/projection.ts, CommitRoundTrip) cannot look at what the write answered before the
-- COMMIT: the write checks itself. projection_rows_written raises serialization_failure (40001, which
-- the projection runner retries) when fewer rows were written than meant, e.g. a row another writer
-- moved meanwhile: the whole batch rolls back and is applied again, reading those rows afresh.
CREATE OR REPLACE FUNCTION projection_rows_written(meant bigint, written bigint, what text) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
  IF written IS DISTINCT FROM meant THEN
    RAISE EXCEPTION '% rows changed while being written (% of % written)', what, written, meant
      USING ERRCODE = 'serialization_failure';
  END IF;
  RETURN written;
END
$$;
