// Issue 19: what a person may not do is not offered as if they could. The rows say what the server allows
// (allowedActions); an action left out is disabled with its reason, 'Vous n'avez pas le droit de …'.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InvitationsTable, type InvitationRow } from '../../src/ui/invitations/invitations-table';
import { RowActions, type RowPermissions } from '../../src/ui/users/row-actions';

afterEach(cleanup);

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

/** The texts the element points at. */
const describedBy = (element: HTMLElement) => (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent);

function renderTable(rows: InvitationRow[]) {
  const onApprove = vi.fn();
  const onReject = vi.fn();
  render(<InvitationsTable rows={rows} updating={false} sort="createdAt" order="desc" formatDate={(iso) => iso} onSort={() => {}} onApprove={onApprove} onReject={onReject} onView={() => {}} />);
  return { onApprove, onReject };
}
const pending = (allowedActions: InvitationRow['allowedActions']): InvitationRow => ({ id: 7, inviteeEmail: 'jeanne.martin@clinique.fr', createdAt: '2026-10-01T08:00:00Z', organizationCode: '787441799', status: 'PENDING', allowedActions });

describe('the requests list', () => {
  it("disables Approuver and Rejeter with the reason for a caller the server does not let decide, and does nothing when pressed", async () => {
    const { onApprove, onReject } = renderTable([pending([])]);
    const user = userEvent.setup();
    const approve = screen.getByRole('button', { name: 'Approuver la demande de jeanne.martin@clinique.fr' });
    const reject = screen.getByRole('button', { name: 'Rejeter la demande de jeanne.martin@clinique.fr' });
    expect(approve.getAttribute('aria-disabled')).toBe('true');
    expect(describedBy(approve)).toContain("Vous n'avez pas le droit d'approuver cette demande.");
    expect(describedBy(reject)).toContain("Vous n'avez pas le droit de rejeter cette demande.");
    await user.click(approve);
    await user.click(reject);
    expect(onApprove).not.toHaveBeenCalled();
    expect(onReject).not.toHaveBeenCalled();
  });

  it('offers them when the server allows them', async () => {
    const { onApprove } = renderTable([pending(['approve', 'reject'])]);
    const approve = screen.getByRole('button', { name: 'Approuver la demande de jeanne.martin@clinique.fr' });
    expect(approve.getAttribute('aria-disabled')).toBeNull();
    await userEvent.setup().click(approve);
    expect(onApprove).toHaveBeenCalledOnce();
  });
});

function renderRow(allowed: RowPermissions, isActive = true) {
  render(<RowActions name="Camille Essai" isActive={isActive} allowed={allowed} onEdit={() => {}} onView={() => {}} onDeactivate={() => {}} onReactivate={() => {}} onDelete={() => {}} onResendInvitation={() => {}} />);
}
const nothing: RowPermissions = { edit: false, changeActivation: false, deletePermanently: false, resendInvitation: false, refusal: 'noRight' };

describe("a user row for a caller without the right (the read-only back office)", () => {
  it("disables Modifier and Désactiver with 'Vous n'avez pas le droit de …'", async () => {
    renderRow(nothing);
    const edit = screen.getByRole('button', { name: 'Modifier Camille Essai' });
    expect(edit.getAttribute('aria-disabled')).toBe('true');
    expect(describedBy(edit)).toContain("Vous n'avez pas le droit de modifier cet utilisateur.");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actions pour Camille Essai' }));
    const deactivate = await screen.findByRole('menuitem', { name: /Désactiver/ });
    expect(deactivate.getAttribute('aria-disabled')).toBe('true');
    expect(deactivate.textContent).toContain("Vous n'avez pas le droit de désactiver cet utilisateur.");
  });

  it("disables Activer with its reason for an inactive user", async () => {
    renderRow(nothing, false);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actions pour Camille Essai' }));
    const activate = await screen.findByRole('menuitem', { name: /Activer/ });
    expect(activate.getAttribute('aria-disabled')).toBe('true');
    expect(activate.textContent).toContain("Vous n'avez pas le droit d'activer cet utilisateur.");
  });

  it("keeps the spec's words for a protected administrator", async () => {
    renderRow({ ...nothing, refusal: 'protected' });
    expect(describedBy(screen.getByRole('button', { name: 'Modifier Camille Essai' }))).toContain('Vous ne pouvez pas modifier cet utilisateur');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actions pour Camille Essai' }));
    expect((await screen.findByRole('menuitem', { name: 'Impossible de désactiver' })).getAttribute('aria-disabled')).toBe('true');
  });
});
