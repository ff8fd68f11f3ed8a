// Where the keyboard focus goes around the dialogs, the row menu and the processing overlay (issue 10):
// in, held, and back to the trigger, or near it when the trigger is gone or disabled meanwhile.
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from '../../src/ui/confirm-dialog';
import { ProcessingOverlay } from '../../src/ui/processing-overlay';
import { RejectReasonField } from '../../src/ui/invitations/reject-reason-field';
import { RowActions } from '../../src/ui/users/row-actions';

afterEach(cleanup);

const focused = () => document.activeElement;

/** A table row with a trigger and a second action; confirming can disable the trigger or remove the row, as a decision or a deletion does. */
function Row({ onConfirmed }: { onConfirmed: 'disable' | 'remove' | 'nothing' }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<'pending' | 'decided' | 'gone'>('pending');
  return (
    <main tabIndex={-1}>
      <h1>Demandes</h1>
      <div role="region" aria-label="Liste des demandes" tabIndex={0}>
        <table>
          <tbody>
            {state !== 'gone' && (
              <tr>
                <td>
                  <button type="button" disabled={state === 'decided'} onClick={() => setOpen(true)}>
                    Approuver
                  </button>
                  <button type="button">Voir le détail</button>
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={open}
        title="Approuver"
        description="Êtes-vous sûr ?"
        onConfirm={() => {
          // The list shows the truth before the dialog closes (the actors await the refresh).
          if (onConfirmed !== 'nothing') setState(onConfirmed === 'disable' ? 'decided' : 'gone');
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      />
    </main>
  );
}

describe('the confirmation dialog', () => {
  it("takes the focus to 'Annuler', keeps it inside, and gives it back to its trigger when Escape closes it", async () => {
    render(<Row onConfirmed="nothing" />);
    const user = userEvent.setup();
    const trigger = screen.getByRole('button', { name: 'Approuver' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Approuver' });
    expect(focused()).toBe(screen.getByRole('button', { name: 'Annuler' }));
    await user.tab();
    expect(focused()).toBe(screen.getByRole('button', { name: 'Confirmer' }));
    await user.tab();
    expect(dialog.contains(focused())).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(focused()).toBe(trigger));
  });

  /** Approuver by keyboard, then its confirmation; confirming disables the row's trigger or removes the row. */
  async function confirmFromRow(onConfirmed: 'disable' | 'remove') {
    render(<Row onConfirmed={onConfirmed} />);
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Approuver' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    await user.tab();
    await user.keyboard('{Enter}');
  }

  it("gives the focus to the next usable control of the trigger's row when the trigger was disabled meanwhile", async () => {
    await confirmFromRow('disable');
    await waitFor(() => expect(focused()).toBe(screen.getByRole('button', { name: 'Voir le détail' })));
    expect(screen.getByRole('button', { name: 'Approuver' })).toHaveProperty('disabled', true);
  });

  it("gives the focus to the nearest focusable container (the table's region) when the trigger's row is gone", async () => {
    await confirmFromRow('remove');
    await waitFor(() => expect(focused()).toBe(screen.getByRole('region', { name: 'Liste des demandes' })));
    expect(screen.queryByRole('button', { name: 'Approuver' })).toBeNull();
  });

  it('takes the focus into its first field, whose error is tied to it and spoken by a live region present from the start', async () => {
    function Reject() {
      const [reason, setReason] = useState('');
      const error = reason.trim().length < 10 ? `Le motif doit contenir au moins 10 caractères (${reason.trim().length}/10)` : null;
      return (
        <ConfirmDialog open title="Rejeter" description="Êtes-vous sûr ?" confirmDisabled={error !== null} onConfirm={() => {}} onCancel={() => {}}>
          <RejectReasonField value={reason} error={error} onChange={setReason} />
        </ConfirmDialog>
      );
    }
    render(<Reject />);
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: /Motif du rejet/ });
    await waitFor(() => expect(focused()).toBe(field));
    const message = document.getElementById(field.getAttribute('aria-describedby')!)!;
    expect(message.getAttribute('aria-live')).toBe('polite');
    await user.keyboard('Trop court');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(message.textContent).toBe('');
    await user.keyboard('{Backspace}');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    // The same live region, now speaking: not a new one added with its text.
    expect(document.getElementById(field.getAttribute('aria-describedby')!)).toBe(message);
    expect(message.textContent).toBe('Le motif doit contenir au moins 10 caractères (9/10)');
  });
});

describe("a user row's menu", () => {
  it('acts on a chosen item once the menu has given the focus back to its button, so that a confirmation returns it there', async () => {
    let focusWhenActing: Element | null = null;
    const onDeactivate = vi.fn(() => {
      focusWhenActing = document.activeElement;
    });
    render(
      <RowActions
        name="Camille Essai"
        isActive
        allowed={{ edit: true, changeActivation: true, deletePermanently: false, resendInvitation: false, refusal: 'noRight' }}
        onEdit={() => {}}
        onView={() => {}}
        onDeactivate={onDeactivate}
        onReactivate={() => {}}
        onDelete={() => {}}
        onResendInvitation={() => {}}
      />,
    );
    const user = userEvent.setup();
    const trigger = screen.getByRole('button', { name: 'Actions pour Camille Essai' });
    trigger.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(focused()).toBe(screen.getByRole('menuitem', { name: 'Voir le profil' })));
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe(screen.getByRole('menuitem', { name: 'Désactiver' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onDeactivate).toHaveBeenCalledTimes(1));
    expect(focusWhenActing).toBe(trigger);
  });
});

describe('the processing overlay', () => {
  function Page({ shown, buttons = true }: { shown: boolean; buttons?: boolean }) {
    return (
      <main tabIndex={-1}>
        {buttons && (
          <div>
            <button type="button">Créer Utilisateur</button>
            <button type="button">Autre</button>
          </div>
        )}
        {shown && <ProcessingOverlay label="Création de l'utilisateur en cours..." />}
      </main>
    );
  }

  it('holds the focus while shown (Tab, Shift+Tab and Escape stay in it) and gives it back to what had it', async () => {
    const view = render(<Page shown={false} />);
    const user = userEvent.setup();
    const submit = screen.getByRole('button', { name: 'Créer Utilisateur' });
    submit.focus();
    view.rerender(<Page shown />);
    const overlay = await screen.findByRole('alertdialog', { name: "Création de l'utilisateur en cours..." });
    await waitFor(() => expect(focused()).toBe(overlay));
    for (const key of ['{Tab}', '{Shift>}{Tab}{/Shift}', '{Escape}']) {
      await user.keyboard(key);
      expect(focused(), key).toBe(overlay);
    }
    view.rerender(<Page shown={false} />);
    await waitFor(() => expect(focused()).toBe(submit));
  });

  it('keeps the focus when a closing confirmation hands it back to its trigger, and returns it there on close', async () => {
    const view = render(<Page shown />);
    const overlay = await screen.findByRole('alertdialog');
    await waitFor(() => expect(focused()).toBe(overlay));
    const trigger = screen.getByRole('button', { name: 'Autre', hidden: true });
    trigger.focus();
    expect(focused()).toBe(overlay);
    view.rerender(<Page shown={false} />);
    await waitFor(() => expect(focused()).toBe(trigger));
  });

  it('gives the focus to the main content when what had it is gone (the decision removed the buttons)', async () => {
    const view = render(<Page shown={false} />);
    screen.getByRole('button', { name: 'Créer Utilisateur' }).focus();
    view.rerender(<Page shown />);
    await waitFor(() => expect(focused()).toBe(screen.getByRole('alertdialog')));
    view.rerender(<Page shown={false} buttons={false} />);
    await waitFor(() => expect(focused()).toBe(screen.getByRole('main')));
  });
});
