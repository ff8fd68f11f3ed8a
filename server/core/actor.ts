import type { UserType } from '../db/schema.ts';

/** Organizations reached: those held or inherited, and the parent SIREN of each SIRET among them (visible, not managed). */
export interface OrganizationReach {
  organizationIds: ReadonlySet<string>;
  parentIds: ReadonlySet<string>;
}

/** Who is calling, with everything an authorization decision needs; loaded once per request. */
export interface Actor {
  userId: string;
  email: string;
  /** The person's first and last name as loaded with the request: the author's name of the journal entries they write. */
  name?: string;
  isActive: boolean;
  userType: UserType;
  isBackOffice: boolean;
  /** Back-office: its own list. Organization users: the union of their roles' permissions. */
  permissions: ReadonlySet<string>;
  /** Organizations the actor's roles cover: held ones, plus the SIRETs of a SIREN held with inheritsToChildren. Null: global (back-office). */
  scope: ReadonlySet<string> | null;
  /**
   * The parent SIREN of each SIRET of the scope, whether the scope holds that SIREN or not: visible to the
   * actor, not managed by them (see organizationVisibility and userScope). Null: global (back-office).
   */
  parentIds: ReadonlySet<string> | null;
  /**
   * Per permission, the organizations where a role giving it is held or inherited from its SIREN (with their
   * parent SIRENs): an action on an organization needs the permission there. Null: global (back-office).
   * The union (`permissions`, `scope`) is what /users/me shows and what the menus follow.
   */
  permissionScopes: ReadonlyMap<string, OrganizationReach> | null;
  /** Role codes the actor holds anywhere. */
  roleCodes: ReadonlySet<string>;
  /** The portal itself (a scheduled job: the dormancy jobs), no person: its journal entries have no author. */
  isSystem?: true;
}

/**
 * The portal acting by itself (the dormancy jobs, issue 23): back-office reach, with only the rights of the moves it
 * makes (deactivating, deleting permanently). Its id is no user's; its journal entries are written without an
 * author's id or e-mail, under the name 'Système' (auditAuthor), as issue 23 asks: 'Système a désactivé Zoé Bonnet.'
 */
export const SYSTEM_ACTOR: Actor = {
  userId: '00000000-0000-0000-0000-000000000000',
  email: '',
  isActive: true,
  userType: 'BACKOFFICE',
  isBackOffice: true,
  permissions: new Set(['USER_LIST', 'USER_CREATE', 'USER_DELETE', 'B2C_USER_DISABLE']),
  scope: null,
  parentIds: null,
  permissionScopes: null,
  roleCodes: new Set(),
  isSystem: true,
};

/**
 * Who a journal entry names as its author: the person, or 'Système' for the portal itself (the system actor, or an
 * author given with its name and no id, as the erasure's SYSTEM_AUTHOR).
 */
export function auditAuthor(actor: { userId: string | null; email: string | null; isSystem?: true; name?: string }): { userId: string | null; email: string | null; name?: string } {
  if (actor.isSystem) return { userId: null, email: null, name: 'Système' };
  return personAuthor(actor);
}

/** A person as the author of what they do: their id and e-mail, with their name when the request loaded it (Actor.name). */
export function personAuthor<T extends string | null>(actor: { userId: T; email: T; name?: string }): { userId: T; email: T; name?: string } {
  return actor.name ? { userId: actor.userId, email: actor.email, name: actor.name } : { userId: actor.userId, email: actor.email };
}
