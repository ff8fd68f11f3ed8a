-- Migrations 0023 (the erasure) and 0024 (a person's data on request), written side by side, each indexed the outbox
-- on lower(recipient): two identical indexes, both written at every e-mail queued. The erasure's stays
-- (outbox_recipient_idx); queries on lower(recipient) use it as they used either. Runs on PostgreSQL 15 and PGlite.
DROP INDEX IF EXISTS outbox_recipient_lower_idx;
