import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { InspectionEvent } from 'xstate';
import type { SessionUser } from '../../src/domain/permissions';
import {
  guardMachine,
  guardOutcome,
  type GuardInput,
  type GuardRequirement,
  type GuardSession,
} from '../../src/machines/guard/guard.machine';
import { describeMachineModel, type ModelEvent } from '../model/harness';

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

const sessions = {
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

describeMachineModel('guard machine (model)', {
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
    expect(guardOutcome(snapshot)).toEqual(specOutcome(requirement, session));
  },
});

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

function outcomeOf(requirement: GuardRequirement, session: GuardSession) {
  const actor = createActor(guardMachine, { input: { requirement, session } }).start();
  const outcome = guardOutcome(actor.getSnapshot());
  actor.stop();
  return outcome;
}

/** Guards of the eventless transitions taken by the last evaluation ('none' for the final default one). */
function guardsTaken(input: GuardInput, changes: GuardSession[] = []): string[] {
  let taken: string[] = [];
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.microstep') return;
    if (event.event.type === 'session.changed') taken = [];
    for (const t of event._transitions) if (t.eventType === '') taken.push(typeof t.guard === 'string' ? t.guard : 'none');
  };
  const actor = createActor(guardMachine, { input, inspect }).start();
  for (const session of changes) actor.send({ type: 'session.changed', session });
  actor.stop();
  return taken;
}

describe('guard machine, in the order of spec §4', () => {
  it('shows the spinner while the session loads, even on a back-office-only route', () => {
    expect(outcomeOf({ backOfficeOnly: true, permissions: ['USER_DELETE'] }, sessions.loading)).toEqual({ kind: 'spinner' });
  });

  it('redirects to sign-in when nobody is signed in, even on a back-office-only route', () => {
    expect(outcomeOf({ backOfficeOnly: true, fallback: '/elsewhere' }, sessions.signedOut)).toEqual({
      kind: 'redirect',
      to: '/authentication/sign-in',
    });
  });

  it('sends an organization user on a back-office-only route to /dashboard', () => {
    expect(outcomeOf({ backOfficeOnly: true }, sessions.memberAdmin)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('honours a custom fallback', () => {
    expect(outcomeOf({ backOfficeOnly: true, fallback: '/utilisateurs' }, sessions.memberAdmin)).toEqual({
      kind: 'redirect',
      to: '/utilisateurs',
    });
  });

  it('renders a back-office-only route for a back-office user', () => {
    expect(outcomeOf({ backOfficeOnly: true }, sessions.backOffice)).toEqual({ kind: 'render' });
  });

  it('refuses a back-office user lacking a required permission', () => {
    expect(outcomeOf({ backOfficeOnly: true, permissions: ['USER_DELETE'] }, sessions.backOffice)).toEqual({
      kind: 'redirect',
      to: '/dashboard',
    });
  });

  it("needs one of the permissions in 'any' mode and all of them in 'all' mode", () => {
    const permissions = ['USER_CREATE', 'USER_DELETE'];
    expect(outcomeOf({ permissions }, sessions.memberAdmin)).toEqual({ kind: 'render' });
    expect(outcomeOf({ permissions, permissionMode: 'all' }, sessions.memberAdmin)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('treats empty permission and role lists as no requirement', () => {
    expect(outcomeOf({ permissions: [], roles: [] }, sessions.accountantWithoutPermission)).toEqual({ kind: 'render' });
  });

  it('reads the pseudo-roles: ADMIN_OPCO is back-office, ADMIN_ADHERENT an organization admin, UTILISATEUR anyone', () => {
    expect(outcomeOf({ roles: ['ADMIN_OPCO'] }, sessions.backOffice)).toEqual({ kind: 'render' });
    expect(outcomeOf({ roles: ['ADMIN_OPCO'] }, sessions.memberAdmin)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(outcomeOf({ roles: ['ADMIN_ADHERENT'] }, sessions.memberAdmin)).toEqual({ kind: 'render' });
    expect(outcomeOf({ roles: ['ADMIN_ADHERENT'] }, sessions.backOffice)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(outcomeOf({ roles: ['UTILISATEUR'] }, sessions.accountantWithoutPermission)).toEqual({ kind: 'render' });
  });

  it('matches other roles by code or name, any one of them sufficing', () => {
    expect(outcomeOf({ roles: ['GESTIONNAIRE', 'COMPTABLE'] }, sessions.accountantWithoutPermission)).toEqual({ kind: 'render' });
    expect(outcomeOf({ roles: ['Comptable'] }, sessions.accountantWithoutPermission)).toEqual({ kind: 'render' });
    expect(outcomeOf({ roles: ['GESTIONNAIRE'] }, sessions.accountantWithoutPermission)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('checks back-office before permissions, and permissions before roles', () => {
    const requirement = { backOfficeOnly: true, permissions: ['USER_DELETE'], roles: ['GESTIONNAIRE'] };
    expect(guardsTaken({ requirement, session: sessions.accountantWithoutPermission })).toEqual(['isRefusedBackOfficeOnly']);
    expect(guardsTaken({ requirement: { ...requirement, backOfficeOnly: false }, session: sessions.accountantWithoutPermission })).toEqual([
      'isMissingPermission',
    ]);
    expect(guardsTaken({ requirement: { roles: ['GESTIONNAIRE'] }, session: sessions.accountantWithoutPermission })).toEqual(['isMissingRole']);
  });

  it('judges an inactive user by the same rules: refusing them sign-in is the session flow’s job (spec §2)', () => {
    expect(outcomeOf({ permissions: ['USER_CREATE'] }, sessions.inactiveMemberAdmin)).toEqual({ kind: 'render' });
  });

  it('evaluates again from the start on every session change, including one that leads to the same outcome', () => {
    const actor = createActor(guardMachine, { input: { requirement: { permissions: ['USER_CREATE'] }, session: sessions.loading } }).start();
    expect(guardOutcome(actor.getSnapshot())).toEqual({ kind: 'spinner' });
    actor.send({ type: 'session.changed', session: sessions.memberAdmin });
    expect(guardOutcome(actor.getSnapshot())).toEqual({ kind: 'render' });
    actor.send({ type: 'session.changed', session: sessions.backOffice });
    expect(actor.getSnapshot().context.session).toBe(sessions.backOffice);
    expect(guardOutcome(actor.getSnapshot())).toEqual({ kind: 'render' });
    actor.send({ type: 'session.changed', session: sessions.accountantWithoutPermission });
    expect(guardOutcome(actor.getSnapshot())).toEqual({ kind: 'redirect', to: '/dashboard' });
    actor.send({ type: 'session.changed', session: sessions.signedOut });
    expect(guardOutcome(actor.getSnapshot())).toEqual({ kind: 'redirect', to: '/authentication/sign-in' });
    actor.send({ type: 'session.changed', session: sessions.loading });
    expect(guardOutcome(actor.getSnapshot())).toEqual({ kind: 'spinner' });
    actor.stop();
  });

  it('passes through the evaluation again when a session change keeps the outcome', () => {
    const input = { requirement: {}, session: sessions.memberAdmin };
    expect(guardsTaken(input)).toEqual(['none']);
    expect(guardsTaken(input, [sessions.backOffice])).toEqual(['none']);
    expect(guardsTaken({ ...input, session: sessions.loading }, [sessions.loading])).toEqual(['isLoading']);
  });
});
