import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { Invitation } from '../../src/api/invitations';
import { DecisionFlow } from '../../src/features/invitations/invitation-decision-flow';
import { fakeApi, type AnswerOf } from './support/fake-api';

afterEach(cleanup);

const invitation: Invitation = {
  id: 12,
  inviteeEmail: 'jeanne.martin@clinique.fr',
  createdAt: '2026-10-01T08:00:00Z',
  processedAt: null,
  expiresAt: '2026-12-02T09:00:00Z',
  cancelledByEmail: null,
  cancellationReason: null,
  organizationCode: '787441799',
  organizationName: 'Clinique des Tilleuls',
  organizationId: null,
  roleName: 'Administrateur adhérent',
  roleCode: 'ADMIN_ADHERENT',
  status: 'PENDING',
  invitationType: 'NEW_ADMIN',
  senderEmail: 'backoffice@portail.test',
  validatorEmail: null,
  rejectionReason: null,
  allowedActions: ['approve', 'reject'],
};

/** The decision's answer (the invitation, or an ErrorBody): approve's, which reject's answers include (reject also documents 413 and 415 for its body). */
type DecisionAnswer = AnswerOf<'post', '/api/v2/invitations/{id}/approve'>;

function setup(intent: 'approve' | 'reject', answer: () => DecisionAnswer) {
  const server = intent === 'approve' ? fakeApi().on('post', '/api/v2/invitations/{id}/approve', answer) : fakeApi().on('post', '/api/v2/invitations/{id}/reject', answer);
  const onOutcome = vi.fn();
  const onClose = vi.fn();
  render(<DecisionFlow api={server.client()} queryClient={new QueryClient()} invitation={invitation} intent={intent} mode="list" onOutcome={onOutcome} onClose={onClose} />);
  return { requests: server.calls, onOutcome, onClose };
}

describe('the rejection dialog (spec §5)', () => {
  it('keeps confirm disabled until the reason has 10 characters after trimming, counting them live', async () => {
    const user = userEvent.setup();
    const { requests, onOutcome } = setup('reject', () => ({ status: 200, body: { ...invitation, status: 'REJECTED', rejectionReason: 'Dossier incomplet' } }));
    expect(screen.getByText('Êtes-vous sûr de vouloir rejeter la demande de jeanne.martin@clinique.fr ?')).toBeTruthy();
    const field = screen.getByLabelText(/Motif du rejet/);
    expect(field.getAttribute('placeholder')).toBe('Motif du rejet (minimum 10 caractères)');
    const confirm = screen.getByRole('button', { name: 'Confirmer' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Le motif du rejet est obligatoire')).toBeTruthy();
    await user.type(field, '  123456789  ');
    expect(screen.getByText('Le motif doit contenir au moins 10 caractères (9/10)')).toBeTruthy();
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.clear(field);
    await user.type(field, ' Dossier incomplet ');
    expect(screen.queryByText(/Le motif doit contenir/)).toBeNull();
    expect(confirm.hasAttribute('disabled')).toBe(false);
    await user.click(confirm);
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalled());
    expect(requests[0]!.body).toEqual({ rejectionReason: 'Dossier incomplet' });
    expect(onOutcome.mock.calls[0]![0]).toMatchObject({ variant: 'success', title: 'La demande d\'administrateur pour "jeanne.martin@clinique.fr" a été rejetée avec le motif: "Dossier incomplet"' });
  });

  it("shows the server's validation error on the reason as 'Erreur de validation: …'", async () => {
    const user = userEvent.setup();
    const { onOutcome } = setup('reject', () => ({
      status: 400,
      body: { error: 'BadRequest', message: 'Requête invalide', fieldErrors: [{ field: 'body.rejectionReason', message: 'Le motif doit contenir au moins 10 caractères (9/10)' }], requestId: 'r' },
    }));
    await user.type(screen.getByLabelText(/Motif du rejet/), 'Motif assez long');
    await user.click(screen.getByRole('button', { name: 'Confirmer' }));
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalled());
    expect(onOutcome.mock.calls[0]![0]).toMatchObject({
      variant: 'error',
      title: 'Erreur lors du rejet de "jeanne.martin@clinique.fr": Erreur de validation: Le motif doit contenir au moins 10 caractères (9/10)',
    });
  });
});

describe('the approval confirmation', () => {
  it('asks the spec question and reports an approval refused by the server with its status', async () => {
    const user = userEvent.setup();
    const { onOutcome, onClose } = setup('approve', () => ({ status: 409, body: { error: 'Conflict', message: 'Cette demande a déjà été traitée.', requestId: 'r' }, statusText: 'Conflict' }));
    expect(screen.getByText('Êtes-vous sûr de vouloir approuver cette demande administrateur ?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Confirmer' }));
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalled());
    expect(onOutcome.mock.calls[0]![0]).toMatchObject({ variant: 'error', title: 'Erreur lors de l\'approbation de "jeanne.martin@clinique.fr": Approval failed: 409 Conflict' });
    expect(onClose).toHaveBeenCalled();
  });

  it("shows why the server refused the approval when the address's account changed since the request", async () => {
    const user = userEvent.setup();
    const changed = "Le compte associé à cette adresse a changé depuis la demande : vérifiez la personne avant d'approuver.";
    const { onOutcome } = setup('approve', () => ({ status: 409, body: { error: 'Conflict', message: changed, requestId: 'r' }, statusText: 'Conflict' }));
    await user.click(screen.getByRole('button', { name: 'Confirmer' }));
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalled());
    expect(onOutcome.mock.calls[0]![0]).toMatchObject({ variant: 'error', title: 'Erreur lors de l\'approbation de "jeanne.martin@clinique.fr": Approval failed: 409 Conflict', description: changed });
  });

  it('closes without a call when cancelled', async () => {
    const user = userEvent.setup();
    const { requests, onClose } = setup('approve', () => ({ status: 200, body: invitation }));
    await user.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(onClose).toHaveBeenCalled();
    expect(requests).toHaveLength(0);
  });
});
