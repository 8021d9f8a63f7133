-- One round trip for a settled read (was two: the read fence, then the read). See store.ts for the
-- fence: appends hold the fence SHARED from before they draw positions until they end, so taking it
-- EXCLUSIVELY waits for every append that drew a position; max(global_position) read then is a
-- horizon below which nothing can still appear. The fence is held only for that max() (a session
-- lock, released at once, even on error or cancel), not while the rows are read and sent.
-- The first row carries the horizon (event columns NULL); events follow in global order.
CREATE OR REPLACE FUNCTION es_read_settled(p_after bigint, p_limit integer)
RETURNS TABLE (
  global_position bigint,
  stream_name     text,
  stream_position bigint,
  event_type      text,
  data            jsonb,
  metadata        jsonb,
  recorded_at     timestamptz,
  horizon         bigint
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  settled bigint;
BEGIN
  PERFORM pg_advisory_lock(727100, 0);
  BEGIN
    -- A fresh snapshot (VOLATILE function, READ COMMITTED): sees every append that ended meanwhile.
    SELECT coalesce(max(e.global_position), 0) INTO settled FROM events e;
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    PERFORM pg_advisory_unlock(727100, 0);
    RAISE;
  END;
  PERFORM pg_advisory_unlock(727100, 0);

  RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::jsonb, NULL::jsonb, NULL::timestamptz, settled;
  IF settled > p_after THEN
    RETURN QUERY
      SELECT e.global_position, e.stream_name, e.stream_position, e.event_type, e.data, e.metadata, e.recorded_at, settled
        FROM events e
       WHERE e.global_position > p_after AND e.global_position <= settled
       ORDER BY e.global_position
       LIMIT p_limit;
  END IF;
END
$$;
