import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppShell, type AppShellProps } from '../../src/ui/app-shell';
import { navigationFor } from '../../src/domain/navigation';
import type { SessionUser } from '../../rules/permissions';
import type { ProfileSummary } from '../../src/ui/profile-panel';
import { stubScreenWidth } from './support/screen-width';

afterEach(cleanup);

const backOfficeUser: SessionUser = {
  isActive: true,
  userType: 'BACKOFFICE',
  email: 'backoffice@portail.test',
  permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }],
};

const backOfficeProfile: ProfileSummary = {
  email: 'backoffice@portail.test',
  userType: 'BACKOFFICE',
  permissions: ['USER_CREATE', 'USER_LIST'],
  organizations: [],
};

const organizationUser: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'rh.clinique@portail.test',
  organizations: [
    {
      id: 'o-1',
      code: '73282932000074',
      name: 'Clinique des Tilleuls - Siège',
      type: 'SIRET',
      role: { code: 'RESSOURCE_HUMAINE', name: 'Ressource humaine', permissions: [] },
    },
  ],
};

const organizationProfile: ProfileSummary = {
  email: 'rh.clinique@portail.test',
  userType: 'ORGANIZATION',
  permissions: [],
  organizations: [{ key: 'o-1-0', name: 'Clinique des Tilleuls - Siège', code: '73282932000074', role: 'Ressource humaine' }],
};

const footerLinks = [
  { label: 'Mentions légales', href: 'https://www.example.fr/mentions-legales' },
  { label: 'Données personnelles', href: 'https://www.example.fr/donnees-personnelles' },
  { label: "Conditions générales d'utilisation", href: 'https://www.example.fr/conditions-generales-utilisation' },
  { label: 'Gestion des cookies', href: 'https://www.example.fr/gestion-des-cookies' },
];

function renderShell(overrides: Partial<AppShellProps> = {}) {
  const onNavigate = vi.fn<(href: string) => void>();
  const props: AppShellProps = {
    entries: navigationFor(backOfficeUser),
    currentPath: '/dashboard',
    email: 'backoffice@portail.test',
    profile: backOfficeProfile,
    onNavigate,
    greetingName: 'Agnès Lefèvre',
    memberAreaUrl: 'https://adherent.example.fr/',
    footerLinks,
    notice: null,
    children: <h1>Contenu de la page</h1>,
    ...overrides,
  };
  const view = render(<AppShell {...props} />);
  return { ...view, onNavigate };
}

function navigation() {
  return within(screen.getByRole('navigation', { name: 'Navigation principale' }));
}

/** The names of the entries of the sidebar, in order, links and buttons alike. */
function entryNames(): string[] {
  return within(screen.getByRole('navigation', { name: 'Navigation principale' }))
    .getAllByRole('listitem')
    .map((item) => (within(item).queryByRole('link') ?? within(item).getByRole('button')).textContent ?? '');
}

describe('AppShell sidebar entries', () => {
  it('shows a back-office user every entry: six links and the profile button', () => {
    renderShell();
    expect(entryNames()).toEqual(['Accueil', 'Habilitation des administrateurs', 'Gestion des utilisateurs', 'Journal des modifications', 'Durées de conservation', 'Mon profil', 'Déconnexion']);
    const nav = navigation();
    expect(nav.getByRole('link', { name: 'Accueil' }).getAttribute('href')).toBe('/dashboard');
    expect(nav.getByRole('link', { name: 'Habilitation des administrateurs' }).getAttribute('href')).toBe('/admin');
    expect(nav.getByRole('link', { name: 'Gestion des utilisateurs' }).getAttribute('href')).toBe('/utilisateurs');
    expect(nav.getByRole('link', { name: 'Journal des modifications' }).getAttribute('href')).toBe('/journal');
    expect(nav.getByRole('link', { name: 'Durées de conservation' }).getAttribute('href')).toBe('/conservation');
    expect(nav.getByRole('button', { name: 'Mon profil' })).toBeTruthy();
    expect(nav.getByRole('link', { name: 'Déconnexion' }).getAttribute('href')).toBe('/authentication/sign-out');
    expect(nav.queryByRole('link', { name: 'Mon profil' })).toBeNull();
  });

  it('shows an organization user without USER_LIST neither the administrators nor the users entry', () => {
    renderShell({ entries: navigationFor(organizationUser), email: organizationUser.email, profile: organizationProfile });
    expect(entryNames()).toEqual(['Accueil', 'Mon profil', 'Déconnexion']);
    expect(screen.queryByRole('link', { name: 'Habilitation des administrateurs' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Gestion des utilisateurs' })).toBeNull();
  });

  it.each([
    { path: '/dashboard', active: 'Accueil' },
    { path: '/admin', active: 'Habilitation des administrateurs' },
    { path: '/admin/12', active: 'Habilitation des administrateurs' },
    { path: '/utilisateurs', active: 'Gestion des utilisateurs' },
    { path: '/utilisateurs/edit/u-7', active: 'Gestion des utilisateurs' },
  ])('marks only $active with aria-current="page" on $path', ({ path, active }) => {
    renderShell({ currentPath: path });
    const current = navigation()
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page')
      .map((link) => link.textContent);
    expect(current).toEqual([active]);
  });

  it('marks no entry on /admin-actions, which only shares a prefix with /admin', () => {
    renderShell({ currentPath: '/admin-actions' });
    expect(navigation().getAllByRole('link').filter((link) => link.hasAttribute('aria-current'))).toEqual([]);
  });

  it.each([
    { name: 'Accueil', href: '/dashboard' },
    { name: 'Habilitation des administrateurs', href: '/admin' },
    { name: 'Gestion des utilisateurs', href: '/utilisateurs' },
    { name: 'Journal des modifications', href: '/journal' },
    { name: 'Durées de conservation', href: '/conservation' },
    { name: 'Déconnexion', href: '/authentication/sign-out' },
  ])('calls onNavigate with $href when $name is clicked, and keeps the browser from following the link', ({ name, href }) => {
    const { onNavigate } = renderShell();
    const notPrevented = fireEvent.click(navigation().getByRole('link', { name }));
    expect(notPrevented).toBe(false);
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(onNavigate).toHaveBeenCalledWith(href);
  });

  it("does not call onNavigate for 'Mon profil'", async () => {
    const { onNavigate } = renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Mon profil' }));
    expect(onNavigate).not.toHaveBeenCalled();
  });
});

describe('AppShell collapsible sidebar', () => {
  it('toggles aria-expanded and its own label on the collapse button', async () => {
    const user = userEvent.setup();
    renderShell();
    const toggle = screen.getByRole('button', { name: 'Réduire le menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-label')).toBe('Déplier le menu');
    await user.click(screen.getByRole('button', { name: 'Déplier le menu' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Réduire le menu' })).toBe(toggle);
  });

  it('hides the labels visually once collapsed but keeps them as accessible names, with a tooltip', async () => {
    const user = userEvent.setup();
    renderShell();
    const home = navigation().getByRole('link', { name: 'Accueil' });
    const label = within(home).getByText('Accueil');
    expect(label.classList.contains('sr-only')).toBe(false);
    expect(home.hasAttribute('title')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Réduire le menu' }));

    for (const name of ['Accueil', 'Habilitation des administrateurs', 'Gestion des utilisateurs', 'Journal des modifications', 'Durées de conservation', 'Déconnexion']) {
      const link = navigation().getByRole('link', { name });
      expect(within(link).getByText(name).classList.contains('sr-only')).toBe(true);
      expect(link.getAttribute('title')).toBe(name);
    }
    const profile = navigation().getByRole('button', { name: 'Mon profil' });
    expect(within(profile).getByText('Mon profil').classList.contains('sr-only')).toBe(true);
    // The email at the bottom stays for screen readers too.
    expect(screen.getByText('backoffice@portail.test').closest('.sr-only')).not.toBeNull();

    await user.click(screen.getByRole('button', { name: 'Déplier le menu' }));
    expect(within(navigation().getByRole('link', { name: 'Accueil' })).getByText('Accueil').classList.contains('sr-only')).toBe(false);
  });
});

/** The drawer, once its lazy chunk has loaded (a loaded machine may take more than findBy's default second). */
const findDrawer = () => screen.findByRole('dialog', { name: 'Portail Habilitations' }, { timeout: 5000 });

describe('AppShell on a narrow screen', () => {
  // The drawer is a lazy chunk: transformed once here, so that the first test's wait is not the transform's.
  beforeAll(() => import('../../src/ui/mobile-drawer'));
  afterEach(() => vi.unstubAllGlobals());

  it("opens the navigation from the 'Menu' button as a dialog, with every entry and the email", async () => {
    const user = userEvent.setup();
    renderShell();
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(menu);
    const drawer = await findDrawer();
    const nav = within(within(drawer).getByRole('navigation', { name: 'Navigation principale' }));
    expect(nav.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Accueil', 'Habilitation des administrateurs', 'Gestion des utilisateurs', 'Journal des modifications', 'Durées de conservation', 'Mon profil', 'Déconnexion']);
    expect(nav.getByRole('link', { name: 'Accueil' }).getAttribute('aria-current')).toBe('page');
    expect(within(drawer).getByText('backoffice@portail.test')).toBeTruthy();
    // Focus is taken into the dialog.
    expect(drawer.contains(document.activeElement)).toBe(true);
  });

  it('closes the drawer on a followed link, calls onNavigate, and leaves the focus on the main content', async () => {
    const user = userEvent.setup();
    const { onNavigate } = renderShell();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(within(await findDrawer()).getByRole('link', { name: 'Gestion des utilisateurs' }));
    expect(onNavigate).toHaveBeenCalledWith('/utilisateurs');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it("closes on Escape and on 'Fermer le menu', giving the focus back to the 'Menu' button", async () => {
    const user = userEvent.setup();
    const { onNavigate } = renderShell();
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-haspopup')).toBe('dialog');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await user.click(menu);
    expect((await findDrawer()).contains(document.activeElement)).toBe(true);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await user.click(menu);
    await user.click(within(await findDrawer()).getByRole('button', { name: 'Fermer le menu' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(menu);
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it("opens 'Mon profil' inside the drawer", async () => {
    const user = userEvent.setup();
    renderShell();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const drawer = within(await findDrawer());
    const profile = drawer.getByRole('button', { name: 'Mon profil' });
    await user.click(profile);
    expect(profile.getAttribute('aria-expanded')).toBe('true');
    expect(drawer.getByText('Back-office')).toBeTruthy();
  });

  it('closes the drawer once the screen widens to 768 px, where the sidebar comes back', async () => {
    const user = userEvent.setup();
    const screenWidth = stubScreenWidth(375);
    renderShell();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    expect(await findDrawer()).toBeTruthy();
    screenWidth.resize(800);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it.each([
    { width: 800, folded: true },
    { width: 1023, folded: true },
    { width: 1024, folded: false },
  ])('starts the sidebar folded ($folded) at $width px', ({ width, folded }) => {
    stubScreenWidth(width);
    renderShell();
    expect(screen.getByRole('button', { name: folded ? 'Déplier le menu' : 'Réduire le menu' }).getAttribute('aria-expanded')).toBe(String(!folded));
  });
});

describe("AppShell 'Mon profil' panel", () => {
  it('opens and closes the panel, which shows the email, the type Back-office and the permissions', async () => {
    const user = userEvent.setup();
    renderShell();
    const button = screen.getByRole('button', { name: 'Mon profil' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const panelId = button.getAttribute('aria-controls')!;
    expect(panelId).toBeTruthy();
    expect(document.getElementById(panelId)).toBeNull();

    await user.click(button);

    expect(button.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(panelId)!;
    expect(panel).not.toBeNull();
    const terms = within(panel).getAllByRole('term').map((t) => t.textContent);
    const definitions = within(panel).getAllByRole('definition').map((d) => d.textContent);
    expect(terms).toEqual(['Adresse email', "Type d'utilisateur", 'Permissions']);
    expect(definitions).toEqual(['backoffice@portail.test', 'Back-office', 'USER_CREATE, USER_LIST']);

    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(panelId)).toBeNull();
  });

  it("shows an organization user as 'Adhérent', with 'Aucune' permission and their organizations and roles", async () => {
    const user = userEvent.setup();
    renderShell({ entries: navigationFor(organizationUser), email: organizationUser.email, profile: organizationProfile });
    const button = screen.getByRole('button', { name: 'Mon profil' });
    await user.click(button);
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    const terms = within(panel).getAllByRole('term').map((t) => t.textContent);
    expect(terms).toEqual(['Adresse email', "Type d'utilisateur", 'Permissions', 'Organisations et rôles']);
    expect(within(panel).getByText('rh.clinique@portail.test')).toBeTruthy();
    expect(within(panel).getByText('Adhérent')).toBeTruthy();
    expect(within(panel).getByText('Aucune')).toBeTruthy();
    expect(within(panel).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Clinique des Tilleuls - Siège (73282932000074) : Ressource humaine',
    ]);
  });
});

describe('AppShell header, notice and footer', () => {
  it('greets the user by name and links the member area in a new window', () => {
    renderShell();
    expect(screen.getByText('Bonjour Agnès Lefèvre')).toBeTruthy();
    const memberArea = screen.getByRole('link', { name: /^Espace Adhérent \/ Webservices\s*\(nouvelle fenêtre\)$/ });
    expect(memberArea.getAttribute('href')).toBe('https://adherent.example.fr/');
    expect(memberArea.getAttribute('target')).toBe('_blank');
    expect(memberArea.getAttribute('rel')).toContain('noopener');
  });

  it('shows the email of the signed-in user at the bottom of the sidebar, after the entries', () => {
    renderShell({ email: 'agnes.lefevre@portail.test' });
    const sidebar = screen.getByRole('complementary');
    const email = within(sidebar).getByText('agnes.lefevre@portail.test');
    expect(within(sidebar).getByText('Connecté en tant que')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(nav.compareDocumentPosition(email) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(nav.contains(email)).toBe(false);
  });

  it('shows the notice as an alert when one is given', () => {
    renderShell({ notice: 'The server is restarting. Please refresh the page in a moment. (Using cached data)' });
    expect(screen.getByRole('alert').textContent).toBe('The server is restarting. Please refresh the page in a moment. (Using cached data)');
  });

  it('shows no alert without a notice', () => {
    renderShell({ notice: null });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('renders the page inside the main landmark, reachable by the skip link', () => {
    renderShell();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: 'Contenu de la page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Aller au contenu' }).getAttribute('href')).toBe(`#${main.id}`);
  });

  it('lists the footer links in the footer, in order', () => {
    renderShell();
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual(footerLinks.map((l) => [l.label, l.href]));
  });
});
