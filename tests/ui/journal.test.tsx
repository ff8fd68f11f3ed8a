// The journal screen (/journal, issue 21) on the fake API: entries as sentences, filters in the URL and in the request.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { createActor, createMachine } from 'xstate';
import type { JournalEntry } from '../../src/api/audit';
import { journalRoute } from '../../src/routes/journal';
import { Route as JournalLazyRoute } from '../../src/routes/journal.lazy';
import { SessionProvider, type SessionActor } from '../../src/session';
import { fakeApi, type AnswerOf, type FakeApi } from './support/fake-api';

afterEach(cleanup);

const ZOE = '6f1d2c3b-0000-4000-8000-0000000000e1';
const BEATRICE = '6f1d2c3b-0000-4000-8000-0000000000b1';
const CLINIC = '00000000-0000-4000-8000-0000000000f1';

const deactivation: JournalEntry = {
  id: 12,
  at: '2026-11-24T16:05:00Z',
  actorId: BEATRICE,
  actorEmail: 'backoffice@portail.test',
  actorName: 'Béatrice Marchand',
  action: 'user.deactivate',
  entityType: 'user',
  entityId: ZOE,
  organizationId: CLINIC,
  changes: { isActive: { before: true, after: false } },
  sentence: 'Béatrice Marchand a désactivé Zoé Bonnet.',
  subject: { type: 'user', id: ZOE, label: 'Zoé Bonnet', exists: true },
  organization: { id: CLINIC, code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' },
  details: [{ field: 'isActive', label: 'Statut', before: 'Actif', after: 'Inactif' }],
};
const rejection: JournalEntry = {
  id: 11,
  at: '2026-11-23T08:00:00Z',
  actorId: BEATRICE,
  actorEmail: 'backoffice@portail.test',
  actorName: 'Béatrice Marchand',
  action: 'invitation.reject',
  entityType: 'invitation',
  entityId: '36',
  organizationId: CLINIC,
  changes: {},
  sentence: 'Béatrice Marchand a rejeté la demande n° 36 de thomas.guerin@exemple.fr : « Dossier incomplet ».',
  subject: { type: 'invitation', id: '36', label: 'demande n° 36 de thomas.guerin@exemple.fr', exists: false },
  organization: null,
  details: [],
};

const page = (items: JournalEntry[], total = items.length): AnswerOf<'get', '/api/v2/audit'> => ({
  status: 200,
  body: { items, total, totalCount: total, page: 1, pageSize: 10, totalPages: Math.ceil(total / 10) },
});
const noOrganizations: AnswerOf<'get', '/api/v2/organizations'> = { status: 200, body: { items: [], total: 0, totalCount: 0, page: 1, pageSize: 100, totalPages: 0 } };

function renderJournal(server: FakeApi, url = '/journal') {
  server.on('get', '/api/v2/organizations', () => noOrganizations);
  const api = server.client();
  const root = createRootRoute({ component: Outlet });
  const shell = createRoute({ getParentRoute: () => root, id: 'shell', component: Outlet });
  const journal = createRoute({ getParentRoute: () => shell, path: '/journal', validateSearch: journalRoute.options.validateSearch, component: JournalLazyRoute.options.component });
  const profile = createRoute({ getParentRoute: () => shell, path: '/utilisateurs/$id', component: () => null });
  const detail = createRoute({ getParentRoute: () => shell, path: '/admin/$id', component: () => null });
  const router = createRouter({ routeTree: root.addChildren([shell.addChildren([journal, profile, detail])]), history: createMemoryHistory({ initialEntries: [url] }), context: { api } });
  const session = createActor(
    createMachine({ context: { profile: { id: 'bo', userType: 'BACKOFFICE', isActive: true, email: 'backoffice@portail.test', permissions: [{ code: 'USER_LIST' }], organizations: [] } } }),
  ).start();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SessionProvider actor={session as unknown as SessionActor}>
        <RouterProvider router={router as never} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  const journalCalls = () => server.calls.filter((c) => c.route === '/api/v2/audit').map((c) => Object.fromEntries(c.query));
  return { router, journalCalls };
}

describe('the journal (/journal, issue 21)', () => {
  it('reads each entry as a sentence with its date and its changes, links the person who still exists, and counts exactly', async () => {
    renderJournal(fakeApi().on('get', '/api/v2/audit', () => page([deactivation, rejection], 2)));
    expect(await screen.findByRole('heading', { name: 'Journal des modifications', level: 1 })).toBeTruthy();
    const first = (await screen.findByText('Béatrice Marchand a désactivé Zoé Bonnet.')).closest('li')!;
    expect(within(first).getByText('24/11/2026 17:05').getAttribute('datetime')).toBe(deactivation.at);
    expect(within(first).getByText('Statut')).toBeTruthy();
    expect(within(first).getByText('« Actif »')).toBeTruthy();
    expect(within(first).getByText('« Inactif »')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Voir le profil de Zoé Bonnet' }).getAttribute('href')).toBe(`/utilisateurs/${ZOE}`);
    const second = screen.getByText(rejection.sentence).closest('li')!;
    // A request that no longer exists (or that the caller may not open) is named, not linked.
    expect(within(second).queryByRole('link')).toBeNull();
    expect(screen.getByText('Affichage 1-2 sur 2 modifications')).toBeTruthy();
    expect(document.title).toBe('Journal des modifications · Portail Habilitations');
  });

  it('sends the filters of the URL, and each change of filter goes back to page 1', async () => {
    const server = fakeApi().on('get', '/api/v2/audit', () => page([deactivation]));
    const { router, journalCalls } = renderJournal(server, `/journal?action=deactivation&from=2026-11-01&to=2026-11-30&userId=${ZOE}&page=3&pageSize=20`);
    await screen.findByText(deactivation.sentence);
    expect(journalCalls()[0]).toEqual({ action: 'user.deactivate', from: '2026-11-01', to: '2026-11-30', userId: ZOE, page: '3', pageSize: '20' });
    // The person chosen is named from the entries, and removable.
    const chip = screen.getByText('Personne : Zoé Bonnet');
    fireEvent.click(within(chip.closest('li')!).getByRole('button', { name: 'Retirer le filtre Personne : Zoé Bonnet' }));
    await waitFor(() => expect(journalCalls().at(-1)).toEqual({ action: 'user.deactivate', from: '2026-11-01', to: '2026-11-30', page: '1', pageSize: '20' }));
    // A kind of change from the select.
    await userEvent.setup().selectOptions(screen.getByLabelText('Action'), 'Rôles attribués ou retirés');
    await waitFor(() => expect(journalCalls().at(-1)).toMatchObject({ action: 'user.roles', page: '1' }));
    expect(router.state.location.search).toMatchObject({ action: 'roles', page: 1 });
  });

  it("filters on an entry's author or person from the entry itself", async () => {
    const server = fakeApi().on('get', '/api/v2/audit', () => page([deactivation]));
    const { journalCalls } = renderJournal(server);
    await screen.findByText(deactivation.sentence);
    fireEvent.click(screen.getByRole('button', { name: 'Ses modifications : Béatrice Marchand' }));
    await waitFor(() => expect(journalCalls().at(-1)).toMatchObject({ actorId: BEATRICE, page: '1' }));
    expect(await screen.findByText('Auteur : Béatrice Marchand')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Son historique : Zoé Bonnet' }));
    await waitFor(() => expect(journalCalls().at(-1)).toMatchObject({ actorId: BEATRICE, userId: ZOE }));
  });

  it('says a period that ends before it starts is impossible, and asks the server nothing for it', async () => {
    const server = fakeApi().on('get', '/api/v2/audit', () => page([]));
    const { journalCalls } = renderJournal(server, '/journal?from=2026-11-30&to=2026-11-01');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'La date de fin doit être postérieure ou égale à la date de début.');
    expect(screen.getByLabelText('Du').getAttribute('aria-invalid')).toBe('true');
    expect(journalCalls()).toEqual([]);
  });

  it("says 'Aucune modification trouvée.' when nothing matches", async () => {
    renderJournal(fakeApi().on('get', '/api/v2/audit', () => page([])));
    expect(await screen.findByText('Aucune modification trouvée.')).toBeTruthy();
    expect(screen.getByText('Aucun résultat')).toBeTruthy();
  });
});
