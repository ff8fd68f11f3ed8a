// The container image and the compose file. No Docker engine runs on the development machines or in CI, so
// they are not built here: the Dockerfile goes through dockerfile-utils' linter (the one of the Dockerfile
// language server) with every check an error, and through the rules below; compose.yaml is read as YAML.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validate, ValidationSeverity } from 'dockerfile-utils';
import { parse } from 'yaml';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../../server/runtime.ts';

const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
const ERROR = ValidationSeverity.ERROR;

/** The instructions, continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => ({ keyword: line.split(/\s+/)[0]!.toUpperCase(), args: line.slice(line.indexOf(' ') + 1).trim() }));
const stages = instructions.filter((i) => i.keyword === 'FROM');
const lastStage = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

describe('the Dockerfile', () => {
  it('passes the linter with every check an error', () => {
    const diagnostics = validate(dockerfile, {
      deprecatedMaintainer: ERROR,
      directiveCasing: ERROR,
      emptyContinuationLine: ERROR,
      instructionCasing: ERROR,
      instructionCmdMultiple: ERROR,
      instructionEntrypointMultiple: ERROR,
      instructionHealthcheckMultiple: ERROR,
      instructionJSONInSingleQuotes: ERROR,
      instructionWorkdirRelative: ERROR,
    });
    expect(diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('builds in several stages on Node.js 24 slim images, each pinned to that major', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.args).toMatch(/^node:24(\.\d+)*-slim(\s+AS\s+[\w-]+)?$/i);
  });

  it('installs from the lock file only, and the production dependencies alone in the image', () => {
    const runs = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => /npm install\b|npm i\b/.test(run))).toBe(false);
    expect(runs.some((run) => /npm ci\b.*--omit=dev/.test(run))).toBe(true);
    expect(lastStage.some((i) => i.keyword === 'RUN' && /npm (ci|install)/.test(i.args))).toBe(false);
    expect(lastStage.some((i) => i.keyword === 'COPY' && /--from=build\b.*\/app\/dist/.test(i.args))).toBe(true);
  });

  it('runs as a non-root user, with a health check on /readyz, in production mode, in exec form', () => {
    const users = lastStage.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.at(-1)).toBeDefined();
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const healthcheck = lastStage.find((i) => i.keyword === 'HEALTHCHECK');
    expect(healthcheck?.args).toContain('/readyz');
    expect(lastStage.find((i) => i.keyword === 'ENV')?.args).toContain('NODE_ENV=production');
    const cmd = lastStage.find((i) => i.keyword === 'CMD');
    expect(JSON.parse(cmd!.args)).toEqual(['node', ...SERVER_NODE_FLAGS, 'server/main.ts']);
    // The server's memory settings (server/runtime.ts): its flags above, its environment here.
    for (const [name, value] of Object.entries(SERVER_ENVIRONMENT)) expect(lastStage.find((i) => i.keyword === 'ENV')?.args).toContain(`${name}=${value}`);
  });

  it('leaves the development files out of the build context', () => {
    const ignored = fs.readFileSync('.dockerignore', 'utf8').split('\n');
    for (const entry of ['node_modules', '.data', '.git', '.env']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  const compose = parse(fs.readFileSync('compose.yaml', 'utf8')) as {
    services: Record<string, { image?: string; build?: unknown; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: unknown }; environment?: Record<string, string>; env_file?: unknown }>;
  };

  it('runs the portal built from this Dockerfile once its PostgreSQL answers', () => {
    const { portal, db } = compose.services;
    expect(portal?.build).toBe('.');
    expect(portal?.depends_on?.db?.condition).toBe('service_healthy');
    expect(db?.image).toMatch(/^postgres:(1[5-9]|[2-9]\d)\b/);
    expect(JSON.stringify(db?.healthcheck?.test)).toContain('pg_isready');
    expect(portal?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/portail:\$\{POSTGRES_PASSWORD:\?[^}]+\}@db:5432\/portail$/);
    expect(portal?.environment?.NODE_ENV).toBe('production');
  });
});
