-- Issue 23, dormant accounts: a person who has not signed in for DORMANCY_WARN_AFTER_DAYS is warned by e-mail, their
-- account deactivated DORMANCY_DEACTIVATE_AFTER_DAYS after the warning, deleted DORMANCY_DELETE_AFTER_DAYS after that
-- (never a back-office account). Which move is allowed is decided by the account-lifecycle machine
-- (rules/account-lifecycle.machine.ts); the jobs are server/jobs/dormancy.ts.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).
--
-- 1. Nullable columns without a default: adding them rewrites no row of users (a million in the benchmark), and an
--    existing row reads as 'never warned, never reactivated, not deactivated by the portal'.
-- When the warning was sent; null again after a sign-in or a reactivation.
ALTER TABLE users ADD COLUMN dormancy_warned_at timestamptz NULL;
-- When the portal deactivated the account for dormancy (the third period counts from it); null after a reactivation.
-- A deactivation by a person leaves it null: the portal never deletes an account a person deactivated.
ALTER TABLE users ADD COLUMN dormancy_deactivated_at timestamptz NULL;
-- The latest reactivation: the first period counts from the latest of the sign-in, the creation and this.
ALTER TABLE users ADD COLUMN reactivated_at timestamptz NULL;

-- 2. The indexes of the jobs and of the users list's 'Comptes dormants' filter. Not CONCURRENTLY (the runner applies
-- a file in a transaction): on a very large table, build them beforehand with CREATE INDEX CONCURRENTLY IF NOT
-- EXISTS under these names, and these statements then do nothing. Measured on a copy of the 100k-user benchmark
-- database (README, 'Dormant accounts').
-- Active accounts not warned, by the moment their first period starts (GREATEST ignores nulls): the warning job
-- reads the due ones in this order, the filter the range before its cut-off.
CREATE INDEX IF NOT EXISTS users_dormancy_activity_idx ON users ((greatest(last_login_at, created_at, reactivated_at)), id)
  WHERE is_active AND dormancy_warned_at IS NULL;
-- Active accounts warned: the deactivation job reads them by their warning, the filter all of them (few).
CREATE INDEX IF NOT EXISTS users_dormancy_warned_idx ON users (dormancy_warned_at, id)
  WHERE is_active AND dormancy_warned_at IS NOT NULL;
-- Accounts the portal deactivated: the deletion job reads them by their deactivation.
CREATE INDEX IF NOT EXISTS users_dormancy_deactivated_idx ON users (dormancy_deactivated_at, id)
  WHERE NOT is_active AND dormancy_deactivated_at IS NOT NULL;

-- 3. The back office's notice of a SIREN left without an active employer administrator: at most once per SIREN
-- while it lasts (the row is removed once the SIREN has an administrator who is active and not warned again).
CREATE TABLE dormancy_siren_notices (
  siren_id    uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  notified_at timestamptz NOT NULL
);

-- 4. The outbox's new e-mails: the person warned of their dormancy, the back office told of a SIREN without an active
--    administrator. The check only widens: it keeps what the migrations before it allow, whatever they are (read from
--    the check itself), adds these, and is not validated again (every existing row passed the narrower check).
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
   WHERE c.conname = 'outbox_kind_check' AND c.conrelid = 'outbox'::regclass;
  allowed := array_cat(array(SELECT unnest(allowed) EXCEPT SELECT unnest(ARRAY['account.dormancy.warning', 'dormancy.siren.unmanaged'])), ARRAY['account.dormancy.warning', 'dormancy.siren.unmanaged']);
  ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
  EXECUTE format('ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (%s)) NOT VALID', (SELECT string_agg(quote_literal(k), ', ') FROM unnest(allowed) AS k));
END $$;
