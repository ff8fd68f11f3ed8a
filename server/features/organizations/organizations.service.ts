// Reading organizations as the actor may see them (spec §6).
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import type { PageRequest } from '../../core/pages.ts';
import type { ListTotals } from '../../db/list-totals.ts';
import type { Database, OrganizationType } from '../../db/schema.ts';
import { listOrganizations } from './organizations-list.repository.ts';
import { findOrganizationByCode, findOrganizationById, type OrganizationDto } from './organizations.repository.ts';
import { organizationVisibility, requireCanListOrganizations, requireVisibleOrganization } from './organizations.policy.ts';

export interface OrganizationsQuery {
  search?: string | undefined;
  parentId?: string | undefined;
  type?: OrganizationType | undefined;
  forNewAccess?: boolean | undefined;
}

export function organizationsService({ db, listTotals }: { db: Kysely<Database>; listTotals: ListTotals | null }) {
  return {
    /** One page within the actor's visibility, with the exact total. */
    async list(actor: Actor, query: OrganizationsQuery, page: PageRequest): Promise<{ items: OrganizationDto[]; total: number }> {
      requireCanListOrganizations(actor);
      return listOrganizations(db, { visibility: organizationVisibility(actor), ...query }, page, listTotals);
    },

    /** 404 when missing or out of reach alike. */
    async byCode(actor: Actor, code: string): Promise<OrganizationDto> {
      return requireVisibleOrganization(await findOrganizationByCode(db, code, organizationVisibility(actor)));
    },

    /** 404 when missing or out of reach alike. */
    async byId(actor: Actor, id: string): Promise<OrganizationDto> {
      return requireVisibleOrganization(await findOrganizationById(db, id, organizationVisibility(actor)));
    },
  };
}

export type OrganizationsService = ReturnType<typeof organizationsService>;
