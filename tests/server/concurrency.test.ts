import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnPostgres } from '../support/on-postgres.ts';
import { importJWK, SignJWT } from 'jose';
import { loadSigningKeys } from '../../server/dev-idp/signing-keys.ts';
import { createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

// Two API nodes on one PostgreSQL, as behind a load balancer: decisions and versioned updates must
// not both succeed. PGlite is one process's database, so this runs on PostgreSQL only.

describeOnPostgres('two server processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let nodes: ServerProcess[] = [];
  let token: (email: string) => Promise<string>;
  const origin = 'http://portail.test';

  beforeAll(async () => {
    database = await createTestDatabase({ name: 'postgres' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-nodes-'));
    // Development nodes (the local provider and its demo data) on an origin that is not a loopback address: said on purpose.
    const env = { DATABASE_URL: database.url!, DATA_DIR: dataDir, PUBLIC_ORIGIN: origin, ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN: 'true' };
    // The first node migrates and seeds; the second finds it done.
    nodes.push(await startServerProcess(env));
    nodes.push(await startServerProcess(env));
    const keys = await loadSigningKeys(dataDir);
    const key = await importJWK(keys.privateJwks.keys[0]!, 'RS256');
    token = async (email) => {
      const row = await database.handle.db.selectFrom('identity_accounts').select('subject').where('email', '=', email).executeTakeFirstOrThrow();
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: `${origin}/oidc`, aud: 'portail-habilitations-spa', sub: row.subject, iat: now, exp: now + 600 })
        .setProtectedHeader({ alg: 'RS256', kid: keys.privateJwks.keys[0]!.kid })
        .sign(key);
    };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    nodes = [];
    await database?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (i: number, method: string, url: string, bearer: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${nodes[i % nodes.length]!.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('approves a pending invitation exactly once out of 20 parallel approvals on two nodes', async () => {
    const staff = await token('backoffice@portail.test');
    const pending = await database.handle.db.selectFrom('invitations').select('id').where('status', '=', 'PENDING').orderBy('id').executeTakeFirstOrThrow();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i, 'POST', `/api/v2/invitations/${pending.id}/approve`, staff)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const audit = await database.handle.db.selectFrom('audit_log').select('id').where('action', '=', 'invitation.approve').where('entity_id', '=', String(pending.id)).execute();
    expect(audit).toHaveLength(1);
  });

  it('accepts exactly one of 20 parallel full updates made with the same version on two nodes', async () => {
    const staff = await token('backoffice@portail.test');
    const target = await database.handle.db
      .selectFrom('users')
      .select(['id'])
      .where('email', 'not like', '%@portail.test')
      .where('user_type', '=', 'ORGANIZATION')
      .orderBy('email')
      .executeTakeFirstOrThrow();
    const details = await (await call(0, 'GET', `/api/v2/users/${target.id}/full-details`, staff)).json();
    const user = details.user;
    const assignments = details.assignments.map((a: { organizationId: string; roleId: number; inheritsToChildren: boolean }) => ({
      organizationId: a.organizationId,
      roleIds: [a.roleId],
      inheritsToChildren: a.inheritsToChildren,
    }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i, 'PUT', `/api/v2/users/${target.id}/full-update`, staff, {
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          jobTitle: `Fonction ${i + 10}`,
          phoneNumber: user.phoneNumber,
          mobilePhone: user.mobilePhone,
          street: user.street,
          city: user.city,
          postalCode: user.postalCode,
          isActive: user.isActive,
          roleAssignments: assignments,
          version: user.version,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const after = await database.handle.db.selectFrom('users').select(['version']).where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(after.version).toBe(user.version + 1);
  });
});
