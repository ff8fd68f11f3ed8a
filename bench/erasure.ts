// npm run bench:erasure [-- --background 300000 --sizes 1000,10000]
// The cost of a permanent delete with its erasure (issue 23) on PostgreSQL: in a database of its own
// (ERASURE_BENCH_URL, created and migrated with the demo data when missing), a journal of `background` entries of
// other people, then for each size a person with that many journal entries (half about them, with every personal
// field in their values, a quarter written by them, a quarter about their requests) and pending e-mails, deleted
// by the same function as the API's delete. Prints each delete's time; the database is left for EXPLAIN.
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { inTransaction } from '../server/db/unit-of-work.ts';
import { LocalIdentityDirectory } from '../server/identity/directory.ts';
import { removePerson } from '../server/features/users/users-erasure.service.ts';
import { loadAssignments } from '../server/features/users/users-read.repository.ts';
import { seedDemoData } from '../server/seed/seed.ts';
import { databaseName, withDatabase } from './names.ts';

const PERSONAL = `jsonb_build_object('firstName', jsonb_build_object('before', 'Ondine', 'after', 'Ondina'), 'jobTitle', jsonb_build_object('before', 'Sommelière', 'after', 'Caviste'),
  'phoneNumber', jsonb_build_object('before', '0611223344', 'after', '0699887766'), 'street', jsonb_build_object('before', '7 impasse des Hérons', 'after', null))`;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

async function createIfMissing(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const name = databaseName(url);
    if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) await admin.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const url = process.env.ERASURE_BENCH_URL;
  if (!url) throw new Error('ERASURE_BENCH_URL names the PostgreSQL database to use (created when missing; never a shared benchmark database)');
  const background = Number(option('background', '300000'));
  const sizes = option('sizes', '1000,10000').split(',').map(Number);
  await createIfMissing(url);
  // The data is made without a time limit; the delete runs with the API's (POSTGRES_TIMEOUTS: 5 s a statement).
  const handle = await openDatabase({ databaseUrl: url, poolMax: 2, timeouts: { statementMs: 900_000, readMs: 910_000 } });
  const api = await openDatabase({ databaseUrl: url, poolMax: 2 });
  const { db } = handle;
  try {
    await migrate(handle);
    await seedDemoData(handle);
    const have = Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(db)).rows[0]!.n);
    if (have < background) {
      console.log(`adding ${(background - have).toLocaleString('en')} journal entries of other people`);
      await sql`insert into audit_log (actor_id, actor_name, action, entity_type, entity_id, changes, subject_name, search_text, subject_search_text, at)
        select (select id from users where email = 'backoffice@portail.test'), 'Béatrice Marchand', 'user.update', 'user', gen_random_uuid()::text,
          ${sql.raw(PERSONAL)}, 'Autre Personne ' || g, 'beatrice marchand autre personne ' || g, 'autre personne ' || g, now() - (g % 365) * interval '1 day'
        from generate_series(1, ${background - have}) as g`.execute(db);
      await sql`analyze`.execute(db);
    }
    const author = await db.selectFrom('users').select(['id as userId', 'email']).where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
    const organization = await db.selectFrom('organizations').select(['id', 'code']).where('type', '=', 'SIRET').limit(1).executeTakeFirstOrThrow();
    for (const entries of sizes) {
      const email = `ondine.${entries}.${Date.now()}@exemple.fr`;
      const user = await db.insertInto('users').values({ email, first_name: 'Ondine', last_name: 'Quibel', user_type: 'ORGANIZATION', job_title: 'Sommelière' }).returningAll().executeTakeFirstOrThrow();
      const about = Math.floor(entries / 2);
      const by = Math.floor(entries / 4);
      const requests = entries - about - by;
      await sql`insert into audit_log (actor_id, actor_name, action, entity_type, entity_id, changes, subject_name, search_text, subject_search_text, at)
        select null, 'Béatrice Marchand', 'user.update', 'user', ${user.id}::text, ${sql.raw(PERSONAL)}, 'Ondine Quibel', 'beatrice marchand ondine quibel ' || ${email}::text, 'ondine quibel ' || ${email}::text, now() - (g % 365) * interval '1 day'
        from generate_series(1, ${about}) as g`.execute(db);
      await sql`insert into audit_log (actor_id, actor_name, action, entity_type, entity_id, changes, subject_name, search_text, subject_search_text, at)
        select ${user.id}::uuid, 'Ondine Quibel', 'user.deactivate', 'user', gen_random_uuid()::text, '{}'::jsonb, 'Autre ' || g, 'ondine quibel autre ' || g, 'autre ' || g, now() - (g % 365) * interval '1 day'
        from generate_series(1, ${by}) as g`.execute(db);
      await sql`insert into invitations (invitee_email, organization_id, organization_code, organization_name, role_code, role_name, status, invitation_type, sender_email, validator_email, rejection_reason, processed_at, created_at)
        select ${email}::text, ${organization.id}::uuid, ${organization.code}, 'X', 'COMPTABLE', 'Comptable', 'REJECTED', 'ROLE_ASSIGNMENT', 'backoffice@portail.test', 'backoffice@portail.test', 'Refusée pour le test', now(), now() - interval '1 day'
        from generate_series(1, ${requests}) as g`.execute(db);
      await sql`insert into audit_log (actor_id, actor_name, action, entity_type, entity_id, changes, subject_name, search_text, subject_search_text)
        select null, 'Béatrice Marchand', 'invitation.reject', 'invitation', i.id::text, jsonb_build_object('inviteeEmail', ${email}::text), ${email}::text, 'beatrice marchand ' || ${email}::text, ${email}::text
        from invitations i where i.invitee_email = ${email}::text`.execute(db);
      await sql`insert into outbox (kind, recipient, subject, body) select 'account.invitation', ${email}::text, 'Votre compte', 'Bonjour Ondine' from generate_series(1, 5)`.execute(db);
      await sql`analyze audit_log`.execute(db);
      const journal = Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(db)).rows[0]!.n);
      const started = performance.now();
      const outcome = await inTransaction(api.db, async (uow) => removePerson({ db: api.db, directory: new LocalIdentityDirectory() }, uow, user, await loadAssignments(uow.trx, [user.id]), author));
      const ms = performance.now() - started;
      console.log(`${entries.toLocaleString('en')} entries (journal of ${journal.toLocaleString('en')}): delete with erasure ${ms.toFixed(0)} ms; ${outcome.journalEntries} entries and ${outcome.requests} requests pseudonymised, ${outcome.mailsDropped} e-mails dropped`);
    }
  } finally {
    await api.close();
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
