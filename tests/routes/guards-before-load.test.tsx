// Guards before load (issue 18): the app's own route tree, in memory, on a real session actor, with the API answered
// in memory. With the session known, the router enforces the guard machine's decision in `beforeLoad` (no loader, no
// list request for someone refused); on a first load nothing waits and the render-time guard decides.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type SessionProfile, type TokenReading } from '../../src/machines/session/session.machine';
import { createQueryClient } from '../../src/api/query-client';
import { createAppRouter } from '../../src/router';
import { SessionProvider } from '../../src/session';
import { Toaster } from '../../src/ui/toaster';
import { adminRoute } from '../../src/routes/admin';
import type { AppConfig } from '../../src/app-config';
import { fakeApi } from '../ui/support/fake-api';

afterEach(cleanup);

/** A token whose subject is 'subject' and which never expires (the loaders ask nothing without a live token). */
const TOKEN = `e30.${btoa(JSON.stringify({ sub: 'subject', exp: 9_999_999_999 }))}.sig`;

const backOffice: SessionProfile = {
  id: '00000000-0000-4000-8000-0000000000b0',
  authId: 'subject',
  firstName: 'Claire',
  lastName: 'Martin',
  email: 'backoffice@portail.test',
  isActive: true,
  userType: 'BACKOFFICE',
  permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }],
  organizations: [],
};

/** An employer administrator: USER_LIST and USER_CREATE through their role, but not the back office. */
const memberAdmin: SessionProfile = {
  ...backOffice,
  id: '00000000-0000-4000-8000-0000000000d0',
  email: 'admin.clinique@portail.test',
  userType: 'ORGANIZATION',
  permissions: [],
  organizations: [
    { id: '00000000-0000-4000-8000-00000000a000', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN', role: { code: 'ADMIN_ADHERENT', name: 'Administrateur adhérent', type: 'INTERNAL', permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }] } },
  ],
};

const config = {
  memberAreaUrl: 'https://adherent.test',
  publicSiteUrl: 'https://public.test',
  support: { hours: '', phone: '', email: '' },
  accessibility: { compliance: 'non', statementUrl: null, contactEmail: 'accessibilite@exemple.test' },
} as unknown as AppConfig;
const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

/** The app (its own router, in memory) on `path`: the profile comes when `profile` resolves (at once, or later for a first load). */
function openApp(path: string, profile: Promise<SessionProfile> | (() => Promise<SessionProfile>)) {
  const server = fakeApi()
    .on('get', '/api/v2/invitations', () => ({ status: 200, body: { invitations: [], items: [], total: 0, totalCount: 0, page: 1, pageSize: 10, totalPages: 0 } }))
    .on('get', '/api/v2/users', () => ({ status: 200, body: { items: [], total: 0, totalCount: 0, page: 1, pageSize: 10, totalPages: 0 } }))
    .on('get', '/api/v2/retention', () => ({ status: 200, body: { items: [{ kind: 'journal', days: 400, setting: 'AUDIT_RETENTION_DAYS' }, { kind: 'dormancyDeletion', days: 0, setting: 'DORMANCY_DELETE_AFTER_DAYS' }, { kind: 'serverLogs', days: null, setting: null }] } }))
    // The Accueil's counts, which /dashboard's loader asks for (issue 24).
    .on('get', '/api/v2/home', () => ({ status: 200, body: { reminderPendingDays: 7, expiringWithinDays: 7 } }));
  const session = createActor(
    sessionMachine.provide({
      actors: {
        initializeAuth: fromPromise(async () => {}),
        handleRedirect: fromPromise(async () => {}),
        readToken: fromPromise<TokenReading>(async () => ({ token: TOKEN, expired: false })),
        login: never<void, { forceLogin: boolean }>(),
        acquireToken: never<string>(),
        loadProfile: fromPromise<SessionProfile, { token: string }>(() => (typeof profile === 'function' ? profile() : profile)),
        signOut: never<void>(),
      },
    }),
    { input: { cachedProfile: null }, clock: { setTimeout: () => 0, clearTimeout: () => {} } as never },
  ).start();
  const queryClient = createQueryClient();
  const router = createAppRouter({ session, config, api: server.client(), queryClient, currentToken: () => TOKEN }, createMemoryHistory({ initialEntries: [path] }));
  // As main.tsx mounts it (a shared component would split a chunk off the shell: +0.6 kB there).
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider actor={session}>
        <Toaster>
          <RouterProvider router={router} />
        </Toaster>
      </SessionProvider>
    </QueryClientProvider>,
  );
  const invitationRequests = () => server.calls.filter((c) => c.url.pathname === '/api/v2/invitations');
  const retentionRequests = () => server.calls.filter((c) => c.url.pathname === '/api/v2/retention');
  return { router, session, invitationRequests, retentionRequests, pathname: () => router.state.location.pathname };
}

/** The app on /dashboard with the session known (profile and permissions loaded). */
async function signedIn(profile: SessionProfile) {
  const app = openApp('/dashboard', Promise.resolve(profile));
  await screen.findByRole('heading', { level: 1 });
  expect(app.session.getSnapshot().value).toBe('signedIn');
  return app;
}

/** /admin's loader, watched (the router calls the route's options' loader at each load). */
const spyOnAdminLoader = () => vi.spyOn(adminRoute.options as unknown as { loader: () => void }, 'loader');

describe('guards before load, the session known', () => {
  it("redirects an employer administrator from /admin to /dashboard before /admin's loader runs: no list request leaves", async () => {
    const app = await signedIn(memberAdmin);
    const loader = spyOnAdminLoader();
    let redirected: unknown;
    await app.router.navigate({ to: '/admin' }).catch((error: unknown) => (redirected = error));
    await waitFor(() => expect(app.pathname()).toBe('/dashboard'));
    expect(redirected).toBeUndefined();
    expect(loader).not.toHaveBeenCalled();
    expect(app.invitationRequests()).toEqual([]);
    expect(app.router.state.matches.map((m) => m.routeId)).not.toContain(adminRoute.id);
    loader.mockRestore();
  });

  it("lets the back office in: /admin's loader runs and its list request leaves", async () => {
    const app = await signedIn(backOffice);
    const loader = spyOnAdminLoader();
    await app.router.navigate({ to: '/admin' });
    expect(app.pathname()).toBe('/admin');
    expect(loader).toHaveBeenCalledTimes(1);
    await screen.findByRole('heading', { name: 'Habilitation des administrateurs' });
    // The screen took the loader's answer: one request.
    expect(app.invitationRequests()).toHaveLength(1);
    loader.mockRestore();
  });
});

describe("'Durées de conservation' (/conservation, issue 23)", () => {
  it('redirects an employer administrator to /dashboard before load: the table is never asked for', async () => {
    const app = await signedIn(memberAdmin);
    await app.router.navigate({ to: '/conservation' });
    await waitFor(() => expect(app.pathname()).toBe('/dashboard'));
    expect(app.retentionRequests()).toEqual([]);
  });

  it("shows the back office the server's settings in a table with its caption, a step set to 0 as 'Désactivé' and the logs as not kept", async () => {
    const app = await signedIn(backOffice);
    await app.router.navigate({ to: '/conservation' });
    const table = await screen.findByRole('table', { name: 'Durées de conservation des données du portail' });
    const rows = within(table).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Journal des modifications (table audit_log) : qui a changé quoi, et quand', '400 jours', 'AUDIT_RETENTION_DAYS', 'Les entrées plus anciennes sont supprimées, toutes les heures.'],
      ['Comptes sans connexion : suppression', 'Désactivé', 'DORMANCY_DELETE_AFTER_DAYS', 'Rien : cette étape est désactivée (réglage à 0).'],
      ['Journaux techniques du serveur (requêtes, erreurs)', 'Non conservés par le portail', 'Aucun', expect.stringContaining("la plateforme d'hébergement")],
    ]);
    expect(app.retentionRequests()).toHaveLength(1);
  });
});

describe('guards on a first load, the session not known yet', () => {
  it('blocks nothing: /admin loads while the profile is on its way, then the render-time guard redirects an employer administrator, and no list request leaves', async () => {
    let resolve = (_: SessionProfile) => {};
    const app = openApp('/admin', new Promise<SessionProfile>((r) => (resolve = r)));
    await waitFor(() => expect(app.router.state.status).toBe('idle'));
    expect(app.pathname()).toBe('/admin');
    expect(app.router.state.matches.map((m) => m.routeId)).toContain(adminRoute.id);
    expect(app.session.getSnapshot().context.profile).toBeNull();
    resolve(memberAdmin);
    await waitFor(() => expect(app.pathname()).toBe('/dashboard'));
    await screen.findByRole('heading', { level: 1 });
    expect(app.invitationRequests()).toEqual([]);
  });

  it("starts the back office's list as soon as the profile is known, without the navigation having waited for it", async () => {
    let resolve = (_: SessionProfile) => {};
    const app = openApp('/admin', new Promise<SessionProfile>((r) => (resolve = r)));
    await waitFor(() => expect(app.router.state.status).toBe('idle'));
    expect(app.invitationRequests()).toEqual([]);
    resolve(backOffice);
    await waitFor(() => expect(app.invitationRequests()).toHaveLength(1));
    await screen.findByRole('heading', { name: 'Habilitation des administrateurs' });
    expect(app.invitationRequests()).toHaveLength(1);
    expect(app.pathname()).toBe('/admin');
  });
});

describe('the render-time guard once the session changes on an open screen', () => {
  it('sends to /dashboard a person whose reloaded permissions no longer let them on /admin, and asks no more of its list', async () => {
    let current = backOffice;
    const app = openApp('/dashboard', () => Promise.resolve(current));
    await screen.findByRole('heading', { level: 1 });
    await app.router.navigate({ to: '/admin' });
    await screen.findByRole('heading', { name: 'Habilitation des administrateurs' });
    const before = app.invitationRequests().length;
    current = memberAdmin;
    app.session.send({ type: 'session.reloadProfile' });
    await waitFor(() => expect(app.pathname()).toBe('/dashboard'));
    expect(screen.queryByRole('heading', { name: 'Habilitation des administrateurs' })).toBeNull();
    expect(app.invitationRequests()).toHaveLength(before);
  });

  it('sends to the sign-in a person signing out on /admin', async () => {
    const app = openApp('/dashboard', Promise.resolve(backOffice));
    await screen.findByRole('heading', { level: 1 });
    await app.router.navigate({ to: '/admin' });
    await screen.findByRole('heading', { name: 'Habilitation des administrateurs' });
    app.session.send({ type: 'session.signOut' });
    await waitFor(() => expect(app.pathname()).toBe('/authentication/sign-in'));
    expect(screen.queryByRole('heading', { name: 'Habilitation des administrateurs' })).toBeNull();
  });
});
