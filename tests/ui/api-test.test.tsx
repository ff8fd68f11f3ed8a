// The developer API test page (spec §2 /test-v2-api) on a real session actor, with the API answered in memory.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type SessionProfile, type TokenReading } from '../../src/machines/session/session.machine';
import { SessionProvider } from '../../src/session';
import { ApiTestFlow } from '../../src/features/api-test/api-test-flow';
import type { components } from '../../src/api/schema.gen';
import { fakeApi, fault, type AnswerOf, type Fault } from './support/fake-api';

afterEach(cleanup);

/** The profile as GET /users/me answers it (the contract's CurrentUser), which the session keeps. */
type Profile = Omit<components['schemas']['CurrentUser'], 'lastLoginAt' | 'pendingEmail'>;

const backOffice: Profile = {
  id: '00000000-0000-4000-8000-0000000000b0',
  authId: 'subject-bo',
  firstName: 'Claire',
  lastName: 'Martin',
  email: 'backoffice@portail.test',
  isActive: true,
  userType: 'BACKOFFICE',
  permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }, { code: 'ORG_LIST' }],
  organizations: [],
};

/** Human resources on one establishment: no permission at all. */
const humanResources: Profile = {
  id: '00000000-0000-4000-8000-0000000000c0',
  authId: 'subject-rh',
  firstName: 'Romain',
  lastName: 'Garnier',
  email: 'rh.clinique@portail.test',
  isActive: true,
  userType: 'ORGANIZATION',
  permissions: [],
  organizations: [
    {
      id: '00000000-0000-4000-8000-00000000a001',
      code: '78744179900014',
      name: 'Clinique des Tilleuls - Lyon',
      type: 'SIRET',
      parentCode: '787441799',
      inheritsToChildren: false,
      role: { id: 6, code: 'RESSOURCE_HUMAINE', name: 'Ressources humaines', type: 'EXTERNAL', permissions: [] },
    },
  ],
};

/** An employer administrator: the role's permissions are theirs. */
const memberAdmin: Profile = {
  ...humanResources,
  id: '00000000-0000-4000-8000-0000000000d0',
  authId: 'subject-admin',
  email: 'admin.clinique@portail.test',
  organizations: [
    {
      id: '00000000-0000-4000-8000-00000000a000',
      code: '787441799',
      name: 'Clinique des Tilleuls',
      type: 'SIREN',
      parentCode: null,
      inheritsToChildren: true,
      role: { id: 5, code: 'ADMIN_ADHERENT', name: 'Administrateur adhérent', type: 'INTERNAL', permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }] },
    },
  ],
};

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

function renderPage(profile: Profile, answers: { users?: AnswerOf<'get', '/api/v2/users'> | Fault } = {}) {
  const server = fakeApi()
    .on('get', '/api/v2/users/me', () => ({ status: 200, body: { ...state.profile, lastLoginAt: null, pendingEmail: null } }))
    .on('get', '/api/v2/users', () => answers.users ?? { status: 200, body: { items: [], total: 42, totalCount: 42, page: 1, pageSize: 10, totalPages: 5 } })
    .on('get', '/api/v2/organizations', () => ({ status: 200, body: { items: [], total: 7, totalCount: 7, page: 1, pageSize: 10, totalPages: 1 } }));
  const state = {
    profile,
    profileLoads: 0,
    /** Every request made, as path and query. */
    get requests() {
      return server.calls.map(({ url }) => `${url.pathname}${url.search}`);
    },
  };
  const session = createActor(
    sessionMachine.provide({
      actors: {
        initializeAuth: fromPromise(async () => {}),
        handleRedirect: fromPromise(async () => {}),
        readToken: fromPromise<TokenReading>(async () => ({ token: 'e30.e30.sig', expired: false })),
        login: never<void, { forceLogin: boolean }>(),
        acquireToken: never<string>(),
        loadProfile: fromPromise<SessionProfile, { token: string }>(async () => ((state.profileLoads += 1), state.profile)),
        signOut: never<void>(),
      },
    }),
    { input: { cachedProfile: null }, clock: { setTimeout: () => 0, clearTimeout: () => {} } as never },
  ).start();
  const api = server.client();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionProvider actor={session}>
        <ApiTestFlow api={api} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return state;
}

const field = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
const check = (request: string) => screen.getByRole('listitem', { name: request }).textContent;

describe('/test-v2-api', () => {
  it('shows the current back-office user, their permissions, and runs the three checks with success', async () => {
    const state = renderPage(backOffice);
    await screen.findByText('backoffice@portail.test');
    expect([field('Email'), field('Nom'), field("Type d'utilisateur"), field('Back-office'), field('Actif')]).toEqual(['backoffice@portail.test', 'Claire Martin', 'BACKOFFICE', 'Oui', 'Oui']);
    expect(within(screen.getByRole('list', { name: 'Permissions' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['ORG_LIST', 'USER_CREATE', 'USER_LIST']);
    expect(screen.queryByRole('heading', { name: 'Organisations' })).toBeNull();
    expect(screen.getByText("Les vérifications n'ont pas encore été lancées.")).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Lancer les vérifications' }));
    await waitFor(() => expect(check('GET /api/v2/users/me')).toBe('GET /api/v2/users/meSuccèsConnecté en tant que backoffice@portail.test'));
    expect(check('GET /api/v2/users')).toBe('GET /api/v2/usersSuccès42 résultat(s)');
    expect(check('GET /api/v2/organizations?type=SIREN')).toBe('GET /api/v2/organizations?type=SIRENSuccès7 résultat(s)');
    expect(state.requests).toEqual(expect.arrayContaining(['/api/v2/users/me', '/api/v2/users?page=1&pageSize=10', '/api/v2/organizations?page=1&pageSize=10&type=SIREN']));
  });

  it("shows an organization user's organizations with role and role permissions, and skips the checks they may not make, without calling them", async () => {
    const state = renderPage(humanResources);
    await screen.findByText('rh.clinique@portail.test');
    expect([field('Back-office'), field("Type d'utilisateur")]).toEqual(['Non', 'ORGANIZATION']);
    expect(screen.getByText('Aucune permission')).toBeTruthy();
    const row = within(screen.getByRole('table')).getAllByRole('row')[1]!;
    expect(row.textContent).toBe('Clinique des Tilleuls - Lyon 78744179900014SIRETRessources humaines RESSOURCE_HUMAINE—');

    await userEvent.click(screen.getByRole('button', { name: 'Lancer les vérifications' }));
    await waitFor(() => expect(check('GET /api/v2/users/me')).toContain('Succès'));
    expect(check('GET /api/v2/users')).toBe('GET /api/v2/usersIgnoréNo USER_LIST permission');
    expect(check('GET /api/v2/organizations?type=SIREN')).toBe('GET /api/v2/organizations?type=SIRENIgnoréNo ORG_LIST, USER_LIST or USER_CREATE permission');
    expect(state.requests.filter((r) => r !== '/api/v2/users/me')).toEqual([]);
  });

  it("lists the role's permissions of an employer administrator and runs their checks", async () => {
    renderPage(memberAdmin);
    await screen.findByText('admin.clinique@portail.test');
    expect(within(screen.getByRole('table')).getAllByRole('row')[1]!.textContent).toContain('USER_LIST, USER_CREATE');
    expect(within(screen.getByRole('list', { name: 'Permissions' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['USER_CREATE', 'USER_LIST']);
    await userEvent.click(screen.getByRole('button', { name: 'Lancer les vérifications' }));
    await waitFor(() => expect(check('GET /api/v2/users')).toContain('Succès'));
    expect(check('GET /api/v2/organizations?type=SIREN')).toContain('Succès');
  });

  it('shows a failed check as an error with its status and message, the others still running', async () => {
    renderPage(backOffice, { users: fault(500, { error: 'InternalError', message: 'Erreur interne du serveur.', requestId: 'r-1' }) });
    await screen.findByText('backoffice@portail.test');
    await userEvent.click(screen.getByRole('button', { name: 'Lancer les vérifications' }));
    await waitFor(() => expect(check('GET /api/v2/users')).toBe('GET /api/v2/usersErreur500 : Erreur interne du serveur.'));
    expect(check('GET /api/v2/organizations?type=SIREN')).toContain('Succès');
  });

  it('asks the session to reload the profile on refresh, and shows the new one', async () => {
    const state = renderPage(backOffice);
    await screen.findByText('Claire Martin');
    state.profile = { ...backOffice, lastName: 'Martin-Durand', permissions: [{ code: 'USER_LIST' }] };
    await userEvent.click(screen.getByRole('button', { name: "Rafraîchir l'utilisateur" }));
    await screen.findByText('Claire Martin-Durand');
    expect(state.profileLoads).toBe(2);
    expect(within(screen.getByRole('list', { name: 'Permissions' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['USER_LIST']);
  });
});
