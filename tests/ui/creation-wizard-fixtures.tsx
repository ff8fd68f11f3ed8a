// The creation wizard mounted in a router of its own, with an in-memory stand-in of the API holding the
// organizations and roles of the machine's model (tests/machines/creation-wizard.model.ts): SIREN A with
// SIRETs a1 and a2, SIREN B with b1, and allRoles. Creations wait until the test answers them, so that a
// path can look at the wizard while it submits and then play the server's success or failure.
import { useEffect } from 'react';
import { vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useRouterState } from '@tanstack/react-router';
import { createApiClient } from '../../src/api/client';
import type { Organization } from '../../src/api/organizations';
import type { Role } from '../../src/api/roles';
import type { UserDetail } from '../../src/api/user-details';
import type { WizardInput } from '../../src/machines/creation-wizard/creation-wizard.machine';
import { CreationWizardFlow } from '../../src/features/wizard/creation-wizard-flow';
import { fr } from '../../src/i18n/fr';
import { Toaster, useToast } from '../../src/ui/toaster';
import { a1, a2, allRoles, b1, sirenA, sirenB } from '../machines/creation-wizard.model';

const siren = (s: { id: string; code: string; name: string }): Organization => ({ ...s, type: 'SIREN', parentCode: null, parentId: null });
const siret = (s: { id: string; code: string; name: string; sirenId: string }): Organization => ({
  id: s.id,
  code: s.code,
  name: s.name,
  type: 'SIRET',
  parentCode: s.code.slice(0, 9),
  parentId: s.sirenId,
});
export const organizations: Organization[] = [siren(sirenA), siren(sirenB), siret(a1), siret(a2), siret(b1)];

export const roles: Role[] = allRoles.map(({ id, code, name, type }) => ({ id, code, name, nomRole: name, type, metadata: null, permissions: [] }));

export const createdUser: UserDetail = {
  user: {
    id: '6f1d2c3b-0000-4000-8000-0000000000c1',
    firstName: 'Zoé',
    lastName: "N'Diaye-Lefèvre",
    email: 'zoe.ndiaye@exemple.fr',
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
    version: 1,
  },
  organizations: [],
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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

export interface Answer {
  status: number;
  body: unknown;
}

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
  const reads: URL[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const url = new URL(request.url);
    if (request.method === 'GET') reads.push(url);
    if (request.method === 'GET' && url.pathname === '/api/v2/roles') return json(200, roles);
    if (request.method === 'GET' && url.pathname === '/api/v2/organizations') return json(200, listOrganizations(url.searchParams));
    if (request.method === 'POST' && (url.pathname === '/api/v2/users/complete' || url.pathname === '/api/v2/invitations')) {
      const body: unknown = JSON.parse(await request.text());
      const answer = await new Promise<Answer>((resolve) => {
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
      return json(answer.status, answer.body);
    }
    return json(404, { error: 'NotFound', message: 'Ressource introuvable.', requestId: 'test' });
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    creations,
    /** The creations still waiting for their answer. */
    pending: () => creations.filter((c) => !c.answered),
    /** The GET calls made. */
    reads,
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
  const client = createApiClient({ baseUrl: 'https://portal.test', getToken: () => 't', fetch: api.fetch, sleep: async () => {} });
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
