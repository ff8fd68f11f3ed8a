// The journal's conditions on who wrote an entry and on its search text (audit-list.repository.ts matching): a search
// by its address indexes (migration 0036), by a few rare strings, or walked newest first; an author an organization
// caller may know.
import { sql, type SqlBool } from 'kysely';
import { PREPARE_ANYWAY } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { startsWith, unseenText } from '../../db/unseen.ts';
import type { JournalWhere } from './audit-list.repository.ts';
import { addressParts } from './audit.model.ts';

/**
 * For an organization caller: whether they may know the entry's author, as the page decides to name them
 * (audit.service.ts readableEntries, audit.policy.ts canOpenUser): nobody (the system), themselves, a back-office
 * person, or a person holding a role their scope covers. A filter or a search on the author keeps an entry only
 * then, so that an author the page hides cannot be found by name, e-mail or id either.
 */
export function authorKnown(where: JournalWhere & { scope: readonly string[] }) {
  const reader = where.reader ?? { userId: null, parentIds: [] };
  return sql<SqlBool>`(audit_log.actor_id is null or audit_log.actor_id = ${reader.userId}::uuid
    or exists (select 1 from users au where au.id = audit_log.actor_id and au.user_type = 'BACKOFFICE')
    or exists (select 1 from role_assignments ar where ar.user_id = audit_log.actor_id
      and (ar.organization_id = any(${[...where.scope]}::uuid[]) or (ar.inherits_to_children and ar.organization_id = any(${[...reader.parentIds]}::uuid[])))))`;
}

/**
 * The entries whose search text holds the term's address parts (audit.model.ts addressParts) at its first or second
 * '@', each read from its index (migration 0036; the literal '%@%' patterns name the indexes' own conditions), or
 * that hold three '@' or more and the whole term (their trigram index). The whole term is then checked on them.
 * Each part is a range of its index (server/db/unseen.ts startsWith), not a LIKE: a range of parameters is what a prepared statement's
 * plan can read an index by, so the statement is prepared (PREPARE_ANYWAY); its values are unseen by the planner
 * (server/db/unseen.ts), so the plan is kept and not made again at each page (0.4 ms of PostgreSQL's work, more than
 * reading the entries).
 */
function atAnAddress(address: { local: string; domain: string }, pattern: string) {
  const local = [...address.local].reverse().join('');
  const at = (k: 1 | 2) =>
    sql<SqlBool>`(search_text like ${sql.lit(k === 1 ? '%@%' : '%@%@%')} and ${startsWith(sql`journal_address_local(search_text, ${sql.lit(k)})`, local)}
      and ${startsWith(sql`journal_address_domain(search_text, ${sql.lit(k)})`, address.domain)})`;
  return sql<SqlBool>`(${sql.raw(PREPARE_ANYWAY)} ${at(1)} or ${at(2)} or (search_text like ${sql.lit('%@%@%@%')} and search_text like ${unseenText(pattern)}))`;
}

/**
 * The search's conditions. `walk` (many matches, read newest first along the time index): the term is written so that
 * no index serves it. Otherwise an address is read from its indexes, a term narrowed (searchGrams) from the trigram
 * index's lists of those strings only, else from every trigram of the term; the whole term is checked on every
 * entry found. An organization caller keeps an entry found through its author only when they may know the author.
 */
export function searchConditions(where: JournalWhere & { search: string }, walk: boolean) {
  const conditions = [];
  const pattern = containsPattern(where.search);
  const address = walk ? null : addressParts(where.search);
  const narrowed = !walk && where.searchGrams !== undefined && where.searchGrams.length > 0;
  if (address) conditions.push(atAnAddress(address, pattern), sql<SqlBool>`(search_text || '') like ${unseenText(pattern)}`);
  else {
    if (narrowed) for (const gram of where.searchGrams!) conditions.push(sql<SqlBool>`search_text like ${containsPattern(gram)}`);
    conditions.push(walk || narrowed ? sql<SqlBool>`(search_text || '') like ${pattern}` : sql<SqlBool>`search_text like ${pattern}`);
  }
  if (where.scope !== null) conditions.push(sql<SqlBool>`(subject_search_text like ${pattern} or ${authorKnown({ ...where, scope: where.scope })})`);
  return conditions;
}
