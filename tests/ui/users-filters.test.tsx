import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ApiClient } from '../../src/api/client';
import type { Organization } from '../../src/api/organizations';
import { useUsersOrganizationFilters } from '../../src/features/users/use-users-organization-filters';
import { UsersFilters } from '../../src/ui/users/users-filters';
import { fakeApi } from './support/fake-api';

afterEach(cleanup);

// 120 SIRENs: a dropdown asks for 100 (spec §9), so the last ones are found by search or fetched by id.
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const code = (n: number) => String(100_000_000 + n);
const sirens: Organization[] = Array.from({ length: 120 }, (_, i) => ({ id: id(i + 1), code: code(i + 1), name: `Employeur ${i + 1}`, type: 'SIREN', parentCode: null, parentId: null, member: true, closed: false }));
const siret = (parent: number, n: number) => ({ id: id(10_000 + parent * 100 + n), code: `${code(parent)}0000${n}`, name: `Employeur ${parent} - site ${n}`, type: 'SIRET', parentCode: code(parent), parentId: id(parent), member: true, closed: false }) as Organization & { parentId: string };
const sirets = [siret(1, 1), siret(1, 2), siret(2, 1)];

function fakeServer() {
  return fakeApi()
    .on('get', '/api/v2/organizations/{id}', ({ params }) => {
      const one = [...sirens, ...sirets].find((o) => o.id === params.id);
      return one ? { status: 200, body: one } : { status: 404, body: { error: 'NotFound', message: 'Ressource introuvable.', requestId: 't' } };
    })
    .on('get', '/api/v2/organizations', ({ query }) => {
      const search = (query.get('search') ?? '').toLowerCase();
      const parentId = query.get('parentId');
      const pool = query.get('type') === 'SIRET' ? sirets.filter((s) => s.parentId === parentId) : sirens;
      const items = pool.filter((o) => `${o.code} ${o.name}`.toLowerCase().includes(search)).slice(0, Number(query.get('pageSize') ?? 20));
      return { status: 200, body: { items, total: items.length, totalCount: items.length, page: 1, pageSize: 100, totalPages: 1 } };
    });
}

/** The filters as /utilisateurs wires them, with the URL's SIREN and SIRET held in state. */
function Screen({ api, initialSiren }: { api: ApiClient; initialSiren?: string }) {
  const [chosen, setChosen] = useState<{ siren?: string; siret?: string }>({ siren: initialSiren });
  const orgs = useUsersOrganizationFilters({ api, siren: chosen.siren, siret: chosen.siret, onChange: (changes) => setChosen((prev) => ({ ...prev, ...changes })) });
  return <UsersFilters sirens={orgs.sirenFilter} sirets={orgs.siretFilter} roles={{ options: [], value: '', onChange: () => {} }} accountStates={{ options: [], value: '', onChange: () => {} }} search={{ value: '', delayMs: 500, onSearch: () => {} }} />;
}

function renderScreen(initialSiren?: string) {
  const server = fakeServer();
  const { fetch } = server;
  const api = server.client();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <Screen api={api} initialSiren={initialSiren} />
    </QueryClientProvider>,
  );
  return { fetch, user: userEvent.setup() };
}

const combobox = (name: string) => screen.getByRole('combobox', { name });
/** The options of a combobox's own list (the role filter's native options are not among them). */
const optionsOf = (name: string) => within(document.getElementById(combobox(name).getAttribute('aria-controls')!)!).queryAllByRole('option').map((o) => o.textContent);

describe('the SIREN and SIRET filters of /utilisateurs', () => {
  it('names a chosen SIREN that the first 100 leave out, fetching it by id', async () => {
    const { fetch } = renderScreen(id(110));
    // Two calls in a row (the list, then the one missing): a loaded machine may need more than the default second.
    await waitFor(() => expect(combobox('SIREN')).toHaveProperty('value', 'Employeur 110 (100000110)'), { timeout: 5000 });
    expect(fetch.mock.calls.some(([request]) => new URL((request as Request).url).pathname === `/api/v2/organizations/${id(110)}`)).toBe(true);
  });

  it("searches the SIRENs on the server, then offers the chosen SIREN's SIRETs with 'Tous' when there are several", async () => {
    const { user } = renderScreen();
    await waitFor(() => expect(combobox('SIREN')).toHaveProperty('value', 'Tous'));
    expect(screen.queryByRole('combobox', { name: 'SIRET' })).toBeNull();
    await user.tab();
    await user.keyboard('Employeur 115');
    await waitFor(() => expect(optionsOf('SIREN')).toEqual(['Employeur 115 (100000115)']));
    await user.keyboard('{Escape}');
    await user.clear(combobox('SIREN'));
    await user.keyboard('100000001');
    await waitFor(() => expect(optionsOf('SIREN')).toEqual(['Employeur 1 (100000001)']));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(combobox('SIREN')).toHaveProperty('value', 'Employeur 1 (100000001)');
    await waitFor(() => expect(combobox('SIRET')).toHaveProperty('value', 'Tous'));
    await user.click(screen.getByRole('button', { name: 'Afficher les options : SIRET' }));
    expect(optionsOf('SIRET')).toEqual(['Tous', `Employeur 1 - site 1 (${code(1)}00001)`, `Employeur 1 - site 2 (${code(1)}00002)`]);
  });

  it("shows a SIREN's only SIRET as the choice, without 'Tous'", async () => {
    const { user } = renderScreen(id(2));
    await waitFor(() => expect(combobox('SIRET')).toHaveProperty('value', `Employeur 2 - site 1 (${code(2)}00001)`));
    await user.click(screen.getByRole('button', { name: 'Afficher les options : SIRET' }));
    expect(optionsOf('SIRET')).toEqual([`Employeur 2 - site 1 (${code(2)}00001)`]);
  });
});
