import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EDITOR_ID, editApi, lyon, renderEditPage, USER_ID } from './user-edit-fixtures';

afterEach(cleanup);

/** The text a disabled control points at with aria-describedby (its tooltip's text). */
function reasonOf(element: HTMLElement): string | null {
  const id = element.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const tab = (name: string) => screen.getByRole('tab', { name });
const saveButton = () => screen.getByRole('button', { name: 'Enregistrer' });
/** Disabled, or (a blocked tab, focusable for its tooltip) marked aria-disabled. */
const disabled = (element: HTMLElement) => element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true';

async function openLoaded() {
  const api = editApi();
  const view = renderEditPage(api);
  await screen.findByDisplayValue('Gestionnaire RH');
  return { api, view, user: userEvent.setup() };
}

async function chooseGlycines(user: ReturnType<typeof userEvent.setup>) {
  await user.click(tab('SIREN'));
  await user.type(screen.getByRole('searchbox', { name: 'Rechercher un SIREN' }), 'glycines');
  await user.click(await screen.findByRole('checkbox', { name: /EHPAD Les Glycines/ }));
}

describe('the edit tabs (spec §2, §4)', () => {
  it("disables the SIRET and Rôles tabs while no SIREN is chosen, saying 'Veuillez d'abord sélectionner un SIREN'", async () => {
    const { user } = await openLoaded();
    expect(disabled(tab('SIRET'))).toBe(false);
    await user.click(tab('SIREN'));
    await user.click(screen.getByRole('button', { name: 'Retirer Clinique des Tilleuls (787441799)' }));
    expect(disabled(tab('SIRET'))).toBe(true);
    expect(reasonOf(tab('SIRET'))).toBe("Veuillez d'abord sélectionner un SIREN");
    expect(disabled(tab('Rôles'))).toBe(true);
    expect(screen.getByText('Aucun SIREN sélectionné.')).toBeTruthy();
  });

  it("disables the Rôles tab until each chosen SIREN has a SIRET, saying 'Sélectionnez au moins un SIRET pour chaque SIREN choisi'", async () => {
    const { user } = await openLoaded();
    expect(disabled(tab('Rôles'))).toBe(false);
    await chooseGlycines(user);
    expect(disabled(tab('Rôles'))).toBe(true);
    expect(reasonOf(tab('Rôles'))).toBe('Sélectionnez au moins un SIRET pour chaque SIREN choisi');
    await user.click(tab('SIRET'));
    const group = screen.getByRole('region', { name: 'EHPAD Les Glycines (469860456)' });
    expect(within(group).getByText('Aucun SIRET sélectionné pour ce SIREN.')).toBeTruthy();
    await user.click(await within(group).findByRole('checkbox', { name: /EHPAD Les Glycines - Nantes/ }));
    expect(disabled(tab('Rôles'))).toBe(false);
    expect(reasonOf(tab('Rôles'))).toBeNull();
  });

  it('keeps a blocked tab in the tab list and focusable (its tooltip says why), and stays on the current tab when it is pressed', async () => {
    const { user } = await openLoaded();
    await chooseGlycines(user);
    const roles = tab('Rôles');
    expect(roles.parentElement?.getAttribute('role')).toBe('tablist');
    expect(roles.hasAttribute('disabled')).toBe(false);
    await user.click(roles);
    expect(tab('SIREN').getAttribute('aria-selected')).toBe('true');
    expect(roles.getAttribute('aria-selected')).toBe('false');
  });

  it("takes all the SIRETs of a SIREN marked 'Tout sélectionner' once they are loaded", async () => {
    const { user } = await openLoaded();
    await chooseGlycines(user);
    await user.click(tab('SIRET'));
    await user.click(screen.getByRole('checkbox', { name: 'Tout sélectionner pour EHPAD Les Glycines' }));
    await waitFor(() => expect(disabled(tab('Rôles'))).toBe(false));
    const nantes = await screen.findByRole('checkbox', { name: /EHPAD Les Glycines - Nantes/ });
    expect((nantes as HTMLInputElement).checked).toBe(true);
  });

  it('offers no INTERNAL role to a person who is not back office, even when the API lists one', async () => {
    const api = editApi();
    renderEditPage(api, { id: EDITOR_ID, backOffice: false });
    await screen.findByDisplayValue('Gestionnaire RH');
    await userEvent.setup().click(tab('Rôles'));
    expect(screen.getByRole('checkbox', { name: 'Ressources humaines' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /Admin Adhérent/ })).toBeNull();
  });

  it('without ORG_LIST, offers the SIRENs of the user with no search box', async () => {
    renderEditPage(editApi(), { id: EDITOR_ID, backOffice: false }, false);
    await screen.findByDisplayValue('Gestionnaire RH');
    await userEvent.setup().click(tab('SIREN'));
    expect(screen.queryByRole('searchbox', { name: 'Rechercher un SIREN' })).toBeNull();
    expect(screen.getByText(/La recherche de SIREN n'est pas disponible/)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /Clinique des Tilleuls/ })).toBeTruthy();
  });

  it("names the SIREN of a SIRET held outside what is offered from the answer itself, asking nothing more (issue 18)", async () => {
    const api = editApi();
    // Only the establishment is offered: its SIREN comes with the assignment (parentOrganization).
    api.availableOrganizations = [lyon];
    renderEditPage(api, { id: EDITOR_ID, backOffice: false }, false);
    await screen.findByDisplayValue('Gestionnaire RH');
    await userEvent.setup().click(tab('SIREN'));
    expect(screen.getByRole('checkbox', { name: /Clinique des Tilleuls/ })).toHaveProperty('checked', true);
    const asked = api.fetch.mock.calls.map(([request]) => new URL((request as Request).url).pathname);
    expect(asked.filter((path) => path.startsWith('/api/v2/organizations/code/'))).toEqual([]);
  });
});

describe('a pending e-mail change (issue 19)', () => {
  it("says 'Adresse en attente de confirmation : {email}' under the address in force, and keeps that address in the form", async () => {
    const api = editApi();
    api.pendingEmail = 'romain.garnier@nouvelle-adresse.fr';
    renderEditPage(api);
    expect(await screen.findByText('Adresse en attente de confirmation : romain.garnier@nouvelle-adresse.fr')).toBeTruthy();
    expect(screen.getByDisplayValue('rh.clinique@portail.test')).toBeTruthy();
  });

  it('says, once a new address is saved, that a confirmation link went there and the address changes once confirmed', async () => {
    const { user, api, view } = await openLoaded();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'romain.garnier@nouvelle-adresse.fr');
    await user.click(saveButton());
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/utilisateurs'));
    expect(api.updates[0]!.body).toMatchObject({ email: 'romain.garnier@nouvelle-adresse.fr' });
    expect(await screen.findByText("Un lien de confirmation a été envoyé à romain.garnier@nouvelle-adresse.fr : l'adresse changera quand la personne l'aura confirmée.")).toBeTruthy();
  });

  it('says nothing of a pending address when there is none', async () => {
    await openLoaded();
    expect(screen.queryByText(/Adresse en attente de confirmation/)).toBeNull();
  });
});

describe('the save rules (spec §5)', () => {
  it('keeps Enregistrer disabled with the tooltip of the first rule broken, then saves against the version loaded', async () => {
    const { user, api, view } = await openLoaded();
    expect(disabled(saveButton())).toBe(true);
    expect(reasonOf(saveButton())).toBe("Aucune modification n'a été effectuée");

    await user.click(tab('SIREN'));
    await user.click(screen.getByRole('button', { name: 'Retirer Clinique des Tilleuls (787441799)' }));
    expect(reasonOf(saveButton())).toBe('Veuillez sélectionner au moins un SIREN');

    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un SIREN' }), 'glycines');
    await user.click(await screen.findByRole('checkbox', { name: /EHPAD Les Glycines/ }));
    expect(reasonOf(saveButton())).toBe('Veuillez sélectionner au moins un SIRET pour chaque SIREN');

    await user.click(tab('SIRET'));
    await user.click(await screen.findByRole('checkbox', { name: /EHPAD Les Glycines - Nantes/ }));
    await user.click(tab('Rôles'));
    await user.click(screen.getByRole('checkbox', { name: 'Ressources humaines' }));
    expect(reasonOf(saveButton())).toBe('Veuillez sélectionner au moins un rôle');

    await user.click(screen.getByRole('checkbox', { name: 'Comptable' }));
    expect(disabled(saveButton())).toBe(false);
    expect(reasonOf(saveButton())).toBeNull();
    await user.click(saveButton());

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/utilisateurs'));
    expect(api.updates).toHaveLength(1);
    expect(api.updates[0]!.ifMatch).toBe('"3"');
    expect(api.updates[0]!.body).toMatchObject({ version: 3, organizationCodes: ['469860456', '46986045600018'], roleIds: [10], firstName: 'Romain', email: 'rh.clinique@portail.test' });
    expect(await screen.findByText('"Romain Garnier" a été mis à jour avec succès.')).toBeTruthy();
  });

  it('does not validate the detail fields: a change of them alone can be saved', async () => {
    const { user, api } = await openLoaded();
    await user.clear(screen.getByLabelText('Fonction'));
    await user.type(screen.getByLabelText('Fonction'), 'x');
    expect(disabled(saveButton())).toBe(false);
    await user.click(saveButton());
    await waitFor(() => expect(api.updates).toHaveLength(1));
    expect(api.updates[0]!.body).toMatchObject({ jobTitle: 'x', organizationCodes: ['787441799', '78744179900014'], roleIds: [6] });
  });

  it("says 'La mise à jour a échoué.' with the server's message, and keeps the form", async () => {
    const { user, api } = await openLoaded();
    api.updateStatus = 400;
    api.updateBody = { error: 'BadRequest', message: 'Requête invalide', fieldErrors: [{ field: 'body.email', message: 'Adresse email invalide' }], requestId: 'r' };
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'pas-une-adresse');
    await user.click(saveButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('La mise à jour a échoué.');
    expect(alert.textContent).toContain('Adresse email invalide');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('pas-une-adresse');
  });

  it("leaves the page, saying so, when the server does not let this person edit the user (a read-only back office)", async () => {
    const api = editApi();
    api.allowedActions = [];
    const { router } = renderEditPage(api, { id: 'someone-else', backOffice: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/utilisateurs'));
    expect(await screen.findByText("Vous n'avez pas le droit de modifier cet utilisateur.")).toBeTruthy();
    expect(api.updates).toEqual([]);
  });

  it('refuses to edit oneself before loading anything', async () => {
    const api = editApi();
    const { router } = renderEditPage(api, { id: USER_ID, backOffice: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/utilisateurs'));
    expect(await screen.findByText('Vous ne pouvez pas modifier votre propre profil')).toBeTruthy();
    expect(api.fetch).not.toHaveBeenCalled();
  });
});
