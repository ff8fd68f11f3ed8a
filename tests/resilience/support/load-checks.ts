// What the database must hold after the load, lane by lane: every acknowledged write, whole, and nothing
// beyond what was sent. Answers a list of discrepancies (empty when all is well).
import type { OwnDatabase } from './database.ts';
import { REJECTION_REASON, type Lane, type WriteKind } from './load-mix.ts';

interface UserRow {
  id: string;
  version: number;
  job_title: string | null;
  is_active: boolean;
  updates: number;
  deactivations: number;
  reactivations: number;
  role_changes: number;
  holds_invited_role: boolean;
}

interface InvitationRow {
  id: number;
  invitee_email: string;
  status: string;
  rejection_reason: string | null;
  creations: number;
  approvals: number;
  rejections: number;
}

const between = (lane: Lane, kind: WriteKind, found: number) =>
  found >= lane.acked[kind] && found <= lane.sent[kind] ? null : `lane ${lane.index}: ${found} ${kind} in the audit trail, ${lane.acked[kind]} acknowledged and ${lane.sent[kind]} sent`;

export async function checkLanes(database: OwnDatabase, lanes: readonly Lane[], initialVersions: ReadonlyMap<string, number>, invited: { role: string; siret: string }): Promise<string[]> {
  const users = await database.query<UserRow>(
    `select u.id, u.version, u.job_title, u.is_active,
            count(a.id) filter (where a.action = 'user.update')::int as updates,
            count(a.id) filter (where a.action = 'user.deactivate')::int as deactivations,
            count(a.id) filter (where a.action = 'user.reactivate')::int as reactivations,
            count(a.id) filter (where a.action = 'user.roles')::int as role_changes,
            exists (select 1 from role_assignments ra join roles r on r.id = ra.role_id join organizations o on o.id = ra.organization_id
                    where ra.user_id = u.id and r.code = $2 and o.code = $3) as holds_invited_role
       from users u left join audit_log a on a.entity_type = 'user' and a.entity_id = u.id::text
      where u.id = any($1::uuid[])
      group by u.id`,
    [lanes.map((l) => l.user.id), invited.role, invited.siret],
  );
  const invitations = await database.query<InvitationRow>(
    `select i.id::int as id, i.invitee_email, i.status, i.rejection_reason,
            count(a.id) filter (where a.action = 'invitation.create')::int as creations,
            count(a.id) filter (where a.action = 'invitation.approve')::int as approvals,
            count(a.id) filter (where a.action = 'invitation.reject')::int as rejections
       from invitations i left join audit_log a on a.entity_type = 'invitation' and a.entity_id = i.id::text
      where lower(i.invitee_email) = any($1::text[])
      group by i.id`,
    [lanes.map((l) => l.user.email.toLowerCase())],
  );
  const problems: string[] = [];
  const note = (problem: string | null) => problem && problems.push(problem);
  for (const lane of lanes) {
    const user = users.find((u) => u.id === lane.user.id);
    if (!user) {
      problems.push(`lane ${lane.index}: user ${lane.user.id} is gone`);
      continue;
    }
    note(between(lane, 'update', user.updates));
    note(between(lane, 'deactivate', user.deactivations));
    note(between(lane, 'reactivate', user.reactivations));
    note(between(lane, 'approve', user.role_changes));
    // The last title acknowledged, or a later one whose answer the end of the load cut off.
    const titles = lane.sent.update > lane.acked.update ? [lane.lastAckedTitle, lane.lastSentTitle] : [lane.lastAckedTitle];
    if (!titles.includes(user.job_title)) problems.push(`lane ${lane.index}: job title '${user.job_title}', expected ${titles.map((t) => `'${t}'`).join(' or ')}`);
    // Whole writes: one version per change, each with its audit entry; the row agrees with the trail.
    const changes = user.updates + user.deactivations + user.reactivations + user.role_changes;
    if (user.version - initialVersions.get(user.id)! !== changes) problems.push(`lane ${lane.index}: version moved by ${user.version - initialVersions.get(user.id)!} for ${changes} audited changes`);
    if (user.is_active !== (user.deactivations === user.reactivations)) problems.push(`lane ${lane.index}: isActive ${user.is_active} after ${user.deactivations} deactivations and ${user.reactivations} reactivations`);
    if (lane.acked.approve > 0 && !user.holds_invited_role) problems.push(`lane ${lane.index}: approved ${lane.acked.approve} times, but does not hold ${invited.role} on ${invited.siret}`);

    const own = invitations.filter((i) => i.invitee_email.toLowerCase() === lane.user.email.toLowerCase());
    note(between(lane, 'create', own.length));
    for (const invitation of own) if (invitation.creations !== 1) problems.push(`invitation ${invitation.id}: ${invitation.creations} creation entries`);
    const byId = new Map(own.map((i) => [i.id, i]));
    for (const id of lane.created) if (!byId.has(id)) problems.push(`lane ${lane.index}: invitation ${id} acknowledged (201) but missing`);
    for (const id of lane.approved) {
      const i = byId.get(id);
      if (i?.status !== 'APPROVED' || i.approvals !== 1) problems.push(`lane ${lane.index}: invitation ${id} approved (200) but ${i?.status} with ${i?.approvals} approval entries`);
    }
    for (const id of lane.rejected) {
      const i = byId.get(id);
      if (i?.status !== 'REJECTED' || i.rejection_reason !== REJECTION_REASON || i.rejections !== 1) {
        problems.push(`lane ${lane.index}: invitation ${id} rejected (200) but ${i?.status} ('${i?.rejection_reason}', ${i?.rejections} rejection entries)`);
      }
    }
    const decided = own.filter((i) => i.status !== 'PENDING');
    note(decided.length >= lane.acked.approve + lane.acked.reject && decided.length <= lane.sent.approve + lane.sent.reject ? null : `lane ${lane.index}: ${decided.length} decided invitations`);
  }
  return problems;
}
