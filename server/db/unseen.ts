// Values a statement is run with that the planner does not look at: an initplan's result (`(select $1)`), read by
// an index as any parameter is, but unknown when the plan is made. A prepared statement whose plan is the same for
// any values (an organization caller's reach, an address searched) is then planned once per connection: seen, the
// values made PostgreSQL's plan for them look cheaper than its plan for any values (a list of ten, a default share of
// a range), and with plan_cache_mode auto it planned the statement again at every run.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { prefixRange } from './like.ts';

export const unseenText = (value: string): RawBuilder<string> => sql<string>`(select ${value}::text)`;
export const unseenIds = (ids: readonly string[]): RawBuilder<string[]> => sql<string[]>`((select ${[...ids]}::uuid[])::uuid[])`;
export const unseenTexts = (values: readonly string[]): RawBuilder<string[]> => sql<string[]>`((select ${[...values]}::text[])::text[])`;

/**
 * `part` starts with `prefix`, as a range of a text_pattern_ops index (prefixRange) whose bounds the planner does not
 * see: unlike LIKE 'prefix%', a range of parameters is what a plan kept for any values can read an index by.
 */
export function startsWith(part: RawBuilder<unknown>, prefix: string): RawBuilder<SqlBool> {
  const range = prefixRange(prefix);
  return range.to === null ? sql<SqlBool>`${part} ~>=~ ${unseenText(range.from)}` : sql<SqlBool>`(${part} ~>=~ ${unseenText(range.from)} and ${part} ~<~ ${unseenText(range.to)})`;
}
