// The users list's selection and its actions (issue 22), and its new set-up links, on the fake API: the real
// route, its machine and its actors; the job's progress is read after a second, as in the browser.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { createActor, createMachine } from 'xstate';
import type { UserListItem } from '../../src/api/users';
import type { BulkAction } from '../../src/api/bulk-actions';
import { usersRoute } from '../../src/routes/users';
import { Route as UsersLazyRoute } from '../../src/routes/users.lazy';
import { SessionProvider, type SessionActor } from '../../src/session';
import { Toaster } from '../../src/ui/toaster';
import { fakeApi, type FakeApi } from './support/fake-api';

afterEach(cleanup);

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const JOB = '5d1c2b3a-0000-4000-8000-00000000b001';
const SIRET = { id: '00000000-0000-4000-8000-0000000000a1', code: '78744179900017', name: 'Clinique des Tilleuls - Lyon', type: 'SIRET' as const, parentCode: '787441799', inheritsToChildren: false };
const COMPTABLE = { id: 10, code: 'COMPTABLE', name: 'Comptable', type: 'EXTERNAL' as const, permissions: [] };

function person(n: number, lastName: string, overrides: Partial<UserListItem> = {}): UserListItem {
  return {
    id: `6f1d2c3b-0000-4000-8000-${String(n).padStart(12, '0')}`,
    authId: null,
    firstName: 'Camille',
    lastName,
    email: `camille.${lastName.toLowerCase()}@exemple.fr`,
    lastLoginAt: '2026-11-20T08:00:00Z',
    invitationSentAt: null,
    roles: ['COMPTABLE'],
    jobTitle: 'Comptable',
    phoneNumber: null,
    isActive: true,
    organizations: [{ ...SIRET, role: COMPTABLE }],
    userType: 'ORGANIZATION',
    version: 1,
    allowedActions: ['edit', 'deactivate'],
    hasPendingInvitation: false,
    dormantSince: null,
    ...overrides,
  };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXY';
/** 25 people: Alpha never signed in (a link sent on 2 November), Bravo without any link yet, the others signed in. */
const PEOPLE = [...LETTERS].map((letter, i) =>
  i === 0
    ? person(1, 'Alpha', { lastLoginAt: null, invitationSentAt: '2026-11-02T09:00:00Z', allowedActions: ['edit', 'deactivate', 'resendInvitation'] })
    : i === 1
      ? person(2, 'Bravo', { lastLoginAt: null, invitationSentAt: null })
      : person(i + 1, `Personne${letter}`),
);

const job = (over: Partial<BulkAction>): BulkAction => ({ id: JOB, action: 'deactivate', status: 'running', total: 2, processed: 0, succeeded: 0, refusals: [], createdAt: '2026-11-27T08:00:00Z', finishedAt: null, ...over });

type Profile = { id: string; userType: 'BACKOFFICE' | 'ORGANIZATION'; permissions: { code: string }[]; organizations?: unknown[] };
const BACK_OFFICE: Profile = { id: 'bo', userType: 'BACKOFFICE', permissions: ['USER_LIST', 'USER_CREATE', 'USER_DELETE', 'B2C_USER_DISABLE', 'ORG_LIST'].map((code) => ({ code })) };
const READER: Profile = { id: 'lecteur', userType: 'BACKOFFICE', permissions: [{ code: 'USER_LIST' }] };

/** The users list on the fake API: pages of PEOPLE (10 a page), the roles, no organization to filter by. */
function renderUsers(server: FakeApi, profile: Profile = BACK_OFFICE) {
  server
    .on('get', '/api/v2/users', ({ query }) => {
      const page = Number(query.get('page') ?? 1);
      const pageSize = Number(query.get('pageSize') ?? 10);
      const chosen = query.get('roleCode') === 'GESTIONNAIRE' ? PEOPLE.slice(0, 3) : PEOPLE;
      const items = chosen.slice((page - 1) * pageSize, page * pageSize);
      return { status: 200, body: { items, total: chosen.length, totalCount: chosen.length, page, pageSize, totalPages: Math.ceil(chosen.length / pageSize) } };
    })
    .on('get', '/api/v2/roles', () => ({ status: 200, body: [{ ...COMPTABLE, nomRole: 'Comptable', metadata: null }, { id: 11, code: 'GESTIONNAIRE', name: 'Gestionnaire', nomRole: 'Gestionnaire', type: 'EXTERNAL', metadata: null, permissions: [] }] }))
    .on('get', '/api/v2/organizations', () => ({ status: 200, body: { items: [], total: 0, totalCount: 0, page: 1, pageSize: 100, totalPages: 0 } }));
  const api = server.client();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const shell = createRoute({ getParentRoute: () => root, id: 'shell', component: Outlet });
  const list = createRoute({ getParentRoute: () => shell, path: '/utilisateurs', validateSearch: usersRoute.options.validateSearch, component: UsersLazyRoute.options.component });
  const others = ['/utilisateurs/$id', '/utilisateurs/edit/$userId', '/utilisateurs/creer', '/admin-actions'].map((path) => createRoute({ getParentRoute: () => shell, path, component: () => null }));
  const router = createRouter({ routeTree: root.addChildren([shell.addChildren([list, ...others])]), history: createMemoryHistory({ initialEntries: ['/utilisateurs'] }), context: { api, queryClient } });
  const session = createActor(createMachine({ context: { profile: { isActive: true, email: `${profile.id}@portail.test`, organizations: [], ...profile } } })).start();
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider actor={session as unknown as SessionActor}>
        <Toaster>
          <RouterProvider router={router as never} />
        </Toaster>
      </SessionProvider>
    </QueryClientProvider>,
  );
  const listCalls = () => server.calls.filter((c) => c.route === '/api/v2/users' && c.method === 'GET').length;
  return { router, listCalls };
}

const box = (name: string) => screen.getByRole('checkbox', { name: `Sélectionner ${name}` });
/** The boxes are drawn at once, and work once the selection's code has arrived. */
const ready = async (name = 'Camille Alpha') => waitFor(() => expect((box(name) as HTMLInputElement).disabled).toBe(false));
const toolbar = () => screen.getByRole('region', { name: 'Actions sur la sélection' });
const selected = () => within(toolbar()).getByText(/ sélectionné\(s\)$/).textContent;

describe('the users list (issue 22)', () => {
  it("says 'Invitation envoyée le {date}' instead of 'N/A' until the first sign-in, and 'N/A' when no link was sent", async () => {
    renderUsers(fakeApi());
    const alpha = (await screen.findByText('Camille Alpha')).closest('tr')!;
    expect(within(alpha).getByText('Invitation envoyée le 02/11/2026')).toBeTruthy();
    expect(within(screen.getByText('Camille Bravo').closest('tr')!).getByText('N/A')).toBeTruthy();
    expect(within(screen.getByText('Camille PersonneC').closest('tr')!).getByText('20/11/2026 09:00')).toBeTruthy();
  });

  it('deactivates two people ticked one by one: a confirmation naming the count, the progress, then the report with its refusal; the list is read again', async () => {
    const server = fakeApi();
    const bodies: unknown[] = [];
    server
      .on('post', '/api/v2/users/bulk-actions', ({ body }) => {
        bodies.push(body);
        return { status: 202, body: job({}) };
      })
      .on('get', '/api/v2/users/bulk-actions/{id}', () => ({
        status: 200,
        body: job({ status: 'completed', processed: 2, succeeded: 1, finishedAt: '2026-11-27T08:00:01Z', refusals: [{ userId: PEOPLE[1]!.id, name: 'Camille Bravo', email: 'camille.bravo@exemple.fr', reason: 'Ce compte est déjà désactivé.' }] }),
      }));
    const { listCalls } = renderUsers(server);
    await ready();
    const user = userEvent.setup();
    await user.click(box('Camille Alpha'));
    await user.click(box('Camille Bravo'));
    expect(selected()).toBe('2 sélectionné(s)');
    expect(within(toolbar()).getByRole('button', { name: 'Supprimer définitivement' })).toBeTruthy();
    await user.click(within(toolbar()).getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Désactiver 2 utilisateurs' });
    expect(dialog.textContent).toContain('Êtes-vous sûr de vouloir désactiver 2 utilisateurs ?');
    const before = listCalls();
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer' }));
    const progress = await screen.findByRole('progressbar', { name: 'Avancement' });
    expect(screen.getByRole('alertdialog').textContent).toContain("L'action est en cours sur le serveur ; son avancement s'affiche ci-dessous.");
    expect(progress.getAttribute('aria-valuemax')).toBe('2');
    const report = await screen.findByRole('alertdialog', { name: 'Désactivation terminée' }, { timeout: 3000 });
    expect(within(report).getByText('1 sur 2 utilisateurs : réussi.')).toBeTruthy();
    const refusals = within(report).getByRole('list', { name: '1 refus' });
    expect(within(refusals).getByText('Camille Bravo')).toBeTruthy();
    expect(within(refusals).getByText('Ce compte est déjà désactivé.')).toBeTruthy();
    expect(bodies).toEqual([{ action: 'deactivate', userIds: [PEOPLE[0]!.id, PEOPLE[1]!.id] }]);
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    expect(document.activeElement).toBe(within(report).getByRole('button', { name: 'Fermer' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('region', { name: 'Actions sur la sélection' })).toBeNull();
    expect((box('Camille Alpha') as HTMLInputElement).checked).toBe(false);
  });

  it("keeps people ticked across pages, selects every result of the filters with 'Sélectionner les 25 utilisateurs', and sends the filters", async () => {
    const server = fakeApi();
    const bodies: unknown[] = [];
    server.on('post', '/api/v2/users/bulk-actions', ({ body }) => {
      bodies.push(body);
      return { status: 202, body: job({ action: 'reactivate', status: 'completed', total: 25, processed: 25, succeeded: 0, finishedAt: '2026-11-27T08:00:01Z' }) };
    });
    renderUsers(server);
    await ready();
    const user = userEvent.setup();
    await user.click(box('Camille Alpha'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await ready('Camille PersonneK');
    await user.click(box('Camille PersonneK'));
    expect(selected()).toBe('2 sélectionné(s)');
    expect(within(toolbar()).queryByRole('button', { name: /Sélectionner les \d+ utilisateurs/ })).toBeNull();

    const pageBox = screen.getByRole('checkbox', { name: 'Sélectionner les utilisateurs de la page' }) as HTMLInputElement;
    expect(pageBox.indeterminate).toBe(true);
    await user.click(pageBox);
    expect(selected()).toBe('11 sélectionné(s)');
    await user.click(within(toolbar()).getByRole('button', { name: 'Sélectionner les 25 utilisateurs' }));
    expect(selected()).toBe('25 sélectionné(s)');
    expect(within(toolbar()).getByText('Les 25 utilisateurs des filtres sont sélectionnés.')).toBeTruthy();
    await user.click(within(toolbar()).getByRole('button', { name: 'Réactiver' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Réactiver 25 utilisateurs' })).getByRole('button', { name: 'Confirmer' }));
    const report = await screen.findByRole('alertdialog', { name: 'Réactivation terminée' });
    expect(within(report).getByText('0 sur 25 utilisateurs : réussi.')).toBeTruthy();
    expect(bodies).toEqual([{ action: 'reactivate', filters: { includeInactive: true } }]);
  });

  it('clears the selection when the filters change, and keeps it when the confirmation is cancelled', async () => {
    const { router } = renderUsers(fakeApi());
    await ready();
    const user = userEvent.setup();
    await user.click(box('Camille Alpha'));
    await user.click(within(toolbar()).getByRole('button', { name: "Renvoyer l'invitation" }));
    await user.click(within(await screen.findByRole('alertdialog', { name: "Renvoyer l'invitation à 1 utilisateur" })).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(selected()).toBe('1 sélectionné(s)');
    await user.selectOptions(screen.getByLabelText('Filtrer par rôle :'), 'GESTIONNAIRE');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ role: 'GESTIONNAIRE' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Actions sur la sélection' })).toBeNull());
  });

  it("says why nothing started (the server's reason), and keeps the selection for another try", async () => {
    const server = fakeApi().on('post', '/api/v2/users/bulk-actions', () => ({ status: 403, body: { error: 'Forbidden', message: "Vous n'avez pas le droit de supprimer définitivement des utilisateurs.", requestId: 'r' } }));
    renderUsers(server);
    await ready();
    const user = userEvent.setup();
    await user.click(box('Camille Alpha'));
    await user.click(within(toolbar()).getByRole('button', { name: 'Supprimer définitivement' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement 1 utilisateur' });
    expect(dialog.textContent).toContain('Cette action est irréversible');
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer' }));
    const failed = await screen.findByRole('alertdialog', { name: "L'action n'a pas démarré" });
    expect(within(failed).getByText("Vous n'avez pas le droit de supprimer définitivement des utilisateurs.")).toBeTruthy();
    await user.click(within(failed).getByRole('button', { name: 'Fermer' }));
    expect(selected()).toBe('1 sélectionné(s)');
  });

  it('offers only the export of the selection to a back office without the right to change users', async () => {
    renderUsers(fakeApi(), READER);
    await ready();
    await userEvent.setup().click(box('Camille Alpha'));
    expect(within(toolbar()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Effacer la sélection', 'Exporter la sélection (CSV)']);
  });

  it('exports exactly the people ticked (POST /api/v2/users/export)', async () => {
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const server = fakeApi().on('post', '/api/v2/users/export', () => ({ status: 200, body: 'Nom;Prénom' as never, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="users-2026-11-27.csv"' } }));
    renderUsers(server);
    await ready();
    const user = userEvent.setup();
    await user.click(box('Camille Alpha'));
    await user.click(box('Camille Bravo'));
    await user.click(within(toolbar()).getByRole('button', { name: 'Exporter la sélection (CSV)' }));
    // (The fake API sends its bodies as JSON: the file's lines are counted in the browser test.)
    expect(await within(toolbar()).findByText(/^Export terminé/)).toBeTruthy();
    expect(server.calls.filter((c) => c.route === '/api/v2/users/export').map((c) => [c.method, c.body])).toEqual([['POST', { userIds: [PEOPLE[0]!.id, PEOPLE[1]!.id] }]]);
    expect(saved).toEqual(['users-2026-11-27.csv']);
    click.mockRestore();
    vi.unstubAllGlobals();
  });

  it("sends a new set-up link from the row's menu after a confirmation, and says so", async () => {
    const server = fakeApi().on('post', '/api/v2/users/{id}/resend-invitation', () => ({ status: 200, body: { invitationSentAt: '2026-11-27T08:30:00Z' } }));
    renderUsers(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions pour Camille Alpha' }));
    await user.click(await screen.findByRole('menuitem', { name: "Renvoyer l'invitation" }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain("Renvoyer l'invitation à Camille Alpha ?");
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText('Un nouveau lien a été envoyé à "Camille Alpha".')).toBeTruthy();
    expect(server.calls.filter((c) => c.route === '/api/v2/users/{id}/resend-invitation').map((c) => c.params)).toEqual([{ id: PEOPLE[0]!.id }]);
    // Offered only where the server allows it.
    await user.click(screen.getByRole('button', { name: 'Actions pour Camille PersonneC' }));
    expect(await screen.findByRole('menuitem', { name: 'Voir le profil' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: "Renvoyer l'invitation" })).toBeNull();
  });

  it("says when the job's progress could not be read, and reads it again on 'Réessayer'", async () => {
    let polls = 0;
    const server = fakeApi()
      .on('post', '/api/v2/users/bulk-actions', () => ({ status: 202, body: job({ total: 1 }) }))
      .on('get', '/api/v2/users/bulk-actions/{id}', () => {
        polls += 1;
        // The client tries three times before it gives up on the network.
        if (polls <= 3) throw new TypeError('Failed to fetch');
        return { status: 200, body: job({ status: 'completed', total: 1, processed: 1, succeeded: 1, finishedAt: '2026-11-27T08:00:02Z' }) };
      });
    renderUsers(server);
    await ready();
    const user = userEvent.setup();
    await user.click(box('Camille Alpha'));
    await user.click(within(toolbar()).getByRole('button', { name: 'Désactiver' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirmer' }));
    const interrupted = await screen.findByRole('alertdialog', { name: "Suivi de l'action interrompu" }, { timeout: 3000 });
    expect(within(interrupted).getByText("L'action se poursuit sur le serveur, mais son avancement n'a pas pu être lu.")).toBeTruthy();
    await user.click(within(interrupted).getByRole('button', { name: 'Réessayer' }));
    const report = await screen.findByRole('alertdialog', { name: 'Désactivation terminée' });
    expect(within(report).getByText('1 sur 1 utilisateur : réussi.')).toBeTruthy();
    expect(within(report).getByText('Aucun refus.')).toBeTruthy();
  });
});
