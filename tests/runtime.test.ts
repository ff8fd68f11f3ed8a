// The whole suite runs on the project's Node.js (24 LTS): the test processes, and the servers they start.
// The server's memory settings: what they do to V8, and every start of the server passing them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serverCommand } from '../bench/server-process.ts';
import { assertSupportedRuntime, MINIMUM_NODE_MAJOR, missingMemorySettings, nodeMajor, SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../server/runtime.ts';

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

describe("the server's memory settings", () => {
  const started = `${Object.entries(SERVER_ENVIRONMENT).map(([name, value]) => `${name}=${value}`).join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} server/main.ts`;

  it('hold the young generation to 32 MB and the heap to about 1 GB (Node.js 24 by default: up to 128 MB and 4 GB)', () => {
    // The young generation at its largest: short-lived objects allocated until its size stops growing.
    const probe = `const v8 = require('node:v8'); let kept = []; let young = 0;
      for (let i = 0; i < 3e6; i += 1) { kept.push({ i, s: 'x' + i }); if (kept.length > 20000) kept = [];
        if (i % 50000 === 0) young = Math.max(young, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size); }
      console.log(JSON.stringify({ young: young / 2 ** 20, limit: v8.getHeapStatistics().heap_size_limit / 2 ** 20 }));`;
    const measure = (flags: readonly string[]) => JSON.parse(execFileSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' })) as { young: number; limit: number };
    const set = measure(SERVER_NODE_FLAGS);
    expect(set.young).toBeLessThanOrEqual(32);
    expect(set.limit).toBeGreaterThan(1024);
    expect(set.limit).toBeLessThan(1200);
  });

  it('are passed by every start of the server: the npm scripts, the benchmark (the image: tests/ops/container.test.ts)', () => {
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const starts = Object.entries(scripts).filter(([, script]) => script.includes('server/main.ts'));
    expect(starts.map(([name]) => name).sort()).toEqual(['dev:server', 'serve', 'start']);
    for (const [, script] of starts) expect(script.split(' && ').at(-1)).toBe(started);
    const bench = serverCommand({ PORT: '8080' });
    expect(bench.args).toEqual([...SERVER_NODE_FLAGS, 'server/main.ts']);
    expect(bench.env).toMatchObject({ ...SERVER_ENVIRONMENT, PORT: '8080' });
  });

  it('are named when missing, from the command line, NODE_OPTIONS and the environment; any value counts as set', () => {
    expect(missingMemorySettings([...SERVER_NODE_FLAGS], { ...SERVER_ENVIRONMENT })).toEqual([]);
    expect(missingMemorySettings([], {})).toEqual(['--max-semi-space-size', '--max-old-space-size', 'MALLOC_ARENA_MAX']);
    expect(missingMemorySettings(['--max-old-space-size=2048'], { NODE_OPTIONS: '--max_semi_space_size=8', MALLOC_ARENA_MAX: '4' })).toEqual([]);
    expect(missingMemorySettings(['--max-semi-space-size=16'], { MALLOC_ARENA_MAX: '' })).toEqual(['--max-old-space-size', 'MALLOC_ARENA_MAX']);
  });
});
