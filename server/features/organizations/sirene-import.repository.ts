// SQL of the Sirene import (issue 17): staging tables filled batch by batch, the checks that need every row,
// the counts of what would change, and the merge into organizations. Everything runs inside the one
// transaction it is given: a failure at any step leaves organizations as they were.
import type { RawTransaction } from '../../db/database.ts';
import { SIRET_FALLBACK_NAME, type SireneImportCounts, type StagedEstablishment, type StagedUnit } from './sirene.model.ts';

/** Temporary tables, dropped with the transaction: nothing of them outlives the import, even when it fails. */
export async function createStagingTables(tx: RawTransaction): Promise<void> {
  await tx.exec(`
    create temporary table sirene_members (siren text not null) on commit drop;
    create temporary table sirene_units (siren text not null, name text not null, published_name text, line integer not null) on commit drop;
    create temporary table sirene_establishments (
      siret text not null, siren text not null, own_name text, town text,
      published boolean not null, closed boolean not null, line integer not null
    ) on commit drop;
  `);
}

// One statement per batch, whatever its size: the rows travel as one array per column (PostgreSQL and PGlite alike).
export async function stageMembers(tx: RawTransaction, sirens: readonly string[]): Promise<void> {
  if (sirens.length === 0) return;
  await tx.query('insert into sirene_members (siren) select * from unnest($1::text[])', [sirens]);
}

export async function stageUnits(tx: RawTransaction, units: readonly StagedUnit[]): Promise<void> {
  if (units.length === 0) return;
  await tx.query('insert into sirene_units (siren, name, published_name, line) select * from unnest($1::text[], $2::text[], $3::text[], $4::int[])', [
    units.map((u) => u.siren),
    units.map((u) => u.name),
    units.map((u) => u.publishedName),
    units.map((u) => u.line),
  ]);
}

export async function stageEstablishments(tx: RawTransaction, rows: readonly StagedEstablishment[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into sirene_establishments (siret, siren, own_name, town, published, closed, line)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bool[], $6::bool[], $7::int[])`,
    [rows.map((r) => r.siret), rows.map((r) => r.siren), rows.map((r) => r.ownName), rows.map((r) => r.town), rows.map((r) => r.published), rows.map((r) => r.closed), rows.map((r) => r.line)],
  );
}

/** Indexes and statistics once every row is in (temporary tables are never analyzed automatically). */
export async function indexStagingTables(tx: RawTransaction): Promise<void> {
  await tx.exec(`
    create index on sirene_members (siren);
    create index on sirene_units (siren);
    create index on sirene_establishments (siren);
    create index on sirene_establishments (siret);
    analyze sirene_members;
    analyze sirene_units;
    analyze sirene_establishments;
  `);
}

/** A code given twice in a file: the line of its second appearance and of its first, or null. */
export async function firstDuplicate(tx: RawTransaction, table: 'sirene_units' | 'sirene_establishments'): Promise<{ code: string; first: number; again: number } | null> {
  const column = table === 'sirene_units' ? 'siren' : 'siret';
  const rows = await tx.query<{ code: string; first: number; again: number }>(
    `select ${column} as code, min(line)::int as first, (array_agg(line order by line))[2]::int as again
     from ${table} group by ${column} having count(*) > 1 order by 3 limit 1`,
  );
  return rows[0] ?? null;
}

/** The first establishment (by line) of a member SIREN that the legal units' file lacks, or null. */
export async function firstOrphanEstablishment(tx: RawTransaction): Promise<{ siret: string; siren: string; line: number } | null> {
  const rows = await tx.query<{ siret: string; siren: string; line: number }>(
    `select e.siret, e.siren, e.line from sirene_establishments e
     where not exists (select 1 from sirene_units u where u.siren = e.siren) order by e.line limit 1`,
  );
  return rows[0] ?? null;
}

/** Member SIRENs that the legal units' file lacks (neither added nor renamed; one already known stays a member). */
export async function membersMissingFromUnits(tx: RawTransaction): Promise<number> {
  const rows = await tx.query<{ n: number }>('select count(*)::int as n from sirene_members m where not exists (select 1 from sirene_units u where u.siren = m.siren)');
  return rows[0]!.n;
}

/**
 * Each establishment with the name the portal gives it, as the demo data names them ('{name} - {town}'):
 * its own name (sign, else usual name), else its legal unit's published name, then its town; 'Sans nom' when
 * nothing may be shown (not for publication, or no name at all).
 */
export async function nameEstablishments(tx: RawTransaction): Promise<void> {
  await tx.query(
    `create temporary table sirene_sirets on commit drop as
     select e.siret, e.siren, e.closed,
            case when not e.published or coalesce(e.own_name, u.published_name) is null then $1
                 when e.town is null then coalesce(e.own_name, u.published_name)
                 else coalesce(e.own_name, u.published_name) || ' - ' || e.town end as name
     from sirene_establishments e join sirene_units u on u.siren = e.siren`,
    [SIRET_FALLBACK_NAME],
  );
  await tx.exec('create index on sirene_sirets (siret); analyze sirene_sirets;');
}

const count = async (tx: RawTransaction, sql: string) => (await tx.query<{ n: number }>(`select count(*)::int as n from ${sql}`))[0]!.n;

const IS_MEMBER = 'exists (select 1 from sirene_members m where m.siren = o.code)';

/** What the merge would change, read before it (the dry run stops here). */
export async function countChanges(tx: RawTransaction): Promise<SireneImportCounts> {
  return {
    sirensAdded: await count(tx, 'sirene_units u where not exists (select 1 from organizations o where o.code = u.siren)'),
    sirensRenamed: await count(tx, "sirene_units u join organizations o on o.code = u.siren and o.type = 'SIREN' where o.name <> u.name"),
    sirensNoLongerMembers: await count(tx, `organizations o where o.type = 'SIREN' and o.member and not ${IS_MEMBER}`),
    sirensBackToMembers: await count(tx, `organizations o where o.type = 'SIREN' and not o.member and ${IS_MEMBER}`),
    siretsAdded: await count(tx, 'sirene_sirets s where not exists (select 1 from organizations o where o.code = s.siret)'),
    siretsRenamed: await count(tx, "sirene_sirets s join organizations o on o.code = s.siret and o.type = 'SIRET' where o.name <> s.name"),
    siretsClosed: await count(tx, "sirene_sirets s join organizations o on o.code = s.siret and o.type = 'SIRET' where s.closed and not o.closed"),
    siretsReopened: await count(tx, "sirene_sirets s join organizations o on o.code = s.siret and o.type = 'SIRET' where not s.closed and o.closed"),
  };
}

/**
 * The merge: new SIRENs and SIRETs inserted, names and closures updated, SIRENs marked member or not (a SIRET
 * takes its SIREN's value). Only rows that differ are written, so that a second run changes nothing. Nothing is
 * ever deleted: an organization absent from the files keeps its users and roles.
 */
export async function mergeIntoOrganizations(tx: RawTransaction): Promise<void> {
  await tx.exec(`
    insert into organizations (code, name, type, member, updated_at)
    select u.siren, u.name, 'SIREN', true, now() from sirene_units u
    where not exists (select 1 from organizations o where o.code = u.siren);

    update organizations o set name = u.name, updated_at = now()
    from sirene_units u where o.code = u.siren and o.type = 'SIREN' and o.name <> u.name;

    update organizations o set member = not o.member, updated_at = now()
    where o.type = 'SIREN' and o.member <> ${IS_MEMBER};

    insert into organizations (code, name, type, parent_id, parent_code, member, closed, updated_at)
    select s.siret, s.name, 'SIRET', p.id, p.code, p.member, s.closed, now()
    from sirene_sirets s join organizations p on p.code = s.siren and p.type = 'SIREN'
    where not exists (select 1 from organizations o where o.code = s.siret);

    update organizations o set name = s.name, closed = s.closed, updated_at = now()
    from sirene_sirets s where o.code = s.siret and o.type = 'SIRET' and (o.name <> s.name or o.closed <> s.closed);

    update organizations o set member = p.member, updated_at = now()
    from organizations p where o.parent_id = p.id and o.type = 'SIRET' and o.member <> p.member;
  `);
}
