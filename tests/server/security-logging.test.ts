// What the server log may hold (security review, item 9): never an account set-up token, whether from the
// URL of a request or from the body of an e-mail; an e-mail is announced by outbox id and kind once committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { commitFailureSwitch } from './support/commit-failure.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';
import { completePayload, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';
import { createAccountSetupToken } from '../../server/idp/account-setup.ts';
import { loggableUrl } from '../../server/http/logging.ts';

for (const backend of backends) {
  describe(`the server log on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const lines: string[] = [];
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => lines.push(line) } }));
    });
    afterAll(() => t?.close());

    /** The log lines `work` writes, parsed. */
    async function logOf(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
      const from = lines.length;
      await work();
      return lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
    }
    const bearer = async (email: string) => ({ authorization: `Bearer ${await t.tokenFor(email)}` });
    const createUser = async (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v2/users/complete', headers: await bearer(PERSONAS.backoffice), payload: completePayload([orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email }) });
    const queuedLines = (log: Record<string, unknown>[]) => log.filter((l) => 'outboxId' in l);

    it('logs the account set-up page without its token', async () => {
      const token = createAccountSetupToken(t.keys.accountSetupSecret, 'some-subject');
      const log = await logOf(() => t.app.inject({ method: 'GET', url: `/oidc/account/setup?token=${token}` }));
      const urls = log.flatMap((l) => (l.req ? [(l.req as { url: string }).url] : []));
      expect(urls).toEqual(['/oidc/account/setup']);
      expect(JSON.stringify(log)).not.toContain(token);
      // Other URLs keep their query, which the log needs to tell requests apart.
      expect(loggableUrl('/api/v2/users?page=2')).toBe('/api/v2/users?page=2');
      expect(loggableUrl('/oidc/account/setup?token=abc')).toBe('/oidc/account/setup');
    });

    it("announces a new account's e-mail by outbox id and kind only, never its link nor its recipient", async () => {
      const email = freshEmail('journal');
      let answer: Awaited<ReturnType<typeof createUser>> | undefined;
      const log = await logOf(async () => {
        answer = await createUser(email);
      });
      expect(answer!.statusCode).toBe(201);
      const outbox = await t.database.handle.db.selectFrom('outbox').select(['id', 'kind', 'body']).where('recipient', '=', email).executeTakeFirstOrThrow();
      expect(queuedLines(log).map(({ outboxId, kind }) => ({ outboxId, kind }))).toEqual([{ outboxId: outbox.id, kind: 'account.invitation' }]);
      const text = JSON.stringify(log);
      expect(text).not.toContain('/oidc/account/setup?token=');
      expect(text).not.toContain(email);
      expect(text).not.toContain(outbox.body.slice(0, 40));
    });

    it('announces the e-mails of an approval and of a rejection the same way', async () => {
      const api = invitationsApi(t);
      const clinique = await organizationByName(t, 'Clinique des Tilleuls');
      const request = () => api.create(PERSONAS.backoffice, { inviteeEmail: freshEmail('journal'), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinique.code, metadata: newPersonMetadata() });
      const [approved, rejected] = [await request(), await request()];
      const approval = await logOf(() => api.approve(PERSONAS.backoffice, approved.body.id));
      expect(queuedLines(approval).map((l) => l.kind)).toEqual(['invitation.approved', 'account.invitation']);
      const rejection = await logOf(() => api.reject(PERSONAS.backoffice, rejected.body.id, 'Demande en double, déjà traitée.'));
      expect(queuedLines(rejection).map((l) => l.kind)).toEqual(['invitation.rejected']);
      for (const line of [...queuedLines(approval), ...queuedLines(rejection)]) expect(Object.keys(line)).not.toContain('body');
    });

    it('announces nothing for a change whose commit failed', async () => {
      const failCommits = await commitFailureSwitch(t.database.handle);
      const log = await logOf(() => failCommits.during(() => createUser(freshEmail('annule'))));
      expect(queuedLines(log)).toEqual([]);
    });
  });
}
