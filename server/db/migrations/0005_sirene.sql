-- Organizations kept from the INSEE Sirene register (issue 17, `npm run orgs:import`).
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18). Adding a column with a constant default
-- rewrites nothing (PostgreSQL 11+): the migration stays instant on a table of millions of rows.

-- member: the SIREN is in the OPCO's members file (a SIRET carries its SIREN's value). A SIREN that leaves
-- the file is kept with its users and roles, never deleted; it is only left out of the lists where new
-- access is chosen.
ALTER TABLE organizations ADD COLUMN member boolean NOT NULL DEFAULT true;

-- closed: a SIRET whose Sirene administrative state is F (fermé). Kept, shown as 'Fermé', refused for new roles.
ALTER TABLE organizations ADD COLUMN closed boolean NOT NULL DEFAULT false;
ALTER TABLE organizations ADD CONSTRAINT organizations_closed_is_siret CHECK (NOT closed OR type = 'SIRET');

-- When the Sirene import last changed the row (null: never).
ALTER TABLE organizations ADD COLUMN updated_at timestamptz NULL;
