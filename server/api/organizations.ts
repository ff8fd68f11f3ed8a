import type { FastifyRequest } from 'fastify';
import type { HandlerDeps } from './deps.ts';
import { actorOf } from '../plugins/actor.ts';
import { findOrganizationByCode, findOrganizationById, listOrganizations } from '../features/organizations/organizations.repository.ts';
import type { OrganizationType } from '../db/schema.ts';
import { pageAnswer, type PageRequest } from './pages.ts';
import { organizationVisibility, requireCanListOrganizations, requireVisibleOrganization } from '../features/organizations/organizations.policy.ts';

/** Query of listOrganizations, validated and defaulted against the contract. */
interface ListQuery extends PageRequest {
  limit?: number;
  search?: string;
  parentId?: string;
  type?: OrganizationType;
}

export function organizationsHandlers({ db }: HandlerDeps) {
  return {
    /** GET /api/v2/organizations: one page within the caller's visibility; `limit` is pageSize's alias and wins. */
    async listOrganizations(request: FastifyRequest) {
      const actor = actorOf(request);
      requireCanListOrganizations(actor);
      const query = request.query as ListQuery;
      const page = { page: query.page, pageSize: query.limit ?? query.pageSize };
      const filter = { visibility: organizationVisibility(actor), search: query.search, parentId: query.parentId, type: query.type };
      const { items, total } = await listOrganizations(db, filter, page);
      return pageAnswer(items, total, page);
    },

    /** GET /api/v2/organizations/code/{code}: 404 when missing or out of reach alike. */
    async getOrganizationByCode(request: FastifyRequest) {
      const actor = actorOf(request);
      const { code } = request.params as { code: string };
      return requireVisibleOrganization(await findOrganizationByCode(db, code, organizationVisibility(actor)));
    },

    /** GET /api/v2/organizations/{id}: 404 when missing or out of reach alike. */
    async getOrganization(request: FastifyRequest) {
      const actor = actorOf(request);
      const { id } = request.params as { id: string };
      return requireVisibleOrganization(await findOrganizationById(db, id, organizationVisibility(actor)));
    },
  };
}
