// The guard machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { isDeepStrictEqual } from 'node:util';
import type { SessionUser } from '../../rules/permissions';
import { guardMachine, guardOutcome, type GuardRequirement, type GuardSession } from '../../src/machines/guard/guard.machine';
import type { MachineModel, ModelEvent } from '../model/harness';

const backOfficeUser: SessionUser = {
  isActive: true,
  userType: 'BACKOFFICE',
  email: 'agent@opco.example',
  permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }],
};

const memberAdmin: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'admin@acme.example',
  organizations: [
    {
      id: 'o-1',
      code: '123456789',
      type: 'SIREN',
      role: { code: 'ORG_ADMIN', name: 'Admin Adhérent', type: 'INTERNAL', permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }] },
    },
  ],
};

const accountant: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'compta@acme.example',
  organizations: [
    { id: 'o-2', code: '12345678900011', type: 'SIRET', role: { code: 'COMPTABLE', name: 'Comptable', type: 'EXTERNAL', permissions: [] } },
  ],
};

export const sessions = {
  loading: { status: 'loading', user: null },
  signedOut: { status: 'ready', user: null },
  backOffice: { status: 'ready', user: backOfficeUser },
  memberAdmin: { status: 'ready', user: memberAdmin },
  accountantWithoutPermission: { status: 'ready', user: accountant },
  inactiveMemberAdmin: { status: 'ready', user: { ...memberAdmin, isActive: false } },
} satisfies Record<string, GuardSession>;

const sessionNames = new Map<GuardSession, string>(Object.entries(sessions).map(([name, s]) => [s, name]));

const requirements = {
  signedIn: {},
  backOfficeOnly: { backOfficeOnly: true },
  userCreate: { permissions: ['USER_CREATE'] },
  memberAdminRole: { roles: ['ADMIN_ADHERENT'], fallback: '/utilisateurs' },
  backOfficeListAndCreate: { backOfficeOnly: true, permissions: ['USER_LIST', 'USER_CREATE'], permissionMode: 'all' },
} satisfies Record<string, GuardRequirement>;

export const model: MachineModel<typeof guardMachine> = {
  machine: guardMachine,
  // The app starts every guard while the session loads; events then move it anywhere.
  inputs: Object.fromEntries(
    Object.entries(requirements).map(([name, requirement]) => [name, { requirement, session: sessions.loading }]),
  ),
  events: Object.values(sessions).map((session) => ({ type: 'session.changed' as const, session })),
  // The graph is a clique of four outcomes: shortest paths plus one per edge already take every
  // transition, so a few simple paths suffice.
  maxSimplePaths: 10,
  describeEvent: (event: ModelEvent<typeof guardMachine>) =>
    'session' in event ? `${event.type}(${sessionNames.get(event.session) ?? '?'})` : event.type,
  // Every snapshot must agree with spec §4 written out plainly, independently of the chart.
  invariant: (snapshot) => {
    const { requirement, session } = snapshot.context;
    const [actual, expected] = [guardOutcome(snapshot), specOutcome(requirement, session)];
    if (!isDeepStrictEqual(actual, expected)) throw new Error(`outcome ${JSON.stringify(actual)}, spec says ${JSON.stringify(expected)}`);
  },
};

/** Spec §4, step by step, as an oracle for the machine. */
function specOutcome(requirement: GuardRequirement, session: GuardSession) {
  const fallback = { kind: 'redirect', to: requirement.fallback ?? '/dashboard' };
  if (session.status === 'loading') return { kind: 'spinner' };
  const user = session.user;
  if (!user) return { kind: 'redirect', to: '/authentication/sign-in' };
  if (requirement.backOfficeOnly && user.userType !== 'BACKOFFICE') return fallback;
  const held = new Set([
    ...(user.permissions ?? []).map((p) => p.code),
    ...(user.userType === 'ORGANIZATION' ? (user.organizations ?? []).flatMap((o) => (o.role.permissions ?? []).map((p) => p.code)) : []),
  ]);
  const wanted = requirement.permissions ?? [];
  const ok = requirement.permissionMode === 'all' ? wanted.every((c) => held.has(c)) : wanted.length === 0 || wanted.some((c) => held.has(c));
  if (!ok) return fallback;
  const roles = requirement.roles ?? [];
  if (roles.length > 0) {
    const holds = roles.some((role) =>
      role === 'ADMIN_OPCO'
        ? user.userType === 'BACKOFFICE'
        : role === 'UTILISATEUR'
          ? true
          : role === 'ADMIN_ADHERENT'
            ? user.userType === 'ORGANIZATION' && (user.organizations ?? []).some((o) => ['ORG_ADMIN', 'ADMIN_ADHERENT'].includes(o.role.code))
            : (user.organizations ?? []).some((o) => o.role.code === role || o.role.name === role),
    );
    if (!holds) return fallback;
  }
  return { kind: 'render' };
}
