// What the search benchmark reads from the database (issue 20): the vocabulary its terms are drawn from, the
// no-match candidates checked, every user once (the independent count of each term's matches), and the filters.
import type pg from 'pg';
import { caseOnly, MatchCounter, noMatchCandidates, type Vocabulary } from './search-terms.ts';

/** Users drawn (repeatably) for full names, e-mails and local parts. */
const PEOPLE_SAMPLE = 2_000;

export async function readVocabulary(client: pg.Client): Promise<Vocabulary> {
  const counted = async (expression: string) =>
    (await client.query(`select ${expression} as value, count(*)::int as count from users group by 1 order by 2 desc, 1`)).rows as { value: string; count: number }[];
  const firstNames = await counted('first_name');
  const lastNames = await counted('last_name');
  const domains = await counted(`lower(split_part(email, '@', 2))`);
  const people = (
    await client.query(`select first_name, last_name, email from users order by md5(id::text || ':search-terms') limit ${PEOPLE_SAMPLE}`)
  ).rows.map((r) => ({ firstName: r.first_name as string, lastName: r.last_name as string, email: r.email as string }));
  return { firstNames, lastNames, domains, people };
}

/** `want` no-match terms: candidates absent from the vocabulary that SQL finds in no user's name nor e-mail. */
export async function checkedNoMatch(client: pg.Client, vocabulary: Vocabulary, want: number, seed: number): Promise<string[]> {
  const found: string[] = [];
  for (const candidate of noMatchCandidates(vocabulary, want * 3, seed)) {
    if (found.length >= want) break;
    const pattern = `%${candidate}%`;
    const hit = await client.query(
      `select exists (select 1 from users where lower(first_name || ' ' || last_name) like $1 or lower(email) like $1) as hit`,
      [pattern],
    );
    if (!hit.rows[0].hit) found.push(candidate);
  }
  return found;
}

/**
 * Each term's number of matching users (fold and substring, search-terms.ts), and as many with case only ignored
 * (what a search keeping accents finds), every user read once through a cursor.
 */
export async function expectedTotals(client: pg.Client, terms: readonly string[], options: { activeOnly: boolean }): Promise<{ folded: number[]; caseOnly: number[] }> {
  const counter = new MatchCounter(terms);
  const caseOnlyCounter = new MatchCounter(terms, caseOnly);
  await client.query('begin read only');
  try {
    await client.query(`declare all_users no scroll cursor for select first_name, last_name, email from users${options.activeOnly ? ' where is_active' : ''}`);
    for (;;) {
      const { rows } = await client.query('fetch 20000 from all_users');
      if (rows.length === 0) break;
      for (const row of rows) {
        const user = { firstName: row.first_name, lastName: row.last_name, email: row.email };
        counter.add(user);
        caseOnlyCounter.add(user);
      }
    }
  } finally {
    await client.query('rollback');
  }
  return { folded: counter.counts(), caseOnly: caseOnlyCounter.counts() };
}

export interface SearchFilters {
  siren: { id: string; code: string };
  siret: { id: string; code: string };
  role: string;
}

/** The SIRET holding the most assignments, its SIREN, and the most held external role: the largest filtered lists. */
export async function pickFilters(client: pg.Client): Promise<SearchFilters> {
  const siret = (
    await client.query(
      `select o.id, o.code, o.parent_id from (select organization_id, count(*) as n from role_assignments group by 1) ra
       join organizations o on o.id = ra.organization_id and o.type = 'SIRET' and o.parent_id is not null
       order by ra.n desc, o.code limit 1`,
    )
  ).rows[0] as { id: string; code: string; parent_id: string } | undefined;
  if (!siret) throw new Error('no SIRET holds an assignment: seed the database again');
  const siren = (await client.query('select id, code from organizations where id = $1', [siret.parent_id])).rows[0] as { id: string; code: string };
  const role = (
    await client.query(`select r.code from role_assignments ra join roles r on r.id = ra.role_id where r.type = 'EXTERNAL' group by r.code order by count(*) desc, r.code limit 1`)
  ).rows[0] as { code: string };
  return { siren, siret: { id: siret.id, code: siret.code }, role: role.code };
}
