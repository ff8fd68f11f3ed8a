// The server's import arrows and the no-cycle rule (.dependency-cruiser.cjs): a wrong arrow fails `npm test`.
// Each case writes a tiny tree with one wrong import to a temporary folder and cruises it with the project's rules.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

/** The rules broken by a tree of `files` (path → source), as `rule: from → to`. */
async function violationsOf(files: Record<string, string>): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arrows-'));
  folders.push(root);
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), source);
  }
  const options = await extractDepcruiseOptions(path.resolve('.dependency-cruiser.cjs'));
  const result = await cruise(['server', 'src', 'rules'].filter((dir) => fs.existsSync(path.join(root, dir))), { ...options, baseDir: root, tsConfig: undefined });
  const output = result.output as { summary: { violations: IViolation[] } };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`);
}

describe('the server import arrows', () => {
  it('accepts a feature laid out as the conventions say', async () => {
    expect(
      await violationsOf({
        'server/db/schema.ts': 'export interface Database { users: { id: string } }\n',
        'server/core/errors.ts': "export const forbidden = () => new Error('Accès refusé.');\n",
        'server/features/users/users.policy.ts': "import { forbidden } from '../../core/errors.ts';\nexport const requireIt = (ok: boolean) => { if (!ok) throw forbidden(); };\n",
        'server/features/users/users.repository.ts': "import type { Database } from '../../db/schema.ts';\nexport const findUser = (db: Database) => db.users;\n",
        'server/features/users/users.service.ts':
          "import { requireIt } from './users.policy.ts';\nimport { findUser } from './users.repository.ts';\nexport const read = (db: never) => { requireIt(true); return findUser(db); };\n",
        'server/api/users.ts': "import { read } from '../features/users/users.service.ts';\nexport const handler = () => read(null as never);\n",
      }),
    ).toEqual([]);
  });

  it('refuses a repository that asks the policy, and db/ importing a feature', async () => {
    expect(
      await violationsOf({
        'server/features/users/users.policy.ts': 'export const requireIt = () => undefined;\n',
        'server/features/users/users.repository.ts': "import { requireIt } from './users.policy.ts';\nexport const findUser = () => requireIt();\n",
        'server/db/database.ts': "import { findUser } from '../features/users/users.repository.ts';\nexport const open = () => findUser();\n",
      }),
    ).toEqual([
      'db-is-infrastructure: server/db/database.ts → server/features/users/users.repository.ts',
      'repositories-speak-sql: server/features/users/users.repository.ts → server/features/users/users.policy.ts',
    ]);
  });

  it('refuses a policy reaching the database, and a handler reaching a repository', async () => {
    expect(
      await violationsOf({
        'server/db/database.ts': 'export const db = {};\n',
        'server/features/users/users.policy.ts': "import { db } from '../../db/database.ts';\nexport const requireIt = () => db;\n",
        'server/features/users/users.repository.ts': 'export const findUser = () => 1;\n',
        'server/api/users.ts': "import { findUser } from '../features/users/users.repository.ts';\nexport const handler = () => findUser();\n",
      }),
    ).toEqual([
      'only-services-orchestrate: server/api/users.ts → server/features/users/users.repository.ts',
      'pure-stays-pure: server/features/users/users.policy.ts → server/db/database.ts',
    ]);
  });

  it('refuses the server importing the SPA, and a feature importing the API', async () => {
    expect(
      await violationsOf({
        'src/domain/codes.ts': 'export const isSiren = (code: string) => /^[0-9]{9}$/.test(code);\n',
        'server/api/errors.ts': 'export const answer = 1;\n',
        'server/features/users/users.service.ts': "import { isSiren } from '../../../src/domain/codes.ts';\nimport { answer } from '../../api/errors.ts';\nexport const x = () => isSiren('1') && answer;\n",
      }),
    ).toEqual([
      'features-below-the-api: server/features/users/users.service.ts → server/api/errors.ts',
      'server-not-spa: server/features/users/users.service.ts → src/domain/codes.ts',
    ]);
  });

  it('names every module of an import cycle', async () => {
    const violations = await violationsOf({
      'src/ui/a.ts': "import { b } from './b.ts';\nexport const a = () => b();\n",
      'src/ui/b.ts': "import { c } from './c.ts';\nexport const b = () => c();\n",
      'src/ui/c.ts': "import { a } from './a.ts';\nexport const c = (): number => (Math.random() > 2 ? a() : 1);\n",
    });
    expect(violations).toContain('no-cycle: src/ui/a.ts → src/ui/b.ts → src/ui/c.ts → src/ui/a.ts');
  });
});
