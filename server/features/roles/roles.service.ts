import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import type { Database } from '../../db/schema.ts';
import { listAllRoles, type RoleDto } from './roles.repository.ts';
import { visibleRoles } from './roles.policy.ts';

export function rolesService({ db }: { db: Kysely<Database> }) {
  return {
    /** The roles the actor may see (every one for the back office). */
    async list(actor: Actor): Promise<RoleDto[]> {
      return visibleRoles(actor, await listAllRoles(db));
    },
  };
}

export type RolesService = ReturnType<typeof rolesService>;
