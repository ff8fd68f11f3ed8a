import { useRef } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { frLists as fr } from '../../i18n/fr-lists';
import { ReasonHintButton } from '../reason-hint-button';

export interface RowPermissions {
  edit: boolean;
  changeActivation: boolean;
  deletePermanently: boolean;
  /** A new set-up link, for a user who has never signed in (issue 22). */
  resendInvitation: boolean;
  /** The words of a refusal: the spec's for oneself and protected administrators, else 'Vous n'avez pas le droit de …'. */
  refusal: 'protected' | 'noRight';
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
  onResendInvitation: () => void;
}

const item = 'flex cursor-pointer select-none items-center rounded-md px-3 py-2 text-sm outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400 data-[highlighted]:bg-brand-50';
const t = fr.usersList;

/**
 * Edit, and a menu (Radix DropdownMenu: arrows, Escape, typeahead) with profile, activation and permanent delete.
 * A chosen item acts once the menu has closed and given the focus back to its button, so that the
 * confirmation it opens knows where to return the focus.
 */
export function RowActions({ name, isActive, allowed, onEdit, onView, onDeactivate, onReactivate, onDelete, onResendInvitation }: RowActionsProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  const chosen = useRef<(() => void) | null>(null);
  const choose = (action: () => void) => () => {
    chosen.current = action;
  };
  return (
    <div className="flex items-center justify-end gap-1 whitespace-nowrap">
      <ReasonHintButton
        reason={allowed.edit ? null : allowed.refusal === 'protected' ? t.cannotEdit : t.noRightEdit}
        onClick={onEdit}
        aria-label={t.editUser(name)}
        className="rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 aria-disabled:cursor-not-allowed aria-disabled:border-slate-200 aria-disabled:bg-slate-100 aria-disabled:text-slate-500"
      >
        {t.edit}
      </ReasonHintButton>
      {/* Not modal: a modal menu hides the page with aria-hidden while its buttons stay focusable (axe: aria-hidden-focus). */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger ref={trigger} aria-label={t.actions(name)} className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100">
          <span aria-hidden="true">⋯</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            onCloseAutoFocus={(event) => {
              const action = chosen.current;
              chosen.current = null;
              if (!action) return;
              event.preventDefault();
              trigger.current?.focus();
              action();
            }}
            className="z-40 min-w-52 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200">
            <DropdownMenu.Item className={item} onSelect={choose(onView)}>
              {t.viewProfile}
            </DropdownMenu.Item>
            {isActive ? (
              <DropdownMenu.Item className={item} disabled={!allowed.changeActivation} onSelect={choose(onDeactivate)}>
                {allowed.changeActivation ? t.deactivate : allowed.refusal === 'protected' ? t.cannotDeactivate : <Refused label={t.deactivate} reason={t.noRightDeactivate} />}
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.Item className={item} disabled={!allowed.changeActivation} onSelect={choose(onReactivate)}>
                {allowed.changeActivation || allowed.refusal === 'protected' ? t.activate : <Refused label={t.activate} reason={t.noRightActivate} />}
              </DropdownMenu.Item>
            )}
            {allowed.resendInvitation && (
              <DropdownMenu.Item className={item} onSelect={choose(onResendInvitation)}>
                {t.resendInvitation}
              </DropdownMenu.Item>
            )}
            {allowed.deletePermanently && (
              <DropdownMenu.Item className={`${item} text-red-800`} onSelect={choose(onDelete)}>
                {t.deletePermanently}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

/** A menu entry the caller may not use, with the reason under it (read with it: the item's name holds both). */
function Refused({ label, reason }: { label: string; reason: string }) {
  return (
    <span className="flex flex-col">
      <span>{label}</span>
      <span className="text-xs text-slate-500">{reason}</span>
    </span>
  );
}
