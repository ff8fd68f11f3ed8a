import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { backends } from './db/test-databases.ts';
import { DOCUMENT_PATH, operationIds, type OpenApiDocument } from '../../server/api/openapi-document.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const yamlDocument = parse(fs.readFileSync(DOCUMENT_PATH, 'utf8')) as OpenApiDocument;

/** The src= of every <script> and the href= of every <link>, and whether any <script> has inline content. */
function references(html: string) {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  return {
    scripts: scripts.map((m) => /\bsrc="([^"]+)"/.exec(m[1]!)?.[1] ?? null),
    inline: scripts.filter((m) => m[2]!.trim() !== '' || !/\bsrc=/.test(m[1]!)).length,
    links: [...html.matchAll(/<link\b[^>]*\bhref="([^"]+)"/gi)].map((m) => m[1]!),
  };
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

for (const backend of backends) {
  describe(`API contract and its documentation on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

    it('serves the contract at /api/v2/openapi.json without a token: every operation of openapi.yaml', async () => {
      const answer = await get('/api/v2/openapi.json');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const served = answer.json() as OpenApiDocument;
      expect(served.openapi).toBe(yamlDocument.openapi);
      expect(operationIds(served).sort()).toEqual(operationIds(yamlDocument).sort());
      expect(served).toEqual(JSON.parse(JSON.stringify(yamlDocument)));
    });

    it('serves it to a caller with a token just the same', async () => {
      const answer = await get('/api/v2/openapi.json', { authorization: `Bearer ${await t.tokenFor('admin.clinique@portail.test')}` });
      expect(answer.statusCode).toBe(200);
    });

    it('renders it at /api/docs as HTML without a token, under the strict content policy', async () => {
      const answer = await get('/api/docs');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    });

    it('loads only same-origin files that exist, and no inline script', async () => {
      const { scripts, inline, links } = references((await get('/api/docs')).body);
      expect(inline).toBe(0);
      expect(scripts.length).toBeGreaterThanOrEqual(2);
      for (const url of [...scripts, ...links]) {
        expect(url).toMatch(/^\/(?!\/)/);
        const file = await get(url!);
        expect(file.statusCode, url!).toBe(200);
        expect(file.rawPayload.length, url!).toBeGreaterThan(0);
      }
      for (const url of scripts) expect((await get(url!)).headers['content-type']).toMatch(/^text\/javascript/);
    });

    it('starts Swagger UI on the served contract, without the public validator and without query-string configuration', async () => {
      const { scripts } = references((await get('/api/docs')).body);
      const initializer = (await Promise.all(scripts.map((url) => get(url!)))).map((a) => a.body).find((body) => body.includes('SwaggerUIBundle({'));
      expect(initializer).toBeDefined();
      expect(initializer).toContain("url: '/api/v2/openapi.json'");
      expect(initializer).toContain('validatorUrl: null');
      expect(initializer).toContain('queryConfigEnabled: false');
    });

    it('answers 404 for any other file under /api/docs, a path outside it included', async () => {
      for (const url of ['/api/docs/index.html', '/api/docs/package.json', '/api/docs/..%2Fpackage.json', '/api/docs/constructor']) {
        const answer = await get(url);
        expect(answer.statusCode, url).toBe(404);
        expect(answer.json()).toMatchObject({ error: 'NotFound' });
      }
    });

    it('still asks for a token everywhere else under /api/', async () => {
      for (const url of ['/api/v2/roles', '/api/v2/organizations', '/api/v2/audit', '/api/v2/users/me']) {
        expect((await get(url)).statusCode, url).toBe(401);
      }
    });
  });
}

describe('the SPA', () => {
  it('does not bundle the documentation renderer', () => {
    const root = path.resolve(path.dirname(DOCUMENT_PATH), '..');
    const offending = filesUnder(path.join(root, 'src')).filter((file) => /swagger-ui/.test(fs.readFileSync(file, 'utf8')));
    expect(offending).toEqual([]);
  });
});
