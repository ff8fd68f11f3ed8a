import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { fr } from '../../i18n/fr';

export interface RowPermissions {
  edit: boolean;
  changeActivation: boolean;
  deletePermanently: boolean;
}

export interface RowActionsProps {
  name: string;
  isActive: boolean;
  allowed: RowPermissions;
  onEdit: () => void;
  onView: () => void;
  onDeactivate: () => void;
  onReactivate: () => void;
  onDelete: () => void;
}

const item = 'flex cursor-pointer select-none items-center rounded-md px-3 py-2 text-sm outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400 data-[highlighted]:bg-brand-50';
const t = fr.usersList;

/** Edit, and a menu (Radix DropdownMenu: arrows, Escape, typeahead) with profile, activation and permanent delete. */
export function RowActions({ name, isActive, allowed, onEdit, onView, onDeactivate, onReactivate, onDelete }: RowActionsProps) {
  return (
    <div className="flex items-center justify-end gap-1 whitespace-nowrap">
      <button
        type="button"
        onClick={onEdit}
        disabled={!allowed.edit}
        title={allowed.edit ? undefined : t.cannotEdit}
        aria-label={t.editUser(name)}
        className="rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
      >
        {t.edit}
      </button>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger aria-label={t.actions(name)} className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100">
          <span aria-hidden="true">⋯</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className="z-40 min-w-52 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200">
            <DropdownMenu.Item className={item} onSelect={onView}>
              {t.viewProfile}
            </DropdownMenu.Item>
            {isActive ? (
              <DropdownMenu.Item className={item} disabled={!allowed.changeActivation} onSelect={onDeactivate}>
                {allowed.changeActivation ? t.deactivate : t.cannotDeactivate}
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.Item className={item} disabled={!allowed.changeActivation} onSelect={onReactivate}>
                {t.activate}
              </DropdownMenu.Item>
            )}
            {allowed.deletePermanently && (
              <DropdownMenu.Item className={`${item} text-red-800`} onSelect={onDelete}>
                {t.deletePermanently}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
