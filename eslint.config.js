import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The import direction of conventions.md: a wrong arrow fails `npm test`. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const layer = (name, message) => ({ group: [`**/${name}`, `**/${name}/**`, `../${name}/*`, `./${name}/*`], message });

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'bench/.work/**', 'src/api/schema.gen.ts', 'test-results/**', 'playwright-report/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Nothing imports routes (but the router that assembles them).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/routes/**', 'src/router.tsx'],
    rules: restrict([layer('routes', 'Nothing imports routes.')]),
  },
  {
    files: ['src/machines/**/*.machine.ts', 'src/machines/**/*.selectors.ts', 'src/machines/shared/**'],
    rules: restrict([
      layer('api', 'A machine reaches the API only through the actors it is given.'),
      layer('auth', 'A machine is pure: side effects are actors.'),
      layer('ui', 'Machines do not render.'),
      layer('routes', 'Nothing imports routes.'),
      layer('workflows', 'The workflow charts read the machines, not the other way round.'),
    ]),
  },
  // The charts and catalog of the machines: routes (the /workflows screen) and scripts (npm run charts) read them.
  {
    files: ['src/workflows/**'],
    rules: restrict([
      layer('api', 'workflows → machines, domain only.'),
      layer('auth', 'workflows → machines, domain only.'),
      layer('ui', 'workflows → machines, domain only.'),
      layer('routes', 'Nothing imports routes.'),
    ]),
  },
  {
    files: ['src/machines/**/*.actors.ts'],
    rules: restrict([layer('ui', 'Actors do not render.'), layer('routes', 'Nothing imports routes.')]),
  },
  {
    files: ['src/ui/**'],
    rules: restrict([
      layer('api', 'UI is presentational: props in, events out.'),
      layer('machines', 'UI is presentational: props in, events out.'),
      layer('workflows', 'UI is presentational: props in, events out.'),
      layer('auth', 'UI is presentational.'),
      layer('routes', 'Nothing imports routes.'),
    ]),
  },
  {
    files: ['src/api/**'],
    rules: restrict([layer('machines', 'api → domain only.'), layer('workflows', 'api → domain only.'), layer('ui', 'api → domain only.'), layer('auth', 'api → domain only.'), layer('routes', 'Nothing imports routes.')]),
  },
  {
    files: ['src/domain/**', 'rules/**'],
    rules: restrict([
      ...['api', 'machines', 'workflows', 'ui', 'auth', 'routes', 'i18n'].map((n) => layer(n, 'domain is pure and imports nothing of the app.')),
      { group: ['react', 'react-dom', 'xstate', '@xstate/*', '@tanstack/*', '@azure/*'], message: 'domain is pure.' },
    ]),
  },
  {
    files: ['server/**'],
    rules: restrict([
      { group: ['**/src', '**/src/**'], message: 'The server imports nothing of the SPA: the rules both share live in rules/.' },
    ]),
  },
);
