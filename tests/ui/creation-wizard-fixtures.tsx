// The creation wizard mounted in a router of its own, on the fake API holding the organizations and roles
// of the machine's model (tests/machines/creation-wizard.model.ts): SIREN A with SIRETs a1 and a2, SIREN B
// with b1, and allRoles. Creations wait until the test answers them, so that a path can look at the wizard
// while it submits and then play the server's success or failure.
import { useEffect } from 'react';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useRouterState } from '@tanstack/react-router';
import type { Invitation } from '../../src/api/invitations';
import type { Organization } from '../../src/api/organizations';
import type { Role } from '../../src/api/roles';
import type { UserDetail } from '../../src/api/user-details';
import type { WizardInput } from '../../src/machines/creation-wizard/creation-wizard.machine';
import { CreationWizardFlow } from '../../src/features/wizard/creation-wizard-flow';
import { fr } from '../../src/i18n/fr';
import { Toaster, useToast } from '../../src/ui/toaster';
import { a1, a2, allRoles, b1, sirenA, sirenB } from '../machines/creation-wizard.model';
import { fakeApi, type AnswerOf } from './support/fake-api';

const siren = (s: { id: string; code: string; name: string }): Organization => ({ ...s, type: 'SIREN', parentCode: null, parentId: null, member: true, closed: false });
const siret = (s: { id: string; code: string; name: string; sirenId: string }): Organization => ({
  id: s.id,
  code: s.code,
  name: s.name,
  type: 'SIRET',
  parentCode: s.code.slice(0, 9),
  parentId: s.sirenId,
  member: true,
  closed: false,
});
export const organizations: Organization[] = [siren(sirenA), siren(sirenB), siret(a1), siret(a2), siret(b1)];

export const roles: Role[] = allRoles.map(({ id, code, name, type }) => ({ id, code, name, nomRole: name, type, metadata: null, permissions: [] }));

export const createdUser: UserDetail = {
  user: {
    id: '6f1d2c3b-0000-4000-8000-0000000000c1',
    firstName: 'Zoé',
    lastName: "N'Diaye-Lefèvre",
    email: 'zoe.ndiaye@exemple.fr',
    pendingEmail: null,
    jobTitle: 'Responsable RH & paie',
    phoneNumber: null,
    mobilePhone: null,
    street: '12 rue des Lilas',
    postalCode: '69003',
    city: 'Lyon',
    metadata: null,
    isActive: true,
    userType: 'ORGANIZATION',
    lastLoginAt: null,
    invitationSentAt: null,
    version: 1,
  },
  organizations: [],
  allowedActions: ['edit', 'deactivate'],
};

/** The administrator request for SIREN A, as POST /invitations answers it. */
export const createdInvitation: Invitation = {
  id: 41,
  inviteeEmail: 'zoe.ndiaye@exemple.fr',
  createdAt: '2026-11-02T09:00:00Z',
  processedAt: null,
  expiresAt: '2026-12-02T09:00:00Z',
  cancelledByEmail: null,
  cancellationReason: null,
  organizationCode: sirenA.code,
  organizationName: sirenA.name,
  organizationId: sirenA.id,
  roleName: 'Administrateur adhérent ("Admin Adhérent")',
  roleCode: 'ADMIN_ADHERENT',
  status: 'PENDING',
  invitationType: 'NEW_ADMIN',
  senderEmail: 'admin.clinique@portail.test',
  validatorEmail: null,
  rejectionReason: null,
  allowedActions: [],
};

/** GET /api/v2/organizations with its filters (type, parentId, search on code or name) and its paging. */
function listOrganizations(query: URLSearchParams) {
  const type = query.get('type');
  const parentId = query.get('parentId');
  const search = (query.get('search') ?? '').trim().toLowerCase();
  const page = Number(query.get('page') ?? 1);
  const pageSize = Number(query.get('limit') ?? query.get('pageSize') ?? 20);
  const found = organizations.filter(
    (o) => (!type || o.type === type) && (!parentId || o.parentId === parentId) && (!search || o.code.includes(search) || o.name.toLowerCase().includes(search)),
  );
  return { items: found.slice((page - 1) * pageSize, page * pageSize), total: found.length, totalCount: found.length, page, pageSize, totalPages: Math.ceil(found.length / pageSize) };
}

/** The answer a test gives to a creation: POST /users/complete's or POST /invitations's (the fake checks it against the route it answers). */
export type Answer = AnswerOf<'post', '/api/v2/users/complete'> | AnswerOf<'post', '/api/v2/invitations'>;

/** A POST of a user or an invitation, waiting for the test's answer. */
export interface Creation {
  path: string;
  query: Record<string, string>;
  body: unknown;
  answered: boolean;
  answer: (answer: Answer) => void;
}

export function wizardApi() {
  const creations: Creation[] = [];
  /** Holds the creation until the test answers it. */
  const held = ({ url, body }: { url: URL; body: unknown }) =>
    new Promise<Answer>((resolve) => {
      const creation: Creation = {
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        answered: false,
        answer: (a) => {
          creation.answered = true;
          resolve(a);
        },
      };
      creations.push(creation);
    });
  const server = fakeApi()
    .on('get', '/api/v2/roles', () => ({ status: 200, body: roles }))
    .on('get', '/api/v2/organizations', ({ query }) => ({ status: 200, body: listOrganizations(query) }))
    .on('post', '/api/v2/users/complete', (call) => held(call) as Promise<AnswerOf<'post', '/api/v2/users/complete'>>)
    .on('post', '/api/v2/invitations', (call) => held(call) as Promise<AnswerOf<'post', '/api/v2/invitations'>>);
  return {
    fetch: server.fetch,
    client: server.client,
    creations,
    /** The creations still waiting for their answer. */
    pending: () => creations.filter((c) => !c.answered),
    /** The GET calls made. */
    get reads() {
      return server.calls.filter((c) => c.method === 'GET').map((c) => c.url);
    },
  };
}

export type WizardApi = ReturnType<typeof wizardApi>;

/** The users list's part that matters here: it shows the toast the previous screen passed on. */
function UsersList() {
  const toast = useToast();
  const passed = useRouterState({ select: (s) => s.location.state.toast });
  useEffect(() => {
    if (passed) toast({ ...passed, durationMs: 60_000 });
  }, [passed, toast]);
  return <h1>Gestion des utilisateurs</h1>;
}

/** The wizard at /utilisateurs/creer, the users list at /utilisateurs. */
export function renderWizard(input: WizardInput, api: WizardApi = wizardApi()) {
  const client = api.client();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/utilisateurs', component: UsersList });
  const create = createRoute({
    getParentRoute: () => root,
    path: '/utilisateurs/creer',
    component: () => <CreationWizardFlow api={client} queryClient={queryClient} input={input} />,
  });
  const router = createRouter({ routeTree: root.addChildren([list, create]), history: createMemoryHistory({ initialEntries: ['/utilisateurs/creer'] }) });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Toaster>
        <RouterProvider router={router as never} />
      </Toaster>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient, api };
}

/** The wizard, once shown. */
export async function openWizard(input: WizardInput, api: WizardApi = wizardApi()) {
  const view = renderWizard(input, api);
  await screen.findByRole('heading', { level: 1, name: fr.userCreate.title[input.mode] });
  return view;
}
