// The set-based SQL of npm run bench:seed: every table filled by INSERT … SELECT over generate_series,
// drawing from small lookup tables with a deterministic hash (same size, same data). Runs on one session
// (temporary tables and functions), after the migrations and the demo seed.
import { EMPLOYERS, JOB_TITLES, JOB_TITLES_BY_ROLE, REFERENCE_DATE, REGIONS, REJECTION_REASONS, STREETS, type JobTitleKey } from '../server/seed/seed-data.ts';
import { asciiSlug, coprimeMultiplier, LA_POSTE_PAYLOAD, SIREN_MULTIPLIER, SIREN_OFFSET, SIREN_PAYLOAD_BASE, SIREN_PAYLOAD_RANGE, weightedSlots, type DatasetSize } from './dataset.ts';
import { BACK_OFFICE_DOMAIN, BACK_OFFICE_STAFF, BENCH_FIRST_NAMES, BENCH_LAST_NAMES, EMPLOYER_KINDS, EMPLOYER_NAMES, EXTERNAL_ROLE_CYCLE, PERSONAL_DOMAINS } from './french-data.ts';

export interface SeedStep {
  label: string;
  sql: string;
  params?: unknown[];
}

/** What the demo seed left, which the bench data set completes up to the requested size. */
export interface DemoCounts {
  users: number;
  sirens: number;
  sirets: number;
  invitations: number;
}

export interface BenchPlan {
  /** Organization people generated (users but the demo ones and the back-office staff). */
  people: number;
  backOffice: number;
  sirens: number;
  benchSirens: number;
  benchSirets: number;
  invitations: number;
  /** Rank of the i-th demo employer (1-based) among the SIRENs, by size: 10, 20, … */
  demoRankStep: number;
  /** i ↦ (i·m + 1) mod people picks a distinct person for each invitation. */
  personMultiplier: number;
}

export function benchPlan(size: DatasetSize, demo: DemoCounts): BenchPlan {
  const people = size.users - demo.users - BACK_OFFICE_STAFF;
  const benchSirens = size.sirens - demo.sirens;
  const benchSirets = size.sirets - demo.sirets;
  const invitations = size.invitations - demo.invitations;
  if (people < size.sirens || benchSirens < 1 || benchSirets < benchSirens || invitations < 1 || invitations > people) {
    throw new Error(`size too small for the demo data (${JSON.stringify(size)} with ${JSON.stringify(demo)})`);
  }
  return {
    people,
    backOffice: BACK_OFFICE_STAFF,
    sirens: size.sirens,
    benchSirens,
    benchSirets,
    invitations,
    demoRankStep: Math.max(1, Math.min(10, Math.floor(size.sirens / (demo.sirens + 1)))),
    personMultiplier: coprimeMultiplier(people),
  };
}

const FIRST_SLOTS = 1_000;
const LAST_SLOTS = 2_000;
const KIND_SLOTS = 1_000;
const SMALL_SLOTS = 100;
const REGION_KEYS = Object.keys(REGIONS) as (keyof typeof REGIONS)[];
const TOWNS_PER_REGION = 12;

/** The lookup tables, as JSON rows for json_to_recordset. */
export function lookupRows() {
  const firstSlots = weightedSlots(BENCH_FIRST_NAMES.map(([, , w]) => w), FIRST_SLOTS);
  const lastSlots = weightedSlots(BENCH_LAST_NAMES.map(([, w]) => w), LAST_SLOTS);
  const kindSlots = weightedSlots(EMPLOYER_KINDS.map(([, , w]) => w), KIND_SLOTS);
  const domainSlots = weightedSlots(PERSONAL_DOMAINS.map(([, w]) => w), SMALL_SLOTS);
  const startSlots = weightedSlots(EXTERNAL_ROLE_CYCLE.map(([, w]) => w), SMALL_SLOTS);
  const jobs = Object.entries(JOB_TITLES_BY_ROLE).flatMap(([role, keys]) =>
    (keys as readonly JobTitleKey[]).map((key, k) => ({ role, k, n: keys.length, masc: JOB_TITLES[key][0], fem: JOB_TITLES[key][1] })),
  );
  return {
    first: firstSlots.map((index, slot) => {
      const [name, gender] = BENCH_FIRST_NAMES[index]!;
      return { slot, name, slug: asciiSlug(name), gender };
    }),
    last: lastSlots.map((index, slot) => ({ slot, name: BENCH_LAST_NAMES[index]![0], slug: asciiSlug(BENCH_LAST_NAMES[index]![0]) })),
    kind: kindSlots.map((index, slot) => ({ slot, label: EMPLOYER_KINDS[index]![0], short: EMPLOYER_KINDS[index]![1] })),
    oname: EMPLOYER_NAMES.map((name, idx) => ({ idx, name, slug: asciiSlug(name) })),
    pdomain: domainSlots.map((index, slot) => ({ slot, domain: PERSONAL_DOMAINS[index]![0] })),
    rolestart: startSlots.map((start, slot) => ({ slot, start })),
    cycle: EXTERNAL_ROLE_CYCLE.map(([code], pos) => ({ pos, code })),
    town: REGION_KEYS.flatMap((key, region) =>
      REGIONS[key].towns.slice(0, TOWNS_PER_REGION).map((town, k) => ({ region, k, city: town.city, slug: asciiSlug(town.city), postal: town.postalCode, prefix: REGIONS[key].phonePrefix })),
    ),
    job: jobs,
    street: STREETS.map((street, idx) => ({ idx, street })),
    reason: REJECTION_REASONS.map((reason, idx) => ({ idx, reason })),
    demo: EMPLOYERS.map((employer, i) => ({ i: i + 1, name: employer.name, domain: employer.domain, region: REGION_KEYS.indexOf(employer.region) })),
  };
}

/** A uniform draw in [0, 1) from (n, salt): 53 bits of PostgreSQL's hashint8extended. */
const U = (n: string, salt: number) => `pg_temp.u(${n}, ${salt})`;
const REF = `timestamptz '${REFERENCE_DATE.toISOString()}'`;

/**
 * The steps, in order. `fastLoad`: foreign-key triggers off during the load (PostgreSQL superuser;
 * the rows are consistent by construction, and tests/bench checks it with the triggers on) and a
 * larger maintenance_work_mem for the index builds.
 */
export function seedSteps(plan: BenchPlan, options: { fastLoad: boolean }): SeedStep[] {
  const rows = lookupRows();
  const json = (name: keyof ReturnType<typeof lookupRows>, columns: string) =>
    ({ label: `lookup ${name}`, sql: `create temp table bench_${name} as select * from json_to_recordset($1::json) as t(${columns})`, params: [JSON.stringify(rows[name])] }) satisfies SeedStep;
  const step = plan.demoRankStep;
  const demoRank = `(r % ${step} = 0 and r <= ${step} * (select count(*) from bench_demo))`;
  const steps: SeedStep[] = [
    ...(options.fastLoad ? [{ label: 'session', sql: "set session_replication_role = replica; set maintenance_work_mem = '512MB'; set synchronous_commit = off" }] : []),
    {
      label: 'functions',
      sql: `create function pg_temp.u(n bigint, salt integer) returns double precision language sql immutable parallel safe
              as $$ select (hashint8extended(n, salt) & 9007199254740991)::double precision / 9007199254740992.0 $$;
            create function pg_temp.luhn(payload text) returns text language sql immutable parallel safe
              as $$ select ((10 - sum(case when (length(payload) - i) % 2 = 0 then (d * 2) % 10 + (d * 2) / 10 else d end) % 10) % 10)::text
                    from (select i, substr(payload, i, 1)::int as d from generate_series(1, length(payload)) as i) as digits $$`,
    },
    json('first', 'slot int, name text, slug text, gender text'),
    json('last', 'slot int, name text, slug text'),
    json('kind', 'slot int, label text, short text'),
    json('oname', 'idx int, name text, slug text'),
    json('pdomain', 'slot int, domain text'),
    json('rolestart', 'slot int, start int'),
    json('cycle', 'pos int, code text'),
    json('town', 'region int, k int, city text, slug text, postal text, prefix text'),
    json('job', 'role text, k int, n int, masc text, fem text'),
    json('street', 'idx int, street text'),
    json('reason', 'idx int, reason text'),
    json('demo', 'i int, name text, domain text, region int'),
    {
      label: 'indexes dropped for the load',
      // Every index but those of primary keys and constraints: rebuilt after the load from their saved definitions.
      sql: `create temp table bench_index as
              select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
              from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace s on s.oid = t.relnamespace
              where s.nspname = 'public' and t.relname in ('users', 'role_assignments', 'invitations', 'organizations', 'user_search', 'organization_search')
                and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid);
            do $$ declare r record; begin for r in select name from bench_index loop execute 'drop index ' || r.name; end loop; end $$`,
    },
    {
      label: 'SIRENs',
      sql: `create temp table bench_siren as
              select d.i * ${step} as rank, o.id, o.code, o.name, d.domain, d.region, 0 as town0,
                     (select count(*)::int from organizations c where c.parent_id = o.id) as nsirets, true as demo
              from bench_demo d join organizations o on o.type = 'SIREN' and o.name = d.name;
            insert into bench_siren
              with ranks as (select r, row_number() over (order by r) as k from generate_series(1, ${plan.sirens}) as r where not ${demoRank}),
              candidates as (
                select c, (${SIREN_PAYLOAD_BASE} + (c::bigint * ${SIREN_MULTIPLIER} + ${SIREN_OFFSET}) % ${SIREN_PAYLOAD_RANGE})::text as payload
                from generate_series(1, ${plan.benchSirens + 1_000}) as c),
              free as (
                select payload, row_number() over (order by c) as k from candidates
                where payload <> '${LA_POSTE_PAYLOAD}' and not exists (select 1 from organizations o where left(o.code, 8) = candidates.payload)),
              extra as (
                select 1 + floor(${plan.benchSirens} * ${U('e', 110)} ^ 2)::int as k, count(*)::int as n
                from generate_series(1, ${plan.benchSirets - plan.benchSirens}) as e group by 1),
              named as (
                select ranks.r, ranks.k, free.payload || pg_temp.luhn(free.payload) as code,
                       floor(${U('ranks.r', 101)} * ${KIND_SLOTS})::int as kind_slot, floor(${U('ranks.r', 102)} * (select count(*) from bench_oname))::int as oname_idx,
                       floor(${U('ranks.r', 103)} * ${REGION_KEYS.length})::int as region, floor(${U('ranks.r', 104)} * ${TOWNS_PER_REGION})::int as town0,
                       ${U('ranks.r', 105)} < 0.35 as with_town
                from ranks join free using (k))
              select n.r, md5('bench-organization:' || n.code)::uuid, n.code,
                     kd.label || ' ' || o.name || case when n.with_town then ' – ' || t.city else '' end,
                     kd.short || '-' || o.slug || '-' || t.slug || '.fr', n.region, n.town0, 1 + coalesce(x.n, 0), false
              from named n
              join bench_kind kd on kd.slot = n.kind_slot
              join bench_oname o on o.idx = n.oname_idx
              join bench_town t on t.region = n.region and t.k = n.town0
              left join extra x on x.k = n.k;
            alter table bench_siren add primary key (rank);
            insert into organizations (id, code, name, type, parent_id, parent_code)
              select id, code, name, 'SIREN', null, null from bench_siren where not demo order by code`,
    },
    {
      label: 'SIRETs',
      sql: `create temp table bench_siret as
              select s.rank, row_number() over (partition by s.rank order by c.code)::int as k, c.id, c.code, s.region, s.town0
              from bench_siren s join organizations c on c.parent_id = s.id where s.demo;
            insert into bench_siret
              select s.rank, k, md5('bench-organization:' || s.code || lpad(k::text, 4, '0'))::uuid,
                     s.code || lpad(k::text, 4, '0') || pg_temp.luhn(s.code || lpad(k::text, 4, '0')), s.region, s.town0
              from bench_siren s cross join lateral generate_series(1, s.nsirets) as k where not s.demo;
            alter table bench_siret add primary key (rank, k);
            insert into organizations (id, code, name, type, parent_id, parent_code)
              select e.id, e.code, s.name || ' - ' || t.city || case when e.k > ${TOWNS_PER_REGION} then ' ' || ((e.k - 1) / ${TOWNS_PER_REGION} + 1)::text else '' end,
                     'SIRET', s.id, s.code
              from bench_siret e join bench_siren s using (rank)
              join bench_town t on t.region = e.region and t.k = (e.town0 + e.k - 1) % ${TOWNS_PER_REGION}
              where not s.demo order by e.code`,
    },
    {
      label: 'people',
      // Person n: the first of each SIREN (n = rank) is its administrator unless the SIREN is a demo one;
      // the others go to SIRENs by a power law (a few large employers, many small ones).
      sql: `create temp table bench_person as
              with placed as (
                select n, case when n <= ${plan.sirens} then n::int else 1 + floor(${plan.sirens} * ${U('n', 201)} ^ 2)::int end as rank
                from generate_series(1, ${plan.people}) as n),
              drawn as (
                select p.n, p.rank, s.demo, 1 + floor(s.nsirets * ${U('p.n', 202)})::int as k,
                       floor(${U('p.n', 203)} * ${FIRST_SLOTS})::int as first_slot, floor(${U('p.n', 204)} * ${LAST_SLOTS})::int as last_slot,
                       case when ${U('p.n', 205)} < 0.65 then s.domain end as work_domain, floor(${U('p.n', 206)} * ${SMALL_SLOTS})::int as domain_slot,
                       ${U('p.n', 207)} as style,
                       case when p.n % 100 < 43 then 1 when p.n % 100 < 75 then 2 when p.n % 100 < 87 then 3 when p.n % 100 < 95 then 4 else 5 end as nroles,
                       rs.start as role_start, p.n <= ${plan.sirens} and not s.demo as is_admin
                from placed p join bench_siren s using (rank) join bench_rolestart rs on rs.slot = floor(${U('p.n', 208)} * ${SMALL_SLOTS})::int),
              named as (
                select d.*, f.name as first_name, f.gender, l.name as last_name, coalesce(d.work_domain, pd.domain) as domain,
                       case when d.style < 0.85 then f.slug || '.' || l.slug when d.style < 0.95 then left(f.slug, 1) || l.slug else f.slug || '-' || l.slug end as base
                from drawn d join bench_first f on f.slot = d.first_slot join bench_last l on l.slot = d.last_slot join bench_pdomain pd on pd.slot = d.domain_slot),
              numbered as (select *, row_number() over (partition by base, domain order by n) as rn from named)
              select n.n, n.rank, n.demo, n.k, n.first_name, n.gender, n.last_name, n.nroles, n.role_start, n.is_admin,
                     case when taken.email is null then n.base || case when n.rn > 1 then n.rn::text else '' end || '@' || n.domain
                          else n.base || '.' || n.n || '@' || n.domain end as email
              from numbered n
              left join (select lower(email) as email from users) as taken
                on taken.email = n.base || case when n.rn > 1 then n.rn::text else '' end || '@' || n.domain;
            alter table bench_person add primary key (n)`,
    },
    {
      label: 'users',
      sql: `insert into users (id, auth_id, email, first_name, last_name, job_title, phone_number, mobile_phone, street, postal_code, city, metadata,
                               user_type, is_active, last_login_at, created_at, updated_at)
            select md5('bench-user:' || p.n)::uuid, md5('bench-subject:' || p.n), p.email, p.first_name, p.last_name,
                   case when p.gender = 'F' then j.fem else j.masc end,
                   case when ${U('p.n', 210)} < 0.9 then t.prefix || ' ' || (20 + floor(${U('p.n', 211)} * 80))::int || ' ' || pairs.landline end,
                   case when ${U('p.n', 212)} < 0.6 then '0' || (6 + floor(${U('p.n', 213)} * 2))::int || ' ' || pairs.mobile end,
                   (1 + floor(${U('p.n', 214)} * 140))::int || ' ' || st.street, t.postal, t.city, null, 'ORGANIZATION',
                   ${U('p.n', 220)} >= 0.1,
                   case when ${U('p.n', 221)} >= 0.15 then created.at + ${U('p.n', 222)} * (${REF} - created.at) end,
                   created.at, created.at + ${U('p.n', 224)} * (${REF} - created.at)
            from bench_person p
            join bench_siret e on e.rank = p.rank and e.k = p.k
            join bench_town t on t.region = e.region and t.k = (e.town0 + e.k - 1) % ${TOWNS_PER_REGION}
            join bench_street st on st.idx = floor(${U('p.n', 215)} * (select count(*) from bench_street))::int
            join bench_cycle c on c.pos = p.role_start
            cross join lateral (select case when p.is_admin then 'ADMIN_ADHERENT' else c.code end as first_role) fr
            join bench_job j on j.role = fr.first_role and j.k = floor(${U('p.n', 216)} * j.n)::int
            cross join lateral (select lpad(floor(${U('p.n', 217)} * 1000000)::int::text, 6, '0') as l, lpad(floor(${U('p.n', 218)} * 100000000)::int::text, 8, '0') as m) d
            cross join lateral (select substr(d.l, 1, 2) || ' ' || substr(d.l, 3, 2) || ' ' || substr(d.l, 5, 2) as landline,
                                       substr(d.m, 1, 2) || ' ' || substr(d.m, 3, 2) || ' ' || substr(d.m, 5, 2) || ' ' || substr(d.m, 7, 2) as mobile) pairs
            cross join lateral (select ${REF} - (60 + ${U('p.n', 223)} * 1800) * interval '1 day' as at) created`,
    },
    {
      label: 'back-office staff',
      sql: `with staff as (
              select b, f.name as first_name, l.name as last_name, f.slug || '.' || l.slug as base, f.gender
              from generate_series(1, ${plan.backOffice}) as b
              join bench_first f on f.slot = floor(${U('-b', 230)} * ${FIRST_SLOTS})::int
              join bench_last l on l.slot = floor(${U('-b', 231)} * ${LAST_SLOTS})::int),
            numbered as (select *, row_number() over (partition by base order by b) as rn from staff),
            inserted as (
              insert into users (id, auth_id, email, first_name, last_name, job_title, user_type, is_active, last_login_at, created_at, updated_at)
              select md5('bench-backoffice:' || b)::uuid, md5('bench-backoffice-subject:' || b),
                     base || case when rn > 1 then rn::text else '' end || '@${BACK_OFFICE_DOMAIN}', first_name, last_name,
                     case when gender = 'F' then 'Chargée de relation adhérents' else 'Chargé de relation adhérents' end,
                     'BACKOFFICE', true, ${REF} - b * interval '5 hours', ${REF} - interval '900 days', ${REF} - interval '30 days'
              from numbered returning id)
            insert into user_permissions (user_id, permission_code)
            select i.id, p.code from inserted i cross join (values ('USER_LIST'), ('USER_CREATE'), ('ORG_LIST')) as p(code);
            create temp table bench_backoffice as
              select row_number() over (order by email)::int - 1 as idx, id, email from users u
              where user_type = 'BACKOFFICE' and exists (select 1 from user_permissions p where p.user_id = u.id and p.permission_code = 'USER_CREATE')`,
    },
    {
      label: 'role assignments',
      // Distinct roles per person (consecutive positions of the cycle), so (user, organization, role) is unique;
      // 2 % also work for another employer as its accountants (a SIRET of another SIREN).
      sql: `insert into role_assignments (id, user_id, organization_id, role_id, inherits_to_children, created_at)
            select md5('bench-ra:' || p.n || ':' || j)::uuid, md5('bench-user:' || p.n)::uuid,
                   case when p.is_admin and j = 0 then s.id
                        when other.rank is not null then other.id
                        when j = 0 or ${U('p.n * 8 + j', 240)} >= 0.3 then home.id
                        else (select e.id from bench_siret e where e.rank = p.rank and e.k = 1 + floor(s.nsirets * ${U('p.n * 8 + j', 241)})::int) end,
                   r.id, p.is_admin and j = 0, ${REF} - (30 + ${U('p.n', 223)} * 1700) * interval '1 day'
            from bench_person p
            join bench_siren s using (rank)
            join bench_siret home on home.rank = p.rank and home.k = p.k
            cross join lateral generate_series(0, p.nroles - 1) as j
            left join lateral (
              select e.rank, e.id from bench_siret e
              where j = p.nroles - 1 and j > 0 and ${U('p.n', 242)} < 0.02
                and e.rank = 1 + (p.rank + floor((${plan.sirens} - 1) * ${U('p.n', 243)})::int) % ${plan.sirens} and e.k = 1) as other on true
            join bench_cycle c on c.pos = (p.role_start + j + ${EXTERNAL_ROLE_CYCLE.length} - case when p.is_admin then 1 else 0 end) % ${EXTERNAL_ROLE_CYCLE.length}
            join roles r on r.code = case when p.is_admin and j = 0 then 'ADMIN_ADHERENT' when other.rank is not null then 'CABINET_COMPTABLE' else c.code end`,
    },
    {
      label: 'invitations',
      // Invitation i: a distinct person i ↦ (i·m + 1) mod people, so that pending ones never repeat a
      // (person, organization, role); half the NEW_ADMIN ones are for people without an account yet.
      sql: `insert into invitations (invitee_email, organization_id, organization_code, organization_name, role_id, role_code, role_name, status,
                                     invitation_type, sender_user_id, sender_email, validator_user_id, validator_email, rejection_reason, metadata,
                                     created_at, processed_at)
            with drawn as (
              select i, 1 + (i::bigint * ${plan.personMultiplier} + 1) % ${plan.people} as pn,
                     case when ${U('i', 301)} < 0.15 then 'PENDING' when ${U('i', 301)} < 0.75 then 'APPROVED' else 'REJECTED' end as status,
                     ${U('i', 302)} < 0.4 as new_admin, ${U('i', 303)} < 0.5 as new_person,
                     1 + floor(${plan.sirens} * ${U('i', 304)} ^ 2)::int as new_rank
              from generate_series(1, ${plan.invitations}) as i),
            shaped as (
              select d.*, p.first_name, p.last_name, p.email as person_email, p.rank as person_rank, p.k as person_k,
                     case when d.new_admin and d.new_person then d.new_rank else p.rank end as rank
              from drawn d join bench_person p on p.n = d.pn),
            placed as (
              select sh.*, s.id as siren_id, s.code as siren_code, s.domain, s.demo,
                     case when sh.new_admin then s.id else e.id end as org_id,
                     case when sh.new_admin then 'ADMIN_ADHERENT' else c.code end as role_code,
                     f.slug || '.' || l.slug || '-' || sh.i || '@' || s.domain as new_email, f.name as new_first, l.name as new_last,
                     bs.id as bo_id, bs.email as bo_email, bv.id as validator_id, bv.email as validator_email
              from shaped sh
              join bench_siren s on s.rank = sh.rank
              join bench_siret e on e.rank = sh.rank and e.k = case when sh.rank = sh.person_rank then sh.person_k else 1 end
              join bench_cycle c on c.pos = floor(${U('sh.i', 305)} * ${EXTERNAL_ROLE_CYCLE.length})::int
              join bench_first f on f.slot = floor(${U('sh.i', 306)} * ${FIRST_SLOTS})::int
              join bench_last l on l.slot = floor(${U('sh.i', 307)} * ${LAST_SLOTS})::int
              join bench_backoffice bs on bs.idx = floor(${U('sh.i', 308)} * (select count(*) from bench_backoffice))::int
              join bench_backoffice bv on bv.idx = floor(${U('sh.i', 309)} * (select count(*) from bench_backoffice))::int),
            dated as (
              select pl.*, case when pl.status = 'PENDING' then ${REF} - ${U('pl.i', 310)} * interval '60 days'
                                else ${REF} - (3 + ${U('pl.i', 310)} * 720) * interval '1 day' end as created_at,
                     admin.n is not null and ${U('pl.i', 311)} >= 0.3 as by_admin, admin.email as admin_email, md5('bench-user:' || admin.n)::uuid as admin_id
              from placed pl left join bench_person admin on admin.n = pl.rank and admin.is_admin)
            select case when dt.new_admin and dt.new_person then dt.new_email else dt.person_email end,
                   o.id, o.code, o.name, r.id, r.code, r.name, dt.status,
                   case when dt.new_admin then 'NEW_ADMIN' else 'ROLE_ASSIGNMENT' end,
                   case when dt.by_admin then dt.admin_id else dt.bo_id end, case when dt.by_admin then dt.admin_email else dt.bo_email end,
                   case when dt.status <> 'PENDING' then dt.validator_id end, case when dt.status <> 'PENDING' then dt.validator_email end,
                   case when dt.status = 'REJECTED' then (select reason from bench_reason where idx = floor(${U('dt.i', 312)} * (select count(*) from bench_reason))::int) end,
                   jsonb_build_object('isNewUser', dt.new_admin and dt.new_person, 'senderEmail', case when dt.by_admin then dt.admin_email else dt.bo_email end,
                     'userProfile', jsonb_build_object('firstName', case when dt.new_admin and dt.new_person then dt.new_first else dt.first_name end,
                                                       'lastName', case when dt.new_admin and dt.new_person then dt.new_last else dt.last_name end)),
                   dt.created_at,
                   case when dt.status <> 'PENDING' then dt.created_at + (1 + ${U('dt.i', 313)} * 120) * interval '1 hour' end
            from dated dt
            join organizations o on o.id = dt.org_id
            join roles r on r.code = dt.role_code
            order by dt.created_at`,
    },
    // The load bypassed the triggers that keep the lists' totals, name ranges and search copies (migrations 0004, 0019; the organizations' copy and counts: 0020, in recount_list_totals).
    { label: 'list totals recounted', sql: 'select recount_list_totals(); select rebuild_user_name_ranges()' },
    {
      label: 'search copy',
      sql: `insert into user_search (id, is_active, name, email, folded, name_key, email_key, last_login_at)
            select id, is_active, search_fold(first_name || ' ' || last_name), search_fold(email), true, lower(last_name || first_name), lower(email), last_login_at
            from users u where not exists (select 1 from user_search s where s.id = u.id)`,
    },
    // Its counts of one- to three-character strings (migration 0019), from scratch; the rows of a former data set
    // folded as the backfill would, so that the search's counts are used at once.
    {
      label: 'search counts',
      sql: `update user_search s set name = search_fold(u.first_name || ' ' || u.last_name), email = search_fold(u.email), folded = true,
              name_key = lower(u.last_name || u.first_name), email_key = lower(u.email), last_login_at = u.last_login_at
            from users u where u.id = s.id and not s.folded;
            select recount_search_grams(); update user_search_backfill set done = true`,
    },
    // The roles each user holds on their search row (migration 0040), then the words of every user with them and
    // their counts (migration 0039), then the counts within roles, from scratch.
    {
      label: 'search words',
      sql: `update user_search s set roles = x.roles
              from (select user_id, array_agg(distinct role_id order by role_id) as roles from role_assignments group by 1) as x
              where s.id = x.user_id and s.roles is distinct from x.roles;
            select rebuild_search_words(); select rebuild_search_roles()`,
    },
    {
      label: 'indexes rebuilt',
      sql: `do $$ declare r record; begin for r in select definition from bench_index loop execute r.definition; end loop; end $$`,
    },
    // A fast load also bypassed the trigger recording which account held a request's address (migration 0009):
    // the pending ones get it now, as that migration did for the requests it found.
    {
      label: 'invitees recorded',
      sql: `update invitations i set invitee_user_id = u.id from users u
            where i.status = 'PENDING' and i.invitee_user_id is null and lower(u.email) = lower(i.invitee_email)`,
    },
    ...(options.fastLoad ? [{ label: 'session reset', sql: 'reset session_replication_role; reset synchronous_commit' }] : []),
  ];
  return steps;
}
