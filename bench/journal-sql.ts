// The set-based SQL of npm run bench:journal (issue 21): `entries` journal entries over the last year, added to
// a benchmark database that holds the users (npm run bench:seed), with what the server writes for each (the
// organizations each concerns with their SIREN, the names, the accent-free search text). Deterministic: a hash
// of the entry's number draws its action, author and person. Runs on one session, as a PostgreSQL superuser.
import type { SeedStep } from './seed-sql.ts';

/** Share of each action among the entries (the rest: user.update). */
export const JOURNAL_ACTIONS: readonly [string, number][] = [
  ['user.roles', 0.2],
  ['user.create', 0.1],
  ['user.deactivate', 0.05],
  ['user.reactivate', 0.03],
  ['user.delete', 0.01],
  ['user.email.request', 0.02],
  ['user.email.confirm', 0.02],
  ['invitation.create', 0.1],
  ['invitation.approve', 0.06],
  ['invitation.reject', 0.04],
];

/** Authors: the back office and this many organization administrators. */
export const JOURNAL_ORGANIZATION_AUTHORS = 2_000;

const U = (n: string, salt: number) => `(hashint8extended(${n}, ${salt}) & 9007199254740991)::double precision / 9007199254740992.0`;
const UNACCENT = `replace(replace(lower(translate(%s, 'ÀÂÄÁÃÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸàâäáãçéèêëíìîïñóòôöõúùûüýÿ', 'AAAAACEEEEIIIINOOOOOUUUUYYaaaaaceeeeiiiinooooouuuuyy')), 'œ', 'oe'), 'æ', 'ae')`;

function actionCase(draw: string): string {
  let cumulative = 0;
  const whens = JOURNAL_ACTIONS.map(([action, share]) => {
    cumulative += share;
    return `when ${draw} < ${cumulative.toFixed(4)} then '${action}'`;
  });
  return `case ${whens.join(' ')} else 'user.update' end`;
}

export function journalSteps(entries: number, reference: Date): SeedStep[] {
  if (!Number.isSafeInteger(entries) || entries < 1) throw new Error(`--entries must be a whole number from 1 (got ${entries})`);
  const ref = `timestamptz '${reference.toISOString()}'`;
  const spacing = `(interval '365 days' / ${entries})`;
  return [
    { label: 'session', sql: "set session_replication_role = replica; set maintenance_work_mem = '512MB'; set synchronous_commit = off; set work_mem = '256MB'" },
    { label: 'journal emptied', sql: 'truncate audit_log_organizations, audit_log; delete from audit_counts' },
    {
      label: 'indexes dropped for the load',
      sql: `create temp table bench_journal_index as
              select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
              from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace s on s.oid = t.relnamespace
              where s.nspname = 'public' and t.relname in ('audit_log', 'audit_log_organizations')
                and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid);
            do $$ declare r record; begin for r in select name from bench_journal_index loop execute 'drop index ' || r.name; end loop; end $$`,
    },
    {
      label: 'people and authors',
      sql: `create temp table bench_jp as
              select row_number() over (order by u.id) as rn, u.id, u.first_name || ' ' || u.last_name as name, u.email,
                     (select min(ra.organization_id::text)::uuid from role_assignments ra where ra.user_id = u.id) as org_id
              from users u where u.user_type = 'ORGANIZATION';
            create temp table bench_ja as
              select row_number() over (order by id) as rn, id, name, email from (
                select id, first_name || ' ' || last_name as name, email from users where user_type = 'BACKOFFICE'
                union all
                (select distinct on (u.id) u.id, u.first_name || ' ' || u.last_name, u.email
                 from users u join role_assignments ra on ra.user_id = u.id join roles r on r.id = ra.role_id and r.code = 'ADMIN_ADHERENT'
                 order by u.id limit ${JOURNAL_ORGANIZATION_AUTHORS})) as a;
            create temp table bench_jpo as select distinct user_id, organization_id from role_assignments;
            analyze bench_jp; analyze bench_ja; analyze bench_jpo`,
    },
    {
      label: `${entries.toLocaleString('en')} entries`,
      sql: `insert into audit_log (at, actor_id, actor_email, actor_name, action, entity_type, entity_id, organization_id, subject_name, search_text, subject_search_text, changes)
            select e.at, a.id, a.email, a.name, e.action, e.entity_type,
                   case when e.entity_type = 'user' then p.id::text else (100000 + e.g)::text end,
                   p.org_id,
                   case when e.entity_type = 'user' then p.name else p.email end,
                   ${UNACCENT.replace('%s', "concat_ws(' ', a.name, a.email, case when e.entity_type = 'user' then p.name end, p.email)")},
                   ${UNACCENT.replace('%s', "concat_ws(' ', case when e.entity_type = 'user' then p.name end, p.email)")},
                   case e.action
                     when 'user.update' then jsonb_build_object('jobTitle', jsonb_build_object('before', 'Comptable', 'after', 'Responsable RH'))
                     when 'user.roles' then jsonb_build_object('assignments', jsonb_build_object('before', jsonb_build_array(o.code || ' COMPTABLE'), 'after', jsonb_build_array(o.code || ' COMPTABLE', o.code || ' GESTIONNAIRE')))
                     when 'user.deactivate' then '{"isActive":{"before":true,"after":false}}'::jsonb
                     when 'user.reactivate' then '{"isActive":{"before":false,"after":true}}'::jsonb
                     when 'user.create' then jsonb_build_object('email', jsonb_build_object('before', null, 'after', p.email), 'assignments', jsonb_build_object('before', null, 'after', jsonb_build_array(o.code || ' COMPTABLE')))
                     when 'user.delete' then jsonb_build_object('email', jsonb_build_object('before', p.email, 'after', null))
                     when 'user.email.request' then jsonb_build_object('pendingEmail', jsonb_build_object('before', null, 'after', 'nouvelle.' || p.email))
                     when 'user.email.confirm' then jsonb_build_object('email', jsonb_build_object('before', p.email, 'after', 'nouvelle.' || p.email))
                     when 'invitation.create' then jsonb_build_object('inviteeEmail', p.email, 'invitationType', 'ROLE_ASSIGNMENT', 'organizationCode', o.code, 'roleCode', 'COMPTABLE')
                     when 'invitation.approve' then '{"status":{"before":"PENDING","after":"APPROVED"},"userCreated":false}'::jsonb
                     else '{"status":{"before":"PENDING","after":"REJECTED"},"rejectionReason":"Dossier incomplet, merci de compléter."}'::jsonb
                   end
            from (
              select g, ${ref} - (${entries} - g) * ${spacing} as at, x.action, case when x.action like 'invitation.%' then 'invitation' else 'user' end as entity_type,
                     1 + floor(${U('g', 2)} * (select count(*) from bench_jp))::bigint as person, 1 + floor(${U('g', 3)} * (select count(*) from bench_ja))::bigint as author
              from generate_series(1, ${entries}) as g
              cross join lateral (select ${actionCase(U('g', 1))} as action) as x
            ) as e
            join bench_jp p on p.rn = e.person
            join bench_ja a on a.rn = e.author
            left join organizations o on o.id = p.org_id
            order by e.g`,
    },
    {
      label: 'their organizations',
      sql: `insert into audit_log_organizations (audit_id, organization_id, siren_id, at, action)
            select a.id, po.organization_id, case when o.type = 'SIRET' then coalesce(o.parent_id, o.id) else o.id end, a.at, a.action
            from audit_log a join bench_jpo po on a.entity_type = 'user' and po.user_id::text = a.entity_id join organizations o on o.id = po.organization_id
            union all
            select a.id, o.id, case when o.type = 'SIRET' then coalesce(o.parent_id, o.id) else o.id end, a.at, a.action
            from audit_log a join organizations o on o.id = a.organization_id where a.entity_type = 'invitation'`,
    },
    { label: 'total', sql: 'insert into audit_counts (backend, n) select 0, count(*) from audit_log' },
    {
      // The load bypassed the triggers that count the entries per day and per hour (migrations 0017, 0037), and the
      // truncate left the previous journal's counts: deep pages would seek the wrong day.
      label: 'days and hours counted',
      sql: `delete from audit_day_counts;
            insert into audit_day_counts (day, backend, n) select (at at time zone 'UTC')::date, 0, count(*) from audit_log group by 1;
            delete from audit_hour_counts;
            insert into audit_hour_counts (hour, backend, n) select date_trunc('hour', at at time zone 'UTC'), 0, count(*) from audit_log group by 1`,
    },
    {
      // Written with each entry above as the server writes them (the person's search text, the actions beside the
      // organizations): migrations 0014's and 0028's backfills have nothing left to do and do not run through the
      // benchmark (0014's did: 4.6 million entries of the 10M journal were filled in during the runs of 2026-11-27).
      label: 'backfills marked through',
      sql: `update audit_backfills set done_through = (select coalesce(max(id), 0) from audit_log) where name = 'subject_search_text';
            update audit_backfills set done_through = greatest(done_through, upto) where name = 'organization_action'`,
    },
    {
      label: 'indexes rebuilt',
      sql: `do $$ declare r record; begin for r in select definition from bench_journal_index loop execute r.definition; end loop; end $$`,
    },
    { label: 'session reset', sql: 'reset session_replication_role; reset synchronous_commit; reset work_mem' },
    { label: 'vacuum analyze journal', sql: 'vacuum (analyze) audit_log' },
    { label: 'vacuum analyze organizations', sql: 'vacuum (analyze) audit_log_organizations' },
  ];
}
