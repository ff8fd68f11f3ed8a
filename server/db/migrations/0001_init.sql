-- Initial schema of Portail Habilitations.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18): nothing newer than 15, nothing PGlite lacks.
-- The migration runner wraps this file in one transaction: no BEGIN/COMMIT here.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Employers (SIREN) and their establishments (SIRET).
CREATE TABLE organizations (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  code        text NOT NULL,
  name        text NOT NULL,
  type        text NOT NULL,
  parent_id   uuid NULL,
  parent_code text NULL,
  CONSTRAINT organizations_code_key UNIQUE (code),
  -- Target of the composite foreign key below: a SIRET's parent_code must be its parent's code.
  CONSTRAINT organizations_id_code_key UNIQUE (id, code),
  CONSTRAINT organizations_code_format CHECK (code ~ '^([0-9]{9}|[0-9]{14})$'),
  CONSTRAINT organizations_type_check CHECK (type IN ('SIREN', 'SIRET')),
  CONSTRAINT organizations_type_matches_code CHECK (
    (type = 'SIREN' AND length(code) = 9) OR (type = 'SIRET' AND length(code) = 14)
  ),
  CONSTRAINT organizations_name_not_blank CHECK (btrim(name) <> ''),
  -- A SIREN has no parent; a SIRET's parent is the SIREN made of its first 9 digits.
  CONSTRAINT organizations_parent_shape CHECK (
    (type = 'SIREN' AND parent_id IS NULL AND parent_code IS NULL)
    OR (type = 'SIRET' AND parent_id IS NOT NULL AND parent_code = left(code, 9))
  ),
  CONSTRAINT organizations_parent_fkey FOREIGN KEY (parent_id, parent_code)
    REFERENCES organizations (id, code) ON DELETE RESTRICT
);

CREATE INDEX organizations_parent_id_idx ON organizations (parent_id);
CREATE INDEX organizations_type_code_idx ON organizations (type, code);
CREATE INDEX organizations_name_trgm_idx ON organizations USING gin (lower(name) gin_trgm_ops);
CREATE INDEX organizations_code_trgm_idx ON organizations USING gin (code gin_trgm_ops);

CREATE TABLE permissions (
  code  text PRIMARY KEY,
  label text NOT NULL,
  CONSTRAINT permissions_code_format CHECK (code ~ '^[A-Z][A-Z0-9_]*$')
);

CREATE TABLE roles (
  id    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code  text NOT NULL,
  name  text NOT NULL,
  type  text NOT NULL,
  color text NULL,
  CONSTRAINT roles_code_key UNIQUE (code),
  CONSTRAINT roles_code_format CHECK (code ~ '^[A-Z][A-Z0-9_]*$'),
  CONSTRAINT roles_name_not_blank CHECK (btrim(name) <> ''),
  CONSTRAINT roles_type_check CHECK (type IN ('INTERNAL', 'EXTERNAL')),
  CONSTRAINT roles_color_format CHECK (color IS NULL OR color ~ '^#[0-9a-fA-F]{6}$')
);

CREATE TABLE role_permissions (
  role_id         integer NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  permission_code text NOT NULL REFERENCES permissions (code) ON UPDATE CASCADE ON DELETE CASCADE,
  PRIMARY KEY (role_id, permission_code)
);

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The identity provider's subject; null until the person has an identity.
  auth_id       text NULL,
  email         text NOT NULL,
  first_name    text NOT NULL,
  last_name     text NOT NULL,
  job_title     text NULL,
  phone_number  text NULL,
  mobile_phone  text NULL,
  street        text NULL,
  postal_code   text NULL,
  city          text NULL,
  -- Free JSON text kept as the API gives it (spec §3: may hold jobTitle, street, postalCode, city).
  metadata      text NULL,
  user_type     text NOT NULL,
  is_active     boolean NOT NULL DEFAULT true,
  last_login_at timestamptz NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  -- Optimistic concurrency: bumped by every update.
  version       integer NOT NULL DEFAULT 1,
  CONSTRAINT users_auth_id_key UNIQUE (auth_id),
  CONSTRAINT users_email_format CHECK (email = btrim(email) AND email LIKE '_%@_%.__%'),
  CONSTRAINT users_user_type_check CHECK (user_type IN ('BACKOFFICE', 'ORGANIZATION')),
  CONSTRAINT users_version_positive CHECK (version >= 1)
);

CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
-- Sort by name: ORDER BY lower(last_name || first_name), id.
CREATE INDEX users_name_sort_idx ON users (lower(last_name || first_name), id);
CREATE INDEX users_last_login_at_idx ON users (last_login_at);
-- Substring search: WHERE lower(first_name || ' ' || last_name) LIKE '%…%' OR lower(email) LIKE '%…%'.
CREATE INDEX users_full_name_trgm_idx ON users USING gin (lower(first_name || ' ' || last_name) gin_trgm_ops);
CREATE INDEX users_email_trgm_idx ON users USING gin (lower(email) gin_trgm_ops);

-- Back-office users' own permission list.
CREATE TABLE user_permissions (
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  permission_code text NOT NULL REFERENCES permissions (code) ON UPDATE CASCADE ON DELETE CASCADE,
  PRIMARY KEY (user_id, permission_code)
);

CREATE TABLE role_assignments (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE RESTRICT,
  role_id              integer NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
  inherits_to_children boolean NOT NULL DEFAULT false,
  created_at           timestamptz NOT NULL DEFAULT now(),
  -- Also serves lookups by user.
  CONSTRAINT role_assignments_user_org_role_key UNIQUE (user_id, organization_id, role_id)
);

CREATE INDEX role_assignments_organization_idx ON role_assignments (organization_id, user_id);
CREATE INDEX role_assignments_role_idx ON role_assignments (role_id);

CREATE TABLE invitations (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  invitee_email     text NOT NULL,
  -- organization_*, role_* are kept as they were when the request was made.
  organization_id   uuid NULL REFERENCES organizations (id) ON DELETE SET NULL,
  organization_code text NOT NULL,
  organization_name text NOT NULL,
  role_id           integer NULL REFERENCES roles (id) ON DELETE SET NULL,
  role_code         text NOT NULL,
  role_name         text NOT NULL,
  status            text NOT NULL DEFAULT 'PENDING',
  invitation_type   text NOT NULL,
  sender_user_id    uuid NULL REFERENCES users (id) ON DELETE SET NULL,
  sender_email      text NOT NULL,
  validator_user_id uuid NULL REFERENCES users (id) ON DELETE SET NULL,
  validator_email   text NULL,
  rejection_reason  text NULL,
  metadata          jsonb NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  processed_at      timestamptz NULL,
  CONSTRAINT invitations_status_check CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  CONSTRAINT invitations_type_check CHECK (invitation_type IN ('NEW_ADMIN', 'ROLE_ASSIGNMENT')),
  CONSTRAINT invitations_organization_code_format CHECK (organization_code ~ '^([0-9]{9}|[0-9]{14})$'),
  -- A pending request has no decision; a decided one has its date and validator.
  CONSTRAINT invitations_decision_shape CHECK (
    (status = 'PENDING' AND processed_at IS NULL AND validator_email IS NULL AND validator_user_id IS NULL)
    OR (status <> 'PENDING' AND processed_at IS NOT NULL AND validator_email IS NOT NULL)
  ),
  -- Spec §5: a rejection needs a reason of at least 10 characters after trimming; only rejections have one.
  CONSTRAINT invitations_rejection_reason CHECK (
    (status = 'REJECTED' AND rejection_reason IS NOT NULL AND length(btrim(rejection_reason)) >= 10)
    OR (status <> 'REJECTED' AND rejection_reason IS NULL)
  ),
  CONSTRAINT invitations_processed_after_created CHECK (processed_at IS NULL OR processed_at >= created_at)
);

-- At most one pending request per person, organization and role.
CREATE UNIQUE INDEX invitations_one_pending_key ON invitations (lower(invitee_email), organization_code, role_code)
  WHERE status = 'PENDING';
CREATE INDEX invitations_status_created_at_idx ON invitations (status, created_at);
CREATE INDEX invitations_created_at_idx ON invitations (created_at);
CREATE INDEX invitations_invitee_email_idx ON invitations (lower(invitee_email));
CREATE INDEX invitations_organization_code_idx ON invitations (organization_code);
CREATE INDEX invitations_invitee_email_trgm_idx ON invitations USING gin (lower(invitee_email) gin_trgm_ops);
CREATE INDEX invitations_organization_code_trgm_idx ON invitations USING gin (organization_code gin_trgm_ops);

-- Accounts of the LOCAL OpenID Connect provider (development and tests only).
CREATE TABLE identity_accounts (
  subject       text PRIMARY KEY,
  email         text NOT NULL,
  display_name  text NOT NULL,
  -- scrypt$N$r$p$salt$hash; null: cannot sign in until a password is set.
  password_hash text NULL,
  enabled       boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT identity_accounts_password_hash_format CHECK (password_hash IS NULL OR password_hash LIKE 'scrypt$%')
);

CREATE UNIQUE INDEX identity_accounts_email_lower_key ON identity_accounts (lower(email));
