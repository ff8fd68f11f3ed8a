// The Node.js release the portal runs on. The project brings its own (the `node` package of the npm registry,
// first on the PATH of every npm script); a start on an older Node.js is refused rather than half-working.

/** The oldest Node.js major the portal supports: 24 LTS (20 reached its end of life on 2026-04-30). */
export const MINIMUM_NODE_MAJOR = 24;

export function nodeMajor(version: string = process.versions.node): number {
  return Number(version.replace(/^v/, '').split('.')[0]);
}

/** Throws, in French for the operator, when this Node.js is older than MINIMUM_NODE_MAJOR. */
export function assertSupportedRuntime(version: string = process.versions.node): void {
  if (!(nodeMajor(version) >= MINIMUM_NODE_MAJOR)) {
    throw new Error(
      `Node.js ${MINIMUM_NODE_MAJOR} ou plus est nécessaire (celui-ci : v${version.replace(/^v/, '')}). ` +
        'Lancez le portail par npm (npm start, npm run serve), qui prend le Node.js du projet, ou installez Node.js 24.',
    );
  }
}

// The server's memory (goal: 300 MB resident under load). Node.js 24 sizes V8's young generation and the old
// generation's growth from the heap's limit, 4 GB on a machine of 16 GB or more: semi-spaces of 64 MB (a young
// generation of 128 MB, all of it resident once used; 32 MB on Node.js 20), and an old generation let grow to up to
// 4 times what survived the last full collection before the next; glibc gives each thread that allocates its own
// malloc arena. Measured on the 1M-user database at 32 connections (README, 'The server's memory'): 445 to 534 MB
// resident with the defaults for 40 to 60 MB of live objects; 226 to 268 MB with the settings below.
/** The Node.js flags every start of the server passes (package.json's scripts, the Dockerfile, the benchmark). */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=1024'] as const;
/** The environment every start of the server sets before the process exists (glibc reads it at start). */
export const SERVER_ENVIRONMENT = { MALLOC_ARENA_MAX: '2' } as const;

/**
 * The memory settings this process was started without, each by its name: a flag of SERVER_NODE_FLAGS absent
 * from the command line and from NODE_OPTIONS, a variable of SERVER_ENVIRONMENT unset. Any value counts as set:
 * an operator may choose another.
 */
export function missingMemorySettings(execArgv: readonly string[] = process.execArgv, env: NodeJS.ProcessEnv = process.env): string[] {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].map((arg) => arg.split('=')[0]!.replace(/_/g, '-'));
  const flags = SERVER_NODE_FLAGS.map((flag) => flag.split('=')[0]!).filter((name) => !given.includes(name));
  const variables = Object.keys(SERVER_ENVIRONMENT).filter((name) => !env[name]);
  return [...flags, ...variables];
}
