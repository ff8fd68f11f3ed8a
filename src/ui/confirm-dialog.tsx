import { useRef, type ReactNode } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { fr } from '../i18n/fr';
import { focusTrail, restoreFocus } from './focus-return';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel?: string;
  cancelLabel?: string;
  confirmDisabled?: boolean;
  busy?: boolean;
  /** An error shown in the dialog, announced. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}

/**
 * An accessible confirmation (Radix AlertDialog): the focus moves in (to its first field if it has one, else
 * to 'Annuler'), Escape cancels, and on close the focus returns to the trigger, or near it if the trigger has
 * gone or been disabled meanwhile (see focus-return.ts).
 */
export function ConfirmDialog({ open, title, description, confirmLabel = fr.invitations.confirm, cancelLabel = fr.invitations.cancel, confirmDisabled, busy, error, onConfirm, onCancel, children }: ConfirmDialogProps) {
  const trigger = useRef<Element[]>([]);
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <AlertDialog.Content
          onOpenAutoFocus={(event) => {
            trigger.current = focusTrail(document.activeElement);
            const field = (event.currentTarget as HTMLElement).querySelector<HTMLElement>('textarea, input:not([type="hidden"]), select');
            if (field) {
              event.preventDefault();
              field.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus(trigger.current);
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-slate-700">{description}</AlertDialog.Description>
          {children}
          {error && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel className="rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50">{cancelLabel}</AlertDialog.Cancel>
            <button
              type="button"
              onClick={onConfirm}
              disabled={confirmDisabled || busy}
              aria-busy={busy || undefined}
              className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600"
            >
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
