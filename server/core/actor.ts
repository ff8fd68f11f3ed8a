import type { UserType } from '../db/schema.ts';

/** Who is calling, with everything an authorization decision needs; loaded once per request. */
export interface Actor {
  userId: string;
  email: string;
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
  /** Role codes the actor holds anywhere. */
  roleCodes: ReadonlySet<string>;
}
