// The journal ('Journal des modifications', GET /api/v2/audit): who may read which entries, a page of them as
// sentences with its exact total, and every matching entry in keyset batches (the journal's CSV export).
import type { Kysely } from 'kysely';
import type { Actor, OrganizationReach } from '../../core/actor.ts';
import { pageOffset, type PageRequest } from '../../core/pages.ts';
import type { ListTotals } from '../../db/list-totals.ts';
import type { Database, JsonValue } from '../../db/schema.ts';
import { findOrganizationById } from '../organizations/organizations.repository.ts';
import { peopleGramCounts } from '../users/users-search.repository.ts';
import { addressParts, GATHER_BELOW, gathersPage, searchNarrowing } from './audit.model.ts';
import { countEveryJournalEntry, countJournalEntries, isUnfiltered, journalBatchAfter, listJournalPage, type JournalKey, type JournalWhere } from './audit-list.repository.ts';
import { canOpenInvitation, canOpenUser, journalScope, requireCanReadAudit, requireJournalOrganization } from './audit.policy.ts';
import { journalLookupRows } from './journal-lookups.repository.ts';
import { filterReferences } from './journal-filters.model.ts';
import { readableEntry, type JournalRow, type ReadableEntry } from './journal-sentences.model.ts';
import { recordedRoles, type JournalLookups, type JournalOrganizationRef } from './journal-text.model.ts';
import { journalFilterOf, type JournalQuery } from './journal.input.ts';

/** One entry of the journal as the API answers it (OpenAPI AuditEntry). */
export interface AuditEntryDto extends ReadableEntry {
  id: number;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: JournalRow['action'];
  entityType: JournalRow['entityType'];
  entityId: string;
  organizationId: string | null;
  /** As recorded for the back office; {} for anyone else (their details hold what they may read). */
  changes: Record<string, JsonValue>;
}

export interface JournalDeps {
  db: Kysely<Database>;
  listTotals?: ListTotals | null;
}

/** The caller's right, the checked filters and the organization filtered on: 400, 403 or 404 before anything is read. */
async function journalWhere(db: Kysely<Database>, actor: Actor, query: JournalQuery): Promise<{ scope: OrganizationReach | null; where: JournalWhere }> {
  requireCanReadAudit(actor);
  const filter = journalFilterOf(query);
  const scope = journalScope(actor);
  const organization = filter.organizationId ? requireJournalOrganization(scope, await findOrganizationById(db, filter.organizationId, { kind: 'all' })) : undefined;
  const { organizationId: _, ...rest } = filter;
  const search = filter.search;
  // A term with an address's parts is found by its address indexes (audit-list.repository.ts): no strings to narrow with.
  const counted = search && !addressParts(search) ? await peopleGramCounts(db, search, true) : null;
  return {
    scope,
    where: {
      ...rest,
      searchGrams: search && counted ? searchNarrowing(search, counted) : undefined,
      organization: organization && { id: organization.id, type: organization.type },
      scope: scope ? [...scope.organizationIds] : null,
      reader: { userId: actor.userId, parentIds: scope ? [...scope.parentIds] : [] },
    },
  };
}

/** The organization ids and codes an entry names (its own, its roles'), to be looked up with the page's. */
function namedOrganizations(row: JournalRow): { ids: string[]; codes: string[] } {
  const ids = [...row.organizationIds];
  const codes: string[] = [];
  for (const value of Object.values(row.changes)) {
    const lists = value !== null && typeof value === 'object' && !Array.isArray(value) ? [value.before, value.after] : [value];
    for (const role of lists.flatMap((list) => recordedRoles(list))) {
      codes.push(role.organizationCode);
      if (role.organizationId) ids.push(role.organizationId);
    }
  }
  if (typeof row.changes.organizationCode === 'string') codes.push(row.changes.organizationCode);
  ids.push(...filterReferences(row.changes.filters).organizationIds);
  return { ids, codes };
}

/** The page's entries as people read them: one more statement whatever the page's size (no N+1). */
async function readableEntries(db: Kysely<Database>, actor: Actor, scope: OrganizationReach | null, found: JournalRow[]): Promise<AuditEntryDto[]> {
  if (found.length === 0) return [];
  const userIds = new Set<string>();
  const invitationIds = new Set<string>();
  const organizationIds = new Set<string>();
  const codes = new Set<string>();
  for (const row of found) {
    if (row.actorId) userIds.add(row.actorId);
    if (row.entityType === 'user') userIds.add(row.entityId);
    if (row.entityType === 'invitation') invitationIds.add(row.entityId);
    filterReferences(row.changes.filters).userIds.forEach((id) => userIds.add(id));
    const named = namedOrganizations(row);
    named.ids.forEach((id) => organizationIds.add(id));
    named.codes.forEach((code) => codes.add(code));
  }
  const looked = await journalLookupRows(db, {
    userIds: [...userIds],
    invitationIds: canOpenInvitation(scope) ? [...invitationIds] : [],
    organizationIds: [...organizationIds],
    organizationCodes: [...codes],
    // An organization caller reads an entry under an organization of their scope: every one the entry concerns is needed.
    entriesOf: scope === null ? [] : found.map((r) => r.id),
    // The back office opens every user (canOpenUser): their assignments are not read.
    assignments: scope !== null,
  });
  const { users, invitations, organizations, roleNames } = looked;
  const rows = found.map((row) => ({ ...row, organizationIds: looked.entryOrganizations.get(row.id) ?? row.organizationIds }));
  const refs: JournalOrganizationRef[] = organizations.map((o) => ({ id: o.id, code: o.code, name: o.name, type: o.type }));
  const lookups: JournalLookups = {
    users: new Map(users.map((u) => [u.id, { name: `${u.firstName} ${u.lastName}`, email: u.email, visible: canOpenUser(actor, scope, u) }])),
    invitations,
    organizationsById: new Map(refs.map((o) => [o.id, o])),
    organizationsByCode: new Map(refs.map((o) => [o.code, o])),
    roleNames,
    inScope: (id) => scope === null || scope.organizationIds.has(id),
    backOffice: scope === null,
  };
  // An organization caller reads the author of an entry when the author is the back office's, or a person they may
  // open: another company's administrator, acting on an employee of both companies, is not named to them (security
  // review: tests/server/authorization-journal.test.ts).
  const authorShown = (row: JournalRow) => {
    if (scope === null || row.actorId === null) return true;
    const author = users.find((u) => u.id === row.actorId);
    return author !== undefined && (author.userType === 'BACKOFFICE' || canOpenUser(actor, scope, author));
  };
  return rows.map((found) => {
    const row = authorShown(found) ? found : { ...found, actorId: null, actorEmail: null, actorName: ANOTHER_COMPANY_AUTHOR };
    return {
      id: row.id,
      at: row.at.toISOString(),
      actorId: row.actorId,
      actorEmail: row.actorEmail,
      action: row.action,
      entityType: row.entityType,
      entityId: row.entityId,
      organizationId: scope === null || row.organizationId === null || scope.organizationIds.has(row.organizationId) ? row.organizationId : null,
      changes: scope === null ? row.changes : {},
      ...readableEntry(row, lookups),
    };
  });
}

/** The author of an entry an organization caller may not know. */
export const ANOTHER_COMPANY_AUTHOR = "Une personne d'une autre entreprise";

/**
 * Every entry the caller may read that the filters keep, newest first, as people read them, in keyset batches of
 * `batchSize` (one page's statements per batch, whatever the total): for the journal's CSV export. The caller's
 * right and the filters are checked at the first `next()` (400, 403, 404 as GET /api/v2/audit); between batches
 * it stops when `signal` is aborted.
 */
export async function* streamJournalEntries(
  deps: JournalDeps,
  actor: Actor,
  query: JournalQuery,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): AsyncGenerator<AuditEntryDto, void, undefined> {
  const { db } = deps;
  const { scope, where } = await journalWhere(db, actor, query);
  const size = options.batchSize ?? 500;
  // Few matches: each batch gathers them by their filters' indexes rather than walking the journal's time index.
  const gather = (await countJournalEntries(db, where, deps.listTotals ?? null)) <= GATHER_BELOW * 4;
  let after: JournalKey | null = null;
  for (;;) {
    if (options.signal?.aborted) return;
    const batch = await journalBatchAfter(db, where, after, size, { gather });
    yield* await readableEntries(db, actor, scope, batch);
    if (batch.length < size) return;
    const last = batch.at(-1)!;
    after = { at: last.at, id: last.id };
  }
}

/**
 * Every entry about this person (the user concerned), newest first, as the back office reads them (names, roles on
 * every organization): a person's data on request (users-personal-data.service.ts), whose right its service decided.
 */
export async function journalEntriesAbout(db: Kysely<Database>, actor: Actor, userId: string, batchSize = 500): Promise<AuditEntryDto[]> {
  const where: JournalWhere = { userId, scope: null };
  const entries: AuditEntryDto[] = [];
  let after: JournalKey | null = null;
  for (;;) {
    const batch = await journalBatchAfter(db, where, after, batchSize, { gather: true });
    entries.push(...(await readableEntries(db, actor, null, batch)));
    if (batch.length < batchSize) return entries;
    const last = batch.at(-1)!;
    after = { at: last.at, id: last.id };
  }
}

export function auditService(deps: JournalDeps) {
  const { db } = deps;
  return {
    /** USER_LIST; the back office reads every entry, anyone else those of their scope. Newest first, exact total. */
    async list(actor: Actor, query: JournalQuery, page: PageRequest): Promise<{ items: AuditEntryDto[]; total: number }> {
      const { scope, where } = await journalWhere(db, actor, query);
      const total = await countJournalEntries(db, where, deps.listTotals ?? null);
      // Past the last page: nothing to read. Few matches, or many in a small journal: gathered, then sorted
      // (listJournalPage); the journal's size is read only when the choice needs it.
      if (pageOffset(page) >= total) return { total, items: [] };
      const reach = pageOffset(page) + page.pageSize;
      const gather = total <= GATHER_BELOW && gathersPage({ total, everyone: isUnfiltered(where) ? total : await countEveryJournalEntry(db), reach });
      const rows = await listJournalPage(db, where, page, { gather, total });
      return { total, items: await readableEntries(db, actor, scope, rows) };
    },
    /** How many entries the caller may read that the filters keep (exact): an export's count before it starts. */
    async count(actor: Actor, query: JournalQuery): Promise<number> {
      const { where } = await journalWhere(db, actor, query);
      return countJournalEntries(db, where, deps.listTotals ?? null);
    },
    /** The same entries, every one of them, in keyset batches (streamJournalEntries). */
    stream(actor: Actor, query: JournalQuery, options: { batchSize?: number; signal?: AbortSignal } = {}) {
      return streamJournalEntries(deps, actor, query, options);
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
