// The edit page's scenario on the fake API (the real server is the browser tests' business), and the page
// mounted in a router of its own.
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import type { OrganizationSummary, UserFullDetails } from '../../src/api/user-details';
import { UserEditFlow } from '../../src/features/user-edit/user-edit-flow';
import { Toaster } from '../../src/ui/toaster';
import { fakeApi, type ErrorBody } from './support/fake-api';

export const USER_ID = '6f1d2c3b-0000-4000-8000-000000000001';
export const EDITOR_ID = '6f1d2c3b-0000-4000-8000-00000000000b';

const org = (id: string, code: string, name: string, parentId: string | null = null): OrganizationSummary => ({
  id,
  code,
  name,
  type: parentId ? 'SIRET' : 'SIREN',
  parentCode: parentId ? code.slice(0, 9) : null,
  parentId,
  member: true,
  closed: false,
});
export const clinique = org('00000000-0000-4000-8000-00000000a000', '787441799', 'Clinique des Tilleuls');
export const lyon = org('00000000-0000-4000-8000-00000000a001', '78744179900014', 'Clinique des Tilleuls - Lyon', clinique.id);
export const villeurbanne = org('00000000-0000-4000-8000-00000000a002', '78744179900022', 'Clinique des Tilleuls - Villeurbanne', clinique.id);
export const glycines = org('00000000-0000-4000-8000-00000000b000', '469860456', 'EHPAD Les Glycines');
export const nantes = org('00000000-0000-4000-8000-00000000b001', '46986045600018', 'EHPAD Les Glycines - Nantes', glycines.id);
const organizations = [clinique, lyon, villeurbanne, glycines, nantes];

const role = (id: number, code: string, name: string, type: 'INTERNAL' | 'EXTERNAL' = 'EXTERNAL') => ({ id, code, name, nomRole: name, type, metadata: null, permissions: [] });
export const roles = [role(1, 'ADHESION', 'Adhésion'), role(5, 'ADMIN_ADHERENT', 'Administrateur adhérent ("Admin Adhérent")', 'INTERNAL'), role(6, 'RESSOURCE_HUMAINE', 'Ressources humaines'), role(10, 'COMPTABLE', 'Comptable')];

/** Romain Garnier, Ressources humaines on the Lyon establishment of the Clinique des Tilleuls. */
export function fullDetails(version: number, jobTitle = 'Gestionnaire RH', pendingEmail: string | null = null, allowedActions: UserFullDetails['allowedActions'] = ['edit', 'deactivate', 'delete']): UserFullDetails {
  return {
    user: {
      id: USER_ID,
      firstName: 'Romain',
      lastName: 'Garnier',
      email: 'rh.clinique@portail.test',
      pendingEmail,
      jobTitle,
      phoneNumber: '04 50 82 08 35',
      mobilePhone: null,
      street: '47 place de la République',
      postalCode: '69003',
      city: 'Lyon',
      metadata: null,
      isActive: true,
      userType: 'ORGANIZATION',
      lastLoginAt: null,
      invitationSentAt: null,
      version,
    },
    assignments: [
      {
        id: '00000000-0000-4000-8000-0000000000a1',
        organizationId: lyon.id,
        organizationCode: lyon.code,
        organizationName: lyon.name,
        organizationType: 'SIRET',
        roleId: 6,
        roleCode: 'RESSOURCE_HUMAINE',
        roleName: 'Ressources humaines',
        roleType: 'EXTERNAL',
        inheritsToChildren: false,
        parentOrganization: { id: clinique.id, code: clinique.code, name: clinique.name },
      },
    ],
    availableRoles: roles,
    availableOrganizations: [clinique, lyon, villeurbanne],
    permissions: [],
    allowedActions,
  };
}

const NOT_FOUND: ErrorBody = { error: 'NotFound', message: 'Ressource introuvable.', requestId: 'test' };

export interface EditScenario {
  /** The user's version on the "server"; bump it to play someone else's change. */
  version: number;
  jobTitle: string;
  /** A new address waiting for its owner's confirmation, as the server answers it. */
  pendingEmail: string | null;
  /** The answer to the next saves: 200 with the user, or a refusal with updateBody. */
  updateStatus: 200 | 400 | 409;
  updateBody: ErrorBody | null;
  updates: { body: Record<string, unknown>; ifMatch: string | null }[];
  /** What the server says the editor may do on the user. */
  allowedActions: UserFullDetails['allowedActions'];
  /** The organizations the server offers the editor, when not the clinic's three (e.g. a SIRET without its SIREN). */
  availableOrganizations: UserFullDetails['availableOrganizations'] | null;
}

/** The fake API holding USER_ID and the organizations above, and recording the saves. */
export function editApi() {
  const state: EditScenario = { version: 3, jobTitle: 'Gestionnaire RH', pendingEmail: null, updateStatus: 200, updateBody: null, updates: [], allowedActions: ['edit', 'deactivate', 'delete'], availableOrganizations: null };
  const server = fakeApi()
    .on('get', '/api/v2/users/{id}/full-details', ({ params }) =>
      params.id === USER_ID
        ? { status: 200, body: { ...fullDetails(state.version, state.jobTitle, state.pendingEmail, state.allowedActions), ...(state.availableOrganizations ? { availableOrganizations: state.availableOrganizations } : {}) } }
        : { status: 404, body: NOT_FOUND },
    )
    .on('put', '/api/v2/users/{id}/complete', ({ params, body, headers }) => {
      if (params.id !== USER_ID) return { status: 404, body: NOT_FOUND };
      state.updates.push({ body: body as unknown as Record<string, unknown>, ifMatch: headers.get('if-match') });
      if (state.updateStatus === 200) return { status: 200, body: { user: fullDetails(state.version).user, organizations: [], allowedActions: ['edit'] } };
      return { status: state.updateStatus, body: state.updateBody ?? NOT_FOUND };
    })
    .on('get', '/api/v2/organizations', ({ query }) => {
      const type = query.get('type');
      const parentId = query.get('parentId');
      const search = (query.get('search') ?? '').toLowerCase();
      const items = organizations.filter((o) => o.type === type && (!parentId || o.parentId === parentId) && `${o.code} ${o.name}`.toLowerCase().includes(search));
      return { status: 200, body: { items, total: items.length, totalCount: items.length, page: 1, pageSize: 100, totalPages: 1 } };
    });
  return Object.assign(state, { fetch: server.fetch, client: server.client });
}

/** The edit page of USER_ID, in a router of its own with the users list at /utilisateurs. */
export function renderEditPage(api: ReturnType<typeof editApi>, editor = { id: EDITOR_ID, backOffice: true }, canSearchSirens = true) {
  const client = api.client();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/utilisateurs', component: () => <h1>Gestion des utilisateurs</h1> });
  const edit = createRoute({
    getParentRoute: () => root,
    path: '/utilisateurs/edit/$userId',
    component: () => <UserEditFlow api={client} queryClient={queryClient} userId={USER_ID} editor={editor} canSearchSirens={canSearchSirens} />,
  });
  const router = createRouter({ routeTree: root.addChildren([list, edit]), history: createMemoryHistory({ initialEntries: [`/utilisateurs/edit/${USER_ID}`] }) });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Toaster>
        <RouterProvider router={router as never} />
      </Toaster>
    </QueryClientProvider>,
  );
  return { ...view, router };
}
