// The import arrows of the server and the rule of no cycle anywhere, checked by `npm run lint:arrows`
// (part of `npm test`). CONTRIBUTING.md explains each rule; tests/lint/server-arrows.test.ts shows them failing.
// The SPA's arrows are eslint's (eslint.config.js).
/** Value imports only: a type imported for a signature creates no dependency at run time. */
const values = { dependencyTypesNot: ['type-only'] };
const PURE = '^server/(core/|features/[^/]+/[^/]+[.](policy|input|model)[.]ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle, in any part of the project: each module can be read (and tested) after what it imports.',
      from: {},
      to: { circular: true, viaOnly: values },
    },
    {
      name: 'server-not-spa',
      severity: 'error',
      comment: 'The server imports nothing of the SPA; the rules both share are in rules/.',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'rules-are-shared',
      severity: 'error',
      comment: 'rules/ is imported by the SPA and the server, and imports neither.',
      from: { path: '^rules/' },
      to: { path: '^(src|server)/' },
    },
    {
      name: 'db-is-infrastructure',
      severity: 'error',
      comment: 'server/db/ (connection, migrations, schema, unit of work) imports nothing above it.',
      from: { path: '^server/db/' },
      to: { path: '^(server/(?!db/)|src/|rules/)' },
    },
    {
      name: 'pure-stays-pure',
      severity: 'error',
      comment: 'Policies, input checks and models (and server/core/) decide from values: no database, HTTP, identity provider or mail.',
      from: { path: PURE },
      to: { path: '^(server/(?!core/|features/[^/]+/[^/]+[.](policy|input|model)[.]ts$)|node_modules/(kysely|pg|fastify|@fastify|nodemailer|oidc-provider|@electric-sql)/)', ...values },
    },
    {
      name: 'repositories-speak-sql',
      severity: 'error',
      comment: 'A repository takes a transaction and speaks SQL: no policy, service, identity provider, mail or HTTP.',
      from: { path: '^server/features/[^/]+/[^/]+[.]repository[.]ts$' },
      to: { path: '^server/(features/[^/]+/[^/]+[.](policy|service)[.]ts$|features/services[.]ts$|identity/|mail/|api/|plugins/|dev-idp/|seed/)', ...values },
    },
    {
      name: 'features-below-the-api',
      severity: 'error',
      comment: 'Use cases know nothing of HTTP, the local provider or the seed.',
      from: { path: '^server/features/' },
      to: { path: '^server/(api/|plugins/|dev-idp/|seed/|jobs/|app[.]ts$|main[.]ts$)', ...values },
    },
    {
      name: 'only-services-orchestrate',
      severity: 'error',
      comment: 'Handlers and plugins reach the data through services, never a repository, the database, the identity directory or the outbox.',
      from: { path: '^server/(api|plugins)/' },
      to: { path: '^server/(features/[^/]+/[^/]+[.]repository[.]ts$|db/(?!schema[.]ts$)|mail/|identity/(directory|graph-directory|local-accounts)[.]ts$)', ...values },
    },
    {
      name: 'adapters-below-features',
      severity: 'error',
      comment: 'The identity directory and the mail are adapters: they import the database, never a feature, the API or each other.',
      from: { path: '^server/(identity|mail)/' },
      to: { path: '^server/(features/|api/|plugins/|dev-idp/|seed/|jobs/|app[.]ts$)', ...values },
    },
    {
      name: 'jobs-below-the-start',
      severity: 'error',
      comment: 'Scheduled jobs (server/jobs/) use services, adapters and the database; never HTTP, the local provider or the seed. Features and adapters never import them.',
      from: { path: '^server/jobs/' },
      to: { path: '^server/(api/|plugins/|dev-idp/|seed/|cli/|app[.]ts$|main[.]ts$)', ...values },
    },
    {
      name: 'dev-idp-apart',
      severity: 'error',
      comment: 'The local provider (development and tests) uses the identity adapters, never the features or the API.',
      from: { path: '^server/dev-idp/' },
      to: { path: '^server/(features/|api/|seed/)', ...values },
    },
    {
      name: 'nothing-imports-the-start',
      severity: 'error',
      comment: 'app.ts and main.ts assemble the server; nothing of it imports them.',
      from: { path: '^server/', pathNot: '^server/main[.]ts$' },
      to: { path: '^server/(app|main)[.]ts$' },
    },
    {
      name: 'commands-stand-alone',
      severity: 'error',
      comment: 'The operator commands (server/cli/: npm run db:migrate, admin:create) start like main.ts; the server imports none of them.',
      from: { path: '^server/', pathNot: '^server/cli/' },
      to: { path: '^server/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-[^/]*|\\.data)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
