import { useEffect, useRef } from 'react';
import * as Tooltip from '@radix-ui/react-tooltip';
import { frLists as fr } from '../../i18n/fr-lists';
import { DataCard } from '../data-cards';
import { DataTable } from '../data-table';
import type { SortOrder } from '../sortable-header';
import { RolesCell, type RoleChip } from './roles-cell';
import { RowActions, type RowPermissions } from './row-actions';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  lastLogin: string | null;
  /** Never signed in: the day the latest set-up link was sent (DD/MM/YYYY), shown instead of 'N/A'. */
  invitationSentOn: string | null;
  isActive: boolean;
  /** A dormant account (issue 23): its last sign-in, or its creation if never (DD/MM/YYYY); null otherwise. */
  inactiveSince: string | null;
  roles: RoleChip[];
  allowed: RowPermissions;
}

export type UserSort = 'name' | 'email' | 'lastLogin';

/** The list's selection (issue 22): a box per row and one for the page. */
export interface UsersTableSelection {
  isSelected: (id: string) => boolean;
  page: 'none' | 'some' | 'all';
  onToggle: (row: UserRow) => void;
  onTogglePage: () => void;
}

export interface UsersTableProps {
  rows: UserRow[];
  /** The previous rows, shown while the asked-for ones load. */
  updating: boolean;
  sort: UserSort;
  order: SortOrder;
  onSort: (sort: UserSort, order: SortOrder) => void;
  onEdit: (row: UserRow) => void;
  onView: (row: UserRow) => void;
  onDeactivate: (row: UserRow) => void;
  onReactivate: (row: UserRow) => void;
  onDelete: (row: UserRow) => void;
  onResendInvitation: (row: UserRow) => void;
  /** Null while the selection loads: its boxes are drawn disabled. */
  selection: UsersTableSelection | null;
}

const t = fr.usersList;

const BOX = 'h-4 w-4 cursor-pointer accent-brand-600';

/** The page's box: ticked, unticked, or mixed (some of the page). */
function PageBox({ page, onToggle }: { page: UsersTableSelection['page'] | null; onToggle: () => void }) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = page === 'some';
  }, [page]);
  return <input ref={box} type="checkbox" className={BOX} aria-label={t.selectPage} disabled={page === null} checked={page === 'all'} onChange={onToggle} />;
}

/** An inactive user: not the colour alone, the icon's shape and its words, visible. */
function InactiveMark() {
  return (
    <span role="img" aria-label={t.inactive} className="inline-flex items-center gap-1 text-xs font-medium text-amber-800">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="12" r="9" />
        <path d="M6 6l12 12" />
      </svg>
      {t.inactive}
    </span>
  );
}

const lastLogin = (row: UserRow) => row.lastLogin ?? (row.invitationSentOn ? t.invitationSent(row.invitationSentOn) : t.never);

export function UsersTable({ rows, updating, sort, order, onSort, selection, ...actions }: UsersTableProps) {
  const rowBox = (row: UserRow) => (
    <input type="checkbox" className={BOX} aria-label={t.selectUser(row.name)} disabled={!selection} checked={selection?.isSelected(row.id) ?? false} onChange={() => selection?.onToggle(row)} />
  );
  const rowActions = (row: UserRow) => (
    <RowActions
      name={row.name}
      isActive={row.isActive}
      allowed={row.allowed}
      onEdit={() => actions.onEdit(row)}
      onView={() => actions.onView(row)}
      onDeactivate={() => actions.onDeactivate(row)}
      onReactivate={() => actions.onReactivate(row)}
      onDelete={() => actions.onDelete(row)}
      onResendInvitation={() => actions.onResendInvitation(row)}
    />
  );
  const pageBox = <PageBox page={selection?.page ?? null} onToggle={() => selection?.onTogglePage()} />;
  return (
    <Tooltip.Provider>
      <DataTable
        caption={t.tableCaption}
        updating={updating}
        columns={[
          { label: t.selectPage, header: pageBox },
          { label: t.columns.name, sortKey: 'name' },
          { label: t.columns.email, sortKey: 'email' },
          { label: t.columns.lastLogin, sortKey: 'lastLogin' },
          { label: t.columns.roles },
          { label: t.columns.actions, align: 'right' },
        ]}
        sort={sort}
        order={order}
        onSort={onSort}
        cardTools={
          <label className="flex items-center gap-2 text-sm text-slate-700">
            {pageBox}
            {t.selectPage}
          </label>
        }
        cards={rows.map((row) => (
          <DataCard
            key={row.id}
            tone={row.isActive ? undefined : 'bg-amber-50'}
            lead={<span className="pt-0.5">{rowBox(row)}</span>}
            heading={row.name}
            subheading={row.email}
            fields={[
              { label: t.columns.roles, value: <RolesCell roles={row.roles} /> },
              { label: t.status, value: row.isActive ? (row.inactiveSince ? t.inactiveSince(row.inactiveSince) : t.active) : <InactiveMark /> },
              { label: t.columns.lastLogin, value: lastLogin(row) },
            ]}
            actions={rowActions(row)}
          />
        ))}
      >
        {rows.map((row) => (
          <tr key={row.id} className={row.isActive ? 'bg-white hover:bg-slate-50' : 'bg-amber-50 hover:bg-amber-100'}>
            <td className="w-10 px-3 py-2">{rowBox(row)}</td>
            <td className="min-w-36 px-3 py-2 font-medium text-slate-900">
              <span className="flex flex-col gap-0.5">
                {row.name}
                {!row.isActive && <InactiveMark />}
                {row.inactiveSince && <span className="text-xs font-normal text-slate-600">{t.inactiveSince(row.inactiveSince)}</span>}
              </span>
            </td>
            <td className="min-w-52 px-3 py-2 [overflow-wrap:anywhere]">{row.email}</td>
            <td className="px-3 py-2 whitespace-nowrap">{lastLogin(row)}</td>
            <td className="px-3 py-2">
              <RolesCell roles={row.roles} />
            </td>
            <td className="px-3 py-2">{rowActions(row)}</td>
          </tr>
        ))}
      </DataTable>
    </Tooltip.Provider>
  );
}
