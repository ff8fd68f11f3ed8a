// Issue 23, erasure that keeps the journal honest: the permanent delete of a person replaces their personal data
// everywhere the portal kept a copy (the journal's entries by them and about them, their values, the search
// texts, the requests, the outbox, the actions' reports) with a stable pseudonym, in the delete's transaction.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/unit-of-work.ts';
import { LocalIdentityDirectory } from '../../server/identity/directory.ts';
import { SYSTEM_AUTHOR } from '../../server/features/users/users-erasure.model.ts';
import { ERASURE_BATCH } from '../../server/features/users/users-erasure.repository.ts';
import { erasePerson, usersErasureService } from '../../server/features/users/users-erasure.service.ts';
import type { ServiceDeps } from '../../server/features/services.ts';
import { SYSTEM_ACTOR } from '../../server/core/actor.ts';
import { backends } from './db/test-databases.ts';
import { commitFailureSwitch } from './support/commit-failure.ts';
import { servicesFor } from './support/services.ts';
import { freshEmail, invitationsApi } from './support/invitations.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp, uniqueEmail, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

interface Entry {
  action: string;
  sentence: string;
  actorName: string | null;
  subject: { label: string };
  details: { field: string; before: string | null; after: string | null }[];
}

/** Ondine Quibel's personal values, each found nowhere once she is deleted. */
const PERSON = { firstName: 'Ondine', lastName: 'Quibel', jobTitle: 'Sommelière', phoneNumber: '0611223344', street: '7 impasse des Hérons', postalCode: '01100', city: 'Oyonnax' };
const TRACES = ['ondine', 'quibel', 'sommeli', '0611223344', '0699887766', 'hérons', 'herons', 'oyonnax'];

for (const backend of backends) {
  describe(`the erasure of a deleted person on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const db = () => t.database.handle.db;
    const journal = async (query: Record<string, string | number> = {}) =>
      (await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/audit', query: { pageSize: 100, ...query } })).body as { items: Entry[]; total: number };
    const remove = (as: string, id: string) => callApi(t, { as, method: 'DELETE', route: '/api/v2/users/{id}', params: { id }, query: { hardDelete: true } });
    /** Every row of these tables as text, lower-case: where a trace of the person could remain. */
    const everything = async () => {
      const { rows } = await sql<{ text: string }>`
        select lower(string_agg(x::text, ' ')) as text from (
          select a::text as x from audit_log a union all select i::text from invitations i union all select o::text from outbox o
          union all select b::text from bulk_action_targets b union all select s::text from user_search s union all select u::text from users u
          union all select ia::text from identity_accounts ia union all select r::text from user_name_ranges r
          union all select w::text from user_search_words w union all select c::text from user_search_word_counts c) as rows`.execute(db());
      return rows[0]!.text;
    };

    /** A person with a history: created with every field, edited, the author of a creation and of a request, invited, mailed, deactivated. */
    async function personWithHistory(prefix: string) {
      const email = uniqueEmail(prefix);
      const lyon = orgs.cliniqueSirets[0]!;
      const created = await createUserAs(t, PERSONAS.backoffice, [lyon.code], [roles.ADMIN_ADHERENT!], { ...PERSON, email });
      const id = created.user.id;
      const edited = await callApi(t, {
        as: PERSONAS.backoffice,
        method: 'PUT',
        route: '/api/v2/users/{id}/complete',
        params: { id },
        payload: { ...PERSON, email, phoneNumber: '0699887766', mobilePhone: '', organizationCodes: [lyon.code], roleIds: [roles.ADMIN_ADHERENT!] },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      const lucien = await createUserAs(t, email, [lyon.code], [roles.COMPTABLE!], { firstName: 'Lucien', lastName: 'Garnier', email: uniqueEmail('lucien') });
      const invitations = invitationsApi(t);
      const made = await invitations.create(email, { inviteeEmail: freshEmail('made'), invitationType: 'ROLE_ASSIGNMENT', organizationCode: lyon.code, roleCode: 'COMPTABLE' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const naming = await invitations.create(PERSONAS.adminClinique, { inviteeEmail: email, invitationType: 'ROLE_ASSIGNMENT', organizationCode: orgs.cliniqueSirets[1]!.code, roleCode: 'COMPTABLE' });
      expect(naming.status, JSON.stringify(naming.body)).toBe(201);
      await db().insertInto('outbox').values([
        { kind: 'account.invitation', recipient: email.toUpperCase(), subject: 'Votre compte', body: `Bonjour ${PERSON.firstName}`, status: 'FAILED' },
        { kind: 'account.invitation', recipient: email, subject: 'Votre compte', body: `Bonjour ${PERSON.firstName}`, status: 'SENT', sent_at: new Date() },
        { kind: 'invitation.pending.digest', recipient: PERSONAS.backoffice, subject: 'Demandes en attente', body: `Demande pour ${email.toUpperCase()} en attente.` },
      ]).execute();
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } })).status).toBe(200);
      return { id, email, lucien: lucien.user.id, made: (made.body as { id: number }).id, naming: (naming.body as { id: number }).id };
    }

    let beatrice: string;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      const row = await db().selectFrom('users').select(['first_name', 'last_name']).where('email', '=', PERSONAS.backoffice).executeTakeFirstOrThrow();
      beatrice = `${row.first_name} ${row.last_name}`;
    }, 120_000);
    afterAll(() => t?.close());

    it('pseudonymises the person everywhere in the journal, keeps its sentences readable and its filters working, and finds nothing by the old name or e-mail', async () => {
      const person = await personWithHistory('ondine.quibel');
      const pending = await db().selectFrom('outbox').select('status').where(sql<boolean>`lower(recipient) = ${person.email}`).execute();
      expect(pending.map((m) => m.status)).toContain('PENDING');
      expect((await journal({ search: 'Quibel' })).total).toBeGreaterThanOrEqual(6);

      expect((await remove(PERSONAS.backoffice, person.id)).status).toBe(204);

      const { number } = await db().selectFrom('erased_persons').select('number').where('user_id', '=', person.id).executeTakeFirstOrThrow();
      const name = `Utilisateur supprimé n° ${Number(number)}`;
      const about = (await journal({ userId: person.id })).items;
      expect(about.map((e) => e.action)).toEqual(['user.delete', 'user.deactivate', 'user.update', 'user.create']);
      expect(about.map((e) => e.subject.label)).toEqual([name, name, name, name]);
      expect(about[0]!.sentence).toMatch(/ a supprimé Utilisateur supprimé n° \d+\.$/);
      expect(about[1]!.sentence).toBe(`${beatrice} a désactivé ${name}.`);
      expect(about[2]!.sentence).toContain(`a modifié ${name} : `);
      expect(about[2]!.details.find((d) => d.field === 'phoneNumber')).toMatchObject({ before: '(effacé)', after: '(effacé)' });
      expect(about[3]!.details.find((d) => d.field === 'firstName')?.after).toBe('Utilisateur supprimé');
      expect(about[3]!.details.find((d) => d.field === 'lastName')?.after).toBe(`n° ${Number(number)}`);

      const authored = (await journal({ actorId: person.id })).items;
      expect(authored.map((e) => e.action)).toEqual(['invitation.create', 'user.create']);
      expect(authored.every((e) => e.actorName === name)).toBe(true);
      expect(authored[1]!.sentence).toBe(`${name} a créé l'utilisateur Lucien Garnier.`);
      expect((await journal({ userId: person.lucien })).items[0]!.sentence).toBe(`${name} a créé l'utilisateur Lucien Garnier.`);

      // The request naming her: its entries name her by the pseudonym; both pending requests were cancelled.
      const requestEntries = (await journal({ search: name })).items.filter((e) => e.subject.label.startsWith(`demande n° ${person.naming} `));
      expect(requestEntries.map((e) => e.sentence)).toEqual([
        expect.stringMatching(new RegExp(`a annulé la demande n° ${person.naming} de ${name} : « La personne concernée a été supprimée\\. »\\.$`)),
        expect.stringContaining(`a créé la demande n° ${person.naming} de ${name}`),
      ]);
      const requests = await db().selectFrom('invitations').select(['id', 'status', 'invitee_email', 'sender_email']).where('id', 'in', [person.made, person.naming]).orderBy('id').execute();
      expect(requests).toMatchObject([{ status: 'CANCELLED', sender_email: name }, { status: 'CANCELLED', invitee_email: name }]);

      for (const term of ['Quibel', 'ondine', person.email, person.email.split('@')[0]!, '0611223344']) expect((await journal({ search: term })).total, term).toBe(0);
      expect((await journal({ search: name })).total).toBeGreaterThanOrEqual(8);
      expect((await journal({ search: 'Lucien Garnier' })).total).toBe(1);

      // The outbox: nothing left to send her; the sent e-mail kept without her address or its body; another's e-mail no longer quotes her.
      const mails = await db().selectFrom('outbox').select(['recipient', 'status', 'body']).where((eb) => eb.or([eb('recipient', '=', name), eb('kind', '=', 'invitation.pending.digest')])).execute();
      expect(mails).toEqual(expect.arrayContaining([{ recipient: name, status: 'SENT', body: 'Contenu effacé : la personne destinataire a été supprimée.' }, { recipient: PERSONAS.backoffice, status: 'PENDING', body: `Demande pour ${name} en attente.` }]));
      expect(mails.filter((m) => m.recipient === name)).toHaveLength(1);

      const rest = await everything();
      for (const trace of [...TRACES, person.email]) expect(rest, trace).not.toContain(trace);
    });

    it('erases every entry of a person with more entries than one statement changes', async () => {
      const person = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { ...PERSON, email: uniqueEmail('nombreux') });
      const n = ERASURE_BATCH + 1;
      await sql`insert into audit_log (actor_id, actor_name, action, entity_type, entity_id, changes, subject_name, search_text, subject_search_text)
        select null, 'Béatrice Marchand', 'user.update', 'user', ${person.user.id}::text, jsonb_build_object('jobTitle', jsonb_build_object('before', 'Sommelière', 'after', 'Caviste ' || g)),
          'Ondine Quibel', 'beatrice marchand ondine quibel', 'ondine quibel' from generate_series(1, ${n}) as g`.execute(db());
      await sql`insert into audit_log (actor_id, actor_name, action, entity_type, entity_id, changes, subject_name, search_text, subject_search_text)
        select ${person.user.id}::uuid, 'Ondine Quibel', 'user.deactivate', 'user', gen_random_uuid()::text, '{}'::jsonb, 'Autre ' || g, 'ondine quibel autre ' || g, 'autre ' || g
        from generate_series(1, ${n}) as g`.execute(db());
      expect((await remove(PERSONAS.backoffice, person.user.id)).status).toBe(204);
      const left = await sql<{ n: number }>`select count(*)::int as n from audit_log where search_text like '%quibel%' or actor_name like '%Quibel%' or subject_name like '%Quibel%' or changes::text like '%Sommeli%'`.execute(db());
      expect(left.rows[0]!.n).toBe(0);
      expect((await journal({ actorId: person.user.id })).total).toBe(n);
    });

    it("moves a range of the users list by name that started at the person, or removes it when it holds nobody else", async () => {
      const listed = async () => (await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { includeInactive: true, sort: 'name' } })).body.total as number;
      const alone = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { ...PERSON, lastName: 'Quibelalone', email: uniqueEmail('alone') });
      const shared = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { ...PERSON, lastName: 'Quibelshared', email: uniqueEmail('shared') });
      // One range per user, then the range of 'shared' given the user after them too.
      await sql`select rebuild_user_name_ranges(1)`.execute(db());
      await sql`with next as (
          select start_key, start_id, n_active, n_inactive from user_name_ranges
          where (start_key, start_id) > (select start_key, start_id from user_name_ranges where start_id = ${shared.user.id}::uuid) order by start_key, start_id limit 1),
        gone as (delete from user_name_ranges r using next where r.start_key = next.start_key and r.start_id = next.start_id returning next.*)
        update user_name_ranges r set n_active = r.n_active + gone.n_active, n_inactive = r.n_inactive + gone.n_inactive from gone where r.start_id = ${shared.user.id}::uuid`.execute(db());
      const after = await sql<{ id: string }>`select id from users where (lower(last_name || first_name), id) > (select lower(last_name || first_name), id from users where id = ${shared.user.id}::uuid)
        order by lower(last_name || first_name), id limit 1`.execute(db());
      const total = await listed();
      try {
        expect((await remove(PERSONAS.backoffice, alone.user.id)).status).toBe(204);
        expect((await remove(PERSONAS.backoffice, shared.user.id)).status).toBe(204);
        const { rows: ranges } = await sql<{ start_key: string; start_id: string; n_active: number; n_inactive: number }>`select start_key, start_id, n_active::int, n_inactive::int from user_name_ranges`.execute(db());
        expect(ranges.filter((r) => r.start_key.includes('quibel'))).toEqual([]);
        expect(ranges.find((r) => r.start_id === after.rows[0]!.id)).toMatchObject({ n_active: 1, n_inactive: 0 });
        expect(await listed()).toBe(total - 2);
      } finally {
        await sql`select rebuild_user_name_ranges()`.execute(db());
      }
    });

    it('keeps the same number for the same person, and gives another person another one', async () => {
      const first = await personWithHistory('premier');
      const second = await personWithHistory('second');
      expect((await remove(PERSONAS.backoffice, first.id)).status).toBe(204);
      expect((await remove(PERSONAS.backoffice, second.id)).status).toBe(204);
      const numbers = await db().selectFrom('erased_persons').select(['user_id', 'number']).where('user_id', 'in', [first.id, second.id]).execute();
      const numberOf = (id: string) => Number(numbers.find((n) => n.user_id === id)!.number);
      expect(numberOf(first.id)).not.toBe(numberOf(second.id));
      // An erasure run again (the job after a manual delete) finds the number recorded and changes nothing more.
      const journalBefore = await db().selectFrom('audit_log').select(['id', 'actor_name', 'subject_name', 'search_text']).orderBy('id').execute();
      const again = await inTransaction(db(), (uow) => erasePerson(uow, { id: first.id, email: first.email, pending_email: null }, SYSTEM_AUTHOR));
      expect(again.pseudonym).toBe(`Utilisateur supprimé n° ${numberOf(first.id)}`);
      expect(await db().selectFrom('audit_log').select(['id', 'actor_name', 'subject_name', 'search_text']).orderBy('id').execute()).toEqual(journalBefore);
      for (const person of [first, second]) {
        const labels = (await journal({ userId: person.id })).items.map((e) => e.subject.label);
        expect(new Set(labels)).toEqual(new Set([`Utilisateur supprimé n° ${numberOf(person.id)}`]));
      }
    });

    it('changes nothing when the delete is refused or its commit fails', async () => {
      const person = await personWithHistory('refus');
      const snapshot = async () => ({
        journal: await db().selectFrom('audit_log').selectAll().orderBy('id').execute(),
        invitations: await db().selectFrom('invitations').selectAll().orderBy('id').execute(),
        outbox: await db().selectFrom('outbox').selectAll().orderBy('id').execute(),
        erased: await db().selectFrom('erased_persons').selectAll().execute(),
        users: await db().selectFrom('users').select('id').where('id', '=', person.id).execute(),
      });
      const before = await snapshot();
      expect((await remove(PERSONAS.adminClinique, person.id)).status).toBe(403);
      expect((await remove(PERSONAS.adminEhpad, person.id)).status).toBe(403);
      expect(await snapshot()).toEqual(before);

      const commits = await commitFailureSwitch(t.database.handle);
      const token = await t.tokenFor(PERSONAS.backoffice);
      const failed = await commits.during(() => t.app.inject({ method: 'DELETE', url: `/api/v2/users/${person.id}?hardDelete=true`, headers: { authorization: `Bearer ${token}` } }));
      expect(failed.statusCode).toBe(500);
      expect(await snapshot()).toEqual(before);
      expect(await everything()).toContain('quibel');
    });

    it("deletes as the dormancy job does (the system actor) a person with pending requests: cancelled by 'Système', no author's id", async () => {
      const person = await personWithHistory('dormant');
      const dormancy = { warnAfterDays: 365, deactivateAfterDays: 30, deleteAfterDays: 365 };
      const services = servicesFor(db(), { now: () => new Date(), dormancy: dormancy });
      await services.users.deletePermanently(SYSTEM_ACTOR, person.id, undefined, undefined, { claim: async () => undefined, refuseUnchanged: false });
      const cancelled = await db().selectFrom('invitations').select(['status', 'cancelled_by_user_id', 'cancelled_by_email']).where('id', 'in', [person.made, person.naming]).execute();
      expect(cancelled).toEqual([
        { status: 'CANCELLED', cancelled_by_user_id: null, cancelled_by_email: 'Système' },
        { status: 'CANCELLED', cancelled_by_user_id: null, cancelled_by_email: 'Système' },
      ]);
      const { rows } = await sql<{ actor_id: string | null; actor_name: string | null }>`select actor_id, actor_name from audit_log
        where action in ('invitation.cancel', 'user.delete') and at > now() - interval '1 minute' and entity_id in (${String(person.made)}, ${String(person.naming)}, ${person.id})`.execute(db());
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.actor_id === null && r.actor_name === 'Système')).toBe(true);
    });

    it("deletes for the portal's own jobs with 'Système' as author, never a back-office account", async () => {
      const person = await personWithHistory('systeme');
      const deps = { db: db(), directory: new LocalIdentityDirectory(), log: { error: () => undefined } } as unknown as ServiceDeps;
      const erasure = usersErasureService(deps);
      const outcome = await erasure.deleteBySystem(person.id);
      expect(outcome).toMatchObject({ requestsCancelled: 2, mailsDropped: 2 });
      const entries = (await journal({ userId: person.id })).items;
      expect(entries[0]!.sentence).toBe(`Système a supprimé ${outcome!.pseudonym}.`);
      expect(await erasure.deleteBySystem(person.id)).toBeNull();
      const backOffice = await userIdOf(t, PERSONAS.backoffice);
      await expect(erasure.deleteBySystem(backOffice)).rejects.toThrow("Un compte du back-office n'est jamais supprimé automatiquement.");
      expect(await userIdOf(t, PERSONAS.backoffice)).toBe(backOffice);
    });
  });
}
