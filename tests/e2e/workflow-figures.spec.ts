// Issue 24: the request and account lifecycles' charts on /workflows carry the server's figures, with a table of the same
// numbers, a period in the URL, and the chart (SVG) and the figures (CSV) to download.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { bearer, createPendingInvitation, createUser, openDashboardAs } from './fixtures';

const TITLE = "Cycle de vie d'une demande (serveur)";
const ARROWS = [
  ['En attente → Approuvée', 'request.approve'],
  ['En attente → Refusée', 'request.reject'],
  ['En attente → Annulée', 'request.cancel'],
  ['En attente → Expirée', 'request.expire'],
] as const;

interface Figures {
  started: number;
  states: { state: string; count: number }[];
  transitions: { event: string; count: number; medianSeconds: number | null }[];
}

async function apiFigures(page: Page, days: number, workflowId = 'request-lifecycle'): Promise<Figures> {
  const answer = await page.request.get(`/api/v2/workflows/${workflowId}/figures?days=${days}`, { headers: { Authorization: `Bearer ${await bearer(page)}` } });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Figures;
}

/** The numbers of the table beside the chart: each state's count, then the entries and each transition's count. */
async function tableNumbers(page: Page, days: number) {
  const section = page.getByRole('region', { name: TITLE });
  const states = section.getByRole('table', { name: `Nombre actuel par état : ${TITLE}` });
  const transitions = section.getByRole('table', { name: `Transitions des ${days} derniers jours : ${TITLE}` });
  await expect(transitions).toBeVisible();
  // A transition's row: its name with its event (a row header), then the count and the median.
  const count = async (row: ReturnType<Page['getByRole']>) => Number((await row.getByRole('cell').first().innerText()).replace(/\s/g, ''));
  const stateCounts = [];
  for (const id of ['pending', 'approved', 'rejected', 'expired', 'cancelled']) {
    stateCounts.push({ state: id, count: Number((await states.getByRole('row').filter({ hasText: id }).getByRole('cell').last().innerText()).replace(/\s/g, '')) });
  }
  const started = await count(transitions.getByRole('row').filter({ hasText: 'Entrée (création)' }));
  const moves = [];
  for (const [label, event] of ARROWS) moves.push({ event, count: await count(transitions.getByRole('row', { name: new RegExp(`^${label}`) })) });
  return { started, states: stateCounts, transitions: moves };
}

test('back office reads the request lifecycle with its figures on the chart and in a table, changes the period, downloads the SVG and the CSV', async ({ page }) => {
  // A request made and approved now: the week's approvals count at least it.
  await openDashboardAs(page, 'admin.clinique@portail.test');
  const request = await createPendingInvitation(page, 'Clinique des Tilleuls');
  await openDashboardAs(page, 'backoffice@portail.test');
  const approved = await page.request.post(`/api/v2/invitations/${request.id}/approve`, { headers: { Authorization: `Bearer ${await bearer(page)}` } });
  expect(approved.status(), await approved.text()).toBe(200);

  await page.goto('/workflows?days=7');
  const section = page.getByRole('region', { name: TITLE });
  const chart = section.getByRole('img', { name: `Diagramme d'états : ${TITLE}` });
  // The page and the API agree (other tests may add requests meanwhile: read both again until they do).
  await expect(async () => {
    await page.reload();
    const shown = await tableNumbers(page, 7);
    const served = await apiFigures(page, 7);
    expect(shown).toEqual({ started: served.started, states: served.states.map(({ state, count }) => ({ state, count })), transitions: served.transitions.map(({ event, count }) => ({ event, count })) });
    expect(shown.transitions[0]!.count).toBeGreaterThanOrEqual(1);
    // The chart carries the same numbers: each state's count under its name, each arrow's after its label.
    const svg = await chart.locator('svg').innerHTML();
    expect(svg).toContain(`${shown.states[0]!.count.toLocaleString('fr-FR')} actuellement`);
    expect(svg).toMatch(new RegExp(`request\\.approve \\[canDecide\\] · ${shown.transitions[0]!.count} en 7 j, médiane `));
  }).toPass({ timeout: 30_000 });
  await expect(section.getByRole('row', { name: /^En attente → Approuvée request\.approve \[canDecide\] \d+ (\d+ (s|min|h|j)|\d+ h \d+ min|\d+ j \d+ h)$/ })).toBeVisible();

  // The period lives in the URL.
  await section.getByLabel('Période').selectOption('90');
  await page.waitForURL(/[?&]days=90/);
  await expect(section.getByRole('table', { name: `Transitions des 90 derniers jours : ${TITLE}` })).toBeVisible();
  await expect(chart.locator('svg')).toContainText('en 90 j');

  const svgButton = section.getByRole('button', { name: `Télécharger le SVG : ${TITLE}` });
  const [svgFile] = await Promise.all([page.waitForEvent('download'), svgButton.click()]);
  expect(svgFile.suggestedFilename()).toBe('request-lifecycle-90j.svg');
  const svg = fs.readFileSync((await svgFile.path())!, 'utf8');
  expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg).toContain('actuellement');
  expect(svg).toContain('en 90 j');

  const [csvFile] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Télécharger les chiffres (CSV)' }).click()]);
  expect(csvFile.suggestedFilename()).toMatch(/^request-lifecycle-90j-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await csvFile.path())!, 'utf8');
  expect(csv.startsWith('\uFEFFType;De;Vers;Événement;Condition;Nombre;Durée médiane (secondes);Période (jours)\r\n')).toBe(true);
  expect(csv).toMatch(/\r\nTransition;pending;approved;request\.approve;canDecide;\d+;\d*;90\r\n/);
  await expect(section.getByText(/Export terminé : 10 lignes\./)).toBeVisible();
});

const ACCOUNTS = "Cycle de vie d'un compte (serveur)";

/** The account lifecycle's table beside its chart, row by row: the states' counts, then the entries' and each arrow's. */
async function accountTable(page: Page, days: number) {
  const section = page.getByRole('region', { name: ACCOUNTS });
  const states = section.getByRole('table', { name: `Nombre actuel par état, sauf « Supprimé » : ceux des ${days} derniers jours (ils n'existent plus une fois dans cet état) : ${ACCOUNTS}` });
  const transitions = section.getByRole('table', { name: `Transitions des ${days} derniers jours : ${ACCOUNTS}` });
  await expect(transitions).toBeVisible();
  const number = (text: string) => Number(text.replace(/\s/g, ''));
  const stateCounts = (await states.locator('tbody tr td').allInnerTexts()).map(number);
  const rows = await transitions.locator('tbody tr').all();
  const counts = [];
  for (const row of rows) counts.push(number(await row.getByRole('cell').first().innerText()));
  return { states: stateCounts, started: counts[0], transitions: counts.slice(1) };
}

test('back office reads the account lifecycle with its figures: the deletions of the period, every move counted, the same numbers as the API, and the CSV', async ({ page }) => {
  // An account made and deactivated now: the week's entries and deactivations count at least it.
  await openDashboardAs(page, 'backoffice@portail.test');
  const person = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Chiffres' });
  const deactivated = await page.request.post(`/api/v2/users/${person.id}/deactivate`, { headers: { Authorization: `Bearer ${await bearer(page)}` } });
  expect(deactivated.status(), await deactivated.text()).toBe(200);

  await page.goto('/workflows?days=7#workflow-account-lifecycle');
  const section = page.getByRole('region', { name: ACCOUNTS });
  const chart = section.getByRole('img', { name: `Diagramme d'états : ${ACCOUNTS}` });
  await expect(async () => {
    await page.reload();
    const shown = await accountTable(page, 7);
    const served = await apiFigures(page, 7, 'account-lifecycle');
    expect(shown).toEqual({ states: served.states.map((s) => s.count), started: served.started, transitions: served.transitions.map((x) => x.count) });
    expect(shown.started).toBeGreaterThanOrEqual(1);
    expect(shown.transitions[1]).toBeGreaterThanOrEqual(1);
    const svg = await chart.locator('svg').innerHTML();
    expect(svg).toContain(`${served.states[3]!.count} en 7 j`);
    expect(svg).toMatch(new RegExp(`account\\.deactivate \\[isPersonMove\\] · ${shown.transitions[1]} en 7 j`));
    // Every move is on record (issue 24): the sign-ins that ended a warning too.
    expect(svg).toMatch(new RegExp(`account\\.signIn · ${shown.transitions[3]} en 7 j`));
    expect(svg).not.toContain('non enregistré');
  }).toPass({ timeout: 30_000 });
  // Two arrows on one event, a person's and the portal's, each in its row with its guard.
  await expect(section.getByRole('row', { name: /^Prévenu de son inactivité → Désactivé account\.deactivate \[canSystemDeactivate\]/ })).toBeVisible();
  await expect(section.getByText(/^D'où viennent ces chiffres : le journal \(créations, désactivations, réactivations, suppressions, connexions qui lèvent un avertissement/)).toBeVisible();

  const [svgFile] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: `Télécharger le SVG : ${ACCOUNTS}` }).click()]);
  expect(svgFile.suggestedFilename()).toBe('account-lifecycle-7j.svg');
  const [csvFile] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Télécharger les chiffres (CSV)' }).click()]);
  expect(csvFile.suggestedFilename()).toMatch(/^account-lifecycle-7j-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await csvFile.path())!, 'utf8');
  expect(csv).toMatch(/\r\nÉtat \(période\);;deleted;;;\d+;;7\r\n/);
  expect(csv).toMatch(/\r\nTransition;dormantWarned;active;account\.signIn;;\d+;\d*;7\r\n/);
  await expect(section.getByText(/Export terminé : 15 lignes\./)).toBeVisible();
});
