// The set-based SQL of npm run bench:seed on an embedded PostgreSQL (PGlite), at the smallest size, with
// every trigger and foreign key checked (the real seed turns them off for speed): what it makes is valid.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { DEMO_ACCOUNTS, seedDemoData } from '../../server/seed/seed.ts';
import { EMPLOYERS } from '../../server/seed/seed-data.ts';
import { emailSchema } from '../../rules/validation.ts';
import { isValidSiren, isValidSiret } from '../../rules/codes.ts';
import { datasetSize } from '../../bench/dataset.ts';
import { countRows, loadBenchData, type SeedSession } from '../../bench/seed-runner.ts';
import { EXACT, keptCopiesDiffering } from '../server/support/kept-copies.ts';

const USERS = 1_000;

describe(`bench:seed with ${USERS} users (PGlite)`, () => {
  let handle: DatabaseHandle;
  let session: SeedSession;
  const log: string[] = [];

  beforeAll(async () => {
    handle = await openDatabase({});
    await migrate(handle);
    await seedDemoData(handle);
    session = {
      run: async (text, params) => (params ? void (await handle.withRawTransaction((tx) => tx.query(text, params))) : handle.exec(text)),
      rows: async <T extends object>(text: string, params?: unknown[]) => handle.withRawTransaction((tx) => tx.query<T>(text, params)),
    };
    await loadBenchData(session, USERS, { fastLoad: false, log: (line) => log.push(line) });
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  const rows = <T extends object>(text: string) => session.rows<T>(text);

  it('makes exactly the requested size, demo data included', async () => {
    const size = datasetSize(USERS);
    const counts = await countRows(session);
    expect(counts).toMatchObject({ users: size.users, sirens: size.sirens, sirets: size.sirets, invitations: size.invitations });
    expect(counts.assignments).toBeGreaterThan(size.assignments * 0.95);
    expect(counts.assignments).toBeLessThan(size.assignments * 1.05);
    expect(counts.pending).toBeGreaterThan(size.invitations * 0.08);
    expect(log.some((line) => line.includes('role assignments'))).toBe(true);
  });

  it('numbers every SIREN and SIRET with a valid code, each SIRET under its SIREN', async () => {
    const organizations = await rows<{ code: string; type: string; parent_code: string | null }>('select code, type, parent_code from organizations');
    for (const o of organizations) {
      if (o.type === 'SIREN') expect(isValidSiren(o.code), o.code).toBe(true);
      else {
        expect(isValidSiret(o.code), o.code).toBe(true);
        expect(o.code.slice(0, 9)).toBe(o.parent_code);
      }
    }
    const lonely = await rows<{ n: number }>(`select count(*)::int as n from organizations s where s.type = 'SIREN' and not exists (select 1 from organizations c where c.parent_id = s.id)`);
    expect(lonely[0]!.n).toBe(0);
  });

  it('gives people French names, unique valid e-mail addresses, 1 to 5 distinct roles, and every new SIREN an administrator', async () => {
    const users = await rows<{ email: string; first_name: string; last_name: string }>('select email, first_name, last_name from users');
    expect(new Set(users.map((u) => u.email.toLowerCase())).size).toBe(users.length);
    for (const user of users) expect(emailSchema.safeParse(user.email).success, user.email).toBe(true);
    expect(users.filter((u) => /[éèëïçô]/i.test(`${u.first_name}${u.last_name}`)).length).toBeGreaterThan(users.length * 0.1);
    const roles = await rows<{ n: number; distinct_roles: number }>(
      `select count(*)::int as n, count(distinct role_id)::int as distinct_roles from role_assignments ra join users u on u.id = ra.user_id
       where u.email not like '%@portail.test' group by ra.user_id`,
    );
    expect(Math.min(...roles.map((r) => r.distinct_roles))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...roles.map((r) => r.distinct_roles))).toBeLessThanOrEqual(5);
    const withoutAdmin = await rows<{ n: number }>(
      `select count(*)::int as n from organizations s where s.type = 'SIREN' and not exists (
         select 1 from role_assignments ra join roles r on r.id = ra.role_id where ra.organization_id = s.id and r.code = 'ADMIN_ADHERENT')
       and s.name not in (${EMPLOYERS.map((e) => `'${e.name.replaceAll("'", "''")}'`).join(', ')})`,
    );
    expect(withoutAdmin[0]!.n).toBe(0);
  });

  it('keeps the demo accounts, their administrators now managing staff of their own', async () => {
    const demo = await rows<{ email: string }>(`select email from users where email like '%@portail.test'`);
    expect(demo.map((u) => u.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    const clinique = await rows<{ n: number }>(
      `select count(distinct ra.user_id)::int as n from role_assignments ra join organizations o on o.id = ra.organization_id
       where o.name like 'Clinique des Tilleuls%'`,
    );
    expect(clinique[0]!.n).toBeGreaterThan(10);
  });

  it("records, for every pending request, the account holding the invitee's address (issue 19)", async () => {
    const [missing] = await rows<{ n: number }>(
      `select count(*)::int as n from invitations i join users u on lower(u.email) = lower(i.invitee_email)
       where i.status = 'PENDING' and i.invitee_user_id is distinct from u.id`,
    );
    expect(missing!.n).toBe(0);
  });

  it('leaves invitations of every status and type, pending ones never repeated, decisions after requests', async () => {
    const kinds = await rows<{ status: string; invitation_type: string }>('select distinct status, invitation_type from invitations');
    // Pending, approved, rejected, expired and cancelled (issue 22; the last two from the demo's requests), of both types.
    expect(kinds).toHaveLength(10);
    const repeated = await rows<{ n: number }>(
      `select count(*)::int as n from (select 1 from invitations where status = 'PENDING' group by lower(invitee_email), organization_code, role_code having count(*) > 1) d`,
    );
    expect(repeated[0]!.n).toBe(0);
  });

  it('leaves the totals and name ranges of migration 0004, and the active accounts by day of migration 0031, exact', async () => {
    const check = await sql<{ users: number; kept: number; ranged: number; active: number; byDay: number }>`
      select (select count(*)::int from users) as users, (select sum(n)::int from user_counts) as kept,
             (select sum(n_active + n_inactive)::int from user_name_ranges) as ranged,
             (select count(*)::int from users where is_active) as active, (select sum(n)::int from user_dormancy_day_counts) as "byDay"`.execute(handle.db);
    const { users, kept, ranged, active, byDay } = check.rows[0]!;
    expect([kept, ranged]).toEqual([users, users]);
    expect(byDay).toBe(active);
  });

  it("leaves the users' search copy, its counts, its words and their counts exact, the words marked through (migrations 0019, 0039)", async () => {
    expect(await keptCopiesDiffering(handle.db)).toEqual(EXACT);
    const [words] = await rows<{ done: boolean; n: number }>('select (select done from user_search_words_backfill) as done, (select count(*)::int from user_search_words) as n');
    expect(words!.done).toBe(true);
    expect(words!.n).toBeGreaterThan(0);
  });
});
