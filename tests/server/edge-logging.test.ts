// No token in the logs (issue 19): the query strings of the local provider's URLs (id_token_hint on sign-out,
// login_hint, code, state…) and of the SPA's pages (the redirect bridge receives code and state) are never logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';
import { loggableUrl } from '../../server/plugins/logging.ts';

const backend = backends[0]!;

describe('URLs in the server log', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestApp(backend, { env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => lines.push(line) } });
  });
  afterAll(() => t?.close());

  async function logOf(url: string): Promise<string> {
    const from = lines.length;
    await t.app.inject({ method: 'GET', url });
    return lines.slice(from).join('\n');
  }

  it('never holds the id_token_hint of a sign-out', async () => {
    const idToken = await t.tokenFor(PERSONAS.backoffice);
    const log = await logOf(`/oidc/session/end?id_token_hint=${idToken}&post_logout_redirect_uri=${encodeURIComponent('https://localhost:8443/')}`);
    expect(log).toContain('/oidc/session/end');
    expect(log).not.toContain(idToken);
    expect(log).not.toContain(idToken.split('.')[1]!);
  });

  it('never holds the login_hint, code_challenge or state of an authorization request', async () => {
    const log = await logOf('/oidc/auth?client_id=portail-habilitations-spa&login_hint=secret.person%40exemple.fr&state=state-0123456789&code_challenge=challenge-abcdef&response_type=code');
    expect(log).toContain('/oidc/auth');
    for (const secret of ['secret.person', 'state-0123456789', 'challenge-abcdef']) expect(log).not.toContain(secret);
  });

  it('never holds the code and state the SPA receives back, whatever the page', async () => {
    const log = await logOf('/redirect-bridge.html?code=code-0123456789abcdef&state=state-abcdef');
    expect(log).not.toContain('code-0123456789abcdef');
    expect(log).not.toContain('state-abcdef');
  });

  it("keeps the API's query strings (filters and pages, which tell requests apart), and drops the others", () => {
    expect(loggableUrl('/api/v2/users?page=2&search=dur')).toBe('/api/v2/users?page=2&search=dur');
    expect(loggableUrl('/oidc/session/end?id_token_hint=a.b.c')).toBe('/oidc/session/end');
    expect(loggableUrl('/OIDC/auth?login_hint=x')).toBe('/OIDC/auth');
    expect(loggableUrl('/%6Fidc/auth?login_hint=x')).toBe('/%6Fidc/auth');
    expect(loggableUrl('/?code=x&state=y')).toBe('/');
  });
});
