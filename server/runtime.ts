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
