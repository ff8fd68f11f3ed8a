// Issue 18: below 640 px the lists draw each row as a card (name, the e-mail in full, roles, status, last sign-in, its
// actions), with the sort as a select; from 640 px the table as before. One or the other, never both.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataCard } from '../../src/ui/data-cards';
import { DataTable } from '../../src/ui/data-table';
import { InvitationsTable, type InvitationRow } from '../../src/ui/invitations/invitations-table';
import { MyRequestsList } from '../../src/ui/invitations/my-requests-list';
import { UsersTable, type UserRow, type UsersTableProps } from '../../src/ui/users/users-table';
import { stubScreenWidth } from './support/screen-width';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const EMAIL = 'zoe.boulanger-delacroix@clinique-des-tilleuls.fr';

function renderFrame(onSort = vi.fn()) {
  render(
    <DataTable
      caption="Liste des utilisateurs"
      columns={[{ label: 'Nom', sortKey: 'name' }, { label: 'Email', sortKey: 'email' }, { label: 'Rôles' }, { label: 'Actions', align: 'right' }]}
      sort="name"
      order="asc"
      onSort={onSort}
      cards={<DataCard heading="Zoé Boulanger" subheading={EMAIL} fields={[{ label: 'Rôles', value: 'Comptable' }]} actions={<button type="button">Modifier</button>} />}
    >
      <tr>
        <td>Zoé Boulanger</td>
        <td>{EMAIL}</td>
        <td>Comptable</td>
        <td>
          <button type="button">Modifier</button>
        </td>
      </tr>
    </DataTable>,
  );
  return onSort;
}

describe('a list below 640 px', () => {
  it('draws its rows as a named list of cards, each with its heading, its fields and its actions, and no table', () => {
    stubScreenWidth(375);
    renderFrame();
    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Liste des utilisateurs' });
    const card = within(list).getByRole('listitem');
    expect(within(card).getByRole('heading', { name: 'Zoé Boulanger' })).toBeTruthy();
    expect(within(card).getByText(EMAIL)).toBeTruthy();
    expect(within(card).getByRole('definition').textContent).toBe('Comptable');
    expect(within(card).getByRole('term').textContent).toBe('Rôles');
    expect(screen.getAllByRole('button', { name: 'Modifier' })).toHaveLength(1);
  });

  it('sorts with a select of each sortable column both ways, showing the current one, and asks for the chosen key and order', async () => {
    stubScreenWidth(375);
    const onSort = renderFrame();
    const select = screen.getByRole('combobox', { name: 'Trier par' }) as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['Nom, tri croissant', 'Nom, tri décroissant', 'Email, tri croissant', 'Email, tri décroissant']);
    expect(select.selectedOptions[0]!.text).toBe('Nom, tri croissant');
    await userEvent.setup().selectOptions(select, 'Email, tri décroissant');
    expect(onSort).toHaveBeenCalledWith('email', 'desc');
  });

  it('goes back to the table once the window is 640 px wide, and to the cards below', () => {
    const width = stubScreenWidth(639);
    renderFrame();
    expect(screen.getByRole('list', { name: 'Liste des utilisateurs' })).toBeTruthy();
    width.resize(640);
    expect(screen.getByRole('table', { name: 'Liste des utilisateurs' })).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Trier par' })).toBeNull();
    width.resize(375);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps the table for a list that gives no cards', () => {
    stubScreenWidth(375);
    render(
      <DataTable caption="Liste" columns={[{ label: 'Nom' }]} sort="name" order="asc" onSort={() => {}}>
        <tr>
          <td>Zoé</td>
        </tr>
      </DataTable>,
    );
    expect(screen.getByRole('table', { name: 'Liste' })).toBeTruthy();
  });
});

describe('a table from 640 px', () => {
  it("sorts by a header's key, ascending, or descending when it is already the ascending sort", async () => {
    stubScreenWidth(1280);
    const onSort = renderFrame();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Email/ }));
    expect(onSort).toHaveBeenLastCalledWith('email', 'asc');
    await user.click(screen.getByRole('button', { name: /^Nom/ }));
    expect(onSort).toHaveBeenLastCalledWith('name', 'desc');
  });
});

const allowed = { edit: true, changeActivation: true, deletePermanently: false, resendInvitation: false, refusal: 'noRight' } as const;
const zoe: UserRow = { id: 'u1', name: 'Zoé Boulanger', email: EMAIL, lastLogin: '20/11/2026 09:00', invitationSentOn: null, isActive: true, inactiveSince: null, roles: [{ code: 'COMPTABLE', label: 'Comptable', tone: 'grey' }, { code: 'RH', label: 'RH', tone: 'grey' }], allowed };
const paul: UserRow = { ...zoe, id: 'u2', name: 'Paul Martin', email: 'paul.martin@exemple.fr', lastLogin: null, invitationSentOn: '02/11/2026', isActive: false, roles: [] };

function renderUsers(selection: UsersTableProps['selection']) {
  const on = { onSort: vi.fn(), onEdit: vi.fn(), onView: vi.fn(), onDeactivate: vi.fn(), onReactivate: vi.fn(), onDelete: vi.fn(), onResendInvitation: vi.fn() };
  render(<UsersTable rows={[zoe, paul]} updating={false} sort="lastLogin" order="desc" selection={selection} {...on} />);
  return on;
}

describe('the users list on a phone', () => {
  it('shows each person as a card: the name as its heading, the e-mail in full, the roles, the status, the last sign-in and the actions', async () => {
    stubScreenWidth(375);
    const on = renderUsers(null);
    const [first, second] = within(screen.getByRole('list', { name: 'Liste des utilisateurs' })).getAllByRole('listitem');
    expect(within(first!).getByRole('heading', { level: 2 }).textContent).toBe('Zoé Boulanger');
    expect(within(first!).getByText(EMAIL)).toBeTruthy();
    expect(within(first!).getByText('Comptable')).toBeTruthy();
    expect(within(first!).getByRole('button', { name: '1 autre(s) rôle(s) : RH' })).toBeTruthy();
    expect(within(first!).getByText('Actif')).toBeTruthy();
    expect(within(first!).getByText('20/11/2026 09:00')).toBeTruthy();
    expect(within(second!).getByRole('img', { name: 'Utilisateur désactivé' })).toBeTruthy();
    expect(within(second!).getByText('Invitation envoyée le 02/11/2026')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Trier par' }).querySelector('option:checked')?.textContent).toBe('Dernière connexion, tri décroissant');
    await userEvent.setup().click(within(first!).getByRole('button', { name: 'Modifier Zoé Boulanger' }));
    expect(on.onEdit).toHaveBeenCalledWith(zoe);
    expect(within(first!).getByRole('button', { name: 'Actions pour Zoé Boulanger' })).toBeTruthy();
  });

  it("ticks a person from the card's box and the page from the box above the cards, which is named in words", async () => {
    stubScreenWidth(375);
    const selection = { isSelected: (id: string) => id === 'u2', page: 'some' as const, onToggle: vi.fn(), onTogglePage: vi.fn() };
    renderUsers(selection);
    const user = userEvent.setup();
    expect((screen.getByRole('checkbox', { name: 'Sélectionner Paul Martin' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Sélectionner Zoé Boulanger' }));
    expect(selection.onToggle).toHaveBeenCalledWith(zoe);
    const pageBox = screen.getByLabelText('Sélectionner les utilisateurs de la page') as HTMLInputElement;
    expect(pageBox.indeterminate).toBe(true);
    await user.click(pageBox);
    expect(selection.onTogglePage).toHaveBeenCalled();
  });
});

describe('the requests lists on a phone', () => {
  it('shows each request as a card headed by the e-mail, with its number, date, SIREN, status and the three actions', () => {
    stubScreenWidth(375);
    const row: InvitationRow = { id: 7, inviteeEmail: EMAIL, createdAt: '2026-10-01T08:00:00Z', organizationCode: '787441799', status: 'PENDING', allowedActions: ['approve', 'reject'] };
    render(<InvitationsTable rows={[row]} updating sort="createdAt" order="desc" formatDate={() => '01/10/2026 10:00'} onSort={() => {}} onApprove={() => {}} onReject={() => {}} onView={() => {}} />);
    const list = screen.getByRole('list', { name: 'Liste des demandes administrateur' });
    expect(list.getAttribute('aria-busy')).toBe('true');
    const card = within(list).getByRole('listitem');
    expect(within(card).getByRole('heading', { name: EMAIL })).toBeTruthy();
    expect(within(card).getAllByRole('definition').map((value) => value.textContent)).toEqual(['#7', '01/10/2026 10:00', '787441799', 'En attente']);
    expect(within(card).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([`Approuver la demande de ${EMAIL}`, `Rejeter la demande de ${EMAIL}`, `Voir le détail la demande de ${EMAIL}`]);
  });

  it("'Mes demandes' shows cards without a sort select (no column sorts) and 'Annuler' on a pending one", () => {
    stubScreenWidth(375);
    const row = { id: 3, inviteeEmail: EMAIL, roleName: 'ADMIN_ADHERENT', organizationName: 'Clinique des Tilleuls', organizationCode: '787441799', createdAt: '2026-10-01T08:00:00Z', expiresAt: '2026-10-31T08:00:00Z', status: 'PENDING' as const, canCancel: true };
    const pagination = { page: 1, totalPages: 1, items: [] };
    render(<MyRequestsList status="all" pageSize={10} rows={[row]} formatDate={() => '01/10/2026'} formatDay={() => '31/10/2026'} onStatus={() => {}} onCancel={() => {}} back={null} loading={false} updating={false} summary="" pagination={pagination} onPage={() => {}} onPageSize={() => {}} />);
    const card = within(screen.getByRole('list', { name: 'Mes demandes' })).getByRole('listitem');
    expect(within(card).getByRole('heading', { name: EMAIL })).toBeTruthy();
    expect(within(card).getByRole('button', { name: `Annuler la demande pour ${EMAIL}` })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Trier par' })).toBeNull();
  });
});
