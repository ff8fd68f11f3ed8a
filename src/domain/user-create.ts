// The creation wizard's rules (spec §2 'Creation wizard', §3 payloads, §4 wizard steps and invitation
// types, §5 wizard Next and submission rules). Pure: the machine's guards, the screens and the tests read
// the same functions.
import { everySirenHasSiret, MAX_ROLES, type ChosenSiren, type ChosenSiret, type EditDetails } from './user-edit';
import { personalDetailsSchema, type PersonalDetails } from '../../rules/validation';

/** 'admin': the admin-creation flag (an administrator request, sent as an invitation); 'user': a direct creation. */
export type WizardMode = 'user' | 'admin';

export const WIZARD_STEPS = ['details', 'sirens', 'sirets', 'roles'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** Spec §9: the wizard's SIREN list shows 10 per page; 'select all' on a search takes at most one page of 100. */
export const WIZARD_SIREN_PAGE_SIZE = 10;
export const SELECT_ALL_LIMIT = 100;

export type WizardDetails = EditDetails;
export type WizardDetailField = keyof WizardDetails;

export const EMPTY_DETAILS: WizardDetails = { firstName: '', lastName: '', email: '', jobTitle: '', phoneNumber: '', mobilePhone: '', street: '', postalCode: '', city: '' };

/** Spec §5: step 1 needs these fields non-empty (phone and mobile are optional). */
export const REQUIRED_DETAILS: readonly WizardDetailField[] = ['firstName', 'lastName', 'email', 'jobTitle', 'street', 'postalCode', 'city'];

export interface WizardRole {
  id: number;
  code: string;
  name: string;
  type: 'INTERNAL' | 'EXTERNAL';
}

export interface SirenOption {
  id: string;
  code: string;
  name: string;
}

export interface WizardDraft {
  details: WizardDetails;
  /** In admin mode a SIREN is chosen with all its SIRETs, locked (selectAll and locked set). */
  sirens: ChosenSiren[];
  sirets: ChosenSiret[];
  roles: WizardRole[];
}

export const EMPTY_DRAFT: WizardDraft = { details: EMPTY_DETAILS, sirens: [], sirets: [], roles: [] };

export function detailsComplete(details: WizardDetails): boolean {
  return REQUIRED_DETAILS.every((field) => details[field].trim() !== '');
}

/** The §5 message of each invalid field (the first one per field); empty when step 1 may be left. */
export function detailsErrors(details: WizardDetails): Partial<Record<WizardDetailField, string>> {
  const result = personalDetailsSchema.safeParse(details);
  if (result.success) return {};
  const errors: Partial<Record<WizardDetailField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as WizardDetailField;
    errors[field] ??= issue.message;
  }
  return errors;
}

export function detailsValid(details: WizardDetails): boolean {
  return personalDetailsSchema.safeParse(details).success;
}

/** Why 'Suivant' (or the final button) is disabled on a step (spec §5 'Wizard Next'). */
export type StepBlock = 'detailsIncomplete' | 'noSiren' | 'siretMissing' | 'noRole';

export function stepBlock(step: WizardStep, draft: WizardDraft): StepBlock | null {
  switch (step) {
    case 'details':
      return detailsComplete(draft.details) ? null : 'detailsIncomplete';
    case 'sirens':
      return draft.sirens.length > 0 ? null : 'noSiren';
    case 'sirets':
      return draft.sirens.length > 0 && everySirenHasSiret(draft) ? null : 'siretMissing';
    case 'roles':
      return draft.roles.length > 0 ? null : 'noRole';
  }
}

/**
 * Spec §5: admin mode offers only INTERNAL roles, normal mode only the others. ADMIN_OPCO, the back-office
 * role, belongs to no organization and cannot be requested (the API refuses it), so it is never offered.
 */
export function offeredWizardRoles<R extends { code: string; type: 'INTERNAL' | 'EXTERNAL' }>(roles: readonly R[], mode: WizardMode): R[] {
  return roles.filter((role) => role.code !== 'ADMIN_OPCO' && (mode === 'admin' ? role.type === 'INTERNAL' : role.type !== 'INTERNAL'));
}

/** A role can be added while fewer than 5 are chosen; removed always. */
export function canToggleWizardRole(chosen: readonly WizardRole[], roleId: number): boolean {
  return chosen.some((r) => r.id === roleId) || chosen.length < MAX_ROLES;
}

/** Spec §2: a non-back-office person creating users picks among the SIRENs where they are member administrator. */
export function memberAdminSirens(organizations: readonly { id: string; code: string; name?: string; type: 'SIREN' | 'SIRET'; role: { code: string } }[]): SirenOption[] {
  const seen = new Map<string, SirenOption>();
  for (const org of organizations) {
    const isSiren = org.type === 'SIREN' || org.code.length === 9;
    if (isSiren && (org.role.code === 'ADMIN_ADHERENT' || org.role.code === 'ORG_ADMIN') && !seen.has(org.id)) {
      seen.set(org.id, { id: org.id, code: org.code, name: org.name ?? '' });
    }
  }
  return [...seen.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** The SIRENs of a list matching a search on code or name, case-insensitive (the offered list of an organization user). */
export function matchingSirens(sirens: readonly SirenOption[], search: string): SirenOption[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...sirens];
  return sirens.filter((s) => s.code.includes(needle) || s.name.toLowerCase().includes(needle));
}

/** The SIRETs of a list matching a search on code or name, case-insensitive. */
export function matchingSirets<T extends { code: string; name: string }>(sirets: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...sirets];
  return sirets.filter((s) => s.code.includes(needle) || s.name.toLowerCase().includes(needle));
}

// ---------------------------------------------------------------------------------------------
// Submission (spec §5): what is sent, or why nothing is.

export type SubmissionRefusal =
  | 'detailsInvalid'
  | 'noRole'
  | 'tooManyRoles'
  | 'notSignedIn'
  | 'adminNoSiren'
  | 'adminOneSiren'
  | 'adminExternalNeedsSiret'
  | 'internalNeedsSiren'
  | 'externalNeedsSiret'
  | 'noSiret';

/** The invitation creation payload of spec §3 (OpenAPI CreateInvitationRequest), for one organization. */
export interface PlannedInvitation {
  organizationId: string;
  organizationCode: string;
  body: {
    inviteeEmail: string;
    roleCode: string;
    invitationType: 'NEW_ADMIN' | 'ROLE_ASSIGNMENT';
    metadata: {
      userProfile: { firstName: string; lastName: string; jobTitle: string; phoneNumber?: string; mobilePhone?: string; street: string; city: string; postalCode: string };
      isNewUser: true;
      senderEmail: string;
    };
  };
}

/** The complete-create payload of spec §3 (OpenAPI CreateUserCompleteRequest). */
export interface PlannedUser {
  email: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
  phoneNumber?: string;
  mobilePhone?: string;
  street: string;
  postalCode: string;
  city: string;
  organizationCodes: string[];
  roleIds: number[];
}

export type SubmissionPlan =
  | { kind: 'refused'; reason: SubmissionRefusal }
  | { kind: 'invitations'; invitations: PlannedInvitation[] }
  | { kind: 'user'; body: PlannedUser };

const refused = (reason: SubmissionRefusal): SubmissionPlan => ({ kind: 'refused', reason });

/** Optional phones: spaces removed by the §5 schema; none is left out of the payload. */
function phones(details: PersonalDetails) {
  return { ...(details.phoneNumber ? { phoneNumber: details.phoneNumber } : {}), ...(details.mobilePhone ? { mobilePhone: details.mobilePhone } : {}) };
}

/**
 * Admin mode: one SIREN exactly; each INTERNAL role becomes a NEW_ADMIN invitation on that SIREN, each
 * EXTERNAL one a ROLE_ASSIGNMENT on the first selected SIRET (spec §4). Normal mode: a direct creation on
 * the SIRETs, plus the SIREN of the first SIRET when an INTERNAL role is chosen (spec §5).
 */
export function planSubmission(mode: WizardMode, draft: WizardDraft, senderEmail: string | null): SubmissionPlan {
  const parsed = personalDetailsSchema.safeParse(draft.details);
  if (!parsed.success) return refused('detailsInvalid');
  const details = parsed.data;
  if (draft.roles.length === 0) return refused('noRole');
  if (draft.roles.length > MAX_ROLES) return refused('tooManyRoles');
  const internal = draft.roles.filter((r) => r.type === 'INTERNAL');
  const external = draft.roles.filter((r) => r.type !== 'INTERNAL');

  if (mode === 'admin') {
    if (!senderEmail) return refused('notSignedIn');
    if (draft.sirens.length === 0) return refused('adminNoSiren');
    if (draft.sirens.length > 1) return refused('adminOneSiren');
    const siren = draft.sirens[0]!;
    const firstSiret = draft.sirets.find((s) => s.sirenId === siren.id);
    if (external.length > 0 && !firstSiret) return refused('adminExternalNeedsSiret');
    const userProfile = { firstName: details.firstName, lastName: details.lastName, jobTitle: details.jobTitle, ...phones(details), street: details.street, city: details.city, postalCode: details.postalCode };
    const invitation = (role: WizardRole, organization: { id: string; code: string }, invitationType: 'NEW_ADMIN' | 'ROLE_ASSIGNMENT'): PlannedInvitation => ({
      organizationId: organization.id,
      organizationCode: organization.code,
      body: { inviteeEmail: details.email, roleCode: role.code, invitationType, metadata: { userProfile, isNewUser: true, senderEmail } },
    });
    return {
      kind: 'invitations',
      invitations: [...internal.map((role) => invitation(role, siren, 'NEW_ADMIN')), ...external.map((role) => invitation(role, firstSiret!, 'ROLE_ASSIGNMENT'))],
    };
  }

  if (internal.length > 0 && draft.sirens.length === 0) return refused('internalNeedsSiren');
  if (external.length > 0 && draft.sirets.length === 0) return refused('externalNeedsSiret');
  if (draft.sirets.length === 0) return refused('noSiret');
  const siretCodes = draft.sirets.map((s) => s.code);
  const organizationCodes = internal.length > 0 ? [...new Set([...siretCodes, siretCodes[0]!.slice(0, 9)])] : siretCodes;
  return {
    kind: 'user',
    body: {
      email: details.email,
      firstName: details.firstName,
      lastName: details.lastName,
      jobTitle: details.jobTitle,
      ...phones(details),
      street: details.street,
      postalCode: details.postalCode,
      city: details.city,
      organizationCodes,
      roleIds: draft.roles.map((r) => r.id),
    },
  };
}
