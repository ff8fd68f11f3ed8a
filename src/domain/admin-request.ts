// Assigning the member-administrator role to an existing user (spec §2 'Assign-existing', §5, §6). Pure.
import { isSirenEntry, isSiretEntry, sirenOf, type OrganizationEntry } from '../../rules/codes';

/** Spec §6, §9: the role the assign-existing flow requests, and the type of its requests. */
export const ASSIGNED_ROLE_CODE = 'ADMIN_ADHERENT';
export const ASSIGNMENT_INVITATION_TYPE = 'ROLE_ASSIGNMENT';

/** Why a listed user cannot be picked. */
export type Ineligibility = 'pendingRequest' | 'internalRole' | 'backOffice';

export interface CandidateFacts {
  userType: 'BACKOFFICE' | 'ORGANIZATION';
  /** Codes of the roles held. */
  roles: readonly string[];
  /** The roles as the list gives them with their organizations, each with its type. */
  organizations: readonly { role: { code: string; type?: 'INTERNAL' | 'EXTERNAL' | null } }[];
  hasPendingInvitation: boolean;
}

/**
 * Spec §2, §5: users with a pending request, or holding an INTERNAL-type role, cannot be picked. A role is
 * INTERNAL when the list says so or when the roles catalogue (GET /roles) types its code so. A back-office
 * account holds the back-office role by nature (§6: ADMIN_OPCO means back-office): it cannot be picked either.
 */
export function assignIneligibility(user: CandidateFacts, internalRoleCodes: ReadonlySet<string>): Ineligibility | null {
  if (user.hasPendingInvitation) return 'pendingRequest';
  if (user.roles.some((code) => internalRoleCodes.has(code)) || user.organizations.some((o) => o.role.type === 'INTERNAL')) return 'internalRole';
  if (user.userType === 'BACKOFFICE') return 'backOffice';
  return null;
}

/**
 * Spec §5: the SIRENs of a user's organizations, each once, in order. An entry counts as a SIREN if its type
 * is SIREN or its code has 9 characters; as a SIRET if its type is SIRET or its code has 14 (its first 9
 * characters give the SIREN). Any other entry is skipped.
 */
export function sirensOfOrganizations(entries: readonly OrganizationEntry[]): string[] {
  const sirens: string[] = [];
  for (const entry of entries) {
    const siren = isSirenEntry(entry) ? entry.code : isSiretEntry(entry) ? sirenOf(entry.code) : null;
    if (siren && !sirens.includes(siren)) sirens.push(siren);
  }
  return sirens;
}

/** A user's name as the screens show it, else their email. */
export function displayName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
