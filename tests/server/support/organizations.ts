// The demo organizations as the API answers them, read straight from the database.
import type { components } from '../../../src/api/schema.gen.ts';
import type { TestApp } from './test-app.ts';

export type Organization = components['schemas']['Organization'];

/** Every organization sorted by code, and the two demo employers with their SIRETs (sorted by code). */
export async function demoOrganizations(t: TestApp) {
  const rows = await t.database.handle.db.selectFrom('organizations').selectAll().orderBy('code').execute();
  const all = rows.map((r): Organization => ({ id: r.id, code: r.code, name: r.name, type: r.type, parentCode: r.parent_code, parentId: r.parent_id, member: r.member, closed: r.closed }));
  const employer = (name: string) => all.find((o) => o.name === name && o.type === 'SIREN')!;
  const siretsOf = (siren: Organization) => all.filter((o) => o.parentId === siren.id);
  const clinique = employer('Clinique des Tilleuls');
  const ehpad = employer('EHPAD Les Glycines');
  return { all, clinique, cliniqueSirets: siretsOf(clinique), ehpad, ehpadSirets: siretsOf(ehpad) };
}

export type DemoOrganizations = Awaited<ReturnType<typeof demoOrganizations>>;
