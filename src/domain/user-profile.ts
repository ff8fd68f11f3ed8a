import { sirenOf } from '../../rules/codes';

/** One organization and one role held there (OpenAPI UserDetailOrganization). */
export interface HeldOrganization {
  code: string;
  name: string;
  type: 'SIREN' | 'SIRET';
  parentCode: string | null;
  role: { code: string; name: string };
}

export interface HeldRole {
  code: string;
  name: string;
}

export interface ProfileSiret {
  code: string;
  name: string;
  roles: HeldRole[];
}

export interface ProfileSiren {
  code: string;
  /** '' when the answer does not name it (the user holds only SIRETs of it). */
  name: string;
  /** Roles held on the SIREN itself. */
  roles: HeldRole[];
  sirets: ProfileSiret[];
}

const addRole = (roles: HeldRole[], role: HeldRole) => {
  if (!roles.some((r) => r.code === role.code)) roles.push({ code: role.code, name: role.name });
};

/** Spec §2 /utilisateurs/{id}: the user's organizations per SIREN, each with its SIRETs and the roles held, sorted by code. */
export function groupBySiren(organizations: readonly HeldOrganization[]): ProfileSiren[] {
  const sirens = new Map<string, ProfileSiren>();
  const sirenFor = (code: string) => {
    if (!sirens.has(code)) sirens.set(code, { code, name: '', roles: [], sirets: [] });
    return sirens.get(code)!;
  };
  for (const o of organizations) {
    if (o.type === 'SIREN') {
      const siren = sirenFor(o.code);
      siren.name ||= o.name;
      addRole(siren.roles, o.role);
      continue;
    }
    const siren = sirenFor(o.parentCode ?? sirenOf(o.code));
    let siret = siren.sirets.find((s) => s.code === o.code);
    if (!siret) siren.sirets.push((siret = { code: o.code, name: o.name, roles: [] }));
    addRole(siret.roles, o.role);
  }
  const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);
  return [...sirens.values()].sort(byCode).map((s) => ({ ...s, sirets: s.sirets.sort(byCode) }));
}
