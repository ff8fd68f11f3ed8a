// The API's JSON compressed (issue 18): Brotli or gzip as accepted, above 1 kB; small answers and clients that
// accept neither get it as it is.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const backend = backends[0]!;

describe(`compressed answers on ${backend.name}`, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    token = await t.tokenFor('backoffice@portail.test');
  });
  afterAll(() => t?.close());

  const list = (acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url: '/api/v2/users?pageSize=50', headers: { authorization: `Bearer ${token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

  it('sends a list Brotli-compressed to a client that accepts it, and the same JSON once decompressed', async () => {
    const plain = await list();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await list('br, gzip');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const gz = await list('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8')).items).toHaveLength(50);
  });

  it('leaves an answer under 1 kB as it is', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
