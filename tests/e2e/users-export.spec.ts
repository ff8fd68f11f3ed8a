// The users list's CSV export in the browser (issue 21): downloaded as an organization administrator with the
// keyboard, read back as a French spreadsheet would (BOM, ';', CRLF, French headers), within their scope only.
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { bearer, createUser, openDashboardAs, sidebar } from './fixtures';

const HEADERS = ['Nom', 'Prénom', 'Email', 'Statut', 'Rôles', 'Dernière connexion', 'Fonction', 'Téléphone'];

/** Every user the list shows this person (its filters: none, inactive users included), through the API. */
async function listedEmails(page: Page): Promise<string[]> {
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const emails: string[] = [];
  for (let page_ = 1; ; page_ += 1) {
    const body = await (await page.request.get(`/api/v2/users?includeInactive=true&pageSize=100&page=${page_}`, { headers })).json();
    emails.push(...body.items.map((u: { email: string }) => u.email));
    if (page_ >= body.totalPages) return emails;
  }
}

test("an organization administrator downloads the users list as a CSV file, with the keyboard, and it holds their scope only", async ({ page }, testInfo) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  // A user whose job title starts like a formula (the wizard allows a leading '-'): no spreadsheet must run it
  // (tests/server/users-export.test.ts writes '=HYPERLINK(…)' straight into the database).
  const trap = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Formule', jobTitle: '-2/3 Responsable' });
  await sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' }).click();
  await expect(page.getByRole('table')).toBeVisible();

  const button = page.getByRole('button', { name: 'Exporter (CSV)' });
  await expect(button).toBeVisible();
  // The list around the export: another browser test may create or delete a person of the clinic meanwhile.
  const listedBefore = await listedEmails(page);
  await button.focus();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await download;
  const status = page.getByRole('status').filter({ hasText: /^Export terminé : \d+ lignes?\.$/ });
  await expect(status).toBeVisible();
  // The focus stays on the button (replaced by the loaded flow's own).
  await expect(button).toBeFocused();
  expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);

  const bytes = fs.readFileSync(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const records = parse(text, { bom: true, delimiter: ';', record_delimiter: '\r\n' }) as string[][];
  expect(records[0]).toEqual(HEADERS);
  const rows = records.slice(1);
  await expect(status).toHaveText(`Export terminé : ${rows.length} ligne${rows.length > 1 ? 's' : ''}.`);
  const listedAfter = await listedEmails(page);
  const exported = rows.map((r) => r[2]!);
  // Everyone listed before and after is exported; everyone exported was listed before or after.
  expect(listedBefore.filter((email) => listedAfter.includes(email)).filter((email) => !exported.includes(email))).toEqual([]);
  expect(exported.filter((email) => !listedBefore.includes(email) && !listedAfter.includes(email))).toEqual([]);
  expect(exported).toContain(trap.email);
  expect(rows.map((r) => r[2])).not.toContain('admin.ehpad@portail.test');
  expect(rows.find((r) => r[2] === trap.email)?.[6]).toBe("'-2/3 Responsable");
  // Every role listed is on the clinic (its SIREN 9 digits, or one of its establishments).
  for (const roles of rows.map((r) => r[4]!).filter(Boolean)) expect(roles.split(' | ').every((role) => role.includes('Clinique des Tilleuls'))).toBe(true);

  await expectNoAxeViolations(page, 'the users list after an export');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`users-export-${width}.png`), fullPage: false });
  }

  // Again, by keyboard: Tab from the button reaches nothing of the export once it has ended (no cancel left).
  await button.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: "Annuler l'export" })).toHaveCount(0);
});
