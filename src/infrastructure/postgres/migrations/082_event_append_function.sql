-- One round trip per append (was eight: BEGIN, locks, head, ids, insert, head update, notify, COMMIT).
-- The client chains the hashes from the stream head it believes current (its cache, or genesis for a
-- new stream) and calls es_append; the function takes the same locks the old path took, then checks
-- that belief against the `streams` row. If the head moved, nothing is written and the real head comes
-- back ('head_moved'): the client checks the expected revision against it, re-chains and calls again.
-- Each statement of a VOLATILE plpgsql function takes a fresh snapshot (READ COMMITTED), so the head
-- and id reads below see everything committed before the stream lock was granted.
CREATE OR REPLACE FUNCTION es_append(
  p_stream          text,
  p_assumed_revision bigint,   -- NULL: the caller believes the stream does not exist
  p_assumed_hash    text,
  p_event_ids       text[],
  p_event_types     text[],
  p_data            jsonb[],
  p_metadata        jsonb[],
  p_last_hash       text
) RETURNS TABLE (
  outcome              text,     -- 'written' | 'existing' | 'head_moved'
  stream_position      bigint,   -- head after the call (NULL: no stream)
  last_hash            text,
  last_global_position bigint,
  existing_ids         text[],   -- 'existing': ids found, with their streams
  existing_streams     text[]
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  current_row streams%ROWTYPE;
  found_ids text[];
  found_streams text[];
  found_max bigint;
  first_position bigint;
  inserted_max bigint;
BEGIN
  -- The append fence (shared) before any position is drawn, then this stream (see store.ts).
  PERFORM pg_advisory_xact_lock_shared(727100, 0), pg_advisory_xact_lock(727101, hashtext(p_stream));

  SELECT * INTO current_row FROM streams s WHERE s.stream_name = p_stream;

  IF cardinality(p_event_ids) > 0 THEN
    SELECT array_agg(e.event_id), array_agg(e.stream_name), max(e.global_position)
      INTO found_ids, found_streams, found_max
      FROM events e WHERE e.event_id = ANY(p_event_ids);
    IF found_ids IS NOT NULL THEN
      RETURN QUERY SELECT 'existing'::text, current_row.stream_position, current_row.last_hash,
                          found_max, found_ids, found_streams;
      RETURN;
    END IF;
  END IF;

  IF current_row.stream_name IS NULL THEN
    IF p_assumed_revision IS NOT NULL THEN
      RETURN QUERY SELECT 'head_moved'::text, NULL::bigint, NULL::text, NULL::bigint, NULL::text[], NULL::text[];
      RETURN;
    END IF;
  ELSIF p_assumed_revision IS DISTINCT FROM current_row.stream_position OR p_assumed_hash IS DISTINCT FROM current_row.last_hash THEN
    RETURN QUERY SELECT 'head_moved'::text, current_row.stream_position, current_row.last_hash,
                        current_row.last_global_position, NULL::text[], NULL::text[];
    RETURN;
  END IF;

  IF cardinality(p_event_ids) = 0 THEN
    RETURN QUERY SELECT 'written'::text, current_row.stream_position, current_row.last_hash,
                        current_row.last_global_position, NULL::text[], NULL::text[];
    RETURN;
  END IF;

  first_position := coalesce(current_row.stream_position + 1, 0);
  WITH inserted AS (
    INSERT INTO events (stream_name, stream_position, event_id, event_type, data, metadata)
    SELECT p_stream, first_position + e.ord - 1, e.event_id, e.event_type, e.data, e.metadata
      FROM unnest(p_event_ids, p_event_types, p_data, p_metadata)
           WITH ORDINALITY AS e(event_id, event_type, data, metadata, ord)
     ORDER BY e.ord
    RETURNING global_position
  )
  SELECT max(global_position) INTO inserted_max FROM inserted;

  INSERT INTO streams AS s (stream_name, stream_position, last_hash, last_global_position)
  VALUES (p_stream, first_position + cardinality(p_event_ids) - 1, p_last_hash, inserted_max)
  ON CONFLICT (stream_name) DO UPDATE
    SET stream_position = EXCLUDED.stream_position, last_hash = EXCLUDED.last_hash,
        last_global_position = EXCLUDED.last_global_position;

  -- Delivered at commit only; subscribers treat it as a wake-up, never as data.
  PERFORM pg_notify('svc_events_appended', inserted_max::text);

  RETURN QUERY SELECT 'written'::text, first_position + cardinality(p_event_ids) - 1, p_last_hash,
                      inserted_max, NULL::text[], NULL::text[];
END
$$;
