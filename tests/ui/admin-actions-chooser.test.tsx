import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminActionsChooser } from '../../src/ui/admin-actions/admin-actions-chooser';
import { SupportHelpBox } from '../../src/ui/admin-actions/support-help-box';

afterEach(cleanup);

function renderChooser() {
  const onCreateAccount = vi.fn();
  const onAssignExisting = vi.fn();
  render(
    <AdminActionsChooser
      onCreateAccount={onCreateAccount}
      onAssignExisting={onAssignExisting}
      myRequests={<a href="/admin-actions/demandes">Voir mes demandes</a>}
      help={<SupportHelpBox hours="de 8 h 30 à 18 h" phone="+33 1 99 00 00 42" email="relation.adherents@example.fr" />}
    />,
  );
  return { onCreateAccount, onAssignExisting, user: userEvent.setup() };
}

describe('the new administrator request chooser (spec §2)', () => {
  it("links to 'Mes demandes', the requests already made (issue 22)", () => {
    renderChooser();
    expect(screen.getByText('Suivez les demandes que vous avez déjà faites, ou annulez-en une encore en attente.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voir mes demandes' }).getAttribute('href')).toBe('/admin-actions/demandes');
  });

  it('offers to create a new administrator account: new account, automatic role, automatic invitation e-mail', async () => {
    const { onCreateAccount, onAssignExisting, user } = renderChooser();
    const card = screen.getByRole('region', { name: 'Créer un nouveau compte administrateur' });
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent?.replace(/^✓/, ''))).toEqual([
      "Création d'un nouveau compte avec adresse email et mot de passe",
      'Attribution automatique du rôle Admin Adhérent',
      "Envoi automatique de l'email d'invitation",
    ]);
    await user.click(within(card).getByRole('button', { name: 'Créer un compte administrateur' }));
    expect(onCreateAccount).toHaveBeenCalledTimes(1);
    expect(onAssignExisting).not.toHaveBeenCalled();
  });

  it('offers to assign the role to an existing user: search, role assignment, no new account', async () => {
    const { onCreateAccount, onAssignExisting, user } = renderChooser();
    const card = screen.getByRole('region', { name: 'Attribuer le rôle administrateur à un utilisateur existant' });
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent?.replace(/^✓/, ''))).toEqual(['Recherche parmi les utilisateurs existants', 'Attribution du rôle Admin Adhérent', 'Aucun nouveau compte à créer']);
    await user.click(within(card).getByRole('button', { name: 'Choisir un utilisateur existant' }));
    expect(onAssignExisting).toHaveBeenCalledTimes(1);
    expect(onCreateAccount).not.toHaveBeenCalled();
  });

  it('shows the customer-relations hours from Monday to Friday, a phone link and a mail link', () => {
    renderChooser();
    const help = screen.getByRole('complementary', { name: "Besoin d'aide ?" });
    expect(help.textContent).toContain('Le service Relation adhérents vous répond du lundi au vendredi, de 8 h 30 à 18 h.');
    expect(within(help).getByRole('link', { name: '+33 1 99 00 00 42' }).getAttribute('href')).toBe('tel:+33199000042');
    expect(within(help).getByRole('link', { name: 'relation.adherents@example.fr' }).getAttribute('href')).toBe('mailto:relation.adherents@example.fr');
  });
});
