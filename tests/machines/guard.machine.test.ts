import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { InspectionEvent } from 'xstate';
import { guardDecision, guardMachine, guardOutcome, type GuardInput, type GuardRequirement, type GuardSession } from '../../src/machines/guard/guard.machine';
import { describeMachineModel } from '../model/harness';
import { model, sessions } from './guard.model';

describeMachineModel('guard machine (model)', model);

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

  it("gives the router's beforeLoad the running machine's decision (guardDecision), for every session", () => {
    const requirements: GuardRequirement[] = [{}, { backOfficeOnly: true }, { permissions: ['USER_CREATE'] }, { roles: ['ADMIN_ADHERENT'], fallback: '/utilisateurs' }];
    for (const requirement of requirements) {
      for (const session of Object.values(sessions)) expect(guardDecision(requirement, session)).toEqual(outcomeOf(requirement, session));
    }
    expect(guardDecision({ backOfficeOnly: true }, sessions.memberAdmin)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });
});
