-- Several streams' appends in one round trip (and one transaction): the store batches the appends
-- its callers make at the same time (see PostgresEventStore.flushAppends). Each stream's append is
-- es_append itself (migration 082: same locks, checks, outcomes and NOTIFY), run in order; the client
-- sorts the streams by name, so two batches lock their streams in the same order. Each stream's append
-- is its own subtransaction: an event id committed meanwhile by another writer (unique_violation)
-- undoes only that stream's append, reported as 'id_conflict', and the others still commit.
-- The events of all streams travel flattened (p_counts[i] events for p_streams[i], in order), their
-- data and metadata as one JSON array each (as in 085).
CREATE OR REPLACE FUNCTION es_append_many(
  p_streams           text[],
  p_assumed_revisions bigint[],
  p_assumed_hashes    text[],
  p_counts            int[],
  p_last_hashes       text[],
  p_event_ids         text[],
  p_event_types       text[],
  p_data              jsonb,
  p_metadata          jsonb
) RETURNS TABLE (
  idx                  int,      -- 1-based index into p_streams
  outcome              text,     -- es_append's outcomes, or 'id_conflict'
  stream_position      bigint,
  last_hash            text,
  last_global_position bigint,
  existing_ids         text[],
  existing_streams     text[]
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  all_data jsonb[] := ARRAY(SELECT d.value FROM jsonb_array_elements(p_data) WITH ORDINALITY AS d(value, ord) ORDER BY d.ord);
  all_metadata jsonb[] := ARRAY(SELECT m.value FROM jsonb_array_elements(p_metadata) WITH ORDINALITY AS m(value, ord) ORDER BY m.ord);
  first_event int := 1;
  last_event int;
  i int;
  r record;
  violated text;
BEGIN
  FOR i IN 1 .. coalesce(cardinality(p_streams), 0) LOOP
    last_event := first_event + p_counts[i] - 1;
    BEGIN
      FOR r IN SELECT * FROM es_append(
          p_streams[i], p_assumed_revisions[i], p_assumed_hashes[i],
          p_event_ids[first_event:last_event], p_event_types[first_event:last_event],
          all_data[first_event:last_event], all_metadata[first_event:last_event], p_last_hashes[i]) LOOP
        idx := i;
        outcome := r.outcome;
        stream_position := r.stream_position;
        last_hash := r.last_hash;
        last_global_position := r.last_global_position;
        existing_ids := r.existing_ids;
        existing_streams := r.existing_streams;
        RETURN NEXT;
      END LOOP;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS violated = CONSTRAINT_NAME;
      IF violated IS DISTINCT FROM 'events_event_id_unique' THEN
        RAISE;
      END IF;
      idx := i;
      outcome := 'id_conflict';
      stream_position := NULL;
      last_hash := NULL;
      last_global_position := NULL;
      existing_ids := NULL;
      existing_streams := NULL;
      RETURN NEXT;
    END;
    first_event := last_event + 1;
  END LOOP;
END
$$;
