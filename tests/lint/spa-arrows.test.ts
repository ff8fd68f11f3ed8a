// The SPA's import arrows (eslint.config.js, the 'src/**' blocks): routes → features → machines, api, ui, domain,
// i18n, auth, lib; features do not import one another; nothing but the router imports routes.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

/** The rules a piece of code breaks, as if it were the file at filePath. */
async function broken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

describe('the import arrows of the SPA', () => {
  it('refuses a feature importing another feature, however the path is written', async () => {
    expect(await broken('src/features/invitations/y.ts', "export { ActivationFlow } from '../users/users-activation';\n")).toEqual([
      'spa/no-cross-feature-imports: Features do not import one another (invitations → users): share through lib/, ui/ or domain/, or compose both in the route.',
    ]);
    expect(await broken('src/features/wizard/parts/y.ts', "export { useUsersOrganizationFilters } from '../../../features/users/use-users-organization-filters';\n")).toEqual([
      expect.stringMatching(/^spa\/no-cross-feature-imports: .*\(wizard → users\)/),
    ]);
    // Its own feature and the layers below are allowed.
    expect(await broken('src/features/users/y.ts', "export { ActivationFlow } from './users-activation';\nexport { fr } from '../../i18n/fr';\nexport { useDocumentTitle } from '../../lib/use-document-title';\n")).toEqual([]);
  });

  it('refuses a feature importing a route, and a layer below importing a feature', async () => {
    expect(await broken('src/features/users/y.ts', "export { usersRoute } from '../../routes/users';\n")).toEqual(['no-restricted-imports: \'../../routes/users\' import is restricted from being used by a pattern. Nothing imports routes.']);
    expect(await broken('src/ui/users/y.ts', "export { ActivationFlow } from '../../features/users/users-activation';\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*UI is presentational/),
    ]);
    // The routes compose the features.
    expect(await broken('src/routes/y.ts', "export { ActivationFlow } from '../features/users/users-activation';\n")).toEqual([]);
  });
});
