// A decision on a request (approve, reject): the request locked and, if still pending, decided, in one statement;
// for an approval, with what it gives and to whom (the organization, the role, the invitee's account locked).
// A decision is a few statements in all (invitations.service.ts), each a round trip of every approval.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database, InvitationRow, OrganizationType, UserType } from '../../db/schema.ts';
import { INVITATION_COLUMNS, type OrganizationRef, type RoleRef } from './invitations.repository.ts';

export interface Decider {
  userId: string;
  email: string;
}

export type DecisionValues = { status: 'APPROVED' } | { status: 'REJECTED'; rejection_reason: string };

/** A request as found (locked), and as decided: null when it was not pending any more (another decider won). */
export interface Decision {
  found: InvitationRow;
  decided: InvitationRow | null;
}

/** What an approval gives, and to whom: missing ones null (the invitee's account, when found, is locked). */
export interface ApprovalDecision extends Decision {
  organization: OrganizationRef | null;
  role: Omit<RoleRef, 'type'> | null;
  invitee: { id: string; user_type: UserType; first_name: string; last_name: string } | null;
}

/** The fields a decision changes: the decided row is the found one with these. */
const DECIDED_COLUMNS = ['status', 'validator_user_id', 'validator_email', 'processed_at', 'rejection_reason'] as const;

/**
 * The statement's first part: the request locked (`found`), then decided by a conditional UPDATE (… WHERE status =
 * 'PENDING'), so that of two deciders, on one process or several, exactly one wins: the second waits for the first's
 * lock, then finds it decided. Both see the request as it was before the statement (`found`); a refusal the caller
 * then finds in `found` (an expired request, a move the machine refuses) rolls the decision back with the transaction.
 */
function deciding(id: number, decider: Decider, values: DecisionValues): RawBuilder<unknown> {
  const reason = values.status === 'REJECTED' ? values.rejection_reason : null;
  return sql`with found as (
      select ${sql.join(INVITATION_COLUMNS.map((c) => sql.ref(c)))} from invitations where id = ${id} for update
    ), decided as (
      update invitations as i set status = ${values.status}, validator_user_id = ${decider.userId}, validator_email = ${decider.email},
        rejection_reason = coalesce(${reason}::text, i.rejection_reason),
        -- Never before the request (invitations_processed_after_created), whatever the clocks.
        processed_at = greatest(now(), i.created_at)
      from found as f where i.id = f.id and i.status = 'PENDING'
      returning ${sql.join(DECIDED_COLUMNS.map((c) => sql.ref(`i.${c}`)))}
    )`;
}

type DecidedColumns = { [K in (typeof DECIDED_COLUMNS)[number] as `d_${K}`]: InvitationRow[K] } & { d_decided: boolean };

const decidedSelect = sql.join([...DECIDED_COLUMNS.map((c) => sql`d.${sql.ref(c)} as ${sql.ref(`d_${c}`)}`), sql`d.status is not null as d_decided`]);

function decisionOf(row: InvitationRow & DecidedColumns): Decision {
  const found = Object.fromEntries(INVITATION_COLUMNS.map((c) => [c, row[c]])) as InvitationRow;
  const decided = row.d_decided ? { ...found, ...Object.fromEntries(DECIDED_COLUMNS.map((c) => [c, row[`d_${c}`]])) } : null;
  return { found, decided };
}

/** A rejection (or any decision without a grant): null when no request has this id. */
export async function decideRequest(trx: Transaction<Database>, id: number, decider: Decider, values: DecisionValues): Promise<Decision | null> {
  const { rows } = await sql<InvitationRow & DecidedColumns>`${deciding(id, decider, values)}
    select f.*, ${decidedSelect} from found as f left join decided as d on true`.execute(trx);
  return rows[0] ? decisionOf(rows[0]) : null;
}

interface ApprovalColumns {
  o_id: string | null;
  o_code: string;
  o_name: string;
  o_type: OrganizationType;
  o_member: boolean;
  o_closed: boolean;
  r_id: number | null;
  r_code: string;
  r_name: string;
  p_id: string | null;
  p_user_type: UserType;
  p_first_name: string;
  p_last_name: string;
}

/**
 * An approval: the request decided as decideRequest does, with its organization (by id), its role (by id, else by
 * its code) and the invitee's account (by e-mail, locked: it cannot be deleted or changed under the approval), in
 * one statement; null when no request has this id.
 */
export async function decideApproval(trx: Transaction<Database>, id: number, decider: Decider): Promise<ApprovalDecision | null> {
  const { rows } = await sql<InvitationRow & DecidedColumns & ApprovalColumns>`${deciding(id, decider, { status: 'APPROVED' })}
    select f.*, ${decidedSelect},
      o.id as o_id, o.code as o_code, o.name as o_name, o.type as o_type, o.member as o_member, o.closed as o_closed,
      r.id as r_id, r.code as r_code, r.name as r_name,
      p.id as p_id, p.user_type as p_user_type, p.first_name as p_first_name, p.last_name as p_last_name
    from found as f
    left join decided as d on true
    left join organizations as o on o.id = f.organization_id
    left join lateral ((select id, code, name from roles where id = f.role_id) union all (select id, code, name from roles where code = f.role_code) limit 1) as r on true
    left join lateral (select u.id, u.user_type, u.first_name, u.last_name from users as u where lower(u.email) = lower(f.invitee_email) for update) as p on true`.execute(trx);
  const row = rows[0];
  if (!row) return null;
  return {
    ...decisionOf(row),
    organization: row.o_id === null ? null : { id: row.o_id, code: row.o_code, name: row.o_name, type: row.o_type, member: row.o_member, closed: row.o_closed },
    role: row.r_id === null ? null : { id: row.r_id, code: row.r_code, name: row.r_name },
    invitee: row.p_id === null ? null : { id: row.p_id, user_type: row.p_user_type, first_name: row.p_first_name, last_name: row.p_last_name },
  };
}
