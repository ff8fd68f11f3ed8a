// 'Annuler' on 'Mes demandes' (issue 22) on the fake API: the confirmation with its optional reason, what is sent,
// and the server's refusal in its own words.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { Invitation } from '../../src/api/invitations';
import { RequestCancellationFlow } from '../../src/features/invitations/request-cancellation-flow';
import { fakeApi, type AnswerOf } from './support/fake-api';

afterEach(cleanup);

const invitation: Invitation = {
  id: 36,
  inviteeEmail: 'thomas.guerin@exemple.fr',
  createdAt: '2026-11-02T09:00:00Z',
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
  senderEmail: 'admin.clinique@portail.test',
  validatorEmail: null,
  rejectionReason: null,
  allowedActions: ['cancel'],
};

function setup(answer: () => AnswerOf<'post', '/api/v2/invitations/{id}/cancel'>, canCancel = true) {
  const server = fakeApi().on('post', '/api/v2/invitations/{id}/cancel', answer);
  const onOutcome = vi.fn();
  const onClose = vi.fn();
  render(
    <RequestCancellationFlow api={server.client()} queryClient={new QueryClient()} request={{ id: 36, inviteeEmail: invitation.inviteeEmail, canCancel }} onOutcome={onOutcome} onClose={onClose} />,
  );
  return { requests: server.calls, onOutcome, onClose };
}

describe("cancelling a request from 'Mes demandes'", () => {
  it('asks for confirmation, sends the trimmed reason, and says it was cancelled', async () => {
    const user = userEvent.setup();
    const { requests, onOutcome, onClose } = setup(() => ({ status: 200, body: { ...invitation, status: 'CANCELLED', cancelledByEmail: 'admin.clinique@portail.test', allowedActions: [] } }));
    expect(screen.getByText('Êtes-vous sûr de vouloir annuler la demande pour thomas.guerin@exemple.fr ? Elle ne pourra plus être approuvée.')).toBeTruthy();
    await user.type(screen.getByLabelText('Motif (facultatif)'), '  Demande faite en double.  ');
    await user.click(screen.getByRole('button', { name: "Confirmer l'annulation" }));
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalled());
    expect(requests.map((r) => [r.url.pathname, r.body])).toEqual([['/api/v2/invitations/36/cancel', { reason: 'Demande faite en double.' }]]);
    expect(onOutcome.mock.calls[0]![0]).toEqual({ variant: 'success', title: 'La demande pour thomas.guerin@exemple.fr a été annulée.' });
    expect(onClose).toHaveBeenCalled();
  });

  it('keeps the confirmation disabled while the reason is over 500 characters, saying why', async () => {
    const user = userEvent.setup();
    const { requests } = setup(() => ({ status: 200, body: invitation }));
    const field = screen.getByLabelText('Motif (facultatif)');
    await user.click(field);
    await user.paste('x'.repeat(501));
    expect(screen.getByText('Le motif ne peut pas dépasser 500 caractères.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: "Confirmer l'annulation" }).hasAttribute('disabled')).toBe(true);
    expect(requests).toEqual([]);
  });

  it("reports the server's refusal in its words (an expired request)", async () => {
    const user = userEvent.setup();
    const message = 'Cette demande a expiré le 02/12/2026 : elle ne peut plus être annulée.';
    const { onOutcome } = setup(() => ({ status: 409, body: { error: 'Conflict', message, requestId: 'r' } }));
    await user.click(screen.getByRole('button', { name: "Confirmer l'annulation" }));
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalled());
    expect(onOutcome.mock.calls[0]![0]).toEqual({ variant: 'error', title: `La demande n'a pas été annulée : ${message}` });
  });

  it('opens nothing for a request the server does not let the caller cancel', () => {
    const { onClose } = setup(() => ({ status: 200, body: invitation }), false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onClose).toHaveBeenCalled();
  });
});
