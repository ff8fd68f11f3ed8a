import * as Tooltip from '@radix-ui/react-tooltip';
import { fr } from '../../i18n/fr';
import { SortableHeader, type SortOrder } from '../sortable-header';
import { RolesCell, type RoleChip } from './roles-cell';
import { RowActions, type RowPermissions } from './row-actions';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  lastLogin: string | null;
  isActive: boolean;
  roles: RoleChip[];
  allowed: RowPermissions;
}

export type UserSort = 'name' | 'email' | 'lastLogin';

export interface UsersTableProps {
  rows: UserRow[];
  sort: UserSort;
  order: SortOrder;
  onSort: (sort: UserSort) => void;
  onEdit: (row: UserRow) => void;
  onView: (row: UserRow) => void;
  onDeactivate: (row: UserRow) => void;
  onReactivate: (row: UserRow) => void;
  onDelete: (row: UserRow) => void;
}

const t = fr.usersList;

export function UsersTable({ rows, sort, order, onSort, ...actions }: UsersTableProps) {
  return (
    <Tooltip.Provider>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <SortableHeader label={t.columns.name} active={sort === 'name'} order={order} onSort={() => onSort('name')} />
              <SortableHeader label={t.columns.email} active={sort === 'email'} order={order} onSort={() => onSort('email')} />
              <SortableHeader label={t.columns.lastLogin} active={sort === 'lastLogin'} order={order} onSort={() => onSort('lastLogin')} />
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                {t.columns.roles}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t.columns.actions}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.id} className={row.isActive ? 'hover:bg-slate-50' : 'bg-amber-50/40 hover:bg-amber-50'}>
                <td className="px-3 py-2 font-medium text-slate-900">
                  <span className="inline-flex items-center gap-2">
                    {!row.isActive && (
                      <span role="img" aria-label={t.inactive} title={t.inactive} className="text-amber-600">
                        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
                          <circle cx="12" cy="12" r="9" />
                          <path d="M6 6l12 12" />
                        </svg>
                      </span>
                    )}
                    {row.name}
                  </span>
                </td>
                <td className="px-3 py-2 [overflow-wrap:anywhere]">{row.email}</td>
                <td className="px-3 py-2 whitespace-nowrap">{row.lastLogin ?? t.never}</td>
                <td className="px-3 py-2">
                  <RolesCell roles={row.roles} />
                </td>
                <td className="px-3 py-2">
                  <RowActions
                    name={row.name}
                    isActive={row.isActive}
                    allowed={row.allowed}
                    onEdit={() => actions.onEdit(row)}
                    onView={() => actions.onView(row)}
                    onDeactivate={() => actions.onDeactivate(row)}
                    onReactivate={() => actions.onReactivate(row)}
                    onDelete={() => actions.onDelete(row)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Tooltip.Provider>
  );
}
