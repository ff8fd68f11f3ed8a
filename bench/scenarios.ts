// The scenarios of issue 8: what each request asks, as whom, and on which rows (sampled from the data set).
import type pg from 'pg';
import { REFERENCE_DATE } from '../server/seed/seed-data.ts';

export type ScenarioKind = 'read' | 'write';

export interface Variant {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Scenario {
  name: string;
  title: string;
  kind: ScenarioKind;
  /** Email of the person the requests are made as. */
  as: string;
  /** The requests, taken in turn (a write uses each once). */
  variants: Variant[];
}

export const BACK_OFFICE = 'backoffice@portail.test';
export const ORGANIZATION_ADMIN = 'admin.clinique@portail.test';
/** Variants of the scenarios that vary their target (emails searched, SIRENs filtered, ids read). */
export const SAMPLE = 100;
/** The deep page: 40 % into the list (page 40,000 of 100,000 at 1M users and 10 a page). */
export const DEEP_PAGE_SHARE = 0.4;
export const REJECTION_REASON = 'Demande rejetée lors du test de charge.';

const PAGE = 'page=1&pageSize=10';

export interface ScenarioData {
  users: number;
  emails: string[];
  sirenFilters: { id: string; role: string }[];
  invitationIds: number[];
  userIds: string[];
  /** Journal entries (issue 21), and authors of entries drawn from the journal. */
  journalEntries: number;
  journalActorIds: string[];
  /** Pending invitations made for this run, one per write request. */
  approveIds: number[];
  rejectIds: number[];
}

export function buildScenarios(data: ScenarioData): Scenario[] {
  const deepPage = Math.max(1, Math.round((DEEP_PAGE_SHARE * data.users) / 10));
  const read = (name: string, title: string, as: string, paths: string[]): Scenario => ({ name, title, kind: 'read', as, variants: paths.map((path) => ({ method: 'GET', path })) });
  return [
    read('users-list', 'Users list, page 1', BACK_OFFICE, [`/api/v2/users?${PAGE}&includeInactive=true`]),
    read('users-search-common', "Users search 'mar'", BACK_OFFICE, [`/api/v2/users?${PAGE}&includeInactive=true&search=mar`]),
    read('users-search-email', 'Users search by an email', BACK_OFFICE, data.emails.map((email) => `/api/v2/users?${PAGE}&includeInactive=true&search=${encodeURIComponent(email)}`)),
    read('users-filter-siren-role', 'Users of a SIREN with a role', BACK_OFFICE, data.sirenFilters.map((f) => `/api/v2/users?${PAGE}&includeInactive=true&organizationId=${f.id}&roleCode=${f.role}`)),
    read('users-deep-page', `Users list, deep page (${deepPage.toLocaleString('en')})`, BACK_OFFICE, [`/api/v2/users?page=${deepPage}&pageSize=10&includeInactive=true`]),
    read('users-scoped', "An organization admin's users list", ORGANIZATION_ADMIN, [`/api/v2/users?${PAGE}&includeInactive=true`]),
    read('invitations-pending', 'Pending invitations list', BACK_OFFICE, [`/api/v2/invitations?status=pending&${PAGE}`]),
    ...homeScenarios(),
    read('invitation-detail', 'Invitation detail', BACK_OFFICE, data.invitationIds.map((id) => `/api/v2/invitations/${id}`)),
    read('user-full-details', 'User full details', BACK_OFFICE, data.userIds.map((id) => `/api/v2/users/${id}/full-details`)),
    // Issue 24: the request lifecycle's figures of the longest period, as the back office (every request) and as an
    // organization admin ('Mes demandes').
    read('workflow-figures-90', "The request lifecycle's figures, 90 days", BACK_OFFICE, ['/api/v2/workflows/request-lifecycle/figures?days=90']),
    read('workflow-figures-90-scoped', "An organization admin's request figures, 90 days", ORGANIZATION_ADMIN, ['/api/v2/workflows/request-lifecycle/figures?days=90']),
    // The account lifecycle's figures of 90 days: every account (kept totals, the journal's moves by action) and an
    // organization admin's (their users list's accounts, the journal's moves of their organizations).
    read('account-figures-90', "The account lifecycle's figures, 90 days", BACK_OFFICE, ['/api/v2/workflows/account-lifecycle/figures?days=90']),
    read('account-figures-90-scoped', "An organization admin's account figures, 90 days", ORGANIZATION_ADMIN, ['/api/v2/workflows/account-lifecycle/figures?days=90']),
    ...journalScenarios(data),
    { name: 'invitation-approve', title: 'Approve an invitation', kind: 'write', as: BACK_OFFICE, variants: data.approveIds.map((id) => ({ method: 'POST', path: `/api/v2/invitations/${id}/approve` })) },
    {
      name: 'invitation-reject',
      title: 'Reject an invitation',
      kind: 'write',
      as: BACK_OFFICE,
      variants: data.rejectIds.map((id) => ({ method: 'POST', path: `/api/v2/invitations/${id}/reject`, body: JSON.stringify({ rejectionReason: REJECTION_REASON }) })),
    },
  ];
}

/** The Accueil (issue 24): its one request, as the back office and as an organization admin, and the lists it links to. */
export function homeScenarios(): Scenario[] {
  const read = (name: string, title: string, as: string, paths: string[]): Scenario => ({ name, title, kind: 'read', as, variants: paths.map((path) => ({ method: 'GET', path })) });
  return [
    read('home-backoffice', "The back office's Accueil", BACK_OFFICE, ['/api/v2/home']),
    read('home-organization-admin', "An organization admin's Accueil", ORGANIZATION_ADMIN, ['/api/v2/home']),
    read('users-setup-link-expired', 'Users whose set-up link expired', BACK_OFFICE, [`/api/v2/users?${PAGE}&includeInactive=true&accountState=setupLinkExpired`]),
    read('users-invitation-not-accepted-scoped', "An organization admin's users who never signed in", ORGANIZATION_ADMIN, [`/api/v2/users?${PAGE}&includeInactive=true&accountState=invitationNotAccepted`]),
    read('invitations-long-pending', 'Requests pending for more than 7 days', BACK_OFFICE, [`/api/v2/invitations?status=pending&waiting=longPending&${PAGE}`]),
  ];
}

/** A day 'YYYY-MM-DD' this many days before the data set's reference date. */
const dayBefore = (days: number) => new Date(REFERENCE_DATE.getTime() - days * 86_400_000).toISOString().slice(0, 10);

/** The journal's scenarios (issue 21): its pages and each of its filters, as the back office and as an organization admin. */
export function journalScenarios(data: Pick<ScenarioData, 'journalEntries' | 'userIds' | 'journalActorIds' | 'sirenFilters' | 'emails'>): Scenario[] {
  const read = (name: string, title: string, as: string, paths: string[]): Scenario => ({ name, title, kind: 'read', as, variants: paths.map((path) => ({ method: 'GET', path })) });
  const audit = (query: string) => `/api/v2/audit?${PAGE}${query}`;
  const deepPage = Math.max(1, Math.round((DEEP_PAGE_SHARE * data.journalEntries) / 10));
  return [
    read('journal-list', 'Journal, page 1', BACK_OFFICE, [audit('')]),
    read('journal-deep-page', `Journal, deep page (${deepPage.toLocaleString('en')})`, BACK_OFFICE, [`/api/v2/audit?page=${deepPage}&pageSize=10`]),
    read('journal-scoped', "An organization admin's journal", ORGANIZATION_ADMIN, [audit('')]),
    read('journal-user', "A user's history", BACK_OFFICE, data.userIds.map((id) => audit(`&userId=${id}`))),
    read('journal-actor', 'Journal of one author', BACK_OFFICE, data.journalActorIds.map((id) => audit(`&actorId=${id}`))),
    read('journal-actions', 'Journal, deactivations and reactivations', BACK_OFFICE, [audit('&action=user.deactivate,user.reactivate')]),
    read('journal-period', 'Journal, one week', BACK_OFFICE, [audit(`&from=${dayBefore(187)}&to=${dayBefore(181)}`)]),
    read('journal-siren', 'Journal of a SIREN', BACK_OFFICE, data.sirenFilters.map((f) => audit(`&organizationId=${f.id}`))),
    read('journal-search-email', 'Journal search by an email', BACK_OFFICE, data.emails.map((email) => audit(`&search=${encodeURIComponent(email)}`))),
    read('journal-search-common', "Journal search 'martin'", BACK_OFFICE, [audit('&search=martin')]),
    read('journal-scoped-filtered', "An organization admin's journal, role changes this year", ORGANIZATION_ADMIN, [audit(`&action=user.roles&from=${dayBefore(300)}`)]),
  ];
}

/** Rows the scenarios target, drawn at random but repeatably (setseed) from the data set. */
export async function sampleScenarioData(client: pg.Client, writes: number): Promise<ScenarioData> {
  await client.query('select setseed(0.42)');
  const users = Number((await client.query('select count(*) as n from users')).rows[0].n);
  const emails = (await client.query(`select email from users where user_type = 'ORGANIZATION' order by random() limit ${SAMPLE}`)).rows.map((r) => r.email as string);
  // The SIRENs of people drawn at random: large employers come up as often as their staff is large.
  const sirenFilters = (
    await client.query(
      `select distinct on (s.id) s.id, 'GESTIONNAIRE' as role
       from (select id from users where user_type = 'ORGANIZATION' order by random() limit ${SAMPLE * 2}) u
       join role_assignments ra on ra.user_id = u.id join organizations o on o.id = ra.organization_id
       join organizations s on s.id = coalesce(o.parent_id, o.id)
       limit ${SAMPLE}`,
    )
  ).rows.map((r) => ({ id: r.id as string, role: r.role as string }));
  // Not the requests an earlier run made for its writes: pendingForRun deletes those it left pending.
  const invitationIds = (await client.query(`select id from invitations where metadata ->> 'bench' is null order by random() limit ${SAMPLE}`)).rows.map((r) => Number(r.id));
  const userIds = (await client.query(`select id from users where user_type = 'ORGANIZATION' order by random() limit ${SAMPLE}`)).rows.map((r) => r.id as string);
  const journalEntries = Number((await client.query('select coalesce(sum(n), 0)::bigint as n from audit_counts')).rows[0].n);
  const journalActorIds = (await client.query(`select distinct actor_id from (select actor_id from audit_log where actor_id is not null order by random() limit ${SAMPLE * 3}) a limit ${SAMPLE}`)).rows.map((r) => r.actor_id as string);
  const approveIds = await pendingForRun(client, writes, 'approve');
  const rejectIds = await pendingForRun(client, writes, 'reject');
  return { users, emails, sirenFilters, invitationIds, userIds, journalEntries, journalActorIds, approveIds, rejectIds };
}

/**
 * `count` new PENDING role-assignment requests for this run: active organization people holding fewer than
 * 5 roles and no INTERNAL one, each asked an external role they do not hold, on their first establishment.
 * An approval then succeeds (at most 5 distinct roles) and changes nothing else.
 */
async function pendingForRun(client: pg.Client, count: number, purpose: string): Promise<number[]> {
  // Those an interrupted run left pending go first.
  await client.query(`delete from invitations where status = 'PENDING' and metadata ->> 'bench' = $1`, [purpose]);
  const rows = await client.query(
    `with candidates as (
       select u.id, u.email,
              (select min(h.organization_id::text)::uuid from role_assignments h join organizations o on o.id = h.organization_id and o.type = 'SIRET'
               where h.user_id = u.id) as organization_id
       from (select * from users where user_type = 'ORGANIZATION' and is_active order by random() limit ${count * 3}) u
       join role_assignments ra on ra.user_id = u.id
       join roles r on r.id = ra.role_id
       group by u.id, u.email
       having count(distinct ra.role_id) < 5 and bool_and(r.type = 'EXTERNAL')),
     asked as (
       select c.*, (select r.id from roles r where r.type = 'EXTERNAL' and r.code <> 'GESTIONNAIRE_ESAT'
                      and not exists (select 1 from role_assignments h where h.user_id = c.id and h.role_id = r.id)
                    order by r.id limit 1) as role_id
       from candidates c where c.organization_id is not null)
     insert into invitations (invitee_email, organization_id, organization_code, organization_name, role_id, role_code, role_name, status,
                              invitation_type, sender_email, metadata)
     select a.email, o.id, o.code, o.name, r.id, r.code, r.name, 'PENDING', 'ROLE_ASSIGNMENT', $1, jsonb_build_object('bench', $2::text)
     from asked a join organizations o on o.id = a.organization_id join roles r on r.id = a.role_id
     limit ${count}
     on conflict (lower(invitee_email), organization_code, role_code) where status = 'PENDING' do nothing
     returning id`,
    [BACK_OFFICE, purpose],
  );
  return rows.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Puts approved (or rejected) run invitations back to PENDING and removes the roles the approvals gave. */
export async function restoreWrites(client: pg.Client, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query(
    `delete from role_assignments ra using invitations i, users u
     where i.id = any($1::bigint[]) and i.status = 'APPROVED' and lower(u.email) = lower(i.invitee_email)
       and ra.user_id = u.id and ra.organization_id = i.organization_id and ra.role_id = i.role_id`,
    [ids],
  );
  await client.query(
    `update invitations set status = 'PENDING', processed_at = null, validator_user_id = null, validator_email = null, rejection_reason = null
     where id = any($1::bigint[])`,
    [ids],
  );
}
