import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';

/** The import direction of conventions.md: a wrong arrow fails `npm test`. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const layer = (name, message) => ({ group: [`**/${name}`, `**/${name}/**`, `../${name}/*`, `./${name}/*`], message });

/** The SPA's feature a file lies in (src/features/<feature>/…), or null. */
const FEATURES = path.join(import.meta.dirname, 'src', 'features');
const featureOf = (file) => {
  const relative = path.relative(FEATURES, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep)[0] : null;
};
/**
 * Features do not import one another (bulletproof-react). A glob cannot say it for relative imports (`../users/x`
 * is another feature from one folder, the same one from a subfolder), so each import is resolved from its file.
 */
const spaArrows = {
  rules: {
    'no-cross-feature-imports': {
      meta: { type: 'problem', schema: [], messages: { cross: 'Features do not import one another ({{from}} → {{to}}): share through lib/, ui/ or domain/, or compose both in the route.' } },
      create(context) {
        const own = featureOf(context.filename);
        if (!own) return {};
        const check = (source) => {
          if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
          const target = featureOf(path.resolve(path.dirname(context.filename), source.value));
          if (target && target !== own) context.report({ node: source, messageId: 'cross', data: { from: own, to: target } });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
        };
      },
    },
  },
};

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
  // Nothing imports routes (but the router that assembles them; a route names its parent route and its lazy half).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/routes/**', 'src/router.tsx'],
    rules: restrict([layer('routes', 'Nothing imports routes.')]),
  },
  // routes → features → machines, api, ui, domain, i18n, auth, lib; a feature imports no other feature.
  {
    files: ['src/features/**/*.{ts,tsx}'],
    plugins: { spa: spaArrows },
    rules: { 'spa/no-cross-feature-imports': 'error' },
  },
  // Helpers shared by routes and features (URL search validators, the document title).
  {
    files: ['src/lib/**'],
    rules: restrict([
      ...['api', 'machines', 'workflows', 'ui', 'auth'].map((n) => layer(n, 'lib → domain, i18n only.')),
      layer('features', 'lib sits below the features.'),
      layer('routes', 'Nothing imports routes.'),
    ]),
  },
  {
    files: ['src/machines/**/*.machine.ts', 'src/machines/**/*.selectors.ts', 'src/machines/shared/**'],
    rules: restrict([
      layer('api', 'A machine reaches the API only through the actors it is given.'),
      layer('auth', 'A machine is pure: side effects are actors.'),
      layer('ui', 'Machines do not render.'),
      layer('routes', 'Nothing imports routes.'),
      layer('workflows', 'The workflow charts read the machines, not the other way round.'),
      layer('features', 'Features use machines, not the other way round.'),
    ]),
  },
  // The charts and catalog of the machines: routes (the /workflows screen) and scripts (npm run charts) read them.
  {
    files: ['src/workflows/**'],
    rules: restrict([
      layer('api', 'workflows → machines, domain only.'),
      layer('auth', 'workflows → machines, domain only.'),
      layer('ui', 'workflows → machines, domain only.'),
      layer('features', 'workflows → machines, domain only.'),
      layer('routes', 'Nothing imports routes.'),
    ]),
  },
  {
    files: ['src/machines/**/*.actors.ts'],
    rules: restrict([layer('ui', 'Actors do not render.'), layer('features', 'Features use actors, not the other way round.'), layer('routes', 'Nothing imports routes.')]),
  },
  {
    files: ['src/ui/**'],
    rules: restrict([
      layer('api', 'UI is presentational: props in, events out.'),
      layer('machines', 'UI is presentational: props in, events out.'),
      layer('workflows', 'UI is presentational: props in, events out.'),
      layer('auth', 'UI is presentational.'),
      layer('features', 'UI is presentational: props in, events out.'),
      layer('routes', 'Nothing imports routes.'),
    ]),
  },
  {
    files: ['src/api/**'],
    rules: restrict([layer('machines', 'api → domain only.'), layer('workflows', 'api → domain only.'), layer('ui', 'api → domain only.'), layer('auth', 'api → domain only.'), layer('features', 'api → domain only.'), layer('routes', 'Nothing imports routes.')]),
  },
  {
    files: ['src/domain/**', 'rules/**'],
    ignores: ['rules/**/*.machine.ts'],
    rules: restrict([
      ...['api', 'machines', 'workflows', 'ui', 'auth', 'routes', 'i18n', 'features'].map((n) => layer(n, 'domain is pure and imports nothing of the app.')),
      { group: ['react', 'react-dom', 'xstate', '@xstate/*', '@tanstack/*', '@azure/*'], message: 'domain is pure.' },
    ]),
  },
  // A machine the SPA and the server share (the request lifecycle the services ask): a pure chart, xstate's only.
  {
    files: ['rules/**/*.machine.ts'],
    rules: restrict([
      ...['api', 'machines', 'workflows', 'ui', 'auth', 'routes', 'i18n', 'features'].map((n) => layer(n, 'rules/ is pure and imports nothing of the app.')),
      { group: ['react', 'react-dom', '@xstate/*', '@tanstack/*', '@azure/*'], message: 'A shared machine is a pure chart: xstate only.' },
    ]),
  },
  {
    files: ['server/**'],
    rules: {
      ...restrict([{ group: ['**/src', '**/src/**'], message: 'The server imports nothing of the SPA: the rules both share live in rules/.' }]),
      // No module-level mutable state: what a module needs is passed in or built by buildApp, so that two apps
      // (tests build many in one process) never share it. The server's import arrows: .dependency-cruiser.cjs.
      'no-restricted-syntax': [
        'error',
        ...['Program > VariableDeclaration[kind!="const"]', 'Program > ExportNamedDeclaration > VariableDeclaration[kind!="const"]'].map((selector) => ({
          selector,
          message: 'No module-level `let` or `var` in server/: pass the value in, or build it in buildApp (CONTRIBUTING.md).',
        })),
      ],
    },
  },
);
