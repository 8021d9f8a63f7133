-- Binds an Idempotency-Key to the resource its request creates, before the command runs
-- (src/app/idempotency/idempotency-store.ts, docs/idempotency-and-strict-input.md).
-- binding_id: fixed when the key is first reserved (or reserved again after its 24 h); kept when a
--   crashed request's lease is taken over, so the retry is recognised as the same request.
-- bound: the ids the request drew for what it creates ({"screening": "42"}, {"subject:0": "7", …}),
--   written before the command appends. A retry whose lease took over reuses them: the command finds
--   its resource already in the event store and answers it instead of creating a second one.
ALTER TABLE idempotency_keys
  ADD COLUMN binding_id text,
  ADD COLUMN bound jsonb NOT NULL DEFAULT '{}'::jsonb;
