// The authorization of the users list's 'Comptes dormants' (accountState=dormant, issue 23) × every demo persona: the
// filter is listUsers' rights (tests/server/authorization-matrix.test.ts), and it never widens the reach. Every
// account is made dormant here, so that each persona's dormant list must be exactly their whole list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { expectMatchesContract } from './support/contract.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PERSONAS = ['backoffice', 'lecteur', 'admin.clinique', 'rh.clinique', 'admin.ehpad', 'inactif'] as const;
const EXPECTED: Record<(typeof PERSONAS)[number], number> = { backoffice: 200, lecteur: 200, 'admin.clinique': 200, 'rh.clinique': 403, 'admin.ehpad': 200, inactif: 403 };

describe.each(backends)('accountState=dormant for every persona on $name', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function ids(persona: string, query: string) {
    const token = await t.tokenFor(`${persona}@portail.test`);
    // The persona's own sign-in is recorded by /users/me only: a list request leaves every account dormant.
    const answer = await t.app.inject({ method: 'GET', url: `/api/v2/users?pageSize=100${query}`, headers: { authorization: `Bearer ${token}` } });
    if (answer.statusCode !== 200) return { status: answer.statusCode, ids: [] as string[], total: 0 };
    expectMatchesContract('GET', '/api/v2/users', 200, answer.json());
    const body = answer.json() as { items: { id: string; dormantSince: string | null }[]; total: number };
    return { status: 200, ids: body.items.map((u) => u.id).sort(), total: body.total, since: body.items.map((u) => u.dormantSince) };
  }

  it("answers listUsers' statuses, and within each persona's reach exactly their list, every row dormant", async () => {
    const db = t.database.handle.db;
    await db.updateTable('users').set({ last_login_at: new Date(Date.now() - 800 * 24 * 3600_000), created_at: new Date(Date.now() - 900 * 24 * 3600_000) }).execute();
    const got: Record<string, unknown> = {};
    const want: Record<string, unknown> = {};
    for (const persona of PERSONAS) {
      const dormant = await ids(persona, '&accountState=dormant');
      const all = await ids(persona, '');
      got[persona] = { status: dormant.status, ids: dormant.ids, total: dormant.total, allDated: dormant.since?.every((s) => s !== null) ?? true };
      want[persona] = { status: EXPECTED[persona], ids: all.ids, total: all.total, allDated: true };
    }
    expect(got).toEqual(want);
    expect((got.backoffice as { total: number }).total).toBeGreaterThan((got['admin.clinique'] as { total: number }).total);
  });
});
