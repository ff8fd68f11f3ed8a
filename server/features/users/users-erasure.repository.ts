// The SQL of a deleted person's erasure (issue 23): set-based statements on indexed columns, in the delete's
// transaction. What each replaces with what is decided by users-erasure.model.ts.
import { sql, type Transaction } from 'kysely';
import type { Database, InvitationRow } from '../../db/schema.ts';
import type { Pseudonym } from './users-erasure.model.ts';

type Trx = Transaction<Database>;

/** The person's number: the one recorded if they were erased before, else the sequence's next one, recorded. */
export async function pseudonymNumber(trx: Trx, userId: string): Promise<number> {
  await sql`insert into erased_persons (user_id, number) values (${userId}::uuid, nextval('erased_person_numbers')) on conflict (user_id) do nothing`.execute(trx);
  const { rows } = await sql<{ number: string | number }>`select number from erased_persons where user_id = ${userId}::uuid`.execute(trx);
  return Number(rows[0]!.number);
}

/**
 * The addresses the person had before (their e-mail, as the journal's entries about them recorded it: created,
 * changed, confirmed; never an address only asked for, which may be anyone's), each with the moment they left it,
 * other than `current` and other than any held now by someone else (as e-mail or awaiting confirmation): the
 * e-mails sent there, and the requests made there before they left it, are theirs too. Read before the journal is
 * erased. Through the entity index; the users are read only for a person whose address changed (pending_email has
 * no index: a scan, on those rare deletes only).
 */
export async function formerAddressesOf(trx: Trx, userId: string, current: readonly string[]): Promise<{ address: string; until: Date }[]> {
  const { rows } = await sql<{ address: string; until: Date }>`
    select lower(v.address) as address, max(a.at) filter (where lower(a.changes -> 'email' ->> 'before') = lower(v.address)) as until
    from audit_log a,
      lateral (values (a.changes -> 'email' ->> 'before'), (a.changes -> 'email' ->> 'after'),
        (case when jsonb_typeof(a.changes -> 'email') = 'string' then a.changes ->> 'email' end)) as v (address)
    where a.entity_type = 'user' and a.entity_id = ${userId} and v.address like '%@%' and lower(v.address) <> all(${current}::text[])
    group by lower(v.address)`.execute(trx);
  // An address they left has its change's entry; one without (never theirs for sure) is left alone.
  const former = rows.filter((r) => r.until !== null).map((r) => ({ address: r.address, until: new Date(r.until) }));
  if (former.length === 0) return [];
  const addresses = former.map((f) => f.address);
  const { rows: held } = await sql<{ address: string }>`
    select lower(email) as address from users where lower(email) = any(${addresses}::text[]) and id <> ${userId}::uuid
    union select lower(pending_email) from users where pending_email is not null and lower(pending_email) = any(${addresses}::text[]) and id <> ${userId}::uuid`.execute(trx);
  const others = new Set(held.map((r) => r.address));
  return former.filter((f) => !others.has(f.address));
}

/** The requests made to an address the person had, before they left it, for no other account: theirs (by the invitee e-mail index). */
export async function requestsAtFormerAddresses(trx: Trx, userId: string, former: readonly { address: string; until: Date }[]): Promise<string[]> {
  if (former.length === 0) return [];
  const { rows } = await sql<{ id: string }>`
    select i.id::text as id from invitations i
      join unnest(${former.map((f) => f.address)}::text[], ${former.map((f) => f.until.toISOString())}::timestamptz[]) as f (address, until)
        on lower(i.invitee_email) = f.address and i.created_at <= f.until
    where i.invitee_user_id is null or i.invitee_user_id = ${userId}::uuid`.execute(trx);
  return rows.map((r) => r.id);
}

/** How a request names the person as invitee: their account, their address, or one of these requests (requestsAtFormerAddresses). */
export interface InviteeKeys {
  addresses: readonly string[];
  requestIds: readonly string[];
}

/** The requests that name the person as invitee: made to one of their addresses, or to the account they held then. */
const namingInvitee = (userId: string, invitee: InviteeKeys) =>
  sql<boolean>`(invitee_user_id = ${userId}::uuid or lower(invitee_email) = any(${invitee.addresses}::text[]) or id = any(${invitee.requestIds}::bigint[]))`;

/** Cancels the pending requests the person made or that name them as invitee; answers them (each to be journaled). */
export async function cancelPendingRequestsOf(trx: Trx, userId: string, invitee: InviteeKeys, by: { userId: string | null; email: string }, reason: string): Promise<InvitationRow[]> {
  const { rows } = await sql<InvitationRow>`
    update invitations set status = 'CANCELLED', cancelled_by_user_id = ${by.userId}::uuid, cancelled_by_email = ${by.email},
      cancellation_reason = ${reason}, processed_at = greatest(now(), created_at)
    where status = 'PENDING' and (sender_user_id = ${userId}::uuid or ${namingInvitee(userId, invitee)})
    returning *`.execute(trx);
  return rows;
}

/** Entries changed per statement: each statement stays far within the API's statement timeout (5 s) under load. */
export const ERASURE_BATCH = 2_000;

const batches = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / ERASURE_BATCH) }, (_, i) => items.slice(i * ERASURE_BATCH, (i + 1) * ERASURE_BATCH));

/**
 * The journal: the entries the person wrote name them by the pseudonym, without their e-mail; the entries about
 * them (as the user concerned, or as the invitee of a request) name them by it, with every personal value of
 * their changes replaced. Each entry's search texts are written again from what it keeps. The entries are found
 * through the author and entity indexes, then changed by id, ERASURE_BATCH at a time, all in the caller's
 * transaction. Answers how many entries changed (an entry both by and about them counts twice).
 */
export async function eraseJournal(trx: Trx, userId: string, invitee: InviteeKeys, p: Pseudonym): Promise<number> {
  const authored = await sql<{ id: number }>`select id from audit_log where actor_id = ${userId}::uuid`.execute(trx);
  for (const ids of batches(authored.rows.map((r) => r.id))) {
    await sql`
      update audit_log set actor_name = ${p.name}, actor_email = null,
        search_text = concat_ws(' ', ${p.searchText}::text, nullif(coalesce(subject_search_text, search_fold(subject_name)), ''))
      where id = any(${ids}::bigint[])`.execute(trx);
  }
  const requests = await sql<{ id: string }>`select id::text as id from invitations where ${namingInvitee(userId, invitee)}`.execute(trx);
  const about = await sql<{ id: number }>`
    select id from audit_log
    where (entity_type = 'user' and entity_id = ${userId}) or (entity_type = 'invitation' and entity_id = any(${requests.rows.map((r) => r.id)}::text[]))`.execute(trx);
  for (const ids of batches(about.rows.map((r) => r.id))) {
    await sql`
      update audit_log set subject_name = ${p.name}, subject_search_text = ${p.searchText},
        changes = case when changes ?| ${Object.keys(p.replacements)}::text[] then erase_personal_changes(changes, ${JSON.stringify(p.replacements)}::jsonb) else changes end,
        search_text = concat_ws(' ', search_fold(actor_name), search_fold(actor_email), ${p.searchText}::text)
      where id = any(${ids}::bigint[])`.execute(trx);
  }
  return authored.rows.length + about.rows.length;
}

/** The requests: the person's address and profile as invitee, their address as requester (the request's recorded `metadata.senderEmail` too), decider or canceller, replaced by the pseudonym. */
export async function eraseRequests(trx: Trx, userId: string, invitee: InviteeKeys, name: string): Promise<number> {
  const result = await sql`
    update invitations set
      invitee_email = case when ${namingInvitee(userId, invitee)} then ${name} else invitee_email end,
      metadata = (case when ${namingInvitee(userId, invitee)} then metadata - 'userProfile' else metadata end)
        || case when sender_user_id = ${userId}::uuid and jsonb_typeof(metadata -> 'senderEmail') = 'string' then jsonb_build_object('senderEmail', ${name}::text) else '{}'::jsonb end,
      sender_email = case when sender_user_id = ${userId}::uuid then ${name} else sender_email end,
      validator_email = case when validator_user_id = ${userId}::uuid then ${name} else validator_email end,
      cancelled_by_email = case when cancelled_by_user_id = ${userId}::uuid then ${name} else cancelled_by_email end
    where ${namingInvitee(userId, invitee)} or sender_user_id = ${userId}::uuid or validator_user_id = ${userId}::uuid or cancelled_by_user_id = ${userId}::uuid`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The outbox: the person's e-mails not sent (pending, failed) are dropped; those sent stay until the outbox's
 * retention, their address and body replaced; the e-mails to others that quote one of their addresses have it
 * replaced by the pseudonym (`pattern`: users-erasure.model.ts addressesPattern). The person's e-mails are those to
 * `addresses`, and at the address they asked for (`pending`) the confirmation links' e-mails naming `email`, theirs.
 */
export async function eraseMail(
  trx: Trx,
  person: { addresses: readonly string[]; email: string; pending: string | null },
  pattern: string,
  p: { name: string; body: string },
): Promise<{ dropped: number; stripped: number }> {
  const theirs = sql<boolean>`(lower(recipient) = any(${person.addresses}::text[])
    or (lower(recipient) = lower(${person.pending}::text) and kind = 'email.change.confirm' and strpos(lower(body), lower(${person.email})) > 0))`;
  const dropped = await trx.deleteFrom('outbox').where(theirs).where('status', 'in', ['PENDING', 'FAILED']).executeTakeFirst();
  const stripped = await trx.updateTable('outbox').set({ recipient: p.name, body: p.body }).where(theirs).executeTakeFirst();
  await sql`update outbox set body = regexp_replace(body, ${pattern}, ${p.name}, 'gi') where body ~* ${pattern}`.execute(trx);
  return { dropped: Number(dropped.numDeletedRows), stripped: Number(stripped.numUpdatedRows) };
}

/**
 * The searches recorded with the exports' filters (entity 'export') that hold one of `terms` (users-erasure.model.ts
 * namingTerms), replaced by `erased`: the entry still says a search was made. Found through the entity index.
 */
export async function eraseRecordedSearches(trx: Trx, terms: readonly string[], erased: string): Promise<number> {
  if (terms.length === 0) return 0;
  const result = await sql`
    update audit_log set changes = jsonb_set(changes, '{filters,search}', to_jsonb(${erased}::text))
    where entity_type = 'export' and jsonb_typeof(changes -> 'filters' -> 'search') = 'string'
      and exists (select 1 from unnest(${terms}::text[]) as t (term) where strpos(search_fold(changes -> 'filters' ->> 'search'), t.term) > 0)`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** The reports of actions on many users: the person's name as the report kept it, and their e-mail, replaced. */
export async function eraseBulkReports(trx: Trx, userId: string, name: string): Promise<void> {
  await trx
    .updateTable('bulk_action_targets')
    .set({ name: sql<string | null>`case when name is null then null else ${name} end`, email: null })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * The users list's ranges by name (migration 0004) start at a user's folded name: once the person's row is
 * deleted, a range starting at them starts at the next user's instead (none sorts between them now), or goes
 * when that user is past the next range (it holds nobody). Its counts are left as the delete's trigger set them.
 */
export async function eraseNameRangeStart(trx: Trx, userId: string): Promise<void> {
  await sql`
    with mine as (select start_key, start_id from user_name_ranges where start_id = ${userId}::uuid and start_key <> '' for update),
    next_user as (
      select lower(u.last_name || u.first_name) as k, u.id from users u, mine m
      where (lower(u.last_name || u.first_name), u.id) > (m.start_key, m.start_id) order by lower(u.last_name || u.first_name), u.id limit 1),
    next_range as (
      select r.start_key, r.start_id from user_name_ranges r, mine m
      where (r.start_key, r.start_id) > (m.start_key, m.start_id) order by r.start_key, r.start_id limit 1),
    moved as (
      update user_name_ranges r set start_key = nu.k, start_id = nu.id from mine m, next_user nu
      where r.start_key = m.start_key and r.start_id = m.start_id
        and not exists (select 1 from next_range nr where (nr.start_key, nr.start_id) <= (nu.k, nu.id))
      returning 1)
    delete from user_name_ranges r using mine m
    where r.start_key = m.start_key and r.start_id = m.start_id and not exists (select 1 from moved)`.execute(trx);
}
