-- Issue 19: the local OpenID Connect provider (development and tests) ends an account's sessions and refresh
-- tokens: those that began before this moment are refused (server/dev-idp/local-provider.ts, findAccount),
-- whatever store the provider keeps them in. Set by LocalIdentityDirectory.revokeSessions.
ALTER TABLE identity_accounts ADD COLUMN sessions_revoked_at timestamptz NULL;
