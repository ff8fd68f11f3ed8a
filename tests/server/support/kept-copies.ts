// What triggers keep of the users, recounted from the users themselves: the totals by status (user_counts), the search
// copy (user_search, folded, migration 0019), the counts of its strings of one to three characters, its words and their
// counts (migration 0039), the roles on both and the counts within roles (migration 0040), the words' overlapping flags
// (migration 0041), and the sizes of the name ranges behind deep pages (migration 0004). Each answers the rows that
// differ: none when the kept copy is exact.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';

const differing = async (db: Kysely<Database>, query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(db)).rows[0]!.n;

/** Statuses whose kept total differs from the users counted. */
const statusTotalsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with kept as (select is_active, sum(n)::int as n from user_counts group by 1 having sum(n) <> 0),
           counted as (select is_active, count(*)::int as n from users group by 1)
      select count(*)::int as n from kept full join counted using (is_active) where kept.n is distinct from counted.n`,
  );

/** Users whose search copy is missing, left over, unfolded or not theirs. */
const searchCopiesDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from users u full join user_search s on s.id = u.id
      where s.id is null or u.id is null or s.is_active <> u.is_active or not s.folded
         or s.name <> search_fold(u.first_name || ' ' || u.last_name) or s.email <> search_fold(u.email)
         or s.name_key <> lower(u.last_name || u.first_name) or s.email_key <> lower(u.email) or s.last_login_at is distinct from u.last_login_at`,
  );

/** Strings whose kept count (everyone's, or the inactive users') differs from a count of the search copy. */
const gramCountsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with kept as (select gram, inactive_only, sum(n)::int as n from user_search_gram_counts group by 1, 2 having sum(n) <> 0),
           counted as (select x.gram, x.inactive_only, count(*)::int as n from user_search s
                       cross join lateral search_gram_rows(s.name, s.email, s.is_active) as x where s.folded group by 1, 2)
      select count(*)::int as n from kept full join counted using (gram, inactive_only) where kept.n is distinct from counted.n`,
  );

/** Words of users (migration 0039) missing, left over, or not written as their search copy is (its roles too, 0040). */
const searchWordsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with counted as (select w as word, s.id, s.is_active, s.name_key, s.email_key, s.roles from user_search s cross join lateral search_words(s.name, s.email) as w where s.folded)
      select count(*)::int as n from counted c full join user_search_words p using (word, id)
      where c.id is null or p.id is null or (c.is_active, c.name_key, c.email_key, c.roles) <> (p.is_active, p.name_key, p.email_key, p.roles)`,
  );

/**
 * Words (migration 0041) whose flag is not what their user's other words say: a word (not a phrase) of four characters
 * or more is flagged exactly when another such word of the same user holds one of its strings of four characters.
 */
const overlapsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with long as (select id, word from user_search_words where not search_phrase(word) and char_length(word) >= 4),
           wanted as (select p.id, p.word, exists (
             select 1 from long q where q.id = p.id and q.word <> p.word
               and exists (select 1 from generate_series(1, char_length(q.word) - 3) as i where position(substr(q.word, i, 4) in p.word) > 0)) as overlapping
             from long p)
      select count(*)::int as n from user_search_words p left join wanted w using (id, word)
      where p.overlapping <> coalesce(w.overlapping, false)`,
  );

/** Users whose search copy's roles (migration 0040) are not the roles they hold, sorted, each once. */
const searchRolesDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from user_search s
      where s.roles is distinct from (select coalesce(array_agg(distinct ra.role_id order by ra.role_id), '{}') from role_assignments ra where ra.user_id = s.id)`,
  );

/** Strings whose kept count within a role (everyone's, or the inactive users') differs from a count of the search copy. */
const gramRoleCountsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with kept as (select gram, role_id, inactive_only, sum(n)::int as n from user_search_gram_role_counts group by 1, 2, 3 having sum(n) <> 0),
           counted as (select x.gram, ro.role_id, x.inactive_only, count(*)::int as n from user_search s cross join lateral unnest(s.roles) as ro (role_id)
                       cross join lateral search_gram_rows(s.name, s.email, s.is_active) as x where s.folded group by 1, 2, 3)
      select count(*)::int as n from kept full join counted using (gram, role_id, inactive_only) where kept.n is distinct from counted.n`,
  );

/** Words whose kept count within a role differs from a count of the words' holders. */
const wordRoleCountsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with kept as (select word, role_id, inactive_only, sum(n)::int as n from user_search_word_role_counts group by 1, 2, 3 having sum(n) <> 0),
           counted as (select p.word, ro.role_id, k.inactive_only, count(*)::int as n from user_search_words p cross join lateral unnest(p.roles) as ro (role_id)
                       cross join (values (false), (true)) as k (inactive_only) where not k.inactive_only or not p.is_active group by 1, 2, 3)
      select count(*)::int as n from kept full join counted using (word, role_id, inactive_only) where kept.n is distinct from counted.n`,
  );

/** Words whose kept count (everyone's, or the inactive users') differs from a count of the words' holders. */
const wordCountsDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with kept as (select word, inactive_only, sum(n)::int as n from user_search_word_counts group by 1, 2 having sum(n) <> 0),
           counted as (select p.word, k.inactive_only, count(*)::int as n from user_search_words p cross join (values (false), (true)) as k (inactive_only)
                       where not k.inactive_only or not p.is_active group by 1, 2)
      select count(*)::int as n from kept full join counted using (word, inactive_only) where kept.n is distinct from counted.n`,
  );

/** Words or phrases nobody holds whose text the counts still keep (a person's name or e-mail after they left). */
const orphanWords = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`select count(distinct c.word)::int as n from (select word from user_search_word_counts union all select word from user_search_word_role_counts) as c
      where not exists (select 1 from user_search_words p where p.word = c.word)`,
  );

/** Name ranges whose kept sizes differ from the users between their start and the next range's. */
const rangeSizesDiffering = (db: Kysely<Database>) =>
  differing(
    db,
    sql<{ n: number }>`
      with r as (select start_key, start_id, n_active, n_inactive,
                        lead(start_key) over w as next_key, lead(start_id) over w as next_id
                 from user_name_ranges window w as (order by start_key, start_id))
      select count(*)::int as n from r
      cross join lateral (select count(*) filter (where u.is_active)::int as a, count(*) filter (where not u.is_active)::int as i from users u
                          where (lower(u.last_name || u.first_name), u.id) >= (r.start_key, r.start_id)
                            and (r.next_key is null or (lower(u.last_name || u.first_name), u.id) < (r.next_key, r.next_id))) as c
      where (c.a, c.i) <> (r.n_active::int, r.n_inactive::int)`,
  );

/** Every kept copy's differing rows, by copy: all zero when they are exact. */
export async function keptCopiesDiffering(db: Kysely<Database>) {
  return {
    statusTotals: await statusTotalsDiffering(db),
    searchCopies: await searchCopiesDiffering(db),
    gramCounts: await gramCountsDiffering(db),
    searchWords: await searchWordsDiffering(db),
    overlappingWords: await overlapsDiffering(db),
    wordCounts: await wordCountsDiffering(db),
    searchRoles: await searchRolesDiffering(db),
    gramRoleCounts: await gramRoleCountsDiffering(db),
    wordRoleCounts: await wordRoleCountsDiffering(db),
    orphanWords: await orphanWords(db),
    rangeSizes: await rangeSizesDiffering(db),
  };
}

export const EXACT = {
  statusTotals: 0,
  searchCopies: 0,
  gramCounts: 0,
  searchWords: 0,
  overlappingWords: 0,
  wordCounts: 0,
  searchRoles: 0,
  gramRoleCounts: 0,
  wordRoleCounts: 0,
  orphanWords: 0,
  rangeSizes: 0,
} as const;
