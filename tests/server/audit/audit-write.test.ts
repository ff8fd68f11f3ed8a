// Writing journal entries (audit.repository.ts writeAudits): several entries in one statement, each with its own
// organizations and their SIRENs, its author named as the request loaded them or as the users table names them, and
// not named once their account is gone.
// Both backends.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/schema.ts';
import { writeAudits } from '../../../server/features/audit/audit.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { capturing } from '../support/plans.ts';

for (const backend of backends) {
  describe(`writing journal entries on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
    });
    afterAll(() => testDb?.dispose());

    it('writes each entry with its own organizations and their SIRENs, in one statement when the author is named', async () => {
      const siret = await db().selectFrom('organizations').select(['id', 'parent_id']).where('type', '=', 'SIRET').where('parent_id', 'is not', null).orderBy('code').executeTakeFirstOrThrow();
      const sirens = await db().selectFrom('organizations').select('id').where('type', '=', 'SIREN').orderBy('code').limit(2).execute();
      const staff = await db().selectFrom('users').select(['id', 'email']).where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
      const author = { userId: staff.id, email: staff.email, name: 'Nom Chargé' };
      const { db: recording, statements } = capturing(db());
      const marker = `ecriture-${Date.now()}`;
      await writeAudits(recording, [
        { actor: author, action: 'user.update', entityType: 'user', entityId: `${marker}-a`, organizationIds: [siret.id, sirens[1]!.id], changes: { a: 1 } },
        { actor: author, action: 'user.update', entityType: 'user', entityId: `${marker}-b`, changes: { b: "l'apostrophe \"et\" \\ la barre" } },
        { actor: author, action: 'user.update', entityType: 'user', entityId: `${marker}-c`, organizationIds: [sirens[0]!.id], changes: {} },
      ]);
      expect(statements).toHaveLength(1);
      const entries = await db().selectFrom('audit_log').select(['id', 'entity_id', 'organization_id', 'actor_name', 'changes']).where('entity_id', 'like', `${marker}-%`).orderBy('id').execute();
      expect(entries.map((e) => [e.entity_id, e.organization_id, e.actor_name])).toEqual([
        [`${marker}-a`, siret.id, 'Nom Chargé'],
        [`${marker}-b`, null, 'Nom Chargé'],
        [`${marker}-c`, sirens[0]!.id, 'Nom Chargé'],
      ]);
      expect(entries[1]!.changes).toEqual({ b: "l'apostrophe \"et\" \\ la barre" });
      const concerned = await db().selectFrom('audit_log_organizations').select(['audit_id', 'organization_id', 'siren_id']).where('audit_id', 'in', entries.map((e) => e.id)).execute();
      const of = (id: number) => concerned.filter((c) => c.audit_id === id).map((c) => [c.organization_id, c.siren_id]).sort();
      expect(of(entries[0]!.id)).toEqual([[siret.id, siret.parent_id], [sirens[1]!.id, sirens[1]!.id]].sort());
      expect(of(entries[1]!.id)).toEqual([]);
      expect(of(entries[2]!.id)).toEqual([[sirens[0]!.id, sirens[0]!.id]]);
    });

    it("names no author whose account is gone by the time of writing, as the users table would not have (an erasure under a running request)", async () => {
      const marker = `parti-${Date.now()}`;
      const gone = { userId: '0b5e9d1c-0000-4000-8000-000000000001', email: 'parti@exemple.fr', name: 'Personne Effacée' };
      await writeAudits(db(), [{ actor: gone, action: 'user.update', entityType: 'user', entityId: marker, changes: {} }]);
      const entry = await db().selectFrom('audit_log').select(['actor_name', 'search_text']).where('entity_id', '=', marker).executeTakeFirstOrThrow();
      expect(entry.actor_name).toBeNull();
      expect(entry.search_text).not.toContain('effacee');
      expect(entry.search_text).toContain('parti@exemple.fr');
    });

    it("reads an author's name from the users table when the request did not load it", async () => {
      const staff = await db().selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
      const marker = `lu-${Date.now()}`;
      const { db: recording, statements } = capturing(db());
      await writeAudits(recording, [{ actor: { userId: staff.id, email: staff.email }, action: 'user.update', entityType: 'user', entityId: marker, changes: {} }]);
      expect(statements).toHaveLength(2);
      const entry = await db().selectFrom('audit_log').select(['actor_name', 'search_text']).where('entity_id', '=', marker).executeTakeFirstOrThrow();
      expect(entry.actor_name).toBe(`${staff.first_name} ${staff.last_name}`);
      expect(entry.search_text).toContain(staff.email);
    });
  });
}
