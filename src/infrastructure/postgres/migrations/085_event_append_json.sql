-- es_append taking the batch's data and metadata as one JSON array each (one element per event, in
-- order) instead of jsonb[]. A jsonb[] parameter travels as an array literal: the client escapes
-- every quote and backslash of every event's JSON and the server unescapes them again; a JSON array
-- is the events' JSON text joined with commas, parsed once.
-- The 082 signature stays (a process of the previous version may still call it during a rolling
-- deploy) and keeps the one body: this overload only turns the arrays into jsonb[] and calls it, so
-- locks, checks, outcomes, NOTIFY and result columns are the same by construction. A JSON array
-- cannot carry an SQL NULL (the 082 path's "no data", refused by the NOT NULL column), so the client
-- refuses an event without data before calling; an array shorter than p_event_ids still leaves
-- NULLs that the column refuses.
CREATE OR REPLACE FUNCTION es_append(
  p_stream           text,
  p_assumed_revision bigint,
  p_assumed_hash     text,
  p_event_ids        text[],
  p_event_types      text[],
  p_data             jsonb,   -- JSON array: each event's data
  p_metadata         jsonb,   -- JSON array: each event's metadata
  p_last_hash        text
) RETURNS TABLE (
  outcome              text,
  stream_position      bigint,
  last_hash            text,
  last_global_position bigint,
  existing_ids         text[],
  existing_streams     text[]
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN QUERY SELECT * FROM es_append(
    p_stream, p_assumed_revision, p_assumed_hash, p_event_ids, p_event_types,
    ARRAY(SELECT d.value FROM jsonb_array_elements(p_data) WITH ORDINALITY AS d(value, ord) ORDER BY d.ord),
    ARRAY(SELECT m.value FROM jsonb_array_elements(p_metadata) WITH ORDINALITY AS m(value, ord) ORDER BY m.ord),
    p_last_hash);
END
$$;
