-- What an API node remembers between requests, kept here so that every node behind the load balancer sees it
-- (issue 17, more than one node). Both tables are small: a row lives a minute (counts) or a few hours (the
-- local provider's sign-ins), and expired rows are deleted in batches (server/db/rate-limit-hits.ts,
-- server/dev-idp/oidc-adapter.ts).

-- The API rate limit's and the sign-in throttle's counts: one row per key (the limit: 'api:user:<subject>' or
-- 'api:address:<ip>'; the throttle: 'sign-in:<ip>\n<email>') and window. A hit is one INSERT … ON CONFLICT DO
-- UPDATE … RETURNING, which starts a new window when the row's has ended.
-- UNLOGGED: no WAL for a write made on every API request; after a crash of PostgreSQL (not a clean restart)
-- the counts start again from zero, and a standby has none, which a one-minute count can afford.
CREATE UNLOGGED TABLE rate_limit_hits (
  key        text PRIMARY KEY,
  count      integer NOT NULL CHECK (count > 0),
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_hits_expires_at_idx ON rate_limit_hits (expires_at);

-- The local OpenID Connect provider's storage (development, tests, demonstrations): oidc-provider's models
-- (Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, Grant…) as its adapter interface has them.
-- expires_at null: kept until destroyed; consumed_at: a code or token used once.
CREATE TABLE oidc_payloads (
  model       text NOT NULL,
  id          text NOT NULL,
  payload     jsonb NOT NULL,
  grant_id    text NULL,
  user_code   text NULL,
  uid         text NULL,
  expires_at  timestamptz NULL,
  consumed_at timestamptz NULL,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (model, grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_payloads_expires_at_idx ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL;
