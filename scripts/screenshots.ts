// `npm run screenshots`: PNGs of the main screens, at 1280 × 800 and 375 px wide, into docs/screenshots/
// (the README shows them). It serves the built SPA (WEB_ROOT, default dist/; built with `vite build` only
// when missing, so run `npm run build` first after a change) with the real server on a free port and a fresh
// data folder (the demo seed, so the same people on every run), signs in through the local provider in the
// system Chromium as the personas who use each screen, and saves what they see: the viewport, not the whole
// page, which keeps the files small and shows what a person sees first.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, type Browser, type Locator, type Page } from '@playwright/test';
import { freePort, startServer } from '../bench/server-process.ts';
import { CHROMIUM_ARGS, assertChromium, chromiumPath } from '../tests/e2e/chromium.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs/screenshots');
const WEB_ROOT = path.resolve(ROOT, process.env.WEB_ROOT ?? 'dist');
const PASSWORD = 'Demo-Portail-2026';
const SIZES = [
  { suffix: 'desktop', viewport: { width: 1280, height: 800 } },
  { suffix: '375', viewport: { width: 375, height: 812 } },
] as const;
type Size = (typeof SIZES)[number];
const USERS = 'Liste des utilisateurs';

function log(message: string) {
  console.log(`screenshots  ${message}`);
}

function buildIfMissing() {
  if (fs.existsSync(path.join(WEB_ROOT, 'index.html'))) return;
  log(`no build in ${path.relative(ROOT, WEB_ROOT)}/: vite build`);
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', WEB_ROOT, '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
}

/** The server as `npm start` runs it (development settings: https with its own certificate, the local sign-in, the demo seed). */
function startPortal(port: number, dataDir: string) {
  const env = { PORT: String(port), DATA_DIR: dataDir, WEB_ROOT, LOG_LEVEL: 'warn' };
  return startServer({ env, port, root: ROOT, logFile: path.join(dataDir, 'server.log'), origin: `https://localhost:${port}`, readyTimeoutMs: 120_000 });
}

async function shoot(page: Page, name: string, size: Size) {
  // Nothing hovered, nothing moving, the fonts drawn.
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.fonts.ready);
  const file = path.join(OUT, `${name}-${size.suffix}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  log(`${path.relative(ROOT, file)}  ${Math.round(fs.statSync(file).size / 1024)} kB`);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
/** A list's n-th row (from 0): a table's row from 640 px, a card of the named list below (issue 18). */
const item = (page: Page, size: Size, list: string, n: number) =>
  size.viewport.width >= 640 ? page.getByRole('table', { name: list }).getByRole('row').nth(n + 1) : page.getByRole('list', { name: list }).getByRole('listitem').nth(n);
/** The row boxes are drawn disabled until the selection's code has loaded (issue 22). */
const expectEnabled = (locator: Locator) => expect(locator).toBeEnabled({ timeout: 10_000 });

async function signIn(page: Page, email: string) {
  await page.goto('/authentication/sign-in');
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL('**/dashboard');
  await heading(page, 'Accueil');
}

async function newPage(browser: Browser, origin: string, size: Size) {
  const context = await browser.newContext({ baseURL: origin, viewport: size.viewport, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris', colorScheme: 'light' });
  return context.newPage();
}

async function backOfficeScreens(browser: Browser, origin: string, size: Size) {
  const page = await newPage(browser, origin, size);
  await page.goto('/authentication/sign-in');
  await page.waitForURL(/\/oidc\/interaction\//);
  await heading(page, 'Connexion');
  await shoot(page, 'sign-in', size);

  await signIn(page, 'backoffice@portail.test');
  // 'À traiter' (issue 24) once its counts are in.
  await page.getByRole('region', { name: 'À traiter' }).getByRole('link').first().waitFor();
  await shoot(page, 'dashboard', size);
  if (size.suffix === '375') {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('dialog', { name: 'Portail Habilitations' }).waitFor();
    await shoot(page, 'menu', size);
    await page.keyboard.press('Escape');
  }

  await page.goto('/utilisateurs');
  await heading(page, 'Gestion des utilisateurs');
  const first = item(page, size, USERS, 0);
  await first.waitFor();
  await shoot(page, 'utilisateurs', size);

  const actions = first.getByRole('button', { name: /^Actions pour / });
  const name = (await actions.getAttribute('aria-label'))!.replace(/^Actions pour /, '');
  await actions.click();
  await page.getByRole('menuitem', { name: 'Voir le profil' }).click();
  await heading(page, 'Profil utilisateur');
  await page.getByText(name, { exact: true }).first().waitFor();
  await shoot(page, 'profil-utilisateur', size);
  // Issue 23: the person's data on request, below the profile's cards.
  await page.getByRole('heading', { name: 'Données personnelles' }).scrollIntoViewIfNeeded();
  await shoot(page, 'profil-donnees-personnelles', size);
  await page.goBack();
  await item(page, size, USERS, 0).getByRole('button', { name: `Modifier ${name}` }).click();
  await heading(page, 'Modifier un utilisateur');
  await page.getByRole('textbox', { name: 'Prénom' }).waitFor();
  await shoot(page, 'modifier-utilisateur', size);

  await page.goto('/utilisateurs/creer');
  await heading(page, 'Créer un utilisateur');
  await shoot(page, 'creer-utilisateur-etape-1', size);
  await page.getByRole('textbox', { name: 'Prénom' }).fill('Élodie');
  await page.getByRole('textbox', { name: 'Nom', exact: true }).fill('Martin');
  await page.getByRole('textbox', { name: 'Email' }).fill('elodie.martin@clinique-des-tilleuls.fr');
  await page.getByRole('textbox', { name: 'Fonction' }).fill('Assistante de direction');
  await page.getByRole('textbox', { name: 'Adresse' }).fill('12 rue des Lilas');
  await page.getByRole('textbox', { name: 'Code postal' }).fill('69003');
  await page.getByRole('textbox', { name: 'Ville' }).fill('Lyon');
  await page.getByRole('button', { name: 'Suivant' }).click();
  await page.getByText('Étape 2/4').waitFor();
  await page.getByRole('list', { name: 'SIREN proposés' }).getByRole('listitem').first().waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'creer-utilisateur-etape-2', size);

  // The users list with two people ticked: the selection's toolbar (issue 22).
  await page.goto('/utilisateurs');
  await heading(page, 'Gestion des utilisateurs');
  for (const row of [1, 2]) {
    const box = item(page, size, USERS, row - 1).getByRole('checkbox', { name: /^Sélectionner / });
    await expectEnabled(box);
    await box.check();
  }
  await page.getByText('2 sélectionné(s)').waitFor();
  await shoot(page, 'utilisateurs-selection', size);

  // The journal, newest first, each entry as a sentence with its changes (issue 21). A fresh demo has none: the
  // first person is deactivated and reactivated (or the reverse), which leaves the data as it was.
  await page.getByRole('button', { name: 'Effacer la sélection' }).click();
  const person = item(page, size, USERS, 0).getByRole('button', { name: /^Actions pour / });
  for (let i = 0; i < 2; i++) {
    await person.click();
    await page.getByRole('menuitem', { name: /^(Désactiver|Activer)$/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await page.getByText(/a été (désactivé|activé) avec succès/).first().waitFor();
  }
  await page.goto('/journal');
  await heading(page, 'Journal des modifications');
  await page.locator('main ol > li').first().waitFor();
  await shoot(page, 'journal', size);

  // 'Durées de conservation' and the accessibility statement (issue 23).
  await page.goto('/conservation');
  await heading(page, 'Durées de conservation');
  await page.getByRole('table', { name: 'Durées de conservation des données du portail' }).waitFor();
  await shoot(page, 'conservation', size);
  await page.goto('/accessibilite');
  await heading(page, "Déclaration d'accessibilité");
  await shoot(page, 'accessibilite', size);
  // Issue 24: the request and account lifecycles' charts with their figures: from the title, the chart and the tables
  // beside it; at 375 px, from the chart, the tables below it.
  await page.goto('/workflows');
  // Every chart drawn first: one drawn later would move the page under the shot.
  await expect.poll(async () => (await page.locator('figure').count()) - (await page.locator('figure [role="img"] svg').count()), { timeout: 30_000 }).toBe(0);
  for (const [title, name] of [["Cycle de vie d'une demande (serveur)", 'workflows-chiffres'], ["Cycle de vie d'un compte (serveur)", 'workflows-comptes']] as const) {
    const lifecycle = page.getByRole('region', { name: title });
    await lifecycle.getByRole('table', { name: /^Transitions des 30 derniers jours/ }).waitFor();
    await lifecycle.getByRole('img').locator('svg').waitFor();
    const top = size.suffix === '375' ? lifecycle.locator('figure') : lifecycle;
    await top.evaluate((element) => element.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    // After a long jump the headless Chromium may capture parts not painted yet (a white band): a first capture paints them.
    await page.screenshot({ animations: 'disabled' });
    await shoot(page, name, size);
  }

  await page.goto('/admin');
  await heading(page, 'Habilitation des administrateurs');
  const latest = item(page, size, 'Liste des demandes administrateur', 0);
  await latest.waitFor();
  await shoot(page, 'admin', size);
  await latest.getByRole('button', { name: /^Voir le détail/ }).click();
  await heading(page, /^Invitation #\d+$/);
  await shoot(page, 'admin-detail', size);
  await page.context().close();
}

async function memberAdministratorScreens(browser: Browser, origin: string, size: Size) {
  const page = await newPage(browser, origin, size);
  await signIn(page, 'admin.clinique@portail.test');
  await page.goto('/utilisateurs');
  await page.getByRole('button', { name: 'Demander un administrateur' }).click();
  await heading(page, 'Demander un administrateur');
  await shoot(page, 'admin-actions', size);
  await page.getByRole('button', { name: 'Choisir un utilisateur existant' }).click();
  await heading(page, 'Attribuer le rôle administrateur à un utilisateur existant');
  await page.getByRole('button', { name: 'Soumettre la demande' }).waitFor();
  await page.getByRole('list', { name: 'Utilisateurs' }).getByRole('listitem').first().waitFor();
  await shoot(page, 'assign-existing', size);
  // 'Mes demandes' (issue 22), from the chooser's link: the requests this administrator made, with their statuses.
  await page.goto('/admin-actions');
  await page.getByRole('link', { name: 'Voir mes demandes' }).click();
  await heading(page, 'Mes demandes');
  await item(page, size, 'Mes demandes', 0).waitFor();
  await shoot(page, 'mes-demandes', size);
  await page.context().close();
}

async function main() {
  assertChromium();
  buildIfMissing();
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-screenshots-'));
  try {
    const server = await startPortal(await freePort(), dataDir);
    try {
      const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
      try {
        for (const size of SIZES) {
          await backOfficeScreens(browser, server.origin, size);
          await memberAdministratorScreens(browser, server.origin, size);
        }
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
