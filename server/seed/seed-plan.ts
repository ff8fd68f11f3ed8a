// The demo data set as plain objects, computed without the database. Deterministic: a seeded generator
// drawn in a fixed order, ids derived from stable keys, dates relative to REFERENCE_DATE, but for the pending
// requests: those are dated relative to the moment the seed runs, so that the demo has requests to decide on any
// day it is started (they would otherwise expire at start, INVITATION_EXPIRY_DAYS after REFERENCE_DATE).
import { makeSiren, makeSiret } from '../../rules/codes.ts';
import { DEFAULT_INVITATION_EXPIRY_DAYS } from '../config.ts';
import type { InvitationStatus, InvitationType, UserType } from '../db/schema.ts';
import type { NewUserFields } from '../features/users/users.model.ts';
import {
  CLINIQUE_DES_TILLEULS,
  EHPAD_LES_GLYCINES,
  EMPLOYERS,
  EXTERNAL_ROLE_WEIGHTS,
  FIRST_NAMES,
  JOB_TITLES,
  JOB_TITLES_BY_ROLE,
  LAST_NAMES,
  REFERENCE_DATE,
  REGIONS,
  REJECTION_REASONS,
  CANCELLATION_REASON,
  ROLES,
  STREETS,
  type EmployerSeed,
  type Gender,
  type JobTitleKey,
  type Town,
} from './seed-data.ts';
import { Random, stableUuid } from './seed-random.ts';

export { stableUuid } from './seed-random.ts';

const PRNG_SEED = 20_261_101;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const REF = REFERENCE_DATE.getTime();
const OTHER_USERS = 200;

const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

// ---------------------------------------------------------------------------------------------
// The plan: every row, built in memory without the database.

export interface PlannedSite {
  id: string;
  code: string;
  name: string;
  town: Town;
}

export interface PlannedEmployer {
  seed: EmployerSeed;
  id: string;
  code: string;
  phonePrefix: string;
  sites: PlannedSite[];
}

export interface PlannedAssignment {
  id: string;
  organizationId: string;
  organizationCode: string;
  roleCode: string;
  inheritsToChildren: boolean;
  /** Set when an approved invitation gave this role. */
  grantedAt: Date | null;
}

/** A demo user: the fields of a new user, and their identity, roles and history. */
export interface PlannedUser extends NewUserFields {
  id: string;
  authId: string;
  gender: Gender;
  userType: UserType;
  isActive: boolean;
  neverSignedIn: boolean;
  permissions: string[];
  assignments: PlannedAssignment[];
  hasPassword: boolean;
  /** Demo accounts and the named people of the two demo employers: never picked by the generator. */
  fixed: boolean;
  employer: PlannedEmployer | null;
  /** Set when an approved NEW_ADMIN invitation created the account. */
  createdAtOverride: Date | null;
  createdAt: Date;
  updatedAt: Date;
  lastLoginAt: Date | null;
}

export interface PlannedInvitation {
  inviteeEmail: string;
  organizationId: string;
  organizationCode: string;
  organizationName: string;
  roleCode: string;
  status: InvitationStatus;
  invitationType: InvitationType;
  senderUserId: string;
  senderEmail: string;
  validatorUserId: string | null;
  validatorEmail: string | null;
  rejectionReason: string | null;
  /** CANCELLED: the requester (the sender), and their reason if they gave one. */
  cancelledByUserId: string | null;
  cancelledByEmail: string | null;
  cancellationReason: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  processedAt: Date | null;
}

export interface DemoPlanOptions {
  /** The moment the seed runs (default: the clock's): the pending requests are made 1 hour to 20 days before it. */
  now?: Date;
  /** INVITATION_EXPIRY_DAYS (default 30): the expired requests expired that many days after they were made. */
  expiryDays?: number;
}

export interface DemoPlan {
  employers: PlannedEmployer[];
  users: PlannedUser[];
  invitations: PlannedInvitation[];
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '');
}

const ROLE_BY_CODE = new Map(ROLES.map((role) => [role.code, role]));

export function roleName(code: string): string {
  const role = ROLE_BY_CODE.get(code);
  if (!role) throw new Error(`unknown role ${code}`);
  return role.name;
}

class PlanBuilder {
  readonly rng = new Random(PRNG_SEED);
  /**
   * The draws that only the expired and cancelled requests make, apart: each of them draws from `rng` what the
   * pending request it replaced drew, so that every other row is the one drawn before those statuses existed.
   */
  readonly lifecycleRng = new Random(PRNG_SEED + 22);
  readonly now: number;
  readonly expiryDays: number;
  readonly employers: PlannedEmployer[] = [];
  readonly users: PlannedUser[] = [];
  readonly invitations: PlannedInvitation[] = [];
  readonly #emails = new Set<string>();

  constructor(options: DemoPlanOptions) {
    this.now = (options.now ?? new Date()).getTime();
    this.expiryDays = options.expiryDays ?? DEFAULT_INVITATION_EXPIRY_DAYS;
  }

  buildOrganizations(): void {
    const sirens = new Set<string>();
    for (const [index, seed] of EMPLOYERS.entries()) {
      let siren: string;
      do siren = makeSiren(`${this.rng.int(1, 9)}${this.rng.digits(7)}`);
      while (sirens.has(siren));
      sirens.add(siren);
      const region = REGIONS[seed.region];
      // The two demo employers keep their region's first towns; the others start anywhere.
      const offset = index < 2 ? 0 : this.rng.int(0, region.towns.length - 1);
      const sites = Array.from({ length: seed.sites }, (_, i): PlannedSite => {
        const town = region.towns[(offset + i) % region.towns.length] as Town;
        const code = makeSiret(siren, i + 1);
        return { id: stableUuid(`organization:${code}`), code, name: `${seed.name} - ${town.city}`, town };
      });
      this.employers.push({ seed, id: stableUuid(`organization:${siren}`), code: siren, phonePrefix: region.phonePrefix, sites });
    }
  }

  employerNamed(name: string): PlannedEmployer {
    const employer = this.employers.find((candidate) => candidate.seed.name === name);
    if (!employer) throw new Error(`no employer ${name}`);
    return employer;
  }

  email(firstName: string, lastName: string, domain: string): string {
    const base = `${asciiSlug(firstName)}.${asciiSlug(lastName)}`;
    let candidate = `${base}@${domain}`;
    for (let n = 2; this.#emails.has(candidate); n += 1) candidate = `${base}${n}@${domain}`;
    this.#emails.add(candidate);
    return candidate;
  }

  landline(prefix: string): string {
    return [prefix, String(this.rng.int(20, 99)), ...Array.from({ length: 3 }, () => this.rng.digits(2))].join(' ');
  }

  mobile(): string {
    return [this.rng.pick(['06', '07']), ...Array.from({ length: 4 }, () => this.rng.digits(2))].join(' ');
  }

  street(): string {
    return `${this.rng.int(1, 140)} ${this.rng.pick(STREETS)}`;
  }

  jobTitleFor(roleCode: string, gender: Gender): string {
    const keys = JOB_TITLES_BY_ROLE[roleCode] ?? (['admin'] as const);
    const title = JOB_TITLES[this.rng.pick(keys) as JobTitleKey];
    return gender === 'F' ? title[1] : title[0];
  }

  assignment(user: { email: string }, organization: { id: string; code: string }, roleCode: string): PlannedAssignment {
    return {
      id: stableUuid(`role-assignment:${user.email}:${organization.code}:${roleCode}`),
      organizationId: organization.id,
      organizationCode: organization.code,
      roleCode,
      inheritsToChildren: organization.code.length === 9,
      grantedAt: null,
    };
  }

  addUser(input: {
    email: string;
    firstName: string;
    lastName: string;
    gender: Gender;
    jobTitle: string | null;
    userType: UserType;
    employer: PlannedEmployer | null;
    town: Town | null;
    isActive?: boolean;
    neverSignedIn?: boolean;
    permissions?: string[];
    roles?: [{ id: string; code: string }, string][];
    hasPassword?: boolean;
    fixed: boolean;
  }): PlannedUser {
    this.#emails.add(input.email);
    const prefix = input.employer?.phonePrefix ?? '01';
    const user: PlannedUser = {
      id: stableUuid(`user:${input.email}`),
      authId: stableUuid(`identity-subject:${input.email}`),
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      gender: input.gender,
      jobTitle: input.jobTitle,
      phoneNumber: this.rng.chance(0.9) ? this.landline(prefix) : null,
      mobilePhone: this.rng.chance(0.6) ? this.mobile() : null,
      street: input.town ? this.street() : null,
      postalCode: input.town?.postalCode ?? null,
      city: input.town?.city ?? null,
      userType: input.userType,
      isActive: input.isActive ?? true,
      neverSignedIn: input.neverSignedIn ?? false,
      permissions: input.permissions ?? [],
      assignments: [],
      hasPassword: input.hasPassword ?? false,
      fixed: input.fixed,
      employer: input.employer,
      createdAtOverride: null,
      createdAt: REFERENCE_DATE,
      updatedAt: REFERENCE_DATE,
      lastLoginAt: null,
    };
    for (const [organization, roleCode] of input.roles ?? []) user.assignments.push(this.assignment(user, organization, roleCode));
    this.users.push(user);
    return user;
  }

  buildFixedUsers(): void {
    const clinique = this.employerNamed(CLINIQUE_DES_TILLEULS);
    const ehpad = this.employerNamed(EHPAD_LES_GLYCINES);
    const [cLyon, cVilleurbanne, cCaluire] = clinique.sites as [PlannedSite, PlannedSite, PlannedSite];
    const [eNantes, eReze, eHerblain] = ehpad.sites as [PlannedSite, PlannedSite, PlannedSite];
    const office = { city: 'Paris', postalCode: '75012' };
    const all = ['USER_LIST', 'USER_CREATE', 'USER_DELETE', 'B2C_USER_DISABLE', 'ORG_LIST'];
    const fixed = true;
    // The six demo accounts.
    this.addUser({ email: 'backoffice@portail.test', firstName: 'Béatrice', lastName: 'Marchand', gender: 'F', jobTitle: 'Chargée de relation adhérents', userType: 'BACKOFFICE', employer: null, town: office, permissions: all, hasPassword: true, fixed });
    this.addUser({ email: 'lecteur@portail.test', firstName: 'Luc', lastName: 'Perrin', gender: 'M', jobTitle: 'Contrôleur de gestion', userType: 'BACKOFFICE', employer: null, town: office, permissions: ['USER_LIST'], hasPassword: true, fixed });
    this.addUser({ email: 'admin.clinique@portail.test', firstName: 'Claire', lastName: 'Vasseur', gender: 'F', jobTitle: 'Directrice des ressources humaines', userType: 'ORGANIZATION', employer: clinique, town: cLyon.town, roles: [[clinique, 'ADMIN_ADHERENT']], hasPassword: true, fixed });
    this.addUser({ email: 'rh.clinique@portail.test', firstName: 'Romain', lastName: 'Garnier', gender: 'M', jobTitle: 'Gestionnaire RH', userType: 'ORGANIZATION', employer: clinique, town: cLyon.town, roles: [[cLyon, 'RESSOURCE_HUMAINE']], hasPassword: true, fixed });
    this.addUser({ email: 'admin.ehpad@portail.test', firstName: 'Éric', lastName: 'Fabre', gender: 'M', jobTitle: "Directeur d'établissement", userType: 'ORGANIZATION', employer: ehpad, town: eNantes.town, roles: [[ehpad, 'ADMIN_ADHERENT']], hasPassword: true, fixed });
    this.addUser({ email: 'inactif@portail.test', firstName: 'Inès', lastName: 'Fournier', gender: 'F', jobTitle: 'Responsable paie', userType: 'ORGANIZATION', employer: ehpad, town: eReze.town, roles: [[eReze, 'GESTIONNAIRE']], isActive: false, hasPassword: true, fixed });
    // Named colleagues, so that both demo administrators have people to manage.
    const named = (firstName: string, lastName: string, gender: Gender, employer: PlannedEmployer, town: Town, roles: [{ id: string; code: string }, string][]) =>
      this.addUser({
        email: this.email(firstName, lastName, employer.seed.domain),
        firstName,
        lastName,
        gender,
        jobTitle: this.jobTitleFor(roles[0]?.[1] ?? 'GESTIONNAIRE', gender),
        userType: 'ORGANIZATION',
        employer,
        town,
        roles,
        fixed,
      });
    named('Hélène', 'Lefèvre', 'F', clinique, cLyon.town, [[clinique, 'ADMIN_ADHERENT']]);
    named('Mathéo', 'Girard', 'M', clinique, cLyon.town, [[cLyon, 'COMPTABLE'], [cVilleurbanne, 'GESTIONNAIRE_ALTERNANCE']]);
    named('Zoé', 'Bonnet', 'F', clinique, cCaluire.town, [[cCaluire, 'GESTIONNAIRE'], [cCaluire, 'RESSOURCE_HUMAINE']]);
    named('Gaëlle', 'Le Goff', 'F', ehpad, eNantes.town, [[eNantes, 'RESSOURCE_HUMAINE']]);
    named('François', 'Ménard', 'M', ehpad, eReze.town, [[eReze, 'COMPTABLE'], [eNantes, 'DECIDEUR_SIGNATAIRE']]);
    named('Anaïs', "N'Diaye", 'F', ehpad, eHerblain.town, [[eHerblain, 'GESTIONNAIRE']]);
  }

  buildGeneratedUsers(): void {
    const namedCount = this.users.filter((user) => user.fixed && user.userType === 'ORGANIZATION' && !user.hasPassword).length;
    const total = OTHER_USERS - namedCount;
    // Two people per employer, then the rest in proportion to the number of establishments.
    const homes: PlannedEmployer[] = [];
    for (const employer of this.employers) homes.push(employer, employer);
    const weights = this.employers.map((employer) => [employer, employer.sites.length] as const);
    while (homes.length < total) homes.push(this.rng.weighted(weights));

    const seenEmployers = new Set<PlannedEmployer>();
    for (const employer of homes) {
      const firstOfEmployer = !seenEmployers.has(employer);
      seenEmployers.add(employer);
      const demoEmployer = employer.seed.name === CLINIQUE_DES_TILLEULS || employer.seed.name === EHPAD_LES_GLYCINES;
      const isAdmin = firstOfEmployer && !demoEmployer && this.rng.chance(0.65);
      this.addGeneratedUser(employer, isAdmin);
    }
  }

  addGeneratedUser(employer: PlannedEmployer, isAdmin: boolean): void {
    const first = this.rng.pick(FIRST_NAMES);
    const lastName = this.rng.pick(LAST_NAMES);
    const email = this.email(first.name, lastName, employer.seed.domain);
    const sites = employer.sites;
    const primary = isAdmin ? 0 : this.rng.int(0, sites.length - 1);
    const roles: [{ id: string; code: string }, string][] = [];
    const held = new Set<string>();
    const externalWeights = EXTERNAL_ROLE_WEIGHTS.filter(([code]) => code !== 'GESTIONNAIRE_ESAT' || employer.seed.esat);
    const addExternal = () => {
      const siteIndex = sites.length > 1 && this.rng.chance(0.3) ? this.rng.int(0, sites.length - 1) : primary;
      const choices = externalWeights.filter(([code]) => !held.has(`${siteIndex}:${code}`));
      const code = this.rng.weighted(choices);
      held.add(`${siteIndex}:${code}`);
      roles.push([sites[siteIndex] as PlannedSite, code]);
    };
    let count: number;
    if (isAdmin) {
      roles.push([employer, 'ADMIN_ADHERENT']);
      count = 1 + this.rng.weighted([[0, 60], [1, 30], [2, 10]] as const);
    } else {
      count = this.rng.weighted([[1, 40], [2, 30], [3, 15], [4, 10], [5, 5]] as const);
    }
    while (roles.length < count) addExternal();
    // A few people (accountants, mostly) also work for a second employer.
    if (roles.length < 5 && this.rng.chance(0.04)) {
      const other = this.rng.pick(this.employers.filter((candidate) => candidate !== employer));
      roles.push([other.sites[0] as PlannedSite, 'CABINET_COMPTABLE']);
    }
    const firstRole = roles[0]?.[1] ?? 'GESTIONNAIRE';
    this.addUser({
      email,
      firstName: first.name,
      lastName,
      gender: first.gender,
      jobTitle: this.jobTitleFor(firstRole, first.gender),
      userType: 'ORGANIZATION',
      employer,
      town: (sites[primary] as PlannedSite).town,
      roles,
      fixed: false,
    });
  }

  /** Exactly 10% of the generated people are inactive and 15% never signed in. */
  markStatuses(): void {
    const generated = this.users.filter((user) => !user.fixed);
    for (const user of this.rng.shuffle(generated).slice(0, Math.round(generated.length * 0.1))) user.isActive = false;
    for (const user of this.rng.shuffle(generated).slice(0, Math.round(generated.length * 0.15))) user.neverSignedIn = true;
  }

  // --- invitations -----------------------------------------------------------------------------

  user(email: string): PlannedUser {
    const user = this.users.find((candidate) => candidate.email === email);
    if (!user) throw new Error(`no user ${email}`);
    return user;
  }

  isAdminOf(user: PlannedUser, employer: PlannedEmployer): boolean {
    return user.assignments.some((a) => a.roleCode === 'ADMIN_ADHERENT' && a.organizationId === employer.id);
  }

  holdsInternalRole(user: PlannedUser): boolean {
    return user.assignments.some((a) => ROLE_BY_CODE.get(a.roleCode)?.type === 'INTERNAL');
  }

  /** An administrator of the employer other than the invitee, or else the back office. */
  senderFor(employer: PlannedEmployer, inviteeEmail: string, preferred?: PlannedUser): PlannedUser {
    if (preferred) return preferred;
    const admins = this.users.filter((u) => u.isActive && u.email !== inviteeEmail && this.isAdminOf(u, employer));
    return admins.length > 0 && this.rng.chance(0.5) ? this.rng.pick(admins) : this.user('backoffice@portail.test');
  }

  profileOf(person: Pick<PlannedUser, 'firstName' | 'lastName' | 'phoneNumber' | 'jobTitle' | 'mobilePhone' | 'street' | 'city' | 'postalCode'>) {
    return {
      firstName: person.firstName,
      lastName: person.lastName,
      phoneNumber: person.phoneNumber,
      jobTitle: person.jobTitle,
      mobilePhone: person.mobilePhone,
      street: person.street,
      city: person.city,
      postalCode: person.postalCode,
    };
  }

  /** Someone who has no account yet, for NEW_ADMIN requests. */
  newPerson(employer: PlannedEmployer) {
    const first = this.rng.pick(FIRST_NAMES);
    const lastName = this.rng.pick(LAST_NAMES);
    const town = (employer.sites[0] as PlannedSite).town;
    return {
      email: this.email(first.name, lastName, employer.seed.domain),
      firstName: first.name,
      lastName,
      phoneNumber: this.landline(employer.phonePrefix),
      jobTitle: this.jobTitleFor('ADMIN_ADHERENT', first.gender),
      mobilePhone: this.rng.chance(0.5) ? this.mobile() : null,
      street: this.street(),
      city: town.city,
      postalCode: town.postalCode,
    };
  }

  /**
   * Creation and move dates. Pending: made 1 hour to 20 days before the seed runs, so still pending for at least 10
   * days after a fresh start (with the default period). The others before REFERENCE_DATE, within its last 60 days:
   * decided, or cancelled, 1 hour to 3 days after being made; expired exactly `expiryDays` after being made.
   */
  dates(status: InvitationStatus): { createdAt: Date; processedAt: Date | null } {
    switch (status) {
      case 'PENDING':
        return { createdAt: at(this.now - this.rng.int(HOUR, 20 * DAY)), processedAt: null };
      case 'EXPIRED': {
        const createdAt = at(REF - this.expiryDays * DAY - this.rng.int(HOUR, 29 * DAY));
        return { createdAt, processedAt: new Date(createdAt.getTime() + this.expiryDays * DAY) };
      }
      case 'CANCELLED': {
        const created = REF - this.rng.int(4 * DAY, 59 * DAY);
        const cancelledAfter = this.lifecycleRng.int(HOUR, Math.min(72 * HOUR, this.expiryDays * DAY - MINUTE));
        return { createdAt: at(created), processedAt: at(created + cancelledAfter) };
      }
      default: {
        const created = REF - this.rng.int(4 * DAY, 59 * DAY);
        return { createdAt: at(created), processedAt: at(created + this.rng.int(HOUR, 72 * HOUR)) };
      }
    }
  }

  addInvitation(input: {
    status: InvitationStatus;
    type: InvitationType;
    employer: PlannedEmployer;
    organization: { id: string; code: string; name: string };
    roleCode: string;
    invitee: { email: string; userId?: string; profile: Record<string, unknown> };
    sender: PlannedUser;
  }): PlannedInvitation {
    const { createdAt, processedAt } = this.dates(input.status);
    const decided = input.status === 'APPROVED' || input.status === 'REJECTED';
    const validator = decided ? this.user('backoffice@portail.test') : null;
    const cancelledBy = input.status === 'CANCELLED' ? input.sender : null;
    const invitation: PlannedInvitation = {
      inviteeEmail: input.invitee.email,
      organizationId: input.organization.id,
      organizationCode: input.organization.code,
      organizationName: input.organization.name,
      roleCode: input.roleCode,
      status: input.status,
      invitationType: input.type,
      senderUserId: input.sender.id,
      senderEmail: input.sender.email,
      validatorUserId: validator?.id ?? null,
      validatorEmail: validator?.email ?? null,
      rejectionReason: input.status === 'REJECTED' ? this.rng.pick(REJECTION_REASONS) : null,
      cancelledByUserId: cancelledBy?.id ?? null,
      cancelledByEmail: cancelledBy?.email ?? null,
      cancellationReason: null,
      metadata: {
        userProfile: input.invitee.profile,
        isNewUser: input.type === 'NEW_ADMIN',
        senderEmail: input.sender.email,
        ...(input.invitee.userId ? { userId: input.invitee.userId } : {}),
      },
      createdAt,
      processedAt,
    };
    this.invitations.push(invitation);
    return invitation;
  }

  siren(employer: PlannedEmployer) {
    return { id: employer.id, code: employer.code, name: employer.seed.name };
  }

  buildInvitations(): void {
    const backoffice = this.user('backoffice@portail.test');
    const adminClinique = this.user('admin.clinique@portail.test');
    const adminEhpad = this.user('admin.ehpad@portail.test');
    const clinique = this.employerNamed(CLINIQUE_DES_TILLEULS);
    const ehpad = this.employerNamed(EHPAD_LES_GLYCINES);
    const employerOf = (user: PlannedUser) => {
      if (!user.employer) throw new Error(`${user.email} has no employer`);
      return user.employer;
    };
    const generatedAdmins = this.rng.shuffle(
      this.users.filter((u) => !u.fixed && u.isActive && u.employer && this.isAdminOf(u, u.employer)),
    );
    const zoe = this.user('zoe.bonnet@clinique-des-tilleuls.fr');
    const gaelle = this.user('gaelle.le-goff@ehpad-les-glycines.fr');
    // Kept for the pending requests of the demo employers below.
    const taken = new Set<PlannedUser>([zoe, gaelle]);
    // People who may be proposed as administrators: active, no INTERNAL role, not a demo account.
    const candidates = () =>
      this.rng.shuffle(this.users.filter((u) => !u.hasPassword && u.isActive && u.employer && !this.holdsInternalRole(u) && !taken.has(u)));

    const existing = (user: PlannedUser) => ({ email: user.email, userId: user.id, profile: this.profileOf(user) });
    const adminRequest = (status: InvitationStatus, type: InvitationType, user: PlannedUser, sender?: PlannedUser) => {
      taken.add(user);
      const employer = employerOf(user);
      return this.addInvitation({ status, type, employer, organization: this.siren(employer), roleCode: 'ADMIN_ADHERENT', invitee: existing(user), sender: this.senderFor(employer, user.email, sender) });
    };
    /** An external role on one of the employer's establishments that the person does not hold yet. */
    const externalRequest = (status: InvitationStatus, user: PlannedUser) => {
      taken.add(user);
      const employer = employerOf(user);
      const site = this.rng.pick(employer.sites);
      const held = new Set(user.assignments.filter((a) => a.organizationId === site.id).map((a) => a.roleCode));
      const roleCode = this.rng.pick(['GESTIONNAIRE', 'RESSOURCE_HUMAINE', 'COMPTABLE', 'GESTIONNAIRE_ALTERNANCE'].filter((code) => !held.has(code)));
      return this.addInvitation({ status, type: 'ROLE_ASSIGNMENT', employer, organization: site, roleCode, invitee: existing(user), sender: this.senderFor(employer, user.email) });
    };
    const newAdminRequest = (status: InvitationStatus, employer: PlannedEmployer, sender?: PlannedUser) => {
      const person = this.newPerson(employer);
      return this.addInvitation({ status, type: 'NEW_ADMIN', employer, organization: this.siren(employer), roleCode: 'ADMIN_ADHERENT', invitee: { email: person.email, profile: this.profileOf(person) }, sender: this.senderFor(employer, person.email, sender) });
    };
    const randomEmployer = () => this.rng.pick(this.employers.slice(2));

    // APPROVED NEW_ADMIN: the account was created by the approval.
    for (const admin of generatedAdmins.slice(0, 6)) {
      const invitation = adminRequest('APPROVED', 'NEW_ADMIN', admin);
      invitation.metadata.isNewUser = true;
      delete invitation.metadata.userId;
      const granted = at((invitation.processedAt as Date).getTime() + 10 * MINUTE);
      admin.createdAtOverride = granted;
      for (const assignment of admin.assignments) assignment.grantedAt = granted;
    }
    // APPROVED ROLE_ASSIGNMENT: existing people who became administrators, and two external roles.
    const grant = (user: PlannedUser, invitation: PlannedInvitation) => {
      const assignment = user.assignments.find((a) => a.organizationId === invitation.organizationId && a.roleCode === invitation.roleCode);
      if (assignment) assignment.grantedAt = at((invitation.processedAt as Date).getTime() + 10 * MINUTE);
    };
    const helene = this.user('helene.lefevre@clinique-des-tilleuls.fr');
    grant(helene, adminRequest('APPROVED', 'ROLE_ASSIGNMENT', helene, adminClinique));
    for (const admin of generatedAdmins.slice(6, 10)) grant(admin, adminRequest('APPROVED', 'ROLE_ASSIGNMENT', admin));
    for (const user of candidates().filter((u) => u.assignments.length < 5).slice(0, 2)) {
      const invitation = externalRequest('APPROVED', user);
      user.assignments.push(this.assignment(user, { id: invitation.organizationId, code: invitation.organizationCode }, invitation.roleCode));
      grant(user, invitation);
    }
    // REJECTED.
    for (let i = 0; i < 5; i += 1) newAdminRequest('REJECTED', randomEmployer());
    const rejected = candidates();
    for (const user of rejected.slice(0, 4)) adminRequest('REJECTED', 'ROLE_ASSIGNMENT', user);
    for (const user of rejected.slice(4, 6)) externalRequest('REJECTED', user);
    // PENDING: including requests that the two demo administrators made. A few others expired, or were cancelled
    // by their requester (one with a reason), of both types.
    newAdminRequest('PENDING', clinique, adminClinique);
    newAdminRequest('PENDING', ehpad, adminEhpad);
    const otherNewAdmins: InvitationStatus[] = ['EXPIRED', 'EXPIRED', 'CANCELLED', 'PENDING', 'PENDING', 'PENDING'];
    for (const status of otherNewAdmins) newAdminRequest(status, randomEmployer());
    adminRequest('PENDING', 'ROLE_ASSIGNMENT', zoe, adminClinique);
    adminRequest('PENDING', 'ROLE_ASSIGNMENT', gaelle, backoffice);
    const others = candidates();
    const otherAdmins: InvitationStatus[] = ['EXPIRED', 'CANCELLED', 'PENDING', 'PENDING'];
    for (const [index, user] of others.slice(0, 4).entries()) {
      const invitation = adminRequest(otherAdmins[index] as InvitationStatus, 'ROLE_ASSIGNMENT', user);
      if (invitation.status === 'CANCELLED') invitation.cancellationReason = CANCELLATION_REASON;
    }
    for (const user of others.slice(4, 6)) externalRequest('PENDING', user);

    // Ids follow creation order.
    this.invitations.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.inviteeEmail.localeCompare(b.inviteeEmail));
  }

  // --- dates ---------------------------------------------------------------------------------

  buildUserDates(): void {
    for (const user of this.users) {
      if (user.hasPassword) {
        user.createdAt = at(REF - 400 * DAY);
        user.lastLoginAt = user.isActive ? at(REF - this.rng.int(HOUR, 10 * DAY)) : at(REF - 200 * DAY);
      } else {
        user.createdAt = user.createdAtOverride ?? at(REF - this.rng.int(60 * DAY, 1400 * DAY));
        const span = REF - user.createdAt.getTime();
        const recentWindow = Math.min(span, (user.isActive ? 90 : 400) * DAY);
        user.lastLoginAt = user.neverSignedIn ? null : at(REF - this.rng.float() * recentWindow);
      }
      const latestGrant = Math.max(user.createdAt.getTime(), ...user.assignments.map((a) => a.grantedAt?.getTime() ?? 0));
      user.updatedAt = at(latestGrant + this.rng.float() * (REF - latestGrant));
    }
  }
}

/** The whole demo data set, computed without the database (deterministic). */
export function buildDemoPlan(options: DemoPlanOptions = {}): DemoPlan {
  const builder = new PlanBuilder(options);
  builder.buildOrganizations();
  builder.buildFixedUsers();
  builder.buildGeneratedUsers();
  builder.markStatuses();
  builder.buildInvitations();
  builder.buildUserDates();
  return { employers: builder.employers, users: builder.users, invitations: builder.invitations };
}
