import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { createActor, createMachine } from 'xstate';
import type { UserDetail } from '../../src/api/user-details';
import { Route as ProfileRoute } from '../../src/routes/user-profile.lazy';
import { SessionProvider, type SessionActor } from '../../src/session';
import { Toaster } from '../../src/ui/toaster';
import { fakeApi, type AnswerOf, type FakeApi } from './support/fake-api';

afterEach(cleanup);

const USER_ID = '6f1d2c3b-0000-4000-8000-000000000002';
const [O1, O2, O3] = ['00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-0000000000f2', '00000000-0000-4000-8000-0000000000f3'];

const detail: UserDetail = {
  user: {
    id: USER_ID,
    firstName: 'Claire',
    lastName: 'Vasseur',
    email: 'claire.vasseur@clinique.fr',
    pendingEmail: null,
    jobTitle: 'Directrice des ressources humaines',
    phoneNumber: '04 72 00 00 00',
    mobilePhone: null,
    street: '122 rue de la Gare',
    postalCode: '69003',
    city: 'Lyon',
    metadata: null,
    isActive: true,
    userType: 'ORGANIZATION',
    lastLoginAt: null,
    invitationSentAt: null,
    version: 1,
  },
  organizations: [
    { id: O1, code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN', parentCode: null, role: { id: 5, code: 'ADMIN_ADHERENT', name: 'Administrateur adhérent ("Admin Adhérent")', type: 'INTERNAL' } },
    { id: O2, code: '46986045600018', name: 'EHPAD Les Glycines - Nantes', type: 'SIRET', parentCode: '469860456', role: { id: 6, code: 'RESSOURCE_HUMAINE', name: 'Ressources humaines', type: 'EXTERNAL' } },
    { id: O2, code: '46986045600018', name: 'EHPAD Les Glycines - Nantes', type: 'SIRET', parentCode: '469860456', role: { id: 10, code: 'COMPTABLE', name: 'Comptable', type: 'EXTERNAL' } },
  ],
  allowedActions: ['edit', 'deactivate'],
};

const noHistory: AnswerOf<'get', '/api/v2/audit'> = { status: 200, body: { items: [], total: 0, totalCount: 0, page: 1, pageSize: 10, totalPages: 0 } };

/** The profile screen in a router of its own, under a layout with the shell's route id; the person's history answers `history`. */
function renderProfile(server: FakeApi, history: AnswerOf<'get', '/api/v2/audit'> = noHistory) {
  server.on('get', '/api/v2/audit', () => history);
  const { fetch } = server;
  const api = server.client();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const shell = createRoute({ getParentRoute: () => root, id: 'shell', component: Outlet });
  const list = createRoute({ getParentRoute: () => shell, path: '/utilisateurs', component: () => null });
  const profile = createRoute({ getParentRoute: () => shell, path: '/utilisateurs/$id', component: ProfileRoute.options.component });
  const edit = createRoute({ getParentRoute: () => shell, path: '/utilisateurs/edit/$userId', component: () => null });
  const journal = createRoute({ getParentRoute: () => shell, path: '/journal', component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([shell.addChildren([list, profile, edit, journal])]),
    history: createMemoryHistory({ initialEntries: [`/utilisateurs/${USER_ID}`] }),
    context: { api, queryClient },
  });
  const session = createActor(createMachine({ context: { profile: { id: 'bo', userType: 'BACKOFFICE', isActive: true, email: 'bo@portail.test', permissions: [{ code: 'USER_CREATE' }] } } })).start();
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider actor={session as unknown as SessionActor}>
        <Toaster>
          <RouterProvider router={router as never} />
        </Toaster>
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { fetch };
}

describe('the user profile (spec §2 /utilisateurs/{id})', () => {
  it("says 'Chargement du profil utilisateur...', then 'Utilisateur introuvable' and 'Aucune donnée.' for a user not found", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    renderProfile(fakeApi().on('get', '/api/v2/users/{id}', async () => (await gate, { status: 404, body: { error: 'NotFound', message: 'Utilisateur introuvable.', requestId: 'r' } })));
    expect(await screen.findByText('Chargement du profil utilisateur...')).toBeTruthy();
    release();
    expect(await screen.findByRole('heading', { name: 'Utilisateur introuvable' })).toBeTruthy();
    expect(screen.getByText('Aucune donnée.')).toBeTruthy();
    expect(document.title).toBe('Profil utilisateur · Portail Habilitations');
  });

  it('shows the person, their details, and per SIREN its SIRETs with role badges', async () => {
    renderProfile(
      fakeApi()
        .on('get', '/api/v2/users/{id}', ({ params }) => (params.id === USER_ID ? { status: 200, body: detail } : { status: 404, body: { error: 'NotFound', message: 'x', requestId: 'r' } }))
        .on('get', '/api/v2/organizations/code/{code}', ({ params }) => {
          if (params.code === '469860456') return { status: 200, body: { id: O3, code: '469860456', name: 'EHPAD Les Glycines', type: 'SIREN', parentCode: null, parentId: null, member: true, closed: false } };
          return { status: 404, body: { error: 'NotFound', message: 'x', requestId: 'r' } };
        }),
    );
    expect(await screen.findByText('Claire Vasseur')).toBeTruthy();
    expect(screen.getByText('claire.vasseur@clinique.fr')).toBeTruthy();
    expect(screen.getByText('Directrice des ressources humaines')).toBeTruthy();
    expect(screen.getByText('122 rue de la Gare')).toBeTruthy();
    const clinique = screen.getByRole('heading', { name: 'Clinique des Tilleuls' }).closest('li')!;
    expect(within(clinique).getByText('Admin Adhérent')).toBeTruthy();
    // The SIREN of a SIRET held alone is named by a lookup.
    const ehpad = (await screen.findByRole('heading', { name: 'EHPAD Les Glycines' })).closest('li')!;
    expect(within(ehpad).getByText('EHPAD Les Glycines - Nantes')).toBeTruthy();
    expect(within(ehpad).getByText('Ressources humaines')).toBeTruthy();
    expect(within(ehpad).getByText('Comptable')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Modifier' }).getAttribute('href')).toBe(`/utilisateurs/edit/${USER_ID}`);
    expect(screen.queryByText(/Adresse en attente de confirmation/)).toBeNull();
  });

  it("says 'Adresse en attente de confirmation : {email}' under the address in force while a new one waits for its owner (issue 19)", async () => {
    const pending = { ...detail, user: { ...detail.user, pendingEmail: 'claire.vasseur@nouvelle-clinique.fr' } };
    renderProfile(
      fakeApi()
        .on('get', '/api/v2/users/{id}', () => ({ status: 200, body: pending }))
        .on('get', '/api/v2/organizations/code/{code}', () => ({ status: 404, body: { error: 'NotFound', message: 'x', requestId: 'r' } })),
    );
    expect(await screen.findByText('claire.vasseur@clinique.fr')).toBeTruthy();
    expect(screen.getByText('Adresse en attente de confirmation : claire.vasseur@nouvelle-clinique.fr')).toBeTruthy();
  });

  it("offers no 'Modifier' when the server's allowedActions leave edit out (issue 19)", async () => {
    renderProfile(fakeApi().on('get', '/api/v2/users/{id}', () => ({ status: 200, body: { ...detail, allowedActions: [] } })));
    expect(await screen.findByText('Claire Vasseur')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Modifier' })).toBeNull();
  });

  it("shows the person's 'Historique': their entries of the journal, each as a sentence with its changes, newest first (issue 21)", async () => {
    const at = '2026-11-20T09:15:00Z';
    const entry = {
      id: 41,
      at,
      actorId: '00000000-0000-4000-8000-0000000000aa',
      actorEmail: 'claire.vasseur@clinique.fr',
      actorName: 'Claire Vasseur',
      action: 'user.update' as const,
      entityType: 'user' as const,
      entityId: USER_ID,
      organizationId: O1,
      changes: {},
      sentence: 'Claire Vasseur a modifié Claire Vasseur : Fonction « Comptable » → « Directrice des ressources humaines ».',
      subject: { type: 'user' as const, id: USER_ID, label: 'Claire Vasseur', exists: true },
      organization: { id: O1, code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' as const },
      details: [{ field: 'jobTitle', label: 'Fonction', before: 'Comptable', after: 'Directrice des ressources humaines' }],
    };
    const server = fakeApi().on('get', '/api/v2/users/{id}', () => ({ status: 200, body: detail }));
    renderProfile(server, { status: 200, body: { items: [entry], total: 1, totalCount: 1, page: 1, pageSize: 10, totalPages: 1 } });
    const history = await screen.findByRole('region', { name: 'Historique' });
    expect(await within(history).findByText(entry.sentence)).toBeTruthy();
    expect(within(history).getByText('Fonction')).toBeTruthy();
    expect(within(history).getByText('« Comptable »')).toBeTruthy();
    expect(within(history).getByText('« Directrice des ressources humaines »')).toBeTruthy();
    expect(within(history).getByText('20/11/2026 10:15').getAttribute('datetime')).toBe(at);
    expect(within(history).getByRole('link', { name: 'Tout voir dans le journal' }).getAttribute('href')).toBe(`/journal?userId=${USER_ID}`);
    const asked = server.calls.find((c) => c.route === '/api/v2/audit')!;
    expect(Object.fromEntries(asked.query)).toEqual({ userId: USER_ID, page: '1', pageSize: '10' });
  });

  it("says 'Invitation envoyée le {date}' until the first sign-in, and sends a new link after a confirmation (issue 22)", async () => {
    let sent = '2026-11-02T09:00:00Z';
    const neverSignedIn = () => ({ ...detail, user: { ...detail.user, invitationSentAt: sent }, allowedActions: ['edit', 'deactivate', 'resendInvitation'] as UserDetail['allowedActions'] });
    const server = fakeApi()
      .on('get', '/api/v2/users/{id}', () => ({ status: 200, body: neverSignedIn() }))
      .on('post', '/api/v2/users/{id}/resend-invitation', () => {
        sent = '2026-11-27T08:30:00Z';
        return { status: 200, body: { invitationSentAt: sent } };
      });
    renderProfile(server);
    expect(await screen.findByText('Invitation envoyée le 02/11/2026')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: "Renvoyer l'invitation" }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain("Renvoyer l'invitation à Claire Vasseur ? Un nouveau lien de création de compte lui sera envoyé par e-mail ; le précédent ne fonctionnera plus.");
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText('Un nouveau lien a été envoyé à "Claire Vasseur".')).toBeTruthy();
    expect(await screen.findByText('Invitation envoyée le 27/11/2026')).toBeTruthy();
    expect(server.calls.filter((c) => c.route === '/api/v2/users/{id}/resend-invitation').map((c) => c.params)).toEqual([{ id: USER_ID }]);
  });

  it("shows the server's reason when the person has signed in meanwhile, and offers no new link to someone who has signed in", async () => {
    const server = fakeApi()
      .on('get', '/api/v2/users/{id}', () => ({ status: 200, body: { ...detail, user: { ...detail.user, invitationSentAt: '2026-11-02T09:00:00Z' }, allowedActions: ['resendInvitation'] } }))
      .on('post', '/api/v2/users/{id}/resend-invitation', () => ({ status: 409, body: { error: 'Conflict', message: "Ce compte a déjà été activé : la personne s'est déjà connectée.", requestId: 'r' } }));
    renderProfile(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: "Renvoyer l'invitation" }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText("Ce compte a déjà été activé : la personne s'est déjà connectée.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    cleanup();

    renderProfile(fakeApi().on('get', '/api/v2/users/{id}', () => ({ status: 200, body: { ...detail, user: { ...detail.user, lastLoginAt: '2026-11-20T08:00:00Z', invitationSentAt: null } } })));
    expect(await screen.findByText('Claire Vasseur')).toBeTruthy();
    expect(screen.queryByText(/Invitation envoyée le/)).toBeNull();
    expect(screen.queryByRole('button', { name: "Renvoyer l'invitation" })).toBeNull();
  });

  it("offers the person's data when the server allows it (issue 23), tells a failure with 'Réessayer', then saves the file", async () => {
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    onTestFinished(() => {
      click.mockRestore();
      vi.unstubAllGlobals();
    });
    let attempts = 0;
    const server = fakeApi()
      .on('get', '/api/v2/users/{id}', () => ({ status: 200, body: { ...detail, allowedActions: ['exportPersonalData'] } }))
      .on('get', '/api/v2/users/{id}/personal-data', () =>
        ++attempts === 1
          ? { status: 403, body: { error: 'Forbidden', message: 'Réservé au back-office.', requestId: 'r' } }
          : { status: 200, body: '<!doctype html>' as never, headers: { 'content-type': 'text/html; charset=utf-8', 'content-disposition': 'attachment; filename="donnees-personnelles-vasseur-claire-2026-11-27.html"' } },
      );
    renderProfile(server);
    const section = await screen.findByRole('region', { name: 'Données personnelles' });
    // Not an editor: the person's data is all this caller may do here.
    expect(screen.queryByRole('link', { name: 'Modifier' })).toBeNull();
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Télécharger le résumé (HTML)' }));
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain('Le téléchargement a échoué : Réservé au back-office.');
    await user.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    expect(await within(section).findByText('Fichier enregistré : donnees-personnelles-vasseur-claire-2026-11-27.html')).toBeTruthy();
    expect(within(section).queryByRole('alert')).toBeNull();
    expect(saved).toEqual(['donnees-personnelles-vasseur-claire-2026-11-27.html']);
    expect(server.calls.filter((c) => c.route === '/api/v2/users/{id}/personal-data').map((c) => c.query.get('format'))).toEqual(['html', 'html']);
  });

  it("offers no download of the person's data to whom the server does not allow it", async () => {
    renderProfile(fakeApi().on('get', '/api/v2/users/{id}', () => ({ status: 200, body: detail })));
    expect(await screen.findByText('Claire Vasseur')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Données personnelles' })).toBeNull();
  });
});
