// Which statements the PostgreSQL driver prepares once per connection (server/db/database.ts, issue 8).
import { beforeAll, describe, expect, it, vi } from 'vitest';

// The names are cached per process and capped (MAX_PREPARED): other test files run in the same worker
// (isolate: false) may have filled the cache, so these tests read a fresh copy of the module.
let PREPARE_ANYWAY: string;
let preparedName: (text: string) => string | null;
beforeAll(async () => {
  vi.resetModules();
  ({ PREPARE_ANYWAY, preparedName } = await import('../../../server/db/database.ts'));
});

describe('statements prepared once per connection', () => {
  it('names lookups whose plan does not depend on their values, the same text always under the same name', () => {
    const byAuthId = 'select "id", "email", "is_active", "user_type" from "users" where "auth_id" = $1';
    const name = preparedName(byAuthId);
    expect(name).toMatch(/^p[0-9a-f]{20}$/);
    expect(preparedName(byAuthId)).toBe(name);
    expect(preparedName(`${byAuthId} and "is_active"`)).not.toBe(name);
    expect(preparedName('select count(*) as "total" from "users" where "id" = $1')).not.toBeNull();
    expect(preparedName('select "id" from "users" order by "id" limit 10')).not.toBeNull();
  });

  it('plans every time searches, pages past the first, parameters as LIMIT, statements reading *, and transaction control', () => {
    for (const text of ['begin', 'commit', 'rollback', 'set local session_replication_role = replica']) expect(preparedName(text)).toBeNull();
    expect(preparedName('select "id" from "users" where lower(email) like lower($1)')).toBeNull();
    expect(preparedName('select "id" from "users" order by "id" limit 10 offset 40')).toBeNull();
    expect(preparedName('select "id" from "users" order by "id" limit $1')).toBeNull();
    expect(preparedName('select * from "invitations" where "id" = $1')).toBeNull();
    expect(preparedName('select "users".*, 1 as "one" from "users" where "id" = $1')).toBeNull();
    expect(preparedName('update "invitations" set "status" = $1 where "id" = $2 returning *')).toBeNull();
  });

  it('prepares a statement marked as planned alike whatever its values', () => {
    expect(preparedName(`${PREPARE_ANYWAY} select "id" from "users" where lower(email) like lower($1) limit 10 offset (select 3)`)).not.toBeNull();
  });
});
