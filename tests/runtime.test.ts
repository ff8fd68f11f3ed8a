// The whole suite runs on the project's Node.js (24 LTS): the test processes, and the servers they start.
import { describe, expect, it } from 'vitest';
import { assertSupportedRuntime, MINIMUM_NODE_MAJOR, nodeMajor } from '../server/runtime.ts';

describe('the runtime', () => {
  it('is Node.js 24 or newer, here and in every process the tests start (they inherit this PATH)', () => {
    expect(MINIMUM_NODE_MAJOR).toBe(24);
    expect(nodeMajor(process.versions.node)).toBeGreaterThanOrEqual(24);
    expect(() => assertSupportedRuntime()).not.toThrow();
  });

  it('refuses to start the server on an older Node.js, saying which one it found', () => {
    expect(() => assertSupportedRuntime('20.20.2')).toThrow('Node.js 24 ou plus est nécessaire (celui-ci : v20.20.2)');
    expect(() => assertSupportedRuntime('v23.11.0')).toThrow(/celui-ci : v23\.11\.0/);
    expect(() => assertSupportedRuntime('not a version')).toThrow();
    expect(() => assertSupportedRuntime('24.0.0')).not.toThrow();
    expect(() => assertSupportedRuntime('26.10.0')).not.toThrow();
  });
});
