// What the server log may hold (security review, item 9): never an account set-up token, whether from the
// URL of a request or from the body of an e-mail; an e-mail is announced by outbox id and kind once committed.
// Nor a bearer token or a password, whatever the request; each line is JSON naming its request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { commitFailureSwitch } from './support/commit-failure.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';
import { completePayload, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';
import { createAccountSetupToken } from '../../server/identity/account-setup-links.ts';
import { loggableUrl } from '../../server/plugins/logging.ts';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { openSignInForm } from './support/sign-in.ts';

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

    it('keeps tokens, passwords and set-up tokens out of JSON lines that name their request; error bodies carry the same id', async () => {
      const secrets: string[] = [DEMO_PASSWORD, 'Mauvais-mot-de-passe-1', 'Nouveau-mot-de-passe-2026'];
      const answers: { status: number; headers: Record<string, unknown>; body: string }[] = [];
      /** Keeps an answer for the checks below, and returns it. */
      const keep = <T extends { statusCode: number; headers: Record<string, unknown>; body: string }>(answer: T): T => {
        answers.push({ status: answer.statusCode, headers: answer.headers, body: answer.body });
        return answer;
      };
      const email = freshEmail('journal');
      const log = await logOf(async () => {
        // The local sign-in: a wrong password, then the right one, and the code exchanged for tokens.
        const form = await openSignInForm(t);
        expect(keep(await form.post(PERSONAS.lecteur, secrets[1]!)).statusCode).toBe(401);
        const tokens = await form.tokens(keep(await form.post(PERSONAS.lecteur, DEMO_PASSWORD)));
        secrets.push(tokens.id_token, tokens.access_token);
        // API calls with that token, with a forged one, and without any.
        const asLecteur = { authorization: `Bearer ${tokens.id_token}` };
        expect(keep(await t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: asLecteur })).statusCode).toBe(200);
        expect(keep(await t.app.inject({ method: 'GET', url: '/api/v2/users?pageSize=5', headers: asLecteur })).statusCode).toBe(200);
        const forged = `${tokens.id_token.slice(0, -4)}AAAA`;
        secrets.push(forged);
        expect(keep(await t.app.inject({ method: 'GET', url: '/api/v2/roles', headers: { authorization: `Bearer ${forged}` } })).statusCode).toBe(401);
        expect(keep(await t.app.inject({ method: 'GET', url: '/api/v2/roles' })).statusCode).toBe(401);
        expect(keep(await t.app.inject({ method: 'GET', url: '/api/v2/users/00000000-0000-4000-8000-000000000000', headers: asLecteur })).statusCode).toBe(404);
        // A new account's set-up link, opened and used.
        expect(keep(await createUser(email)).statusCode).toBe(201);
        const outbox = await t.database.handle.db.selectFrom('outbox').select('body').where('recipient', '=', email).executeTakeFirstOrThrow();
        const setupToken = /token=([A-Za-z0-9._-]+)/.exec(outbox.body)![1]!;
        secrets.push(setupToken);
        expect(keep(await t.app.inject({ method: 'GET', url: `/oidc/account/setup?token=${setupToken}` })).statusCode).toBe(200);
        const setup = new URLSearchParams({ token: setupToken, password: secrets[2]!, confirmation: secrets[2]! }).toString();
        expect(keep(await t.app.inject({ method: 'POST', url: '/oidc/account/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: setup })).statusCode).toBe(200);
        // A server error: the commit of a creation fails.
        const failCommits = await commitFailureSwitch(t.database.handle);
        const failed = keep(await failCommits.during(() => createUser(freshEmail('journal'))));
        expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      });
      expect(log.length).toBeGreaterThan(answers.length);
      const text = JSON.stringify(log);
      expect(text).not.toContain('eyJ');
      expect(text.toLowerCase()).not.toContain('bearer');
      for (const secret of secrets) expect(text).not.toContain(secret);
      // Every line of a request names it, and every answer's request id is in the log.
      const ids = new Set(log.flatMap((line) => (typeof line.reqId === 'string' ? [line.reqId] : [])));
      for (const line of log) if ('req' in line || 'res' in line || 'err' in line) expect(typeof line.reqId, JSON.stringify(line)).toBe('string');
      for (const answer of answers) expect(ids, `${answer.status}`).toContain(answer.headers['x-request-id']);
      // Every error of the API answers its request id in its body too.
      const errors = answers.filter((a) => a.status >= 400 && String(a.headers['content-type']).startsWith('application/json'));
      expect(errors.map((a) => a.status).sort()).toEqual([401, 401, 404, expect.any(Number)]);
      for (const answer of errors) expect(JSON.parse(answer.body).requestId).toBe(answer.headers['x-request-id']);
    });

    it('announces nothing for a change whose commit failed', async () => {
      const failCommits = await commitFailureSwitch(t.database.handle);
      const log = await logOf(() => failCommits.during(() => createUser(freshEmail('annule'))));
      expect(queuedLines(log)).toEqual([]);
    });
  });
}
