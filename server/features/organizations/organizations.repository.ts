// Organizations (OpenAPI Organization): one, or several by code or id. Their list: organizations-list.repository.ts.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, OrganizationType } from '../../db/schema.ts';

/** Which organizations a query may answer, as server/features/organizations/organizations.policy.ts decides it: all, or exactly these. */
export type OrganizationVisibility = { kind: 'all' } | { kind: 'scope'; organizationIds: readonly string[] };

export interface OrganizationDto {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
  parentCode: string | null;
  parentId: string | null;
  /** In the OPCO's members (Sirene import); a non-member keeps its users and roles but takes no new access. */
  member: boolean;
  /** A SIRET closed in Sirene: shown as 'Fermé', takes no new role. */
  closed: boolean;
}

export interface OrganizationFilter {
  visibility: OrganizationVisibility;
  /** Substring of the name (case and accents ignored: searchFold) or of the code (spaces ignored). */
  search?: string | undefined;
  /** Keeps the SIRETs of this SIREN. */
  parentId?: string | undefined;
  type?: OrganizationType | undefined;
  /** Keeps the organizations where new access may be chosen: members only (closed SIRETs stay, marked). */
  forNewAccess?: boolean | undefined;
}

/** The columns of an OrganizationDto. */
export const ORGANIZATION_COLUMNS = ['id', 'code', 'name', 'type', 'parent_code', 'parent_id', 'member', 'closed'] as const;


/** OpenAPI Organization, from a row of organizations. */
export function toOrganizationDto(row: {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
  parent_code: string | null;
  parent_id: string | null;
  member: boolean;
  closed: boolean;
}): OrganizationDto {
  return { id: row.id, code: row.code, name: row.name, type: row.type, parentCode: row.parent_code, parentId: row.parent_id, member: row.member, closed: row.closed };
}

function visible(eb: ExpressionBuilder<Database, 'organizations'>, visibility: OrganizationVisibility) {
  if (visibility.kind === 'all') return eb.lit(true);
  const ids = visibility.organizationIds;
  if (ids.length === 0) return eb.lit(false);
  return eb('organizations.id', 'in', ids);
}

/** The organization whose id or code (SIREN or SIRET) is this, if the visibility reaches it, else null (one statement). */
async function findVisible(db: Kysely<Database>, column: 'id' | 'code', value: string, visibility: OrganizationVisibility): Promise<OrganizationDto | null> {
  const row = await db
    .selectFrom('organizations')
    .select(ORGANIZATION_COLUMNS)
    .where(`organizations.${column}`, '=', value)
    .where((eb) => visible(eb, visibility))
    .executeTakeFirst();
  return row ? toOrganizationDto(row) : null;
}

export const findOrganizationById = (db: Kysely<Database>, id: string, visibility: OrganizationVisibility) => findVisible(db, 'id', id, visibility);

export const findOrganizationByCode = (db: Kysely<Database>, code: string, visibility: OrganizationVisibility) => findVisible(db, 'code', code, visibility);

/** The organizations of these codes (those that exist), in one statement. */
export async function findOrganizationsByCodes(db: Kysely<Database>, codes: readonly string[]): Promise<OrganizationDto[]> {
  if (codes.length === 0) return [];
  const rows = await db.selectFrom('organizations').select(ORGANIZATION_COLUMNS).where('organizations.code', 'in', [...new Set(codes)]).execute();
  return rows.map(toOrganizationDto);
}

/** The organizations of these ids (those that exist), in one statement. */
export async function findOrganizationsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<OrganizationDto[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('organizations').select(ORGANIZATION_COLUMNS).where('organizations.id', 'in', [...new Set(ids)]).execute();
  return rows.map(toOrganizationDto);
}

/** The SIRETs of these SIRENs, as ids with their parent's, in one statement. */
export async function childrenOf(db: Kysely<Database>, sirenIds: readonly string[]): Promise<{ id: string; parentId: string }[]> {
  if (sirenIds.length === 0) return [];
  const rows = await db.selectFrom('organizations').select(['id', 'parent_id']).where('parent_id', 'in', [...sirenIds]).execute();
  return rows.map((row) => ({ id: row.id, parentId: row.parent_id! }));
}
