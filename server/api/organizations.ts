import type { FastifyRequest } from 'fastify';
import type { OrganizationType } from '../db/schema.ts';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { pageAnswer, type PageRequest } from './pages.ts';

/** Query of listOrganizations, validated and defaulted against the contract. */
interface ListQuery extends PageRequest {
  limit?: number;
  search?: string;
  parentId?: string;
  type?: OrganizationType;
  forNewAccess?: boolean;
}

export function organizationsHandlers({ organizations }: Services) {
  return {
    /** GET /api/v2/organizations: one page within the caller's visibility; `limit` is pageSize's alias and wins. */
    async listOrganizations(request: FastifyRequest<{ Querystring: ListQuery }>) {
      const query = request.query;
      const page = { page: query.page, pageSize: query.limit ?? query.pageSize };
      const { items, total } = await organizations.list(actorOf(request), { search: query.search, parentId: query.parentId, type: query.type, forNewAccess: query.forNewAccess }, page);
      return pageAnswer(items, total, page);
    },

    /** GET /api/v2/organizations/code/{code}: 404 when missing or out of reach alike. */
    async getOrganizationByCode(request: FastifyRequest<{ Params: { code: string } }>) {
      return organizations.byCode(actorOf(request), request.params.code);
    },

    /** GET /api/v2/organizations/{id}: 404 when missing or out of reach alike. */
    async getOrganization(request: FastifyRequest<{ Params: { id: string } }>) {
      return organizations.byId(actorOf(request), request.params.id);
    },
  };
}
