-- E-mail delivery (server/mail/delivery.ts): when a PENDING row may next be tried.
-- A process claiming a row pushes it into the future (a lease, so that no other process sends it meanwhile);
-- a failed attempt pushes it further (back-off). Null: at once.
ALTER TABLE outbox ADD COLUMN next_attempt_at timestamptz NULL;
