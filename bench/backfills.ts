// Whether a benchmark database's backfills are through: the server's jobs fill in, in short batches, what a migration
// added to the rows already there (migration 0019's folded search copy, 0039's words, 0040's roles and 0041's
// overlapping words of the users, 0014's person search text of the journal, 0028's actions beside the journal's
// organizations). A database seeded before such a migration is filled in by the
// server that the benchmark starts, during the measures: its figures would be those of a database being rewritten
// (2026-11-27: 4.6 million journal entries and 581,000 users were being filled in during the 10M journal's runs).
import type pg from 'pg';

export interface BackfillState {
  /** migration 0019: user_search_backfill.done */
  userSearchDone: boolean;
  /** migration 0039: user_search_words_backfill.done */
  userWordsDone: boolean;
  /** migration 0040: user_search_roles_backfill.done */
  userRolesDone: boolean;
  /** migration 0041: user_search_overlaps_backfill.done */
  userOverlapsDone: boolean;
  /** migration 0014: the job has gone through the entries up to this id; the journal's newest entry (the job walks up to it) */
  subjectSearchThrough: number;
  newestEntry: number;
  /** Whether an entry after that id lacks it (entries the server wrote since are filled in as they are written). */
  subjectSearchUnfilled: boolean;
  /** migration 0028: copied up to done_through, of upto */
  organizationActionsThrough: number;
  organizationActionsUpto: number;
}

export async function readBackfills(client: pg.Client): Promise<BackfillState> {
  const { rows } = await client.query(`select
      coalesce((select done from user_search_backfill), true) as user_search_done,
      coalesce((select done from user_search_words_backfill), true) as user_words_done,
      coalesce((select done from user_search_roles_backfill), true) as user_roles_done,
      coalesce((select done from user_search_overlaps_backfill), true) as user_overlaps_done,
      coalesce((select done_through from audit_backfills where name = 'subject_search_text'), 0) as subject_through,
      coalesce((select max(id) from audit_log), 0) as newest_entry,
      exists (select 1 from audit_log where id > coalesce((select done_through from audit_backfills where name = 'subject_search_text'), 0)
                and subject_search_text is null) as subject_unfilled,
      coalesce((select done_through from audit_backfills where name = 'organization_action'), 0) as actions_through,
      coalesce((select upto from audit_backfills where name = 'organization_action'), 0) as actions_upto`);
  const r = rows[0];
  return {
    userSearchDone: Boolean(r.user_search_done),
    userWordsDone: Boolean(r.user_words_done),
    userRolesDone: Boolean(r.user_roles_done),
    userOverlapsDone: Boolean(r.user_overlaps_done),
    subjectSearchThrough: Number(r.subject_through),
    newestEntry: Number(r.newest_entry),
    subjectSearchUnfilled: Boolean(r.subject_unfilled),
    organizationActionsThrough: Number(r.actions_through),
    organizationActionsUpto: Number(r.actions_upto),
  };
}

/** The backfills not through, each with how to finish it at once. Pure. */
export function pendingBackfills(state: BackfillState): string[] {
  const pending: string[] = [];
  if (!state.userSearchDone) {
    pending.push("the users' search copy (migration 0019; bench/seed-sql.ts's 'search counts' step finishes it)");
  }
  if (!state.userWordsDone) {
    pending.push("the users' search words (migration 0039: select rebuild_search_words(), bench/seed-sql.ts's 'search words' step)");
  }
  if (!state.userRolesDone) {
    pending.push("the users' roles on their search rows and words (migration 0040: select rebuild_search_roles(), bench/seed-sql.ts's 'search words' step)");
  }
  if (!state.userOverlapsDone) {
    pending.push("the users' overlapping words (migration 0041: select backfill_search_overlaps(after, 10000) in batches until it answers null, about 2 minutes at 1M)");
  }
  if (state.subjectSearchUnfilled) {
    pending.push(`the journal's person search text, entries ${state.subjectSearchThrough + 1} to ${state.newestEntry} (migration 0014: select backfill_audit_subject_search(after, upto) in batches)`);
  }
  if (state.organizationActionsThrough < state.organizationActionsUpto) {
    pending.push(`the journal's actions beside its organizations, entries ${state.organizationActionsThrough + 1} to ${state.organizationActionsUpto} (migration 0028: select backfill_audit_organization_action(after, upto) in batches)`);
  }
  return pending;
}
