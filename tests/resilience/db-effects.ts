// What a write leaves in the database, checked with SQL after a fault: each acknowledged write's whole effect,
// and, for every write the load made (acknowledged or not), all of its parts or none. Each check answers the
// rows that break it, as text, so that a failure names them.
import type pg from 'pg';
import type { Acknowledged } from './db-load.ts';

const rows = async <Row extends object>(c: pg.Client, text: string, values: unknown[] = []) => (await c.query<Row>(text, values)).rows;

/** The acknowledged writes whose effect is not all there. */
export async function findMissingEffects(c: pg.Client, acknowledged: Acknowledged): Promise<string[]> {
  const missing: string[] = [];

  for (const { userId, firstName } of acknowledged.updates) {
    const [found] = await rows<{ n: number }>(
      c,
      `select count(*)::int as n from audit_log where action = 'user.update' and entity_id = $1 and changes -> 'firstName' ->> 'after' = $2`,
      [userId, firstName],
    );
    if (found!.n !== 1) missing.push(`update of user ${userId} to '${firstName}': ${found!.n} audit entries`);
  }

  for (const { id, email, organizationId } of acknowledged.invitations) {
    const [found] = await rows<{ n: number; audits: number }>(
      c,
      `select count(*)::int as n,
              (select count(*)::int from audit_log a where a.action = 'invitation.create' and a.entity_id = $4) as audits
         from invitations where id = $1 and invitee_email = $2 and organization_id = $3`,
      [id, email, organizationId, String(id)],
    );
    if (found!.n !== 1 || found!.audits !== 1) missing.push(`invitation ${id} (${email}): ${found!.n} rows, ${found!.audits} audit entries`);
  }

  for (const { id, email } of acknowledged.approvals) {
    const [found] = await rows<{ status: string; granted: number; accounts: number; approvals: number; creations: number; mails: number }>(
      c,
      `select i.status,
              (select count(*)::int from users u join role_assignments ra on ra.user_id = u.id join roles r on r.id = ra.role_id
                 where lower(u.email) = lower($2) and r.code = i.role_code and ra.organization_id = i.organization_id) as granted,
              (select count(*)::int from users u join identity_accounts ia on ia.subject = u.auth_id where lower(u.email) = lower($2)) as accounts,
              (select count(*)::int from audit_log a where a.action = 'invitation.approve' and a.entity_id = $3) as approvals,
              (select count(*)::int from audit_log a where a.action = 'user.create' and a.changes ->> 'invitationId' = $3) as creations,
              (select count(*)::int from outbox o where lower(o.recipient) = lower($2) and o.kind = 'account.invitation') as mails
         from invitations i where i.id = $1`,
      [id, email, String(id)],
    );
    const whole = found && found.status === 'APPROVED' && found.granted === 1 && found.accounts === 1 && found.approvals === 1 && found.creations === 1 && found.mails === 1;
    if (!whole) missing.push(`approval of invitation ${id} (${email}): ${JSON.stringify(found ?? 'no invitation')}`);
  }

  for (const { userId, email, assignments } of acknowledged.creations) {
    const [found] = await rows<{ n: number; assignments: number; accounts: number; audits: number; mails: number }>(
      c,
      `select count(*)::int as n,
              (select count(*)::int from role_assignments ra where ra.user_id = $1) as assignments,
              (select count(*)::int from users u join identity_accounts ia on ia.subject = u.auth_id where u.id = $1) as accounts,
              (select count(*)::int from audit_log a where a.action = 'user.create' and a.entity_id = $3) as audits,
              (select count(*)::int from outbox o where lower(o.recipient) = lower($2) and o.kind = 'account.invitation') as mails
         from users where id = $1 and email = $2`,
      [userId, email, userId],
    );
    const whole = found!.n === 1 && found!.assignments === assignments && found!.accounts === 1 && found!.audits === 1 && found!.mails === 1;
    if (!whole) missing.push(`creation of user ${email} with ${assignments} assignments: ${JSON.stringify(found)}`);
  }
  return missing;
}

/** Writes of the load found in part: every one the load made, whatever it was answered. */
export async function findHalfApplied(c: pg.Client, initialVersions: Map<string, number>): Promise<string[]> {
  const broken: string[] = [];

  // An invitation: its creation audited once; approved with the account, the role, the audit entries, or pending with none of them.
  const invitations = await rows<{ id: number; email: string; status: string; created: number; approved: number; granted: number; accounts: number }>(
    c,
    `select i.id::int, i.invitee_email as email, i.status,
            (select count(*)::int from audit_log a where a.action = 'invitation.create' and a.entity_id = i.id::text) as created,
            (select count(*)::int from audit_log a where a.action = 'invitation.approve' and a.entity_id = i.id::text) as approved,
            (select count(*)::int from users u join role_assignments ra on ra.user_id = u.id join roles r on r.id = ra.role_id
               where lower(u.email) = lower(i.invitee_email) and r.code = i.role_code and ra.organization_id = i.organization_id) as granted,
            (select count(*)::int from users u where lower(u.email) = lower(i.invitee_email)) as accounts
       from invitations i where i.invitee_email like 'resilience.invite.%'`,
  );
  for (const i of invitations) {
    const done = i.status === 'APPROVED' ? i.approved === 1 && i.granted === 1 && i.accounts === 1 : i.status === 'PENDING' && i.approved === 0 && i.granted === 0 && i.accounts === 0;
    if (i.created !== 1 || !done) broken.push(`invitation ${JSON.stringify(i)}`);
  }

  // A created user: the creation audited, its identity account, its invitation e-mail, as many assignments as every other.
  const created = await rows<{ email: string; assignments: number; accounts: number; audits: number; mails: number }>(
    c,
    `select u.email,
            (select count(*)::int from role_assignments ra where ra.user_id = u.id) as assignments,
            (select count(*)::int from identity_accounts ia where ia.subject = u.auth_id) as accounts,
            (select count(*)::int from audit_log a where a.action = 'user.create' and a.entity_id = u.id::text) as audits,
            (select count(*)::int from outbox o where lower(o.recipient) = lower(u.email) and o.kind = 'account.invitation') as mails
       from users u where u.email like 'resilience.user.%'`,
  );
  const expectedAssignments = Math.max(0, ...created.map((u) => u.assignments));
  for (const u of created) {
    if (u.assignments !== expectedAssignments || u.accounts !== 1 || u.audits !== 1 || u.mails !== 1) broken.push(`created user ${JSON.stringify(u)}`);
  }

  // An updated user: one version per audited update, and the name of the last one.
  for (const [id, initial] of initialVersions) {
    const [u] = await rows<{ version: number; first_name: string; updates: number; last: string | null }>(
      c,
      `select u.version, u.first_name,
              (select count(*)::int from audit_log a where a.action = 'user.update' and a.entity_id = u.id::text) as updates,
              (select a.changes -> 'firstName' ->> 'after' from audit_log a where a.action = 'user.update' and a.entity_id = u.id::text order by a.id desc limit 1) as last
         from users u where u.id = $1`,
      [id],
    );
    if (!u || u.version - initial !== u.updates || (u.updates > 0 && u.first_name !== u.last)) broken.push(`updated user ${id}: ${JSON.stringify({ initial, ...u })}`);
  }

  // The list totals kept by triggers (migration 0004) equal the rows, by state.
  const counters = await rows<{ what: string; counted: number; kept: number }>(
    c,
    `select 'users ' || coalesce(r.is_active, k.is_active)::text as what, coalesce(r.n, 0)::int as counted, coalesce(k.n, 0)::int as kept
       from (select is_active, count(*) as n from users group by is_active) r
       full join (select is_active, sum(n) as n from user_counts group by is_active) k using (is_active)
     union all
     select 'invitations ' || coalesce(r.status, k.status), coalesce(r.n, 0)::int, coalesce(k.n, 0)::int
       from (select status, count(*) as n from invitations group by status) r
       full join (select status, sum(n) as n from invitation_counts group by status) k using (status)`,
  );
  for (const row of counters) if (row.counted !== row.kept) broken.push(`list counter ${row.what}: ${row.kept} kept, ${row.counted} rows`);
  return broken;
}
