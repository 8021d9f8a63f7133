-- Payment records (src/app/payments): one row per completed checkout, keyed by the payment provider's
-- event id so a redelivered event never makes a second record or sends a second receipt.
CREATE TABLE IF NOT EXISTS payments (
  payment_id          bigserial   PRIMARY KEY,
  provider            text        NOT NULL,
  provider_event_id   text        NOT NULL UNIQUE,
  checkout_session_id text        NOT NULL,
  account_id          bigint      NOT NULL,
  plan                text        NOT NULL,
  amount_total        bigint,
  currency            text,
  customer_email      text,
  created_at          timestamptz NOT NULL,
  receipt_claimed_at  timestamptz,
  receipt_sent_at     timestamptz,
  receipt_message_id  text,
  receipt_error       text
);
CREATE INDEX IF NOT EXISTS payments_account_idx ON payments (account_id, created_at DESC);

-- Ids of S2/S3 webhook endpoint registrations (also created by 050; either may run first).
CREATE SEQUENCE IF NOT EXISTS webhook_endpoint_id_seq START 1;
