-- The trace a webhook delivery belongs to (W3C traceparent of the event that enqueued it, when
-- tracing is on): the dispatcher's delivery span continues the screening's trace (issue 28).
ALTER TABLE webhook_outbox ADD COLUMN traceparent text NULL;
