// The assign-existing screen (spec §2, §5, §8) with the real API client on the fake API.
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UserListItem } from '../../src/api/users';
import { AssignExistingFlow } from '../../src/features/assign-existing/assign-existing-flow';
import { fakeApi } from './support/fake-api';

afterEach(cleanup);

const CLINIQUE = { id: '00000000-0000-4000-8000-00000000a000', code: '787441799', name: 'Clinique des Tilleuls' };
const GLYCINES = { id: '00000000-0000-4000-8000-00000000b000', code: '469860456', name: 'EHPAD Les Glycines' };

const role = (code: string, name: string, type: 'INTERNAL' | 'EXTERNAL' = 'EXTERNAL') => ({ id: code.length, code, name, nomRole: name, type, metadata: null, permissions: [] });
const ROLES = [
  role('ADMIN_ADHERENT', 'Administrateur adhérent ("Admin Adhérent")', 'INTERNAL'),
  role('COMPTABLE', 'Comptable'),
  role('GESTIONNAIRE', 'Gestionnaire'),
  role('RESSOURCE_HUMAINE', 'Ressources humaines'),
  role('ADHESION', 'Adhésion'),
  role('CE_CSE_SIEGE', 'CE / CSE Siège'),
];

function organization(code: string, roleCode: string) {
  const r = ROLES.find((x) => x.code === roleCode)!;
  const siret = code.length === 14;
  return { id: `00000000-0000-4000-8000-${code.slice(-12).padStart(12, '0')}`, code, name: `Organisation ${code}`, type: siret ? ('SIRET' as const) : ('SIREN' as const), parentCode: siret ? code.slice(0, 9) : null, inheritsToChildren: !siret, role: { id: r.id, code: r.code, name: r.name, type: r.type, permissions: [] } };
}

let sequence = 0;
function user(firstName: string, lastName: string, organizations: ReturnType<typeof organization>[], overrides: Partial<UserListItem> = {}): UserListItem {
  sequence += 1;
  return {
    id: `6f1d2c3b-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    authId: null,
    firstName,
    lastName,
    email: `${firstName}.${lastName}@exemple.fr`.toLowerCase(),
    lastLoginAt: null,
    invitationSentAt: null,
    roles: [...new Set(organizations.map((o) => o.role.code))],
    jobTitle: 'Comptable',
    phoneNumber: '04 72 00 00 00',
    isActive: true,
    organizations,
    userType: 'ORGANIZATION',
    version: 1,
    allowedActions: [],
    hasPendingInvitation: false,
    dormantSince: null,
    ...overrides,
  };
}

interface Server {
  users: UserListItem[];
  /** The answer of GET /organizations/code/{code}; missing codes answer 404. */
  organizations: Record<string, { id: string; code: string; name: string }>;
  createStatus: 201 | 409;
  /** When set, the network fails on POST /invitations. */
  networkDown: boolean;
  /** When set, POST /invitations waits for it. */
  hold: Promise<void> | null;
  listQueries: URLSearchParams[];
  created: { organizationId: string | null; body: Record<string, unknown> }[];
}

function fakeServer(users: UserListItem[]) {
  const state: Server = { users, organizations: { [CLINIQUE.code]: CLINIQUE, [GLYCINES.code]: GLYCINES }, createStatus: 201, networkDown: false, hold: null, listQueries: [], created: [] };
  const api = fakeApi()
    .on('get', '/api/v2/roles', () => ({ status: 200, body: ROLES }))
    .on('get', '/api/v2/users', ({ query }) => {
      state.listQueries.push(query);
      const search = (query.get('search') ?? '').toLowerCase();
      const page = Number(query.get('page') ?? 1);
      const pageSize = Number(query.get('pageSize') ?? 10);
      const found = state.users.filter((u) => `${u.firstName} ${u.lastName} ${u.email}`.toLowerCase().includes(search));
      const items = found.slice((page - 1) * pageSize, page * pageSize);
      return { status: 200, body: { items, total: found.length, totalCount: found.length, page, pageSize, totalPages: Math.ceil(found.length / pageSize) } };
    })
    .on('get', '/api/v2/organizations/code/{code}', ({ params }) => {
      const org = state.organizations[params.code];
      if (org) return { status: 200, body: { ...org, type: 'SIREN', parentCode: null, parentId: null, member: true, closed: false } };
      return { status: 404, body: { error: 'NotFound', message: 'Organisation introuvable.', requestId: 'test' } };
    })
    .on('post', '/api/v2/invitations', async ({ query, body }) => {
      if (state.networkDown) throw new TypeError('Failed to fetch');
      const organizationId = query.get('organizationId');
      state.created.push({ organizationId, body: body as unknown as Record<string, unknown> });
      const id = state.created.length;
      if (state.hold) await state.hold;
      if (state.createStatus !== 201) return { status: 409, body: { error: 'Conflict', message: 'Une demande est déjà en attente.', requestId: 'test' } };
      const org = Object.values(state.organizations).find((o) => o.id === organizationId)!;
      return {
        status: 201,
        body: {
          id,
          inviteeEmail: body.inviteeEmail,
          createdAt: '2026-11-02T09:00:00Z',
          processedAt: null,
          expiresAt: '2026-12-02T09:00:00Z',
          cancelledByEmail: null,
          cancellationReason: null,
          organizationCode: org.code,
          organizationName: org.name,
          organizationId,
          roleName: 'Administrateur adhérent ("Admin Adhérent")',
          roleCode: body.roleCode,
          status: 'PENDING',
          invitationType: body.invitationType,
          senderEmail: 'admin.clinique@portail.test',
          validatorEmail: null,
          rejectionReason: null,
          allowedActions: [],
        },
      };
    });
  return Object.assign(state, { api });
}

/** The screen with its URL search kept in a state, as the route keeps it in the URL. */
function renderScreen(server: ReturnType<typeof fakeServer>) {
  const api = server.api.client();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onSubmitted = vi.fn();
  const onCancel = vi.fn();
  const searches: { search: string; page: number }[] = [];
  function Harness() {
    const [search, setSearch] = useState({ search: '', page: 1 });
    return (
      <AssignExistingFlow
        back={null}
        api={api}
        queryClient={queryClient}
        senderEmail="admin.clinique@portail.test"
        search={search.search}
        page={search.page}
        onSearchChange={(next) => (searches.push(next), setSearch(next))}
        onCancel={onCancel}
        onSubmitted={onSubmitted}
      />
    );
  }
  render(
    <QueryClientProvider client={queryClient}>
      <Harness />
    </QueryClientProvider>,
  );
  return { onSubmitted, onCancel, searches, user: userEvent.setup() };
}

const list = () => screen.findByRole('list', { name: 'Utilisateurs' });
const userButton = async (name: string) => within(await list()).getByRole('button', { name: new RegExp(name) });
const submit = () => screen.getByRole('button', { name: /^(Soumettre la demande|Soumission en cours\.\.\.)$/ });

describe('the users offered', () => {
  it('lists active users without the signed-in one, 10 per page, with up to 3 role badges and "+N autres"', async () => {
    const many = [organization('78744179900014', 'COMPTABLE'), organization('78744179900022', 'GESTIONNAIRE'), organization('78744179900030', 'RESSOURCE_HUMAINE'), organization('78744179900048', 'ADHESION'), organization('78744179900055', 'CE_CSE_SIEGE')];
    const server = fakeServer([user('Jeanne', 'Martin', many)]);
    renderScreen(server);
    const row = await userButton('Jeanne Martin');
    expect(row.textContent).toContain('jeanne.martin@exemple.fr');
    expect(within(row).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Comptable', 'Gestionnaire', 'Ressources humaines', '+2 autres']);
    const query = Object.fromEntries(server.listQueries[0]!.entries());
    expect(query).toEqual({ page: '1', pageSize: '10', includeInactive: 'false', excludeSelf: 'true' });
  });

  it('greys out a user with a pending request and a holder of an INTERNAL role, who cannot be selected', async () => {
    const server = fakeServer([
      user('Paul', 'Attente', [organization('78744179900014', 'COMPTABLE')], { hasPendingInvitation: true }),
      user('Claire', 'Vasseur', [organization(CLINIQUE.code, 'ADMIN_ADHERENT')]),
      user('Jeanne', 'Martin', [organization('78744179900014', 'COMPTABLE')]),
    ]);
    const { user: person } = renderScreen(server);
    const pending = await userButton('Paul Attente');
    expect(pending.hasAttribute('disabled')).toBe(true);
    expect(pending.textContent).toContain('Une demande est déjà en attente pour cet utilisateur');
    const admin = await userButton('Claire Vasseur');
    expect(admin.hasAttribute('disabled')).toBe(true);
    expect(admin.textContent).toContain('Cet utilisateur détient déjà un rôle interne');
    expect((await userButton('Jeanne Martin')).hasAttribute('disabled')).toBe(false);
    await person.click(admin);
    expect(screen.queryByRole('region', { name: 'Utilisateur sélectionné' })).toBeNull();
    expect(submit().hasAttribute('disabled')).toBe(true);
  });

  it('selects a user on click, and "Changer" brings the list back', async () => {
    const server = fakeServer([user('Jeanne', 'Martin', [organization('78744179900014', 'COMPTABLE')]), user('Marc', 'Lhote', [organization('78744179900014', 'COMPTABLE')])]);
    const { user: person } = renderScreen(server);
    expect(submit().hasAttribute('disabled')).toBe(true);
    await person.click(await userButton('Jeanne Martin'));
    const chosen = screen.getByRole('region', { name: 'Utilisateur sélectionné' });
    expect(chosen.textContent).toContain('jeanne.martin@exemple.fr');
    expect(screen.queryByRole('list', { name: 'Utilisateurs' })).toBeNull();
    expect(submit().hasAttribute('disabled')).toBe(false);
    await person.click(within(chosen).getByRole('button', { name: "Changer d'utilisateur" }));
    expect(screen.queryByRole('region', { name: 'Utilisateur sélectionné' })).toBeNull();
    expect(await userButton('Marc Lhote')).toBeTruthy();
    expect(submit().hasAttribute('disabled')).toBe(true);
  });
});

describe('search and pages', () => {
  const people = (n: number) => Array.from({ length: n }, (_, i) => user('Agent', `Numero${String(i + 1).padStart(2, '0')}`, [organization('78744179900014', 'COMPTABLE')]));

  it('shows no pager for 10 users', async () => {
    renderScreen(fakeServer(people(10)));
    await userButton('Numero10');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    expect(screen.queryByText(/^Page \d+ sur \d+$/)).toBeNull();
  });

  it("pages with 'Page X sur Y', Précédent and Suivant beyond 10 users", async () => {
    const server = fakeServer(people(11));
    const { user: person, searches } = renderScreen(server);
    await userButton('Numero10');
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pager).getByText('Page 1 sur 2')).toBeTruthy();
    expect(within(pager).getByRole('button', { name: 'Précédent' }).hasAttribute('disabled')).toBe(true);
    await person.click(within(pager).getByRole('button', { name: 'Suivant' }));
    expect(await userButton('Numero11')).toBeTruthy();
    expect(within(pager).getByText('Page 2 sur 2')).toBeTruthy();
    expect(within(pager).getByRole('button', { name: 'Suivant' }).hasAttribute('disabled')).toBe(true);
    expect(searches.at(-1)).toEqual({ search: '', page: 2 });
  });

  it('searches the trimmed text from page 1, and says when nobody matches', async () => {
    const server = fakeServer(people(11));
    const { user: person, searches } = renderScreen(server);
    await userButton('Numero10');
    await person.click(within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: 'Suivant' }));
    await userButton('Numero11');
    await person.type(screen.getByRole('searchbox', { name: 'Rechercher un utilisateur' }), '  personne  ');
    expect(await screen.findByText('Aucun utilisateur trouvé pour la recherche "personne"')).toBeTruthy();
    expect(searches.at(-1)).toEqual({ search: '  personne  ', page: 1 });
    expect(server.listQueries.at(-1)!.get('search')).toBe('personne');
    expect(server.listQueries.at(-1)!.get('page')).toBe('1');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });
});

describe('submitting the request', () => {
  const jeanne = () =>
    user('Jeanne', 'Martin', [organization('78744179900014', 'COMPTABLE'), organization('78744179900022', 'GESTIONNAIRE'), organization(GLYCINES.code, 'COMPTABLE'), organization('99999999900011', 'COMPTABLE')]);

  it('creates one ROLE_ASSIGNMENT request per SIREN and reports created and failed ones in the toast', async () => {
    const server = fakeServer([jeanne()]);
    let release!: () => void;
    server.hold = new Promise((resolve) => (release = resolve));
    const { user: person, onSubmitted } = renderScreen(server);
    await person.click(await userButton('Jeanne Martin'));
    await person.click(submit());
    expect((await screen.findByRole('button', { name: 'Soumission en cours...' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: "Changer d'utilisateur" }).hasAttribute('disabled')).toBe(true);
    release();
    await vi.waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1));
    // 999999999 is no organization: that SIREN fails.
    expect(onSubmitted.mock.calls[0]![0]).toMatchObject({ variant: 'success', title: '2 demande(s) d\'administrateur adhérent créée(s) pour "Jeanne Martin". (1 échec(s))' });
    expect(server.created.map((c) => c.organizationId)).toEqual([CLINIQUE.id, GLYCINES.id]);
    expect(server.created[0]!.body).toEqual({
      inviteeEmail: 'jeanne.martin@exemple.fr',
      roleCode: 'ADMIN_ADHERENT',
      invitationType: 'ROLE_ASSIGNMENT',
      metadata: { userProfile: { firstName: 'Jeanne', lastName: 'Martin', jobTitle: 'Comptable', phoneNumber: '04 72 00 00 00' }, isNewUser: false, senderEmail: 'admin.clinique@portail.test' },
    });
  });

  it('says so without leaving when no request could be created', async () => {
    const server = fakeServer([jeanne()]);
    server.createStatus = 409;
    const { user: person, onSubmitted } = renderScreen(server);
    await person.click(await userButton('Jeanne Martin'));
    await person.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe('Impossible de créer les invitations pour les organisations SIREN.');
    expect(onSubmitted).not.toHaveBeenCalled();
    expect(server.created).toHaveLength(2);
    expect(submit().textContent).toBe('Soumettre la demande');
  });

  it('refuses a user without any organization, without a call', async () => {
    const server = fakeServer([user('Sans', 'Organisation', [])]);
    const { user: person, onSubmitted } = renderScreen(server);
    await person.click(await userButton('Sans Organisation'));
    await person.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe("L'utilisateur sélectionné n'appartient à aucune organisation. Impossible de créer l'invitation.");
    expect(server.created).toHaveLength(0);
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it('reports an unexpected failure with its message', async () => {
    const server = fakeServer([jeanne()]);
    server.networkDown = true;
    const { user: person, onSubmitted } = renderScreen(server);
    await person.click(await userButton('Jeanne Martin'));
    await person.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors de la création des invitations: Network error: Unable to connect to the server. Please check your connection.');
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it("leaves with 'Annuler'", async () => {
    const { user: person, onCancel } = renderScreen(fakeServer([jeanne()]));
    await person.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
