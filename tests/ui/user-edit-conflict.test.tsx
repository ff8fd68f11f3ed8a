import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { editApi, renderEditPage } from './user-edit-fixtures';

afterEach(cleanup);

describe('a user changed by someone else meanwhile (409 on the version)', () => {
  it('says so and offers to reload, which restarts the form from the current version', async () => {
    const api = editApi();
    renderEditPage(api);
    const user = userEvent.setup();
    await screen.findByDisplayValue('Gestionnaire RH');
    await user.clear(screen.getByLabelText('Fonction'));
    await user.type(screen.getByLabelText('Fonction'), 'Responsable RH');
    // Someone else saves first.
    api.version = 4;
    api.jobTitle = 'Gestionnaire paie';
    api.updateStatus = 409;
    api.updateBody = { error: 'Conflict', message: "Cet utilisateur a été modifié par quelqu'un d'autre entre-temps. Rechargez la page.", requestId: 'r' };
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Utilisateur modifié entre-temps')).toBeTruthy();
    expect(within(dialog).getByText(/Quelqu'un d'autre a modifié cet utilisateur/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Recharger' }));

    expect(await screen.findByDisplayValue('Gestionnaire paie')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Détails Personnels' }).getAttribute('aria-selected')).toBe('true');
    // The next save goes against the new version.
    api.updateStatus = 200;
    api.updateBody = null;
    await user.clear(screen.getByLabelText('Fonction'));
    await user.type(screen.getByLabelText('Fonction'), 'Responsable RH');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.updates).toHaveLength(2));
    expect(api.updates[1]!.body).toMatchObject({ version: 4, jobTitle: 'Responsable RH' });
  });

  it('keeps the changes when the person chooses to go on editing', async () => {
    const api = editApi();
    renderEditPage(api);
    const user = userEvent.setup();
    await screen.findByDisplayValue('Gestionnaire RH');
    await user.type(screen.getByLabelText('Mobile'), '06 12 34 56 78');
    api.version = 4;
    api.updateStatus = 409;
    api.updateBody = { error: 'Conflict', message: 'Conflit', requestId: 'r' };
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Continuer la saisie' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((screen.getByLabelText('Mobile') as HTMLInputElement).value).toBe('06 12 34 56 78');
  });

  it('treats a 409 that is not about the version (an email already used) as a failed update', async () => {
    const api = editApi();
    renderEditPage(api);
    const user = userEvent.setup();
    await screen.findByDisplayValue('Gestionnaire RH');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'deja.pris@portail.test');
    api.updateStatus = 409;
    api.updateBody = { error: 'Conflict', message: 'Cette adresse email est déjà utilisée par un autre utilisateur.', requestId: 'r' };
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('La mise à jour a échoué.');
    expect(alert.textContent).toContain('Cette adresse email est déjà utilisée par un autre utilisateur.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
