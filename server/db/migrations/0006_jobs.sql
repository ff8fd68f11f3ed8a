-- The scheduled jobs (server/jobs/runner.ts): one row per job, shared by every node. A node runs a job only
-- after claiming its row with one conditional UPDATE (due, and not under way elsewhere unless that run's lease
-- has passed), so each job runs on one node at a time; running_since/running_owner say who runs it since when.
CREATE TABLE scheduled_jobs (
  name             text PRIMARY KEY,
  next_run_at      timestamptz NOT NULL,
  running_since    timestamptz NULL,
  running_owner    text NULL,
  last_started_at  timestamptz NULL,
  last_finished_at timestamptz NULL,
  last_outcome     text NULL,
  last_error       text NULL,
  CONSTRAINT scheduled_jobs_outcome_check CHECK (last_outcome IN ('succeeded', 'failed')),
  CONSTRAINT scheduled_jobs_running_check CHECK ((running_since IS NULL) = (running_owner IS NULL))
);

-- The outbox's retention (server/jobs/outbox-retention.ts) finds the old SENT rows by when they were sent.
CREATE INDEX outbox_sent_at_idx ON outbox (sent_at) WHERE status = 'SENT';
